"""Difficulty: the four measures, their intervals, and the verdicts (reproducible from a fixed seed)."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from simlab.cli import app
from simlab.difficulty import MEASURES, derived_seed, difficulty, median_interval

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
    assert v["significant"] and v["verdict"].startswith("Lady Tremaine is harder to play than Gaston: skill gap")
    assert "z = " in v["verdict"] and "p " in v["verdict"]


def test_median_interval_coverage():
    rng = np.random.default_rng(3)
    reps, n, hits = 600, 101, 0
    true_median = np.log(2) / 0.2  # exponential with rate 0.2
    for _ in range(reps):
        med, lo, hi = median_interval(rng.exponential(5.0, n))
        hits += lo <= true_median <= hi
        assert lo <= med <= hi
    share = hits / reps
    assert share >= 0.95 - 3 * (0.95 * 0.05 / reps) ** 0.5, share
    # integer data (turn counts): the interval still covers at least the stated share
    hits = 0
    for _ in range(reps):
        _, lo, hi = median_interval(rng.poisson(9.3, n))
        hits += lo <= 9 <= hi  # the median of Poisson(9.3) is 9
    assert hits / reps >= 0.95 - 3 * (0.95 * 0.05 / reps) ** 0.5


def test_derived_seeds_differ_by_purpose():
    assert derived_seed(0, "strength") != derived_seed(0, "skill:gaston")
    assert derived_seed(0, "strength") == derived_seed(0, "strength")


def test_cli_difficulty_pair_and_bad_input():
    runner = CliRunner()
    res = runner.invoke(app, ["difficulty", "--villain", "gaston", "--vs", "horned-king", "-n", "20"])
    assert res.exit_code == 0, res.output
    assert "verdicts" in res.output and "skill gap" in res.output
    res = runner.invoke(app, ["difficulty", "--vs", "gaston"])
    assert res.exit_code == 2 and "--vs needs --villain" in res.output
    res = runner.invoke(app, ["difficulty", "--villain", "jafar"])
    assert res.exit_code == 2 and "choose from gaston, lady-tremaine, horned-king" in res.output
