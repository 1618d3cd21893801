"""Compare the game speed of two source trees of simlab by paired runs: which build plays the same games faster.

Usage (each tree a checkout, e.g. ``git worktree add /tmp/before <commit>``):

    python benchmarks/paired.py /tmp/before . [--games 1000] [--rounds 10] [--pairs 6] [--strategy expert]
                                [--matchup gaston-vs-horned-king] [--threads 1]

For each pair, one persistent process per tree (started with that tree first on ``sys.path``) plays the same batch
of games, the two taking turns, for ``--rounds`` rounds; it prints the median of the per-round time ratios (B/A:
below 1, B is faster). This machine's speed drifts within minutes, which pairing absorbs; but one process's code
placement can also make it a few percent faster or slower than another process of the same build (two processes
of one build differed by 3-7% here), so a single pair measures the processes as much as the builds. Hence several
pairs, each with fresh processes, the tree started first alternating; the result is the median of the pairs'
medians, and the ratio of the total times. Each tree's kernels compile on its first start: the installed tree's
in parallel processes as usual, the other's in its worker alone (those processes import the installed simlab), a
few minutes. ``--out FILE`` also writes the ratios to a JSON file (with each tree's commit, the command and the
machine: ``benchmarks/provenance.py``). Not a test: a measurement.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

from provenance import add_arguments, started, write

WORKER = r"""
import sys, time, warnings
tree = sys.argv[1]
# this tree's simlab, not the installed one (an editable install's finder would take precedence over sys.path)
sys.meta_path = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
sys.path.insert(0, tree)
import numpy as np
warnings.filterwarnings("ignore"); np.seterr(all="ignore")
import simlab
try:
    from simlab.runs.sim import run
except ImportError:  # a tree from before the layout move (simlab/ flat)
    from simlab.sim import run
assert simlab.__file__.startswith(tree), simlab.__file__
matchup, strategy, threads = sys.argv[2], sys.argv[3], int(sys.argv[4])
plays = {v: strategy for v in matchup.split("-vs-")}
import inspect
def play(n, seed):
    if "n_games" in inspect.signature(run).parameters:  # a tree from before run took its settings alone
        return run(matchup, n, seed=seed, threads=threads, strategies=plays, keep_games=False)
    from simlab.runs.settings import RunSettings
    return run(matchup, RunSettings(n, seed, threads=threads), strategies=plays, keep_games=False)
play(50, 0)
print("ready", flush=True)
for line in sys.stdin:
    n, seed = map(int, line.split())
    print(play(n, seed).seconds, flush=True)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", type=Path, help="tree A (the baseline)")
    ap.add_argument("b", type=Path, help="tree B")
    ap.add_argument("--games", type=int, default=1000, help="games a round")
    ap.add_argument("--rounds", type=int, default=10, help="rounds a pair")
    ap.add_argument("--pairs", type=int, default=6)
    ap.add_argument("--strategy", default="expert")
    ap.add_argument("--matchup", default="gaston-vs-horned-king")
    ap.add_argument("--threads", type=int, default=1)
    add_arguments(ap)
    args = ap.parse_args()
    doc = started(args.smoke)
    trees = [str(t.resolve()) for t in (args.a, args.b)]
    for t in trees:
        if not (Path(t) / "simlab" / "__init__.py").exists():
            sys.exit(f"{t}: not a simlab source tree (no simlab/__init__.py)")
    medians, ratios, total = [], [], [0.0, 0.0]
    for p in range(args.pairs):
        first = p % 2  # which tree starts first alternates
        order = [first, 1 - first]
        procs = {
            i: subprocess.Popen(
                [sys.executable, "-c", WORKER, trees[i], args.matchup, args.strategy, str(args.threads)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            for i in order
        }
        for proc in procs.values():
            if proc.stdout.readline().strip() != "ready":
                sys.exit("a worker failed to start (run it by hand to see why)")
        rs = []
        for r in range(args.rounds):
            seconds = [0.0, 0.0]
            for i in order if r % 2 == 0 else order[::-1]:
                procs[i].stdin.write(f"{args.games} {1000 + p * args.rounds + r}\n")
                procs[i].stdin.flush()
                seconds[i] = float(procs[i].stdout.readline())
            rs.append(seconds[1] / seconds[0])
            total[0] += seconds[0]
            total[1] += seconds[1]
        for proc in procs.values():
            proc.stdin.close()
            proc.wait()
        medians.append(statistics.median(rs))
        ratios += rs
        print(f"pair {p + 1}: B/A time ratio {medians[-1]:.3f} over {args.rounds} rounds of {args.games:,} games")
    n = len(ratios)
    print(
        f"B/A time ratio: {statistics.median(medians):.3f} (median of {args.pairs} pairs; pairs "
        f"{min(medians):.3f}-{max(medians):.3f}); total time {total[1] / total[0]:.3f}; "
        f"A {n * args.games / total[0]:,.0f} games/s, B {n * args.games / total[1]:,.0f} games/s"
    )
    doc.update(
        trees={"a": _tree(trees[0]), "b": _tree(trees[1])},
        matchup=args.matchup,
        strategy=args.strategy,
        threads=args.threads,
        games_a_round=args.games,
        rounds=args.rounds,
        pairs=args.pairs,
        ratio=statistics.median(medians),  # B/A time: below 1, B is faster
        pair_medians=medians,
        pair_min=min(medians),
        pair_max=max(medians),
        ratio_total=total[1] / total[0],
        games_per_s_a=n * args.games / total[0],
        games_per_s_b=n * args.games / total[1],
    )
    write(args.out, doc)


def _tree(path: str) -> dict:
    done = subprocess.run(["git", "-C", path, "rev-parse", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", path, "status", "--porcelain"], capture_output=True, text=True)
    return {"path": path, "commit": done.stdout.strip(), "dirty": bool(dirty.stdout.strip())}


if __name__ == "__main__":
    main()
