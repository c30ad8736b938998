"""The one game loop (gnav.runner.play_until) and the loops made of it."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest
from hypothesis import given, settings

from gnav.bots.random_bot import RandomBot
from gnav.errors import IllegalActionError
from gnav.events import Ask, Stand
from gnav.match import MatchState
from gnav.protocol import Bot
from gnav.rules import Rules
from gnav.runner import StopMatch, play_match, play_round, play_until
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


class Quitter:
    """A random bot that stops the match at its ``at``-th decision (a person's q)."""

    name = "quitter"

    def __init__(self, at: int) -> None:
        self.bot = RandomBot(1)
        self.at = at
        self.asked = 0

    def act(self, view: SeatView) -> str:
        self.asked += 1
        if self.asked == self.at:
            raise StopMatch
        return self.bot.act(view)


@pytest.mark.parametrize("heard", [False, True], ids=["lean loop", "heard"])
def test_a_stop_mid_round_keeps_the_decisions_made(heard: bool) -> None:
    # play_match returns the match as the loop left it, not as the round began: the
    # record keeps the decisions of the round cut short.
    quitter = Quitter(at=4)
    bots: list[Bot] = [quitter if s == 4 else RandomBot(s) for s in range(5)]
    names = [f"S{i}" for i in range(5)]
    heard_matches: list[MatchState] = []
    final = play_match(Rules.of("gnav"), names, bots, seed=8,
                       listener=(lambda m, _e: heard_matches.append(m)) if heard else None)
    assert final.round is not None and not final.round.over
    # Every seat before the quitter in this round has decided, and is kept.
    assert final.round.seats[final.round.turn] == 4
    assert final.round.turn == len([e for e in final.round.public
                                    if isinstance(e, Stand | Ask)]) > 0
    # The same state the loop reached: replayed by hand, deal for deal.
    again = play_match(Rules.of("gnav"), names, [RandomBot(s) if s != 4 else RandomBot(1)
                                                 for s in range(5)], seed=8,
                       max_rounds=len(final.history) + 1)
    assert again.history[:len(final.history)] == final.history
    if heard:
        assert heard_matches[-1] == final


def test_a_stop_as_a_round_ends_keeps_the_round() -> None:
    # The listener stops at the round's end (a person pressing q at "Round over"): the
    # round is settled into the history, and no new round is dealt.
    def listener(match: MatchState, _events: tuple[Any, ...]) -> None:
        if match.history:
            raise StopMatch

    final = play_match(Rules.of("gnav"), [f"S{i}" for i in range(4)],
                       [RandomBot(s) for s in range(4)], seed=2, listener=listener)
    assert len(final.history) == 1 and final.round is final.history[0]
    assert final.round.over and final.winners is None
