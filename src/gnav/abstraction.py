"""The information-set abstraction of large tables: what a seat's decision is keyed by
where the full information set (``gnav.infoset``) is too fine to learn.

``abstract_key(view)`` is a pure function of the deciding seat's ``SeatView``, through
its exact information set: ``coarsen(infoset_key(view), layout)``. So it can hold nothing
the seat may not know, the solver's trees (keyed by ``infoset_key``) map onto it exactly,
and the batch simulator computes the same key from its arrays (a test holds the two
equal). Its features (``Key``'s fields, each a small integer):

- ``b`` and ``a``: the seats before the seat (its position from the dealer's left) and
  the seats after it up to the dealer, each exact below 5 and banded above, so that one
  policy can serve a band of table sizes (the index of the band in ``BANDS``);
- ``piece``: the piece the seat holds now (its rank in ``rules.pieces``);
- ``gave``: the piece its right neighbour took from it in a swap (which that neighbour
  now holds), ``pieces`` (one past the last rank) if none;
- ``right``: what its right neighbour did, by ``RIGHT``: ``S`` stood, ``W`` swapped with
  it, ``A`` asked and got nothing from it (a matador answered, or the request passed
  on), ``?`` took no turn (skipped), ``-`` for the dealer's left (nobody acts before it);
- ``left``: 1 if its left neighbour knocked a fool, else 0; for the dealer (whose left
  is the stock: no neighbour to knock) 1 if every seat before it stood, else 0. A dealer
  after a round of stands holds, most likely, the lowest piece left of the table's
  middling ones: drawing pays there, as it does not after swaps (measured by
  ``gnav exploit``: keyed without it, a lone deviator at the dealer's seat of 6 took
  0.005 lives a round from the trained policy). Files made before (no
  ``dealer_stood``) answer both values alike (``dealer_copies``);
- ``k``: fools knocked by the other seats (0, 1, 2 or more).

Lives, seat numbers and the round number are left out, as in ``gnav.infoset``.

A key is one ``int`` (``Layout``): the features as a mixed-radix number, most significant
first (bits 0 to 31), which is the batch engine's table index as it is, and above it
(bits 32 to 38) a mask of the features left out (bit ``i`` for ``FEATURES[i]``; a feature
left out has the digit 0). A policy that never met a key backs off (``Layout.backoff``)
to the key with ``gave``, then ``right``, ``left`` and ``k`` left out. ``Layout.text``
writes a key for people as ``b|a|piece|gave|right|left|k`` (the band's lowest member,
piece ids, ``-`` for none, ``*`` for a feature left out); nothing reads that back but
``Layout.read_text``, for files of ``gnav-policy/1``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple, TypeVar

from gnav.infoset import infoset_key
from gnav.rules import Rules
from gnav.views import SeatView

VERSION = "gnav-abstraction/1"
# Seat counts up to this stay exact; above, the band's lowest member stands for it.
BANDS = (0, 1, 2, 3, 4, 5, 7, 10, 14, 20, 28)
FEATURES = ("b", "a", "piece", "gave", "right", "left", "k")
RIGHT = ("-", "S", "W", "A", "?")  # the right neighbour's move, by its digit
# Features left out one after another when a key was never seen in training.
BACKOFF = ("gave", "right", "left", "k")
ANY = -1  # a ``Key`` field left out
SHIFT = 32  # the features' number below this bit, the mask of those left out above it
LOW = (1 << SHIFT) - 1

N = TypeVar("N")  # an int, or a numpy array of int64: the arithmetic is the same


class Key(NamedTuple):
    """An abstract key's features as digits (the module's docstring); ``ANY`` for one
    left out."""

    b: int
    a: int
    piece: int
    gave: int
    right: int
    left: int
    k: int


def band_index(count: int) -> int:
    """The index in ``BANDS`` of the band of ``count``: of its highest member at or
    below ``count``."""
    if count < len(_BAND_INDEX):
        return _BAND_INDEX[count]
    return len(BANDS) - 1


def _band_index(count: int) -> int:
    out = 0
    for i, b in enumerate(BANDS):
        if b > count:
            break
        out = i
    return out


# Read at every decision of the expert: a tuple beats the loop (41 seats at most, and
# the last band from its lowest member on).
_BAND_INDEX = tuple(_band_index(c) for c in range(BANDS[-1] + 1))


def band(count: int) -> int:
    """The lowest of ``BANDS`` at or below ``count``."""
    return BANDS[band_index(count)]


def digits_key(pieces: Any, b: Any, a: Any, piece: Any, gave: Any, right: Any, left: Any,
               k: Any) -> Any:
    """The key of these digits, nothing left out, for a deck of ``pieces``: the layout's
    one formula, which the compiled engine compiles as it is (``gnav.fast.jit``)."""
    return (((((b * _BANDS + a) * pieces + piece) * (pieces + 1) + gave) * _RIGHTS
             + right) * 2 + left) * 3 + k


_BANDS, _RIGHTS = len(BANDS), len(RIGHT)  # constants to the compiler


# eq=False: a layout is hashed by identity (the text cache below reads it per decision),
# and made once a deck (``of``, ``of_ids``).
@dataclass(frozen=True, eq=False)
class Layout:
    """Abstract keys as ints for a deck of ``ids`` (by rank): the radix of each feature
    depends on the number of pieces."""

    ids: tuple[str, ...]
    radix: tuple[int, ...] = field(init=False, repr=False)
    weight: tuple[int, ...] = field(init=False, repr=False)
    # BACKOFF's features in order: (weight, radix, mask bit) of each.
    steps: tuple[tuple[int, int, int], ...] = field(init=False, repr=False)
    size: int = field(init=False, repr=False)  # keys with nothing left out: 0 <= key < size
    rank: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        p = len(self.ids)
        radix = (len(BANDS), len(BANDS), p, p + 1, len(RIGHT), 2, 3)
        weight = [1] * len(radix)
        for f in range(len(radix) - 2, -1, -1):
            weight[f] = weight[f + 1] * radix[f + 1]
        size = weight[0] * radix[0]
        if size > LOW:
            raise ValueError(f"a deck of {p} pieces has too many abstract keys for {SHIFT} bits")
        object.__setattr__(self, "radix", radix)
        object.__setattr__(self, "weight", tuple(weight))
        object.__setattr__(self, "steps", tuple(
            (weight[f], radix[f], 1 << (SHIFT + f)) for f in map(FEATURES.index, BACKOFF)))
        object.__setattr__(self, "size", size)
        object.__setattr__(self, "rank", {x: i for i, x in enumerate(self.ids)})

    @staticmethod
    def of(rules: Rules) -> Layout:
        """The layout of ``rules``' deck, made once."""
        return _layout(rules.ids)

    @staticmethod
    def of_ids(ids: tuple[str, ...]) -> Layout:
        """The layout of a deck of these piece ids, made once."""
        return _layout(ids)

    @property
    def pieces(self) -> int:
        return len(self.ids)

    def index(self, b: Any, a: Any, piece: Any, gave: Any, right: Any, left: Any, k: Any
              ) -> Any:
        """The key of these digits, nothing left out: ints in, an int out, or numpy
        arrays in, an array out (the compiled engine compiles the same formula,
        ``digits_key``)."""
        return digits_key(len(self.ids), b, a, piece, gave, right, left, k)

    def pack(self, key: Key) -> int:
        """The int of ``key``.

        :raises: :exc:`ValueError` for a digit out of its feature's range."""
        mask = 0
        digits = []
        for f, (x, r) in enumerate(zip(key, self.radix, strict=True)):
            if x == ANY:
                mask |= 1 << f
                digits.append(0)
            elif 0 <= x < r:
                digits.append(x)
            else:
                raise ValueError(f"{FEATURES[f]} {x} is not below {r}")
        out: int = self.index(*digits) | mask << SHIFT
        return out

    def unpack(self, key: int) -> Key:
        """``key``'s digits (``pack``'s inverse)."""
        _, ra, rp, rg, rr, rl, rk = self.radix
        rest, k = divmod(key & LOW, rk)
        rest, left = divmod(rest, rl)
        rest, right = divmod(rest, rr)
        rest, gave = divmod(rest, rg)
        rest, piece = divmod(rest, rp)
        b, a = divmod(rest, ra)
        out = Key(b, a, piece, gave, right, left, k)
        mask = key >> SHIFT
        if mask:
            return Key(*(ANY if mask >> f & 1 else x for f, x in enumerate(out)))
        return out

    def backoff(self, key: N, step: int) -> N:
        """``key`` with the first ``step`` features of ``BACKOFF`` left out: the one
        back-off of every policy lookup, for an int or a numpy array of keys alike."""
        out: Any = key
        for i in range(step):
            out = self._drop(out, i)
        result: N = out
        return result

    def backoffs(self, key: int) -> list[int]:
        """``backoff(key, 1)`` to ``backoff(key, len(BACKOFF))``, each from the last."""
        out = []
        for i in range(len(BACKOFF)):
            key = self._drop(key, i)
            out.append(key)
        return out

    def _drop(self, key: Any, i: int) -> Any:
        """``key`` with ``BACKOFF[i]`` left out: its digit 0, its bit of the mask set."""
        w, r, bit = self.steps[i]
        return (key - (key & LOW) // w % r * w) | bit

    def text(self, key: int) -> str:
        """``key`` for people: ``b|a|piece|gave|right|left|k`` (the module's docstring)."""
        return _text(self, key)

    def _text(self, key: int) -> str:
        digits = self.unpack(key)
        b, a, piece, gave, right, left, k = digits
        # ANY (-1) reads the last entry of each tuple; "*" replaces it below.
        parts = (str(BANDS[b]), str(BANDS[a]), self.ids[piece],
                 "-" if gave == len(self.ids) else self.ids[gave], RIGHT[right], "-K"[left],
                 str(k))
        return "|".join("*" if x == ANY else t for x, t in zip(digits, parts, strict=True))

    def read_text(self, text: str) -> int:
        """The key written ``text`` (``text``'s inverse): the keys of ``gnav-policy/1``.

        :raises: :exc:`ValueError` for a text that is no key of this deck."""
        fields = text.split("|")
        if len(fields) != len(FEATURES):
            raise ValueError(f"not a {VERSION} key: {text!r}")
        b, a, piece, gave, right, left, k = fields
        p = len(self.ids)
        try:
            digits = (BANDS.index(int(b)) if b != "*" else ANY,
                      BANDS.index(int(a)) if a != "*" else ANY,
                      self.rank[piece] if piece != "*" else ANY,
                      ANY if gave == "*" else p if gave == "-" else self.rank[gave],
                      RIGHT.index(right) if right != "*" else ANY,
                      ANY if left == "*" else ("-", "K").index(left),
                      ANY if k == "*" else int(k))
            return self.pack(Key(*digits))
        except (KeyError, ValueError):
            raise ValueError(f"not a {VERSION} key of these pieces: {text!r}") from None


def dealer_copies(layout: Layout, swap: dict[int, int]) -> dict[int, int]:
    """A table keyed before the dealer's ``left`` meant anything (``dealer_stood``
    absent from its file) with each dealer key (``a`` 0, ``left`` 0, both in the key)
    answering for ``left`` 1 too: that file plays as it did."""
    out = dict(swap)
    for key, q in swap.items():
        d = layout.unpack(key)
        if d.a == 0 and d.left == 0:
            out.setdefault(layout.pack(d._replace(left=1)), q)
    return out


@lru_cache(maxsize=64)
def _layout(ids: tuple[str, ...]) -> Layout:
    return Layout(ids)


# The expert draws its mixed choices from the key's text (as before keys were ints):
# cached, its 4 us a mixed decision (timeit) is 0.2.
@lru_cache(maxsize=1 << 15)
def _text(layout: Layout, key: int) -> str:
    return layout._text(key)


def abstract_key(view: SeatView, drop: frozenset[str] = frozenset()) -> int:
    """The abstract information set of the deciding seat of ``view``."""
    return coarsen(infoset_key(view), Layout.of(view.rules), drop)


def coarsen(key: str, layout: Layout, drop: frozenset[str] = frozenset()) -> int:
    """The abstract key of an exact information set key (``gnav.infoset``) of ``layout``'s
    deck; ``drop`` names features to leave out (to measure what each is worth)."""
    where, dealt, piece, history = key.split("|", 3)
    pos_text, n_text = where.split("/")
    pos, n = int(pos_text), int(n_text)
    codes = history.split(",") if history else []
    right = 0 if pos == 0 else RIGHT.index(_right(codes, pos - 1))
    left = str(pos + 1)
    knocks = 0
    knocked_left = 0
    me = str(pos)
    stood = 0
    for c in codes:
        if c[0] == "K":
            who = c[1:]
            if who == left:
                knocked_left = 1
            elif who != me:
                knocks += 1
        elif c[0] == "S" and c[1:].isdigit() and int(c[1:]) < pos:
            stood += 1
    if pos == n - 1 and pos and stood == pos:  # the dealer after a round of stands
        knocked_left = 1
    rank = layout.rank
    digits = (band_index(pos), band_index(n - 1 - pos), rank[piece],
              rank[dealt] if dealt != piece else layout.pieces, right, knocked_left,
              min(knocks, 2))
    if drop:
        return layout.pack(Key(*(ANY if f in drop else x
                                 for f, x in zip(FEATURES, digits, strict=True))))
    out: int = layout.index(*digits)  # every digit in range: pack's checks not needed
    return out


def _right(codes: list[str], right: int) -> str:
    """What the right neighbour (position ``right``) did, from the history's codes (an
    ask is written ``A`` + asker + target, with no separator: the target is always the
    next position or ``s``, the stock)."""
    stood = f"S{right}"
    swapped = f"W{right}"
    asks = (f"A{right}{right + 1}", f"A{right}s")
    asked = False
    for c in codes:
        if c == stood:
            return "S"
        if c == swapped or c.startswith(swapped + ":"):
            return "W"
        if c in asks:
            asked = True
    return "A" if asked else "?"


def position_name(column: int, seats: int) -> str:
    """A position in plain words: ``dealer``, ``dealer's left`` (first to act),
    ``dealer's right`` (last before the dealer), else ``k seats left of the dealer``."""
    k = (column + 1) % seats
    if k == 0:
        return "dealer"
    if k == 1:
        return "dealer's left"
    if k == seats - 1:
        return "dealer's right"
    return f"{k} seats left of the dealer"
