"""Issue 58, "validate everything before the first game": every command, one bad value per option, each refused with
exit code 2 in one line, within 5 s of CPU, before any game, writing no file. Slow tier: about 200 cases."""

from __future__ import annotations

import shutil
import signal
import time
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from simlab.cli import app

M = "gaston-vs-horned-king"
# the options each command needs to run at all (valid, cheap), before the one bad value is added
BASE = {
    "run": ["-m", M, "-n", "20", "--threads", "1"],
    "matrix": ["-n", "20", "--threads", "1"],
    "first-seat": ["-n", "20", "--threads", "1"],
    "replay": ["--matchup", M],
    "goldfish": ["--villain", "gaston", "-n", "20", "--threads", "1"],
    "cards": ["--villain", "gaston", "-n", "20", "--threads", "1"],
    "sweep": ["-m", M, "--card", "Get Out!", "--attribute", "cost", "--values", "3,4", "-n", "20", "--threads", "1"],
    "difficulty": ["--villain", "gaston", "-n", "20", "--headline-games", "20", "--threads", "1"],
    "leverage": ["--matchup", M, "-n", "20", "--threads", "1"],
    "ladder": ["--villain", "gaston", "-n", "20", "--threads", "1"],
    "fix": ["--matchup", M, "-n", "20", "--threads", "1"],
    "equilibrium": ["-m", M, "--threads", "1"],
    "equilibrium-compare": ["missing-a", "missing-b"],
    "equilibrium-probe": ["-m", M, "--threads", "1"],
    "tune": ["--villain", "gaston", "--threads", "1"],
    "tune-all": ["--threads", "1"],
    "calibrate": ["--games", "log.csv", "-n", "20", "--threads", "1"],
    "report": ["--threads", "1"],
    "strategies": ["expert"],
    "learn": ["lrn", "--threads", "1"],
}
# option -> a bad value (a command's own entry, "command option", wins)
BAD = {
    "--matchup": "gaston-vs-nobody",
    "-n": "0",
    "--seed": "-1",
    "--strategy": "gaston=no-such-strategy",
    "equilibrium-probe --strategy": "no-such-strategy",
    "--rules": "no_such_rule=1",
    "--max-turns": "0",
    "--threads": "0",
    "--first": "nobody",
    "--edit": "No Such Card:cost=1",
    "--level": "wizard",
    "--levels": "wizard",
    "--config": "missing.toml",
    "--backend": "nowhere",
    "--scheduler": "not an address",
    "--connect-timeout": "0",
    "--fallback": "remote",
    "--checkpoint": "afile",
    "--resume": "missing-dir",
    "--out": "afile",
    "run --out": "games.txt",
    "leverage --out": "table.txt",
    "tune --out": "strategy.txt",
    "--target-ci": "2",
    "--png": "plot.txt",
    "--game": "-1",
    "--villain": "nobody",
    "--card": "No Such Card",
    "--attribute": "nope",
    "--rule": "no_such_rule",
    "--values": "3,,4",
    "--vs": "nobody",
    "--search-games": "-1",
    "--readings": "-1",
    "--reading": "nonsense",
    "--screen-games": "0",
    "--headline-games": "0",
    "--band": "0.9,0.1",
    "--plots": "afile",
    "--board": "nope",
    "--perturb": "nonsense",
    "--top": "-1",
    "--opponent": "nobody=expert",
    "ladder --opponent": "nobody",
    "--max-edits": "-1",
    "--edits-from": "nope",
    "--kind": "nope",
    "--beam": "0",
    "--pool": "0",
    "--show": "-1",
    "--adapt-budget": "-1",
    "--adapt-candidate-games": "0",
    "--adapt-validation-games": "0",
    "--report-dir": "afile",
    "--seed-strategy": "gaston=no-such-strategy",
    "--seed-from": "missing-dir",
    "--seed-levels": "wizard",
    "--library": "missing-dir",
    "--library-games": "-1",
    "--table-games": "0",
    "--epsilon": "2",
    "--iterations": "0",
    "--budget": "0",
    "--candidate-games": "0",
    "--validation-games": "0",
    "--value-games": "0",
    "--popsize": "1",
    "--step": "0",
    "--br-from": "wizard",
    "--probe-games": "-1",
    "--csv": "afile/x.csv",
    "--mixtures": "missing-dir",
    "--games": "missing.csv",
    "equilibrium-probe --games": "1",
    "--start": "no-such-strategy",
    "--param": "no_such_param",
    "--objective": "nonsense",
    "--drop-penalty": "-1",
    "--rounds": "0",
    "--matrix-games": "0",
    "--recheck": "-1",
    "--impact-cards": "-1",
    "--paired-games": "0",
    "--generations": "0",
    "--tuned-games": "-1",
    "--retries": "-1",
    "--climbs": "-1",
    "--base": "expert",
    "--villains": "gaston,nobody",
    "learn --probe-games": "-1",
    "learn --features": "all",
    "learn --labels": "outcome",
    "learn -n": "3",
    "--save-ranking": "ranking.txt",
}
FLAGS = {"--json", "--causal", "--list", "--no-rules", "--with-rules", "--all", "--record", "--params", "--help"}


