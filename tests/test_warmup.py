"""The first run compiles the kernels saying so, never counts it as play, and nothing compiles before it is
needed."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from simlab import villains
from simlab.game import warmup
from simlab.kernels import rules
from simlab.kernels.compile import link
from simlab.runs.settings import RunSettings
from simlab.runs.sim import simulate
from strategies import heuristic


def _cold_start(tmp_path, monkeypatch) -> tuple[list[str], dict[str, float]]:
    said: list[str] = []
    marker = tmp_path / "ready"
    monkeypatch.setattr(warmup, "_marker", lambda: marker)
    monkeypatch.setattr(warmup, "_ready", False)
    warmup.set_notifier(said.append)
    try:
        assert not warmup.cached()
        times = warmup.ensure()
    finally:
        warmup.set_notifier(None)
    assert marker.exists() and warmup.cached()
    return said, times


@pytest.mark.slow
def test_a_cold_start_says_what_it_compiles_and_marks_the_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(warmup, "_process_count", lambda: 2)
    said, times = _cold_start(tmp_path, monkeypatch)
    assert said[0].startswith("compiling the simulation kernels (first run only, in 2 processes; ")
    assert said[0].endswith(" s)") or said[0].endswith("the time is reported when done)")
    assert "about" not in said[0]  # measured here, never promised
    assert all(m.startswith("compiled ") and " parts (" in m for m in said[1:-1]), said
    assert said[-1].startswith("compiled in ")
    assert set(times) == set(warmup._STAGES)  # compiled in the two processes, then loaded here
    # every part went to one of the processes: each engine routine, each villain's routine, the heuristic,
    # the drivers (in this test session's warm cache, each process loads them instead of compiling)
    parts = set(warmup.LAST_PART_SECONDS)
    assert {link.symbol_name(r) for r in rules.ROUTINES.values()} <= parts
    assert {link.symbol_name(m.ability_r) for _, m in villains._ability_modules()} <= parts
    assert {link.symbol_name(heuristic.choose_by_ref_nb), link.symbol_name(rules.advance_by_ref_nb)} <= parts
    assert {"play_range_nb", "play_nb", "setup_nb"} <= parts
    # warm, in this process and in a new one (the marker found): nothing more is said or timed
    said.clear()
    warmup.set_notifier(said.append)
    try:
        assert warmup.ensure() == {}
        monkeypatch.setattr(warmup, "_ready", False)
        assert warmup.ensure() == {}
    finally:
        warmup.set_notifier(None)
    assert said == []


def test_one_core_or_processes_that_fail_compile_here(tmp_path, monkeypatch):
    monkeypatch.setattr(warmup, "_process_count", lambda: 1)
    said, times = _cold_start(tmp_path, monkeypatch)
    assert said[0].startswith("compiling the simulation kernels (first run only, in 1 process; ")
    assert said[-1].startswith("compiled in ")
    assert list(times) == ["compiling"]
    monkeypatch.setattr(warmup, "_process_count", lambda: 2)
    monkeypatch.setattr(warmup, "_WORKER_CODE", "import sys; sys.exit(1)")
    said, times = _cold_start(tmp_path / "again", monkeypatch)
    assert list(times) == ["compiling"] and said[-1].startswith("compiled in ")


@pytest.mark.slow
def test_a_compile_only_process_notes_the_kernels_instead_of_compiling_them(tmp_path):
    code = (
        "from simlab.kernels.compile import link; link.defer_compiling(); import simlab.game.driver; "
        "from simlab.kernels import rules; "
        "print(all(link.symbol_name(r) in link.DEFERRED for r in rules.ROUTINES.values()), len(link.DEFERRED))"
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    every_routine, n = res.stdout.split()
    assert every_routine == "True" and int(n) > len(rules.ROUTINES)
    assert list(Path(tmp_path / "cache").rglob("*.nbc")) == []  # imported and bound: nothing compiled


def test_games_per_second_never_counts_compiling(monkeypatch):
    slow = 2.0

    calls = []

    def compile_slowly(force: bool = False, search: bool = False, apprentice: bool = False):
        if not calls:  # the first call compiles; later ones find the kernels ready
            time.sleep(slow)
        calls.append(force)
        return {}

    monkeypatch.setattr(warmup, "ensure", compile_slowly)
    t0 = time.perf_counter()
    res = simulate("gaston-vs-horned-king", RunSettings(20, seed=1, threads=1))
    assert time.perf_counter() - t0 >= slow
    assert res.seconds < slow  # the clock of the games starts after the kernels are ready


@pytest.mark.slow
def test_help_rules_strategies_and_bad_input_compile_nothing(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    simlab = [sys.executable, "-m", "simlab.cli"]
    for args, code in (
        (["--help"], 0),
        (["rules"], 0),
        (["strategies"], 0),
        (["run", "--matchup", "gaston-vs-nobody", "-n", "10"], 2),
        (["run", "--matchup", "gaston-vs-horned-king", "-n", "-5"], 2),
    ):
        res = subprocess.run(simlab + args, env=env, capture_output=True, text=True, timeout=300)
        assert res.returncode == code, (args, res.stdout, res.stderr)
        assert "compiling" not in res.stderr, args
    compiled = [p.name for p in Path(tmp_path / "cache").rglob("*") if p.suffix in (".nbi", ".nbc")]
    assert compiled == []
