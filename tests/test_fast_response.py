"""The bracket of a lone deviator's best response (gnav.fast.response), checked
against the solver's exact best response where the tree is small enough to build."""

from __future__ import annotations

import numpy as np
import pytest

from gnav.fast.abstraction import GnavAbstraction
from gnav.fast.response import bracket, field_table
from gnav.rules import Rules
from gnav.solve.cfr import Game
from gnav.solve.tree import build
from gnav.train.exact import abstract_map, lift


def exact_gain(rules: Rules, seats: int, table: np.ndarray) -> float:
    """Second method: the table lifted onto the solver's tree (every exact information
    set, the seat's whole view, plays its abstract key's P(swap)); each seat's exact best
    response gain over the table's own value, the positions averaged."""
    game = Game(build(rules, seats))
    _, keys = abstract_map(game)
    policy = {k: float(table[k]) for k in keys if isinstance(k, int)}  # all are
    sigma, missing = lift(game, policy)
    assert missing == 0
    best, value = game.best_responses(sigma)
    return float(np.mean(best - value))


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
    exact = exact_gain(rules, 3, table)
    b = bracket(rules, 3, table, 120_000, key="view", seed=4)
    assert b.held_out.low <= exact <= b.in_sample.high
    assert b.in_sample.value < b.oracle.value
    assert exact > 0.002  # neither field is an equilibrium: there is something to find


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
