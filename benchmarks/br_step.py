"""How a best response's first CMA-ES step decides what it finds: each side of a shipped equilibrium tuned against
the other side's mixture from its own most-weighted strategy, at several (step, games per candidate) settings, each
validated against that strategy on fresh games (paired 95% interval).

    python benchmarks/br_step.py gaston-vs-horned-king [--budget 150000] [--validation 3000] [--threads 2]

The result that set simlab.studies.equilibrium.DEFAULT_STEP (gaston-vs-horned-king, the mixtures shipped by 7037349,
150,000 search games, 3,000 validation games a pairing, seed 11), validated change:

    step  games/candidate  gaston                 horned-king
    1.0   1000             +0.0 (returned start)  +0.0 (returned start)
    0.3   1000             +5.9 [+3.6, +8.1]      +7.3 [+5.1, +9.5]
    0.3   250              +5.8 [+3.5, +8.1]      +6.4 [+4.1, +8.7]
    0.1   250              +7.4 [+5.2, +9.6]      +3.3 [+1.0, +5.5]
"""

from __future__ import annotations

import argparse
import time

from simlab.runs.settings import RunSettings
from simlab.studies.equilibrium import read_equilibrium_file
from simlab.studies.tune import tune

SETTINGS = ((1.0, 1000), (0.3, 1000), (0.3, 250), (0.1, 250))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("matchup")
    ap.add_argument("--folder", default="configs/equilibrium")
    ap.add_argument("--budget", type=int, default=150_000)
    ap.add_argument("--validation", type=int, default=3_000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    shipped = read_equilibrium_file(f"{args.folder}/{args.matchup}.toml")
    a, b = shipped.villains
    for v, opp in ((a, b), (b, a)):
        own, theirs = shipped.mixture(v), shipped.mixture(opp)
        start = max(own.components, key=lambda c: c[1])[0]
        for step, per_candidate in SETTINGS:
            t0 = time.perf_counter()
            res = tune(
                v,
                args.budget,
                start,
                {opp: theirs},
                per_candidate,
                args.validation,
                purpose=f"br-step:{args.matchup}",
                objective="2p:current=1",
                drop_penalty=0.0,
                versus=opp,
                step=step,
                settings=RunSettings(threads=args.threads, seed=args.seed),
            )
            imp, prov = res.improvement, res.provenance
            print(
                f"{args.matchup} {v} step={step} games/candidate={per_candidate} generations={prov['generations']} "
                f"search {prov['search_start_score']:.3f}->{prov['search_best_score']:.3f} validated "
                f"{imp['change']:+.3f} [{imp['change_low']:+.3f}, {imp['change_high']:+.3f}] "
                f"{time.perf_counter() - t0:.0f} s",
                flush=True,
            )


if __name__ == "__main__":
    main()
