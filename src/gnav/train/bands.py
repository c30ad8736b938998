"""The bands of table sizes that one policy serves (5-6, 7-9, 10-14, 15-20, 21-28,
29-41), cut to what a preset allows: read by ``gnav train`` and ``gnav.train.ship``.
Standard library only, so the command reads it before it loads numpy."""

from __future__ import annotations

from gnav.errors import OptionError
from gnav.rules import Rules

# Table sizes served by one policy: each size of a band is played in every batch.
SEAT_BANDS = ((5, 6), (7, 9), (10, 14), (15, 20), (21, 28), (29, 41))


def band_of(rules: Rules, seats: int) -> tuple[int, int]:
    """The band of ``SEAT_BANDS`` that holds ``seats``, cut to the sizes ``rules``
    allows.

    :raises: :exc:`OptionError` outside 5 to 41 or the rules' range.
    """
    rules.check_seats(seats)
    for lo, hi in SEAT_BANDS:
        if lo <= seats <= hi:
            return lo, min(hi, rules.max_seats)
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
    """Every band the rules take."""
    out = []
    for lo, hi in SEAT_BANDS:
        if lo <= rules.max_seats and hi >= max(lo, rules.min_seats):
            out.append((lo, min(hi, rules.max_seats)))
    return out
