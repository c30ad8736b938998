"""``python_gnav(match=true)``: a whole match as one OpenSpiel game (issue 29).

Every round is dealt, decided and drawn as the one-round game does it (a chance node per
position dealt in, dealer's left first, the dealer last, a piece type each; the engine's
own draws), and the match goes on through ``gnav.match.MatchState``: lives, eliminations,
two fools gaining, the next dealer, who sits out, the winners. Players are seats, not
positions: player ``i`` is seat ``i`` for the whole match, and seat ``seats - 1`` deals
the first round (so that the first round's positions are the seats). The returns are the
match's result: 1 for the winner, 0 for every other seat; a shared win (everyone left
going out in one round, or the most lives at the round limit) is split evenly, so the
returns always sum to 1 (a constant-sum game).

OpenSpiel needs a finite game: a match plays at most the rules' ``max_rounds`` rounds,
and where the rules set none, ``ROUNDS_PER_LIFE`` x seats x lives (a cap no ordinary
match comes near: docs/lengths.md), after which the most lives win, as the rules'
round limit says (docs/spec/rules.md). That is the one change the adapter makes to the
match.

What a player sees, still from its ``SeatView`` alone: the information state string is
every round it has seen, each as the one-round game writes it (``info_string``, with the
showdown), then the round under way: perfect recall over the match. The observation is
the table now. The tensors are the round under way's (``gnav.features``, lives as the
view shows them; zero while a round is dealt): no earlier round's events.
"""

from __future__ import annotations

from typing import Any, Protocol

import pyspiel

from gnav.match import MatchState
from gnav.openspiel.common import (
    ACTIONS,
    SHORT_NAME,
    STAND,
    SWAP,
    Tensors,
    check_player,
    info_string,
    observation_text,
    undealt,
)
from gnav.rules import Rules
from gnav.views import SeatView, seat_view, spectator_view

ROUNDS_PER_LIFE = 10


class Shared(Protocol):
    """What every state of one game shares (``gnav.openspiel``'s config)."""

    rules: Rules
    seats: int
    lives: int
    types: int
    names: tuple[str, ...]
    info_size: int
    obs_size: int


class _MatchNode:
    """Where a match stands: the match, the deal of its next round so far, and each
    seat's record of the rounds it has seen. Immutable, so a clone shares it."""

    __slots__ = ("dealt", "match", "seen")

    def __init__(self, match: MatchState, dealt: tuple[int, ...],
                 seen: tuple[tuple[str, ...], ...]) -> None:
        self.match = match
        self.dealt = dealt
        self.seen = seen

    def __deepcopy__(self, memo: dict[int, object]) -> _MatchNode:
        return self


def start(cfg: Shared) -> _MatchNode:
    match = MatchState.new(cfg.rules, cfg.names, dealer=cfg.seats - 1,
                           lives=dict.fromkeys(range(cfg.seats), cfg.lives))
    return _MatchNode(match, (), ((),) * cfg.seats)


def dealing(node: _MatchNode) -> bool:
    """Whether chance deals the next round (none under way, the match not over)."""
    m = node.match
    return m.winners is None and (m.round is None or m.round.over)


