"""The atlas computed exactly: a solved strategy evaluated on the round's whole tree
(one of the atlas's sources; ``gnav.odds.source.atlas`` chooses it where a strategy ships).

The tree (``gnav.solve.tree``) holds every deal by piece type with its exact probability,
every stock draw, and two measures on its edges: the change of lives and the chance of
paying. Each seat decides at most once a round, so "stands whatever happens" is simply
the strategy with that seat's every choice set to stand, and an information set's value
of an action is its counterfactual value divided by its reach (chance and the other
seats' choices), as the solver's best response computes it.

numpy (the ``[analysis]`` extra); 4 seats of ``gnav`` take a couple of minutes and about
a gigabyte, like ``gnav solve``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from gnav.odds.figures import Atlas, Cell, Choice, Figure, situation
from gnav.rules import Rules
from gnav.solve.cfr import F, Game
from gnav.solve.tree import Tree, build
from gnav.strategies import Strategy

# An information set the strategy reaches less often than this is off its path: its
# figures are weighted by chance alone (every other seat's choices counted alike).
UNREACHED = 1e-12


@dataclass
class Evaluated:
    """A strategy on a tree: per information set, its reach and each action's value."""

    tree: Tree
    game: Game
    sigma: F  # (P(stand), P(swap)) per information set
    reach: F  # per information set: chance times the other seats' choices
    lives: F  # per information set and action: expected change of lives
    pay: F  # per information set and action: P(pay)
    off_path: np.ndarray  # per information set: True where the strategy never goes

    def key_figures(self) -> dict[str, tuple[float, float, float, float, float, float]]:
        """Information set key -> (reach, P(swap), P(pay | stand), P(pay | swap),
        lives if stand, lives if swap), for every set where both actions are legal."""
        both = self.game.legal[:, 0] & self.game.legal[:, 1]
        out = {}
        for i in np.flatnonzero(both).tolist():
            out[self.game.keys[i]] = (
                float(self.reach[i]), float(self.sigma[i, 1]), float(self.pay[i, 0]),
                float(self.pay[i, 1]), float(self.lives[i, 0]), float(self.lives[i, 1]))
        return out


def strategy_sigma(game: Game, strategy: Strategy) -> F:
    """The strategy as the solver's per-set (P(stand), P(swap)); a forced choice where
    only one action is legal."""
    sigma = np.zeros((game.infosets, 2))
    for i, key in enumerate(game.keys):
        stand, swap = bool(game.legal[i, 0]), bool(game.legal[i, 1])
        if stand and swap:
            p = strategy.swap_probability(key)
            if p is None:
                raise ValueError(f"the strategy holds no choice for {key}")
            sigma[i] = (1.0 - p, p)
        else:
            sigma[i] = (float(stand), float(swap and not stand))
    return sigma


def evaluate(tree: Tree, strategy: Strategy) -> Evaluated:
    game = Game(tree)
    n = tree.seats
    sigma = strategy_sigma(game, strategy)
    pay_term = np.asarray(tree.pay, dtype=np.float64).reshape(-1, 2, n)[game.order]
    rho = game.reach(sigma)
    _, q_lives = game.values(sigma)
    _, q_pay = game.values_of(pay_term, sigma)
    weight: F = np.bincount(game.infoset, weights=rho, minlength=game.infosets).astype(np.float64)
    lives = game.action_values(rho, q_lives)
    pay = game.action_values(rho, q_pay)
    off = weight < UNREACHED
    if off.any():
        chance = game.reach(np.ones_like(sigma))
        w0 = np.bincount(game.infoset, weights=chance, minlength=game.infosets)
        lives[off] = game.action_values(chance, q_lives)[off]
        pay[off] = game.action_values(chance, q_pay)[off]
        weight = np.where(off, w0, weight).astype(np.float64)
    safe = np.where(weight > 0, weight, 1.0)[:, None]
    return Evaluated(tree, game, sigma, weight, lives / safe, pay / safe, off)


