"""The lives states matches are played at (gnav.fast.lifestates): every round's start
kept as the batch engine plays it, the full-table states drawn from them, the field's
law of lives, and rows re-valued in match terms."""

from __future__ import annotations

import numpy as np
import pytest

from gnav.fast.expert import ExpertPolicy
from gnav.fast.lifestates import (
    RoundStarts,
    draw_states,
    expected_win_change,
    full_table_states,
    measured_law,
    round_starts,
    win_change,
)
from gnav.fast.matches import play_matches
from gnav.match_value import round_in_match, win_chances
from gnav.rules import Rules


@pytest.fixture(scope="module")
def starts_at_4() -> tuple[Rules, RoundStarts]:
    rules = Rules.of("gnav")
    starts = round_starts(rules, 4, 300, [ExpertPolicy(rules, 4)],
                          rng=np.random.default_rng(5))
    return rules, starts


def test_every_round_of_every_match_is_kept(starts_at_4: tuple[Rules, RoundStarts]) -> None:
    rules, starts = starts_at_4
    # The same seed plays the same matches without a watcher: as many rounds each.
    again = play_matches(rules, 4, 300, [ExpertPolicy(rules, 4)],
                         rng=np.random.default_rng(5))
    assert np.array_equal(np.bincount(starts.match, minlength=300), again.rounds)
    assert np.array_equal(starts.result > 0, again.winners)
    assert starts.result.sum(1) == pytest.approx(np.ones(300))
    first = np.unique(starts.match, return_index=True)[1]
    assert (starts.lives[first] == rules.options.lives).all()
    # Seats dealt in have lives; a seat out has none and is never dealt in again.
    assert (starts.lives[starts.active] > 0).all()
    assert not (starts.active & (starts.lives == 0)).any()
    for m in (0, 1, 2):
        lives = starts.lives[starts.match == m].astype(int)
        assert (np.diff((lives == 0).astype(int), axis=0) >= 0).all()


def test_full_table_states_are_rounds_of_every_seat(starts_at_4: tuple[Rules, RoundStarts]) -> None:
    rules, starts = starts_at_4
    states = full_table_states(starts)
    assert sum(p for _, p in states) == pytest.approx(1.0)
    assert all(len(s) == 4 and min(s) > 0 for s, _ in states)
    # Every match's first round is at the start's lives: the most frequent state.
    assert states[0][0] == (rules.options.lives,) * 4
    full = starts.active.all(1)
    assert states[0][1] == pytest.approx(300 / full.sum())
    # In turn order: the dealer (seat 0 in the first round) last.
    assert (starts.states()[0] == starts.lives[0][[1, 2, 3, 0]]).all()


def test_the_fields_law_loses_lives(starts_at_4: tuple[Rules, RoundStarts]) -> None:
    _, starts = starts_at_4
    law = measured_law(starts)
    changes = dict(law.steps)
    assert -1 in changes and changes[-1] > 0.5
    assert sum(d * p for d, p in law.steps) < 0
    # Gnav at 4 seats gains (two fools): the law saw it.
    assert 1 in changes


def test_rows_are_revalued_in_match_terms() -> None:
    before = np.array([[2, 1, 1], [2, 1, 1], [1, 1, 1]])
    change = np.array([[1, -1, 0], [0, 0, -1], [1, -1, 0]])
    got = win_change(before, change)
    for row in range(3):
        assert got[row] == pytest.approx(round_in_match(tuple(before[row]),
                                                        tuple(change[row])))
    assert got.sum(1) == pytest.approx(np.zeros(3), abs=1e-9)
    # One state for every row.
    one = win_change([4, 4, 4, 4], [[-1, 0, 0, 0], [0, 0, 0, -2]])
    assert one[0, 0] == pytest.approx(win_chances((3, 4, 4, 4))[0] - 0.25)
    assert one[1, 3] < one[0, 0] < 0


def test_rows_are_revalued_over_the_fields_states() -> None:
    change = np.array([[-1, 0, 0], [0, 1, -1]])
    states = [((2, 2, 2), 0.5), ((1, 2, 3), 0.3), ((3, 3, 1), 0.2)]
    want = sum(p * win_change(s, change) for s, p in states)
    assert expected_win_change(states, change) == pytest.approx(want)
    # Only the most frequent state, at half the mass.
    assert expected_win_change(states, change, mass=0.5) == pytest.approx(
        win_change((2, 2, 2), change))
    with pytest.raises(ValueError):
        expected_win_change([], change)


def test_states_are_drawn_by_their_shares() -> None:
    states = [((2, 2, 2), 0.75), ((1, 2, 3), 0.25)]
    drawn = draw_states(states, 4000, np.random.default_rng(3))
    assert drawn.shape == (4000, 3)
    first = (drawn == (2, 2, 2)).all(1)
    assert (first | (drawn == (1, 2, 3)).all(1)).all()
    assert abs(first.mean() - 0.75) < 4 * (0.75 * 0.25 / 4000) ** 0.5
    # A row's value at its drawn state averages to the value over the states.
    change = np.tile([-1, 0, 0], (4000, 1))
    mean = win_change(drawn, change).mean(0)
    want = expected_win_change(states, change[:1])[0]
    assert np.abs(mean - want).max() < 0.01
    with pytest.raises(ValueError):
        draw_states([], 3, np.random.default_rng(0))
