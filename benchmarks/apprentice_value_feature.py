"""Does the apprentice agree with the search more when it also sees the learned value of each option's outcome?
An experiment.

Usage (on a learning run's self-play decisions and the value model fitted before them; the decisions stay out of
git, a run's folder holds them after its play step):

    python benchmarks/apprentice_value_feature.py reports/learning/g1/decisions.parquet reports/learning/g1/value.json
                                                  [--out reports/apprentice/value-feature.json]

Each option's one-step outcome is already described by the deciding seat's position features (the apprentice's
look ahead, :mod:`strategies.apprentice`); here the value model (the one generation 1's search scores its horizon
with, fitted on generation 0's games, so the decisions are new to it) turns those features into the log-odds that
the deciding seat wins, one more option feature. The conditional logit of :func:`simlab.studies.learn.fit_apprentice`
is fitted per villain with three feature sets: the tuned pick alone, the tuned pick and the value, and the
apprentice's features and the value. Every 5th game of a seating is held out
(:func:`simlab.studies.learn.split_games`); reported: the agreement with the search's picks on the held-out
decisions beside the tuned heuristic's, and the fitted weights of the tuned pick and the value. Not a test: a
measurement.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))

from provenance import add_arguments, started, write  # noqa: E402

CHUNK = 200_000  # rows of features expanded at once: the value model's inputs include the features' products
CLIP = 1e-9  # a probability this close to 0 or 1 gives a finite log-odds


def with_value(decisions: pl.DataFrame, model_file: Path) -> pl.DataFrame:
    from strategies.learned import features as learned_features
    from strategies.learned import value as learned_value

    model = learned_value.read(model_file)
    x = decisions.select(learned_features.FEATURE_NAMES).to_numpy().astype(np.float64)
    p = np.concatenate([model.predict(x[i : i + CHUNK]) for i in range(0, len(x), CHUNK)])
    p = np.clip(p, CLIP, 1 - CLIP)
    return decisions.with_columns(pl.Series("value_after", np.log(p / (1 - p))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("decisions", type=Path, help="a learning run's decisions.parquet")
    parser.add_argument("value_model", type=Path, help="the value model fitted before those games (value.json)")
    add_arguments(parser)
    args = parser.parse_args()
    run_info = started(args.smoke)

    from simlab.studies.learn import agreement, fit_apprentice, split_games
    from strategies.apprentice import OPTION_FEATURE_NAMES

    decisions = with_value(pl.read_parquet(args.decisions), args.value_model)
    train, held = split_games(decisions)
    sets = {
        "tuned pick": ["tuned_pick"],
        "tuned pick and value": ["tuned_pick", "value_after"],
        "apprentice features and value": [*OPTION_FEATURE_NAMES, "value_after"],
    }
    rows = []
    for label, names in sets.items():
        weights = fit_apprentice(train, names=names)
        measured = agreement(weights, held, names).filter(pl.col("villain") != "all")
        for r in measured.iter_rows(named=True):
            weight = dict(zip(names, weights[r["villain"]], strict=True))
            rows.append(
                {
                    "features": label,
                    "villain": r["villain"],
                    "decisions": r["decisions"],
                    "agreement": r["apprentice"],
                    "tuned_agreement": r["tuned"],
                    "tuned_pick_weight": float(weight["tuned_pick"]),
                    "value_weight": float(weight.get("value_after", 0.0)),
                }
            )
            print(rows[-1], flush=True)
    write(args.out, run_info | {"decisions": str(args.decisions), "value_model": str(args.value_model), "rows": rows})


if __name__ == "__main__":
    main()
