"""The coach's match table: at every state of a shipped match and every information set
of its round where both actions are legal, the deciding seat's chance to win the match
if it stands and if it swaps, the match strategy played from there on.

Made from the match strategy file alone: its states are explored again by the engine
(``MatchSolver.explore``), each state's round strategy is the file's, and the states'
values are that strategy's own fixed point (policy evaluation: the file stores the same
values, to 1e-9). A state's round then has each ending worth the next state's value
(``continuation``), and an information set's value of an action is its counterfactual
value divided by its reach (chance times the other seats' choices), as the coach's round
table divides lives (``gnav.odds.exact.evaluate``): the chance to win averaged over
what the view does not show, with the solver's own chance model. A set the strategy
never reaches is weighted by chance alone.

numpy, like ``gnav solve``; the file it makes is read by ``gnav.odds.match_coach`` with
the standard library.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from gnav.solve.cfr import F
from gnav.solve.match import MatchSolver, continuation
from gnav.solve.match_export import rules_of, sigma_of
from gnav.strategies.match import MatchStrategy, StateKey

COACH_MATCH_FORMAT = "gnav-coach-match/1"
SCALE = 1_000_000  # chances in millionths, as the match files' probabilities
UNREACHED = 1e-12  # as the round's coach table (gnav.odds.exact)


def win_values(solver: MatchSolver, strategies: list[F]
               ) -> dict[StateKey, dict[str, tuple[float, float]]]:
    """For each state's key, information set -> (chance to win if its player stands, if
    it swaps), at the sets where both are legal, ``strategies[k]`` played at state k."""
    values = solver.evaluate(lambda k: strategies[k])
    out: dict[StateKey, dict[str, tuple[float, float]]] = {}
    for k, state in enumerate(solver.states):
        table = solver.table(len(state.positions))
        game = table.use(continuation(state, values)[:, list(state.positions)])
        sigma = strategies[k]
        rho = game.reach(sigma)
        _, q = game.values(sigma)
        cf = game.action_values(rho, q)
        reach = np.bincount(game.infoset, weights=rho, minlength=game.infosets)
        off = reach < UNREACHED
        if off.any():
            chance = game.reach(np.ones_like(sigma))
            cf[off] = game.action_values(chance, q)[off]
            reach = np.where(off, np.bincount(game.infoset, weights=chance,
                                              minlength=game.infosets), reach)
        win = cf / np.where(reach > 0, reach, 1.0)[:, None]
        both = game.legal[:, 0] & game.legal[:, 1]
        out[state.key] = {game.keys[i]: (float(win[i, 0]), float(win[i, 1]))
                          for i in np.flatnonzero(both).tolist()}
    return out


def _swap(strategy: MatchStrategy, key: StateKey, active: int, infoset: str
          ) -> float | None:
    return strategy.swap_probability(key, infoset, active)


def solver_for(strategy: MatchStrategy) -> tuple[MatchSolver, list[F]]:
    """The match of ``strategy``'s file explored anew, and each state's strategy as the
    file holds it (a set it lacks played as even odds)."""
    solver = MatchSolver(rules_of(strategy), strategy.seats, strategy.lives,
                         cap=strategy.cap)
    solver.explore()
    sigmas = []
    for state in solver.states:
        m = len(state.positions)
        sigma, _ = sigma_of(solver.table(m).game, partial(_swap, strategy, state.key, m))
        sigmas.append(sigma)
    return solver, sigmas


def coach_match_table(strategy: MatchStrategy) -> dict[str, Any]:
    """The coach's match table of ``strategy`` (the format ``gnav.odds.match_coach``
    reads): per state, the chances to win standing and swapping along the file's keys of
    that state's number of active seats, in millionths."""
    solver, sigmas = solver_for(strategy)
    wins = win_values(solver, sigmas)
    states = []
    for state in solver.states:
        keys = strategy.keys.get(len(state.positions), ())
        got = wins[state.key]
        lives, out, sitting = state.key
        states.append({"lives": list(lives), "out": list(out), "sitting_out": list(sitting),
                       "stand": [round(got[k][0] * SCALE) for k in keys],
                       "swap": [round(got[k][1] * SCALE) for k in keys]})
    return {"format": COACH_MATCH_FORMAT, "preset": strategy.preset,
            "seats": strategy.seats, "lives": strategy.lives, "cap": strategy.cap,
            "options": strategy.options, "scale": SCALE,
            "keys": {str(m): list(ks) for m, ks in sorted(strategy.keys.items())},
            "states": states}
