"""The game tree of one round, built once by driving the real engine.

Every history is a real ``RoundState`` reached by ``apply``: the solver never re-implements
the rules. Chance is by piece *type* with exact probabilities from the copies left: the
deal (one type per position) at the root, and each stock draw when a request reaches the
stock. Each round is dealt with its stock undrawn, so a draw is the engine's own chance
step (``Phase.DRAW``): the builder applies each piece type the pool holds
(``chance_pool``), with probability copies / pieces left.

Collapsing (what keeps it small; each seat decides at most once a round):

- An edge whose outcomes end the round holds their expected payoff, not a chance node.
- The dealer's move is the last of the round: its payoffs come from the engine's
  showdown of the hands it leads to (memoised by hands), see ``dealer_swap``.
- A plain piece drawn from the stock mid-round changes only the asker's piece and its
  private draw: one engine draw is copied for the others (the engine's own
  ``RoundState.redraw``); when the draw ends the round, only the showdown differs,
  which the kernel settles (``Kernel.settle``, memoised by hands).
- ``fast=False`` builds every move and every draw through ``apply`` instead, and a test
  checks that both give the same tree.

Payoff: each seat's change of lives in the round. Every seat starts the round with
``LIVES`` lives, so that every payment is made (the solved game assumes every seat has
lives to pay). Beside it the tree holds a second measure on the same edges, ``pay``: the
chance that the seat ends the round with fewer lives than it began (the odds atlas and
the coach read it; the solver reads only the payoff). ``build(endings=True)`` adds a
third, for the match (``gnav.solve.match``): each way the round can end (an ``Ending``:
each position's change of lives and who sits out next) with its chance weight on the
same edges, and one engine path to it, which the match replays with real lives.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import factorial
from typing import NamedTuple

from gnav.errors import OptionError
from gnav.events import Knock
from gnav.infoset import key_of
from gnav.round import STAND, SWAP, RoundState, merge
from gnav.rules import Rules

LIVES = 1000  # every seat can pay every payment of a round
ACTIONS = (STAND, SWAP)  # action 0 and action 1 of every node
# The tree's arrays cost about this many bytes per decision node (build lists and the
# solver's working arrays); ``check_size`` refuses a table that would not fit.
BYTES_PER_NODE = 400
MEMORY_LIMIT = 4 * 1024**3

Step = str | int  # a decision (STAND or SWAP), or the piece type chance draws
Path = tuple[tuple[int, ...], tuple[Step, ...]]  # the deal by type, then the steps


class _End(NamedTuple):
    """A round ended by a plain piece drawn, as a node reads it (``_Builder.draws``):
    each seat's lives and who sits out next; no state, since nothing follows it."""

    lives: tuple[int, ...]
    sit_out: tuple[int, ...]
    over: bool = True


class Ending(NamedTuple):
    """How a round ended, at ``LIVES`` each: what the match needs to go on."""

    change: tuple[int, ...]  # each position's change of lives
    sit_out: tuple[int, ...]  # the positions that sit out the next round


@dataclass
class Tree:
    """Decision nodes in build order (a parent before its children).

    ``parent[h]``/``action[h]``: the edge that leads to ``h`` (-1 for a deal);
    ``prob[h]``: the chance probability of that step (the deal's for a root);
    ``infoset[h]``: index into ``keys``; ``term[h * 2n + a * n + i]``: the expected
    payoff to position ``i`` of the outcomes of action ``a`` at ``h`` that end the round,
    weighted by their chance probability.
    """

    rules: Rules
    seats: int
    parent: array[int]
    action: array[int]
    prob: array[float]
    infoset: array[int]
    depth: array[int]
    term: array[float]
    keys: list[str]
    player: list[int]  # per infoset: the deciding position
    legal: list[int]  # per infoset: bit 0 stand is legal, bit 1 swap is legal
    openings: dict[str, int]  # piece id -> infoset of position 0 when nobody else knocked
    # Laid out as ``term``: the chance (weighted as ``term``) that position i pays.
    pay: array[float] = field(default_factory=lambda: array("d"))
    # The deal by piece type of each root, in the order the roots were built.
    deals: list[tuple[int, ...]] = field(default_factory=list)
    # ``build(endings=True)`` only: entry k gives ``ending_weight[k]``, the chance
    # (weighted as ``term``) that action ``ending_row[k] % 2`` at node ``ending_row[k] //
    # 2`` ends the round as ``endings[ending_id[k]]``; ``paths[e]``: one engine path
    # (deal and steps) that ends as ``endings[e]``. Summed with each ending's change,
    # the weights give ``term``.
    ending_row: array[int] = field(default_factory=lambda: array("i"))
    ending_id: array[int] = field(default_factory=lambda: array("i"))
    ending_weight: array[float] = field(default_factory=lambda: array("d"))
    endings: list[Ending] = field(default_factory=list)
    paths: list[Path] = field(default_factory=list)

    @property
    def nodes(self) -> int:
        return len(self.parent)


