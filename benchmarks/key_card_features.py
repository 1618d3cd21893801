"""Do the key cards help the value model read a position? The same self-play positions, fitted twice (the base
features; the base features and the key cards, :data:`strategies.learned.features.ALL_FEATURE_NAMES`), each scored
on the same held-out games by log-loss and Brier score, overall and per villain, beside the 6-weight model.

Usage:

    python benchmarks/key_card_features.py reports/learning/g1/search.toml [--games 200] [--tuned-games 300]
                                           [--alphas 0.001,0.01,0.1] [--seed 21] [--threads 2]
                                           [--positions FILE] [--models DIR] [--out FILE]

``--games`` self-play games per seating (every ordered pairing, mirrors too, and the 3-player game's rotations),
the generation on every seat, recorded as ``simlab learn`` records them (every seat at the start of every turn;
every 5th game of a seating held out, :func:`simlab.studies.learn.split_games`), and ``--tuned-games`` tuned games
per seating join the fit as they join the loop's. ``--positions FILE`` keeps the self-play's positions as parquet
and reads them back on a second run with the same settings. The fits are the loop's own
(:func:`simlab.studies.learn.fit_value`: one hidden layer of 32, one BLAS thread, the same seed), at each L2 penalty
of ``--alphas`` (the loop's is the first: more inputs may want more of it). ``--models DIR``
writes each fit as a value model and a search strategy beside it (``DIR/<features>-<alpha>/value.json``,
``search.toml``:
the generation's settings, its horizon scored by that model), for ``benchmarks/candidate_gain.py`` to play.

Not a test: a measurement.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from provenance import add_arguments, started, write  # noqa: E402
from value_model_variants import scores  # noqa: E402


def strategy_beside(generation: str, model, where: Path, features: str) -> Path:
    """``model`` written to ``where/value.json`` and the search strategy ``generation`` scoring its horizon with it
    to ``where/search.toml``."""
    from strategies.learned import value

    where.mkdir(parents=True, exist_ok=True)
    value.write(model, where / "value.json")
    lines = [f"# {generation} refitted by benchmarks/key_card_features.py on the {features} features"]
    for line in Path(generation).read_text(encoding="utf-8").splitlines():
        if line.strip() == "[provenance]":
            break
        key = line.split("=")[0].strip()
        if key == "name":
            line = f'name = "{Path(generation).parent.name}-refit-{features}"'
        elif key == "value_model":
            line = 'value_model = "value.json"'
        elif key == "description":
            refit = f"{generation} with its value model refitted on its own self-play, {features} features"
            line = f'description = "{refit}"'
        lines.append(line)
    lines.append("[provenance]")
    lines += [f"{k} = {json.dumps(v)}" for k, v in model.provenance.items() if v is not None]
    path = where / "search.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("generation", help="a search strategy file (a learning run's g{k}/search.toml)")
    parser.add_argument("--games", type=int, default=200, help="self-play games per seating")
    parser.add_argument("--tuned-games", type=int, default=300, help="tuned games per seating in the fit")
    parser.add_argument("--alphas", default="0.001,0.01,0.1", help="L2 penalties, comma-separated")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--positions", type=Path, default=None, help="parquet of the self-play's positions, kept")
    parser.add_argument("--models", type=Path, default=None, help="write each fit and its search strategy here")
    add_arguments(parser)
    args = parser.parse_args()
    run_info = started(args.smoke)
    games, tuned_games = (10, 10) if args.smoke else (args.games, args.tuned_games)

    import polars as pl

    from simlab.studies import learn as L
    from strategies.learned import value

    t = time.perf_counter()
    if args.positions is not None and args.positions.is_file():
        frame = pl.read_parquet(args.positions)
        played = "read from " + str(args.positions)
    else:
        frame = L.positions(games, args.seed, args.generation, threads=args.threads)
        played = f"played in {time.perf_counter() - t:.0f} s"
        if args.positions is not None:
            frame.write_parquet(args.positions)
    print(f"self-play: {frame.height:,} positions, {played}", flush=True)
    train, held = L.split_games(frame)
    tuned = L.positions(tuned_games, args.seed + 1, "tuned", threads=args.threads)
    train = L.with_tuned(train, tuned)
    rows = [{"features": "6-weight", "alpha": None, "inputs": None, **scores(L.six_weight(held), held, value)}]
    print(json.dumps(rows[-1]), flush=True)
    for features, alpha in [(f, float(a)) for f in value.FEATURE_SETS for a in args.alphas.split(",")]:
        t = time.process_time()
        provenance = {
            "command": run_info["command"],
            "commit": run_info.get("commit"),
            "data": args.generation,
            "games_per_seating": games,
            "tuned_games_per_seating": tuned_games,
            "positions": train.height,
            "seed": args.seed,
            "features": features,
            "alpha": alpha,
        }
        model = L.fit_value(train, provenance, features=features, alpha=alpha)
        cpu = time.process_time() - t
        x = L.feature_matrix(held, features)
        p = L.shared(model.predict(x), held)
        inputs = int(model.weights[0])
        rows.append(
            {
                "features": features,
                "alpha": alpha,
                "inputs": inputs,
                "epochs": int(model.pipeline[-1].n_iter_),
                "cpu_seconds": round(cpu, 1),
                **scores(p, held, value),
            }
        )
        print(json.dumps(rows[-1]), flush=True)
        if args.models is not None:
            strategy_beside(args.generation, model, args.models / f"{features}-{alpha:g}", features)
    write(
        args.out,
        run_info
        | {
            "generation": args.generation,
            "games_per_seating": games,
            "tuned_games_per_seating": tuned_games,
            "seed": args.seed,
            "positions": frame.height,
            "fitted_positions": train.height,
            "held_out_positions": held.height,
            "rows": rows,
        },
    )


if __name__ == "__main__":
    main()
