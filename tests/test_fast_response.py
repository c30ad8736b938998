"""The bracket of a lone deviator's best response (gnav.fast.response), checked
against the solver's exact best response where the tree is small enough to build."""

from __future__ import annotations

import numpy as np
import pytest

from gnav.fast.abstraction import GnavAbstraction
from gnav.fast.response import (
    Figure,
    Played,
    bracket,
    brackets,
    field_table,
    lives_terms,
    mean_over,
    position_bracket,
    position_name,
    row_gains,
)
from gnav.rules import Rules
from gnav.solve.cfr import Game
from gnav.solve.tree import build
from gnav.train.exact import abstract_map, lift


def exact_gains(rules: Rules, seats: int, table: np.ndarray) -> np.ndarray:
    """Second method: the table lifted onto the solver's tree (every exact information
    set, the seat's whole view, plays its abstract key's P(swap)); each seat's exact best
    response gain over the table's own value, by position (the dealer's left first, the
    dealer last, as the compiled engine's columns)."""
    game = Game(build(rules, seats))
    _, keys = abstract_map(game)
    policy = {k: float(table[k]) for k in keys if isinstance(k, int)}  # all are
    sigma, missing = lift(game, policy)
    assert missing == 0
    best, value = game.best_responses(sigma)
    return np.asarray(best - value, dtype=np.float64)


def exact_gain(rules: Rules, seats: int, table: np.ndarray) -> float:
    """The exact best response's gain, the positions averaged."""
    return float(np.mean(exact_gains(rules, seats, table)))


@pytest.mark.parametrize(("preset", "field"), [("gnav", "threshold"),
                                                 ("hypp", "random-table")])
def test_the_bracket_holds_the_exact_best_response(preset: str, field: str) -> None:
    """At 3 seats the deviator's exact best response over its whole view lies between
    the held-out figure (a deviation that exists) and the in-sample figure over the
    view key (at least as fine as the view), both within their intervals; and the
    seat that sees every piece gains more than either."""
    rules = Rules.of(preset)
    abstraction = GnavAbstraction(rules)
    if field == "threshold":
        table, _, _ = field_table(rules, 3, "threshold")
    else:
        table = np.random.default_rng(7).random(abstraction.size)
    by_position = exact_gains(rules, 3, table)
    exact = float(np.mean(by_position))
    b = bracket(rules, 3, table, 120_000, key="view", seed=4)
    assert b.held_out.low <= exact <= b.in_sample.high
    assert b.in_sample.value < b.oracle.value
    assert exact > 0.002  # neither field is an equilibrium: there is something to find
    # Each seat's own bracket holds that seat's exact best response.
    assert [q.name for q in b.positions] == ["dealer's left", "dealer's right", "dealer"]
    for q, truth in zip(b.positions, by_position, strict=True):
        assert q.held_out.low <= truth <= q.in_sample.high, (q.name, truth, q)
        assert q.in_sample.value < q.oracle.value


def test_the_positions_average_to_the_whole() -> None:
    """The figure over the table is the mean of the positions' figures, its variance
    their sum over seats squared; the legacy (held out, in sample) pairs agree."""
    rules = Rules.of("gnav")
    table, _, _ = field_table(rules, 5, "threshold")
    b = bracket(rules, 5, table, 6_000, key="rich", seed=2)
    assert len(b.positions) == 5
    assert [q.from_dealer for q in b.positions] == [1, 2, 3, 4, 0]
    for whole, part in ((b.held_out, "held_out"), (b.in_sample, "in_sample"),
                        (b.oracle, "oracle")):
        figures = [getattr(q, part) for q in b.positions]
        assert whole.value == pytest.approx(np.mean([f.value for f in figures]))
        var = sum(f.half_width ** 2 for f in figures) / 25
        assert whole.half_width == pytest.approx(np.sqrt(var))
        assert whole.half_width < max(f.half_width for f in figures)
    assert b.per_position == tuple((q.held_out.value, q.in_sample.value)
                                   for q in b.positions)
    assert b.keys == sum(q.keys for q in b.positions)
    assert b.decisions == pytest.approx(np.mean([q.decisions for q in b.positions]))


