"""The compile message says what this machine measured the last time (each cache marker keeps its seconds), never
a promised time."""

from __future__ import annotations

import os

from simlab.game import warmup
from simlab.kernels.compile import cache


def test_the_last_measured_compile_is_said(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "cache_base", lambda: str(tmp_path))
    assert warmup.last_compile_seconds() is None
    assert warmup._last_text() == "the time is reported when done"
    old, new = tmp_path / ("ready-" + "a" * 16), tmp_path / ("ready-" + "b" * 16)
    old.write_text("30.0\n")
    new.write_text("46.4\n")
    os.utime(old, (1, 1))  # the newest marker is the last compile
    (tmp_path / ("ready-" + "b" * 16 + "-search-0123")).write_text("19.6\n")
    assert warmup.last_compile_seconds() == 46.4
    assert warmup._last_text() == "the last compile here took 46 s"
    assert warmup.last_compile_seconds("search") == 19.6
    assert warmup.last_compile_seconds("apprentice") is None


def test_a_cold_start_says_it_compiles_and_then_the_time_it_took(tmp_path, monkeypatch):
    said: list[str] = []
    monkeypatch.setattr(warmup, "last_compile_seconds", lambda player="": 41.0)
    monkeypatch.setattr(warmup, "_marker", lambda: tmp_path / "ready-new")
    monkeypatch.setattr(warmup, "_ready", False)
    monkeypatch.setattr(warmup, "_process_count", lambda: 1)
    warmup.set_notifier(said.append)
    try:
        warmup.ensure()
    finally:
        warmup.set_notifier(None)
    assert said[0] == "compiling the simulation kernels (first run only, in 1 process; the last compile here took 41 s)"
    assert said[-1].startswith("compiled in ") and said[-1].endswith(" s; later runs start in about a second")
