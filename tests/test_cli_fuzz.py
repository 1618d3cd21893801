"""Fuzzing the command line: random argument lists built from every command's real option names with
hostile values, and random TOML documents handed over as strategy, experiment, report and mixture files. Every run
ends with exit code 0 or 2 and never a traceback, and nothing is written outside the temporary folder it runs in.

The default test stops each command at its first game (the input is checked before any game is played, so what is
left is play, which the other tests cover) and runs in seconds; the ``slow`` one plays the cheap commands for real on
one or two games, so the writes after the games are fuzzed too."""

from __future__ import annotations

import json
import math
import os
import subprocess
from pathlib import Path

import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from simlab.cli import app

runner = CliRunner()
REPO = Path(__file__).resolve().parents[1]
COMMANDS = dict(typer.main.get_command(app).commands)
OPTIONS = {
    name: sorted(o for p in cmd.params for o in p.opts if o.startswith("-") and o != "--help")
    for name, cmd in COMMANDS.items()
}
# a game count, a search budget: kept tiny so that a command that accepts its input ends at once
TINY = {
    "-n": "1",
    "--budget": "2",
    "--candidate-games": "1",
    "--validation-games": "1",
    "--table-games": "1",
    "--value-games": "1",
    "--matrix-games": "1",
    "--rounds": "1",
    "--iterations": "1",
    "--search-games": "1",
    "--screen-games": "1",
    "--headline-games": "1",
    "--probe-games": "0",
    "--readings": "0",
    "--popsize": "2",
}
HOSTILE = [
    "",
    " ",
    "0",
    "-1",
    "1",
    "2",
    "1e99",
    "99999999999999999999999",
    "nan",
    "inf",
    "1,,2",
    ",",
    "a,,b",
    "gaston",
    "jafar",
    "gaston-vs-horned-king",
    "gaston-vs-gaston-vs-gaston-vs-gaston",
    "expert",
    "novice",
    "search",
    "wizard",
    "get_out=exactly_three",
    "get_out=up_to_three",
    "get_out=sometimes",
    "gaston=expert",
    "gaston=novice",
    "gaston=doc.toml",
    "Get Out!:cost=3",
    "Get Out!:cost=-3",
    "board:Morva:flip",
    "board:Morva:flip + get_out=exactly_three + get_out=up_to_three",
    "doc.toml",
    "missing.toml",
    "../up.png",
    "../up.parquet",
    "out.png",
    "out.csv",
    "out.parquet",
    "out.toml",
    "folder",
    "/proc/x.png",
    "/proc/x",
    "/dev/null/x.png",
    "x\0y.png",
    "é",
    "--",
    "-n",
    "local",
    "spark",
    "notaurl",
]
KEYS = [
    "name",
    "description",
    "matchup",
    "games",
    "seed",
    "max_turns",
    "first",
    "level",
    "threads",
    "strategies",
    "rules",
    "cards",
    "board",
    "sweep",
    "report",
    "backend",
    "base",
    "params",
    "strategy",
    "villain",
    "weight",
    "values",
    "card",
    "attribute",
    "rule",
    "villains",
    "search_games",
    "leverage_perturb",
    "gaston",
    "get_out",
    "Get Out!",
    "cost",
    "fate_value",
    "obstacle_value",
    "plan",
    "",
    "é\n",
]
SCALARS = st.one_of(
    st.sampled_from(HOSTILE + ["../../../escape", "/tmp/simlab-fuzz-escape", ".", ".."]),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.sampled_from([0, 1, 2, 3, 20, -1, 2**63, 10**6]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(max_size=8),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=12,
)


def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, str):
        return json.dumps(v)  # a TOML basic string, but for \u escapes of surrogates (then: not valid TOML)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(x)}" for k, x in v.items()) + "}"


def toml_document(doc: dict, nest: int) -> str:
    """``doc`` as TOML text, its first table wrapped in ``nest`` more inline tables (past the depth limit)."""
    lines = []
    for k, v in doc.items():
        lines.append(f"{json.dumps(k)} = {'{x = ' * nest}{toml_value(v)}{'}' * nest}")
        nest = 0
    return "\n".join(lines) + "\n"


DOCUMENTS = st.one_of(
    st.builds(
        toml_document, st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=6), st.sampled_from([0, 0, 0, 20, 3000])
    ),
    st.text(max_size=60),  # mostly not TOML at all
    st.binary(max_size=40).map(lambda b: b.decode("latin-1")),
)


