"""How much of a searched decision the rollout policy costs: a learned generation's search with its rollouts played
by tuned (its own), expert, or random play, the budget and value model unchanged, on both seats of one matchup.

Usage:

    python benchmarks/rollout_cost.py reports/learning/g1/search.toml [--games 60] [--matchup M] [--out FILE]

Per variant: CPU microseconds a decision, decisions and rounds a game, CPU seconds a game (one thread, the kernels
loaded before timing). A cheaper rollout policy saves at most what it costs: the random rollouts' microseconds a
decision against the tuned ones' bound the saving any cheaper learned rollout policy (an apprentice) could make at
the same budget. Not a test: a measurement.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from learned_budget import with_settings  # noqa: E402
from provenance import add_arguments, started, write  # noqa: E402

ROLLOUTS = {"tuned": 2.0, "expert": 1.0, "random": 0.0}  # the search's ``rollout`` setting


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("generation", type=Path, help="a learned generation's search.toml")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--matchup", default="gaston-vs-horned-king")
    add_arguments(parser)
    args = parser.parse_args()
    run_info = started(args.smoke)

    import tempfile

    import numba

    from simlab.runs.backend import play_games
    from simlab.runs.sim import GamePlan

    numba.set_num_threads(1)
    villains = tuple(args.matchup.split("-vs-"))
    rows = []
    with tempfile.TemporaryDirectory() as where:
        for name, rollout in ROLLOUTS.items():
            path = str(with_settings(args.generation, Path(where), f"rollout-{rollout:g}", rollout=rollout))
            plan = GamePlan(villains, (path,) * len(villains), args.games, 1, chunk=args.games)
            job = plan.job(0, args.games)
            play_games(dataclasses.replace(job, n=2))  # compiled and loaded before timing
            t = time.process_time()
            games = play_games(job)[1]
            cpu = time.process_time() - t
            decisions = int(games[:, 4].sum())
            rows.append(
                {
                    "rollouts": name,
                    "us_a_decision": cpu / decisions * 1e6,
                    "decisions_a_game": decisions / args.games,
                    "rounds_a_game": float(games[:, 2].mean()),
                    "cpu_a_game": cpu / args.games,
                }
            )
            print(rows[-1], flush=True)
    tuned = rows[0]["us_a_decision"]
    for row in rows:
        row["share_of_tuned"] = row["us_a_decision"] / tuned
    doc = {"generation": str(args.generation), "matchup": args.matchup, "games": args.games, "rows": rows}
    write(args.out, run_info | doc)


if __name__ == "__main__":
    main()
