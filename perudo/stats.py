"""Confidence intervals for what simulations count: rates (Wilson score intervals), means
(normal intervals), and differences between two runs, with whether they are significant.

Everything here is plain arithmetic on counts and sums; 95% intervals by default.

>>> wilson(30, 100)
Interval(estimate=0.3, low=0.2189, high=0.3958)
>>> str(wilson(30, 100).percent())
'30.0% [21.9%, 39.6%]'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

import attrs

__all__ = ["Z95", "Difference", "Interval", "difference_of_means", "difference_of_rates",
           "largest_gap", "mean_interval", "paired_difference", "wilson"]  # fmt: skip

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


@attrs.frozen
class Interval:
    """An estimate and its confidence interval.

    Attributes:
        estimate: The measured value.
        low: The lower bound.
        high: The upper bound.
        percent_scale: Whether the text form shows percentages.
    """

    estimate: float
    low: float
    high: float
    percent_scale: bool = attrs.field(default=False, repr=False)

    def __repr__(self) -> str:
        return f"Interval(estimate={self.estimate:.4g}, low={self.low:.4f}, high={self.high:.4f})"

    def percent(self) -> Interval:
        """The same interval, shown as percentages."""
        return attrs.evolve(self, percent_scale=True)

    def contains(self, value: float) -> bool:
        """Whether ``value`` lies in the interval."""
        return self.low <= value <= self.high

    def __str__(self) -> str:
        if self.percent_scale:
            return f"{self.estimate:.1%} [{self.low:.1%}, {self.high:.1%}]"
        return f"{self.estimate:.2f} [{self.low:.2f}, {self.high:.2f}]"

    def less(self, value: float) -> Interval:
        """The estimate and both bounds less ``value``: a share's distance from a fair
        share, say.

        >>> str(wilson(30, 100).percent().less(0.25).signed())
        '+5.0% [-3.1%, 14.6%]'
        """
        return attrs.evolve(
            self, estimate=self.estimate - value, low=self.low - value, high=self.high - value
        )

    def signed(self) -> str:
        """The text form with the estimate's sign, for a difference or a distance from
        a fair share: ``+2.7% [-2.4%, 8.3%]``."""
        return ("+" if self.estimate >= 0 else "") + str(self)


@attrs.frozen
class Difference:
    """The difference ``a - b`` between two runs' measures, with its interval.

    Attributes:
        interval: The difference and its confidence interval.
    """

    interval: Interval

    @property
    def significant(self) -> bool:
        """Whether the interval leaves out 0."""
        return not self.interval.contains(0.0)

    def __str__(self) -> str:
        verdict = "significant" if self.significant else "not significant"
        return f"{self.interval.signed()} ({verdict} at 95%)"


def wilson(successes: float, trials: int, z: float = Z95) -> Interval:
    """The Wilson score interval of a rate: ``successes`` out of ``trials`` (a share of a
    tied win counts its fraction)."""
    if trials <= 0:
        return Interval(estimate=0.0, low=0.0, high=1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(max(p * (1 - p), 0.0) / trials + z * z / (4 * trials * trials))
    half /= denominator
    low, high = max(0.0, centre - half), min(1.0, centre + half)
    return Interval(
        estimate=p, low=min(low, p), high=max(high, p)
    )  # rounding never leaves p outside


def mean_interval(total: float, total_of_squares: float, count: int, z: float = Z95) -> Interval:
    """The normal interval of a mean, from the sum and the sum of squares of ``count``
    values."""
    if count <= 0:
        return Interval(estimate=0.0, low=0.0, high=0.0)
    mean = total / count
    variance = max(total_of_squares / count - mean * mean, 0.0) * count / max(count - 1, 1)
    half = z * math.sqrt(variance / count)
    return Interval(estimate=mean, low=mean - half, high=mean + half)


def difference_of_rates(a: Interval, n_a: int, b: Interval, n_b: int) -> Difference:
    """The difference of two rates with Newcombe's hybrid score interval (from each rate's
    Wilson interval): well-behaved near 0 and 1, where the plain normal one is not."""
    d = a.estimate - b.estimate
    low = d - math.sqrt((a.estimate - a.low) ** 2 + (b.high - b.estimate) ** 2)
    high = d + math.sqrt((a.high - a.estimate) ** 2 + (b.estimate - b.low) ** 2)
    del n_a, n_b  # the Wilson intervals already carry the sample sizes
    return Difference(Interval(estimate=d, low=low, high=high, percent_scale=a.percent_scale))


def difference_of_means(a: Interval, n_a: int, b: Interval, n_b: int, z: float = Z95) -> Difference:
    """The difference of two means with a normal (Welch) interval, from each mean's own
    normal interval."""
    se_a = (a.high - a.estimate) / z
    se_b = (b.high - b.estimate) / z
    half = z * math.sqrt(se_a * se_a + se_b * se_b)
    d = a.estimate - b.estimate
    del n_a, n_b
    return Difference(Interval(estimate=d, low=d - half, high=d + half))


def paired_difference(
    a: Sequence[float], b: Sequence[float], *, percent: bool = False, z: float = Z95
) -> Difference:
    """The mean of ``a[i] - b[i]`` with its normal interval: the difference of two runs
    whose ``i``-th values belong together (the same game seed in two editions). Pairs in
    which either value is NaN (a forfeited game) are left out. Pairing takes out what the
    two values share (the same deal, the same opener), so the interval is never wider than
    the unpaired one's by more than chance, and narrower the more the pairs agree.

    >>> str(paired_difference([3, 4, 5, 6], [2, 4, 4, 5]))
    '+0.75 [0.26, 1.24] (significant at 95%)'
    """
    if len(a) != len(b):
        raise ValueError(f"paired values come in pairs: {len(a)} and {len(b)} given")
    pairs = [x - y for x, y in zip(a, b, strict=True) if not (math.isnan(x) or math.isnan(y))]
    total = math.fsum(pairs)
    interval = mean_interval(total, math.fsum(d * d for d in pairs), len(pairs), z)
    return Difference(attrs.evolve(interval, percent_scale=percent))


def largest_gap(successes: Sequence[float], trials: int, fair: float) -> Interval:
    """How far the most uneven of several shares lies from ``fair`` (0: every share is
    fair): ``successes[k]`` out of ``trials`` each, as the wins of each place at a table.
    The interval holds with 95% confidence for all the shares at once (each share's Wilson
    interval at ``1 - 0.05 / len(successes)``, Bonferroni's correction), so it stays honest
    however many shares there are.

    >>> gap = largest_gap([300, 200, 100], 600, 1 / 3)
    >>> round(gap.estimate, 4), gap.low > 0.1
    (0.1667, True)
    """
    if not successes:
        return Interval(estimate=0.0, low=0.0, high=0.0, percent_scale=True)
    z = NormalDist().inv_cdf(1 - 0.025 / len(successes))
    estimate = low = high = 0.0
    for count in successes:
        share = wilson(count, trials, z)
        estimate = max(estimate, abs(share.estimate - fair))
        nearest = 0.0 if share.low <= fair <= share.high else min(
            abs(share.low - fair), abs(share.high - fair)
        )  # fmt: skip
        low = max(low, nearest)
        high = max(high, abs(share.low - fair), abs(share.high - fair))
    return Interval(
        estimate=estimate, low=min(low, estimate), high=max(high, estimate), percent_scale=True
    )
