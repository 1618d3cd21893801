"""Time the two test tiers as CI runs them and write ``reports/test-times.json`` (README's "Tests" figure).

    python benchmarks/time_tests.py            # both tiers, then the file
    python benchmarks/time_tests.py --note "idle machine"

Runs ``pytest`` (the default tier: pyproject's addopts say ``-m 'not slow'``) and then ``pytest -m slow`` (the slow
tier), each in a process of its own with ``--durations=40``, and records each tier's wall time, its test count and
exit code, its 40 slowest tests, the machine's cores and its load average when the tier started (the figure names
them: on a shared machine a tier takes longer than on an idle one). ``simlab docs-figures`` then fills README from
it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "reports" / "test-times.json"
TIERS = {"default": [], "slow": ["-m", "slow"]}


def run_tier(extra: list[str]) -> dict:
    load = os.getloadavg()[0]
    before = os.times()
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *extra, "-p", "no:cacheprovider", "--durations=40", "-rfE"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - t0
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    out = done.stdout
    counts = {k: int(n) for n, k in re.findall(r"(\d+) (passed|failed|skipped|xfailed|xpassed|errors?)\b", out)}
    slowest = re.findall(r"^(\d+\.\d+)s (call|setup|teardown)\s+(\S+)$", out, re.M)
    return {
        "seconds": round(seconds, 1),
        "cpu_seconds": round(cpu, 1),  # of the tier and every process it started: what an idle machine needs, about
        "tests": sum(v for k, v in counts.items() if k != "skipped"),
        "counts": counts,
        "exit_code": done.returncode,
        "load_average_at_start": round(load, 2),
        "slowest": [{"seconds": float(s), "when": w, "test": t} for s, w, t in slowest],
        "failed": re.findall(r"^(?:FAILED|ERROR) (\S+)", out, re.M),
        "summary": out.strip().splitlines()[-1] if out.strip() else done.stderr[-500:],
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--note", default="", help="a word on the machine (idle, shared with N agents)")
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args(argv)
    tiers = {name: run_tier(extra) for name, extra in TIERS.items()}
    loads = [t["load_average_at_start"] for t in tiers.values()]
    machine = f"{os.cpu_count()} cores, load average {min(loads):.1f} to {max(loads):.1f} at the start"
    doc = {
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "command": "python benchmarks/time_tests.py" + (f" --note {args.note!r}" if args.note else ""),
        "machine": machine + (f", {args.note}" if args.note else ""),
        **tiers,
    }
    Path(args.out).write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    for name, t in tiers.items():
        print(f"{name}: {t['seconds']:.0f} s, {t['tests']} tests, exit {t['exit_code']}: {t['summary']}")
    for name, t in tiers.items():
        for test in t["failed"]:
            print(f"{name}: failed {test}")
    return max(t["exit_code"] for t in tiers.values())


if __name__ == "__main__":
    sys.exit(main())
