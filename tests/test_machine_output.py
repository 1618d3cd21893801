"""Every command that prints a table takes --json (one JSON document, no bare NaN or Infinity: ``json.loads`` with
``parse_constant`` refusing them) and --csv (its main table, read back by the csv module). The commands are
enumerated from the app: a new command must appear here, as a case or as printing no table."""

from __future__ import annotations

import csv
import io
import json

import pytest
import typer.main
from typer.testing import CliRunner

from simlab.cli import app

TINY_SEARCH = 'name = "search-tiny"\nbase = "search"\n[params]\nsamples = 2\nhorizon = 1\nhalving = 0\nscreen = 0\n'

runner = CliRunner()
M = ["-m", "gaston-vs-horned-king"]
FAST = ["--threads", "1", "--max-turns", "12"]
SLOW = pytest.mark.slow

# command -> (arguments of a small run, the main table's first column in CSV); slow ones in the slow tier
CASES = {
    "run": (["run", *M, "-n", "40", *FAST], "outcome"),
    "matrix": (["matrix", "-n", "10", *FAST, "--level", "novice"], "matchup"),
    "first-seat": (["first-seat", "-n", "10", *FAST, "--level", "novice"], "matchup"),
    "goldfish": (["goldfish", "--villain", "gaston", "-n", "10", *FAST], None),
    "cards": (["cards", "--villain", "gaston", "-n", "6", *FAST, "--card", "Get Out!", "--level", "novice"], "card"),
    "sweep": (["sweep", *M, "--card", "Get Out!", "--attribute", "cost", "--values", "2,3", "-n", "10", *FAST], None),
    "leverage": (["leverage", *M, "-n", "6", "--board", "none", "--level", "novice", *FAST], None),
    "ladder": (["ladder", "--villain", "gaston", "--level", "novice", "-n", "10", *FAST], "villain"),
    "equilibrium-compare": (["equilibrium-compare", "reports/equilibrium", "reports/equilibrium-start/expert"], None),
    "calibrate": (["calibrate", "--games", "configs/real-games-example.csv", "-n", "6", "--levels", "novice"], None),
    "rules": (["rules"], "variant"),
    "strategies": (["strategies"], "name"),
    "difficulty": pytest.param(
        ["difficulty", "--villain", "gaston", "--vs", "horned-king", "-n", "10", "--readings", "0"]
        + ["--level", "novice", *FAST],
        None,
        marks=SLOW,
    ),
    "fix": pytest.param(
        ["fix", *M, "--level", "novice", "-n", "10", "--screen-games", "6", "--max-edits", "1", "--pool", "2"]
        + ["--show", "1", "--adapt-budget", "0", "--kind", "cost", *FAST, "--report-dir", "REPORT"],
        None,
        marks=SLOW,
    ),
    "tune": (
        ["tune", "--villain", "gaston", "--budget", "40", "--candidate-games", "10", "--validation-games", "10"]
        + ["--popsize", "4", "--objective", "2p:novice=1", "--out", "REPORT/t.toml", *FAST],
        "part",
    ),
    "tune-all": pytest.param(
        ["tune-all", "--rounds", "1", "--budget", "40", "--candidate-games", "10", "--validation-games", "10"]
        + ["--popsize", "4", "--objective", "2p:novice=1", "--matrix-games", "6", "--out", "REPORT/s"]
        + ["--report-dir", "REPORT/r", *FAST],
        "round",
        marks=SLOW,
    ),
    "equilibrium": pytest.param(
        ["equilibrium", *M, "--seed-levels", "novice", "--br-from", "", "--library-games", "0", "--table-games", "6"]
        + ["--iterations", "1", "--budget", "60", "--candidate-games", "10", "--validation-games", "10"]
        + ["--value-games", "10", "--popsize", "4", "--out", "REPORT/m", "--report-dir", "REPORT/r", *FAST],
        None,
        marks=SLOW,
    ),
    "learn": pytest.param(
        ["learn", "REPORT/learning", "-n", "5", "--paired-games", "2", "--generations", "1", "--probe-games", "0"]
        + ["--tuned-games", "5", "--villains", "gaston,horned-king", "--base", "TINY_SEARCH", "--threads", "1"],
        "generation",
        marks=SLOW,
    ),
    "equilibrium-probe": pytest.param(
        ["equilibrium-probe", *M, "-n", "2", "--no-record", "--report-dir", "REPORT", "--threads", "1"],
        None,
        marks=SLOW,
    ),
}
# commands that print a plan line before long work (simlab.studies.workload): here every one is "long", the
# machine's speed file saying a game takes seconds
PLANNED = {"run", "matrix", "first-seat", "goldfish", "cards", "sweep", "leverage", "ladder", "difficulty", "fix"}
PLANNED |= {"calibrate", "tune", "tune-all", "equilibrium"}
NO_TABLE = {"replay": "a game's log", "report": "writes files, prints their path", "warmup": "compile times"}
NO_TABLE |= {"docs-figures": "fills the pages' figures, prints the pages it changed"}


def refuse(name):
    raise ValueError(f"bare {name} in the JSON output")


def _args(args, tmp_path) -> list[str]:
    if "TINY_SEARCH" in args:  # the learning loop's generation 0: a search player of one world, no look ahead
        (tmp_path / "tiny.toml").write_text(TINY_SEARCH)
    return [a.replace("REPORT", str(tmp_path)).replace("TINY_SEARCH", str(tmp_path / "tiny.toml")) for a in args]


@pytest.fixture
def slow_machine(tmp_path, monkeypatch):
    """A speed file in which a game takes ten seconds at every level: every command that plans says so."""
    from simlab.runs.levels import LEVELS
    from simlab.runs.speed import key

    path = tmp_path / "speed.json"
    path.write_text(json.dumps({key(lv, p, t): 0.1 for lv in LEVELS for p in (2, 3) for t in (1, None)}))
    monkeypatch.setenv("SIMLAB_SPEED_FILE", str(path))
    monkeypatch.setattr("simlab.runs.speed._memory", {})


def _invoke(args):
    res = runner.invoke(app, args)
    assert res.exit_code == 0, f"{args}: exit {res.exit_code}\n{res.output}"
    return res


@pytest.mark.parametrize(("args", "first_column"), list(CASES.values()), ids=list(CASES))
def test_json_is_one_strict_document_and_csv_reads_back(args, first_column, tmp_path, slow_machine):
    res = _invoke(_args([*args, "--json"], tmp_path))
    if args[0] in PLANNED:  # on stderr: stdout holds the document only
        plan = [line for line in res.stderr.splitlines() if line.startswith("plan: ")]
        assert len(plan) == 1 and plan[0].startswith(f"plan: {args[0]}, ") and " games in " in plan[0], res.stderr
    doc = json.loads(res.stdout, parse_constant=refuse)
    assert isinstance(doc, dict) and doc
    tables = doc.get("tables", doc)
    assert any(isinstance(v, list) and v and isinstance(v[0], dict) for v in tables.values()), sorted(tables)
    text = _invoke(_args([*args, "--csv"], tmp_path)).stdout
    rows = list(csv.reader(io.StringIO(text)))
    assert len(rows) >= 2 and all(len(r) == len(rows[0]) for r in rows), text[:500]
    if first_column:
        assert rows[0][0] == first_column


def test_every_command_has_a_case():
    commands = set(typer.main.get_command(app).commands)
    assert commands == set(CASES) | set(NO_TABLE), commands ^ (set(CASES) | set(NO_TABLE))


def test_json_with_csv_is_refused_in_one_line():
    res = runner.invoke(app, ["rules", "--json", "--csv"])
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1 and "--json and --csv" in res.output
