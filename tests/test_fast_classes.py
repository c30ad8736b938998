"""Each column's lives class for rows of rounds on the batch engine."""

from __future__ import annotations

import numpy as np

from gnav.fast.classes import row_classes
from gnav.lives_class import column_classes


def test_row_classes_are_column_classes_of_each_rows_seats_in() -> None:
    lives = np.array([[1, 2, 3, 4], [4, 4, 4, 4], [1, 2, 3, 4], [2, 1, 1, 5],
                      [0, 0, 2, 1], [0, 1, 1, 3]])
    got = row_classes(lives)
    for row, classes in zip(lives.tolist(), got.tolist(), strict=True):
        used = [v for v in row if v > 0]
        assert classes[len(row) - len(used):] == column_classes(used)
        assert classes[:len(row) - len(used)] == [0] * (len(row) - len(used))
    rng = np.random.default_rng(3)
    many = rng.integers(1, 6, size=(300, 7)) * (np.arange(7) >= rng.integers(0, 6, 300)[:, None])
    for row, classes in zip(many.tolist(), row_classes(many).tolist(), strict=True):
        used = [v for v in row if v > 0]
        assert classes[len(row) - len(used):] == column_classes(used)
    # The dealer of a two-seat round (its left the stock) and its left's right.
    assert got[4, 2:].tolist() == column_classes([2, 1])
