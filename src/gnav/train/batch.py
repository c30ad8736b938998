"""Monte Carlo CFR over the abstraction on the compiled batch engine: what ``gnav train``
runs.

Each seat decides at most once a round, so at its decision its own reach is 1 and a
sampled round gives an unbiased sample of every visited information set's
counterfactual regrets at once. A batch deals many rounds (counter-based chance,
``gnav.fast.jit``) and plays them by the current strategy (regret matching over
``gnav-abstraction/1``); then, for each position in turn, it plays the same rounds again
with that position's decision flipped (``FLIP``: the other action than the policy's, on
the same decks and draws). The two lines differ only by the decision, so the difference
of the position's lives is the value of one action over the other: external sampling
with every seat a traverser, ``1 + seats`` plays a batch for ``seats`` decisions a round.
Every seat starts with lives enough to pay whatever it owes, as the solver assumes.

With ``tremble`` the lines of batch ``t`` are played by the strategy trembling (each
seat uniformly at random with probability ``tremble / sqrt(t)``), the values of a
decision still weighed by the strategy itself: information sets that self-play never
reaches (a neighbour who swaps where the policy stands) are met and learnt, and the
perturbation fades so that the average tends to an equilibrium of the game itself.

Updates are linear CFR (Pluribus's weighting: batch ``t``'s regrets weighted by ``t``)
or, with ``plus``, CFR+ (regrets floored at 0 after each batch); the average strategy
weighs batch ``t`` by ``t ** power`` (2 by default, discounted CFR's gamma: the early,
poor strategies fade faster; at 3 seats of gnav it reaches the abstraction's floor in
half the batches that ``power = 1`` needs). A batch is a fixed list of units, one per
table size of the band and shard, each from its own derived seed, summed in unit order:
the policy depends on the seed and the configuration only, not on ``jobs`` (threads: the
kernels release the GIL).

``gnav.train.mccfr`` computes the same sums on the reference engine; a test holds the
two equal on the same decks and draws.

With ``terms="match"`` the values are the match's (``gnav.train.match_terms``): each
row at a lives state of the field's matches, each seat playing the table of its lives
class (``gnav.lives_class``), a decision valued as the change of its seat's chance to
win the match. The state's arrays are then ``CLASSES`` round tables side by side (index
``class * size + key``); ``State.blind`` sums them over the classes, the lives-blind
policy that answers where a class never met a key.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from gnav.fast.abstraction import GnavAbstraction
from gnav.fast.jit import ABSTRACT, FLIP, JitRounds
from gnav.rules import Rules
from gnav.seeds import derive
from gnav.train.regrets import accumulate, both_legal

F64 = npt.NDArray[np.float64]
LIVES = 1000  # every seat can pay every payment of the round (as the solver assumes)
TERMS = ("lives", "match")


@dataclass(frozen=True)
class Config:
    preset: str
    seats: tuple[int, ...]  # the band's table sizes, each played every batch
    seed: int = 0
    batches: int = 200
    rounds: int = 40_000  # a batch's rounds, split over the sizes and shards
    shards: int = 8
    plus: bool = False  # CFR+ rather than linear CFR
    power: int = 2  # batch t's strategy weighs t ** power in the average
    # Batch t's lines are played by the strategy trembling: each seat plays uniformly at
    # random with probability tremble / sqrt(t), in the lines, not in the regrets; so that
    # information sets self-play never reaches still learn what to do when a table plays
    # otherwise, while the perturbation fades and the average tends to the game's own.
    tremble: float = 0.0
    options: tuple[tuple[str, Any], ...] = ()
    # "lives": a round valued in lives, every seat at many; "match": in win chance, at
    # lives states of ``matches`` whole matches of the field (gnav.train.match_terms).
    terms: str = "lives"
    matches: int = 1000

    def __post_init__(self) -> None:
        if self.terms not in TERMS:
            raise ValueError(f"terms are {' or '.join(TERMS)}, not {self.terms!r}")
        if self.matches < 1:
            raise ValueError(f"matches must be at least 1, not {self.matches}")

    def rules(self) -> Rules:
        return Rules.of(self.preset, **dict(self.options))

    def rows(self) -> int:
        """Rounds a unit (one size, one shard) plays."""
        return max(1, self.rounds // (len(self.seats) * self.shards))

    def units(self) -> list[tuple[int, int]]:
        """(size, shard) of a batch's units, in the order they are summed."""
        return [(n, i) for n in self.seats for i in range(self.shards)]


