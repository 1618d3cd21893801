"""The fixed-seed regression fixture: per-game results of a fixed set of runs, checked exactly by
``tests/test_regression.py``.

Every 2-player pairing (mirrors included) and the 3-player game, under each strategy level played on every
seat (``random``, ``novice``, ``expert``, ``fate-heavy``), plus mixed levels and every non-default rule
variant; and a few games of the search player with the shipped learning run's generation 1 on every seat (its
learned value model is a file that stays as it is: the search's kernels and the model's evaluation are held to
it). A change meant to be invisible (speed, structure) must leave every game identical; a change that
means to alter play regenerates the file in its own commit, with the reason in the message::

    python tests/regression_fixture.py --write

Per game the fixture keeps the winner's seat, the end reason, the rounds, each seat's turns and a digest
of which card instances each seat drew and played (a fingerprint of the whole game's course).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl

from simlab.data.rules import RULE_VARIANTS
from simlab.runs.backend import play_games
from simlab.runs.seating import mix64
from simlab.runs.sim import GamePlan

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "regression.parquet"
SEED = 20261130

VILLAINS = ("gaston", "lady-tremaine", "horned-king")
MATCHUPS = (
    ("gaston", "gaston"),
    ("gaston", "lady-tremaine"),
    ("gaston", "horned-king"),
    ("lady-tremaine", "lady-tremaine"),
    ("lady-tremaine", "horned-king"),
    ("horned-king", "horned-king"),
    VILLAINS,
)
LEVELS = ("random", "novice", "expert", "fate-heavy")
GAMES = 1000  # per (matchup, level): 4,000 a pairing over the four levels
MIXED_GAMES = 500
VARIANT_GAMES = 300
SEARCH_GAMES = 6  # a game with a search player on every seat costs as much as hundreds of scripted ones
LEARNED_G1 = Path(__file__).resolve().parents[1] / "reports" / "learning" / "g1" / "search.toml"


def configs() -> list[dict]:
    """The runs of the fixture: name, villains, per-entry strategies, variants, games."""
    out = []
    for m in MATCHUPS:
        for level in LEVELS:
            out.append({"villains": m, "strategies": (level,) * len(m), "variants": {}, "games": GAMES})
    for m in MATCHUPS[1:3] + MATCHUPS[4:5]:
        for pair in (("expert", "novice"), ("random", "fate-heavy")):
            out.append({"villains": m, "strategies": pair, "variants": {}, "games": MIXED_GAMES})
    for name, var in RULE_VARIANTS.items():
        for value in list(var.values)[1:]:
            out.append(
                {"villains": VILLAINS, "strategies": ("expert",) * 3, "variants": {name: value}, "games": VARIANT_GAMES}
            )
    for m in (("lady-tremaine", "horned-king"), VILLAINS):
        out.append(
            {
                "villains": m,
                "strategies": (str(LEARNED_G1),) * len(m),
                "label": "/".join(["learned-g1"] * len(m)),
                "variants": {},
                "games": SEARCH_GAMES,
            }
        )
    for c in out:
        var = ",".join(f"{k}={v}" for k, v in sorted(c["variants"].items()))
        who = c.pop("label", None) or "/".join(c["strategies"])
        c["name"] = "-vs-".join(c["villains"]) + ":" + who + (f":{var}" if var else "")
    return out


def digest(flags: np.ndarray) -> np.ndarray:
    """uint64 per game of int8 flags (n, P, 45): which instances each seat drew and played, hashed."""
    n, P, N = flags.shape
    bits = np.uint64(1) << np.arange(N, dtype=np.uint64)
    h = np.zeros(n, np.uint64)
    with np.errstate(over="ignore"):
        for s in range(P):
            for f, salt in ((1, 0x1234567), (2, 0x7654321)):
                mask = ((flags[:, s, :] & f) != 0).astype(np.uint64) @ bits
                h = mix64(h ^ mask ^ np.uint64(salt + 1000 * s))
    return h


def play(config: dict, seed: int = SEED) -> pl.DataFrame:
    """The per-game rows of one fixture run."""
    plan = GamePlan(
        config["villains"], config["strategies"], config["games"], seed, config["variants"], chunk=config["games"]
    )
    job = plan.job(0, config["games"], "flags")
    _, out_games, out_turns, out_flags = play_games(job)
    P = len(config["villains"])
    cols = {
        "config": [config["name"]] * config["games"],
        "game": np.arange(config["games"], dtype=np.int64),
        "winner_seat": out_games[:, 0].astype(np.int8),
        "end": out_games[:, 1].astype(np.int8),
        "rounds": out_games[:, 2].astype(np.int16),
    }
    for s in range(3):
        cols[f"turns{s}"] = (out_turns[:, s] if s < P else np.full(config["games"], -1)).astype(np.int16)
    cols["cards"] = digest(out_flags)
    return pl.DataFrame(cols)


def play_all(progress=None) -> pl.DataFrame:
    frames = []
    for c in configs():
        t0 = time.perf_counter()
        frames.append(play(c))
        if progress:
            progress(c, time.perf_counter() - t0)
    return pl.concat(frames)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help=f"(re)write {FIXTURE}")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    table = play_all(lambda c, s: print(f"{c['name']:70s} {c['games']:5d} games {s:6.2f} s", file=sys.stderr))
    print(f"{table.height} games in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    if args.write:
        FIXTURE.parent.mkdir(parents=True, exist_ok=True)
        table.write_parquet(FIXTURE, compression="zstd", compression_level=19)
        print(f"wrote {FIXTURE} ({FIXTURE.stat().st_size:,} bytes)", file=sys.stderr)
    else:
        old = pl.read_parquet(FIXTURE)
        diff = old.join(table, on=["config", "game"], how="full", suffix="_now").filter(
            pl.any_horizontal([pl.col(c).ne_missing(pl.col(f"{c}_now")) for c in table.columns[2:]])
        )
        print(f"{diff.height} games differ from the fixture", file=sys.stderr)
        if diff.height:
            print(diff.head(20), file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
