"""Is a candidate generation stronger than the one it would replace? Each villain's seat plays the candidate against
the incumbent on every other seat, paired on the same games with the incumbent's own (the loop's acceptance,
:func:`simlab.studies.learn.paired_gain`), and each costs CPU seconds a game with it on both seats.

Usage:

    python benchmarks/candidate_gain.py CANDIDATE.toml INCUMBENT.toml [--games 300] [--seed 31]
                                        [--villains V,...] [--threads 2] [--out FILE]

For example a refit of generation 1 on key-card features (``benchmarks/key_card_features.py --models DIR``)
against generation 1 itself. Not a test: a measurement.
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("candidate", type=Path, help="a search strategy file")
    parser.add_argument("incumbent", type=Path, help="the search strategy file it would replace")
    parser.add_argument("--games", type=int, default=300, help="paired games per pairing and villain")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--villains", default=None, help="the villains whose seat the candidate takes (default all)")
    parser.add_argument("--threads", type=int, default=None)
    add_arguments(parser)
    args = parser.parse_args()
    run_info = started(args.smoke)
    games = 4 if args.smoke else args.games

    from simlab.data.cards import VILLAIN_KEYS
    from simlab.studies.learn import paired_gain

    candidate, incumbent = str(args.candidate.resolve()), str(args.incumbent.resolve())
    villains = args.villains.split(",") if args.villains else list(VILLAIN_KEYS)
    cost = {
        "candidate": cpu_per_game(candidate, 20, args.seed, args.threads),
        "incumbent": cpu_per_game(incumbent, 20, args.seed, args.threads),
    }
    print(json.dumps({"cpu_per_game": cost}), flush=True)
    cache: dict = {}  # the incumbent's own games, played once for every villain
    gains = {}
    for v in villains:
        gains[v] = paired_gain(v, candidate, incumbent, games, args.seed, args.threads, VILLAIN_KEYS, cache)
        print(json.dumps({v: gains[v]}, default=float), flush=True)
    rows = [{"villain": v, **g} for v, g in gains.items()]
    write(
        args.out,
        run_info
        | {
            "candidate": str(args.candidate),
            "incumbent": str(args.incumbent),
            "games": games,
            "seed": args.seed,
            "cpu_per_game": cost,
            "pooled": float(np.mean([g["gain"] for g in gains.values()])),
            "rows": rows,
        },
    )


if __name__ == "__main__":
    main()
