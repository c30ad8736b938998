"""One game loop for any mix of bots and people.

Every player, bot or person, is asked through the same protocol: it gets the seat's
view and returns an action. Chance (the deal) is drawn from a generator seeded once
per match, so a match replays from its seed and its players' seeds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from random import Random

from gnav.bots.base import Bot
from gnav.errors import IllegalActionError
from gnav.events import Event
from gnav.match import MatchState
from gnav.rules import Rules
from gnav.views import seat_view

Listener = Callable[[MatchState, tuple[Event, ...]], None]


class StopMatch(Exception):
    """Raised by a player (a person pressing q) to stop the match where it is."""


def play_match(
    rules: Rules,
    names: Sequence[str],
    players: Sequence[Bot],
    *,
    seed: int | None = None,
    dealer: int | None = None,
    lives: Mapping[int, int] | None = None,
    listener: Listener | None = None,
    max_rounds: int | None = None,
    match: MatchState | None = None,
) -> MatchState:
    """Play until the match is over (or ``max_rounds`` more rounds, or a StopMatch),
    and return the final state. ``listener`` hears the public events of every step."""
    if len(players) != len(names):
        raise IllegalActionError(f"{len(names)} seats need {len(names)} players, "
                                 f"not {len(players)}")
    rng = Random(seed)
    if match is None:
        match = MatchState.new(rules, names, dealer=dealer, seed=seed, lives=lives)
    dealt = 0
    try:
        while not match.over:
            if match.phase == "deal":
                if max_rounds is not None and dealt >= max_rounds:
                    break
                match = match.deal(rng=rng)
                dealt += 1
                if listener is not None and match.round is not None:
                    listener(match, match.round.public)
                continue
            seat = match.to_act
            if seat is None:  # pragma: no cover - phase "play" always has a seat to act
                break
            view = seat_view(match, seat)
            action = players[seat].act(view)
            if action not in view.legal:
                raise IllegalActionError(
                    f"{players[seat].name} chose {action!r} for {names[seat]}; "
                    f"legal: {', '.join(view.legal)}"
                )
            match, events = match.apply(action)
            if listener is not None:
                listener(match, events)
    except StopMatch:
        pass
    return match
