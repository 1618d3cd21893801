"""How cheap can a learned generation's search be? Each smaller budget (worlds sampled, turns played out before
the learned value model scores the end) against the generation at its full budget, paired, per villain, with the
CPU seconds a game of each: issue 55's "a shorter horizon is allowed where the value model is good enough" and its
target of at most 0.10 CPU s a game with the top generation on both seats.

Usage:

    python benchmarks/learned_budget.py reports/learning/g2/search.toml [--budgets 16x2,8x2,16x1]
                                        [--games 300] [--seed 11] [--villains V,...] [--threads 2] [--out FILE]

``--against strong`` also plays each budget, the full one included, against a scripted level on every other seat
(paired with the level's own games): what strength a budget buys above that level.

A larger budget measures the other way: which part of the probe's 4x budget (worlds, turns or both) a villain gains
by (``--budgets 128x4,32x8,32x16,128x16 --villains lady-tremaine``).

For each budget SAMPLESxHORIZON, the variant (the same file, the same value model, only those two settings changed)
plays each villain's seat against the full-budget generation on every other seat, paired on the same games with
the full budget's own (:func:`simlab.studies.learn.paired_gain`): the gain [95%] per villain, pooled, and the CPU
seconds per game of the variant on both seats of one pairing. A budget whose gain interval reaches above -2
points for every villain and which costs at most 0.10 CPU s a game is a candidate for the loop's next generations.
Not a test: a measurement.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from provenance import add_arguments, started, write  # noqa: E402

from strategies.search import BUDGET_VILLAINS, budget_keys  # noqa: E402

# each villain's own budget setting, by the setting it stands for: samples_lady_tremaine -> samples
OWN_BUDGET = {
    own: general for v in BUDGET_VILLAINS for own, general in zip(budget_keys(v), ("samples", "horizon"), strict=True)
}


def with_settings(base: Path, where: Path, tag: str, **settings: float) -> Path:
    """``base`` with ``settings`` changed (e.g. ``samples``, ``horizon``, ``rollout``), written into ``where`` as
    ``<generation>-<tag>.toml``, its value model named by its path (the one beside ``base``). A setting changes each
    villain's own too (``samples_lady_tremaine`` of a climbed generation), so the variant plays one budget."""
    lines = []
    for line in base.read_text(encoding="utf-8").splitlines():
        key = line.split("=")[0].strip()
        general = OWN_BUDGET.get(key, key)
        if general in settings:
            line = f"{key} = {float(settings[general])}"
        elif key == "name":
            line = f'name = "{base.stem}-{tag}"'
        elif key == "value_model":
            line = f'value_model = "{(base.parent / "value.json").resolve()}"'
        lines.append(line)
    path = where / f"{base.parent.name}-{tag}.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def variant(base: Path, samples: int, horizon: int, where: Path) -> Path:
    """``base`` with its budget set to ``samples`` worlds and ``horizon`` turns, written beside its value model."""
    return with_settings(base, where, f"{samples}x{horizon}", samples=samples, horizon=horizon)


def full_budget(strategy: str) -> str:
    """``strategy``'s budget as the learning page writes it: 32x4, or each villain's (G 64x4, LT 64x8, HK 64x4)."""
    from simlab.studies.expert_iteration import budget_text, strategy_budget

    return budget_text(strategy_budget(strategy, BUDGET_VILLAINS))


def cpu_per_game(strategy: str, games: int, seed: int, threads: int | None) -> float:
    from simlab.runs.settings import RunSettings
    from simlab.runs.sim import run

    t = time.process_time()
    both = {"gaston": strategy, "horned-king": strategy}
    run("gaston-vs-horned-king", RunSettings(games, seed, threads=threads, strategies=both))
    return (time.process_time() - t) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("generation", type=Path, help="a learned generation's search.toml")
    parser.add_argument("--budgets", default="16x2,8x2,16x1", help="SAMPLESxHORIZON, comma-separated")
    parser.add_argument("--games", type=int, default=300, help="paired games per pairing and villain")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--villains", default=None, help="the villains whose seat the budget takes (default all)")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument(
        "--against", default=None, help="also each budget's gain over this level (e.g. strong), on its every other seat"
    )
    add_arguments(parser)
    args = parser.parse_args()
    run_info = started(args.smoke)

    from simlab.data.cards import VILLAIN_KEYS
    from simlab.studies.learn import paired_gain

    full = str(args.generation.resolve())
    rows = [{"budget": full_budget(full), "cpu_per_game": None, "gains": {}}]
    rows[0]["cpu_per_game"] = cpu_per_game(full, 20, args.seed, args.threads)
    villains = args.villains.split(",") if args.villains else VILLAIN_KEYS
    below: dict = {}  # the level's own games, played once

    def over_level(path: str) -> dict:
        if not args.against:
            return {}
        gains = {
            v: paired_gain(v, path, args.against, args.games, args.seed, args.threads, VILLAIN_KEYS, below)
            for v in villains
        }
        print(json.dumps({"over": args.against, "gains": gains}, default=float), flush=True)
        return {"over_level": gains, "over_level_pooled": float(np.mean([g["gain"] for g in gains.values()]))}

    rows[0].update(over_level(full))
    where = Path(args.out).parent if args.out else Path(".")
    where.mkdir(parents=True, exist_ok=True)
    # the full budget's own games do not depend on the variant: played once, paired with every budget
    cache: dict = {}
    for budget in args.budgets.split(","):
        samples, horizon = (int(x) for x in budget.split("x"))
        path = str(variant(args.generation, samples, horizon, where))
        gains = {
            v: paired_gain(v, path, full, args.games, args.seed, args.threads, VILLAIN_KEYS, cache) for v in villains
        }
        pooled = float(np.mean([g["gain"] for g in gains.values()]))
        rows.append(
            {
                "budget": budget,
                "cpu_per_game": cpu_per_game(path, 20, args.seed, args.threads),
                "gains": gains,
                "pooled": pooled,
            }
            | over_level(path)
        )
        print(json.dumps(rows[-1], default=float), flush=True)
    doc = {"generation": str(args.generation), "games": args.games, "against": args.against, "budgets": rows}
    write(args.out, run_info | doc)


if __name__ == "__main__":
    main()
