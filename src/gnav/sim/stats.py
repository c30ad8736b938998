"""Means, rates and differences with 95% confidence intervals, stdlib only.

Accumulators keep sums (not running means) so that chunks of work merge exactly and in
a fixed order: a simulation split over any number of processes gives the same figures.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import NamedTuple

CONFIDENCE = 0.95


class Estimate(NamedTuple):
    """A point estimate with its confidence interval, from ``n`` observations."""

    value: float
    low: float
    high: float
    n: int

    def excludes(self, x: float) -> bool:
        return x < self.low or x > self.high

    def as_dict(self, digits: int = 6) -> dict[str, float | int]:
        return {"value": round(self.value, digits), "low": round(self.low, digits),
                "high": round(self.high, digits), "n": self.n}


def z_quantile(confidence: float = CONFIDENCE) -> float:
    """The two-sided normal critical value (1.959964 for 95%)."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def _t_two_sided(t: float, df: int) -> float:
    """P(|T| < t) for Student's t with integer ``df`` (Abramowitz and Stegun 26.7.3-4:
    a finite series, exact up to rounding)."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    s = math.sin(theta)
    if df % 2:
        if df == 1:
            return 2 * theta / math.pi
        term = total = math.cos(theta)
        for k in range(2, df - 1, 2):
            term *= c2 * k / (k + 1)
            total += term
        return 2 / math.pi * (theta + s * total)
    term = total = 1.0
    for k in range(1, df - 2, 2):
        term *= c2 * k / (k + 1)
        total += term
    return s * total


def t_quantile(df: int, confidence: float = CONFIDENCE) -> float:
    """The two-sided Student t critical value: 12.706 at df 1, 2.228 at df 10 (95%)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    z = z_quantile(confidence)
    if df > 200:
        # The exact series grows with df; the Cornish-Fisher expansion is already good
        # to about 1e-9 here.
        g1 = (z**3 + z) / 4
        g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
        g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
        return z + g1 / df + g2 / df**2 + g3 / df**3
    low, high = z, 1.0
    while _t_two_sided(high, df) < confidence:
        high *= 2
    for _ in range(100):
        mid = (low + high) / 2
        if _t_two_sided(mid, df) < confidence:
            low = mid
        else:
            high = mid
        if high - low < 1e-12:
            break
    return (low + high) / 2


def wilson(successes: float, n: int, confidence: float = CONFIDENCE) -> Estimate:
    """A rate with Wilson's score interval, which stays inside [0, 1] and behaves at 0 or
    n successes. ``successes`` may be fractional (a shared win counts a part)."""
    if n <= 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    z = z_quantile(confidence)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(max(p * (1 - p), 0.0) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # At 0 or n successes the bounds are exactly 0 or 1; rounding must not move them.
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return Estimate(p, low, high, n)


def rate_difference(a: Estimate, b: Estimate) -> Estimate:
    """The difference of two independent rates ``a - b`` (Wilson intervals, combined by
    Newcombe's hybrid score method)."""
    d = a.value - b.value
    low = d - math.sqrt((a.value - a.low) ** 2 + (b.high - b.value) ** 2)
    high = d + math.sqrt((a.high - a.value) ** 2 + (b.value - b.low) ** 2)
    return Estimate(d, low, high, min(a.n, b.n))


@dataclass
class Moments:
    """Count, sum and sum of squares of observations: a mean with a t interval."""

    n: int = 0
    s: float = 0
    ss: float = 0

    def add(self, x: float) -> None:
        self.n += 1
        self.s += x
        self.ss += x * x

    def merge(self, other: Moments) -> None:
        self.n += other.n
        self.s += other.s
        self.ss += other.ss

    def estimate(self, confidence: float = CONFIDENCE, scale: float = 1.0) -> Estimate:
        """The mean (times ``scale``) and its interval."""
        n = self.n
        if n == 0:
            return Estimate(math.nan, math.nan, math.nan, 0)
        mean = self.s / n
        if n == 1:
            return Estimate(mean * scale, -math.inf, math.inf, 1)
        var = max(self.ss - self.s * mean, 0.0) / (n - 1)
        half = t_quantile(n - 1, confidence) * math.sqrt(var / n)
        lo, hi = sorted(((mean - half) * scale, (mean + half) * scale))
        return Estimate(mean * scale, lo, hi, n)


@dataclass
class Ratio:
    """Sum of x over sum of y across independent clusters (e.g. lives lost over rounds
    played, per match), with a delta-method interval that respects the clustering:
    rounds of one match are not independent, matches are."""

    n: int = 0
    sx: float = 0
    sy: float = 0
    sxx: float = 0
    syy: float = 0
    sxy: float = 0

    def add(self, x: float, y: float) -> None:
        self.n += 1
        self.sx += x
        self.sy += y
        self.sxx += x * x
        self.syy += y * y
        self.sxy += x * y

    def merge(self, other: Ratio) -> None:
        self.n += other.n
        self.sx += other.sx
        self.sy += other.sy
        self.sxx += other.sxx
        self.syy += other.syy
        self.sxy += other.sxy

    def estimate(self, confidence: float = CONFIDENCE) -> Estimate:
        n = self.n
        if n == 0 or self.sy == 0:
            return Estimate(math.nan, math.nan, math.nan, n)
        r = self.sx / self.sy
        if n == 1:
            return Estimate(r, -math.inf, math.inf, 1)
        # Residuals e = x - r*y have mean 0; their variance gives var(r).
        see = self.sxx - 2 * r * self.sxy + r * r * self.syy
        var_e = max(see, 0.0) / (n - 1)
        ybar = self.sy / n
        half = t_quantile(n - 1, confidence) * math.sqrt(var_e / n) / ybar
        return Estimate(r, r - half, r + half, n)


def mean_ci(values: Iterable[float], confidence: float = CONFIDENCE) -> Estimate:
    """The mean of ``values`` with a Student t interval."""
    m = Moments()
    for v in values:
        m.add(v)
    return m.estimate(confidence)


def paired_difference(a: Sequence[float], b: Sequence[float],
                      confidence: float = CONFIDENCE) -> Estimate:
    """The mean of ``a[i] - b[i]`` with a t interval: each pair shares its chance, so
    the spread of the differences (not of each side) sets the width."""
    if len(a) != len(b):
        raise ValueError(f"paired samples differ in length: {len(a)} and {len(b)}")
    return mean_ci((x - y for x, y in zip(a, b, strict=True)), confidence)
