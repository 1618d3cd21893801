"""Conventions of typer/rich command lines: --version, shell completion, one JSON document (no bare NaN), CSV,
levels listed as levels only."""

from __future__ import annotations

import csv
import io
import json
import math

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from simlab.cli import app
from simlab.cli.common import csv_text, json_text, output_format

runner = CliRunner()


def refuse(name):
    raise ValueError(f"bare {name} in JSON output")


def strict_json(text: str):
    """``json.loads`` refusing NaN and Infinity, which no strict JSON reader accepts."""
    return json.loads(text, parse_constant=refuse)


def test_version_is_the_package_metadata():
    from importlib.metadata import version

    res = runner.invoke(app, ["--version"])
    assert res.exit_code == 0, res.output
    assert res.output.strip() == f"simlab {version('simlab')}"


def test_help_offers_shell_completion():
    res = runner.invoke(app, ["--help"], env={"COLUMNS": "200"})
    assert res.exit_code == 0
    assert "--install-completion" in res.output and "--show-completion" in res.output


def test_level_help_lists_levels_only():
    from simlab.runs.levels import LEVELS

    res = runner.invoke(app, ["run", "--help"], env={"COLUMNS": "400"})
    assert res.exit_code == 0
    text = " ".join(res.output.replace("│", " ").split())
    assert "case-blind" not in text
    listed = text.split("strength every villain plays at: ")[1].split(" (--strategy")[0]
    assert listed.split(", ") == list(LEVELS)


def test_json_text_has_no_bare_nan_or_infinity():
    frame = pl.DataFrame({"rate": [0.5, float("nan")], "high": [float("inf"), 1.0], "name": ["a", None]})
    data = {"table": frame, "x": np.float64("nan"), "n": np.int64(3), "t": (1, -math.inf)}
    doc = strict_json(json_text(data))
    assert doc == {
        "table": [{"rate": 0.5, "high": None, "name": "a"}, {"rate": None, "high": 1.0, "name": None}],
        "x": None,
        "n": 3,
        "t": [1, None],
    }


def test_csv_text_reads_back():
    frame = pl.DataFrame({"matchup": ["gaston-vs-horned-king", "a, b"], "rate": [0.25, float("nan")]})
    rows = list(csv.DictReader(io.StringIO(csv_text(frame))))
    assert rows == [{"matchup": "gaston-vs-horned-king", "rate": "0.25"}, {"matchup": "a, b", "rate": ""}]


def test_json_and_csv_together_is_one_line_exit_2():
    import typer

    with pytest.raises(typer.Exit) as exc:
        output_format(True, True)
    assert exc.value.exit_code == 2
