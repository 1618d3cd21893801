"""Cross-play of two runs' equilibrium mixtures: does either run's side lose to the other run's strategies?

Usage::

    python benchmarks/cross_play.py FOLDER_A FOLDER_B [--games 4000] [--seed 77] [--threads 2]

Each folder holds mixture files (``<matchup>.toml``, e.g. ``configs/equilibrium`` or a run's ``--out``). For each
matchup both have, it plays A against A, B against B, A's first villain against B's second and B's first against
A's second, and prints the first villain's score [95%]. If both runs found the same equilibrium value, the four
agree within their intervals plus epsilon; a side whose score drops when it meets the other run's opponent lost
to strategies its own run never met. Not a test: a measurement.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np


def score(matchup: str, first: str, second: str, games: int, seed: int, threads: int) -> tuple[float, float]:
    from simlab.runs.settings import RunSettings
    from simlab.runs.sim import run

    a, b = matchup.split("-vs-")
    res = run(matchup, RunSettings(games, seed, threads=threads), strategies={a: first, b: second}, keep_games=True)
    w = res.games["winner_index"]
    s = np.where(w == 0, 1.0, np.where(w < 0, 0.5, 0.0))
    return float(s.mean()), 1.959963984540054 * float(s.std(ddof=1)) / math.sqrt(s.size)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    fa, fb = Path(args.a), Path(args.b)
    shared = sorted({p.stem for p in fa.glob("*.toml")} & {p.stem for p in fb.glob("*.toml")})
    print(f"# A = {fa}, B = {fb}; {args.games:,} games each, seed {args.seed}: the first villain's score [95%]")
    for m in shared:
        x, y = m.split("-vs-")
        pa, pb = fa / f"{m}.toml", fb / f"{m}.toml"
        for label, first, second in (
            ("A/A", pa, pa),
            ("B/B", pb, pb),
            ("A-row/B-col", pa, pb),
            ("B-row/A-col", pb, pa),
        ):
            mean, half = score(m, f"{first}#{x}", f"{second}#{y}", args.games, args.seed, args.threads)
            print(f"{m:30s} {label:12s} {x} {mean:.1%} [{mean - half:.1%}, {mean + half:.1%}]", flush=True)


if __name__ == "__main__":
    main()