def deal_count(rules: Rules, seats: int) -> int:
    """How many deals by piece type (the root's chance outcomes): sequences of ``seats``
    types using no type more often than its copies, counted with the exponential
    generating function prod_t sum_{j <= copies_t} x^j / j!."""
    poly = [Fraction(1)]
    for c in Counter(rules.deck).values():
        term = [Fraction(1, factorial(j)) for j in range(c + 1)]
        out = [Fraction(0)] * min(seats + 1, len(poly) + c)
        for i, a in enumerate(poly):
            for j, b in enumerate(term):
                if i + j <= seats:
                    out[i + j] += a * b
        poly = out
    if seats >= len(poly):
        return 0
    count = int(poly[seats] * factorial(seats))
    return count


def estimate_nodes(rules: Rules, seats: int) -> int:
    """An upper bound on decision nodes: 2^seats - 1 per deal."""
    deals: int = deal_count(rules, seats)
    return deals * ((1 << seats) - 1)


def check_size(rules: Rules, seats: int, limit: int = MEMORY_LIMIT) -> None:
    """A one-line error for a table that cannot be solved in ``limit`` bytes."""
    rules.check_seats(seats)
    if seats > 6:
        raise OptionError(f"gnav solve handles 2 to 6 seats, not {seats}: the tree grows "
                          f"as deals x 2^seats")
    need = estimate_nodes(rules, seats) * BYTES_PER_NODE
    if need > limit:
        raise OptionError(
            f"{rules.name} at {seats} seats needs about {need / 1024**3:.1f} GB "
            f"({estimate_nodes(rules, seats):,} decision nodes at {BYTES_PER_NODE} bytes); "
            f"the limit is {limit / 1024**3:.0f} GB"
        )


