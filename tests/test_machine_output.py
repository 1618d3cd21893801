"""Every command that prints a table takes --json (one JSON document, no bare NaN or Infinity: ``json.loads`` with
``parse_constant`` refusing them) and --csv (its main table, read back by the csv module). The commands are
enumerated from the app: a new command must appear here, as a case or as printing no table. The same cases print
their tables on an 80-column terminal: no line wider, no cell cut or wrapped where a short name would do, and a
legend wherever a short name (G, LT, HK, 3p) appears."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
import typer.main
from rich.console import Console
from rich.table import Table
from typer.testing import CliRunner

from simlab.cli import app
from simlab.report import render

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
        + ["--headline-games", "10"]
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


ROOT = Path(__file__).resolve().parents[1]
SHORT = {"G": "G gaston", "LT": "LT lady-tremaine", "HK": "HK horned-king", "3p": "3p: the 3-player game"}


def wrapped_columns(table: Table, width: int = 80) -> list[str]:
    """The columns of ``table`` whose cells (header included) do not all fit on one line at ``width``: wrapped onto
    more lines or cut short. A column declared ``overflow="fold"`` (prose, or names with no short form) may wrap."""
    console = Console(width=width, file=io.StringIO())
    options = console.options.update_width((table.width or width) - table._extra_width)
    widths = table._calculate_column_widths(console, options)
    return [
        str(col.header)
        for col, room in zip(table.columns, widths, strict=True)
        if col.overflow != "fold" and table._measure_column(console, options, col).maximum > room
    ]


@pytest.fixture
def printed_tables(monkeypatch):
    """The console as on an 80-column terminal (its width is read when simlab starts, before a test's env), and
    every table printed on it."""
    tables = []
    monkeypatch.setattr(render.console, "_width", 80)
    show = render.console.print

    def spy(*objects, **options):
        tables.extend(o for o in objects if isinstance(o, Table))
        return show(*objects, **options)

    monkeypatch.setattr(render.console, "print", spy)
    return tables


# commands whose tables do not fit 80 columns yet: each a strict xfail, so fixing one turns its case red until the
# entry goes
WIDE: dict[str, str] = {}


def _wide(name, case):
    if name not in WIDE:
        return case
    args, first = case.values if hasattr(case, "values") else case
    marks = [*getattr(case, "marks", ()), pytest.mark.xfail(reason=WIDE[name], strict=True)]
    return pytest.param(args, first, marks=marks, id=name)


@pytest.mark.parametrize(("args", "first_column"), [_wide(k, c) for k, c in CASES.items()], ids=list(CASES))
def test_tables_fit_80_columns(args, first_column, tmp_path, monkeypatch, printed_tables):
    args = [str(ROOT / a) if "/" in a and (ROOT / a).exists() else a for a in _args(args, tmp_path)]
    monkeypatch.chdir(tmp_path)  # a command's default plot lands here
    out = _invoke(args).stdout
    lines = out.splitlines()
    assert max(map(len, lines)) <= 80, max(lines, key=len)
    assert "…" not in out, [line for line in lines if "…" in line]  # no cell cut short
    assert printed_tables, out[:500]
    cells = set()
    for table in printed_tables:
        assert wrapped_columns(table) == [], f"{table.title}: cells wrap in {wrapped_columns(table)}"
        cells |= {str(c) for col in table.columns for c in col._cells}
    shorts = {w for c in cells for w in re.split(r"[\s>{},()-]+", c) if w in SHORT}
    assert all(SHORT[w] in out for w in shorts), [SHORT[w] for w in shorts if SHORT[w] not in out]
