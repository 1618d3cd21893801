"""Every table, plot title and JSON output says the level the games were played at, and the strategies that differ
from it (run, matrix, sweep and cards once defaulted to expert without saying so); plot files are named after
what they show, and a plot that replaces a file says so."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from simlab.cli import app
from simlab.runs.levels import play_label
from simlab.runs.settings import RunSettings
from strategies import STRATEGIES

runner = CliRunner()
M = ["-m", "gaston-vs-horned-king"]
WIDE = {"COLUMNS": "250"}


def words(text: str) -> str:
    return " ".join(text.split())


def test_the_play_label_names_the_level_and_the_strategies_that_differ():
    assert play_label({"gaston": "expert", "horned-king": "expert"}) == "expert play"
    assert play_label({"gaston": "novice", "horned-king": "novice"}) == "novice play"  # no level given: theirs
    assert play_label({"gaston": "novice", "horned-king": "expert"}, "expert") == "expert play; gaston: novice"
    assert play_label([("gaston", "novice"), ("gaston", "expert")], "Novice") == "novice play; gaston: expert"
    # a spec (what a mixture or a strategy object plays) by its name, never its text
    assert play_label([("gaston", STRATEGIES["novice"]), ("horned-king", STRATEGIES["expert"])], "expert") == (
        "expert play; gaston: novice"
    )
    assert RunSettings(games=5, level="tuned", strategies={"gaston": "novice"}).play_label() == (
        "tuned play; gaston: novice"
    )


def test_run_names_its_level_in_the_tables_and_the_json():
    res = runner.invoke(app, ["run", *M, "-n", "20", "--level", "novice"], env=WIDE)
    assert res.exit_code == 0, res.output
    assert "20 games, seed 0, novice play" in words(res.output), res.output
    res = runner.invoke(app, ["run", *M, "-n", "20"], env=WIDE)
    assert "20 games, seed 0, expert play" in words(res.output), res.output  # the default, said
    res = runner.invoke(app, ["run", *M, "-n", "20", "--level", "novice", "--strategy", "gaston=expert", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["play"] == "novice play; gaston: expert"


def test_matrix_names_its_level_and_its_plot_after_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, ["matrix", "-n", "6", "--level", "novice", "--max-turns", "20"], env=WIDE)
    assert res.exit_code == 0, res.output
    assert "6 games each, seed 0, novice play" in words(res.output), res.output
    assert "plot: reports/matrix-novice.png" in res.output and (tmp_path / "reports/matrix-novice.png").is_file()
    res = runner.invoke(app, ["matrix", "-n", "6", "--level", "novice", "--max-turns", "20"], env=WIDE)
    assert "plot: reports/matrix-novice.png (replaced the file that was there)" in words(res.output), res.output


SWEEP = [*M, "--card", "Get Out!", "--attribute", "cost", "--values", "4,5", "-n", "10", "--max-turns", "20"]


def test_sweep_takes_a_level_names_it_and_does_not_overwrite_another_sweeps_plot(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, ["sweep", *SWEEP, "--level", "Novice", "--strategy", "horned-king=expert"], env=WIDE)
    assert res.exit_code == 0, res.output
    assert "(seed 0), novice play; horned-king: expert" in words(res.output), res.output
    novice = "reports/sweep-gaston-vs-horned-king-get-out-cost-novice.png"
    assert f"plot: {novice}" in res.output and (tmp_path / novice).is_file()
    res = runner.invoke(app, ["sweep", *SWEEP], env=WIDE)
    assert res.exit_code == 0, res.output
    assert "(seed 0), expert play" in words(res.output), res.output
    expert = "reports/sweep-gaston-vs-horned-king-get-out-cost-expert.png"
    assert f"plot: {expert}" in res.output and "replaced" not in res.output  # a new file beside the first
    assert (tmp_path / novice).is_file() and (tmp_path / expert).is_file()


def test_cards_and_goldfish_take_a_level_and_name_it():
    res = runner.invoke(
        app,
        ["cards", "--villain", "gaston", "-n", "8", "--no-causal", "--level", "novice", "--max-turns", "20"],
        env=WIDE,
    )
    assert res.exit_code == 0, res.output
    assert "8 games vs each other villain, seed 0, novice play" in words(res.output), res.output
    res = runner.invoke(app, ["goldfish", "--villain", "gaston", "-n", "8", "--level", "random"], env=WIDE)
    assert res.exit_code == 0, res.output
    assert "seed 0; levels random)" in words(res.output) and "│ random │" in res.output, res.output


@pytest.mark.parametrize("level", ["Expert", "NOVICE"])
def test_a_level_in_capitals_is_the_level(level):
    res = runner.invoke(app, ["run", *M, "-n", "4", "--level", level], env=WIDE)
    assert res.exit_code == 0 and f"{level.lower()} play" in res.output, res.output
