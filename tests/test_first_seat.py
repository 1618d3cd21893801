"""simlab first-seat: the first seat's advantage in every pairing and the 3-player game at one level, with 95%
intervals and a plot; the matrix's first-seat column carries its interval."""

from __future__ import annotations

import polars as pl
from typer.testing import CliRunner

from simlab.cli import app
from simlab.report.render import console, matrix_table, short_matchup
from simlab.runs.settings import RunSettings
from simlab.studies.matchups import first_seat, matchups, matrix

runner = CliRunner()


def test_the_first_seat_table_is_each_runs_first_seat_rows():
    settings = RunSettings(games=24, seed=3, level="novice", max_turns=30, threads=1)
    res = matrix(settings=settings)
    frame = first_seat(res)
    assert frame["matchup"].to_list() == matchups()
    for r in frame.iter_rows(named=True):
        seats = {s["seat"]: s for s in res.runs[r["matchup"]].first_seat.iter_rows(named=True)}
        adv, first = seats["first-seat advantage"], seats["seat 0"]
        assert (r["advantage"], r["advantage_low"], r["advantage_high"]) == (adv["rate"], adv["low"], adv["high"])
        assert (r["first_rate"], r["first_low"], r["first_high"]) == (first["rate"], first["low"], first["high"])
        assert r["advantage_low"] <= r["advantage"] <= r["advantage_high"]
        assert r["fair_rate"] == 1 / r["players"] and r["games"] == 24
    assert frame.filter(pl.col("players") == 3).height == 1
    # the matrix's first-seat column: the same advantage with its interval
    rows = res.table.filter(pl.col("outcome") == "gaston").unique("matchup", maintain_order=True)
    for r in rows.iter_rows(named=True):
        f = frame.filter(pl.col("matchup") == r["matchup"]).row(0, named=True)
        assert (r["first_seat_low"], r["first_seat_high"]) == (f["advantage_low"], f["advantage_high"])
    with console.capture() as cap:
        console.print(matrix_table(res.table, settings))
    text = " ".join(cap.get().split())
    assert "first - others [95%]" in text and "novice play" in text and "first - others: the first seat's" in text
    assert any(f"{r['first_seat_advantage']:+.1%} [" in text for r in res.table.iter_rows(named=True))


def test_the_command_prints_every_matchup_with_intervals_and_draws_its_plot(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, ["first-seat", "-n", "12", "--level", "Novice", "--max-turns", "30"])
    assert res.exit_code == 0, res.output
    out = " ".join(res.output.split())
    assert "first-seat advantage: 12 games each (seats rotated), seed 0, novice play" in out, res.output
    for m in matchups():  # short names, with their legend
        assert f"│ {short_matchup(m)} " in res.output, m
    assert "G gaston, HK horned-king, LT lady-tremaine; 3p: the 3-player game of all three" in out
    assert out.count("% [") >= 2 * len(matchups())  # the first seat's rate and the advantage, each [95%]
    assert "plot: reports/first-seat-novice.png" in res.output
    assert (tmp_path / "reports/first-seat-novice.png").stat().st_size > 10_000
    bad = runner.invoke(app, ["first-seat", "-n", "12", "--level", "wizard"])
    assert bad.exit_code == 2 and "unknown level 'wizard'" in bad.output
