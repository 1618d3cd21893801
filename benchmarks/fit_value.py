"""Fit the search player's value model from simlab's own games and ship it (``strategies/search_value.toml``).

Usage: python benchmarks/fit_value.py [--games 400] [--seed 0] [--level tuned] [--holdout 200]
                                      [--out strategies/search_value.toml]
                                      [--calibration reports/search-value/calibration.csv]

Plays ``--games`` games per seating (every ordered pairing, mirrors included, and every rotation of the
three-player game), every seat at ``--level`` (the search's rollout policy), takes every seat's features at the
start of every turn and fits the conditional logit of :mod:`simlab.studies.value`; then plays ``--holdout`` more
games per seating on the next seed and prints the calibration of one random position per held-out game (per decile
of predicted chance: predicted, won, z) and writes it to ``--calibration`` (the docs' calibration table). Writes
the model with its provenance. ``--games 0`` fits nothing: it checks the shipped model's calibration.
"""

from __future__ import annotations

import argparse
import subprocess
import time
from pathlib import Path

import numpy as np
import polars as pl

from simlab.studies import value

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=400, help="games per seating to fit on")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--level", default="tuned", help="the level every seat plays (the rollout policy)")
    ap.add_argument("--holdout", type=int, default=200, help="games per seating on seed + 1 to check calibration")
    ap.add_argument("--out", default=str(ROOT / "strategies" / "search_value.toml"))
    ap.add_argument("--calibration", default=str(ROOT / "reports" / "search-value" / "calibration.csv"))
    args = ap.parse_args()
    if args.games == 0:
        check(read_model(Path(args.out)), args)
        return
    t = time.process_time()
    frame = value.positions(args.games, args.seed, args.level)
    model = value.fit(frame)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    provenance = {
        "command": f"python benchmarks/fit_value.py --games {args.games} --seed {args.seed} --level {args.level}",
        "commit": commit,
        "games_per_seating": args.games,
        "positions": frame.select("seating", "game", "turn").n_unique(),
        "seed": args.seed,
        "level": args.level,
    }
    value.write_model(model, Path(args.out), provenance)
    print(f"fitted on {provenance['positions']} positions in {time.process_time() - t:.0f} s of CPU: {args.out}")
    check(model, args)


def check(model: dict[str, np.ndarray], args: argparse.Namespace) -> None:
    """The calibration on ``--holdout`` games per seating of the next seed, printed and written."""
    if not args.holdout:
        return
    held = value.positions(args.holdout, args.seed + 1, args.level)
    table = value.calibration(model, held).with_columns(pl.col("bin") + 1)
    with pl.Config(tbl_rows=20):
        print(table)
    out = Path(args.calibration)
    out.parent.mkdir(parents=True, exist_ok=True)
    table.write_csv(out)
    print(f"calibration of {args.holdout} held-out games per seating (seed {args.seed + 1}): {out}")


def read_model(path: Path) -> dict[str, np.ndarray]:
    """The model ``value.write_model`` wrote, as :func:`value.fit` returns it."""
    import tomllib

    doc = tomllib.loads(path.read_text(encoding="utf-8"))["villains"]
    return {v: np.array([w[f] for f in value.FEATURE_NAMES] + [w["constant"]]) for v, w in doc.items()}


if __name__ == "__main__":
    main()
