"""The one game loop (gnav.runner.moves) and the loops made of it."""

from __future__ import annotations

from random import Random

import pytest

from gnav.bot import Bot
from gnav.bots.random_bot import RandomBot
from gnav.errors import IllegalActionError
from gnav.match import MatchState
from gnav.rules import Rules
from gnav.runner import moves, play_round
from gnav.views import SeatView


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


def test_nothing_is_decided_ahead_of_the_caller() -> None:
    bots = [Counting(i) for i in range(5)]
    taken = []
    for move in moves(dealt(), bots):
        taken.append(move)
        if len(taken) == 2:
            break
    assert sum(b.asked for b in bots) == 2
    seat, action, match, events = taken[-1]
    assert match.round is not None and seat == match.round.seats[1]  # the second to act
    assert action in ("stand", "swap") and events and match.round is not None
    assert match.round.turn == 2


def test_a_player_of_none_stops_the_loop_where_a_person_is_due() -> None:
    match = dealt()
    assert match.to_act is not None
    person = match.round.seats[2] if match.round is not None else 0
    bots: list[Bot] = [RandomBot(i) for i in range(5)]
    made = list(moves(match, lambda seat: None if seat == person else bots[seat]))
    assert len(made) == 2 and made[-1][2].to_act == person


def test_play_round_is_the_loop_to_the_rounds_end() -> None:
    match = dealt()
    whole = list(moves(match, [RandomBot(i) for i in range(5)]))
    end, decisions = play_round(match, [RandomBot(i) for i in range(5)])
    assert decisions == len(whole) and end == whole[-1][2]
    assert end.to_act is None


def test_an_illegal_choice_is_refused() -> None:
    class Stubborn:
        name = "stubborn"

        def act(self, view: SeatView) -> str:
            return "fly"

    with pytest.raises(IllegalActionError, match="stubborn chose 'fly'"):
        play_round(dealt(), [Stubborn() for _ in range(5)])
