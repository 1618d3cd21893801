"""Issue 55's two targets for the apprentice, measured: it plays at least as many games a second as ``expert``, and
its seat beats the ``strong`` mixture by at least 10 points for every villain.

* **Speed**: CPU seconds a game with the level on both seats (Gaston against the Horned King), ``apprentice`` and
  ``expert`` timed in turns, ``--rounds`` times each on the same games, after a warm-up that compiles them: the ratio
  of each round's pair, so the machine's load cancels out of the comparison.
* **Strength**: each villain's seat plays ``apprentice`` against ``strong`` on the other seat, paired on the same
  games with ``strong``'s own (:func:`simlab.studies.learn.paired_gain`), and the same for ``tuned``, the level the
  apprentice learned to agree with, as the yardstick.

Usage:

    python benchmarks/apprentice_level.py [--games 1000] [--speed-games 200] [--rounds 3] [--seed 41]
                                          [--threads 2] [--out FILE]

Not a test: a measurement.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from learned_budget import cpu_per_game  # noqa: E402
from provenance import add_arguments, started, write  # noqa: E402

LEVELS = ("apprentice", "expert")
CANDIDATES = ("apprentice", "tuned")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="paired games per pairing and villain")
    parser.add_argument("--speed-games", type=int, default=200, help="games a timing round")
    parser.add_argument("--rounds", type=int, default=3, help="timing rounds of each level, in turns")
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--threads", type=int, default=None)
    add_arguments(parser)
    args = parser.parse_args()
    run_info = started(args.smoke)
    games = 4 if args.smoke else args.games
    speed_games = 4 if args.smoke else args.speed_games

    from simlab.data.cards import VILLAIN_KEYS
    from simlab.studies.learn import paired_gain

    for level in LEVELS:  # compiling is no level's time
        cpu_per_game(level, 2, args.seed, 1)
    times: dict[str, list[float]] = {level: [] for level in LEVELS}
    for _ in range(args.rounds):
        for level in LEVELS:
            times[level].append(cpu_per_game(level, speed_games, args.seed, 1))
    ratios = [a / e for a, e in zip(times["apprentice"], times["expert"], strict=True)]
    speed = {
        "cpu_per_game": {level: float(np.median(t)) for level, t in times.items()},
        "rounds": times,
        "ratio": float(np.median(ratios)),  # apprentice CPU a game over expert's: above 1 is slower
        "ratio_range": [float(min(ratios)), float(max(ratios))],
        "games": speed_games,
    }
    print(json.dumps({"speed": speed}), flush=True)
    rows = []
    for candidate in CANDIDATES:
        for v in VILLAIN_KEYS:
            g = paired_gain(v, candidate, "strong", games, args.seed, args.threads, VILLAIN_KEYS)
            rows.append({"candidate": candidate, "villain": v, **g})
            print(json.dumps(rows[-1], default=float), flush=True)
    write(
        args.out,
        run_info
        | {
            "games": games,
            "seed": args.seed,
            "speed": speed,
            "target_gain": 0.10,
            "rows": rows,
        },
    )


if __name__ == "__main__":
    main()
