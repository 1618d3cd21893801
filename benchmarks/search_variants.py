"""Search-player variants compared on the same games: which idea makes it stronger, at what cost.

Usage: python benchmarks/search_variants.py --variant NAME:KEY=VALUE,KEY=VALUE ... [--games 20] [--seed 0]
                                            [--opponent expert] [--villain V ...] [--threads 1]
                                            [--max-turns 100] [--out reports/search-variants/NAME.csv]

Each variant is the built-in ``search`` with the settings given (``samples=8,screen=4``; ``base`` for none).
Every variant plays each villain (``--villain``, default all three) against each other villain played by
``--opponent``, ``--games`` games per ordered pairing's rotation (seats rotated), on the same seeds, so two
variants are compared game by game (paired: a game both win or both lose says nothing about the difference).
The opponent level's own games on the same seeds are played too (``baseline``), as the reference.

Writes one row per game and variant (``variant, villain, opponent, game, win, seconds``: CPU seconds per
game) to ``--out`` (CSV), appending, so runs of different variants can be compared later with
``--compare A,B``, which prints each villain's win rates and the paired difference with Newcombe's 95%
interval.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import polars as pl

from simlab.data.cards import VILLAIN_KEYS


def strategy_file(directory: Path, name: str, params: dict[str, float]) -> str:
    path = directory / f"{name}.toml"
    body = "\n".join(f"{k} = {v:g}" for k, v in params.items())
    path.write_text(f'base = "search"\nname = "{name}"\n[params]\n{body}\n')
    return str(path)


def parse_variant(text: str) -> tuple[str, dict[str, float]]:
    name, _, rest = text.partition(":")
    params = {}
    for item in filter(None, rest.split(",")):
        k, _, v = item.partition("=")
        params[k.strip()] = float(v)
    return name, params


def play(villain: str, strategy: str, opponent: str, games: int, seed: int, threads: int, max_turns: int):
    """One row per game of ``villain`` (``strategy``) against each other villain at ``opponent``."""
    from simlab.runs.levels import strategy_at
    from simlab.runs.settings import RunSettings
    from simlab.runs.sim import simulate

    rows = []
    for o in VILLAIN_KEYS:
        if o == villain:
            continue
        t = time.process_time()
        res = simulate(
            f"{villain}-vs-{o}",
            RunSettings(games, seed, max_turns=max_turns, threads=threads),
            strategies={villain: strategy_at(strategy, villain), o: strategy_at(opponent, o)},
        ).games
        seconds = (time.process_time() - t) / max(res.height, 1)  # CPU time: the machine is shared
        rows.append(
            res.select(
                pl.lit(villain).alias("villain"),
                pl.lit(o).alias("opponent"),
                pl.col("game"),
                (pl.col("winner_index") == 0).cast(pl.Int8).alias("win"),
                pl.lit(seconds).alias("seconds"),
            )
        )
    return pl.concat(rows)


def compare(path: Path, a: str, b: str) -> None:
    from simlab.runs.stats import paired_difference, wilson

    df = pl.read_csv(path)
    for v in [*VILLAIN_KEYS, None]:
        sub = df if v is None else df.filter(pl.col("villain") == v)
        x = sub.filter(pl.col("variant") == a).select("villain", "opponent", "game", pl.col("win").alias("a"))
        y = sub.filter(pl.col("variant") == b).select("villain", "opponent", "game", pl.col("win").alias("b"))
        j = x.join(y, on=["villain", "opponent", "game"])
        if j.height == 0:
            continue
        n11 = j.filter((pl.col("a") == 1) & (pl.col("b") == 1)).height
        n10 = j.filter((pl.col("a") == 1) & (pl.col("b") == 0)).height
        n01 = j.filter((pl.col("a") == 0) & (pl.col("b") == 1)).height
        n00 = j.height - n11 - n10 - n01
        d, lo, hi = paired_difference(n11, n10, n01, n00)
        ka, kb = n11 + n10, n11 + n01
        la, ha = wilson(ka, j.height)
        print(
            f"{v or 'all':14s} {a} {ka / j.height:.1%} [{la:.1%}, {ha:.1%}]  {b} {kb / j.height:.1%}  "
            f"difference {d:+.1%} [{lo:+.1%}, {hi:+.1%}]  ({j.height} games, {n10} won only by {a}, {n01} only by {b})"
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", action="append", default=[])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--opponent", default="expert")
    ap.add_argument("--villain", action="append", default=None)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--max-turns", type=int, default=100)
    ap.add_argument("--baseline", action="store_true", help="also play the opponent level itself on the same games")
    ap.add_argument("--out", default="reports/search-variants/games.csv")
    ap.add_argument("--compare", default=None, help="A,B: print the paired comparison of two variants and stop")
    args = ap.parse_args()
    out = Path(args.out)
    if args.compare:
        compare(out, *args.compare.split(","))
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    villains = args.villain or list(VILLAIN_KEYS)
    with tempfile.TemporaryDirectory() as tmp:
        runs = [parse_variant(v) for v in args.variant]
        if args.baseline:
            runs.insert(0, (args.opponent, None))
        for name, params in runs:
            strategy = args.opponent if params is None else strategy_file(Path(tmp), name, params)
            for v in villains:
                t = time.process_time()
                rows = play(v, strategy, args.opponent, args.games, args.seed, args.threads, args.max_turns)
                rows = rows.select(pl.lit(name).alias("variant"), pl.all())
                wins = int(rows["win"].sum())
                print(
                    f"{name} {v}: {wins}/{rows.height} = {wins / rows.height:.1%}, {time.process_time() - t:.0f} s CPU",
                    flush=True,
                )
                header = not out.exists()
                with out.open("a") as f:
                    rows.write_csv(f, include_header=header)


if __name__ == "__main__":
    main()
