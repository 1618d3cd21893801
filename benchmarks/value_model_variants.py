"""Would a bigger value model, or more of a generation's games, predict better? Variants of the value model's fit
on a learning run's self-play, each scored on the same held-out games by log-loss and Brier score (as
``simlab learn`` scores its own fit beside the 6-weight model), overall and per villain.

Usage:

    python benchmarks/value_model_variants.py reports/learning/g1 [--variants shipped,both,h64,h64x32,no-tuned]
                                              [--threads 2] [--out FILE]

The folder is a generation's (``g{k}``) with a first try's and a retry's self-play (``positions.parquet``,
``positions-1.parquet``: the parquet stays out of git, and ``simlab learn`` on the run's folder plays it again).
The held-out games are the retry's every 5th game of a seating (:func:`simlab.studies.learn.split_games`), as its
fit measured them. The variants, each the shipped network's pipeline (standardised inputs, one BLAS thread, the
same seed) with one thing changed:

- ``shipped``: the retry's games and the tuned level's, one hidden layer of 32 (what ``fit-1.json`` measured);
- ``both``: the first try's games added;
- ``h64``: both, 64 hidden units;
- ``h64x32``: both, two hidden layers of 64 and 32;
- ``no-tuned``: both, without the tuned level's games.

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

VARIANTS = {
    # name: (the first try's games too, the tuned level's games, hidden layers)
    "shipped": (False, True, (32,)),
    "both": (True, True, (32,)),
    "h64": (True, True, (64,)),
    "h64x32": (True, True, (64, 32)),
    "no-tuned": (True, False, (32,)),
}


def training_rows(frame, value, learn):
    """The network's inputs, labels and weights as ``strategies.learned.value.fit`` makes them (a result of 1/2 is
    a win and a loss of half the weight each)."""
    x = value.expand(learn.feature_matrix(frame))
    return value.training_rows(x, frame["result"].to_numpy(), learn.game_weights(frame))


def scores(p, held, value) -> dict:
    """Log-loss and Brier of the seats' chances ``p`` on the decided held-out games, overall and per villain."""
    result = held["result"].to_numpy()
    decided = result != 0.5
    villain = held["villain"].to_numpy()
    out = {"log_loss": value.log_loss(p[decided], result[decided]), "brier": value.brier(p[decided], result[decided])}
    out["by_villain"] = {
        v: value.log_loss(p[decided & (villain == v)], result[decided & (villain == v)]) for v in sorted(set(villain))
    }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("generation", type=Path, help="a learning run's g{k} folder with both tries' self-play")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--threads", type=int, default=2, help="threads playing the tuned level's games")
    add_arguments(parser)
    args = parser.parse_args()
    run_info = started(args.smoke)

    import polars as pl
    from sklearn.neural_network import MLPClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from threadpoolctl import threadpool_limits

    from simlab.studies import learn as L
    from simlab.studies.expert_iteration import step_seed
    from strategies.learned import value

    where = args.generation
    k = int(where.name.removeprefix("g"))
    settings = json.loads((where.parent / "settings.json").read_text())
    first = pl.read_parquet(where / "positions.parquet")
    first = first.with_columns(("first:" + pl.col("seating")).alias("seating"))  # its games are not the retry's
    retry = pl.read_parquet(where / "positions-1.parquet")
    first_train, _ = L.split_games(first)
    retry_train, held = L.split_games(retry)
    tuned = L.positions(
        settings["tuned_games"],
        step_seed(settings["seed"], k, "tuned"),
        "tuned",
        villains=tuple(settings["villains"]),
        threads=args.threads,
    )
    rows = [{"variant": "6-weight", "positions": None, "hidden": None, **scores(L.six_weight(held), held, value)}]
    print(json.dumps(rows[-1]), flush=True)
    for name in args.variants.split(","):
        both, with_tuned, hidden = VARIANTS[name]
        train = pl.concat([first_train, retry_train]) if both else retry_train
        if with_tuned:
            train = L.with_tuned(train, tuned)
        t = time.process_time()
        x, y, w = training_rows(train, value, L)
        network = MLPClassifier(
            hidden_layer_sizes=hidden, alpha=value.ALPHA, max_iter=300, early_stopping=True, random_state=value.SEED
        )
        pipeline = make_pipeline(StandardScaler(), network)
        with threadpool_limits(1):
            pipeline.fit(x, y, mlpclassifier__sample_weight=w)
        p = L.shared(pipeline.predict_proba(value.expand(L.feature_matrix(held)))[:, 1], held)
        rows.append(
            {
                "variant": name,
                "positions": train.height,
                "hidden": "x".join(map(str, hidden)),
                "epochs": int(network.n_iter_),
                "cpu_seconds": round(time.process_time() - t, 1),
                **scores(p, held, value),
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    write(args.out, run_info | {"generation": str(where), "held_out_positions": held.height, "rows": rows})


if __name__ == "__main__":
    main()
