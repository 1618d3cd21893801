"""Interval estimates used in every summary."""

from __future__ import annotations

import numpy as np

Z95 = 1.959963984540054


def wilson(successes, trials, z: float = Z95):
    """Wilson score interval (low, high) for a binomial proportion; works on scalars and arrays.

    The ends are exact where the formula's are exact in theory but not in floating point: 0 successes give a
    low end of exactly 0 and ``trials`` successes a high end of exactly 1 (centre - half would give 8.7e-19
    at 0 of 400, a negative error bar below a 0% rate); every end lies in [0, 1]. No trials: (0, 1).
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(n > 0, k / np.maximum(n, 1), 0.0)
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
        low = np.where((n > 0) & (k > 0), np.clip(centre - half, 0.0, 1.0), 0.0)
        high = np.where((n > 0) & (k < n), np.clip(centre + half, 0.0, 1.0), 1.0)
    return low, high


def error_bars(estimate, low, high) -> np.ndarray:
    """(2, n) distances from each estimate down to its interval's low end and up to its high end, for
    matplotlib's ``xerr``/``yerr``: never negative (an estimate on or, by rounding, just outside an end of its
    interval gets a bar of 0 on that side) and 0 where any of the three is NaN (nothing to draw)."""
    est = np.asarray(estimate, dtype=float)
    lo = np.asarray(low, dtype=float)
    hi = np.asarray(high, dtype=float)
    err = np.vstack([est - lo, hi - est])
    return np.where(np.isfinite(err), np.maximum(err, 0.0), 0.0)


def paired_difference(a, b, c, d, z: float = Z95) -> tuple[float, float, float]:
    """Difference p1 - p2 of two proportions measured on the same units, with its 95% interval.

    a: units counted in both, b: only in the first, c: only in the second, d: in neither. Newcombe's method
    10 (Statistics in Medicine 17, 2635-2650, 1998): Wilson intervals of each proportion combined through
    the correlation phi of the paired outcomes. Returns (difference, low, high).
    """
    n = a + b + c + d
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = (float(x) for x in wilson(a + b, n, z))
    l2, u2 = (float(x) for x in wilson(a + c, n, z))
    denom = float(a + b) * (c + d) * (a + c) * (b + d)
    phi = (a * d - b * c) / np.sqrt(denom) if denom > 0 else 0.0
    dl = np.sqrt(max((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2, 0.0))
    du = np.sqrt(max((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2, 0.0))
    diff = p1 - p2
    return diff, max(diff - dl, -1.0), min(diff + du, 1.0)


def difference(k1, n1, k2, n2, z: float = Z95) -> tuple[float, float, float]:
    """Difference p1 - p2 of two proportions from separate samples (k1 of n1, k2 of n2), with its 95% interval.

    Newcombe's method 10 for independent proportions (the hybrid score interval, Statistics in Medicine 17,
    873-890, 1998): the Wilson intervals of each combined. Returns (difference, low, high)."""
    if n1 == 0 or n2 == 0:
        return float("nan"), float("nan"), float("nan")
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = (float(x) for x in wilson(k1, n1, z))
    l2, u2 = (float(x) for x in wilson(k2, n2, z))
    diff = p1 - p2
    return diff, diff - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), diff + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def pct_interval(rate: float, low: float, high: float, sign: str = "") -> tuple[str, str, str]:
    """A rate and its interval as percentages, with as many decimals (1 to 3) as it takes for the
    interval's two ends to differ: 77.9% [77.9%, 77.9%] at ten million games says less than it knows."""
    width = (high - low) * 100
    digits = 1 if width >= 0.2 or width <= 0 else 2 if width >= 0.02 else 3
    spec = f"{sign}.{digits}%"
    return f"{rate:{spec}}", f"{low:{spec}}", f"{high:{spec}}"


def interval_text(rate, low, high, sign: str = "") -> str:
    """The one notation of every table, plot and report for a rate and its 95% interval: ``52.1% [50.3, 53.9]``
    (``sign="+"`` for a change: ``+2.1% [+0.3, +3.9]``), decimals as :func:`pct_interval`; the rate alone when
    the interval is missing, ``-`` when the rate is."""
    if rate is None or rate != rate:
        return "-"
    if low is None or high is None or low != low or high != high:
        return f"{rate:{sign}.1%}"
    r, lo, hi = pct_interval(rate, low, high, sign)
    return f"{r} [{lo.removesuffix('%')}, {hi.removesuffix('%')}]"
