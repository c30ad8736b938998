"""CFR+ over the collapsed tree, vectorised with numpy, and the exact best response.

Every seat decides at most once a round, which makes both simple and exact:

- At a seat's decision it has not acted before, so its own reach is 1 there: the
  counterfactual weight of a node is its whole path probability (chance times the other
  seats' choices), one number per node; and the average strategy is the plain weighted
  average of the iterates.
- Below a seat's decision there is no other decision of that seat, so the value of each
  action there does not depend on the seat's own strategy. A best response picks, at
  each of its information sets independently, the action with the larger
  counterfactual value; evaluating that pure strategy against the others gives the
  best-response value exactly.

Nodes are sorted by depth (the number of decisions before them), so a forward pass
(reach) and a backward pass (values) are one vectorised step per depth.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gnav.solve.tree import Tree

F = npt.NDArray[np.float64]
# An information set reached with less than this probability is off the path: only the
# uniform first iterate, weighted 1 / sum(t) in the average, ever went there.
UNREACHED = 1e-9
I32 = npt.NDArray[np.int32]


class Game:
    """The tree as numpy arrays, nodes sorted by depth."""

    def __init__(self, tree: Tree) -> None:
        n = tree.seats
        self.n = n
        self.rules = tree.rules
        depth = np.frombuffer(tree.depth, dtype=np.int8) if len(tree.depth) else \
            np.zeros(0, np.int8)
        order = np.argsort(depth, kind="stable")
        inv = np.empty_like(order)
        inv[order] = np.arange(len(order))
        self.order = order  # build order -> this order, for the tree's other measures
        parent = np.asarray(tree.parent, dtype=np.int64)[order]
        self.parent = np.where(parent >= 0, inv[np.maximum(parent, 0)], -1)
        self.action = np.asarray(tree.action, dtype=np.int64)[order]
        self.prob = np.asarray(tree.prob, dtype=np.float64)[order]
        self.infoset = np.asarray(tree.infoset, dtype=np.int64)[order]
        self.term = np.asarray(tree.term, dtype=np.float64).reshape(-1, 2, n)[order]
        d = depth[order]
        self.levels = [(int(a), int(b)) for a, b in
                       zip(np.searchsorted(d, np.arange(d.max() + 1 if len(d) else 0)),
                           np.searchsorted(d, np.arange(1, d.max() + 2 if len(d) else 1)),
                           strict=True)]
        self.keys = tree.keys
        self.player = np.asarray(tree.player, dtype=np.int64)
        legal = np.asarray(tree.legal, dtype=np.int64)
        self.legal = np.stack([legal & 1, legal >> 1 & 1], axis=1).astype(bool)
        self.node_player = self.player[self.infoset]
        self.infosets = len(tree.keys)
        self.openings = tree.openings

    @property
    def nodes(self) -> int:
        return len(self.parent)

    # -- the passes ----------------------------------------------------------------

    def uniform(self) -> F:
        legal: F = self.legal.astype(np.float64)
        out: F = legal / legal.sum(axis=1, keepdims=True)
        return out

    def reach(self, sigma: F) -> F:
        """Each node's path probability: chance times every seat's choices."""
        rho = np.empty(self.nodes)
        for d, (a, b) in enumerate(self.levels):
            if d == 0:
                rho[a:b] = self.prob[a:b]
                continue
            par = self.parent[a:b]
            rho[a:b] = rho[par] * sigma[self.infoset[par], self.action[a:b]] * self.prob[a:b]
        return rho

    def values(self, sigma: F) -> tuple[F, F]:
        """(V, Q): each node's value to every position under ``sigma``, and each action's."""
        return self.values_of(self.term, sigma)

    def values_of(self, term: F, sigma: F) -> tuple[F, F]:
        """``values`` of any payoff laid out as ``term`` (nodes, 2, columns): a column
        need not be a position's (the coach's chance of each way a round ends is one
        column per way, ``gnav.odds.exact.ending_chances``)."""
        n = term.shape[2]
        q = term.copy()
        v = np.zeros((self.nodes, n))
        for d in range(len(self.levels) - 1, -1, -1):
            a, b = self.levels[d]
            s = sigma[self.infoset[a:b]]
            v[a:b] = q[a:b, 0] * s[:, :1] + q[a:b, 1] * s[:, 1:]
            if d == 0:
                continue
            pa, pb = self.levels[d - 1]
            slot = (self.parent[a:b] - pa) * 2 + self.action[a:b]
            w = v[a:b] * self.prob[a:b, None]
            flat = q[pa:pb].reshape(-1, n)
            for i in range(n):
                flat[:, i] += np.bincount(slot, weights=w[:, i], minlength=(pb - pa) * 2)
        return v, q

    def root_values(self, v: F) -> F:
        a, b = self.levels[0] if self.levels else (0, 0)
        out: F = (v[a:b] * self.prob[a:b, None]).sum(axis=0)
        return out

    def action_values(self, rho: F, q: F) -> F:
        """Counterfactual value of each action at each information set, to its player."""
        idx = np.arange(self.nodes)
        mine = q[idx, :, self.node_player]  # (nodes, 2): the deciding seat's payoff
        out = np.zeros((self.infosets, 2))
        for a in range(2):
            out[:, a] = np.bincount(self.infoset, weights=rho * mine[:, a],
                                    minlength=self.infosets)
        return out

    # -- results -------------------------------------------------------------------

    def evaluate(self, sigma: F) -> F:
        v, _ = self.values(sigma)
        return self.root_values(v)

    def best_responses(self, sigma: F) -> tuple[F, F]:
        """(each seat's best-response value against ``sigma``, ``sigma``'s values)."""
        rho = self.reach(sigma)
        v, q = self.values(sigma)
        value = self.root_values(v)
        cf = np.where(self.legal, self.action_values(rho, q), -np.inf)
        best = np.zeros(self.n)
        for i in range(self.n):
            mine = self.player == i
            pure = sigma.copy()
            choice = np.argmax(cf[mine], axis=1)
            pure[mine] = 0.0
            pure[np.flatnonzero(mine), choice] = 1.0
            best[i] = self.evaluate(pure)[i]
        return best, value

    def off_path(self, sigma: F) -> F:
        """``sigma`` with every information set it never reaches answered well.

        CFR leaves a set that the strategy never reaches (beyond the first iterate's
        trace in the average: below ``UNREACHED``) at its first guess (both actions
        alike), which costs nothing in equilibrium but is a poor answer to a player who
        does reach it. Here such a set takes the action with the better value
        to its player, the nodes weighted by chance alone, given the later positions'
        (already answered) choices: positions from the dealer back to the dealer's left,
        since a position's subtree holds only later positions."""
        out = sigma.copy()
        reached = np.bincount(self.infoset, weights=self.reach(sigma),
                              minlength=self.infosets)
        chance = self.reach(np.ones_like(sigma))
        both = self.legal[:, 0] & self.legal[:, 1]
        for i in range(self.n - 1, -1, -1):
            dead = both & (self.player == i) & (reached < UNREACHED)
            if not dead.any():
                continue
            _, q = self.values(out)
            cf = self.action_values(chance, q)
            swap = (cf[:, 1] > cf[:, 0]).astype(np.float64)
            out[dead, 1] = swap[dead]
            out[dead, 0] = 1.0 - swap[dead]
        return out

    def nash_conv(self, sigma: F) -> float:
        best, value = self.best_responses(sigma)
        return float(np.sum(best - value))


