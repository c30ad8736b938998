"""What a decision's figures say (gnav.odds.verdict): the verdict follows the gap and its
interval, the expert's difference is explained, and no mark says more than its figures."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gnav.odds.figures import Figure
from gnav.odds.verdict import CLOSE, GOOD, MARKS, PRINTED, mark, verdict, why
from gnav.vocab import Action

gaps = st.floats(-1.5, 1.5, allow_nan=False)
halves = st.floats(0.0, 0.5, allow_nan=False)


@given(value=gaps, half=halves)
def test_a_sampled_verdict_is_close_exactly_where_the_interval_holds_zero(
        value: float, half: float) -> None:
    said = verdict(Figure(value, value - half, value + half, 100))
    holds_zero = value - half <= 0.0 <= value + half
    assert (said == CLOSE) == holds_zero
    if not holds_zero:
        assert said == ("swap" if value > 0 else "stand")


@given(value=gaps)
def test_an_exact_verdict_is_the_larger_unless_below_what_is_printed(value: float) -> None:
    said = verdict(Figure(value))
    if abs(value) < PRINTED / 2:
        assert said == CLOSE
    else:
        assert said == ("swap" if value > 0 else "stand")


@given(cost=st.floats(0.0, 2.0, allow_nan=False),
       low=st.none() | st.floats(-2.0, 2.0, allow_nan=False))
def test_no_mark_is_good_above_its_threshold_nor_confident_where_the_interval_holds_zero(
        cost: float, low: float | None) -> None:
    got = mark(cost, low)
    if got == "good":
        assert cost < GOOD
    else:
        assert cost >= GOOD
    if got == CLOSE:
        assert low is not None and low <= 0.0
    elif got != "good":
        assert low is None or low > 0.0
        below = dict(MARKS)[got]
        above = [t for _, t in MARKS if t < below]
        assert cost < below and all(cost >= t for t in above)


def test_why_the_expert_differs() -> None:
    # Agrees, or too close to call: nothing to explain.
    assert why("stand", Action.STAND, 0.0, "policy") is None
    assert why(CLOSE, Action.STAND, 0.4, "policy") is None
    # A clear verdict against a pure expert: what it plays is the reason.
    assert why("swap", Action.STAND, 0.0, "policy") == "policy"
    assert why("swap", Action.STAND, 0.01, "strategy") == "strategy"
    # A mixing expert, even on the side it favours: it mixes.
    assert why("swap", Action.SWAP, 0.7, "policy") == "mixed"


def test_the_command_line_names_every_reason() -> None:
    from gnav.cli.analyse import WHY
    from gnav.odds.verdict import WHYS

    assert set(WHY) == set(WHYS)
