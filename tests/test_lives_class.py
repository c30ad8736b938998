"""``gnav.lives_class``: the lives a match policy's key adds, by hand."""

from __future__ import annotations

import itertools

import pytest

from gnav.lives_class import CLASSES, column_classes, describe, lives_class


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
