"""``simlab run`` / ``simlab.run``: reproducible summaries, honest intervals, long-run behaviour, bad input."""

from __future__ import annotations

import json
import os
import re
import signal

import matplotlib
import numpy as np
import polars as pl
import pyarrow.parquet as pq
import pytest
from scipy import stats
from typer.testing import CliRunner

import simlab
from simlab.cli import app
from simlab.runs.settings import RunSettings
from simlab.runs.sim import card_flags, run, seat_table
from simlab.runs.stats import wilson

matplotlib.use("Agg")
runner = CliRunner()


def frames_equal(a, b):
    for name in ("summary", "by_seat", "first_seat", "lengths"):
        assert getattr(a, name).equals(getattr(b, name)), name


def test_summaries_do_not_depend_on_threads_or_chunks():
    a = run("gaston-vs-lady-tremaine", RunSettings(400, seed=3, threads=1), chunk=400, keep_games=True)
    b = run("gaston-vs-lady-tremaine", RunSettings(400, seed=3, threads=2), chunk=64, keep_games=True)
    frames_equal(a, b)
    assert a.games.equals(b.games)


def test_wilson_interval_known_values():
    lo, hi = wilson(5, 10)
    assert (round(float(lo), 4), round(float(hi), 4)) == (0.2366, 0.7634)
    lo, hi = wilson(0, 10)
    assert (round(float(lo), 4), round(float(hi), 4)) == (0.0, 0.2775)
    lo, hi = wilson(10, 10)
    assert (round(float(lo), 4), round(float(hi), 4)) == (0.7225, 1.0)
    # exact ends at 0 and n wins, for every n (the formula gave 8.7e-19 at 0 of 300 and 0.9999999999999998 at 300)
    n = np.arange(1, 5001)
    assert (wilson(np.zeros_like(n), n)[0] == 0.0).all() and (wilson(n, n)[1] == 1.0).all()
    lo, hi = wilson(np.arange(0, 301), 300)
    assert (lo >= 0).all() and (hi <= 1).all() and (lo <= np.arange(0, 301) / 300).all()


def test_wilson_interval_covers_a_known_rate_95_percent_of_the_time():
    rng = np.random.default_rng(12345)
    trials, p, n = 4000, 0.3, 200
    k = rng.binomial(n, p, size=trials)
    lo, hi = wilson(k, np.full(trials, n))
    coverage = float(((lo <= p) & (p <= hi)).mean())
    se = (0.95 * 0.05 / trials) ** 0.5
    assert abs(coverage - 0.95) < 3 * se, coverage


def test_run_result_frames_and_first_seat_advantage():
    res = simlab.run("gaston-vs-horned-king", RunSettings(300, seed=2, threads=2))
    s = res.summary
    assert s["count"].sum() == 300 and set(s["outcome"]) == {"gaston", "horned-king", "unfinished"}
    by = res.by_seat
    assert by["games"].sum() == 600  # each game: two entries, one seat each
    assert by.group_by("entry").agg(pl.col("games").sum())["games"].to_list() == [300, 300]
    fs = res.first_seat
    p0, p1, adv = fs["rate"].to_list()
    # worked out again from the seat of each game's winner: the seats' rates, and the advantage as the mean of
    # X = [seat 0 won] - [seat 1 won] with the normal 95% interval mean +- z sd(X) / sqrt(n)
    seat = res.games["winner_seat"].to_numpy()
    x = (seat == 0).astype(float) - (seat == 1)
    assert (p0, p1, adv) == pytest.approx((np.mean(seat == 0), np.mean(seat == 1), x.mean()))
    half = stats.norm.ppf(0.975) * x.std() / np.sqrt(len(x))
    assert (fs["low"][2], fs["high"][2]) == pytest.approx((x.mean() - half, x.mean() + half))
    lengths = res.lengths
    allg = lengths.filter((pl.col("winner") == "all games") & (pl.col("measure") == "rounds")).row(0, named=True)
    assert allg["games"] == 300 and allg["p10"] <= allg["median"] <= allg["p90"]
    assert allg["median"] == float(res.games["rounds"].quantile(0.5, "lower"))
    pd = res.to_pandas()
    assert set(pd) >= {"summary", "by_seat", "first_seat", "lengths", "games"}


def test_first_seat_fixed_or_random():
    fixed = run(
        "gaston-vs-lady-tremaine-vs-horned-king", RunSettings(30, seed=1), first="lady-tremaine", keep_games=True
    )
    assert set(fixed.games["seat0"]) == {"lady-tremaine"}
    seats = seat_table(("gaston", "horned-king"), 1000, 0, "random", seed=9)
    assert (np.sort(seats, axis=1) == [0, 1]).all()
    assert 400 < (seats[:, 0] == 0).sum() < 600
    assert (seats == seat_table(("gaston", "horned-king"), 1000, 0, "random", seed=9)).all()


def test_target_ci_stops_once_every_interval_is_narrow_enough():
    res = run("gaston-vs-horned-king", RunSettings(50_000, seed=4), target_ci=0.08, chunk=500)
    assert res.stopped_at_target and res.n_games < 50_000
    s = res.summary.filter(pl.col("outcome") != "unfinished")
    assert ((s["high"] - s["low"]) < 0.08).all()


