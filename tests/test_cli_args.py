"""Every command hands its options to the library: the library function a command calls is replaced by a recorder,
the command runs with options other than their defaults, and the arguments the recorder got are checked, each
one (an argument the command passes and the case does not name fails too). The recorder stops the command, so no
game is played. Every command of the app has its case (the last test fails for a command without one)."""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl
import pytest
import typer.main
from typer.testing import CliRunner

from simlab.cli import app
from simlab.data.edits import normalise
from simlab.runs.levels import Level
from simlab.runs.settings import RunSettings
from simlab.studies.workload import Workload

runner = CliRunner()
M = ["-m", "gaston-vs-horned-king"]
RULES = ["--rules", "get_out=exactly_three"]
EDIT = ["--edit", "Get Out!:cost=4"]
EDITS = normalise(["Get Out!:cost=4"])
VARIANTS = (("get_out", "exactly_three"),)
NOVICE = Level("novice")  # a level as the settings hold it, parsed from the option's text


@dataclass
class Shipped:
    """A stand-in for a mixture file's equilibrium."""

    matchup: str


class Called(Exception):
    """The library call was reached: the command stops there."""


class Fields:
    """An argument expected to be an object with these attribute values (a RunSettings, an Objective, ...)."""

    def __init__(self, **values):
        self.values = values

    def check(self, got, name):
        for attr, value in self.values.items():
            if value is CALLABLE:
                assert callable(getattr(got, attr)), f"{name}.{attr}: {getattr(got, attr)!r} is not a function"
            else:
                assert getattr(got, attr) == value, f"{name}.{attr}: {getattr(got, attr)!r} != {value!r}"


CALLABLE = object()  # an argument expected to be a function (a progress callback)


@dataclass
class Case:
    args: list[str]
    target: str  # "module:function", the library call the command makes
    expect: dict  # argument name (as the library function names it) -> value, Fields, CALLABLE or a type
    passes: dict = field(default_factory=dict)  # "module:function" -> value: calls that come first, recorded too
    stubs: dict = field(default_factory=dict)  # "module:name" -> a replacement that is not checked


def settings(**values) -> Fields:
    return Fields(**values)


CARDS = {"games": 30, "seed": 2, "strategies": (("gaston", "novice"),), "variants": VARIANTS, "max_turns": 30}
CARDS |= {"threads": 1, "edits": EDITS, "level": NOVICE}

