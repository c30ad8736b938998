"""Seat order matters in Gnav: the dealer's left can never be asked to swap (nobody sits
on its right within the round: the dealer asks the stock), so a bot that keeps good
pieces and passes on bad ones is never handed a bad piece there. With threshold bots
over a few thousand single rounds, position 1 loses least, and its 95% interval clears
the worst position's."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gnav.cli import main
from gnav.sim.stats import Estimate, rate_difference, wilson

SEATS = 6
ROUNDS = 4000  # about half a second; the gap below is several interval widths wide


def positions(capsys: pytest.CaptureFixture[str], bots: str, seed: int) -> list[Estimate]:
    code = main(["simulate", "--rounds", str(ROUNDS), "--seats", str(SEATS), "--bots", bots,
                 "--seed", str(seed), "--json"])
    assert code == 0
    s: dict[str, Any] = json.loads(capsys.readouterr().out)
    rows = s["by_position"]
    assert [r["position"] for r in rows] == list(range(1, SEATS + 1))
    assert all(r["rounds"] == ROUNDS for r in rows)
    return [wilson(r["losses"], r["rounds"]) for r in rows]


@pytest.mark.parametrize("seed", [1, 2])
def test_the_dealers_left_loses_least_with_threshold_bots(
        capsys: pytest.CaptureFixture[str], seed: int) -> None:
    rates = positions(capsys, "threshold", seed)
    first = rates[0]
    worst = max(rates, key=lambda e: e.value)
    assert first.value == min(e.value for e in rates)
    # The intervals themselves do not overlap ...
    assert first.high < worst.low
    # ... and the interval of the difference excludes equality.
    diff = rate_difference(worst, first)
    assert diff.low > 0
    # Every other position loses more than position 1 as well.
    assert all(rate_difference(e, first).low > 0 for e in rates[1:])
