"""What a benchmark's result file records besides its results: the command, the commit, the date and the machine.

Each benchmark that docs/performance.md quotes takes ``--out FILE`` (write the results there as JSON, as well as
printing them) and ``--smoke`` (mark the file a smoke run: samples too small for the page's real figures, made to
check that the page and its tests work). :func:`started` is called first thing (the load average is the one at the
start), :func:`write` last. ``benchmarks/performance_page.py`` runs them all into ``reports/performance/``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT_DIR = ROOT / "reports" / "performance"
# performance_page.py writes into a scratch folder, then moves it to OUT_DIR: a command names OUT_DIR
SCRATCH_ENV = "SIMLAB_PERFORMANCE_SCRATCH"


def add_arguments(ap: argparse.ArgumentParser) -> None:
    """``--out`` and ``--smoke``."""
    ap.add_argument("--out", type=Path, default=None, help="also write the results to this JSON file")
    ap.add_argument(
        "--smoke", action="store_true", help="mark the file a smoke run (small samples, not the page's real figures)"
    )


def _git(*args: str) -> str:
    try:
        done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return ""
    return done.stdout.strip()


def _memory_gib() -> float | None:
    try:
        with open("/proc/meminfo", encoding="utf-8") as f:
            kb = next(int(line.split()[1]) for line in f if line.startswith("MemTotal:"))
    except (OSError, StopIteration, ValueError):
        return None
    return round(kb / 2**20, 1)


def machine() -> dict:
    """The machine as a result depends on it: cores, memory, load average now, the versions that compile."""
    import llvmlite
    import numba
    import numpy

    try:
        cores_usable = len(os.sched_getaffinity(0))
    except AttributeError:
        cores_usable = os.cpu_count()
    return {
        "cores": os.cpu_count(),
        "cores_usable": cores_usable,
        "memory_gib": _memory_gib(),
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],  # 1, 5 and 15 minutes
        "processor": platform.processor() or platform.machine(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "numba": numba.__version__,
        "llvmlite": llvmlite.__version__,
        "numpy": numpy.__version__,
    }


def started(smoke: bool = False, argv: list[str] | None = None) -> dict:
    """The provenance of a result whose measuring starts now (call it before measuring)."""
    argv = sys.argv if argv is None else argv
    script = Path(argv[0]).resolve()
    try:
        script_text = script.relative_to(ROOT).as_posix()
    except ValueError:
        script_text = argv[0]
    scratch = os.environ.get(SCRATCH_ENV)
    if scratch:
        argv = [a.replace(scratch, OUT_DIR.relative_to(ROOT).as_posix()) for a in argv]
    # the tree's own result files change while a page run writes them: they do not make the code dirty
    dirty = _git("status", "--porcelain", "--", ".", ":(exclude)reports/performance")
    return {
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "command": shlex.join(["python", script_text, *argv[1:]]),
        "commit": _git("rev-parse", "HEAD"),
        "dirty": bool(dirty),
        "smoke": smoke,
        "machine": machine(),
    }


def write(path: Path | None, doc: dict) -> None:
    """Write ``doc`` to ``path`` as JSON (nothing if ``path`` is None)."""
    if path is None:
        return
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {path}", file=sys.stderr)
