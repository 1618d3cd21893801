"""Does the apprentice learn more from the search's estimate of every option than from its picks? An experiment.

Usage (on a learning run's self-play decisions, which stay out of git: a run's folder holds them after its play
step):

    python benchmarks/apprentice_soft_targets.py reports/learning/g0/decisions.parquet [--taus 0.01,0.03,0.1]
                                                 [--out reports/apprentice/soft-targets.json]

The apprentice's features (:mod:`strategies.apprentice`) fitted, per villain, as a conditional logit on soft
targets: at each decision, a softmax over the options of the search's mean gain over its rollout option (the
rollout option itself 0), at temperature tau; a decision the search did not measure keeps its pick. Every 5th game
of a seating is held out (:func:`simlab.studies.learn.split_games`). Reported per tau: the agreement with the
search's picks on the held-out decisions beside the tuned heuristic's, and the mean search gain of the apprentice's
pick beside the search's own pick's (the latter biased upwards: the search takes the largest of noisy estimates).
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

ROLLOUT_WORLDS = 32  # the rollout option counts as measured: its gain over itself is 0 by definition


def soft_targets(part: pl.DataFrame, starts: np.ndarray, group: np.ndarray, tau: float) -> np.ndarray:
    gain = np.nan_to_num(part["search_gain"].to_numpy().astype(float))
    worlds = np.where(part["tuned_pick"].to_numpy() == 1, ROLLOUT_WORLDS, part["search_worlds"].to_numpy())
    chosen = part["chosen"].to_numpy().astype(float)
    measured = np.add.reduceat((worlds > 0).astype(int), starts)[group] > 1
    s = np.where(worlds > 0, gain / tau, -np.inf)
    top = np.maximum.reduceat(np.where(np.isfinite(s), s, -1e300), starts)[group]
    e = np.where(np.isfinite(s), np.exp(s - top), 0.0)
    return np.where(measured, e / np.add.reduceat(e, starts)[group], chosen)


def soft_fit(part: pl.DataFrame, tau: float, alpha: float) -> np.ndarray:
    from scipy.optimize import minimize

    from simlab.studies.learn import decision_starts
    from strategies.apprentice import OPTION_FEATURE_NAMES

    x = part.select(OPTION_FEATURE_NAMES).to_numpy().astype(np.float64)
    starts = decision_starts(part)
    group = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, len(x)]))
    t = soft_targets(part, starts, group, tau)
    mean, scale = x.mean(0), x.std(0)
    scale[scale == 0] = 1.0
    z = (x - mean) / scale
    n = len(starts)

    def loss(w):
        score = z @ w
        top = np.maximum.reduceat(score, starts)[group]
        e = np.exp(score - top)
        total = np.add.reduceat(e, starts)[group]
        return -(t * (score - top - np.log(total))).sum() / n + 0.5 * alpha * w @ w, z.T @ (
            e / total - t
        ) / n + alpha * w

    return minimize(loss, np.zeros(z.shape[1]), jac=True, method="L-BFGS-B", options={"maxiter": 500}).x / scale


def pick_gains(weights, held: pl.DataFrame) -> tuple[float, float]:
    from simlab.studies.learn import apprentice_choices, decision_starts

    picks = apprentice_choices(weights, held)
    starts = decision_starts(held)
    group = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, held.height]))
    gain = np.nan_to_num(held["search_gain"].to_numpy())
    mine = held["option"].to_numpy() == picks[group]
    return float(gain[mine].mean()), float(
        np.nan_to_num(held.filter(pl.col("chosen"))["search_gain"].to_numpy()).mean()
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("decisions", type=Path)
    parser.add_argument("--taus", default="0.01,0.03,0.1")
    parser.add_argument("--alpha", type=float, default=1e-3)
    add_arguments(parser)
    args = parser.parse_args()
    info = started(args.smoke)

    from simlab.studies.learn import agreement, split_games

    decisions = pl.read_parquet(args.decisions)
    train, held = split_games(decisions)
    rows = []
    for tau in (float(x) for x in args.taus.split(",")):
        t = time.process_time()
        villains = sorted(decisions["villain"].unique().to_list())
        weights = {v: soft_fit(train.filter(pl.col("villain") == v), tau, args.alpha) for v in villains}
        every = agreement(weights, held).filter(pl.col("villain") == "all").row(0, named=True)
        mine, search = pick_gains(weights, held)
        rows.append(
            {
                "tau": tau,
                "decisions": every["decisions"],
                "agreement": every["apprentice"],
                "tuned_agreement": every["tuned"],
                "pick_gain": mine,
                "search_pick_gain": search,
                "cpu_seconds": round(time.process_time() - t, 1),
            }
        )
        print(rows[-1], flush=True)
    write(args.out, info | {"decisions_file": str(args.decisions), "alpha": args.alpha, "rows": rows})


if __name__ == "__main__":
    main()
