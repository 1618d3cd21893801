"""Difficulty: the four measures, their intervals, and the verdicts (reproducible from a fixed seed)."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from simlab.cli import app
from simlab.studies.difficulty import MEASURES, derived_seed, difficulty, median_interval

PAIR = ("gaston", "lady-tremaine")


@pytest.fixture(scope="module")
def result():
    return difficulty(PAIR, 40, seed=4, threads=2)


def test_measures_and_reproducibility(result):
    again = difficulty(PAIR, 40, seed=4, threads=1)
    assert result.table.equals(again.table) and result.verdicts.equals(again.verdicts)
    t = result.table
    assert t.height == 2 * len(MEASURES)
    for r in t.iter_rows(named=True):
        assert r["low"] <= r["estimate"] <= r["high"], r
    est = {(r["villain"], r["measure"]): r for r in t.iter_rows(named=True)}
    assert est[("gaston", "strength")]["games"] == 2 * 40  # against each other villain
    assert est[("gaston", "skill_gap")]["games"] == 2 * 40
    assert est[("gaston", "goldfish_turns")]["games"] == 40


def test_lady_tremaine_rewards_skill_more_than_gaston(result):
    # measured with 2,000 games per pairing: skill gap 85 pp (Lady Tremaine) vs 26 pp (Gaston)
    v = result.verdicts.filter(result.verdicts["measure"] == "skill_gap").row(0, named=True)
    text = "Lady Tremaine is harder to play than Gaston at expert play: skill gap"  # names its level
    assert v["significant"] and v["verdict"].startswith(text)
    assert "z = " in v["verdict"] and "p " in v["verdict"]


def _misses(samples, truth):
    """Share of intervals whose low end is above ``truth`` and share whose high end is below it."""
    low = high = 0
    for x in samples:
        med, lo, hi = median_interval(x)
        assert lo <= med <= hi
        low += lo > truth
        high += hi < truth
    return low / len(samples), high / len(samples)


def test_median_interval_misses_each_side_as_often_as_the_binomial_says():
    """Both ends of the order-statistic interval, checked against the exact miss rate of each side (a one-sided
    check passed an interval too wide, or shifted, on the other side). n = 101: the interval is
    (x_(r), x_(n-r+1)) with r = 41; it misses low when fewer than r values are <= the median."""
    import scipy.stats as sps

    rng = np.random.default_rng(3)
    reps, n = 2000, 101
    r = int(sps.binom.ppf(0.025, n, 0.5))
    assert r == 41

    def within(share, p):
        return abs(share - p) < 3 * (p * (1 - p) / reps) ** 0.5

    # continuous data: each side misses with probability P(Binomial(101, 1/2) < 41) = 0.0230 exactly
    tail = sps.binom.cdf(r - 1, n, 0.5)
    low, high = _misses([rng.exponential(5.0, n) for _ in range(reps)], np.log(2) * 5.0)
    assert within(low, tail) and within(high, tail), (low, high, tail)
    # integer data (turn counts) with ties at the median 9 of Poisson(9.3): the low end misses when fewer than r
    # values are <= 9, the high end when fewer than r are >= 9 (exactly 0.0015 and 0.0001 here)
    p_le, p_ge = sps.poisson.cdf(9, 9.3), sps.poisson.sf(8, 9.3)
    low, high = _misses([rng.poisson(9.3, n) for _ in range(reps)], 9)
    assert within(low, sps.binom.cdf(r - 1, n, p_le)) and within(high, sps.binom.cdf(r - 1, n, p_ge)), (low, high)


def test_derived_seeds_differ_by_purpose():
    assert derived_seed(0, "strength") != derived_seed(0, "skill:gaston")
    assert derived_seed(0, "strength") == derived_seed(0, "strength")


def test_cli_difficulty_pair_and_bad_input():
    runner = CliRunner()
    args = ["difficulty", "--villain", "gaston", "--vs", "horned-king", "-n", "20", "--headline-games", "20"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "verdicts" in res.output and "skill gap" in res.output
    res = runner.invoke(app, ["difficulty", "--vs", "gaston"])
    assert res.exit_code == 2 and "--vs needs --villain" in res.output
    res = runner.invoke(app, ["difficulty", "--villain", "jafar"])
    assert res.exit_code == 2 and "choose from gaston, lady-tremaine, horned-king" in res.output
