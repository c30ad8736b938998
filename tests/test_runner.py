"""The one game loop (gnav.runner.play_until) and the loops made of it."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest
from hypothesis import given, settings

from gnav.bot import Bot
from gnav.bots.random_bot import RandomBot
from gnav.errors import IllegalActionError
from gnav.match import MatchState
from gnav.rules import Rules
from gnav.runner import play_round, play_until
from gnav.views import SeatView, seat_view, seat_view_during
from strategies import Setup, setups


class Counting:
    """A random bot that counts its decisions."""

    name = "counting"

    def __init__(self, seed: int) -> None:
        self.bot = RandomBot(seed)
        self.asked = 0

    def act(self, view: SeatView) -> str:
        self.asked += 1
        return self.bot.act(view)


def dealt(seats: int = 5, seed: int = 3) -> MatchState:
    return MatchState.new(Rules.of("gnav"), [f"S{i}" for i in range(seats)],
                          dealer=0).deal(rng=Random(seed))


def test_each_decision_is_heard_before_the_next_player_is_asked() -> None:
    bots = [Counting(i) for i in range(5)]
    calls: list[tuple[str, int]] = []

    def player(seat: int) -> Bot | None:
        calls.append(("asked", seat))
        return None if sum(b.asked for b in bots) == 2 else bots[seat]

    def moved(seat: int, action: str, match: MatchState, events: tuple[Any, ...]) -> None:
        assert action in ("stand", "swap") and events and match.to_act != seat
        calls.append(("moved", seat))

    start = dealt()
    assert start.round is not None
    first, second, third = start.round.seats[:3]
    end, decisions = play_until(start, player, moved)
    assert decisions == 2 and sum(b.asked for b in bots) == 2
    assert calls == [("asked", first), ("moved", first), ("asked", second),
                     ("moved", second), ("asked", third)]
    assert end.to_act == third  # nothing was decided past the last player


def test_a_player_of_none_stops_the_loop_where_a_person_is_due() -> None:
    match = dealt()
    assert match.round is not None
    person = match.round.seats[2]
    bots: list[Bot] = [RandomBot(i) for i in range(5)]
    end, decisions = play_until(match, lambda seat: None if seat == person else bots[seat])
    assert decisions == 2 and end.to_act == person


def test_play_round_is_the_loop_to_the_rounds_end() -> None:
    match = dealt()
    heard: list[tuple[MatchState, tuple[Any, ...]]] = []
    end, decisions = play_until(match, [RandomBot(i) for i in range(5)],
                                lambda _s, _a, after, events: heard.append((after, events)))
    listened: list[tuple[MatchState, tuple[Any, ...]]] = []
    again, made = play_round(match, [RandomBot(i) for i in range(5)],
                             listener=lambda after, events: listened.append((after, events)))
    assert decisions == made == len(heard) and end == again == heard[-1][0]
    assert listened == heard
    assert end.to_act is None


def test_an_illegal_choice_is_refused() -> None:
    class Stubborn:
        name = "stubborn"

        def act(self, view: SeatView) -> str:
            return "fly"

    with pytest.raises(IllegalActionError, match="stubborn chose 'fly'"):
        play_round(dealt(), [Stubborn() for _ in range(5)])


@settings(max_examples=60, deadline=None)
@given(setups())
def test_the_lean_loop_equals_the_loop_that_rebuilds_the_match(setup: Setup) -> None:
    # Unheard, play_until plays the round on its own state and settles it once; heard,
    # it rebuilds the match at every decision. A match of rounds must come out the same,
    # and every view on the way too.
    seats = len(setup.names)
    lean = full = setup.new_match()
    rng = Random(setup.seed)
    seen: list[MatchState] = []
    for _ in range(6):
        if lean.phase != "deal":
            break
        seed = rng.randrange(2**32)
        lean, full = lean.deal(rng=Random(seed)), full.deal(rng=Random(seed))
        start = lean
        seen.clear()
        lean, made = play_until(lean, [RandomBot(setup.seed + i) for i in range(seats)])
        full, again = play_until(full, [RandomBot(setup.seed + i) for i in range(seats)],
                                 lambda _s, _a, after, _e: seen.append(after))
        assert (lean, made) == (full, again)
        for after in seen[:-1]:  # the round under way, seen from the start of the round
            assert after.round is not None
            for seat in range(seats):
                assert seat_view_during(start, after.round, seat) == seat_view(after, seat)


def test_only_the_end_of_the_round_under_way_settles() -> None:
    match = dealt()
    rnd = match.round
    assert rnd is not None
    with pytest.raises(IllegalActionError, match="only the end"):
        match.settle(rnd, ())  # not over
    end, _ = play_round(match, [RandomBot(i) for i in range(5)])
    assert end.round is not None
    with pytest.raises(IllegalActionError, match="only the end"):
        dealt(seed=4).settle(end.round, ())  # the same seats, another deal
