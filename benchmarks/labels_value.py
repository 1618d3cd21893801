"""A learned generation's value model fitted to the search's own estimates alone (no tuned games), written as a
generation that ``benchmarks/learned_budget.py`` can cut: does a model fitted to what the search's look-ahead found
let the look-ahead shrink?

Usage:

    python benchmarks/labels_value.py RUN/g0 --like reports/learning/g1/search.toml \
        --out reports/learning-budget/labels-g1
    python benchmarks/labels_value.py --play reports/learning-budget/labels-g1/search.toml --generation 2 \
        --like reports/learning/g1/search.toml --out reports/learning-budget/labels-g2 [--games 100]
    python benchmarks/learned_budget.py reports/learning-budget/labels-g1/search.toml ...

``RUN/g0`` is generation 0's recorded self-play of a ``simlab learn RUN --labels search`` run (its positions and
decisions parquet files, kept out of git; the shipped run's settings replay the shipped generation 0's games).
``--play STRATEGY`` plays the labelled self-play itself instead: with the model this script wrote before, labels
from labels, a generation further. The fit is the loop's (:func:`simlab.studies.learn.fit_value` to
:func:`~simlab.studies.learn.search_labels`, the held-out games of :func:`~simlab.studies.learn.split_games` left
out); ``--like`` gives the search settings, copied unchanged. Writes ``value.json``, ``search.toml`` and
``fit.json`` (held-out log-loss and Brier score, against the games' results, beside the 6-weight model's) into
``--out``. Not a test: a measurement's input.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from provenance import add_arguments, started, write  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "data", type=Path, nargs="?", help="a learn run's g0 folder (positions.parquet, decisions.parquet)"
    )
    parser.add_argument("--play", default=None, help="instead of DATA: play this search strategy's self-play")
    parser.add_argument("--games", type=int, default=200, help="with --play: games per seating")
    parser.add_argument("--seed", type=int, default=0, help="with --play: the self-play's seed")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--generation", type=int, default=1, help="the generation the model is written as")
    parser.add_argument("--like", type=Path, required=True, help="the generation whose search settings it keeps")
    parser.add_argument("--features", default="base")
    add_arguments(parser)
    args = parser.parse_args()
    if args.out is None:
        parser.error("--out FOLDER is required: the generation's files are written there")
    if (args.data is None) == (args.play is None):
        parser.error("give either DATA (a learn run's g0 folder) or --play STRATEGY")
    run_info = started(args.smoke)

    import polars as pl

    from simlab.runs.backend import source_commit
    from simlab.studies import learn
    from simlab.studies.expert_iteration import _search_toml
    from strategies.learned import value

    columns = ["seating", "game", "decision", "turn", "seat", "chosen", "search_value"]
    if args.play is None:
        positions = pl.read_parquet(args.data / "positions.parquet")
        decisions = pl.read_parquet(args.data / "decisions.parquet", columns=columns)
    else:
        t = time.process_time()
        positions, decisions = learn.self_play(args.games, args.seed, args.play, decisions=True, threads=args.threads)
        decisions = decisions.select(columns)
        print(f"self-play: {time.process_time() - t:.0f} CPU s", flush=True)
    train, held = learn.split_games(positions)
    labelled = learn.search_labels(train, decisions)
    provenance = {
        "generation": args.generation,
        "data": args.play or "search",
        "games_per_seating": int(positions.select("seating", "game").n_unique() / positions["seating"].n_unique()),
        "tuned_games_per_seating": 0,
        "positions": labelled.height,
        "searched_positions": int(labelled["searched"].sum()),
        "seed": args.seed if args.play else 0,
        "commit": source_commit() or "unknown",
        "command": " ".join(["python", *sys.argv]),
        "features": args.features,
        "labels": "search",
    }
    model = learn.fit_value(labelled, provenance, features=args.features, target="label")
    quality = learn.compare(model, held)
    print(quality)

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    value.write(model, out / "value.json")
    like = tomllib.loads(args.like.read_text(encoding="utf-8"))
    (out / "search.toml").write_text(_search_toml(args.generation, like["params"], provenance), encoding="utf-8")
    fit = {"positions": labelled.height, "held_positions": held.height, "fit": quality.to_dicts()}
    write(str(out / "fit.json"), run_info | fit)
    print(json.dumps(fit, indent=1))


if __name__ == "__main__":
    main()
