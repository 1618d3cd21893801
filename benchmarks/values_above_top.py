"""Does the balance answer move above the top? Each matchup's value (its first villain's share of games won; in the
3-player game each villain's share) with the top generation at a larger budget on every seat, beside the top's own
values from its self-play, by the loop's rule: a value has moved when it differs by more than 2 points plus both
95% half-widths (:data:`simlab.studies.expert_iteration.SETTLED_MOVE`).

Usage:

    python benchmarks/values_above_top.py reports/learning/g1/search.toml [--budget 32x8] [--games 400]
                                          [--seed 41] [--threads 2] [--out FILE]

The probe measures how much one villain gains with more budget against the top; this measures what a designer
reads: whether the answers change when every seat has it. ``--games`` per matchup, seats rotated (both orders in
a 2-player game, every rotation in the 3-player one). The top's values are the generation's ``play.json`` in its
folder (``play-1.json``, a retry's, where it has more games). Not a test: a measurement.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from learned_budget import variant  # noqa: E402
from provenance import add_arguments, started, write  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("generation", type=Path, help="a learned generation's search.toml (its folder's play.json)")
    parser.add_argument("--budget", default="32x8", help="SAMPLESxHORIZON on every seat")
    parser.add_argument("--games", type=int, default=400, help="games per matchup, seats rotated")
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--threads", type=int, default=None)
    add_arguments(parser)
    args = parser.parse_args()
    run_info = started(args.smoke)
    games = 12 if args.smoke else args.games

    from simlab.runs.settings import RunSettings
    from simlab.runs.sim import run
    from simlab.studies.expert_iteration import SETTLED_MOVE

    samples, horizon = (int(x) for x in args.budget.split("x"))
    where = Path(args.out).parent if args.out else Path(".")
    where.mkdir(parents=True, exist_ok=True)
    path = str(variant(args.generation, samples, horizon, where).resolve())
    # the generation's self-play with the most games (a retry's plays twice the first try's)
    plays = [json.loads(p.read_text()) | {"file": str(p)} for p in sorted(args.generation.parent.glob("play*.json"))]
    played = max(plays, key=lambda d: d["games_per_seating"])
    top = {(r["matchup"], r["villain"]): r for r in played["values"]}
    matchups = list(dict.fromkeys(m for m, _ in top))
    rows = []
    for matchup in matchups:
        villains = matchup.split("-vs-")
        t = time.process_time()
        every_seat = dict.fromkeys(villains, path)
        res = run(matchup, RunSettings(games, args.seed, threads=args.threads, strategies=every_seat))
        cpu = (time.process_time() - t) / games
        summary = {r["outcome"]: r for r in res.summary.to_dicts()}
        for v in villains if len(villains) == 3 else villains[:1]:
            was, now = top[(matchup, v)], summary[v]
            half = (was["high"] - was["low"]) / 2 + (now["high"] - now["low"]) / 2
            move = now["rate"] - was["value"]
            rows.append(
                {
                    "matchup": matchup,
                    "villain": v,
                    "top": was["value"],
                    "top_low": was["low"],
                    "top_high": was["high"],
                    "top_games": was["games"],
                    "value": now["rate"],
                    "low": now["low"],
                    "high": now["high"],
                    "games": now["games"],
                    "move": move,
                    "allowance": SETTLED_MOVE + half,
                    "moved": abs(move) > SETTLED_MOVE + half,
                    "cpu_per_game": round(cpu, 4),
                }
            )
            print(json.dumps(rows[-1]), flush=True)
        # after each matchup: a long run stopped part way keeps the matchups it finished
        complete = matchup == matchups[-1]
        write(
            args.out,
            run_info
            | {
                "generation": str(args.generation),
                "budget": args.budget,
                "top_values": played["file"],
                "games": games,
                "seed": args.seed,
                "complete": complete,
                "moved": sum(r["moved"] for r in rows),
                "rows": rows,
            },
        )


if __name__ == "__main__":
    main()