def regret_matching(regret: F64) -> F64:
    """P(swap) of rows of (stand, swap) regrets: each in proportion to its positive
    part, 1/2 where neither is positive."""
    pos = np.maximum(regret, 0.0)
    total = pos.sum(axis=1)
    out: F64 = np.where(total > 0, pos[:, 1] / np.where(total > 0, total, 1.0), 0.5)
    return out


class State:
    """Dense arrays over the abstraction's indices: regrets (stand, swap), and the
    average strategy's weight and weighted P(swap)."""

    def __init__(self, size: int) -> None:
        self.regret = np.zeros((size, 2))
        self.weight = np.zeros(size)
        self.swap = np.zeros(size)
        self.visits = np.zeros(size, dtype=np.int64)  # decisions met, unweighted
        self.batch = 0
        self.rounds = 0

    def strategy(self) -> F64:
        """Regret matching: the current P(swap) at every index (1/2 where no regret is
        positive)."""
        return regret_matching(self.regret)

    def average(self) -> F64:
        """The average strategy (what ships); 1/2 where never visited."""
        out: F64 = np.where(self.weight > 0, self.swap / np.where(self.weight > 0,
                                                                   self.weight, 1.0), 0.5)
        return out

    def by_key(self) -> dict[int, list[float]]:
        """The average strategy's sums by abstract key (the index): key -> [weight,
        weight * P(swap)]."""
        return {int(i): [float(self.weight[i]), float(self.swap[i])]
                for i in np.flatnonzero(self.weight > 0)}

    def visits_by_key(self) -> dict[int, int]:
        """The decisions met at each key met."""
        return {int(i): int(self.visits[i]) for i in np.flatnonzero(self.visits)}

    def met(self, at_least: int) -> set[int]:
        """The keys met in at least ``at_least`` decisions."""
        return {int(i) for i in np.flatnonzero(self.visits >= max(1, at_least))}

    def blind(self, parts: int) -> State:
        """The sums of ``parts`` tables side by side (a match training's classes) added
        up key by key: the lives-blind average strategy and visits (no regrets)."""
        size = len(self.weight) // parts
        out = State(size)
        out.weight = self.weight.reshape(parts, size).sum(0)
        out.swap = self.swap.reshape(parts, size).sum(0)
        out.visits = self.visits.reshape(parts, size).sum(0)
        out.batch, out.rounds = self.batch, self.rounds
        return out

    def part(self, parts: int, i: int) -> State:
        """Table ``i`` of ``parts`` side by side (a class's), as a state of its own."""
        size = len(self.weight) // parts
        out = State(0)
        cut = slice(i * size, (i + 1) * size)
        out.regret, out.weight = self.regret[cut], self.weight[cut]
        out.swap, out.visits = self.swap[cut], self.visits[cut]
        out.batch, out.rounds = self.batch, self.rounds
        return out


def trembling(current: F64, tremble: float, out: F64 | None = None) -> F64:
    """``current`` with each seat playing uniformly at random with probability
    ``tremble``: what the lines are played by (written into ``out`` if given)."""
    if tremble == 0.0:
        return current
    made: F64 = np.multiply(current, 1.0 - tremble, out=out)
    made += tremble / 2
    return made


