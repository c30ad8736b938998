"""One round per row, every row at once: docs/spec/rules.md §2 to §5 over numpy arrays.

The layout is the reference engine's turn order, right-aligned: column ``N - 1`` is every
row's dealer and column ``c``'s left neighbour is ``c + 1``, so a row with ``n < N``
active seats leaves its first ``N - n`` columns unused (they hold the pad piece, -1, and
never act). Turns go column by column; each column's decisions are taken for every row at
once, and the plain cases (a stand, a swap with a non-matador) are whole-column array
operations. A matador's answer, a pass chain, the stock and an undo touch only the rows
they happen in, in a loop over the steps of the chain.

Every use in the package plays on the compiled engine (``gnav.sim.fast.jit``: fresh
rounds, whole matches, training, the odds). This one stays for what compiled code cannot
call: a policy that is any Python function of a decision's features (``Decision``,
``FunctionPolicy``), the public API docs/batch.md documents; and for the tests that hold
those features equal to a seat's view and the compiled engine equal to this one, and
``gnav bench --engine batch``. It goes once that API goes.

``tests/test_sim_fast_jit.py`` holds the compiled engine equal to it row for row, and
``tests/test_sim_fast.py`` its features equal to what the deciding seat's view holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

import numpy as np
import numpy.typing as npt

from gnav.sim.fast.decision import Decision
from gnav.sim.fast.state import I8, SWAP, State
from gnav.sim.fast.tables import (
    CHARGE_F,
    GAIN,
    PASS,
    PASS_F,
    PAY,
    PLAIN,
    STOP,
    STOP_F,
    UNDO,
    UNDO_F,
)

if TYPE_CHECKING:
    from gnav.sim.fast.policies import Policy

Rows = npt.NDArray[np.intp]
B8 = npt.NDArray[np.bool_]


def _blend(a: I8, b: I8, m: B8) -> I8:
    """``np.where(m, b, a)`` for int8 arrays by bit operations: np.where is ~100 times
    slower on masks that follow no pattern."""
    out: I8 = a ^ ((a ^ b) & -m.view(np.int8))
    return out


class Rounds(State):
    """A batch of rounds being played: the turns and the showdown, which change the
    arrays its ``State`` holds (dealt by ``State.__init__``); the arrays are public and
    documented in docs/batch.md and ``gnav.sim.fast.state`` (``gnav.sim.fast.decision``
    reads them for a deciding seat)."""

    # -- turns -----------------------------------------------------------------------

    def play(self, policies: Sequence[Policy], policy_of: I8 | None = None,
             forced: I8 | None = None, uniforms: npt.NDArray[np.float32] | None = None
             ) -> Rounds:
        """Play every row to its end and settle the showdown.

        ``policies[k]`` decides for the positions where ``policy_of`` is ``k`` (rows x
        width; None: policy 0 everywhere). ``forced`` (rows x width: -1, 0 stand, 1 swap)
        overrides the policy's choice where it is not -1. ``uniforms`` (rows x width) are
        the draws that sample a stochastic policy's choice (swap when u < p); None draws
        none, and a policy that gives probabilities then needs them."""
        t = self.t
        width = self.width
        hands = self.hands
        for c in range(width):
            self.column = c
            m = ~self.over
            if not self.full:
                m &= self.active[:, c]
            if t.skip_revealed:
                m &= ~self.revealed[:, c]
            if not m.any():
                continue
            d = Decision(self, c, m)
            if len(policies) == 1 or policy_of is None:
                want, p = _choose(policies[0], d, uniforms, c)
            else:
                want = np.zeros(self.rows, dtype=np.bool_)
                p = np.zeros(self.rows, dtype=np.float32)
                col = policy_of[:, c]
                for k, policy in enumerate(policies):
                    mine = col == k
                    if mine.any():
                        w, q = _choose(policy, d, uniforms, c)
                        want = np.where(mine, w, want)
                        p = np.where(mine, q, p)
            self.probs[:, c] = p
            if forced is not None:
                f = forced[:, c]
                want = np.where(f >= 0, f == SWAP, want)
            if t.stand_needs_matador:
                want |= t.plain_of(hands[:, c])
            swap = m & want
            # -1 where the column does not decide, else 0 (stand) or 1 (swap).
            self.actions[:, c] = m.view(np.int8) * (swap.view(np.int8) + 1) - 1
            self.stands += m & ~swap
            self.asks += swap
            if c < width - 1:
                self._ask_left(swap, c)
            else:
                self._ask_stock(swap, c)
        self._showdown()
        return self

    def _ask_left(self, swap: B8, c: int) -> None:
        """Column ``c`` asks its left neighbour where ``swap``: every row at once for the
        plain swap and a matador's answer; only a pass goes on row by row."""
        t = self.t
        hands = self.hands
        left = hands[:, c + 1]
        plain = swap & t.plain_of(left)
        mine = hands[:, c]
        # Both new columns are made before either is written: the two are views.
        now_mine = _blend(mine, left, plain)
        self.gave[:, c + 1] = _blend(self.gave[:, c + 1], left, plain)
        hands[:, c + 1] = _blend(left, mine, plain)
        hands[:, c] = now_mine
        self.asked[:, c + 1] += plain
        self.swapped[:, c] = plain
        self.swaps += plain
        if t.knock_public and t.has_fool:
            fk = self.fool_known
            a, b = fk[:, c], fk[:, c + 1]
            moved = (a ^ b) & plain  # a fool known on one side only changes sides
            fk[:, c] ^= moved
            fk[:, c + 1] ^= moved
        answered = swap ^ plain
        if not answered.any():
            return
        passing = self._answer_all(answered, hands[:, c + 1].copy(), c, c + 1)
        if passing.any():
            rows = np.flatnonzero(passing)
            if c + 1 == self.width - 1:  # a pass at the dealer goes to the stock
                self._from_stock(rows, c)
            else:
                self._request(rows, c, c + 2)

    def _ask_stock(self, swap: B8, c: int) -> None:
        """The dealer (column ``c``) asks the stock where ``swap``: the first draw of
        every row at once; a drawn pass draws again row by row."""
        t = self.t
        go = swap & (self.drawn < self.stock_len)
        if not go.all():
            self.empties += swap & ~go
        if not go.any():
            return
        deck = self.deck
        index = self.n + self.drawn
        need = go & (index >= deck.filled)
        if need.any():
            deck.at(np.flatnonzero(need), index[need])
        index = np.minimum(index, deck.size - 1)
        piece = deck.column(index)
        self.drawn += go
        took = go & t.plain_of(piece)
        self.hands[:, c] = _blend(self.hands[:, c], piece, took)
        self.draws += took
        self.fool_known[:, c] &= ~took
        answered = go ^ took
        if answered.any():
            passing = self._answer_all(answered, piece, c, None)
            if passing.any():
                self._from_stock(np.flatnonzero(passing), c)

    def _answer_all(self, answered: B8, piece: I8, asker: int, target: int | None) -> B8:
        """``_answer`` for every row at once: the matadors ``piece`` (held at ``target``,
        or drawn: None) answer ``asker`` where ``answered``; True where it passes on."""
        t = self.t
        self.answers += answered
        self.shown |= answered.astype(np.int64) << np.maximum(piece, 0).astype(np.int64)
        if target is not None:
            self.revealed[:, target] |= answered
            self.shown_at[:, target] = _blend(self.shown_at[:, target], piece, answered)
        flags = t.flags_of(piece)
        charged = answered & ((flags & CHARGE_F) != 0)
        if charged.any():
            lives = self.lives[:, asker]
            paid = charged & (lives > 0)
            self.lives[:, asker] = lives - paid
            self.pays[:, asker] += charged
            self.npays += charged
            if target is not None and t.to_holder:
                self.lives[:, target] += paid
                self.gains[:, target] += paid
        stop = answered & ((flags & STOP_F) != 0)
        if stop.any():
            r = np.flatnonzero(stop)
            self.over[r] = True
            self.ended_by[r] = piece[r]
        undo = answered & ((flags & UNDO_F) != 0)
        if undo.any():
            self._undo(np.flatnonzero(undo))
        passing: B8 = answered & ((flags & PASS_F) != 0)
        self.passes += passing
        return passing

    def _undo(self, rows: Rows) -> None:
        """Every holding back to the deal in ``rows`` (drawn pieces go out of play)."""
        self.hands[rows] = self.deal[rows]
        self.undos[rows] += 1
        self.gave[rows] = -1
        self.asked[rows] = 0
        self.fool_known[rows] = self.knocked[rows]

    def _swap(self, rows: Rows, asker: int, target: int) -> None:
        hands = self.hands
        mine, theirs = hands[rows, asker], hands[rows, target]
        hands[rows, asker] = theirs
        hands[rows, target] = mine
        self.gave[rows, target] = theirs
        self.asked[rows, target] += 1
        self.swapped[rows, asker] = True
        self.swaps[rows] += 1
        fk = self.fool_known
        a, b = fk[rows, asker], fk[rows, target]
        fk[rows, asker] = b
        fk[rows, target] = a

    def _request(self, rows: Rows, asker: int, target: int) -> None:
        """``asker``'s request reaches ``target`` in ``rows`` (its left neighbour, or
        further by a pass chain); the answer may pass on left."""
        last = self.width - 1
        while len(rows):
            piece = self.hands[rows, target]
            plain = self.t.plain_of(piece)
            if plain.any():
                self._swap(rows[plain], asker, target)
                rows, piece = rows[~plain], piece[~plain]
            if not len(rows):
                return
            rows = rows[self._answer(rows, asker, target, piece)]
            if target == last:  # a pass at the dealer goes to the stock
                if len(rows):
                    self._from_stock(rows, asker)
                return
            target += 1

    def _from_stock(self, rows: Rows, asker: int) -> None:
        """The request reaches the stock in ``rows``: the top piece answers."""
        t = self.t
        while len(rows):
            k = self.drawn[rows]
            empty = k >= self.stock_len[rows]
            if empty.any():
                self.empties[rows[empty]] += 1
                rows, k = rows[~empty], k[~empty]
                if not len(rows):
                    return
            piece = self.deck.at(rows, self.n[rows] + k)
            self.drawn[rows] += 1
            plain = t.plain_of(piece)
            if plain.any():
                took = rows[plain]
                self.hands[took, asker] = piece[plain]
                self.draws[took] += 1
                self.fool_known[took, asker] = False
                rows, piece = rows[~plain], piece[~plain]
            if len(rows):
                rows = rows[self._answer(rows, asker, None, piece)]

    def _answer(self, rows: Rows, asker: int, target: int | None, piece: I8) -> B8:
        """Matadors (``piece``, held at ``target`` or drawn: None) answer ``asker`` in
        ``rows``; True where the request passes on."""
        t = self.t
        self.answers[rows] += 1
        self.shown[rows] |= t.bit[piece]
        if target is not None:
            self.revealed[rows, target] = True
            self.shown_at[rows, target] = piece
        charge = t.charge[piece]
        if charge.any():
            payers = rows[charge]
            cols = np.full(len(payers), asker, dtype=np.intp)
            paid = self._pay(payers, cols)
            if target is not None and t.to_holder and paid.any():
                got = payers[paid]
                self.lives[got, target] += 1
                self.gains[got, target] += 1
        outcome = t.outcome[piece]
        stop = outcome == STOP
        if stop.any():
            self.over[rows[stop]] = True
            self.ended_by[rows[stop]] = piece[stop]
        undo = outcome == UNDO
        if undo.any():
            self._undo(rows[undo])
        passing: B8 = outcome == PASS
        self.passes[rows] += passing
        return passing

    def _pay(self, rows: Rows, cols: Rows) -> B8:
        """One Pay event at each (row, column): a life lost where there is one to lose."""
        lives = self.lives[rows, cols]
        paid: B8 = lives > 0
        self.lives[rows, cols] = lives - paid
        self.pays[rows, cols] += 1
        self.npays[rows] += 1
        return paid

    # -- the showdown ------------------------------------------------------------------

    def _showdown(self) -> None:
        t = self.t
        hands = self.hands  # the pad is -1: never the lowest, never a fool
        width = self.width
        lowest = hands.max(1)
        if t.has_fool:
            fools = t.fool_of(hands)
            count = fools.sum(1)
            two = (count >= 2) if t.two_fools != PLAIN else np.zeros(self.rows, np.bool_)
            if t.drag:
                one = count == 1
                # The lowest of the others: no holder of the fool's rank besides the fool.
                others = (hands | -fools.view(np.int8)).max(1)  # a fool's rank as -1
                lowest = _blend(lowest, others, one)
                fool_pays = fools & one[:, None]
                self._pay_mask(fool_pays)
            if two.any():
                lowest = _blend(lowest, np.full_like(lowest, -2), two)  # nobody pays
                holders = fools & two[:, None]
                if t.two_fools == GAIN:
                    self.lives += holders
                    self.gains += holders
                else:
                    assert t.two_fools == PAY
                    self._pay_mask(holders)
                if t.two_fools_sit_out:
                    out = holders & (self.lives > 0) & ~self.last[:, None]
                    alive = ((self.lives > 0) & self.active).sum(1)
                    few = alive - out.sum(1) + self.returning < 2
                    out[few] = False
                    self.sit_out = out
        payers = hands == lowest[:, None]
        if t.dealer_wins_ties:
            tie = payers[:, width - 1] & (payers.sum(1) > 1)
            payers[tie, width - 1] = False
        self._pay_mask(payers)

    def _pay_mask(self, mask: B8) -> None:
        """One Pay event at every marked position (at most one per position)."""
        paid = mask & (self.lives > 0)
        self.lives -= paid
        self.pays += mask
        self.npays += mask.sum(1, dtype=np.int16)


def _choose(policy: Policy, d: Decision, uniforms: npt.NDArray[np.float32] | None,
            column: int) -> tuple[B8, npt.NDArray[np.float32] | B8]:
    """The policy's choice per row and its probability of swap: its own choice where it
    gives booleans, else sampled from ``uniforms``."""
    out = policy.swap(d)
    if out.dtype == np.bool_:
        pure = cast(B8, out)
        return pure, pure
    if uniforms is None:
        raise ValueError(f"policy {policy!r} gives probabilities: the batch needs uniforms")
    chosen: B8 = uniforms[:, column] < out
    return chosen, out
