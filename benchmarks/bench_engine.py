"""Engine speed: compile times, games per second (1 and 2 threads), peak memory, JIT vs no-JIT.

Usage: python benchmarks/bench_engine.py [--games 1000000] [--matchup gaston-vs-horned-king] [--skip-cold]
                                        [--memory-games 1000000,10000000] [--memory-max-turns 1]
Prints one line per measurement; ``--out FILE`` also writes them to a JSON file with the command, the commit and
the machine (``benchmarks/provenance.py``; ``reports/performance/engine.json`` is docs/performance.md's, written by
``benchmarks/performance_page.py``). Not a test: machines are noisy (``--repeats`` alternates 1 and 2 threads
and prints medians and ranges); compare ratios (2 threads vs 1, JIT vs no JIT, expert vs random
strategies: the strategies must not slow the hot loop by more than 3x).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from provenance import add_arguments, started, write

from simlab.data.rules import DEFAULT_MAX_TURNS

CHILD = r"""
import json, resource, sys, time, warnings
import numpy as np
warnings.filterwarnings("ignore"); np.seterr(all="ignore")
t0 = time.perf_counter()
from simlab.runs.settings import RunSettings
from simlab.runs.sim import run
strategy = sys.argv[5]
plays = {v: strategy for v in sys.argv[1].split("-vs-")}
run(sys.argv[1], RunSettings(2, 0, max_turns=2, threads=1), strategies=plays)
ready = time.perf_counter() - t0
from simlab.game import warmup
# the compile-only processes of a cold start are this process's children: their peak is the compile's
out = {"start_s": ready, "parts_s": sum(warmup.LAST_PART_SECONDS.values()), "parts": len(warmup.LAST_PART_SECONDS),
       "compile_processes": warmup._process_count(),
       "compile_peak_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}
n = int(sys.argv[2])
if n:
    for threads in [int(x) for x in sys.argv[3].split(",")]:
        r = run(sys.argv[1], RunSettings(n, 1, max_turns=int(sys.argv[4]), threads=threads), strategies=plays,
                keep_games=False)
        out.setdefault(f"games_per_s_{threads}t", []).append(n / r.seconds)
        out["unfinished_share"] = float(r.summary.filter(r.summary["outcome"] == "unfinished")["rate"][0])
        out["median_rounds"] = float(r.lengths["median"][0])
out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def _spread(rates: list[float]) -> str:
    """Median games/s, with the range when measured more than once (this machine is noisy)."""
    med = f"{statistics.median(rates):,.0f}"
    return med if len(rates) == 1 else f"{med} [{min(rates):,.0f}-{max(rates):,.0f}]"


def child(matchup, n, threads, max_turns, env, strategy="expert"):
    t = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, matchup, str(n), threads, str(max_turns), strategy],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    res["wall_s"] = time.perf_counter() - t
    return res


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--matchup", default="gaston-vs-horned-king")
    ap.add_argument("--max-turns", type=int, default=DEFAULT_MAX_TURNS)
    ap.add_argument("--nojit-games", type=int, default=20, help="0: skip the NUMBA_DISABLE_JIT=1 run")
    ap.add_argument("--repeats", type=int, default=1, help="measure 1 and 2 threads this many times, alternately")
    ap.add_argument("--skip-cold", action="store_true")
    ap.add_argument("--memory-games", default="", help="comma-separated N: peak memory of an N-game run (2 threads)")
    ap.add_argument(
        "--memory-max-turns",
        type=int,
        default=None,
        help="turn cap of the memory runs (default: --max-turns); a low cap makes a 10M-game run short, and "
        "memory does not depend on game length (chunks are folded into counts)",
    )
    add_arguments(ap)
    args = ap.parse_args()
    doc = started(args.smoke)
    doc.update(
        matchup=args.matchup,
        max_turns=args.max_turns,
        games=args.games,
        repeats=args.repeats,
        cold=None,  # measured unless --skip-cold
        cached=None,
    )
    env = dict(os.environ)
    if not args.skip_cold:
        with tempfile.TemporaryDirectory() as cache:
            cold = child(args.matchup, 0, "1", args.max_turns, dict(env, NUMBA_CACHE_DIR=cache))
            print(
                f"cold compile (fresh cache, to first game): {cold['start_s']:.1f} s; its parts took "
                f"{cold['parts_s']:.0f} s of compiling in all; peak memory {cold['compile_peak_mb']:.0f} MB in a "
                f"compile process, {cold['peak_rss_mb']:.0f} MB in the playing one"
            )
            warm = child(args.matchup, 0, "1", args.max_turns, dict(env, NUMBA_CACHE_DIR=cache))
            print(f"cached start (to first game): {warm['start_s']:.1f} s")
        doc["cold"] = {
            "start_s": cold["start_s"],  # to the first game
            "parts_s": cold["parts_s"],  # the parts' compile times, summed over the compile processes
            "parts": cold["parts"],
            "compile_processes": cold["compile_processes"],
            "compile_peak_mb": cold["compile_peak_mb"],  # the largest compile process
            "playing_peak_mb": cold["peak_rss_mb"],
            "wall_s": cold["wall_s"],  # the whole process, interpreter start included
        }
        doc["cached"] = {"start_s": warm["start_s"], "wall_s": warm["wall_s"]}
    speed = {}
    for strategy in ("random", "expert"):
        res = child(args.matchup, args.games, ",".join(["1,2"] * args.repeats), args.max_turns, env, strategy)
        one, two = res["games_per_s_1t"], res["games_per_s_2t"]
        g1, g2 = statistics.median(one), statistics.median(two)
        speed[strategy] = (g2, res["median_rounds"])
        print(f"{args.matchup}, {strategy} strategy on every seat, {args.games:,} games, max {args.max_turns} rounds:")
        print(
            f"  1 thread: {_spread(one)} games/s; 2 threads: {_spread(two)} games/s; speed-up "
            f"{g2 / g1:.2f}x (each repeat: {', '.join(f'{b / a:.2f}x' for a, b in zip(one, two, strict=True))})"
        )
        print(f"  unfinished (turn cap) share: {res['unfinished_share']:.1%}; median rounds {res['median_rounds']:.0f}")
        print(f"  peak memory: {res['peak_rss_mb']:.0f} MB")
        doc[strategy] = {
            "games_per_s_1t": g1,  # the median over the repeats
            "games_per_s_2t": g2,
            "speedup": g2 / g1,
            "each_1t": one,
            "each_2t": two,
            "min_1t": min(one),
            "max_1t": max(one),
            "min_2t": min(two),
            "max_2t": max(two),
            "unfinished_share": res["unfinished_share"],
            "median_rounds": res["median_rounds"],
            "peak_rss_mb": res["peak_rss_mb"],  # the playing process, after every run at 1 and 2 threads
            "start_s": res["start_s"],
        }
    (gr, rr), (ge, re_) = speed["random"], speed["expert"]
    print(
        f"expert vs random, 2 threads: {gr / ge:.2f}x slower per game; per round played "
        f"{(gr * rr) / (ge * re_):.2f}x (random games run longer)"
    )
    doc["expert_vs_random"] = {"per_game": gr / ge, "per_round": (gr * rr) / (ge * re_), "threads": 2}
    doc["memory"] = []
    for n in [int(x) for x in args.memory_games.split(",") if x]:
        cap = args.memory_max_turns or args.max_turns
        mem = child(args.matchup, n, "2", cap, env, "expert")
        rate = mem["games_per_s_2t"][0]
        print(
            f"{n:,} expert games (max {cap} rounds), no --out: peak memory {mem['peak_rss_mb']:.0f} MB, "
            f"{rate:,.0f} games/s"
        )
        doc["memory"].append({"games": n, "max_turns": cap, "peak_rss_mb": mem["peak_rss_mb"], "games_per_s": rate})
    doc["nojit"] = None
    if args.nojit_games <= 0:
        write(args.out, doc)
        return
    nojit = child(args.matchup, args.nojit_games, "1", args.max_turns, dict(env, NUMBA_DISABLE_JIT="1"))
    print(
        f"NUMBA_DISABLE_JIT=1, {args.nojit_games} games: {nojit['games_per_s_1t'][0]:.2f} games/s "
        f"-> JIT speed-up {g1 / nojit['games_per_s_1t'][0]:,.0f}x"
    )
    rate = nojit["games_per_s_1t"][0]
    doc["nojit"] = {"games": args.nojit_games, "games_per_s": rate, "jit_speedup": g1 / rate, "strategy": "expert"}
    write(args.out, doc)


if __name__ == "__main__":
    main()
