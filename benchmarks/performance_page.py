"""Run the benchmarks docs/performance.md quotes, write their results to reports/performance/, and fill the page.

    python benchmarks/performance_page.py             # the page's figures: about 2 min on an idle 2-core machine
    python benchmarks/performance_page.py --smoke     # a check that the page works: under a minute, marked smoke

Run the first on an idle machine: it stops when the load average is above 1 (``--busy-ok`` runs anyway, the files
record the load). It needs Linux ``perf`` (allowed to profile the user's own processes: ``perf_event_paranoid`` 2 or
less) and pyelftools (``pip install -e '.[bench]'``). How long it took is in ``reports/performance/run.json``
(117 s on 2026-12-05, idle).

The steps, each a command recorded with its time:

1. ``bench_engine.py --games 30000 --repeats 3``: the cold compile (a fresh ``NUMBA_CACHE_DIR``, about 25 s),
   the cached start, expert and random games/s on 1 and 2 threads, alternately three times, peak memory, 20 games
   without the JIT (about 1.5 min) -> ``engine.json``;
2. ``decision_cycles.py --games 3000``: cycles by decision kind (seconds) -> ``decision_cycles.json``;
3. ``reuse_ceiling.py --games 40 --cycle-games 1000`` for three pairings: 40 games each without the JIT (about
   1 min in all) -> ``reuse_ceiling/<matchup>.json``;
4. ``profile_engine.py --call-graph`` (once with 2 games to compile the kernels with frame pointers into their own
   cache, a cold compile the first time, then 30,000 games under ``perf record -g``) and ``perf_tree.py
   --functions``: the time by function, with callees and by itself (about 1.5 min) -> ``profile.json``;
5. ``run.json``: the steps, their commands and times; then ``simlab docs-figures`` fills the page.

Every file is written into a scratch folder first and reports/performance/ replaced by it once every step has
succeeded, so the page never mixes two runs. ``--smoke`` runs the same steps with a few hundred games, no cold
compile (``bench_engine.py --skip-cold``) and no frame pointers (the time with callees is then not measured), and
marks every file ``"smoke": true``: the page shows such figures as they are, a smoke run's.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from provenance import OUT_DIR, ROOT, SCRATCH_ENV, started

HERE = Path(__file__).resolve().parent
PAIRINGS = ("gaston-vs-horned-king", "lady-tremaine-vs-gaston", "horned-king-vs-lady-tremaine")
# the functions of the page's profile table (perf names, or their last dotted parts: plan_nb is every plan)
PROFILE_FUNCTIONS = (
    "choose.choose_by_ref_nb",
    "drive.advance_by_ref_nb",
    "cards.card_value_nb",
    "cards.keep_value_nb",
    "cards.junk_count_nb",
    "mover.location_value_nb",
    "plan_nb",
    "cards.best_move_nb",
    "query.strength_nb",
)
# (the real run's arguments, the smoke run's) for each step
SIZES = {
    "engine": (
        ["--games", "30000", "--repeats", "3", "--nojit-games", "20"],
        ["--games", "300", "--skip-cold", "--nojit-games", "2"],
    ),
    "decision_cycles": (["--games", "3000"], ["--games", "300"]),
    "reuse_ceiling": (["--games", "40", "--cycle-games", "1000"], ["--games", "3", "--cycle-games", "200"]),
    "profile": (["--games", "30000", "--call-graph"], ["--games", "2000"]),
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smoke", action="store_true", help="small samples, no cold compile: check that the page works")
    ap.add_argument("--busy-ok", action="store_true", help="run even if the machine is not idle")
    ap.add_argument("--no-fill", action="store_true", help="write the files but leave the page as it is")
    args = ap.parse_args(argv)
    load = os.getloadavg()[0]
    if load > 1.0 and not (args.smoke or args.busy_ok):
        sys.exit(f"the load average is {load:.1f}: the figures need an idle machine (--busy-ok runs anyway)")
    if shutil.which("perf") is None:
        sys.exit("perf is not installed (linux-tools): the profile step needs it")
    try:
        import elftools  # noqa: F401  (profile_engine.py's perf map)
    except ImportError:
        sys.exit("pyelftools is not installed: pip install -e '.[bench]'")
    run = started(args.smoke)
    which = 1 if args.smoke else 0
    smoke = ["--smoke"] if args.smoke else []
    steps: list[dict] = []
    t_all = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="performance-page-") as scratch:
        out = Path(scratch) / "performance"
        out.mkdir()
        os.environ[SCRATCH_ENV] = str(out)  # each file's command names reports/performance/, where it ends up

        def step(name: str, argv: list[str], env: dict | None = None) -> None:
            shown = " ".join(_shown(a, scratch) for a in argv)
            print(f"[{name}] {shown}", flush=True)
            t = time.perf_counter()
            load = os.getloadavg()[0]
            subprocess.run(argv, cwd=ROOT, env=env, check=True)
            seconds = time.perf_counter() - t
            steps.append({"step": name, "command": shown, "seconds": round(seconds, 1), "load_at_start": load})
            print(f"[{name}] {seconds:.0f} s", flush=True)

        py = sys.executable
        step(
            "engine",
            [py, str(HERE / "bench_engine.py"), *SIZES["engine"][which], *smoke, "--out", str(out / "engine.json")],
        )
        step(
            "decision cycles",
            [py, str(HERE / "decision_cycles.py"), *SIZES["decision_cycles"][which], *smoke]
            + ["--out", str(out / "decision_cycles.json")],
        )
        for matchup in PAIRINGS:
            step(
                f"reuse ceiling {matchup}",
                [py, str(HERE / "reuse_ceiling.py"), "--matchup", matchup, *SIZES["reuse_ceiling"][which], *smoke]
                + ["--out", str(out / "reuse_ceiling" / f"{matchup}.json")],
            )
        profile = SIZES["profile"][which]
        data = str(Path(scratch) / "perf.data")
        if "--call-graph" in profile:  # the kernels compiled with frame pointers before perf records anything
            step("frame pointers", [py, str(HERE / "profile_engine.py"), "--call-graph", "--games", "2", "--no-map"])
        step(
            "perf record",
            ["perf", "record", "-F", "1999", "-g", "-o", data, py, str(HERE / "profile_engine.py")] + profile,
        )
        step(
            "perf tree",
            [py, str(HERE / "perf_tree.py"), data, "--functions", ",".join(PROFILE_FUNCTIONS), *smoke]
            + ["--out", str(out / "profile.json")],
        )
        run.update(
            steps=steps,
            seconds=round(time.perf_counter() - t_all, 1),
            files=sorted([p.relative_to(out).as_posix() for p in out.rglob("*.json")] + ["run.json"]),
        )
        (out / "run.json").write_text(json.dumps(run, indent=2) + "\n", encoding="utf-8")
        (out / "perf.data").unlink(missing_ok=True)
        if OUT_DIR.exists():
            shutil.rmtree(OUT_DIR)
        shutil.copytree(out, OUT_DIR)
    print(f"wrote {OUT_DIR.relative_to(ROOT)}/ in {run['seconds'] / 60:.1f} min", flush=True)
    if args.no_fill:
        return 0
    return subprocess.run(
        [sys.executable, "-c", "from simlab.cli import main; main()", "docs-figures"], cwd=ROOT
    ).returncode


def _shown(arg: str, scratch: str) -> str:
    """An argument as the run records it: paths relative to the repository, the scratch folder as the output's."""
    arg = arg.replace(str(Path(scratch) / "performance"), "reports/performance").replace(scratch, "$TMP")
    if arg == sys.executable:
        return "python"
    return arg.replace(str(ROOT) + os.sep, "")


if __name__ == "__main__":
    sys.exit(main())
