"""The statistics of ``gnav simulate`` against values from tables and by hand."""

from __future__ import annotations

import math

import pytest

from gnav.sim.stats import (
    Estimate,
    Moments,
    Ratio,
    mean_ci,
    paired_difference,
    rate_difference,
    t_quantile,
    wilson,
    z_quantile,
)


@pytest.mark.parametrize(("df", "expected"), [
    (1, 12.7062), (2, 4.3027), (3, 3.1824), (4, 2.7764), (5, 2.5706), (10, 2.2281),
    (20, 2.0860), (30, 2.0423), (60, 2.0003), (120, 1.9799), (1000, 1.9623),
])
def test_t_quantiles_match_the_table(df: int, expected: float) -> None:
    assert t_quantile(df) == pytest.approx(expected, abs=1e-4)


def test_t_quantile_is_continuous_where_the_method_changes() -> None:
    # Exact series up to 200 degrees of freedom, an expansion beyond.
    assert t_quantile(200) == pytest.approx(1.97190, abs=1e-5)
    assert t_quantile(201) == pytest.approx(1.97184, abs=1e-5)
    assert t_quantile(200) > t_quantile(201) > z_quantile()


def test_other_confidence_levels() -> None:
    assert z_quantile(0.99) == pytest.approx(2.5758, abs=1e-4)
    assert t_quantile(10, 0.90) == pytest.approx(1.8125, abs=1e-4)
    assert t_quantile(5, 0.99) == pytest.approx(4.0321, abs=1e-4)
    with pytest.raises(ValueError):
        t_quantile(0)


def test_mean_ci_by_hand() -> None:
    # mean 3, sd sqrt(2.5), se sqrt(0.5); t(4) = 2.7764.
    e = mean_ci([1, 2, 3, 4, 5])
    assert e.value == 3 and e.n == 5
    half = 2.776445 * math.sqrt(0.5)
    assert (e.low, e.high) == pytest.approx((3 - half, 3 + half), abs=1e-5)
    assert mean_ci([2, 2, 2]) == Estimate(2, 2, 2, 3)


def test_degenerate_means() -> None:
    assert math.isnan(mean_ci([]).value)
    one = mean_ci([7])
    assert one.value == 7 and one.low == -math.inf and one.high == math.inf


@pytest.mark.parametrize(("k", "n", "low", "high"), [
    (0, 10, 0.0, 0.2775), (5, 10, 0.2366, 0.7634), (10, 10, 0.7225, 1.0),
    (1, 100, 0.0018, 0.0545), (81, 263, 0.2553, 0.3662),
])
def test_wilson_intervals(k: int, n: int, low: float, high: float) -> None:
    e = wilson(k, n)
    assert e.value == pytest.approx(k / n)
    assert (e.low, e.high) == pytest.approx((low, high), abs=1e-4)
    assert 0 <= e.low <= e.value <= e.high <= 1


def test_wilson_takes_fractional_successes() -> None:
    # A win shared by two counts a half: 2.5 of 5 is the same rate as 5 of 10.
    assert wilson(2.5, 5).value == 0.5
    assert wilson(2.5, 5).high - wilson(2.5, 5).low > wilson(5, 10).high - wilson(5, 10).low
    assert math.isnan(wilson(0, 0).value)


def test_rate_difference_newcombe() -> None:
    # Newcombe (1998), example (a): 56/70 against 48/80 gives 0.0524 to 0.3339.
    d = rate_difference(wilson(56, 70), wilson(48, 80))
    assert d.value == pytest.approx(0.2)
    assert (d.low, d.high) == pytest.approx((0.0524, 0.3339), abs=1e-4)
    same = rate_difference(wilson(30, 100), wilson(30, 100))
    assert not same.excludes(0)


def test_paired_difference() -> None:
    a = [3, 5, 4, 6, 7]
    b = [1, 4, 4, 3, 5]
    e = paired_difference(a, b)
    assert e == mean_ci([2, 1, 0, 3, 2])
    assert e.value == pytest.approx(1.6)
    # Pairing removes the spread the two samples share: the unpaired spread is wider.
    assert e.high - e.low < mean_ci(a).high - mean_ci(a).low
    with pytest.raises(ValueError):
        paired_difference([1, 2], [1])


def test_ratio_with_unit_clusters_is_the_mean() -> None:
    xs = [0, 1, 2, 0, 1, 1, 0, 2]
    r = Ratio()
    for x in xs:
        r.add(x, 1)
    assert r.estimate() == pytest.approx(mean_ci(xs))


def test_ratio_by_hand() -> None:
    # x over y per cluster: 2/4, 3/5, 1/3 -> 6/12; residuals 0, 0.5, -0.5.
    r = Ratio()
    for x, y in [(2, 4), (3, 5), (1, 3)]:
        r.add(x, y)
    e = r.estimate()
    assert e.value == 0.5
    half = t_quantile(2) * math.sqrt(0.25 / 3) / 4
    assert (e.low, e.high) == pytest.approx((0.5 - half, 0.5 + half))


def test_merged_accumulators_equal_one_pass() -> None:
    data = [(1, 3), (0, 2), (4, 6), (2, 2), (3, 5)]
    whole, first, second = Ratio(), Ratio(), Ratio()
    m_whole, m_first, m_second = Moments(), Moments(), Moments()
    for i, (x, y) in enumerate(data):
        whole.add(x, y)
        m_whole.add(x)
        (first if i < 2 else second).add(x, y)
        (m_first if i < 2 else m_second).add(x)
    first.merge(second)
    m_first.merge(m_second)
    assert first == whole and m_first == m_whole


def test_scaled_estimate() -> None:
    m = Moments()
    for x in (2, 4, 6):
        m.add(x)
    e, half = m.estimate(scale=0.5), m.estimate()
    assert (e.value, e.low, e.high) == pytest.approx((half.value / 2, half.low / 2,
                                                      half.high / 2))
    neg = m.estimate(scale=-1)
    assert neg.low <= neg.value <= neg.high