CASES = {
    "run": Case(
        ["run", *M, "-n", "123", "--seed", "5", "--strategy", "gaston=novice", *RULES, "--max-turns", "40"]
        + ["--threads", "1", "--first", "horned-king", *EDIT, "--level", "novice", "--out", "games.parquet"]
        + ["--target-ci", "0.05", "--checkpoint", "ckpt", "--json"],
        "simlab.runs.sim:run",
        {
            "matchup": "gaston-vs-horned-king",
            "settings": settings(
                games=123,
                seed=5,
                level=NOVICE,
                strategies=(),  # the --strategy items are the matchup's: below
                variants=VARIANTS,
                max_turns=40,
                threads=1,
                edits=EDITS,
                progress=None,  # --json: no bar
            ),
            "strategies": {"gaston": "novice"},
            "first": "horned-king",
            "out": "games.parquet",
            "target_ci": 0.05,
            "keep_games": False,
            "checkpoint": "ckpt",
        },
    ),
    "matrix": Case(
        ["matrix", "-n", "77", "--seed", "4", "--strategy", "gaston=novice", *RULES, "--max-turns", "30"]
        + ["--threads", "1", "--png", "m.png", *EDIT, "--level", "novice"],
        "simlab.studies.matchups:matrix",
        {
            "settings": settings(
                games=77,
                seed=4,
                level=NOVICE,
                strategies=(("gaston", "novice"),),
                variants=VARIANTS,
                max_turns=30,
                threads=1,
                edits=EDITS,
            )
        },
    ),
    "first-seat": Case(
        ["first-seat", "-n", "55", "--seed", "4", "--strategy", "gaston=novice", *RULES, "--max-turns", "30"]
        + ["--threads", "1", "--png", "f.png", *EDIT, "--level", "Novice"],
        "simlab.studies.matchups:matrix",
        {
            "settings": settings(
                games=55,
                seed=4,
                level=NOVICE,
                strategies=(("gaston", "novice"),),
                variants=VARIANTS,
                max_turns=30,
                threads=1,
                edits=EDITS,
            )
        },
    ),
    "replay": Case(
        ["replay", *M, "--seed", "6", "--game", "3", "--strategy", "horned-king=novice", *RULES, "--max-turns", "25"],
        "simlab.game.replay:replay",
        {
            "matchup": ("horned-king", "gaston"),  # game 3 of a run: the seats rotated once
            "seed": 6,
            "game_index": 3,
            "strategies": ("novice", "expert"),
            "variants": {"get_out": "exactly_three"},
            "max_turns": 25,
        },
    ),
    "goldfish": Case(
        ["goldfish", "--villain", "gaston", "--villain", "horned-king", "-n", "50", "--seed", "3"]
        + ["--strategy", "novice", *RULES, "--max-turns", "30", "--threads", "1", "--level", "Tuned"],
        "simlab.studies.ladder:goldfish_table",
        {
            "villains": ["gaston", "horned-king"],
            "strategies": ["Tuned", "novice"],  # levels first (read case-blind by the study), then strategies
            "settings": settings(games=50, seed=3, variants=VARIANTS, max_turns=30, threads=1),
        },
    ),
    "cards": Case(
        ["cards", "--villain", "gaston", "-n", "30", "--seed", "2", "--strategy", "gaston=novice", *RULES]
        + [
            "--max-turns",
            "30",
            "--threads",
            "1",
            *EDIT,
            "--card",
            "Wolves",
            "--png",
            "impact.png",
            "--level",
            "novice",
        ],
        "simlab.studies.impact:ablation",
        {
            "villain": "gaston",
            "cards": ["Wolves"],
            "settings": settings(**CARDS, progress=CALLABLE),  # the bar counts the ablation's games
        },
        passes={
            "simlab.studies.impact:observational": {
                "villain": "gaston",
                "settings": settings(**CARDS, progress=CALLABLE),  # one bar over both parts
            }
        },
    ),
    "sweep": Case(
        ["sweep", *M, "--card", "Get Out!", "--attribute", "cost", "--values", "3..5", "-n", "40", "--seed", "3"]
        + ["--strategy", "gaston=novice", "--rules", "lucifer_trap=on_play", "--max-turns", "30", "--threads", "1"]
        + ["--edit", "Wolves:cost=2", "--png", "s.png", "--level", "Novice"],
        "simlab.studies.whatif:sweep",
        {
            "matchup": "gaston-vs-horned-king",
            "n_games": None,
            "values": ["3", "4", "5"],
            "card": "Get Out!",
            "attribute": "cost",
            "rule": None,
            "settings": settings(
                games=40,
                seed=3,
                level=NOVICE,
                strategies=(("gaston", "novice"),),
                variants=(("lucifer_trap", "on_play"),),
                max_turns=30,
                threads=1,
                edits=normalise(["Wolves:cost=2"]),
            ),
        },
    ),
    "learn": Case(
        ["learn", "lrn", "-n", "7", "--paired-games", "9", "--generations", "2", "--probe-games", "3"]
        + ["--tuned-games", "6", "--retries", "1", "--base", "search", "--villains", "gaston,horned-king"]
        + ["--seed", "4", "--threads", "1", "--json"],
        "simlab.studies.expert_iteration:learn",
        {
            "folder": "lrn",
            "settings": settings(
                games=7,
                paired_games=9,
                generations=2,
                seed=4,
                base="search",
                tuned_games=6,
                probe_games=3,
                retries=1,
                villains=("gaston", "horned-king"),
                threads=1,
            ),
            "progress": CALLABLE,  # --json: no bar, but the plan line and, logged to a file, a line a step
        },
    ),
    "difficulty": Case(
        ["difficulty", "--villain", "gaston", "--vs", "horned-king", "-n", "30", "--search-games", "3"]
        + ["--headline-games", "30"]
        + ["--seed", "2", *RULES, "--max-turns", "30", "--threads", "1", *EDIT, "--level", "novice"]
        + ["--level", "expert", "--readings", "1", "--rescreen", "--screen-games", "20"],
        "simlab.studies.robust:robust_difficulty",
        {
            "villains": ("gaston", "horned-king"),
            "levels": ["novice", "expert"],
            "readings": 1,
            "rescreen": True,
            "screen_games": 20,
            "progress": CALLABLE,
            "settings": settings(games=30, seed=2, variants=VARIANTS, max_turns=30, threads=1, edits=EDITS),
            "search_games": 3,
        },
    ),
    "leverage": Case(
        ["leverage", "-n", "30", "--seed", "2", "--level", "novice", *M, "--board", "none", "--no-rules"]
        + ["--perturb", "obstacles_cover_actions=yes", *RULES, *EDIT, "--max-turns", "30", "--threads", "1"]
        + ["--top", "5", "--out", "lev.csv", "--png", "lev.png"],
        "simlab.studies.leverage:leverage",
        {
            "rules": False,
            "board": "none",
            "perturbations": ["obstacles_cover_actions=yes"],
            "matchups": ["gaston-vs-horned-king"],
            "settings": settings(
                games=30, seed=2, level=NOVICE, variants=VARIANTS, max_turns=30, threads=1, edits=EDITS
            ),
        },
    ),
    "ladder": Case(
        ["ladder", "--villain", "gaston", "--level", "novice", "--level", "expert", "--opponent", "random"]
        + ["-n", "40", "--search-games", "2", "--seed", "2", *RULES, "--max-turns", "30", "--threads", "1"],
        "simlab.studies.ladder:skill_ladder",
        {
            "villains": ["gaston"],
            "levels": ["novice", "expert"],
            "opponent": "random",
            "search_games": 2,
            "settings": settings(games=40, seed=2, variants=VARIANTS, max_turns=30, threads=1),
        },
    ),
    "tune": Case(
        ["tune", "--villain", "gaston", "--budget", "5000", "--candidate-games", "100", "--validation-games", "50"]
        + ["--seed", "4", "--start", "novice", "--opponent", "horned-king=novice", "--param", "noise"]
        + ["--popsize", "4", "--objective", "2p:current=1", "--drop-penalty", "1.5", *RULES, "--max-turns", "30"]
        + ["--threads", "1", "--out", "t.toml"],
        "simlab.studies.tune:tune",
        {
            "villain": "gaston",
            "budget": 5000,
            "start": "novice",
            "opponents": {"horned-king": "novice"},
            "candidate_games": 100,
            "validation_games": 50,
            "popsize": 4,
            "params": ["noise"],
            "out": "t.toml",
            "progress": CALLABLE,
            "objective": Fields(text="2p:current=1", drop_penalty=1.5),
            "settings": settings(seed=4, variants=VARIANTS, max_turns=30, threads=1),
        },
    ),
    "tune-all": Case(
        ["tune-all", "--rounds", "2", "--budget", "5000", "--candidate-games", "100", "--validation-games", "50"]
        + ["--seed", "4", "--start", "novice", "--popsize", "4", "--objective", "2p:current=1,3p:novice=1"]
        + ["--drop-penalty", "1.5", "--matrix-games", "30", *RULES, "--max-turns", "30", "--threads", "1"]
        + ["--out", "tuned", "--report-dir", "rep"],
        "simlab.studies.tune:iterated_best_response",
        {
            "rounds": 2,
            "budget": 5000,
            "start_level": "novice",
            "candidate_games": 100,
            "validation_games": 50,
            "matrix_games": 30,
            "popsize": 4,
            "out_dir": "tuned",
            "report_dir": "rep",
            "progress": CALLABLE,
            "objective": Fields(text="2p:current=0.5,3p:novice=0.5", drop_penalty=1.5),
            "settings": settings(seed=4, variants=VARIANTS, max_turns=30, threads=1),
        },
    ),
    "equilibrium": Case(
        ["equilibrium", *M, "--seed-strategy", "gaston=novice", "--seed-levels", "expert", "--table-games", "100"]
        + ["--epsilon", "0.05", "--iterations", "3", "--budget", "5000", "--candidate-games", "100"]
        + ["--validation-games", "50", "--value-games", "60", "--popsize", "4", "--seed", "4", *RULES]
        + ["--max-turns", "30", "--threads", "1", "--checkpoint", "ck", "--out", "eq", "--report-dir", "rep"]
        + ["--br-from", "tuned,novice", "--library-games", "40", "--library", "lib"],
        "simlab.studies.equilibrium:equilibrium",
        {
            "matchup": "gaston-vs-horned-king",
            "seed_strategies": {"gaston": ["novice"]},
            "seed_levels": ("expert",),
            "options": Fields(
                table_games=100,
                epsilon=0.05,
                iterations=3,
                budget=5000,
                candidate_games=100,
                validation_games=50,
                value_games=60,
                popsize=4,
                br_from=("tuned", "novice"),
                library_games=40,
            ),
            "library": {"gaston": ["gaston from lib"], "horned-king": ["horned-king from lib"]},
            "checkpoint": Path("ck"),
            "progress": CALLABLE,
            "settings": settings(seed=4, variants=VARIANTS, max_turns=30, threads=1),
        },
        stubs={"simlab.studies.equilibrium:library_strategies": lambda v, folders: [f"{v} from {','.join(folders)}"]},
    ),
    "equilibrium-probe": Case(
        ["equilibrium-probe", "--mixtures", "probe-mixtures", "-n", "12", "--epsilon", "0.04", "--strategy", "search"]
        + ["--seed", "5", "--threads", "1", "--report-dir", "probe-rep", "--no-record"],
        "simlab.studies.equilibrium:search_probe",
        {
            "result": Fields(matchup="gaston-vs-horned-king"),
            "games": 12,
            "epsilon": 0.04,
            "search": "search",
            "settings": settings(seed=5, threads=1),
        },
        stubs={
            "simlab.studies.equilibrium:shipped_files": lambda folder, matchups: [Path(folder) / "g.toml"],
            "simlab.studies.equilibrium:read_equilibrium_file": lambda path: Shipped("gaston-vs-horned-king"),
        },
    ),
    "equilibrium-compare": Case(
        ["equilibrium-compare", "one", "two", "--epsilon", "0.03"],
        "simlab.studies.equilibrium:compare_starts",
        {"first": "one", "second": "two", "epsilon": 0.03},
    ),
    "fix": Case(
        ["fix", "--band", "40-60", *M, "-m", "gaston-vs-lady-tremaine", "--level", "novice", "--max-edits", "2"]
        + ["--edits-from", "allowed.txt", "--with-rules", "--kind", "cost", "--kind", "copies", "-n", "300"]
        + ["--screen-games", "100", "--beam", "3", "--pool", "5", "--show", "2", "--adapt-budget", "900"]
        + ["--recheck", "4", "--impact-cards", "1"]
        + ["--adapt-candidate-games", "50", "--adapt-validation-games", "70", "--seed", "4", *RULES, *EDIT]
        + ["--max-turns", "30", "--threads", "1", "--checkpoint", "ck", "--report-dir", "rep"],
        "simlab.studies.fix:fix",
        {
            "band": Fields(low=0.4, high=0.6),
            "matchups": ["gaston-vs-horned-king", "gaston-vs-lady-tremaine"],
            "options": Fields(
                max_edits=2,
                screen_games=100,
                beam=3,
                pool=5,
                show=2,
                kinds=("cost", "copies", "rules"),
                adapt_budget=900,
                adapt_candidate_games=50,
                adapt_validation_games=70,
                recheck=4,
                impact_cards=1,
            ),
            "edits_from": "allowed.txt",
            "checkpoint": "ck",
            "progress": CALLABLE,
            "settings": settings(
                games=300, seed=4, level=NOVICE, variants=VARIANTS, max_turns=30, threads=1, edits=EDITS
            ),
        },
        # the plan reads --edits-from, which this case does not write: none
        stubs={"simlab.studies.workload:fix": lambda *args: Workload("fix", ())},
    ),
    "calibrate": Case(
        ["calibrate", "--games", "real.csv", "-n", "30", "--seed", "3", "--levels", "novice,expert"]
        + ["--rules", "get_out=up_to_three,exactly_three", "--max-turns", "40", "--threads", "1", "--png", "c.png"],
        "simlab.studies.calibration:calibrate",
        {
            "games": "real.csv",
            "levels": ["novice", "expert"],
            "rules": {"get_out": ["up_to_three", "exactly_three"]},
            "settings": settings(games=30, seed=3, max_turns=40, threads=1),
        },
    ),
    "report": Case(
        ["report", "--config", "argcheck.toml", "--out", "out", "--threads", "1", "--level", "novice"],
        "simlab.report.build:build_report",
        {
            "exp": Fields(name="argcheck", seed=9, games=11),
            "out_dir": "out",
            "threads": 1,
            "progress": CALLABLE,
            "level": "novice",
            "announce": CALLABLE,
        },
    ),
    "docs-figures": Case(["docs-figures", "--check"], "simlab.report.figures:stale_pages", {}),
    "rules": Case(["rules"], "simlab.data.rules:variants_table", {}),
    "strategies": Case(["strategies", "novice"], "strategies:parameter_table", {"strategy": "novice"}),
    "warmup": Case(
        ["warmup"],
        "simlab.game.warmup:ensure",
        {"search": True},
        stubs={"simlab.game.warmup:cached": lambda: False},  # as if nothing were compiled yet
    ),
}


