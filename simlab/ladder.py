"""Strategy tables: the skill ladder per villain, expert-vs-expert pairings, goldfish speed."""

from __future__ import annotations

import numpy as np
import polars as pl

from simlab.cards import VILLAIN_KEYS
from simlab.game import check_villain, strategy_spec
from simlab.levels import available_levels, strategy_at
from simlab.matchups import matrix
from simlab.rules import DEFAULT_MAX_TURNS
from simlab.sim import goldfish, simulate
from simlab.stats import wilson


def skill_ladder(
    villains=VILLAIN_KEYS,
    levels=None,
    opponent: str = "novice",
    n_games: int = 2000,
    seed: int = 0,
    variants: dict[str, str] | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    threads: int | None = None,
) -> pl.DataFrame:
    """Win rate of each villain at each skill level against every other villain played by ``opponent``.

    Each (level, opponent villain) pairing plays ``n_games`` games with seats rotated, on the same seeds for
    every level, so the levels face the same deals. ``step_z`` compares each level with the one before it
    (two-proportion z statistic; above 1.96 the step is significant at 5%).

    ``levels`` and ``opponent`` are levels of :mod:`simlab.levels` (the strategy playing each villain at that
    level) or strategy names; ``levels`` defaults to every level available here, weakest first (``tuned``
    once its files exist).
    """
    villains = tuple(check_villain(v) for v in villains)
    levels = tuple(levels) if levels else available_levels()
    for s in levels:
        for v in villains:
            strategy_spec(strategy_at(s, v))
    for o in VILLAIN_KEYS:
        strategy_spec(strategy_at(opponent, o))
    rows = []
    for v in villains:
        prev = None
        for level in levels:
            wins = games = 0
            for o in VILLAIN_KEYS:
                if o == v:
                    continue
                res = simulate(
                    f"{v}-vs-{o}",
                    n_games,
                    seed,
                    {v: strategy_at(level, v), o: strategy_at(opponent, o)},
                    variants,
                    max_turns,
                    threads,
                ).games
                games += res.height
                wins += res.filter(pl.col("winner_index") == 0).height
            lo, hi = wilson(wins, games)
            p = wins / games
            z = float("nan")
            if prev is not None:
                pw, pn = prev
                pool = (wins + pw) / (games + pn)
                se = np.sqrt(pool * (1 - pool) * (1 / games + 1 / pn))
                z = (p - pw / pn) / se if se > 0 else float("nan")
            rows.append(
                {
                    "villain": v,
                    "level": level,
                    "opponent": opponent,
                    "games": games,
                    "wins": wins,
                    "rate": p,
                    "low": float(lo),
                    "high": float(hi),
                    "step_z": z,
                }
            )
            prev = (wins, games)
    return pl.DataFrame(rows)


def pairings(
    strategy: str = "expert",  # a level of simlab.levels or a strategy name, on every seat
    n_games: int = 2000,
    seed: int = 0,
    variants: dict[str, str] | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    threads: int | None = None,
) -> pl.DataFrame:
    """The matchup matrix with every seat played by ``strategy``, and each matchup's share of finished games."""
    strategies = {v: strategy_at(strategy, v) for v in VILLAIN_KEYS}
    table = matrix(n_games, seed, strategies, variants, max_turns, threads).table
    unfinished = table.filter(pl.col("outcome") == "unfinished").select(
        "matchup", (1 - pl.col("rate")).alias("finished"), (1 - pl.col("high")).alias("finished_low")
    )
    return table.join(unfinished, on="matchup", maintain_order="left")


def goldfish_table(
    villains=VILLAIN_KEYS,
    strategies=("novice", "expert"),
    n_games: int = 2000,
    seed: int = 0,
    variants: dict[str, str] | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    threads: int | None = None,
) -> pl.DataFrame:
    """Turns each villain needs to win alone (median, 10th and 90th percentile) for each strategy."""
    villains = tuple(check_villain(v) for v in villains)
    return pl.concat(
        [goldfish(v, n_games, seed, s, variants, max_turns, threads).summary for v in villains for s in strategies]
    )
