"""Issue 58 in real processes (slow tier): a huge ``-n`` for every command that takes one, under a 12 GB address-space
limit (a size allocated up front fails there instead of exhausting the machine), and SIGTERM / SIGHUP sent to a
checkpointed ``simlab run`` from outside."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time

import pytest

M = "gaston-vs-horned-king"
HUGE = str(10**12)
LIMIT = 12_000_000 * 1024  # ulimit -v 12000000


def limited():
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def simlab(*args, cwd, timeout=120):
    t0 = time.monotonic()
    got = subprocess.run(
        [sys.executable, "-m", "simlab.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=limited,
    )
    return got, time.monotonic() - t0


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [
        "matrix",
        "first-seat",
        "goldfish --villain gaston",
        "cards --villain gaston",
        f"sweep -m {M} --card Get_Out! --attribute cost --values 3,4",
        "difficulty --villain gaston",
        f"leverage --matchup {M}",
        "ladder --villain gaston",
        f"fix --matchup {M}",
        "calibrate --games log.csv",
        f"run -m {M} --out games.parquet",
    ],
)
def test_a_huge_n_is_refused_in_one_line_by_every_command(command, tmp_path):
    (tmp_path / "log.csv").write_text("villains,winner\ngaston;horned-king,gaston\n")
    args = [a.replace("_", " ") if a.startswith("Get_") else a for a in command.split()]
    got, took = simlab(*args, "-n", HUGE, "--threads", "1", cwd=tmp_path)
    lines = got.stderr.strip().splitlines()
    assert got.returncode == 2 and len(lines) == 1 and got.stdout == "", (got.returncode, got.stderr[-2000:])
    assert lines[0].startswith("error: -n 1,000,000,000,000"), lines
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.csv"]


@pytest.mark.slow
@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_a_huge_run_streams_and_stops_on_a_signal_with_its_summary(tmp_path, signum, code):
    proc = subprocess.Popen(
        [sys.executable, "-m", "simlab.cli", "run", "-m", M, "-n", HUGE, "--threads", "1", "--checkpoint", "ck"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=limited,
    )
    deadline = time.monotonic() + 240
    while not list((tmp_path / "ck").glob("chunk-*.npz")) and time.monotonic() < deadline:
        time.sleep(0.5)
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == code, (proc.returncode, err[-2000:])
    assert "gaston" in out and "%" in out  # the summary of the games finished
    assert err.strip().splitlines()[-1] == "stopped; finish the run with: simlab run --resume ck"
    assert list((tmp_path / "ck").glob("chunk-*.npz")) and not list((tmp_path / "ck").glob(".simlab-tmp-*"))
    assert os.path.isfile(tmp_path / "ck" / "settings.json")