def _recorder(target: str, calls: dict, stop: bool):
    module_name, name = target.split(":")
    real = getattr(importlib.import_module(module_name), name)
    signature = inspect.signature(real)

    def record(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        given = dict(bound.arguments)
        for kind in inspect.Parameter.VAR_KEYWORD, inspect.Parameter.VAR_POSITIONAL:
            for p in signature.parameters.values():
                if p.kind == kind and p.name in given:  # **given: its keywords as arguments of their own
                    extra = given.pop(p.name)
                    given.update(extra if isinstance(extra, dict) else {f"*{p.name}": extra})
        calls[target] = given
        if stop:
            raise Called(target)

    return module_name, name, record


def check_arguments(got: dict, expect: dict, where: str) -> None:
    assert set(got) == set(expect), f"{where}: arguments {sorted(got)}, the case names {sorted(expect)}"
    for name, value in expect.items():
        if isinstance(value, Fields):
            value.check(got[name], f"{where} {name}")
        elif value is CALLABLE:
            assert callable(got[name]), f"{where} {name}: {got[name]!r} is not a function"
        else:
            assert got[name] == value, f"{where} {name}: {got[name]!r} != {value!r}"


@pytest.mark.parametrize("command", sorted(CASES))
def test_the_command_hands_its_options_to_the_library(command, tmp_path, monkeypatch):
    case = CASES[command]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "argcheck.toml").write_text('name = "argcheck"\nseed = 9\ngames = 11\n')
    calls: dict = {}
    for target in case.passes:
        module_name, name, record = _recorder(target, calls, stop=False)
        monkeypatch.setattr(importlib.import_module(module_name), name, record)
    module_name, name, record = _recorder(case.target, calls, stop=True)
    monkeypatch.setattr(importlib.import_module(module_name), name, record)
    for target, stub in case.stubs.items():
        module_name, name = target.split(":")
        monkeypatch.setattr(importlib.import_module(module_name), name, stub)
    res = runner.invoke(app, case.args)
    assert isinstance(res.exception, Called), (res.exit_code, res.output, res.exception)
    for target, expect in case.passes.items():
        assert target in calls, f"{command} did not call {target}"
        check_arguments(calls[target], expect, f"{command} -> {target}")
    check_arguments(calls[case.target], case.expect, f"{command} -> {case.target}")


