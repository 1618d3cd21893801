"""How finely a chunk is cut among the threads: a chunk of search games played in blocks of at most 64 games (one
block a thread at a time, the cut before ``BLOCKS_A_THREAD``) against the same chunk cut into at least
``BLOCKS_A_THREAD`` blocks a thread, in alternating rounds on the same games. The games are the same either way
(checked); the paired wall ratio of each round, and their median, say what the finer cut gains.

Usage:

    python benchmarks/chunk_blocks.py [STRATEGY.toml] [--games 300] [--rounds 2] [--threads 2] [--out FILE]

Default strategy: the shipped run's generation 4 search (reports/learning/g4/search.toml). Not a test.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kept_chunks import play, setup  # noqa: E402
from provenance import write  # noqa: E402


def main() -> None:
    args, run_info, games, strategy = setup(__doc__, 300)
    from simlab.game import driver

    finer = driver.BLOCKS_A_THREAD
    rows = []
    for r in range(args.rounds):
        got = {}
        for cut in (1, finer) if r % 2 == 0 else (finer, 1):  # 1: blocks of 64 for a chunk of 128 games or more
            driver.BLOCKS_A_THREAD = cut
            got[cut] = play(strategy, games, args.seed + r, args.threads, None)
        driver.BLOCKS_A_THREAD = finer
        if got[1][2] != got[finer][2]:
            raise SystemExit(f"round {r}: the games differ between the cuts")
        row = {"round": r, "wall_blocks_of_64": got[1][0], "wall_finer": got[finer][0]}
        row["wall_ratio"] = row["wall_finer"] / row["wall_blocks_of_64"]
        rows.append(row)
        print(json.dumps(row), flush=True)
    summary = {
        "strategy": str(args.strategy),
        "games": games,
        "threads": args.threads,
        "blocks_a_thread": finer,
        "median_wall_ratio": statistics.median(r["wall_ratio"] for r in rows),
        "games_per_second_blocks_of_64": statistics.median(games / r["wall_blocks_of_64"] for r in rows),
        "games_per_second_finer": statistics.median(games / r["wall_finer"] for r in rows),
    }
    print(json.dumps(summary), flush=True)
    write(args.out, run_info | summary | {"rounds": rows})


if __name__ == "__main__":
    main()
