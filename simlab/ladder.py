"""Strategy tables: the skill ladder per villain, expert-vs-expert pairings, goldfish speed."""

from __future__ import annotations

import numpy as np
import polars as pl

from simlab.cards import VILLAIN_KEYS
from simlab.game import check_villain, strategy_spec
from simlab.levels import available_levels, strategy_at
from simlab.matchups import matrix
from simlab.settings import RunSettings, settings_from
from simlab.sim import goldfish, simulate
from simlab.stats import wilson


def skill_ladder(
    villains=VILLAIN_KEYS,
    levels=None,
    opponent: str = "novice",
    *,
    settings: RunSettings | None = None,
    **given,
) -> pl.DataFrame:
    """Win rate of each villain at each skill level against every other villain played by ``opponent``.

    Each (level, opponent villain) pairing plays ``n_games`` games with seats rotated, on the same seeds for
    every level, so the levels face the same deals. ``step_z`` compares each level with the one before it
    (two-proportion z statistic; above 1.96 the step is significant at 5%).

    ``levels`` and ``opponent`` are levels of :mod:`simlab.levels` (the strategy playing each villain at that
    level) or strategy names; ``levels`` defaults to every level available here, weakest first (``tuned``
    once its files exist). ``settings`` (a :class:`simlab.settings.RunSettings`) and ``given`` (its fields as
    keywords, ``n_games`` for games) say how many games, the seed, variants, turn cap and threads (its
    strategies and level are not used: the ladder names its own).
    """
    settings = settings_from(settings, **given)
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
                    f"{v}-vs-{o}", strategies={v: strategy_at(level, v), o: strategy_at(opponent, o)}, settings=settings
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
    *,
    settings: RunSettings | None = None,
    **given,
) -> pl.DataFrame:
    """The matchup matrix with every seat played by ``strategy``, and each matchup's share of finished games.
    ``settings`` and ``given`` as for :func:`skill_ladder` (``strategy`` replaces its strategies)."""
    strategies = {v: strategy_at(strategy, v) for v in VILLAIN_KEYS}
    settings = settings_from(settings, **given)
    table = matrix(settings=settings.replace(level=None, strategies=strategies)).table
    unfinished = table.filter(pl.col("outcome") == "unfinished").select(
        "matchup", (1 - pl.col("rate")).alias("finished"), (1 - pl.col("high")).alias("finished_low")
    )
    return table.join(unfinished, on="matchup", maintain_order="left")


def goldfish_table(
    villains=VILLAIN_KEYS,
    strategies=("novice", "expert"),
    *,
    settings: RunSettings | None = None,
    **given,
) -> pl.DataFrame:
    """Turns each villain needs to win alone (median, 10th and 90th percentile) for each strategy.
    ``settings`` and ``given`` as for :func:`skill_ladder`."""
    villains = tuple(check_villain(v) for v in villains)
    settings = settings_from(settings, **given)
    return pl.concat([goldfish(v, strategy=s, settings=settings).summary for v in villains for s in strategies])