def test_the_check_fails_on_an_argument_that_did_not_arrive():
    got = {"seed": 5, "settings": RunSettings(games=10, seed=2), "progress": None}
    check_arguments(got, {"seed": 5, "settings": settings(games=10, seed=2), "progress": None}, "ok")
    with pytest.raises(AssertionError, match="seed: 5 != 6"):
        check_arguments(got, {"seed": 6, "settings": settings(games=10), "progress": None}, "x")
    with pytest.raises(AssertionError, match="settings.games: 10 != 11"):
        check_arguments(got, {"seed": 5, "settings": settings(games=11), "progress": None}, "x")
    with pytest.raises(AssertionError, match="arguments"):  # one passed that the case does not name
        check_arguments(got, {"seed": 5, "settings": settings(games=10)}, "x")
    with pytest.raises(AssertionError, match="is not a function"):
        check_arguments(got, {"seed": 5, "settings": settings(), "progress": CALLABLE}, "x")


def test_tune_all_draws_the_trajectory_the_study_returns(tmp_path, monkeypatch):
    # the study writes frames only; the command plots the matrix of every round into --report-dir
    from simlab.studies import tune as tuning
    from simlab.studies.matchups import matrix

    m = matrix(n_games=6, seed=1, max_turns=20, threads=1)
    trajectory = m.table.with_columns(pl.lit(0).alias("round")).select("round", *m.table.columns)
    result = tuning.IteratedBestResponse({}, pl.DataFrame(), trajectory, 0, True)
    monkeypatch.setattr(tuning, "iterated_best_response", lambda *a, **k: result)
    res = runner.invoke(app, ["tune-all", "--report-dir", str(tmp_path / "rep"), "--out", str(tmp_path / "t")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "rep" / "trajectory.png").stat().st_size > 0
    assert f"trajectory: {tmp_path / 'rep'}/trajectory.png" in " ".join(res.output.split())


def test_every_command_has_its_case():
    commands = set(typer.main.get_command(app).commands)
    assert commands == set(CASES), f"commands without a case: {sorted(commands - set(CASES))}"
