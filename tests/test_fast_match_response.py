"""A lone deviator's best response in match terms (gnav.fast.match_response): a row's
re-valuation by hand, the lives key, and the bracket checked against a second method
where a life's worth is nearly constant."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pytest

from gnav.fast.lifestates import win_change
from gnav.fast.match_response import MatchTerms, field_states, lives_key, match_gap
from gnav.fast.response import Bracket, Played, brackets, field_table, lives_terms
from gnav.match_value import win_chances
from gnav.rules import Rules

MANY = 40  # lives where a life's worth barely changes with the lives left
PARTS = ("held_out", "in_sample", "oracle")


def test_one_row_re_valued_by_hand() -> None:
    """3 seats at (1, 2, 2), the deviator first. Standing, it pays its last life: out,
    chance 0. Swapping, the next seat pays instead: (1, 1, 2), where the model gives the
    seat with 2 lives 11/18 (docs/strategy.md), so each seat with 1 has 7/36. The gap is
    7/36 - 0 whatever the state was worth before; the other way round it is -7/36."""
    before = [[1, 2, 2]]
    stand, swap = [[-1, 0, 0]], [[0, -1, 0]]
    assert match_gap(before, stand, swap, 0)[0] == pytest.approx(7 / 36)
    assert match_gap(before, swap, stand, 0)[0] == pytest.approx(-7 / 36)
    # The seat that pays instead has 1 life at (1, 1, 2) (7/36) against 2 at (0, 2, 2),
    # a duel of equals (1/2).
    assert match_gap(before, stand, swap, 1)[0] == pytest.approx(7 / 36 - 1 / 2)
    # A decision that moves nobody's lives is worth nothing, at any state.
    assert match_gap([[1, 1, 3]], [[0, 0, -1]], [[0, 0, -1]], 2)[0] == 0.0


def test_the_lives_key_splits_by_the_lives_near_the_deviator() -> None:
    keys = np.array([7, 7, 7, 7, -1, 9])
    before = np.array([[4, 4, 4, 4], [4, 1, 4, 4], [4, 4, 4, 1], [4, 4, 1, 4],
                       [1, 1, 1, 1], [4, 4, 4, 4]])
    # Column 1: its own lives and columns 0 and 2; column 3 is not near it.
    got = lives_key(keys, before, 1)
    assert got[4] == -1
    assert got[0] == got[2] and len({got[0], got[1], got[3], got[5]}) == 4
    # Round the table: the dealer's (last) neighbours are the dealer's right and left.
    last = lives_key(keys, before, 3)
    assert last[0] == last[1] and len({last[0], last[2], last[3]}) == 3


def _brackets(terms: dict[str, Callable[[Played], tuple[npt.NDArray[np.int64],
                                                          npt.NDArray[np.float64]]]]
              ) -> dict[str, Bracket]:
    rules = Rules.of("gnav")
    table, _, _ = field_table(rules, 3, "threshold")
    return brackets(rules, 3, table, 20_000, terms, key="view", seed=1)


def test_where_a_life_is_worth_the_same_the_match_is_the_linear_valuation() -> None:
    """Every seat on many lives: the deviator's chance moves by ``a`` a life of its own
    and ``b`` a life of another's (the derivatives, by central differences), so each
    row's gap is ``a D_own + b D_others`` to second order, and the figures agree. One
    state for every row: the lives key splits nothing."""
    state = (MANY, MANY, MANY)
    a = (win_chances((MANY + 1, MANY, MANY))[0] - win_chances((MANY - 1, MANY, MANY))[0]) / 2
    b = (win_chances((MANY, MANY + 1, MANY))[0] - win_chances((MANY, MANY - 1, MANY))[0]) / 2
    assert a > 0 > b

    def linear(p: Played) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        d = p.swap.astype(np.float64) - p.stand
        own = d[:, p.column]
        return p.keys, a * own + b * (d.sum(1) - own)

    got = _brackets({"lives": lives_terms, "match": MatchTerms([(state, 1.0)]),
                     "linear": linear})
    match, lin = got["match"], got["linear"]
    assert match.keys == got["lives"].keys  # one state: the same keys, renumbered
    for part in PARTS:
        m, x = getattr(match, part), getattr(lin, part)
        assert m.value > 0
        assert m.value == pytest.approx(x.value, rel=0.05), part
    for qm, ql in zip(match.positions, lin.positions, strict=True):
        assert qm.in_sample.value == pytest.approx(ql.in_sample.value, rel=0.05, abs=2e-5)


def test_where_only_the_deviator_moves_the_match_is_lives_times_a_life() -> None:
    """Rows where the decision moves the deviator's lives alone, at many lives each: a
    life is worth ``a`` to its chance, so every match figure is the lives figure times
    ``a`` (the choices follow the signs of the sums, which the factor keeps)."""
    state = (MANY, MANY, MANY)
    a = win_chances((MANY, MANY, MANY))[0] - win_chances((MANY - 1, MANY, MANY))[0]

    def own_only(p: Played) -> Played:
        keep = np.zeros_like(p.swap)
        keep[:, p.column] = 1
        return Played(p.column, p.keys, p.stand * keep, p.swap * keep, p.lives)

    terms = MatchTerms([(state, 1.0)])
    got = _brackets({"lives": lives_terms, "match": lambda p: terms(own_only(p))})
    for part in PARTS:
        lives, match = getattr(got["lives"], part), getattr(got["match"], part)
        assert lives.value > 0
        assert match.value == pytest.approx(a * lives.value, rel=0.03), part


def test_the_field_states_are_its_full_tables_and_drawn_per_row() -> None:
    """States come from the field's own matches with every seat in (the start, 4 lives
    each, among the most frequent); each row's state is drawn from them, seeded by the
    column, so a rerun values each row the same and different columns differ."""
    rules = Rules.of("gnav")
    table, _, _ = field_table(rules, 4, "threshold")
    states = field_states(rules, 4, table, 200, seed=3)
    assert states[0][0] == (4, 4, 4, 4)
    assert sum(s for _, s in states) == pytest.approx(1.0)
    assert all(len(st) == 4 and min(st) >= 1 for st, _ in states)
    terms = MatchTerms(states, seed=3)
    got = brackets(rules, 4, table, 2_000, {"a": terms, "b": MatchTerms(states, seed=3)},
                   key="abstraction")
    assert got["a"].positions == got["b"].positions
    with pytest.raises(ValueError, match="no lives state"):
        MatchTerms([])


def test_the_gap_is_win_change_column_for_column() -> None:
    """A second method: ``lifestates.win_change`` values each row's whole round from its
    state (every seat, row by row); the deviator's column of swap's less stand's is the
    gap, shared wins (everyone out in one round) and seats out before included."""
    rng = np.random.default_rng(8)
    rows, seats = 400, 5
    before = rng.integers(0, 4, (rows, seats))
    before[:, 2] = np.maximum(before[:, 2], 1)
    before[:3] = [[1, 1, 1, 0, 0], [2, 1, 1, 1, 0], [1, 0, 2, 0, 1]]
    stand = rng.integers(-2, 2, (rows, seats))
    swap = rng.integers(-2, 2, (rows, seats))
    stand[:3] = [[-1, -1, -1, 0, 0], [-2, -1, -1, -1, 0], [0, 0, -2, 0, -1]]
    for column in (0, 2, 4):
        want = (win_change(before, swap)[:, column] - win_change(before, stand)[:, column])
        assert np.allclose(match_gap(before, stand, swap, column), want, atol=1e-12)