def sums(rules: Rules, seats: int, rows: int, current: F64, *, seed: int,
         first_row: int = 0, decks: npt.ArrayLike | None = None,
         ab: GnavAbstraction | None = None, both: npt.NDArray[np.bool_] | None = None,
         slot: npt.NDArray[np.int64] | None = None, played: F64 | None = None
         ) -> tuple[npt.NDArray[np.int64], F64]:
    """One unit's sampled regrets: ``rows`` rounds at ``seats`` seats played by
    ``current`` (P(swap) per abstract index), or by ``played`` (``trembling(current,
    ...)``) while the regrets still weigh each line's two values by ``current``, and each
    position's decision flipped. Returns the indices visited and their sums (rows: stand
    regret, swap regret, P(swap) sum, visits). ``slot``: scratch of -1 over the
    abstraction, reused between calls."""
    ab = ab if ab is not None else GnavAbstraction(rules)
    both = both if both is not None else both_legal(rules, ab)
    slot = slot if slot is not None else np.full(ab.size, -1, dtype=np.int64)
    table = (current if played is None else played)[None, :]
    # One engine for every play of the unit (its arrays are overwritten by each play):
    # setting one up costs more than playing a few dozen rounds of a big table.
    engine = JitRounds(rules, seats, rows, seed=seed, first_row=first_row, decks=decks,
                       lives=LIVES)
    engine.play(table, ABSTRACT)
    keys = engine.keys.T.flatten()  # copies, column by column
    took = engine.actions.T.flatten()
    mine = engine.lives.T.flatten()
    other = np.empty((seats, rows), dtype=engine.lives.dtype)
    for c in range(seats):
        force = np.full(seats, -1, dtype=np.int64)
        force[c] = FLIP
        other[c] = engine.play(table, ABSTRACT, forced=force).lives[:, c]
    visited, out = accumulate(keys, took, mine, other.ravel(), current, both, slot)
    return visited, out


def train(config: Config, *, jobs: int = 1, state: State | None = None,
          progress: Callable[[int, int], None] | None = None) -> State:
    """Run batches until ``config.batches`` (continuing ``state`` if given)."""
    rules = config.rules()
    ab = GnavAbstraction(rules)
    both = both_legal(rules, ab)
    match = config.terms == "match"
    parts = 1
    states: dict[int, Sequence[tuple[tuple[int, ...], float]]] = {}
    if match:
        from gnav.lives_class import CLASSES
        from gnav.train import match_terms  # it imports this module

        parts = CLASSES
        both = np.tile(both, parts)
        states = {n: match_terms.field_states(config.preset, config.options, n,
                                              config.matches, config.seed)
                  for n in config.seats}
    st = state if state is not None else State(ab.size * parts)
    rows = config.rows()
    units = config.units()
    local = threading.local()  # each thread's scratch for ``sums``
    pool = ThreadPoolExecutor(jobs) if jobs > 1 else None
    try:
        current = st.strategy()
        scratch = np.empty_like(current)  # the trembling table, rewritten each batch
        while st.batch < config.batches:
            st.batch += 1
            t = st.batch
            # One trembling table a batch, shared by its units.
            played = trembling(current, config.tremble / math.sqrt(t), scratch)

            def unit(u: tuple[int, int], t: int = t, current: F64 = current,
                     played: F64 = played) -> tuple[npt.NDArray[np.int64], F64]:
                n, shard = u
                if not hasattr(local, "slot"):
                    local.slot = np.full(ab.size * parts, -1, dtype=np.int64)
                if match:
                    rng = np.random.default_rng(derive(config.seed, "train-rows", t, n,
                                                       shard))
                    return match_terms.match_sums(
                        rules, n, rows, current, states[n],
                        seed=derive(config.seed, "train", t, n), rng=rng,
                        first_row=shard * rows, ab=ab, both=both, slot=local.slot,
                        played=played)
                return sums(rules, n, rows, current, seed=derive(config.seed, "train", t, n),
                            first_row=shard * rows, ab=ab, both=both, slot=local.slot,
                            played=played)

            results: Sequence[tuple[npt.NDArray[np.int64], F64]] = \
                list(pool.map(unit, units)) if pool is not None else [unit(u) for u in units]
            w = float(t) ** config.power
            for visited, s in results:  # in unit order: the same sums whatever the jobs
                st.regret[visited] += t * s[:, :2]  # each unit's keys are distinct
                st.weight[visited] += w * s[:, 3]
                st.swap[visited] += w * s[:, 2]
                st.visits[visited] += s[:, 3].astype(np.int64)
            if config.plus:
                np.maximum(st.regret, 0.0, out=st.regret)
            # The strategy moves only where regrets did (CFR+'s floor moves none of
            # P(swap)): regret matching there alone, in place, once every unit is done (a
            # match training's 20M indices cost 1.2 s a batch in full).
            met = np.unique(np.concatenate([v for v, _ in results]))
            current[met] = regret_matching(st.regret[met])
            st.rounds += rows * len(units)
            if progress is not None:
                progress(st.batch, config.batches)
    finally:
        if pool is not None:
            pool.shutdown()
    return st
