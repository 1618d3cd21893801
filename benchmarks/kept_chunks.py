"""What keeping a learning step's games costs: a search run played as one chunk against the same run played in
chunks of :data:`simlab.studies.learn.KEPT_CHUNK` games recorded to a checkpoint (as ``simlab learn``'s paired
games now are), in alternating rounds on the same games. Each round gives the wall and CPU seconds of both; the
paired ratio (kept over one chunk) of each round, and their median, say what the keeping costs. The games are the
same either way (checked), so this is a cost, never a change of result.

Usage:

    python benchmarks/kept_chunks.py [STRATEGY.toml] [--games 400] [--rounds 2] [--threads 2] [--out FILE]

Default strategy: the shipped run's generation 4 search (reports/learning/g4/search.toml). Not a test.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from provenance import ROOT, add_arguments, started, write  # noqa: E402


def play(strategy: str, games: int, seed: int, threads: int, kept: Path | None) -> tuple[float, float, list]:
    """(wall s, CPU s, winners) of gaston's seat playing ``strategy`` against it on the other seat."""
    from simlab.runs.settings import RunSettings
    from simlab.studies.learn import _kept_run

    seats = {"gaston": strategy, "lady-tremaine": strategy}
    wall, cpu = time.perf_counter(), time.process_time()
    result = _kept_run("gaston-vs-lady-tremaine", RunSettings(games, seed, threads=threads), seats, kept)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return wall, cpu, result.games.sort("game")["winner"].to_list()


def setup(doc: str, games: int) -> tuple[argparse.Namespace, dict, int, str]:
    """The arguments of a paired-rounds run of one strategy (its file, --games, --rounds, --seed, --threads, --out,
    --smoke), the provenance, the games a round and the strategy's path; the strategy compiled and warmed."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("strategy", nargs="?", type=Path, default=ROOT / "reports" / "learning" / "g4" / "search.toml")
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--threads", type=int, default=2)
    add_arguments(parser)
    args = parser.parse_args()
    run_info = started(args.smoke)
    strategy = str(args.strategy.resolve())
    play(strategy, 2, args.seed, args.threads, None)  # compiled and warmed before any round is timed
    return args, run_info, 8 if args.smoke else args.games, strategy


def main() -> None:
    args, run_info, games, strategy = setup(__doc__, 400)
    from simlab.studies.learn import KEPT_CHUNK

    rows = []
    for r in range(args.rounds):
        with tempfile.TemporaryDirectory() as scratch:
            order = ("one chunk", "kept") if r % 2 == 0 else ("kept", "one chunk")
            got = {}
            for how in order:
                got[how] = play(
                    strategy, games, args.seed + r, args.threads, Path(scratch) / "run" if how == "kept" else None
                )
        if got["kept"][2] != got["one chunk"][2]:
            raise SystemExit(f"round {r}: the kept run's games differ from the one-chunk run's")
        row = {
            "round": r,
            "wall_one_chunk": got["one chunk"][0],
            "wall_kept": got["kept"][0],
            "cpu_one_chunk": got["one chunk"][1],
            "cpu_kept": got["kept"][1],
            "wall_ratio": got["kept"][0] / got["one chunk"][0],
            "cpu_ratio": got["kept"][1] / got["one chunk"][1],
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
    summary = {
        "strategy": str(args.strategy),
        "games": games,
        "chunk": KEPT_CHUNK,
        "threads": args.threads,
        "median_wall_ratio": statistics.median(r["wall_ratio"] for r in rows),
        "median_cpu_ratio": statistics.median(r["cpu_ratio"] for r in rows),
        "games_per_second_one_chunk": statistics.median(games / r["wall_one_chunk"] for r in rows),
        "games_per_second_kept": statistics.median(games / r["wall_kept"] for r in rows),
    }
    print(json.dumps(summary), flush=True)
    write(args.out, run_info | summary | {"rounds": rows})


if __name__ == "__main__":
    main()
