"""gnav.train.lives_features: the solved match projected onto lives features, and CFR+
on the merged keys, measured exactly through the match."""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np
import pytest

from gnav.abstraction import Layout, coarsen
from gnav.solve.cfr import F
from gnav.solve.match import MatchSolution, MatchSolver
from gnav.solve.match_export import solver_of
from gnav.train.lives_features import (
    FEATURE_SETS,
    merged_cfr,
    project,
    projection_conv,
    visits,
    whole_state,
)

# sol, solver: the solved match of gnav at 2 seats and 2 lives (tests/conftest.py).


def test_the_solved_strategy_projected_where_nothing_merges_is_itself(
        sol: MatchSolution, solver: MatchSolver) -> None:
    got, keys = projection_conv(solver, sol.strategies, whole_state, exact_key)
    assert got.nash_conv == pytest.approx(sol.nash_conv, abs=1e-9)
    assert got.nash_conv < 1e-4
    assert keys == got.sets  # one key a state's set: nothing merged


def test_every_match_ends_once(sol: MatchSolution) -> None:
    """The visits weight each state by its expected rounds: a match ends exactly once."""
    seen = visits(solver_of(sol), sol.strategies)
    assert seen[0] >= 1.0
    ends = 0.0
    for k, state in enumerate(sol.states):
        chances = sol.tables[len(state.positions)].ending_chances(sol.strategies[k])
        ends += seen[k] * float(chances[state.following < 0].sum())
    assert ends == pytest.approx(1.0, abs=1e-9)


def test_a_merged_key_is_its_sets_reach_weighted_mean(sol: MatchSolution,
                                                      solver: MatchSolver) -> None:
    table = project(solver, sol.strategies, FEATURE_SETS["none"])
    seen = visits(solver, sol.strategies)
    layout = Layout.of(sol.rules)
    # The key whose sets' P(swap) differ most between states (2 seats: one set a key in
    # a state, merged over the states), worked out by a loop over the nodes.
    game = solver.table(2).game
    both = game.legal[:, 0] & game.legal[:, 1]
    swaps = np.array([s[:, 1] for s in sol.strategies])
    spread = np.where(both, swaps.max(axis=0) - swaps.min(axis=0), 0.0)
    akey = coarsen(game.keys[int(spread.argmax())], layout)
    assert spread.max() > 0.1
    num = den = 0.0
    for k in range(len(sol.states)):
        rho = game.reach(sol.strategies[k])
        for node in range(game.nodes):
            i = int(game.infoset[node])
            if both[i] and coarsen(game.keys[i], layout) == akey:
                num += seen[k] * rho[node] * sol.strategies[k][i, 1]
                den += seen[k] * rho[node]
    assert den > 0
    assert table[(0, akey)] == pytest.approx(num / den, abs=1e-12)


def test_at_two_seats_the_abstraction_keyed_by_state_is_the_match_strategy(
        sol: MatchSolution, solver: MatchSolver) -> None:
    """At 2 seats the round's abstraction merges no two sets of a round: keyed by the
    state as well, the solved match strategy passes through it whole."""
    got, keys = projection_conv(solver, sol.strategies, whole_state)
    assert keys == got.sets
    assert got.nash_conv == pytest.approx(sol.nash_conv, abs=1e-9)
    # Keyed by the lives class alone, states merge: the projection loses something.
    merged, fewer = projection_conv(solver, sol.strategies, FEATURE_SETS["own+left+right"])
    assert fewer < keys and merged.nash_conv > sol.nash_conv


def test_cfr_on_merged_keys_goes_towards_the_solved_match(sol: MatchSolution,
                                                          solver: MatchSolver) -> None:
    """Keyed by the state (nothing merged at 2 seats), CFR+ on fixed continuation values
    is each state's round solved: it closes on the solved match as it iterates."""
    few, keys, _ = merged_cfr(solver, sol.strategies, whole_state, iterations=5)
    many, _, policy = merged_cfr(solver, sol.strategies, whole_state, iterations=300)
    assert keys == few.sets == len(policy)
    assert many.nash_conv < few.nash_conv / 5
    assert many.nash_conv < 2e-3
    # Merged over the states by no lives at all, it does worse than keyed by the state.
    blind, fewer, _ = merged_cfr(solver, sol.strategies, FEATURE_SETS["none"],
                                 iterations=300)
    assert fewer < keys and blind.nash_conv > many.nash_conv


def test_states_held_to_a_strategy_are_neither_projected_nor_changed(
        sol: MatchSolution, solver: MatchSolver) -> None:
    # The start held to the solved strategy, the rest projected lives-blind: the start
    # plays as solved, so the figure lies between the solved one and all projected.
    def held(k: int) -> F | None:
        return sol.strategies[k] if k == 0 else None

    part, _ = projection_conv(solver, sol.strategies, FEATURE_SETS["none"], fixed=held)
    whole, _ = projection_conv(solver, sol.strategies, FEATURE_SETS["none"])
    assert part.fixed == 1 and whole.fixed == 0
    assert part.sets == whole.sets - whole.sets // len(sol.states)
    assert sol.nash_conv < part.nash_conv < whole.nash_conv
    everything, keys = projection_conv(solver, sol.strategies, FEATURE_SETS["none"],
                                       fixed=lambda k: sol.strategies[k])
    assert keys == 0 and everything.sets == 0
    assert everything.nash_conv == pytest.approx(sol.nash_conv, abs=1e-12)


def exact_key(key: str, layout: Layout, drop: frozenset[str]) -> Hashable:
    """No abstraction: every exact information set its own key."""
    return key
