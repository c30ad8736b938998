"""The bands of table sizes that one policy serves (5-6, 7-9, 10-14, 15-20, 21-28,
29-41), cut to what a preset allows, and the full table (one piece left in the stock)
a band of its own: read by ``gnav train`` and ``gnav.train.ship``. Standard library
only, so the command reads it before it loads numpy."""

from __future__ import annotations

from gnav.errors import OptionError
from gnav.rules import Rules

# Table sizes served by one policy: each size of a band is played in every batch.
SEAT_BANDS = ((5, 6), (7, 9), (10, 14), (15, 20), (21, 28), (29, 41))


def band_of(rules: Rules, seats: int) -> tuple[int, int]:
    """The band of ``bands(rules)`` that holds ``seats``.

    :raises: :exc:`OptionError` outside 5 to 41 or the rules' range.
    """
    rules.check_seats(seats)
    for lo, hi in bands(rules):
        if lo <= seats <= hi:
            return lo, hi
    raise OptionError(f"gnav train makes policies for 5 to 41 seats, not {seats} "
                      f"(gnav solve solves 2 to 4 exactly)")


def parse_band(rules: Rules, text: str, seats: int) -> tuple[int, int]:
    """``LO-HI`` read and checked: within 5 to 41 and the rules' range, holding
    ``seats``."""
    try:
        lo, hi = (int(x) for x in text.split("-"))
    except ValueError:
        raise OptionError(f"--band is LO-HI, e.g. 10-14, not {text!r}") from None
    hi = min(hi, rules.max_seats)
    if not 5 <= lo <= seats <= hi <= 41:
        raise OptionError(f"--band {text} must hold --seats {seats} within 5 to "
                          f"{min(41, rules.max_seats)} seats")
    return lo, hi


def bands(rules: Rules) -> list[tuple[int, int]]:
    """Every band the rules take. The full table (as many seats as the rules allow: the
    stock holds one piece) is a band of its own: there the stock's piece is nearly known
    (at 41 seats of gnav, one fool knocked means the other is the dealer's to draw), and
    a band shared with smaller tables, whose stock holds a dozen, would not learn it."""
    out = []
    top = rules.max_seats
    for lo, hi in SEAT_BANDS:
        if lo <= top and hi >= max(lo, rules.min_seats):
            hi = min(hi, top)
            if hi == top and lo < hi and top <= SEAT_BANDS[-1][1]:
                out += [(lo, hi - 1), (hi, hi)]
            else:
                out.append((lo, hi))
    return out