class _Builder:
    def __init__(self, rules: Rules, seats: int, fast: bool, endings: bool = False) -> None:
        self.rules = rules
        self.track = endings
        self.hand: tuple[int, ...] = ()  # the deal being built
        self.ending_row: array[int] = array("i")
        self.ending_id: array[int] = array("i")
        self.ending_weight: array[float] = array("d")
        self.ending_index: dict[Ending, int] = {}
        self.endings: list[Ending] = []
        self.paths: list[Path] = []
        self.sit_outs: dict[tuple[int, ...], tuple[int, ...]] = {}
        self.n = seats
        self.fast = fast
        self.seat_order = tuple(range(seats))
        self.parent: array[int] = array("i")
        self.action: array[int] = array("b")
        self.prob: array[float] = array("d")
        self.infoset: array[int] = array("i")
        self.depth: array[int] = array("b")
        self.term: array[float] = array("d")
        self.pay: array[float] = array("d")
        self.index: dict[str, int] = {}
        self.keys: list[str] = []
        self.player: list[int] = []
        self.legal: list[int] = []
        self.openings: dict[str, int] = {}
        self.showdowns: dict[tuple[int, ...], tuple[int, ...]] = {}
        self.zero = (0.0,) * (2 * seats)

    # -- nodes ---------------------------------------------------------------------

    def record(self, row: int, p: float, change: Sequence[float], sit_out: tuple[int, ...],
               steps: tuple[Step, ...]) -> None:
        """With ``endings``: the round ends as (change, sit_out) with chance ``p`` at
        ``row`` (node * 2 + action), reached by ``steps`` from the deal."""
        if not self.track:
            return
        ending = Ending(tuple(round(x) for x in change), sit_out)
        e = self.ending_index.get(ending)
        if e is None:
            e = self.ending_index[ending] = len(self.endings)
            self.endings.append(ending)
            self.paths.append((self.hand, steps))
        self.ending_row.append(row)
        self.ending_id.append(e)
        self.ending_weight.append(p)

    def node(self, state: RoundState, prob: float, parent: int, action: int,
             depth: int, path: tuple[Step, ...] = ()) -> None:
        n = self.n
        h = len(self.parent)
        pos = state.turn
        ids = self.rules.ids
        dealt = ids[state.deal[pos]]
        events = merge(state.public, state.private[pos], dealt)
        key = key_of(self.seat_order, pos, dealt, ids[state.hands[pos]], events)
        legal = state.legal_actions()
        info = self.index.get(key)
        if info is None:
            info = self.index[key] = len(self.keys)
            self.keys.append(key)
            self.player.append(pos)
            self.legal.append((STAND in legal) | (SWAP in legal) << 1)
            if pos == 0 and all(not isinstance(e, Knock) or e.seat == 0 for e in events):
                self.openings.setdefault(dealt, info)
        self.parent.append(parent)
        self.action.append(action)
        self.prob.append(prob)
        self.infoset.append(info)
        self.depth.append(depth)
        self.term.extend(self.zero)
        self.pay.extend(self.zero)
        base = h * 2 * n
        if pos == n - 1 and self.fast:
            # The dealer's move ends the round: its payoffs straight from the showdowns.
            for a, act in enumerate(ACTIONS):
                if act in legal:
                    row = h * 2 + a
                    payoff, pays = self.dealer_stand(state, row, (*path, act)) \
                        if act == STAND else self.dealer_swap(state, row, (*path, act))
                    for i in range(n):
                        self.term[base + a * n + i] = payoff[i]
                        self.pay[base + a * n + i] = pays[i]
            return
        for a, act in enumerate(ACTIONS):
            if act not in legal:
                continue
            if self.fast and act == SWAP:
                final = self.final_draw(state, h * 2 + a, (*path, act))
                if final is not None:
                    for i in range(n):
                        self.term[base + a * n + i] = final[0][i]
                        self.pay[base + a * n + i] = final[1][i]
                    continue
            for p, nxt, drawn in self.outcomes(state, act):
                steps = (*path, act, *drawn)
                if isinstance(nxt, _End) or nxt.over:
                    lives = nxt.lives
                    for i in range(n):
                        self.term[base + a * n + i] += p * (lives[i] - LIVES)
                        self.pay[base + a * n + i] += p * (lives[i] < LIVES)
                    self.record(h * 2 + a, p, [v - LIVES for v in lives], nxt.sit_out, steps)
                else:
                    self.node(nxt, p, h, a, depth + 1, steps)

    # -- chance --------------------------------------------------------------------

    def outcomes(self, state: RoundState, act: str
                 ) -> list[tuple[float, RoundState | _End, tuple[int, ...]]]:
        """Each way ``act`` can go: its chance, the state, the pieces chance drew."""
        nxt, _ = state.apply(act)
        if not nxt.drawing:
            return [(1.0, nxt, ())]
        return self.draws(nxt, 1.0, ())

    def draws(self, state: RoundState, prob: float, drawn: tuple[int, ...]
              ) -> list[tuple[float, RoundState | _End, tuple[int, ...]]]:
        """Every way the engine's chance step ``state`` (a request at the undrawn stock)
        can go: a run of pass pieces (set aside, chance draws again) ending in any other
        piece, or an empty stock (``drawn``: the pieces drawn before it)."""
        out: list[tuple[float, RoundState | _End, tuple[int, ...]]] = []
        pool = state.chance_pool()
        total = sum(pool)
        effects = self.rules.effects
        plain: RoundState | None = None
        for t, c in enumerate(pool):
            if not c:
                continue
            p = prob * c / total
            effect = effects[t]
            if effect is None and plain is not None and self.fast:
                out.append((p, self.redraw(state, plain, t), (*drawn, t)))
                continue
            nxt, _ = state.apply(t)
            if nxt.drawing:  # t passed the request on: chance draws again
                out += self.draws(nxt, p, (*drawn, t))
                continue
            if effect is None:
                plain = nxt
            out.append((p, nxt, (*drawn, t)))
        return out

    def redraw(self, state: RoundState, drawn: RoundState, t: int) -> RoundState | _End:
        """``drawn`` (the engine's answer when chance drew one plain piece at ``state``)
        with plain piece ``t`` drawn instead: the engine's ``redraw`` while the round goes
        on; once it is over, the payments before the showdown and the kernel's showdown
        of the new hands."""
        if not drawn.over:
            return state.redraw(drawn, t)
        held = list(drawn.hands)
        held[state.turn] = t
        hands = tuple(held)
        old = self.showdown(drawn, drawn.hands)
        new = self.showdown(drawn, hands)
        lives = tuple(v - o + w for v, o, w in zip(drawn.lives, old, new, strict=True))
        return _End(lives, self.sit_outs[hands])

    def final_draw(self, state: RoundState, row: int, steps: tuple[Step, ...]
                   ) -> tuple[list[float], list[float]] | None:
        """The expected payoff (and the chance of paying) of a swap that reaches the
        stock (a pass chain to the dealer and beyond) when the round ends right after the
        draw; None if the swap does not reach the stock or the round goes on."""
        pos = state.turn
        if pos >= self.n - 1:
            return None
        hands = state.hands
        kernel = self.rules.kernel
        effects = kernel.effects
        target = pos + 1
        while True:  # the pass chain, read from the kernel
            if not kernel.passes[hands[target]]:
                return None
            if target == self.n - 1:
                break
            target += 1
        chance, _ = state.apply(SWAP)
        pool = chance.chance_pool()
        plain = next((t for t, c in enumerate(pool) if c and effects[t] is None), None)
        if not chance.drawing or plain is None:
            return None
        probe, _ = chance.apply(plain)
        if not probe.over or probe.hands[pos] != plain:
            return None
        shown = self.showdown(probe, probe.hands)
        before = [v - LIVES - d for v, d in zip(probe.lives, shown, strict=True)]
        return self.stock_answer(state, pos, before, row, steps)

    def dealer_stand(self, state: RoundState, row: int = -1, steps: tuple[Step, ...] = ()
                     ) -> tuple[list[float], list[float]]:
        """The dealer stands: the payments so far and the showdown of the hands (and
        whether each position pays)."""
        payoff = [float(b - LIVES + d) for b, d in
                  zip(state.lives, self.showdown(state, state.hands), strict=True)]
        self.record(row, 1.0, payoff, self.sit_outs[state.hands], steps)
        return payoff, [float(x < 0) for x in payoff]

    def dealer_swap(self, state: RoundState, row: int = -1, steps: tuple[Step, ...] = ()
                    ) -> tuple[list[float], list[float]]:
        """The expected payoff of the dealer's swap with the stock, the round's last move.

        A pass piece drawn changes nothing but the pool, so the first other piece is drawn
        with probability proportional to its copies among the non-pass pieces left. A
        plain piece becomes the dealer's and the hands go to the showdown; a matador
        keeps the dealer's piece, charges the dealer if its power charges, and undoes
        every swap if its power undoes (the hands dealt go to the showdown); stop,
        refuse or charge: the round ends anyway. ``fast=False`` draws every piece
        through ``apply``, and a test checks both agree."""
        return self.stock_answer(state, self.n - 1, [b - LIVES for b in state.lives], row,
                                 steps)

    def stock_answer(self, state: RoundState, last: int, before: Sequence[float],
                     row: int = -1, steps: tuple[Step, ...] = ()
                     ) -> tuple[list[float], list[float]]:
        """``dealer_swap`` for a request by position ``last`` that reaches the stock and
        ends the round; ``before``: each position's payments before the showdown.
        Returns the expected payoffs and each position's chance of paying."""
        n = self.n
        kernel = self.rules.kernel
        # Each piece that may answer (none of the pass pieces): its copies, and what the
        # showdown then shows and charges, as the kernel says.
        answers = {t: (c, answer) for t, c in enumerate(state.chance_pool())
                   if c and (answer := kernel.last_draw(t, state.hands, state.deal, last))}
        total = sum(c for c, _ in answers.values())
        if total == 0:  # only pass pieces (or nothing) left: the stock empties, no swap
            delta = self.showdown(state, state.hands)
            payoff = [b + d for b, d in zip(before, delta, strict=True)]
            self.record(row, 1.0, payoff, self.sit_outs[state.hands], steps)
            return payoff, [float(x < 0) for x in payoff]
        out = [0.0] * n
        pays = [0.0] * n
        for t, (c, (held, charge)) in answers.items():
            p = c / total
            shown = tuple(held)
            delta = self.showdown(state, shown)
            change = [before[i] + delta[i] - (charge if i == last else 0) for i in range(n)]
            for i in range(n):
                out[i] += p * change[i]
                pays[i] += p * (change[i] < 0)
            self.record(row, p, change, self.sit_outs[shown], (*steps, t))
        return out, pays

    def showdown(self, state: RoundState, hands: tuple[int, ...]) -> tuple[int, ...]:
        """The showdown of ``hands`` as the kernel settles it (``Kernel.settle``, the
        engine's own): each position's change of lives, every seat able to pay."""
        got = self.showdowns.get(hands)
        if got is None:
            kernel = self.rules.kernel
            gains, pays, fools, _ = kernel.settle(hands)
            change = [0] * self.n
            for p in gains:
                change[p] += 1
            for p, _reason in pays:
                change[p] -= 1
            # Every seat has lives to spare: each is alive to sit out.
            self.sit_outs[hands] = kernel.sit_out(fools, (True,) * self.n, state.number,
                                                  state.returning)
            got = self.showdowns[hands] = tuple(change)
        return got


