"""Which lives features earn their place in a match policy's key (issue 29 §2),
measured against the exact match values with no training.

The solved match strategy (``gnav.solve.match``) is projected onto the round's abstract
key (``gnav.abstraction``) with more or fewer lives features beside it (``FEATURE_SETS``,
coarsest first: none, own lives, own and the left neighbour's, the shared class of
``gnav.lives_class``, and finer ones the class lacks): at each merged key the mean
P(swap) of the sets it merges, weighted by how often a match from the start reaches each
(``project``). Each projection is then measured exactly through the match
(``gnav.train.exact_match``). A projection is not the best a key can do; ``merged_cfr``
runs CFR+ on the merged keys for that, roughly. ``tools/match_features.py`` prints both.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

import numpy as np

from gnav.abstraction import coarsen
from gnav.lives_class import NEIGHBOUR, OWN
from gnav.solve.cfr import F, Game
from gnav.solve.match import MatchSolver, State, continuation
from gnav.train.exact import KeyOf, abstract_map
from gnav.train.exact_match import (
    Fixed,
    MatchConv,
    measure,
    position_classes,
    strategies_of,
    turn_lives,
)

# A position's lives features at a state: what a projection keys by beside the round's key.
Feature = Callable[[State, int], Hashable]


def own(state: State, position: int) -> int:
    """The deciding seat's lives, 1, 2 or 3 and more (``lives_class``'s own)."""
    return min(turn_lives(state)[position], OWN)


def _neighbour(lives: int) -> int:
    return min(lives, NEIGHBOUR)


def own_left(state: State, position: int) -> tuple[int, int]:
    """Own lives and the left neighbour's, 1 or 2 and more (the dealer's left: the
    stock, 2 and more)."""
    lives = turn_lives(state)
    left = lives[position + 1] if position < len(lives) - 1 else NEIGHBOUR
    return own(state, position), _neighbour(left)


def lives_class_of(state: State, position: int) -> int:
    """The shared class: own, left and right (``gnav.lives_class``)."""
    return position_classes(state)[position]


def neighbours_to_three(state: State, position: int) -> tuple[int, int, int]:
    """The class with the neighbours' lives read to 3 and more, as own's are: whether a
    neighbour with lives to spare has more than 2 (a feature the class lacks)."""
    lives = turn_lives(state)
    left = lives[position + 1] if position < len(lives) - 1 else OWN
    return own(state, position), min(left, OWN), min(lives[position - 1], OWN)


def dealer_reads_first(state: State, position: int) -> tuple[int, int, int]:
    """The class, but the dealer's left read as the first seat's lives (1 or 2 and more)
    rather than the stock: at 3 seats the one seat the class hides from the dealer."""
    lives = turn_lives(state)
    left = lives[position + 1] if position < len(lives) - 1 else lives[0]
    return own(state, position), _neighbour(left), _neighbour(lives[position - 1])


def exact_lives(state: State, position: int) -> tuple[int, ...]:
    """Every active seat's lives (as the solver caps them) from the deciding seat
    round: more than the class holds (a far seat's, own beyond 3)."""
    lives = turn_lives(state)
    return tuple(lives[position:] + lives[:position])


def whole_state(state: State, position: int) -> tuple[object, ...]:
    """The state itself and the position: the match strategy's own key (the floor the
    round's abstraction alone leaves)."""
    return (state.key, position)


def nothing(state: State, position: int) -> int:
    """No lives: the lives-blind round policy."""
    return 0


# Each projection's lives features, coarsest first.
FEATURE_SETS: dict[str, Feature] = {
    "none": nothing,
    "own": own,
    "own+left": own_left,
    "own+left+right": lives_class_of,
    "own+left3+right3": neighbours_to_three,
    "own+first+right": dealer_reads_first,
    "every-seat": exact_lives,
    "state": whole_state,
}


def visits(solver: MatchSolver, strategies: Sequence[F]) -> F:
    """Each state's expected number of rounds played from it in a match from the start
    when every seat plays ``strategies`` (states recur where two fools gain)."""
    count = len(solver.states)
    moves = np.zeros((count, count))
    for k, state in enumerate(solver.states):
        chances = solver.table(len(state.positions)).ending_chances(strategies[k])
        ok = state.following >= 0
        np.add.at(moves[k], state.following[ok], chances[ok])
    start = np.zeros(count)
    start[0] = 1.0
    out = np.linalg.solve(np.eye(count) - moves.T, start)
    return np.asarray(out, dtype=np.float64)


def project(solver: MatchSolver, strategies: Sequence[F], feature: Feature,
            key: KeyOf = coarsen, fixed: Fixed | None = None
            ) -> dict[tuple[Hashable, Hashable], float]:
    """``strategies`` projected onto (``feature``, abstract key): at each merged key the
    mean P(swap) weighted by how often its sets are reached in a match from the start
    (each state's visits times the chance of reaching the set in its round). Merged keys
    never reached take the plain mean of their sets. States where ``fixed`` gives a
    strategy are left out."""
    seen = visits(solver, strategies)
    weight: dict[tuple[Hashable, Hashable], float] = {}
    total: dict[tuple[Hashable, Hashable], float] = {}
    plain: dict[tuple[Hashable, Hashable], list[float]] = {}
    maps: dict[int, tuple[list[Hashable], np.ndarray, np.ndarray]] = {}
    for k, state in enumerate(solver.states):
        if fixed is not None and fixed(k) is not None:
            continue
        m = len(state.positions)
        game = solver.table(m).game
        if m not in maps:
            amap, keys = abstract_map(game, key=key)
            maps[m] = (keys, amap, np.flatnonzero(game.legal[:, 0] & game.legal[:, 1]))
        keys, amap, both = maps[m]
        sigma = strategies[k]
        # A set's chance: its nodes' path probabilities (chance and every seat's choices).
        reach = np.bincount(game.infoset, weights=game.reach(sigma),
                            minlength=game.infosets) * float(seen[k])
        for i in both.tolist():
            at = (feature(state, int(game.player[i])), keys[int(amap[i])])
            w = float(reach[i])
            weight[at] = weight.get(at, 0.0) + w
            total[at] = total.get(at, 0.0) + w * float(sigma[i, 1])
            plain.setdefault(at, []).append(float(sigma[i, 1]))
    return {at: total[at] / w if w > 0 else float(np.mean(plain[at]))
            for at, w in weight.items()}


def projection_conv(solver: MatchSolver, strategies: Sequence[F], feature: Feature,
                    key: KeyOf = coarsen, fixed: Fixed | None = None
                    ) -> tuple[MatchConv, int]:
    """(the exact match NashConv of ``strategies`` projected onto ``feature`` and the
    abstract key, the states where ``fixed`` gives a strategy playing that; the number
    of merged keys)."""
    table = project(solver, strategies, feature, key, fixed)

    def answer(state: State, position: int, akey: Hashable) -> float | None:
        return table.get((feature(state, position), akey))

    lifted, sets, even = strategies_of(solver, answer, key, fixed)
    conv, gains, values = measure(solver, lifted)
    held = 0 if fixed is None else sum(fixed(k) is not None
                                       for k in range(len(solver.states)))
    return (MatchConv(conv, tuple(map(float, gains)), tuple(map(float, values)), sets, 0,
                      even, held), len(table))


def merged_cfr(solver: MatchSolver, strategies: Sequence[F], feature: Feature,
               iterations: int = 100, key: KeyOf = coarsen
               ) -> tuple[MatchConv, int, dict[tuple[Hashable, Hashable], float]]:
    """The best a key of ``feature`` and the abstract key can do, roughly: CFR+ with the
    sets of every state merged by (feature, abstract key), each state's round played for
    the continuation values of ``strategies`` (the solved match's: held fixed) and its
    regrets weighted by how often a match from the start visits it. Returns the linear
    average's exact match NashConv (measured through the match, its own continuation),
    the merged keys, and the average policy. An imperfect-recall game solved as if each
    merged key were one set: no bound holds, the measure says what it reached."""
    values = solver.evaluate(lambda k: strategies[k])
    seen = visits(solver, strategies)
    index: dict[tuple[Hashable, Hashable], int] = {}
    rounds: list[tuple[Game, F, np.ndarray, np.ndarray]] = []
    maps: dict[int, tuple[list[Hashable], np.ndarray, np.ndarray]] = {}
    for state in solver.states:
        m = len(state.positions)
        table = solver.table(m)
        if m not in maps:
            amap, keys = abstract_map(table.game, key=key)
            maps[m] = (keys, amap, np.flatnonzero(table.game.legal[:, 0]
                                                  & table.game.legal[:, 1]))
        keys, amap, both = maps[m]
        at = np.array([index.setdefault((feature(state, int(table.game.player[i])),
                                         keys[int(amap[i])]), len(index))
                       for i in both.tolist()], dtype=np.int64)
        term = table.weights @ continuation(state, values)[:, list(state.positions)]
        rounds.append((table.game, term, both, at))
    regrets = np.zeros((len(index), 2))
    total = np.zeros((len(index), 2))
    for t in range(1, iterations + 1):
        pos = regrets.sum(axis=1, keepdims=True)
        merged = np.where(pos > 0, regrets / np.where(pos > 0, pos, 1.0), 0.5)
        step = np.zeros_like(regrets)
        for k, (game, term, both, at) in enumerate(rounds):
            sigma = game.legal.astype(np.float64)
            sigma /= sigma.sum(axis=1, keepdims=True)
            sigma[both] = merged[at]
            game.term = term
            _, q = game.values(sigma)
            cf = game.action_values(game.reach(sigma), q)[both]
            base = (cf * sigma[both]).sum(axis=1, keepdims=True)
            np.add.at(step, at, float(seen[k]) * (cf - base))
        regrets = np.maximum(regrets + step, 0.0)
        total += t * merged
    average = total[:, 1] / total.sum(axis=1)
    policy = {at: float(average[i]) for at, i in index.items()}
    for table in solver.tables.values():  # the solver's own payoffs back in place
        table.game.term = table.lives

    def answer(state: State, position: int, akey: Hashable) -> float | None:
        return policy.get((feature(state, position), akey))

    lifted, sets, even = strategies_of(solver, answer, key)
    conv, gains, final = measure(solver, lifted)
    return (MatchConv(conv, tuple(map(float, gains)), tuple(map(float, final)), sets, 0,
                      even), len(index), policy)
