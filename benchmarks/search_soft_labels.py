"""Can the search's own estimates label the value model's positions? Soft labels in the search's games.

Usage:

    python benchmarks/search_soft_labels.py [--games 100] [--level search] [--seed 41] [--threads 2] [--out FILE]

Fitted to ceiling play-outs as soft labels, the value model needs a twentieth of the games it needs fitted to the
games' results, and every doubling of the labelled games takes it a little closer to the best value knowable
(``benchmarks/value_ceiling.py``, in tuned play). The ceiling costs 64 play-outs a position; the search already
plays out every position it decides and records what it estimates each option is worth (``search_value``). Is that
estimate a label worth fitting to?

* **Games**: ``--games`` self-play games per seating with ``--level`` on every seat (every ordered pairing,
  mirrors too, and the 3-player game's rotations; :func:`simlab.studies.learn.self_play` with its decisions).
  Every 5th game of a seating is held out to score; the others fit, all of them or every 2nd or 4th.
* **The label**: at the start of a seat's turn, the search's value of the option it took at its first searched
  decision of that turn (its estimate of its chance to win, from the position a decision or so after the turn
  began); in a 2-player game the opponent's label at the same position is one minus it. Positions without one (the
  other seats of a 3-player game, turns with no searched decision) keep the game's result
  (:func:`simlab.studies.learn.search_labels`, which ``simlab learn --labels search`` fits to).
* **Scores** on the held-out games' positions of decided games (each seat's chance shared out over the position's
  seats, as the search uses the model): log-loss and Brier score against the game's result of the model fitted to
  the results (the loop's fit) and to the soft labels, at each data size; beside them the search's own estimate, at
  the positions that have one, and the 6-weight model.

Not a test: a measurement.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))

from provenance import add_arguments, started, write  # noqa: E402


def main() -> None:
    from simlab.studies import learn
    from strategies.learned import value

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="self-play games per seating")
    ap.add_argument("--level", default="search", help="the player on every seat (a search level or strategy)")
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--threads", type=int, default=2)
    add_arguments(ap)
    args = ap.parse_args()
    doc = started(args.smoke)
    cpu, wall = time.process_time(), time.perf_counter()
    positions, decisions = learn.self_play(args.games, args.seed, args.level, threads=args.threads, decisions=True)
    play_seconds = time.process_time() - cpu
    frame = learn.search_labels(positions, decisions)
    fit_on, held = learn.split_games(frame)  # every 5th game of a seating held out, as the loop's fit scores
    decided = held["result"].to_numpy() != 0.5
    rows = []

    def add(name, key, p, mask=None, **more):
        keep = decided if mask is None else decided & mask
        p = np.asarray(p, np.float64)[keep]
        r = held["result"].to_numpy()[keep]
        rows.append(
            {
                "model": name,
                "key": key,
                "log_loss": value.log_loss(p, r),
                "brier": value.brier(p, r),
                "scored_positions": int(keep.sum()),
                **dict.fromkeys(("target", "games_per_seating", "positions")),
                **more,
            }
        )
        print(f"{name:58s} log-loss {rows[-1]['log_loss']:.4f}  Brier {rows[-1]['brier']:.4f}", flush=True)

    add("a coin (1 / seats)", "coin", 1.0 / held["seats"].to_numpy().astype(np.float64))
    add("6-weight (strategies/search_value.toml)", "six-weight", learn.six_weight(held))
    searched = held["searched"].to_numpy()
    label = np.clip(held["label"].to_numpy(), 1e-6, 1 - 1e-6)
    add("the search's own estimate, where it has one", "search-estimate", label, searched)
    add("6-weight, the same positions", "six-weight-searched", learn.six_weight(held), searched)
    x = learn.feature_matrix(held)
    for every in (4, 2, 1):
        part = fit_on.filter(pl.col("game") % every == 0)
        games = part.select("seating", "game").n_unique() // part["seating"].n_unique()
        for target in ("result", "label"):
            model = learn.fit_value(part, target=target)
            p = learn.shared(model.predict(x), held)
            more = {"target": target, "games_per_seating": games, "positions": part.height}
            add(f"fitted to the {target}s of {games} games a seating", f"{target}-{games}", p, **more)
            add(
                f"fitted to the {target}s of {games} games a seating, same positions",
                f"{target}-{games}-searched",
                p,
                searched,
                **more,
            )
    doc |= {
        "level": args.level,
        "games_per_seating": args.games,
        "held_out_every": learn.HELD_EVERY,
        "seed": args.seed,
        "threads": args.threads,
        "positions": frame.height,
        "labelled_positions": int(frame["searched"].sum()),
        "held_positions": held.height,
        "scored_positions": int(decided.sum()),
        "cpu_seconds": {"games": round(play_seconds, 1), "all": round(time.process_time() - cpu, 1)},
        "wall_seconds": round(time.perf_counter() - wall, 1),
        "rows": rows,
    }
    write(args.out, doc)


if __name__ == "__main__":
    main()