def test_row_gains_choose_on_the_other_half() -> None:
    """Worked by hand: key 5 meets D = +1 on even rows and -3 on odd rows, so the even
    half chooses swap there and the odd half stand; key 9 is met on one half only, so
    the held-out figure keeps the field's choice there; row 4 has no decision."""
    keys = [5, 5, 9, 5, -1, 5]
    d = [1.0, -3.0, 2.0, -3.0, 7.0, 1.0]
    p = [0.25, 0.25, 0.5, 0.25, 0.0, 0.25]
    g = row_gains(keys, d, p)
    # Held out: even rows (0, 2, 4) chosen by the odd half (key 5 sums -6: stand,
    # weight -p), odd rows (1, 3, 5) by the even half (key 5 sums +2: swap, 1 - p).
    assert g.held_out.tolist() == [-0.25, -2.25, 0.0, -2.25, 0.0, 0.75]
    # In sample: key 5 sums -4 over all rows (stand), key 9 +2 (swap, weight 0.5).
    assert g.in_sample.tolist() == [-0.25, 0.75, 1.0, 0.75, 0.0, -0.25]
    assert g.oracle.tolist() == [0.75, 0.75, 1.0, 0.75, 0.0, 0.75]
    assert g.keys == 2 and g.decisions == pytest.approx(5 / 6)
    q = position_bracket(2, 3, g)
    assert q.name == "dealer" and q.from_dealer == 0
    assert q.in_sample.value == pytest.approx(2.0 / 6)
    with pytest.raises(ValueError, match="differ"):
        row_gains([1, 2], [0.5], [0.5, 0.5])


def test_a_valuation_plugged_in_scales_the_bracket() -> None:
    """A consumer's own valuation of each row (here lives doubled) gives each figure
    doubled: the choices depend on the signs of the sums alone."""
    rng = np.random.default_rng(3)
    keys = rng.integers(-1, 40, 2_000)
    d = rng.normal(0.1, 1.0, 2_000)
    p = rng.random(2_000)
    once, twice = row_gains(keys, d, p), row_gains(keys, 2 * d, p)
    for part in ("held_out", "in_sample", "oracle"):
        assert np.allclose(getattr(twice, part), 2 * getattr(once, part))
    f = mean_over([Figure(0.002, 0.001), Figure(0.004, 0.001)])
    assert f.value == pytest.approx(0.003)
    assert f.half_width == pytest.approx(np.sqrt(2) * 0.001 / 2)


def test_positions_are_named_from_the_dealer() -> None:
    assert [position_name(c, 6) for c in range(6)] == [
        "dealer's left", "2 seats left of the dealer", "3 seats left of the dealer",
        "4 seats left of the dealer", "dealer's right", "dealer"]
    assert [position_name(c, 2) for c in range(2)] == ["dealer's left", "dealer"]


def test_a_coarser_key_finds_no_more_in_sample() -> None:
    """The abstraction is a coarsening of the view key, so on the same rows its
    in-sample figure (the convex gain summed over larger cells) is never larger."""
    rules = Rules.of("gnav")
    table = np.random.default_rng(1).random(GnavAbstraction(rules).size)
    coarse = bracket(rules, 5, table, 20_000, key="abstraction", seed=3)
    fine = bracket(rules, 5, table, 20_000, key="view", seed=3)
    assert coarse.in_sample.value <= fine.in_sample.value + 1e-12
    assert coarse.oracle == fine.oracle
    assert coarse.keys < fine.keys


def test_a_field_that_is_no_table_is_refused() -> None:
    with pytest.raises(ValueError, match="not a table policy"):
        field_table(Rules.of("gnav"), 6, "counter")
    with pytest.raises(ValueError, match="exact strategy"):
        field_table(Rules.of("gnav"), 3, "expert")


def test_several_terms_come_from_the_same_rounds() -> None:
    """``brackets`` values each position's rows once played: the lives valuation gives
    ``bracket``'s figures, one of twice the lives gives them doubled, and each round's
    changes of lives for the deviator are its lives' gap (fresh rounds: nobody at 0)."""
    rules = Rules.of("hypp")
    table, _, _ = field_table(rules, 4, "threshold")
    seen: list[Played] = []

    def twice(p: Played) -> tuple[np.ndarray, np.ndarray]:
        seen.append(p)
        return p.keys, 2 * p.lives

    got = brackets(rules, 4, table, 3_000, {"lives": lives_terms, "twice": twice},
                   key="rich", seed=5)
    alone = bracket(rules, 4, table, 3_000, key="rich", seed=5)
    assert got["lives"] == alone
    for part in ("held_out", "in_sample", "oracle"):
        assert getattr(got["twice"], part).value == pytest.approx(
            2 * getattr(alone, part).value)
    assert [p.column for p in seen] == [0, 1, 2, 3]
    for p in seen:
        assert p.stand.shape == p.swap.shape == (3_000, 4)
        assert np.array_equal(p.swap[:, p.column].astype(float) - p.stand[:, p.column],
                              p.lives)