def build(rules: Rules, seats: int, *, fast: bool = True, endings: bool = False,
          progress: Callable[[int, int], None] | None = None) -> Tree:
    """The collapsed tree of one round of ``rules`` at ``seats`` seats; with ``endings``,
    each way the round ends beside ``term`` (``Tree.endings``)."""
    rules.check_seats(seats)
    b = _Builder(rules, seats, fast, endings)
    counts = Counter(rules.deck)
    types = sorted(counts)
    deck_size = len(rules.deck)
    deals: list[tuple[float, tuple[int, ...]]] = []

    def deal(pos: int, prob: float, hand: tuple[int, ...]) -> None:
        if pos == seats:
            deals.append((prob, hand))
            return
        left = deck_size - pos
        for t in types:
            c = counts[t]
            if c:
                counts[t] -= 1
                deal(pos + 1, prob * c / left, (*hand, t))
                counts[t] += 1

    deal(0, 1.0, ())
    lives = (LIVES,) * seats
    seat_order = tuple(range(seats))
    for k, (prob, hand) in enumerate(deals):
        state = RoundState.start(rules, seat_order, hand, None, lives, checked=True)
        b.hand = hand
        b.node(state, prob, -1, 0, 0)
        if progress is not None and (k + 1) % 256 == 0:
            progress(k + 1, len(deals))
    if progress is not None:
        progress(len(deals), len(deals))
    return Tree(rules, seats, b.parent, b.action, b.prob, b.infoset, b.depth, b.term,
                b.keys, b.player, b.legal, b.openings, b.pay, [hand for _, hand in deals],
                b.ending_row, b.ending_id, b.ending_weight, b.endings, b.paths)
