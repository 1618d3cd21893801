"""The first run compiles the kernels saying so, never counts it as play, and nothing compiles before it is
needed."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from simlab import warmup
from simlab.sim import simulate


def test_a_cold_start_says_what_it_compiles_and_marks_the_cache(tmp_path, monkeypatch):
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
    assert said[0].startswith("compiling the simulation kernels (first run only, about")
    assert [m.split(" (")[0] for m in said[1:-1]] == [f"compiling {stage}" for stage in warmup._STAGES]
    assert said[-1].startswith("compiled in ")
    assert set(times) == set(warmup._STAGES)
    assert marker.exists() and warmup.cached()
    # warm: nothing more is said
    said.clear()
    warmup.set_notifier(said.append)
    try:
        assert warmup.ensure() == {}
    finally:
        warmup.set_notifier(None)
    assert said == []


def test_games_per_second_never_counts_compiling(monkeypatch):
    slow = 2.0

    calls = []

    def compile_slowly(force: bool = False, search: bool = False):
        if not calls:  # the first call compiles; later ones find the kernels ready
            time.sleep(slow)
        calls.append(force)
        return {}

    monkeypatch.setattr(warmup, "ensure", compile_slowly)
    t0 = time.perf_counter()
    res = simulate("gaston-vs-horned-king", 20, seed=1, threads=1)
    assert time.perf_counter() - t0 >= slow
    assert res.seconds < slow  # the clock of the games starts after the kernels are ready


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
