"""What the one-round game and the match game of ``gnav.openspiel`` share: the game's
name, its actions, and the strings and tensors a seat reads, each from its ``SeatView``
alone."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from gnav.events import Ask, RoundEnd, Showdown, Stand
from gnav.features import information, observation
from gnav.infoset import infoset_key
from gnav.views import SeatView
from gnav.vocab import Action

SHORT_NAME = "python_gnav"
# OpenSpiel's actions are numbers: the index of a decision here.
ACTIONS: tuple[Action, ...] = (Action.STAND, Action.SWAP)
STAND, SWAP = 0, 1


def check_player(player: int, seats: int) -> None:
    if not 0 <= player < seats:
        raise ValueError(f"{SHORT_NAME}: no player {player} (players 0 to {seats - 1})")


def info_string(view: SeatView) -> str:
    """The seat's information set: ``gnav.infoset.infoset_key``, the key ``gnav solve``
    and the ``expert`` use, while the round is played; once it is over, the showdown and
    the end are added (the key stops at the last decision)."""
    key = infoset_key(view)
    for e in view.public:
        if isinstance(e, Showdown):
            key += "|shown:" + ",".join(e.pieces)
        elif isinstance(e, RoundEnd):
            key += f"|end:{e.ended_by}"
    return key


def observation_text(view: SeatView) -> str:
    """The table as the seat sees it now: a readable form of ``features.observation``."""
    parts = [f"p{view.order.index(view.seat)}" if view.seat in view.order else "spectator",
             f"piece {view.piece}", f"dealt {view.dealt}", f"stock {view.stock_left}"]
    acted: dict[int, str] = {}
    for e in view.public:
        if isinstance(e, Stand | Ask):
            acted[e.seat] = e.kind
    pos = {s: i for i, s in enumerate(view.order)}
    parts.append("acted " + ",".join(f"{pos[s]}:{'stand' if k == 'stand' else 'swap'}"
                                     for s, k in sorted(acted.items())))
    parts.append("knocked " + ",".join(str(pos[s]) for s in view.knocked))
    parts.append("revealed " + ",".join(f"{pos[s]}:{p}" for s, p in
                                         sorted(view.revealed.items())))
    parts.append("lives " + ",".join(str(view.lives[s]) for s in view.order))
    for e in view.public:
        if isinstance(e, Showdown):
            parts.append("shown " + ",".join(e.pieces))
    return " | ".join(parts)


def undealt(types: int, deck: Iterable[int], dealt: Iterable[int]) -> list[int]:
    """Copies of each piece type (an index below ``types``) in ``deck`` and not in
    ``dealt``: what chance may still deal."""
    left = [0] * types
    for piece in deck:
        left[piece] += 1
    for piece in dealt:
        left[piece] -= 1
    return left


class Tensors:
    """A state's tensors for a seat, as both games give them: its view's features, and
    zeros while it has no view (before its deal). Mixed into a ``pyspiel.State``
    subclass that has ``_cfg`` (``info_size``, ``obs_size``) and ``view``."""

    if TYPE_CHECKING:
        _cfg: Any

        def current_player(self) -> int: ...

        def view(self, player: int) -> SeatView | None: ...

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        if player is None:
            player = self.current_player()
        check_player(player, self._cfg.seats)
        view = self.view(player)
        return [0.0] * self._cfg.info_size if view is None else information(view)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        if player is None:
            player = self.current_player()
        check_player(player, self._cfg.seats)
        view = self.view(player)
        return [0.0] * self._cfg.obs_size if view is None else observation(view)