def test_out_parquet_has_one_row_per_game_with_card_flags(tmp_path):
    path = tmp_path / "games.parquet"
    res = run("gaston-vs-horned-king", RunSettings(100, seed=6), out=path, keep_games=True)
    games = pl.read_parquet(path)
    assert games.height == 100
    assert games.select("game", "winner", "rounds", "seat0", "seat1").equals(
        res.games.select("game", "winner", "rounds", "seat0", "seat1")
    )
    flags = card_flags(path)
    assert flags.height == 100 * 2 * 45
    # every card played was drawn, except Fate cards (played into the Realm by opponents)
    villain_cards = flags.filter(pl.col("instance") < 30)
    assert villain_cards.filter(pl.col("played") & ~pl.col("drawn")).height == 0
    assert villain_cards["drawn"].sum() >= 100 * 2 * 4  # the opening hands


def test_ctrl_c_keeps_the_finished_games_and_a_valid_out_file(tmp_path):
    path = tmp_path / "partial.parquet"

    def interrupt(done, total):
        if done == 64:
            os.kill(os.getpid(), signal.SIGINT)

    res = run("gaston-vs-horned-king", RunSettings(640, seed=8, progress=interrupt), chunk=64, out=path)
    assert res.interrupted and res.n_games == 64
    assert pq.read_table(path).num_rows == 64
    full = run("gaston-vs-horned-king", RunSettings(64, seed=8))
    frames_equal(res, full)


def test_cli_run_prints_every_table_and_json():
    res = runner.invoke(app, ["run", "--matchup", "gaston-vs-horned-king", "-n", "200"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    for needle in ("95% interval", "by seat", "first - others", "the first seat's win rate minus", "own turns"):
        assert needle in res.output, needle
    # one interval notation, 52.1% [50.3, 53.9]: no "a% - b%" or "a% .. b%" ranges
    assert re.search(r"\d%\s*\[[-+]?\d+(\.\d+)?, [-+]?\d+(\.\d+)?\]", res.output), res.output
    assert not re.search(r"\d%\s*(-|\.\.)\s*[-+]?\d+(\.\d+)?%", res.output), res.output
    res = runner.invoke(app, ["run", "--matchup", "gaston-vs-horned-king", "-n", "200", "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["games"] == 200 and {r["outcome"] for r in doc["summary"]} == {"gaston", "horned-king", "unfinished"}


@pytest.mark.parametrize(
    "args, needle",
    [
        (("--out", "/proc/simlab/games.parquet"), "cannot write --out"),
        (("--first", "jafar"), "--first 'jafar' is not in the matchup"),
        (("--target-ci", "2"), "--target-ci must be"),
        (("--strategy", "gaston=genius"), "unknown strategy 'genius'"),
        (("--rules", "get_out=never"), "choose from up_to_three"),
        (("--max-turns", "-5"), "max_turns must be a positive integer"),
    ],
)
def test_run_bad_input_is_one_line_with_exit_code_2(args, needle):
    res = runner.invoke(app, ["run", "--matchup", "gaston-vs-horned-king", "-n", "10", *args])
    assert res.exit_code == 2, res.output
    assert needle in res.output and "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_matrix_covers_every_pairing_and_draws_a_heatmap(tmp_path):
    res = simlab.matrix(40, seed=1, threads=2)
    assert res.table["matchup"].n_unique() == 7
    grid = res.grid()
    assert grid.shape == (3, 4)
    png = tmp_path / "m.png"
    out = runner.invoke(app, ["matrix", "-n", "20", "--png", str(png)], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    assert png.stat().st_size > 10_000


def test_a_huge_n_starts_playing_at_once_and_target_ci_stops_it():
    """-n 10**18 used to build the list of its 2 * 10**14 chunks before playing one (a hang, even with
    --target-ci); the chunks are now made as they are played. A hang becomes a failure after 60 s."""

    def too_slow(signum, frame):
        raise TimeoutError("the run did not start playing")

    run("gaston-vs-horned-king", RunSettings(2, seed=4, max_turns=30))  # compiled before the clock starts
    old = signal.signal(signal.SIGALRM, too_slow)
    signal.alarm(60)
    try:
        res = run("gaston-vs-horned-king", RunSettings(10**18, seed=4, max_turns=30), target_ci=0.2, chunk=500)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert res.stopped_at_target and res.n_games == 1000  # the first chunk boundary past 1,000 games
    assert res.games is None  # a run that large never keeps its per-game table


def test_an_out_file_failing_mid_run_keeps_the_games_and_says_where(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from simlab.cli import app
    from simlab.runs import output

    real = output._ParquetOut._write
    calls = {"n": 0}

    def full_after_one(self, part, flags):
        calls["n"] += 1
        if calls["n"] > 1:
            raise OSError(28, "No space left on device")
        real(self, part, flags)

    monkeypatch.setattr(output._ParquetOut, "_write", full_after_one)
    path = tmp_path / "games.parquet"
    res = run("gaston-vs-horned-king", RunSettings(600, seed=2), out=path, chunk=200)
    assert res.n_games == 600  # every game played and counted
    assert res.out_error.startswith(f"no space left on the device to write --out {str(path)!r}: it needs about")
    assert "nothing was written there" in res.out_error
    assert not path.exists() and not list(tmp_path.iterdir())  # no parquet file cut short, no temporary file
    calls["n"] = 1  # the command's first write fails
    got = CliRunner().invoke(app, ["run", "-m", "gaston-vs-horned-king", "-n", "600", "--out", str(path)])
    assert got.exit_code == 2
    lines = got.output.strip().splitlines()
    assert lines[-1].startswith("error: no space left on the device to write --out")
    assert "the summary above covers all the games played" in lines[-1]
    assert any("gaston" in line and "%" in line for line in lines[:-1])  # the summary came first
