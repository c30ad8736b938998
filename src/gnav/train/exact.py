"""Abstract policies on the exact tree of a small table (``gnav.solve``): the yardstick.

An abstract key (``gnav.abstraction.coarsen``) is a function of the exact information
set key, so a policy over the abstraction is a strategy of the tree, and the solver's
exact best response measures it: the NashConv of the policy as it plays. Running CFR+
on the tree with its information sets merged by the abstraction gives the best the
abstraction can do (an imperfect-recall game, solved as if each merged set were one),
which is how the worth of each feature is measured.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from gnav.abstraction import Layout, coarsen
from gnav.solve.cfr import F, Game, solve

I64 = npt.NDArray[np.int64]
# An abstraction of the exact keys: coarsen, or a richer one (with_moves) to measure.
KeyOf = Callable[[str, Layout, frozenset[str]], Hashable]


def abstract_map(game: Game, drop: frozenset[str] = frozenset(), key: KeyOf = coarsen
                 ) -> tuple[I64, list[Hashable]]:
    """(each exact information set's abstract index, the abstract keys)."""
    layout = Layout.of(game.rules)
    index: dict[Hashable, int] = {}
    out = np.empty(game.infosets, dtype=np.int64)
    for i, k in enumerate(game.keys):
        a = key(k, layout, drop)
        out[i] = index.setdefault(a, len(index))
    return out, list(index)


def lift(game: Game, policy: Mapping[Any, float], drop: frozenset[str] = frozenset(),
         default: float = 0.5) -> tuple[F, int]:
    """The tree's strategy that plays ``policy`` (abstract key -> P(swap), the keys of
    whichever ``KeyOf`` made them: Any, as a Mapping's keys are invariant); a key the
    policy lacks plays ``default``. Returns the strategy and how many exact sets had no
    abstract key in the policy while both actions were legal."""
    amap, keys = abstract_map(game, drop)
    swap = np.array([policy.get(k, np.nan) for k in keys])[amap]
    both = game.legal[:, 0] & game.legal[:, 1]
    missing = int(np.sum(np.isnan(swap) & both))
    swap = np.where(np.isnan(swap), default, swap)
    swap = np.where(game.legal[:, 1], swap, 0.0)
    swap = np.where(game.legal[:, 0], swap, 1.0)
    return np.stack([1.0 - swap, swap], axis=1), missing


def earlier_moves(key: str) -> str:
    """Every earlier seat's move read off an exact key (``gnav.infoset``), one letter
    each from the dealer's left: ``S`` stood, ``W`` swapped, ``A`` asked and got
    nothing, ``?`` took no turn. The feature the abstraction lacks at 4 seats (a
    measurement, not a key that ships: it grows with the table)."""
    where, _, _, history = key.split("|", 3)
    pos = int(where.split("/")[0])
    status = ["?"] * pos
    for c in history.split(",") if history else []:
        if c[0] in "SWA" and c[1:2].isdigit() and int(c[1]) < pos:
            seat, move = int(c[1]), c[0]
            if status[seat] == "?" or (status[seat] == "A" and move == "W"):
                status[seat] = move
    return "".join(status)


def with_moves(key: str, layout: Layout, drop: frozenset[str] = frozenset()
               ) -> tuple[int, str]:
    """The abstract key and every earlier seat's move (``earlier_moves``)."""
    return coarsen(key, layout, drop), earlier_moves(key)


def merged(game: Game, drop: frozenset[str] = frozenset(), key: KeyOf = coarsen
           ) -> tuple[Game, I64, list[Hashable]]:
    """The tree with its information sets merged by the abstraction (a shallow copy),
    each exact set's merged index and the merged sets' abstract keys. The copy's
    ``keys`` are one member's exact key a merged set (labels only)."""
    amap, keys = abstract_map(game, drop, key)
    out = copy.copy(game)
    out.infoset = amap[game.infoset]
    out.infosets = len(keys)
    _, first = np.unique(amap, return_index=True)
    out.keys = [game.keys[i] for i in first.tolist()]
    player = np.zeros(len(keys), dtype=np.int64)
    player[amap] = game.player
    out.player = player
    legal = np.zeros((len(keys), 2), dtype=bool)
    legal[amap] = game.legal
    out.legal = legal
    out.node_player = player[out.infoset]
    return out, amap, keys


def abstract_solve(game: Game, drop: frozenset[str] = frozenset(),
                   iterations: int = 300, key: KeyOf = coarsen
                   ) -> tuple[dict[Hashable, float], float, int]:
    """CFR+ on the merged tree: (the abstract policy, its exact NashConv on the full
    tree, the number of abstract sets); ``key`` the abstraction (``coarsen``, or a
    richer one to measure what a feature would be worth)."""
    small, amap, keys = merged(game, drop, key)
    sol = solve(small, target=0.0, max_iterations=iterations, check_every=iterations)
    policy = {k: float(p) for k, p in zip(keys, sol.strategy[:, 1], strict=True)}
    sigma = sol.strategy[amap]
    return policy, game.nash_conv(sigma), small.infosets


def best_response_play(game: Game, drop: frozenset[str] = frozenset(),
                       iterations: int = 300, average: bool = True
                       ) -> tuple[list[tuple[int, float]], int]:
    """Fictitious play (``average``: each iterate the running mean of the best responses
    to the mean so far) or plain best-response iteration (each iterate the best response
    to the last) on the tree with its sets merged by the abstraction: the methods CFR is
    compared with. Returns (iteration, exact NashConv on the full tree) every tenth of
    the way, and the number of abstract sets."""
    small, amap, _ = merged(game, drop)
    sigma = small.uniform()
    trace: list[tuple[int, float]] = []
    both = small.legal[:, 0] & small.legal[:, 1]
    for t in range(1, iterations + 1):
        rho = small.reach(sigma)
        _, q = small.values(sigma)
        cf = small.action_values(rho, q)
        swap = np.where(both, (cf[:, 1] > cf[:, 0]).astype(np.float64),
                        small.legal[:, 1].astype(np.float64))
        br = np.stack([1.0 - swap, swap], axis=1)
        sigma = sigma + (br - sigma) / (t + 1) if average else br
        if t % max(1, iterations // 10) == 0:
            trace.append((t, game.nash_conv(sigma[amap])))
    return trace, small.infosets
