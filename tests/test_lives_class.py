"""``gnav.lives_class``: the lives a match policy's key adds, by hand."""

from __future__ import annotations

import itertools

import pytest

from gnav.events import Gain, Pay
from gnav.lives_class import CLASSES, column_classes, describe, lives_class, view_class
from gnav.rules import Rules
from recordkit import played


def test_every_combination_has_its_own_class_and_caps_above() -> None:
    seen = {lives_class(o, left, r) for o, left, r in
            itertools.product((1, 2, 3), (1, 2, None), (1, 2))}
    assert seen == set(range(CLASSES))
    assert lives_class(7, 5, 9) == lives_class(3, 2, 2)
    assert lives_class(2, None, 1) == lives_class(2, 4, 1)  # the stock reads as 2+


def test_columns_run_in_turn_order_with_the_dealer_last() -> None:
    # Dealer's left has 1 life, the middle seat 3, the dealer 2.
    got = column_classes([1, 3, 2])
    assert got == [lives_class(1, 3, 2), lives_class(3, 2, 1), lives_class(2, None, 3)]


def test_describe_reads_back_the_digits() -> None:
    assert describe(lives_class(1, 2, 1)) == "own 1, left 2+, right 1"
    assert describe(lives_class(3, 1, 2)) == "own 3+, left 1, right 2+"
    with pytest.raises(ValueError, match="no lives class"):
        describe(CLASSES)


def test_a_seat_without_lives_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one life"):
        lives_class(0, 1, 1)


@pytest.mark.parametrize(("preset", "seats"), [("gnav", 6), ("gnav", 3), ("cuccu", 5)])
def test_a_views_class_is_its_column_at_the_rounds_start(preset: str, seats: int) -> None:
    """At every decision of random whole matches on the reference engine, the class read
    off the view alone is ``column_classes`` of the lives the round began with (the
    match's, hidden from the view), after a charge paid mid-round too."""
    met: set[int] = set()
    mid_round = 0
    for match, view in played(Rules.of(preset), seats, 1, 30):
        assert view.seat is not None
        start = [match.lives[s] for s in view.order]
        want = column_classes(start)[view.order.index(view.seat)]
        assert view_class(view) == want
        met.add(want)
        mid_round += any(type(e) in (Pay, Gain) for e in view.public)
    assert mid_round > 0 and len(met) >= 6


def test_a_spectator_has_no_class() -> None:
    _, view = played(Rules.of("gnav"), 3, 1, 1)[0]
    with pytest.raises(ValueError, match="dealt-in seat"):
        view_class(view._replace(seat=None))