def from_tree(rules: Rules, seats: int, strategy: Strategy, policy: str = "expert",
          progress: Callable[[int, int], None] | None = None) -> tuple[Atlas, Evaluated]:
    """The exact atlas of ``strategy`` at ``seats`` seats of ``rules``, and the evaluated
    tree (the coach's table comes from it)."""
    tree = build(rules, seats, endings=True, progress=progress)
    ev = evaluate(tree, strategy)
    game, sigma = ev.game, ev.sigma
    n = seats
    ids = rules.ids
    pay_term = np.asarray(tree.pay, dtype=np.float64).reshape(-1, 2, n)[game.order]
    roots_a, roots_b = game.levels[0]
    root_prob = game.prob[roots_a:roots_b]
    deals = np.asarray(tree.deals, dtype=np.int64).reshape(-1, n)  # build order = root order
    ntypes = len(ids)

    def by_dealt(values: F, pos: int) -> F:
        """Per piece type dealt at ``pos``: the probability-weighted sum of ``values``."""
        out = np.bincount(deals[:, pos], weights=root_prob * values, minlength=ntypes)
        return out.astype(np.float64)

    dealt_p = [by_dealt(np.ones(len(root_prob)), i) for i in range(n)]
    v_lives, _ = game.values(sigma)
    v_pay, _ = game.values_of(pay_term, sigma)
    values = game.root_values(v_lives)
    pays = game.root_values(v_pay)
    both = game.legal[:, 0] & game.legal[:, 1]

    forced: dict[tuple[int, int], F] = {}
    for i in range(n):
        mine = game.player == i
        for a in (0, 1):
            s = sigma.copy()
            can = mine & game.legal[:, a]
            s[can] = 0.0
            s[can, a] = 1.0
            v, _ = game.values_of(pay_term, s)
            forced[i, a] = by_dealt(v[roots_a:roots_b, i], i)
        if progress is not None:
            progress(i + 1, n)

    # How often each position swaps, by the piece dealt to it, and its choices by
    # situation and piece held: from the information sets (reach times P(swap)).
    swaps = np.zeros((n, ntypes))
    table: dict[tuple[int, str, str], list[float]] = defaultdict(lambda: [0.0] * 4)
    totals = np.zeros(n)
    index = {pid: k for k, pid in enumerate(ids)}
    for k, key in enumerate(game.keys):
        w = float(ev.reach[k]) if not ev.off_path[k] else 0.0
        if w == 0.0:
            continue
        pos = int(game.player[k])
        parts = key.split("|")
        dealt, held = parts[1], parts[2]
        swaps[pos, index[dealt]] += w * float(sigma[k, 1])
        if not both[k]:
            continue
        totals[pos] += w
        row = table[pos, situation(key), held]
        row[0] += w
        row[1] += w * float(sigma[k, 1])
        row[2] += w * float(ev.pay[k, 0])
        row[3] += w * float(ev.pay[k, 1])

    pieces = [ids[t] for t in sorted(set(rules.deck), reverse=True)]  # lowest first
    cells: dict[tuple[str, int], Cell] = {}
    for i in range(n):
        for pid in pieces:
            t = index[pid]
            d = float(dealt_p[i][t])
            if d <= 0:
                continue
            pol = by_dealt(v_pay[roots_a:roots_b, i], i)[t] / d
            cells[pid, i] = Cell(d, Figure(float(pol)), Figure(float(forced[i, 0][t] / d)),
                                 Figure(float(forced[i, 1][t] / d)),
                                 Figure(float(swaps[i, t] / d)))
    choices = {}
    for (pos, sit, held), (w, sw, ps, pw) in table.items():
        choices[pos, sit, held] = Choice(w / totals[pos], sw / w, Figure(ps / w),
                                         Figure(pw / w))
    ordered = dict(sorted(choices.items(), key=lambda kv: (
        kv[0][0], kv[0][1], pieces.index(kv[0][2]) if kv[0][2] in pieces else 0)))
    result = Atlas(rules.name, seats, policy, "exact", pieces, cells,
                   [Figure(float(v)) for v in values], [Figure(float(p)) for p in pays],
                   ordered, meta={"nash_conv": strategy.nash_conv,
                                  "options": rules.options.as_dict()})
    return result, ev


# Columns of the ways a round ends valued at once: (nodes, 2, this) floats at a time,
# about 1.5 GB at 4 seats of the gnav family.
ENDS_AT_ONCE = 32


