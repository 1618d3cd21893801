"""Could the search be spared where it would keep the rollout policy's choice anyway? A gate over the decisions of
recorded search games: the share of the search's work (worlds played out, summed over a decision's options) spent
on the decisions where it left the tuned pick, and what a learned gate would keep.

Usage:

    python benchmarks/search_gate.py RUN/g0 [--out reports/learning-budget/search-gate.json]

``RUN/g0`` holds a ``simlab learn`` run's recorded generation-0 decisions (``decisions.parquet``, kept out of git).
A decision *leaves the tuned pick* when the option the search took is not the one its rollout policy (tuned play)
would have taken. The oracle gate searches exactly those decisions: the least work that keeps every choice the
search made. The learned gate is a gradient-boosted classifier (scikit-learn) over what is known before searching
(the decision's kind, its options, the turn, the decider's position features), fitted on four fifths of the games
(:func:`simlab.studies.learn.split_games`) and scored on the rest: searching the decisions it ranks highest, the
share of the work spent against the share of the departures kept. Not a test: a measurement.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from provenance import add_arguments, started, write  # noqa: E402

SHARES = (0.1, 0.2, 0.3, 0.5, 0.7)  # of the held-out decisions searched, highest ranked first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="a learn run's g0 folder (its decisions.parquet)")
    add_arguments(parser)
    args = parser.parse_args()
    run_info = started(args.smoke)

    import numpy as np
    import polars as pl
    from sklearn.ensemble import HistGradientBoostingClassifier

    from simlab.studies import learn

    options = pl.read_parquet(args.data / "decisions.parquet")
    own = {"seating", "game", "decision", "option", "chosen", "seat", "villain", "kind", "options", "turn"}
    searched = {"search_gain", "search_worlds", "search_value", "tuned_pick"}
    position = [c for c in options.columns if c not in own | searched]
    decisions = options.group_by("seating", "game", "decision", maintain_order=True).agg(
        pl.col("kind", "options", "turn").first(),
        pl.col("search_worlds").sum().alias("work"),
        (pl.col("chosen") & (pl.col("tuned_pick") == 0)).any().alias("leaves"),
        (pl.col("search_worlds") > 0).sum().alias("searched_options"),
        pl.col(position).first(),
    )
    work, leaves = decisions["work"].to_numpy(), decisions["leaves"].to_numpy()
    oracle = {"decisions": float(leaves.mean()), "work": float(work[leaves].sum() / work.sum())}
    print("oracle gate:", oracle, flush=True)

    train, held = learn.split_games(decisions)
    names = ["kind", "options", "turn", *position]
    gate = HistGradientBoostingClassifier(max_iter=300, random_state=0)
    gate.fit(train.select(names).to_numpy().astype(float), train["leaves"].to_numpy())
    rank = np.argsort(-gate.predict_proba(held.select(names).to_numpy().astype(float))[:, 1], kind="stable")
    held_work, held_leaves = held["work"].to_numpy()[rank], held["leaves"].to_numpy()[rank]
    rows = []
    for share in SHARES:
        k = int(round(share * held.height))
        rows.append(
            {
                "searched": share,
                "work": float(held_work[:k].sum() / held_work.sum()),
                "kept": float(held_leaves[:k].sum() / held_leaves.sum()),
            }
        )
        print(rows[-1], flush=True)
    doc = {
        "data": str(args.data),
        "decisions": decisions.height,
        # the work as it is: the worlds a decision's options were played out in (the reference option's none), and
        # the options played out at all, screening and halving included
        "worlds_a_decision": float(work.mean()),
        "options_searched_a_decision": float(decisions["searched_options"].mean()),
        "options_a_decision": float(decisions["options"].mean()),
        "held_decisions": held.height,
        "oracle": oracle,
        "rows": rows,
    }
    write(args.out, run_info | doc)


if __name__ == "__main__":
    main()
