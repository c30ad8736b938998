"""The batch simulator's engine: one round per row in scalar code compiled by numba, for
policies given as tables (by piece, or over ``gnav-abstraction/1``: a function of the
abstraction's features is tabulated there first, ``gnav.fast.policies``): full
tables of fresh rounds, and the rounds of whole matches (``gnav.fast.matches``: each
row at its own number of active seats, with its lives, its last round and its sitting
out). A property test holds it to the reference engine row for row, fresh rounds
(``tests/test_fast_jit.py``) and whole matches (``tests/test_fast.py``), each row
replayed through ``gnav.match`` with the actions it recorded.

Chance is counter-based: the piece at each step of a row's shuffle and the uniform of
each (row, column) decision are a hash of (seed, row, step), so a replay with one
decision forced meets the same decks and the same draws everywhere else: the
counterfactual value of each action (``values``) needs no stored decks.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from gnav.abstraction import digits_key
from gnav.fast.abstraction import GnavAbstraction, band_indices
from gnav.fast.tables import FOOL_F, Tables
from gnav.kernel import TWO_GAIN, TWO_PLAIN
from gnav.rules import Rules

# How a table is indexed: by piece, or over gnav-abstraction/1. RICH plays the tables
# over the abstraction but writes a finer key of each decision into ``keys`` (the
# abstraction's index << 33, and the exact position, seats, swaps, stands, undos, stock
# draws and matadors shown so far): a deviator may choose by what its view holds beyond
# the abstraction.
PIECE, ABSTRACT, RICH = 0, 1, 2
# ``forced``: -1 the policy decides, 0 stand, 1 swap, FLIP the other action than the
# policy's (on the same draw): the line CFR compares the policy's own with.
FLIP = 2
# VIEW plays the tables over the abstraction too, and writes for each decision the
# abstraction's index << VIEW_BITS and, below, a hash of everything the decider's view
# holds at that moment and more: which seats knocked, every seat's move before it in
# order, every request's answers (the target or the stock, the matador shown, or that the
# piece was plain), undos and draws, its position, its piece and the piece it was dealt.
# A key at least as fine as the view: a deviator choosing by it is at least as strong as
# any deviator choosing by its view (``gnav.fast.response``).
VIEW = 3
VIEW_BITS = 41
_DECK_STREAM, _CHOICE_STREAM = 0x9E3779B97F4A7C15, 0xD1B54A32D192ED03

# The abstract key of a decision: gnav.abstraction's own formula, compiled.
_abstract = nb.njit(cache=True, inline="always")(digits_key)

_band = band_indices().astype(np.int64)


@nb.njit(cache=True, inline="always")
def _mix(x: np.uint64) -> np.uint64:  # splitmix64's finaliser
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@nb.njit(cache=True, inline="always")
def _key(seed: np.uint64, stream: np.uint64, row: int) -> np.uint64:
    """A row's key in one stream: every draw of the row is one more hash of it."""
    return _mix(_mix(seed ^ stream) ^ np.uint64(row))