@st.composite
def command_lines(draw):
    name = draw(st.sampled_from(sorted(COMMANDS)))
    options = OPTIONS[name]
    args = [name]
    for _ in range(draw(st.integers(0, 5))):
        option = draw(st.sampled_from(options)) if options else "--frobnicate"
        args.append(option)
        if draw(st.integers(0, 9)):  # now and then a flag without its value, or two options in a row
            args.append(draw(st.sampled_from(HOSTILE)))
    return args


def with_tiny_counts(args: list[str]) -> list[str]:
    """``args`` with every game count and budget its command takes set tiny at the end (the last one counts)."""
    known = OPTIONS.get(args[0], [])
    return args + [x for opt, value in TINY.items() if opt in known for x in (opt, value)]


def file_runs(path: str) -> list[list[str]]:
    m = "gaston-vs-horned-king"
    return [
        ["strategies", path],
        ["run", "--config", path],
        ["run", "-m", m, "--strategy", f"gaston={path}"],
        ["run", "-m", m, "--strategy", f"gaston={path}#gaston"],  # a mixture file
        ["report", "--config", path, "--out", "reports"],
        ["sweep", "--config", path],
    ]


class FirstGame(BaseException):
    """Raised where the first game would start: the input was accepted."""


def first_game(*args, **kwargs):
    raise FirstGame


def outside(root: Path) -> dict:
    """What the runs could have touched outside ``root``: the folder beside it, /tmp and the checkout."""
    status = subprocess.run(["git", "status", "--porcelain", "--ignored"], cwd=REPO, capture_output=True, text=True)
    return {
        "beside": sorted(p.name for p in root.parent.iterdir()),
        "tmp": sorted(p for p in os.listdir("/tmp") if "simlab" in p or "escape" in p),
        "repo": status.stdout,
    }


def invoke(args: list[str]) -> None:
    try:
        res = runner.invoke(app, args)
    except FirstGame:  # the CliRunner lets a BaseException through
        return
    assert res.exit_code in (0, 2), (args, res.exit_code, res.output, res.exception)
    assert "Traceback" not in res.output, (args, res.output)
    assert res.exit_code == 0 or isinstance(res.exception, SystemExit), (args, res.exception)
    if res.exit_code == 2:
        lines = res.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (args, res.output)


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """A working folder ``tmp_path/work`` (``..`` is still inside ``tmp_path``) with a strategy file and a folder."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "doc.toml").write_text('base = "novice"\n')
    (work / "folder").mkdir()
    monkeypatch.chdir(work)
    before = outside(tmp_path)
    yield work
    assert outside(tmp_path) == before, "a run wrote outside its temporary folder"


def fuzz(work: Path, data, play: bool) -> None:
    args = data.draw(command_lines(), label="args")
    invoke(with_tiny_counts(args) if play else args)
    doc = data.draw(DOCUMENTS, label="document")
    (work / "fuzz.toml").write_text(doc, encoding="utf-8", errors="surrogatepass")
    run = data.draw(st.sampled_from(file_runs("fuzz.toml")), label="file run")
    invoke(with_tiny_counts(run) if play else run)


FAST = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)


@FAST
@given(data=st.data())
def test_the_command_line_however_called_is_exit_0_or_2(sandbox, monkeypatch, data):
    from simlab.game import warmup

    monkeypatch.setattr(warmup, "ensure", first_game)
    fuzz(sandbox, data, play=False)


CHEAP = ("run", "matrix", "replay", "goldfish", "cards", "sweep", "strategies", "rules")


@pytest.mark.slow
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(data=st.data())
def test_the_cheap_commands_played_for_real_are_exit_0_or_2(sandbox, data):
    args = data.draw(command_lines().filter(lambda a: a[0] in CHEAP), label="args")
    invoke(with_tiny_counts(args) + (["--max-turns", "3"] if "--max-turns" in OPTIONS[args[0]] else []))
    doc = data.draw(DOCUMENTS, label="document")
    (sandbox / "fuzz.toml").write_text(doc, encoding="utf-8", errors="surrogatepass")
    run = [a for a in data.draw(st.sampled_from(file_runs("fuzz.toml")), label="file run") if a != "report"]
    if run[0] in CHEAP:
        invoke(with_tiny_counts(run) + ["--max-turns", "3"] if "--max-turns" in OPTIONS[run[0]] else run)
