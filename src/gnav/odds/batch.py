"""The odds atlas of a large table, and the coach's playouts, on the batch simulator's
compiled engine under a shipped trained policy (``gnav.odds`` chooses where).

Where the expert plays a trained policy (``gnav.strategies.policy``: 5 to 41 seats of
the gnav presets), its choices are a table over ``gnav-abstraction/1``, which the
compiled engine (``gnav.fast.jit``) plays a hundred times faster than the reference
engine plays the bots. Every position is played three ways on the same deals and the
same random numbers (common random numbers): as the policy plays it, and with that
position forced to stand and to swap (the others playing the policy); so the chance of
paying if it stands and if it swaps are paired on one set of deals, like the reference
atlas's branches (``gnav.odds.simulated``), but for every seat of every round.

The table is the policy's ``lookup`` (its backed-off keys included) at every abstract
key (``GnavAbstraction.lookup``: the same back-off, on every key at once); a key the
policy never saw, not even coarsened, gets the sources' tips (the threshold policy,
which the expert's ``counter`` fallback models the others by): the note says so.
Intervals: Wilson's for each chance, Student's t for the values, as the reference atlas
states them. Needs numpy and numba (the ``[analysis]`` extra).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from threading import Lock

import numpy as np
import numpy.typing as npt

from gnav.abstraction import RIGHT, Key
from gnav.fast.abstraction import GnavAbstraction, policy_table
from gnav.fast.jit import ABSTRACT, RICH, JitRounds
from gnav.fast.match_response import seat_chance
from gnav.fast.tables import Tables
from gnav.odds.figures import Atlas, Cell, Choice, Figure, wilson
from gnav.odds.match_model import ModelWins
from gnav.rules import Rules
from gnav.sim.stats import Moments
from gnav.strategies.policy import Policy

ROUNDS = 200_000  # rows played per run unless told (2 runs per position, and one more)
_SWAPPED = RIGHT.index("W")


def _situation(key: Key, nswaps: int, shown: int, own_knock: bool) -> str:
    """``gnav.odds.figures.situation`` read off the engine's rich key: a fool knocked
    (the left neighbour's, another's, or the seat's own), a matador shown, asked by the
    right neighbour, swaps before, or plain."""
    if own_knock or key.left or key.k:
        return "knock"
    if shown:
        return "matador"
    if key.right == _SWAPPED:
        return "asked"
    if nswaps:
        return "swaps"
    return "plain"


def from_batch(rules: Rules, seats: int, policy: Policy, rounds: int = ROUNDS, *, seed: int = 1,
          note: str = "", progress: Callable[[int, int], None] | None = None) -> Atlas:
    """The atlas of ``policy`` at ``seats`` seats of ``rules`` from ``rounds`` fresh
    rounds (full tables, as the other atlases)."""
    n = seats
    table, unseen = policy_table(rules, policy)
    missing = 0  # decisions met at a key the policy never saw
    tables = table[None, :]
    t = Tables.of(rules)
    rng = np.random.default_rng(seed)
    decks = rng.permuted(np.broadcast_to(t.deck, (rounds, len(t.deck))), axis=1)
    decks = np.ascontiguousarray(decks, dtype=np.int8)

    def play(forced: npt.NDArray[np.int64] | None = None) -> JitRounds:
        return JitRounds(rules, n, rounds, seed=seed, decks=decks).play(
            tables, RICH, forced=forced)

    steps = 2 * n + 1
    base = play()
    if progress is not None:
        progress(1, steps)
    change = base.gains.astype(np.int64) - base.pays
    lost = change < 0
    dealt = decks[:, :n].astype(np.int64)
    ids = rules.ids
    pieces = [ids[r] for r in sorted(set(int(x) for x in t.deck), reverse=True)]
    two = np.array([len(rules.legal_holding[i]) == 2 for i in range(len(ids))])
    abstraction = GnavAbstraction(rules)
    fool = np.array([p.fool for p in rules.pieces], dtype=bool)
    knock_public = bool(rules.knock_public)
    situations = ("knock", "matador", "asked", "swaps", "plain")

    @cache
    def read(index: int) -> Key:
        return abstraction.layout.unpack(index)

    cells: dict[tuple[str, int], Cell] = {}
    choices: dict[tuple[int, str, str], Choice] = {}
    values: list[Figure] = []
    pays: list[Figure] = []
    for c in range(n):
        stand = play(_force(n, c, 0))
        swap = play(_force(n, c, 1))
        if progress is not None:
            progress(2 * c + 3, steps)
        lost_stand = (stand.gains[:, c].astype(np.int64) - stand.pays[:, c]) < 0
        lost_swap = (swap.gains[:, c].astype(np.int64) - swap.pays[:, c]) < 0
        keys = base.keys[:, c]
        acts = base.actions[:, c]
        # Each distinct key read once: the piece held and the situation of the turn.
        took = keys >= 0
        unique, inverse = np.unique(keys[took], return_inverse=True)
        held_u = np.empty(len(unique), dtype=np.int64)
        sit_u = np.empty(len(unique), dtype=np.int64)
        for j, key in enumerate(unique.tolist()):
            whole = read(key >> 33)
            piece = whole.piece
            held_u[j] = piece
            sit_u[j] = situations.index(_situation(
                whole, (key >> 17) & 15, (key >> 9) & 0xFF, knock_public and bool(fool[piece])))
        held = np.full(rounds, -1, dtype=np.int64)
        sit = np.full(rounds, -1, dtype=np.int64)
        held[took] = held_u[inverse]
        sit[took] = sit_u[inverse]
        choice = took & two[np.maximum(held, 0)]
        missing += int(unseen[np.where(choice, keys >> 33, 0)][choice].sum())
        m = Moments()
        m.n, m.s, m.ss = rounds, float(change[:, c].sum()), float((change[:, c] ** 2).sum())
        e = m.estimate()
        values.append(Figure(e.value, e.low, e.high, e.n))
        pays.append(wilson(float(lost[:, c].sum()), rounds))
        col = dealt[:, c]
        for r in np.unique(col).tolist():
            rows = col == r
            k = int(rows.sum())
            cells[ids[r], c] = Cell(
                k / rounds, wilson(float(lost[rows, c].sum()), k),
                wilson(float(lost_stand[rows].sum()), k),
                wilson(float(lost_swap[rows].sum()), k),
                wilson(float(((acts[rows] == 1) & choice[rows]).sum()), k))
        decided = int(choice.sum())
        if not decided:
            continue
        group = sit * len(ids) + held
        for g in np.unique(group[choice]).tolist():
            at = choice & (group == g)
            k = int(at.sum())
            choices[c, situations[g // len(ids)], ids[g % len(ids)]] = Choice(
                k / decided, float((acts[at] == 1).mean()),
                wilson(float(lost_stand[at].sum()), k), wilson(float(lost_swap[at].sum()), k))
    ordered = dict(sorted(choices.items(), key=lambda kv: (
        kv[0][0], kv[0][1], pieces.index(kv[0][2]))))
    words = note + (f"; {missing} decisions met a key the policy never saw and took the "
                    "sources' tips there" if missing else "")
    return Atlas(rules.name, n, "expert", "simulated", pieces, cells, values, pays, ordered,
                 rounds=rounds, note=words,
                 meta={"seed": seed, "engine": "gnav.fast.jit", "branches": n,
                       "options": rules.options.as_dict()})


def _force(n: int, column: int, action: int) -> npt.NDArray[np.int64]:
    out = np.full(n, -1, dtype=np.int64)
    out[column] = action
    return out



# The coach's engines, one per (rules, seats, rows), kept: building one reads the rules
# into arrays (milliseconds, more than the playouts), and only the decks change. A lock
# keeps two threads (two analyses at once) from playing one engine's arrays.
_engines: dict[tuple[Rules, int, int], JitRounds] = {}
_engines_lock = Lock()


def both_ways(rules: Rules, policy: Policy, decks: npt.NDArray[np.int8],
              forced: list[int], me: int, *, seed: int = 0
              ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The coach's playouts on the compiled engine: each row of ``decks`` (a whole deal
    and stock order) played from the deal at ``len(forced)`` seats, each position before
    ``me`` forced to what it did (``forced``: 0 stood, 1 swapped, -1 took no turn or has
    not played), ``me`` forced to stand and then to swap, the later seats playing
    ``policy``; returns, each way, the lives every position gains (rows x positions, a
    loss is negative), as the round charges them."""
    n = len(forced)
    table, _ = policy_table(rules, policy)
    rows = decks.shape[0]
    out = []
    with _engines_lock:
        engine = _engines.get((rules, n, rows))
        if engine is None:
            engine = _engines[rules, n, rows] = JitRounds(rules, n, rows, seed=seed,
                                                          decks=decks)
        engine.deck = np.ascontiguousarray(decks, dtype=np.int8)
        engine.seed = seed
        for action in (0, 1):
            force = np.asarray(forced, dtype=np.int64).copy()
            force[me] = action
            engine.play(table[None, :], ABSTRACT, forced=force)
            out.append(engine.gains.astype(np.int64) - engine.pays)
    return out[0], out[1]


# The weighted sums of ``weighted_playouts``; the last, the chance to win standing and
# swapping, only where asked for (``wins``).
Sums = tuple[list[float], list[float], list[float], float, float, float, float,
             list[float] | None]


def weighted_playouts(rules: Rules, policy: Policy, rows: list[list[int]],
                      weights: list[float], forced: list[int], me: int, *,
                      seed: int = 0, wins: ModelWins | None = None
                      ) -> Sums:
    """``both_ways`` on the deals ``rows`` (pieces per slot, a whole deck each) with
    their importance ``weights``: the weighted sums the coach's figures are made of, for
    standing and for swapping: [paid], [lives], [lives squared], the total weight and
    its square, the weighted sums of the swap-minus-stand gap and of its square, and
    with ``wins`` (the deciding seat's chance to win by the lives model) [the chance to
    win] (else None)."""
    stand, swap = both_ways(rules, policy, np.asarray(rows, dtype=np.int8), forced, me,
                            seed=seed)
    if wins is not None:
        # The engine plays every seat at the starting lives and counts each payment; a
        # seat pays no life it does not have (docs/spec/rules.md §6), as the reference
        # engine's lives say: a seat on its last life that owes two loses one. (The
        # columns' lives at the round's start are ``wins.before``.)
        floor = -np.asarray(wins.before, dtype=np.int64)[None, :]
        stand, swap = np.maximum(stand, floor), np.maximum(swap, floor)
    w = np.asarray(weights, dtype=np.float64)
    ways = (stand[:, me].astype(np.float64), swap[:, me].astype(np.float64))
    d = ways[1] - ways[0]
    won = None if wins is None else [float((w * _chances(x, wins)).sum())
                                     for x in (stand, swap)]
    return ([float((w * (x < 0)).sum()) for x in ways], [float((w * x).sum()) for x in ways],
            [float((w * x * x).sum()) for x in ways], float(w.sum()), float((w * w).sum()),
            float((w * d).sum()), float((w * d * d).sum()), won)


def _chances(changes: npt.NDArray[np.int64], wins: ModelWins) -> npt.NDArray[np.float64]:
    """The deciding seat's chance to win after each row of ``changes`` (every column's
    change of lives): ``seat_chance``, the match's exploit and training's own valuation
    (each distinct outcome valued once), with the seats sitting this round out as
    columns that do not move."""
    rows = len(changes)
    rest = np.asarray(wins.rest, np.int64)
    before = np.tile(np.concatenate([np.asarray(wins.before, np.int64), rest]), (rows, 1))
    change = np.concatenate([changes, np.zeros((rows, len(rest)), np.int64)], axis=1)
    return seat_chance(before, change, wins.me)
