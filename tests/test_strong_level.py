"""The strong level plays wherever a level is taken, from the shipped equilibria (configs/equilibrium/)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from simlab.cli import app
from simlab.runs.levels import available_levels

runner = CliRunner()

COMMANDS = {
    "run": ["run", "-m", "gaston-vs-horned-king", "-n", "60", "--level", "strong"],
    "matrix": ["matrix", "-n", "30", "--level", "strong", "--png", "{tmp}/m.png"],
    "first-seat": ["first-seat", "-n", "30", "--level", "strong", "--png", "{tmp}/f.png"],
    "goldfish": ["goldfish", "--villain", "gaston", "--level", "strong", "-n", "30"],
    "sweep": ["sweep", "-m", "gaston-vs-horned-king", "--card", "Wolves", "--attribute", "cost", "--values", "1,2"]
    + ["-n", "30", "--level", "strong", "--png", "{tmp}/s.png"],
    "calibrate": ["calibrate", "--games", "configs/real-games-example.csv", "-n", "30", "--levels", "strong"]
    + ["--png", "{tmp}/c.png"],
    "difficulty": ["difficulty", "--villain", "gaston", "-n", "30", "--level", "strong", "--readings", "0"]
    + ["--headline-games", "30"],
    "ladder": ["ladder", "-n", "30", "--villain", "gaston", "--level", "novice", "--level", "strong"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_the_strong_level_plays_in(command, tmp_path):
    assert "strong" in available_levels(), "no shipped equilibrium: configs/equilibrium/ is empty"
    args = [a.replace("{tmp}", str(tmp_path)) for a in COMMANDS[command]]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "strong" in res.output
