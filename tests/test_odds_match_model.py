"""``gnav.odds.match_model``: a playout's lives valued by the lives model, as the coach
gives the chance to win where no match strategy ships (issue 29 §4)."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gnav
from gnav.match import MatchState
from gnav.match_value import match_result
from gnav.odds.coach import advise
from gnav.odds.match_coach import match_chances
from gnav.odds.match_model import ModelWins
from gnav.rules import Rules
from gnav.views import SeatView, seat_view


def _first_view(seats: int, lives: dict[int, int], seed: int, *, focal: int = 0,
                sitting_out: bool = False) -> SeatView | None:
    """``focal``'s view at its turn of a round dealt from ``lives`` (random play
    before it), or None if the round ends first."""
    rules = Rules.of("gnav")
    match = MatchState.new(rules, [f"s{i}" for i in range(seats)], dealer=seats - 1,
                           lives=lives).deal(rng=Random(seed))
    walk = gnav.RandomBot(seed)
    while match.to_act is not None and match.to_act != focal:
        match, _ = match.apply(walk.act(seat_view(match, match.to_act)))
        if match.round is None or match.round.over:
            return None
    return None if match.to_act != focal else seat_view(match, focal)


def test_by_hand_the_last_life_decides() -> None:
    view = _first_view(3, {0: 1, 1: 1, 2: 2}, seed=1)
    assert view is not None
    wins = ModelWins(view)
    assert wins.before == (1, 1, 2)  # turn order: the dealer (seat 2) last
    assert wins.after((-1, 0, 0)) == 0.0  # it pays its last life: out
    assert wins.after((0, -1, 0)) == pytest.approx(1 / 4)  # 1 life against 2: 1/4
    assert wins.after((0, -1, -2)) == 1.0  # the others are out: it has won
    assert wins.after((-1, -1, -2)) == pytest.approx(1 / 3)  # all out at once: shared


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), seats=st.integers(3, 7),
       change=st.lists(st.integers(-2, 1), min_size=7, max_size=7))
def test_it_is_the_model_over_the_whole_table(seed: int, seats: int,
                                              change: list[int]) -> None:
    """The cached value of a playout equals ``match_result`` of every seat's lives, the
    deciding seat's entry, whichever of the others moved."""
    rng = Random(seed)
    lives = {i: rng.randint(1, 4) for i in range(seats)}
    view = _first_view(seats, lives, seed, focal=rng.randrange(seats))
    if view is None or view.seat is None:
        return
    wins = ModelWins(view)
    cols = change[:seats]
    by_seat = [0] * seats
    for s, d in zip(view.order, cols, strict=True):
        by_seat[s] = d
    start = [lives[s] for s in range(seats)]
    assert wins.after(cols) == pytest.approx(match_result(start, by_seat)[view.seat],
                                             abs=1e-12)


def test_a_change_for_every_column_or_none() -> None:
    view = _first_view(3, {0: 2, 1: 2, 2: 2}, seed=2)
    assert view is not None
    with pytest.raises(ValueError, match="one change a column"):
        ModelWins(view).after((0, 0))


def test_the_coach_gives_the_models_chances_at_a_large_table() -> None:
    """At 6 seats no match strategy ships: the sampled figures carry the model's
    chances, which are chances, and a seat on its last life that pays with one action
    for sure and never with the other is worth nothing with the first."""
    for seed in range(40):
        rng = Random(seed)
        view = _first_view(6, {i: rng.randint(1, 3) for i in range(6)}, seed,
                           focal=rng.randrange(6))
        if view is None or len(view.legal) < 2:
            continue
        assert match_chances(view) is None  # no match file: the model speaks
        advice = advise(view, samples=64)
        assert advice is not None and advice.win_source == "model"
        assert advice.win_stand is not None and advice.win_swap is not None
        assert 0.0 <= advice.win_stand <= 1.0 and 0.0 <= advice.win_swap <= 1.0
        assert advice.as_json()["win_source"] == "model"
        if view.lives[view.order[view.order.index(view.seat)]] == 1:
            for paid, won in ((advice.pay_stand, advice.win_stand),
                              (advice.pay_swap, advice.win_swap)):
                if paid.value == 1.0:
                    assert won == 0.0
        return
    pytest.fail("no decision with a choice in 40 deals")


def test_the_solved_match_still_speaks_where_it_ships() -> None:
    """At 2 seats a match strategy ships: its chances, not the model's."""
    for seed in range(40):
        view = _first_view(2, {0: 4, 1: 4}, seed, focal=1)
        if view is None or len(view.legal) < 2:
            continue
        advice = advise(view)
        assert advice is not None and advice.win_source == "match"
        return
    pytest.fail("no decision with a choice in 40 deals")