@nb.njit(cache=True, inline="always")
def _draw(key: np.uint64, step: int) -> float:
    """The uniform in [0, 1) of ``step`` under ``key``: 53 bits of splitmix64."""
    x = _mix(key + np.uint64(step + 1) * np.uint64(0x9E3779B97F4A7C15))
    return float(x >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@nb.njit(cache=True, inline="always")
def _fold(h: np.uint64, x: int) -> np.uint64:
    """The history hash ``h`` with one more event code ``x`` folded in."""
    return _mix(h ^ _mix(np.uint64(x) + np.uint64(0x632BE59BD9B4E019)))


@nb.njit(cache=True, inline="always")
def _uniform(seed: np.uint64, stream: np.uint64, row: int, step: int) -> float:
    return _draw(_key(seed, stream, row), step)


def uniforms(seed: int, rows: int, width: int, *, stream: int = _CHOICE_STREAM,
             first_row: int = 0) -> npt.NDArray[np.float64]:
    """The uniforms the kernel draws for (row, column) decisions, as an array (a mixed
    policy's choice is ``uniform < P(swap)``: a test replays the same choices)."""
    out: npt.NDArray[np.float64] = _uniforms(np.uint64(seed), np.uint64(stream), first_row,
                                             rows, width)
    return out


@nb.njit(cache=True)
def _uniforms(seed: np.uint64, stream: np.uint64, first: int, rows: int,
              width: int) -> Any:
    out = np.empty((rows, width))
    for r in range(rows):
        for c in range(width):
            out[r, c] = _uniform(seed, stream, first + r, c)
    return out


def decks(tables: Tables, seed: int, rows: int, *, first_row: int = 0) -> npt.NDArray[np.int8]:
    """The decks the kernel deals from ``seed``, shuffled in full (rows x pieces)."""
    out = np.empty((rows, len(tables.deck)), dtype=np.int8)
    _decks(tables.deck, np.uint64(seed), first_row, out)
    return out


@nb.njit(cache=True)
def _decks(deck: Any, seed: np.uint64, first: int, out: Any) -> None:
    size = len(deck)
    for r in range(out.shape[0]):
        for i in range(size):
            out[r, i] = deck[i]
        key = _key(seed, np.uint64(_DECK_STREAM), first + r)
        for i in range(size):
            _step(out[r], i, size, key)


@nb.njit(cache=True, inline="always")
def _step(row: Any, i: int, size: int, key: np.uint64) -> None:
    """Fisher-Yates step ``i`` of a row (``key``: the row's key in the deck stream):
    position i takes a pick of i..size-1."""
    j = i + int(_draw(key, i) * (size - i))
    held = row[i]
    row[i] = row[j]
    row[j] = held


@nb.njit(cache=True, nogil=True)
def _play(deck: Any, given: bool, width: int, seed: np.uint64, first: int, flags: Any,
          opts: Any, band: Any, tables: Any, kind: int, policy_of: Any, forced: Any,
          lives: Any, pays: Any, gains: Any, actions: Any, keys: Any, hands_out: Any,
          ended: Any, sit_out: Any, drawn_out: Any, per_row: Any) -> None:
    """Play every row of ``lives`` (rows x width). ``opts``: lives, stand_needs_matador,
    skip_revealed, knock_public, drag, two_fools, two_fools_sit_out, to_holder,
    dealer_wins_ties, last round, pieces. ``policy_of``: each column's policy (width),
    or each row's (rows x width).

    ``per_row`` (rows x 4; None: full tables of fresh rounds) is a round of whole
    matches: per row its active seats ``n`` (right-aligned: columns ``width - n`` on,
    the dealer last), the row's id in the chance streams, whether the round is the
    match's last, and how many seats return from sitting out; ``lives`` then holds each
    column's lives on entry."""
    rows = lives.shape[0]
    size = deck.shape[1]
    start, snm, skip, knock, drag, two, two_sit, holder, dwt, last0, pieces = (
        opts[0], opts[1], opts[2], opts[3], opts[4], opts[5], opts[6], opts[7], opts[8],
        opts[9], opts[10])
    hands = np.empty(width, np.int8)
    deal = np.empty(width, np.int8)
    revealed = np.zeros(width, np.bool_)
    swapped = np.zeros(width, np.bool_)
    knocked = np.zeros(width, np.bool_)
    row = np.empty(size, np.int8)
    n = width
    off = 0
    rr = first
    last = last0
    returning = 0
    for r in range(rows):
        # ``is None`` on an argument is settled when numba compiles (a version each): the
        # fresh rounds' loop keeps n and the column offset constant.
        if per_row is not None:
            n = per_row[r, 0]
            off = width - n
            rr = per_row[r, 1]
            last = per_row[r, 2]
            returning = per_row[r, 3]
            for c in range(off):  # unused columns: the pad, no turn
                pays[r, c] = 0
                gains[r, c] = 0
                actions[r, c] = -1
                keys[r, c] = -1
                sit_out[r, c] = False
                hands_out[r, c] = -1
        else:
            rr = first + r
        deck_key = _key(seed, np.uint64(_DECK_STREAM), rr)
        choice_key = _key(seed, np.uint64(_CHOICE_STREAM), rr)
        if given:
            for i in range(size):
                row[i] = deck[r, i]
            filled = size
        else:
            for i in range(size):
                row[i] = deck[0, i]
            filled = 0
            while filled < n:
                _step(row, filled, size, deck_key)
                filled += 1
        knocks = 0
        for c in range(n):
            hands[c] = row[c]
            deal[c] = row[c]
            revealed[c] = False
            swapped[c] = False
            knocked[c] = knock != 0 and (flags[row[c]] & 32) != 0
            knocks += knocked[c]
            if per_row is None:
                lives[r, c] = start
            pays[r, off + c] = 0
            gains[r, off + c] = 0
            actions[r, off + c] = -1
            keys[r, off + c] = -1
            sit_out[r, off + c] = False
        drawn = 0
        over = False
        ended[r] = -1
        nswaps = nstands = nundos = ndraws = 0
        shown = 0
        h = np.uint64(0)
        if kind == 3:  # the knocks are public at the deal
            for c in range(n):
                h = _fold(h, c * 2 + knocked[c])
        for c in range(n):
            if over:
                break
            if skip and revealed[c]:
                if kind == 3:
                    h = _fold(h, (1 << 20) + c)
                continue
            piece = hands[c]
            k = 0
            if kind == 0:
                k = piece
            else:
                left = 0
                if c + 1 < n and knocked[c + 1]:
                    left = 1
                right = 0
                if c > 0:
                    a = actions[r, off + c - 1]
                    right = 4 if a < 0 else 1 if a == 0 else 2 if swapped[c - 1] else 3
                dealt = deal[c]
                gave = dealt if dealt != piece else pieces
                kk = min(knocks - knocked[c] - left, 2)
                if c == n - 1 and c > 0 and nstands == c:
                    left = 1  # the dealer after a round of stands (gnav.abstraction)
                k = _abstract(pieces, band[c], band[n - 1 - c], piece, gave, right, left, kk)
            # ``ndim`` is settled when numba compiles: a version for each layout.
            if policy_of.ndim == 2:  # noqa: SIM108 (a branch numba prunes)
                p = tables[policy_of[r, off + c], k]
            else:
                p = tables[policy_of[c], k]
            if kind == 2:
                k = (k << 33) | (c << 27) | (n << 21) | (min(nswaps, 15) << 17) | \
                    (shown << 9) | (min(nundos, 1) << 8) | (min(ndraws, 3) << 6) | \
                    min(nstands, 63)
            elif kind == 3:
                own = _fold(h, ((c * 256 + piece) * 256 + deal[c]) * 2 + 1)
                k = (k << 41) | np.int64(own >> np.uint64(23))
            keys[r, off + c] = k
            fc = forced[off + c]
            if fc == 0 or fc == 1:
                sw = fc == 1
            else:
                if p <= 0.0:
                    sw = False
                elif p >= 1.0:
                    sw = True
                else:
                    sw = _draw(choice_key, c) < p
                if fc == FLIP:
                    sw = not sw
            if snm and (flags[piece] & 1) != 0:
                sw = True
            actions[r, off + c] = sw
            if kind == 3:
                h = _fold(h, (2 << 20) + c * 2 + sw)
            if not sw:
                nstands += 1
                continue
            asker = c
            target = c + 1
            stock = c == n - 1
            while True:
                if stock:
                    if n + drawn >= size:
                        break  # the stock is empty: the request fails
                    while filled <= n + drawn:
                        _step(row, filled, size, deck_key)
                        filled += 1
                    q = row[n + drawn]
                    drawn += 1
                else:
                    q = hands[target]
                f = flags[q]
                if kind == 3:  # who was asked, and the matador shown or a plain piece
                    h = _fold(h, (3 << 20) + (n if stock else target) * 256
                              + (255 if f & 1 else q))
                if f & 1:  # a plain piece: the swap, or the draw
                    if stock:
                        hands[asker] = q
                        ndraws += 1
                    else:
                        hands[target] = hands[asker]
                        hands[asker] = q
                        swapped[asker] = True
                        nswaps += 1
                    break
                if q < 8:
                    shown |= 1 << q
                if not stock:
                    revealed[target] = True
                if f & 2:  # the charge
                    pays[r, off + asker] += 1
                    if lives[r, off + asker] > 0:
                        lives[r, off + asker] -= 1
                        if holder and not stock:
                            lives[r, off + target] += 1
                            gains[r, off + target] += 1
                if f & 4:  # stop
                    over = True
                    ended[r] = q
                    break
                if f & 8:  # undo
                    for i in range(n):
                        hands[i] = deal[i]
                    nundos += 1
                    break
                if f & 16:  # pass: on to the left, and at the dealer to the stock
                    if not stock:
                        if target == n - 1:
                            stock = True
                        else:
                            target += 1
                    continue
                break  # refuse, or a charge that lets play go on
        # The showdown, as gnav.kernel.showdown decides it and Kernel.sit_out sends the
        # fools out: written out here, fused with the payments, because compiling the
        # kernel's own function into this loop measured 2 to 12% slower fresh rounds at
        # 3 and 41 seats (alternated best of 3 to 5, load about 1, five shapes tried);
        # tests/test_fast.py and test_fast_jit.py hold every row to the reference engine.
        fools = 0
        lowest = -1
        others = -1
        for c in range(n):
            h = hands[c]
            if flags[h] & FOOL_F:
                fools += 1
            elif h > others:
                others = h
            if h > lowest:
                lowest = h
        if fools >= 2 and two != TWO_PLAIN:
            for c in range(n):
                if flags[hands[c]] & FOOL_F:
                    if two == TWO_GAIN:
                        lives[r, off + c] += 1
                        gains[r, off + c] += 1
                    else:
                        pays[r, off + c] += 1
                        if lives[r, off + c] > 0:
                            lives[r, off + c] -= 1
            if two_sit and not last:
                alive = 0
                out = 0
                for c in range(n):
                    if lives[r, off + c] > 0:
                        alive += 1
                        if flags[hands[c]] & FOOL_F:
                            out += 1
                if alive - out + returning >= 2:
                    for c in range(n):
                        sit_out[r, off + c] = lives[r, off + c] > 0 and \
                            (flags[hands[c]] & FOOL_F) != 0
            lowest = -2
        elif fools == 1 and drag:
            for c in range(n):
                if flags[hands[c]] & FOOL_F:
                    pays[r, off + c] += 1
                    if lives[r, off + c] > 0:
                        lives[r, off + c] -= 1
            lowest = others
        if lowest >= 0:
            count = 0
            for c in range(n):
                if hands[c] == lowest:
                    count += 1
            for c in range(n):
                if hands[c] == lowest and not (dwt and count > 1 and c == n - 1):
                    pays[r, off + c] += 1
                    if lives[r, off + c] > 0:
                        lives[r, off + c] -= 1
        for c in range(n):
            hands_out[r, off + c] = hands[c]
        if per_row is not None:  # a store a row costs fresh rounds ~3% at 41 seats
            drawn_out[r] = drawn


class JitRounds:
    """``rows`` rounds at ``seats`` seats (full tables, every seat at the starting
    lives, or at ``lives``: many, for rounds where every seat can pay whatever it owes,
    as the solver and training assume), played by table policies. After ``play``, per
    row and column (docs/batch.md): ``hands`` at the showdown, ``lives``, ``pays`` and
    ``gains`` (Pay and Gain events), ``actions`` (-1 no decision, 0 stand, 1 swap),
    ``keys`` (each decision's table index or finer key, -1 where none), ``sit_out``; per
    row ``ended_by`` (-1 the turns ran out, else the rank of the piece that stopped the
    round) and, in rounds of matches, ``drawn`` (stock pieces drawn)."""

    def __init__(self, rules: Rules, seats: int, rows: int, *, seed: int = 0,
                 first_row: int = 0, decks: npt.ArrayLike | None = None,
                 lives: int | None = None) -> None:
        rules.check_seats(seats)
        self.t = t = Tables.of(rules)
        self.seats = seats
        self.rows = rows
        self.seed = seed
        self.first_row = first_row
        self.given = decks is not None
        self.deck = np.ascontiguousarray(decks, dtype=np.int8) if decks is not None \
            else t.deck[None, :].copy()
        self.opts = t.options(lives)  # the kernel's rules, as the compiled loop reads them
        z = np.zeros
        self.lives = z((rows, seats), np.int16)
        self.pays = z((rows, seats), np.int8)
        self.gains = z((rows, seats), np.int8)
        self.actions = z((rows, seats), np.int8)
        self.keys = z((rows, seats), np.int64)
        self.hands = z((rows, seats), np.int8)
        self.ended_by = z(rows, np.int8)
        self.sit_out = z((rows, seats), np.bool_)
        self.drawn = z(rows, np.int16)  # stock pieces drawn: kept in rounds of matches
        self.per_row: npt.NDArray[np.int64] | None = None

    @classmethod
    def of_matches(cls, rules: Rules, seats: int, *, seed: int, per_row: npt.ArrayLike,
                   lives: npt.ArrayLike, decks: npt.ArrayLike | None = None) -> JitRounds:
        """One round of whole matches, a match a row: ``per_row`` (rows x 4) gives each
        row's active seats (right-aligned in ``seats`` columns, the dealer last), its id
        in the chance streams, whether the round is the match's last, and the seats
        returning from sitting out; ``lives`` (rows x seats) each column's lives (0 in
        unused columns)."""
        info = np.ascontiguousarray(per_row, dtype=np.int64)
        out = cls(rules, seats, len(info), seed=seed, decks=decks)
        if info.shape != (out.rows, 4) or info[:, 0].min(initial=seats) < 1 or \
                info[:, 0].max(initial=1) > seats:
            raise ValueError("per_row gives, per row, active seats (1 to seats), id, last "
                             "and returning")
        out.lives[:] = lives
        out.per_row = info
        return out

    def play(self, tables: npt.ArrayLike, kind: int = PIECE, *,
             policy_of: npt.ArrayLike | None = None,
             forced: npt.ArrayLike | None = None) -> JitRounds:
        """``tables``: one P(swap) table per policy (policies x entries), indexed by
        piece (``PIECE``) or by ``GnavAbstraction`` (``ABSTRACT``). ``policy_of[c]``: the
        policy of column ``c`` (a deviator at one position); ``forced[c]``: -1, or the
        action forced at column ``c`` in every row (0 stand, 1 swap, ``FLIP`` the
        other action than its policy's); ``policy_of`` may also give each row's
        (rows x seats), as whole matches do."""
        table = np.atleast_2d(np.asarray(tables, dtype=np.float64))
        if kind not in (PIECE, ABSTRACT, RICH, VIEW):
            raise ValueError(f"no table kind {kind}")
        width = self.t.pieces if kind == PIECE else GnavAbstraction(self.t.rules).size
        if table.shape[1] != width:
            raise ValueError(f"a table of {table.shape[1]} entries does not fit "
                             f"{'pieces' if kind == PIECE else 'the abstraction'} "
                             f"({width})")
        who = np.zeros(self.seats, np.int64) if policy_of is None \
            else np.asarray(policy_of, dtype=np.int64)
        force = np.full(self.seats, -1, np.int64) if forced is None \
            else np.asarray(forced, dtype=np.int64)
        if who.shape not in ((self.seats,), (self.rows, self.seats)) or \
                force.shape != (self.seats,) or who.min() < 0 or who.max() >= len(table) \
                or force.min() < -1 or force.max() > FLIP:
            raise ValueError("policy_of gives one entry per seat (or per row and seat), "
                             "forced one per seat, within range")
        who = np.ascontiguousarray(who)
        _play(self.deck, self.given, self.seats, np.uint64(self.seed), self.first_row,
              self.t.flags, self.opts, _band, table, kind, who, force, self.lives,
              self.pays, self.gains, self.actions, self.keys, self.hands, self.ended_by,
              self.sit_out, self.drawn, self.per_row)
        return self


def values(rules: Rules, seats: int, rows: int, tables: npt.ArrayLike, kind: int,
           column: int, *, seed: int = 0, policy_of: npt.ArrayLike | None = None
           ) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16], JitRounds]:
    """Counterfactual values at ``column``: the lives the seat there ends with in each
    row when it stands, and when it swaps, everyone else playing ``tables`` on the same
    decks and draws; and the round as the policies play it (whose ``keys[:, column]``
    is the information set of each row's decision, -1 where the column took no turn)."""
    on = JitRounds(rules, seats, rows, seed=seed).play(tables, kind, policy_of=policy_of)
    out = []
    for action in (0, 1):
        force = np.full(seats, -1)
        force[column] = action
        r = JitRounds(rules, seats, rows, seed=seed).play(tables, kind, policy_of=policy_of,
                                                          forced=force)
        out.append(r.lives[:, column].copy())
    return out[0], out[1], on
