"""A solved match as a file (``gnav.strategies.match``'s format), and a file measured
afresh (``gnav solve --match --check``).

What a file holds is each state's round strategy with its unreached sets answered
(``Game.off_path``, on the state's own payoffs) where that leaves a best response less
to gain than the solver's own answer there (``match_data``), quantised to 1/SCALE; the
NashConv
it records is that of exactly what it holds, measured through the match as the solver
measures its own strategy. ``measure_afresh`` reads a file into trees built anew (the
states explored again by the engine, the information sets looked up by key) and
measures it, and beside it the shipped round strategy (what ``expert-round`` plays)
played at every state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from gnav.rules import Rules
from gnav.solve.cfr import F, Game
from gnav.solve.match import MatchSolution, MatchSolver, continuation
from gnav.strategies import shipped
from gnav.strategies.match import MATCH_FORMAT, MatchStrategy, StateKey, match_options

SCALE = 1_000_000  # as the round files: probabilities in millionths


def sigma_of(game: Game, swap: Callable[[str], float | None]) -> tuple[F, int]:
    """(the strategy giving each information set of ``game`` ``swap(key)`` where both
    actions are legal, the other sets what is legal; the sets with no answer, played as
    even odds)."""
    both = game.legal[:, 0] & game.legal[:, 1]
    found = [swap(k) if b else None for k, b in zip(game.keys, both.tolist(), strict=True)]
    missing = sum(1 for q, b in zip(found, both.tolist(), strict=True) if b and q is None)
    p = np.array([0.5 if q is None else q for q in found], dtype=np.float64)
    p = np.where(game.legal[:, 1], p, 0.0)
    p = np.where(game.legal[:, 0], p, 1.0)
    return np.stack([1.0 - p, p], axis=1), missing


def solver_of(sol: MatchSolution) -> MatchSolver:
    """A solver over ``sol``'s states and trees, to measure other strategies there
    without exploring again."""
    solver = MatchSolver(sol.rules, sol.seats, sol.lives, cap=sol.cap)
    solver.states = sol.states
    solver.tables = sol.tables
    solver.index = {s.key: k for k, s in enumerate(sol.states)}
    return solver


def match_nash_conv(solver: MatchSolver, strategies: list[F]) -> float:
    """The match NashConv (win probability, summed over the seats, at the start) of
    every state playing its strategy in ``strategies``."""
    values = solver.evaluate(lambda k: strategies[k])
    best, _ = solver.best_responses(lambda k: strategies[k])
    return float(np.sum(best[0] - values[0]))


def shipped_strategies(sol: MatchSolution, answer: bool = True) -> list[F]:
    """Each state's strategy as a file holds it: unreached sets answered on the state's
    payoffs (unless ``answer`` is False: the solver's own, even odds there),
    probabilities in steps of 1/SCALE."""
    out: list[F] = []
    for k, state in enumerate(sol.states):
        table = sol.tables[len(state.positions)]
        game = table.use(continuation(state, sol.values)[:, list(state.positions)])
        answered = game.off_path(sol.strategies[k]) if answer else sol.strategies[k]
        rounded = np.round(answered[:, 1] * SCALE) / SCALE
        sigma, _ = sigma_of(game, dict(zip(game.keys, rounded.tolist(), strict=True)).get)
        out.append(sigma)
    return out


def match_data(sol: MatchSolution, **extra: Any) -> dict[str, Any]:
    """The file of ``sol``: its quantised strategies and the NashConv they have.

    Unreached sets answered greedily (``Game.off_path``, chance alone weighting what
    came before) can be a gift to a seat that deviates to reach them: at 3 seats of
    gnav and 1 life they took the match NashConv from 3.5e-6 to 6.0e-4 (2 lives: 1.5e-5
    to 2.3e-4), rounding alone changing nothing. So both are measured and the file
    holds the one a best response gains less against (``off_path`` says which)."""
    strategies = shipped_strategies(sol)
    conv = match_nash_conv(solver_of(sol), strategies)
    answered = True
    plain = shipped_strategies(sol, answer=False)
    plain_conv = match_nash_conv(solver_of(sol), plain)
    if plain_conv < conv:
        strategies, conv, answered = plain, plain_conv, False
    values = solver_of(sol).evaluate(lambda k: strategies[k])
    keys: dict[str, list[str]] = {}
    both_of: dict[int, Any] = {}
    for m, table in sorted(sol.tables.items()):
        both = table.game.legal[:, 0] & table.game.legal[:, 1]
        both_of[m] = np.flatnonzero(both)
        keys[str(m)] = [table.game.keys[i] for i in both_of[m]]
    states = []
    for k, state in enumerate(sol.states):
        lives, out, sitting = state.key
        swap = np.round(strategies[k][both_of[len(state.positions)], 1] * SCALE)
        states.append({"lives": list(lives), "out": list(out), "sitting_out": list(sitting),
                       "values": [round(float(v), 9) for v in values[k]],
                       "swap": [int(q) for q in swap]})
    return {
        "format": MATCH_FORMAT, "preset": sol.rules.name, "seats": sol.seats,
        "lives": sol.lives, "cap": sol.cap, "options": match_options(sol.rules),
        "nash_conv": conv, "round_exploitability": sol.round_exploitability,
        "off_path": answered,
        **extra, "scale": SCALE, "keys": keys, "states": states,
    }


@dataclass(frozen=True)
class MatchCheck:
    nash_conv: float  # of what the file holds, through the match, in win probability
    round_exploitability: float  # the shipped round strategies', the same way
    states: int  # the states the engine reaches from the start
    missing_states: int  # of those, the ones the file does not hold (played as even odds)
    missing_sets: int  # sets where both actions are legal and the file has no answer
    round_missing: int  # the same for the round strategies (a size none ships: all)


def rules_of(strategy: MatchStrategy) -> Rules:
    """The rules a match file was solved for: its preset, options and lives."""
    return Rules.of(strategy.preset, **strategy.options, lives=strategy.lives)


def _swap_at(strategy: MatchStrategy, key: StateKey, active: int, infoset: str
             ) -> float | None:
    return strategy.swap_probability(key, infoset, active)


def measure_afresh(strategy: MatchStrategy) -> MatchCheck:
    """What a match file holds, measured on states and trees built anew."""
    rules = rules_of(strategy)
    solver = MatchSolver(rules, strategy.seats, strategy.lives, cap=strategy.cap)
    solver.explore()
    mine: list[F] = []
    missing_states = missing_sets = 0
    for state in solver.states:
        m = len(state.positions)
        if strategy.values(state.key) is None:
            missing_states += 1
        sigma, missing = sigma_of(solver.table(m).game,
                                  partial(_swap_at, strategy, state.key, m))
        missing_sets += missing
        mine.append(sigma)
    rounds: dict[int, F] = {}
    round_missing = 0
    for m, table in sorted(solver.tables.items()):
        plain = shipped(rules, m)
        rounds[m], missing = sigma_of(table.game, (lambda key: None) if plain is None
                                      else plain.swap_probability)
        round_missing += missing
    plain_play = [rounds[len(s.positions)] for s in solver.states]
    return MatchCheck(match_nash_conv(solver, mine), match_nash_conv(solver, plain_play),
                      len(solver.states), missing_states, missing_sets, round_missing)