def cases():
    commands = typer.main.get_command(app).commands
    for name, command in sorted(commands.items()):
        for param in command.params:
            opt = param.opts[0]
            if param.param_type_name != "option" or opt in FLAGS or getattr(param, "is_flag", False):
                continue
            yield name, opt, BAD.get(f"{name} {opt}", BAD.get(opt))


def refused(name: str, opt: str, bad: str, folder: Path) -> str:
    """Why ``simlab NAME BASE... OPT BAD`` run in the empty ``folder`` is not a clean refusal ("" when it is)."""
    for f in folder.iterdir():
        shutil.rmtree(f) if f.is_dir() else f.unlink()
    (folder / "afile").write_text("a file where a folder or another kind of file is needed")
    (folder / "log.csv").write_text("villains,winner\ngaston;horned-king,gaston\n")
    before = sorted(p.name for p in folder.iterdir())
    base = list(BASE.get(name, []))
    if opt in base:  # the bad value in place of the base's
        i = base.index(opt)
        del base[i : i + 2]
    cpu = time.process_time()
    got = CliRunner().invoke(app, [name, *base, opt, bad])
    cpu = time.process_time() - cpu
    lines = got.output.strip().splitlines()
    if got.exit_code != 2:
        return f"exit {got.exit_code}: {got.output[-300:]!r} {got.exception!r}"
    if len(lines) != 1 or not lines[0].startswith("error: "):
        return f"{len(lines)} lines: {got.output[-300:]!r}"
    if cpu >= 5:
        return f"{cpu:.1f} s of CPU before the refusal"
    if sorted(p.name for p in folder.iterdir()) != before:
        return f"files written: {sorted(p.name for p in folder.iterdir())}"
    return ""


@pytest.mark.slow
def test_one_bad_value_per_option_is_refused_before_any_game(tmp_path, tmp_path_factory, monkeypatch):
    """One test over every (command, option): a case per test would outnumber the quick loop's tests. On a machine
    whose speeds are not measured yet (a plan's estimate then measures one by playing), as on a first run."""
    from simlab.runs import backend, speed
    from simlab.studies import whatif

    monkeypatch.setenv("SIMLAB_SPEED_FILE", str(tmp_path_factory.mktemp("unmeasured") / "speed.json"))
    monkeypatch.setattr(speed, "_memory", {})

    def never(*a, **k):
        raise AssertionError("a game was played before the bad value was refused")

    monkeypatch.setattr(backend, "play_chunk", never)
    monkeypatch.setattr(whatif, "_chunks", never)
    monkeypatch.chdir(tmp_path)
    signal.alarm(1800)  # the whole enumeration's deadline (the suite's is per case)
    all_cases = list(cases())
    missing = [f"{n} {o}" for n, o, b in all_cases if b is None]
    assert not missing, f"no bad value for {missing}: add them to BAD"
    failures = {f"{n} {o} {b!r}": why for n, o, b in all_cases if (why := refused(n, o, b, tmp_path))}
    assert len(all_cases) > 200 and not failures, failures