class GnavMatchState(Tensors, pyspiel.State):  # type: ignore[misc]
    """A state of ``python_gnav(match=true)``: chance deals each round, seats decide,
    chance draws, until the match has its winners."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self._cfg: Shared = game.config
        self._node = start(game.config)

    @property
    def match(self) -> MatchState:
        return self._node.match

    def _left(self) -> list[int]:
        """While the deal goes on: copies of each piece type not dealt yet."""
        return undealt(self._cfg.types, self._cfg.rules.deck, self._node.dealt)

    def current_player(self) -> int:
        m = self._node.match
        if m.winners is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        rnd = m.round
        if rnd is None or rnd.over or rnd.drawing:
            return int(pyspiel.PlayerId.CHANCE)
        return rnd.seats[rnd.turn]

    def is_terminal(self) -> bool:
        return self._node.match.winners is not None

    def _legal_actions(self, player: int) -> list[int]:
        m = self._node.match
        assert m.to_act == player
        return [ACTIONS.index(a) for a in m.legal_actions()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        node = self._node
        if not dealing(node):
            return [(piece, float(p)) for piece, p in node.match.chance_outcomes()]
        left = self._left()
        total = sum(left)
        return [(piece, count / total) for piece, count in enumerate(left) if count]

    def _apply_action(self, action: int) -> None:
        node = self._node
        cfg = self._cfg
        m = node.match
        if dealing(node):
            if not 0 <= action < cfg.types or self._left()[action] <= 0:
                raise ValueError(f"{SHORT_NAME}: no piece {action} left to deal")
            dealt = (*node.dealt, action)
            if len(dealt) < len(m.turn_order()):
                self._node = _MatchNode(m, dealt, node.seen)
                return
            self._node = _MatchNode(m.deal(hands=list(dealt)), (), node.seen)
            return
        rnd = m.round
        assert rnd is not None
        if rnd.drawing:
            if not 0 <= action < cfg.types or not rnd.chance_pool()[action]:
                raise ValueError(f"{SHORT_NAME}: no piece {action} left to draw")
            m, _ = m.apply(action)
        else:
            if action not in (STAND, SWAP):
                raise ValueError(f"{SHORT_NAME}: no action {action} (0 stand, 1 swap)")
            m, _ = m.apply(ACTIONS[action])
        seen = node.seen
        if m.round is not None and m.round.over:  # the round ended: each seat keeps it
            seen = tuple((*seen[s], _round_text(m, s)) for s in range(cfg.seats))
        self._node = _MatchNode(m, (), seen)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            piece = self._cfg.rules.ids[action] if 0 <= action < self._cfg.types else "?"
            if dealing(self._node):
                return f"deal p{len(self._node.dealt)}: {piece}"
            return f"draw: {piece}"
        return ACTIONS[action] if action in (STAND, SWAP) else f"action {action}"

    def returns(self) -> list[float]:
        winners = self._node.match.winners
        if winners is None:
            return [0.0] * self._cfg.seats
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(self._cfg.seats)]

    def view(self, player: int | None) -> SeatView | None:
        """``player``'s view of the round under way (None between rounds); None for the
        spectator's."""
        m = self._node.match
        if dealing(self._node) or m.round is None or m.winners is not None:
            return None
        return spectator_view(m) if player is None else seat_view(m, player)

    def information_state_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        check_player(player, self._cfg.seats)
        parts = [f"p{player}", *self._node.seen[player]]
        view = self.view(player)
        if view is not None:
            parts.append(info_string(view) if view.seat in view.order else "out")
        elif not self.is_terminal():
            parts.append("the deal")
        return " / ".join(parts)

    def observation_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        check_player(player, self._cfg.seats)
        view = self.view(player)
        if view is not None:
            return observation_text(view)
        m = self._node.match
        lives = ",".join(str(x) for x in m.current_lives())
        said = "over" if self.is_terminal() else f"the deal of round {m.rounds + 1}"
        return f"p{player}: {said} | lives {lives}"

    def __str__(self) -> str:
        """The whole truth, for debugging: lives, the round's hands and drawn stock."""
        m = self._node.match
        ids = self._cfg.rules.ids
        text = f"round {m.rounds} | lives {','.join(str(x) for x in m.current_lives())}"
        rnd = m.round
        if rnd is not None:
            text += (f" | hands {' '.join(ids[p] for p in rnd.hands)} | drawn "
                     f"{' '.join(ids[p] for p in rnd.stock)}")
        if self._node.dealt:
            text += f" | dealing {' '.join(ids[p] for p in self._node.dealt)}"
        if m.winners is not None:
            text += f" | winners {','.join(str(s) for s in m.winners)}"
        return text


def _round_text(match: MatchState, seat: int) -> str:
    """A finished round as ``seat`` saw it: the one-round game's information state with
    the showdown, or "out" where it was not dealt in."""
    view = seat_view(match, seat)
    return info_string(view) if view.seat in view.order else "out"