def ending_chances(ev: Evaluated) -> tuple[list[tuple[int, ...]], F]:
    """Each way the round can end for the lives (each position's change of lives, the
    tree's ``Ending.change``; who sits out next is not told apart), and per information
    set and action, its chance from there: the seat's view given, the other seats
    playing the strategy (``ev.reach``'s weights, chance alone off the path, as the
    lives and the chance of paying are weighted). A row sums to 1 where the action is
    legal, and its changes weighted by it give ``ev.lives``: ``coach_table`` ships it so
    that the coach can value a lookup's round in the match (``gnav.odds.coach``).

    Needs the tree built with its endings (``build(endings=True)``)."""
    tree, game = ev.tree, ev.game
    if not tree.endings:
        raise ValueError("the tree was built without its endings: build(endings=True)")
    changes = sorted({e.change for e in tree.endings})
    index = {c: k for k, c in enumerate(changes)}
    kind = np.asarray([index[e.change] for e in tree.endings], dtype=np.int64)
    kind = kind[np.asarray(tree.ending_id, dtype=np.int64)]
    where = np.empty_like(game.order)
    where[game.order] = np.arange(len(game.order))  # build order -> the game's order
    rows = np.asarray(tree.ending_row, dtype=np.int64)
    slot = where[rows // 2] * 2 + rows % 2
    weight = np.asarray(tree.ending_weight, dtype=np.float64)
    rho = game.reach(ev.sigma)
    if ev.off_path.any():
        rho = np.where(ev.off_path[game.infoset], game.reach(np.ones_like(ev.sigma)), rho)
    k = len(changes)
    out = np.zeros((game.infosets, 2, k))
    for lo in range(0, k, ENDS_AT_ONCE):
        hi = min(k, lo + ENDS_AT_ONCE)
        mine = (kind >= lo) & (kind < hi)
        term = np.bincount(slot[mine] * (hi - lo) + kind[mine] - lo, weights=weight[mine],
                           minlength=game.nodes * 2 * (hi - lo)).astype(np.float64)
        _, q = game.values_of(term.reshape(game.nodes, 2, hi - lo), ev.sigma)
        del term
        for a in (0, 1):
            for c in range(hi - lo):
                out[:, a, lo + c] = np.bincount(game.infoset, weights=rho * q[:, a, c],
                                                minlength=game.infosets)
        del q
    safe = np.where(ev.reach > 0, ev.reach, 1.0)[:, None, None]
    result: F = out / safe
    return changes, result


COACH_FORMAT = "gnav-coach/1"


def coach_table(rules: Rules, seats: int, strategy: Strategy,
                progress: Callable[[int, int], None] | None = None) -> dict[str, object]:
    """The coach's table of one solved table: for every information set where both
    actions are legal, [reach, P(swap), P(pay | stand), P(pay | swap), lives if stand,
    lives if swap] (``Evaluated.key_figures``), rounded to 1e-6; what ``gnav.odds.coach``
    looks a decision up in. Beside them, ``changes`` (each way the round can end for
    the lives, a change of lives per position) and ``ends``: per information set, for
    standing and for swapping, the chance of each (``ending_chances``) as text, "k:p"
    for the index into changes and its chance, apart by spaces, the chances rounded to
    1e-6 and those below it left out (text: a 4-seat table is read in a third of the
    time nested lists of numbers take, and the coach reads one set's at a time:
    ``gnav.odds.coach.ending_pairs``)."""
    tree = build(rules, seats, endings=True, progress=progress)
    return coach_table_of(rules, seats, strategy, evaluate(tree, strategy))


def coach_table_of(rules: Rules, seats: int, strategy: Strategy,
                   ev: Evaluated) -> dict[str, object]:
    """``coach_table`` from a tree already evaluated (``atlas`` returns one), so that the
    atlas and the coach's table of one table cost one tree (built with its endings
    for ``ends``; without them the table has none)."""
    figures = ev.key_figures()
    rows = {k: [round(x, 6) for x in v] for k, v in figures.items()}
    data: dict[str, object] = {
        "format": COACH_FORMAT, "preset": rules.name, "seats": seats,
        "options": strategy.options, "fields": ["reach", "swap", "pay_stand", "pay_swap",
                                                "lives_stand", "lives_swap"],
        "keys": rows}
    if ev.tree.endings:
        changes, chances = ending_chances(ev)
        index = {key: i for i, key in enumerate(ev.game.keys)}
        ends: dict[str, list[str]] = {}
        for key in figures:
            row = chances[index[key]]
            ends[key] = [" ".join(f"{c}:{round(float(row[a, c]), 6)}"
                                  for c in np.flatnonzero(row[a] >= 5e-7).tolist())
                         for a in (0, 1)]
        data["changes"] = [list(c) for c in changes]
        data["ends"] = ends
    return data