@dataclass
class Solution:
    game: Game
    strategy: F  # average strategy per information set: (P(stand), P(swap))
    values: F  # expected change of lives per position under it
    nash_conv: float
    iterations: int
    seconds: float
    # CFR+'s regrets at the end: ``solve(regret=...)`` starts a nearby game from them.
    regret: F | None = None

    def swap_probability(self) -> dict[str, float]:
        """Information set key -> probability of swapping, where both are legal."""
        both: list[bool] = (self.game.legal[:, 0] & self.game.legal[:, 1]).tolist()
        return {k: float(p) for k, p, b in
                zip(self.game.keys, self.strategy[:, 1].tolist(), both, strict=True) if b}

    def opening(self) -> dict[str, float]:
        """Position 0's swap probability by dealt piece when no other seat knocked."""
        return {piece: float(self.strategy[info, 1])
                for piece, info in self.game.openings.items()}


def solve(game: Game, *, target: float = 1e-4, max_iterations: int = 5000,
          check_every: int = 25, alternate: bool | None = None,
          progress: Callable[[int, float], None] | None = None,
          regret: F | None = None) -> Solution:
    """CFR+ (regret matching+, linear averaging) until NashConv is below ``target``.
    ``regret``: a warm start, the regrets of a game with the same tree and payoffs
    close to these (the match solver's states, solved again as their values settle);
    the average starts afresh from the strategy they give."""
    start = time.perf_counter()
    legal = game.legal
    uniform = game.uniform()
    regrets: F = np.zeros((game.infosets, 2)) if regret is None else regret.copy()
    total = np.zeros((game.infosets, 2))
    weight = 0.0
    conv = float("inf")
    it = 0
    avg = uniform
    def current() -> F:
        pos = np.where(legal, regrets, 0.0)
        norm = pos.sum(axis=1, keepdims=True)
        return np.where(norm > 0, pos / np.where(norm > 0, norm, 1.0), uniform)

    # Alternating updates (each seat in turn sees the others' newest strategy) converge
    # far faster on a two-seat table (Le Her: 1e-7 where simultaneous ones stall near
    # 1e-5); with more seats one simultaneous pass an iteration is cheaper overall.
    if alternate is None:
        alternate = game.n == 2
    owners = [game.player == i for i in range(game.n)] if alternate \
        else [np.ones(game.infosets, dtype=bool)]
    while it < max_iterations:
        it += 1
        for mine in owners:
            sigma = current()
            rho = game.reach(sigma)
            _, q = game.values(sigma)
            cf = game.action_values(rho, q)
            base = (cf * sigma).sum(axis=1, keepdims=True)
            step = np.where(legal & mine[:, None], cf - base, 0.0)
            regrets = np.maximum(regrets + step, 0.0)
            total[mine] += it * sigma[mine]
        weight += it
        if it % check_every == 0 or it == max_iterations:
            avg = total / weight
            conv = game.nash_conv(avg)
            if progress is not None:
                progress(it, conv)
            if conv < target:
                break
    avg = total / weight
    conv = game.nash_conv(avg)
    return Solution(game, avg, game.evaluate(avg), conv, it, time.perf_counter() - start,
                    regrets)
