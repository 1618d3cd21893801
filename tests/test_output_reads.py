"""Output that reads right: the first-seat advantage defined where printed, an edited run beside its baseline,
an exact zero for identical games, unfinished shares flagged, no inf or nan, and tables that fit 80 columns
without wrapping a row or repeating one."""

from __future__ import annotations

import json

import polars as pl
import pytest
from rich.console import Console
from typer.testing import CliRunner

from simlab.cli import app
from simlab.report import render

runner = CliRunner()
M = ["-m", "gaston-vs-horned-king"]
FAST = ["--threads", "1"]
NARROW = {"COLUMNS": "80"}


@pytest.fixture(autouse=True)
def _narrow(monkeypatch):
    """The console as on an 80-column terminal (its width is read when simlab starts, before a test's env)."""
    monkeypatch.setattr(render.console, "_width", 80)


def invoke(*args, env=None):
    res = runner.invoke(app, list(args), env=env)
    assert res.exit_code == 0, res.output
    return res.stdout


def rows_fit(text: str, width: int = 80) -> None:
    """Every line within ``width`` and every table row on one line: no body line continues the row above it
    (a continuation line's first cell is blank while the row before it is not a group's first row)."""
    lines = text.splitlines()
    assert all(len(line) <= width for line in lines), max(lines, key=len)
    assert "…" not in text, [line for line in lines if "…" in line]  # no cell cut short either
    for above, line in zip(lines, lines[1:], strict=False):
        if line.startswith("│") and above.startswith("│"):
            cells = [c.strip() for c in line.strip("│").split("│")]
            assert any(c for c in cells[1:]) or not cells[0], f"a wrapped row:\n{above}\n{line}"
            assert line != above, f"a repeated row: {line}"


def test_run_defines_first_seat_and_flags_unfinished_games():
    out = invoke("run", *M, "-n", "60", "--max-turns", "3", *FAST, env=NARROW)
    assert "first - others" in out and "the first seat's win rate minus the other seats' mean" in out
    assert "note: " in out and "did not finish in 3 rounds (more than 5%)" in out
    assert "inf" not in out and "nan" not in out
    rows_fit(out)
    calm = invoke("run", *M, "-n", "60", *FAST)
    assert "did not finish in 100 rounds (more than" not in calm


def test_run_edit_prints_the_baseline_and_the_paired_change():
    args = ["run", *M, "-n", "120", "--seed", "3", *FAST]
    edited = json.loads(invoke(*args, "--edit", "Get Out!:cost=2", "--json"))
    plain = json.loads(invoke(*args, "--json"))
    rate = {r["outcome"]: r["rate"] for r in plain["summary"]}
    edited_rate = {r["outcome"]: r["rate"] for r in edited["summary"]}
    for r in edited["edit_change"]:
        assert r["without_edits"] == rate[r["entry"]]  # the same seeds as the unedited run
        assert r["with_edits"] == edited_rate[r["entry"]]
        assert r["change"] == pytest.approx(r["with_edits"] - r["without_edits"])
    text = invoke(*args, "--edit", "Get Out!:cost=2", env=NARROW)
    assert "the edit's effect: the same 120 games without and with" in text
    assert "at strong play" not in text  # the shipped value is the unedited game's: not quoted beside an edit


def test_the_shipped_value_prints_an_exact_zero(tmp_path):
    args = ["sweep", *M, "--card", "Get Out!", "--attribute", "cost", "--values", "4..5", "-n", "300", *FAST]
    doc = json.loads(invoke(*args, "--json"))
    own = [r for r in doc["tables"]["sweep"] if r["value"] == doc["shipped"]]
    assert own and all(r["change"] == r["change_low"] == r["change_high"] == 0 for r in own)
    other = [r for r in doc["tables"]["sweep"] if r["value"] != doc["shipped"]]
    assert all(r["change_low"] < r["change_high"] for r in other)
    text = invoke(*args, "--png", str(tmp_path / "zero.png"))
    assert text.count("0 (same games)") == 2


def test_goldfish_that_never_wins_says_so():
    out = invoke("goldfish", "--villain", "horned-king", "--level", "random", "-n", "10", "--max-turns", "2", *FAST)
    assert "did not finish in 2 turns" in out
    assert "nan" not in out and "inf" not in out
    assert render.turns_text(float("inf"), float("inf"), float("inf"), 100) == "did not finish in 100 turns"
    assert render.turns_text(12.0, 10.0, float("inf"), 100) == "12 [10, > 100]"


def test_game_length_prints_a_row_once():
    stats = {"games": 5, "mean": 9.0, "median": 9.0, "p10": 8.0, "p90": 10.0}
    lengths = pl.DataFrame(
        [
            {"winner": "all games", "measure": "rounds", **stats},
            {"winner": "gaston", "measure": "rounds", **stats},
            {"winner": "gaston", "measure": "winner's turns", **stats},
            {"winner": "unfinished", "measure": "rounds", **stats, "median": 100.0},
        ]
    )
    console = Console(width=80, record=True)
    console.print(render.lengths_table(lengths, 100))
    text = console.export_text()
    assert "rounds = turns" in text and text.count("gaston") == 1
    assert "did not finish" in text and "100 │" not in text
    # equal as printed, not exactly (a winner who can win in another's turn): one row too, said so
    close = lengths.with_columns(
        pl.when(pl.col("measure") == "winner's turns").then(pl.col("mean") + 0.01).otherwise(pl.col("mean"))
    )
    console = Console(width=80, record=True)
    console.print(render.lengths_table(close, 100))
    text = console.export_text()
    assert "rounds and turns" in text and text.count("gaston") == 1


@pytest.mark.parametrize(
    "args",
    [
        ["matrix", "-n", "20", "--level", "novice", "--max-turns", "20", "--png", "reports/test-narrow-matrix.png"],
        ["first-seat", "-n", "20", "--level", "novice", "--max-turns", "20", "--png", "reports/test-narrow-first.png"],
        ["run", "-m", "gaston-vs-horned-king-vs-lady-tremaine", "-n", "30", "--max-turns", "30"],
        ["difficulty", "--villain", "gaston", "--vs", "horned-king", "-n", "10", "--readings", "0"]
        + ["--headline-games", "10"]
        + ["--level", "novice", "--level", "expert", "--max-turns", "30"],
        ["goldfish", "-n", "10", "--max-turns", "30"],
    ],
    ids=["matrix", "first-seat", "run-3p", "difficulty", "goldfish"],
)
def test_tables_fit_80_columns_with_short_names(args, tmp_path):
    args = [str(tmp_path / a.split("/")[-1]) if a.startswith("reports/") else a for a in args]
    out = invoke(*args, *FAST, env=NARROW)
    rows_fit(out)
    if args[0] not in ("run", "goldfish"):
        assert "G gaston" in out and "HK horned-king" in out
    if args[0] in ("matrix", "first-seat"):
        assert "3p: the 3-player game" in out and "first - others" in out
