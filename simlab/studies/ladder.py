"""Strategy tables: the skill ladder per villain, expert-vs-expert pairings, goldfish speed."""

from __future__ import annotations

import numpy as np
import polars as pl

from simlab.data.cards import VILLAIN_KEYS
from simlab.errors import InputError
from simlab.game.api import check_villain
from simlab.runs.levels import check_level, default_games, is_level, is_search, scripted_levels, strategy_at
from simlab.runs.settings import RunSettings, settings_from
from simlab.runs.sim import goldfish, simulate
from simlab.runs.stats import wilson
from simlab.studies.matchups import matrix
from strategies.mixture import play_spec


def skill_ladder(
    villains=VILLAIN_KEYS,
    levels=None,
    opponent: str = "novice",
    *,
    settings: RunSettings | None = None,
    search_games: int | None = None,
    **given,
) -> pl.DataFrame:
    """Win rate of each villain at each skill level against every other villain played by ``opponent``.

    Each (level, opponent villain) pairing plays ``n_games`` games with seats rotated, on the same seeds for
    every level, so the levels face the same deals; a rung where the search player plays (a search level or
    strategy, or a search opponent) plays ``search_games`` (default ``min(n_games, SEARCH_GAMES)``,
    :func:`simlab.runs.levels.default_games`), the first of those seeds. ``step_z`` compares each level with the
    one before it, ``min_z_below`` with every level before it (the smallest of those z, against
    ``min_z_level``): two-proportion z statistics, above 1.96 significant at 5% (one-sided 2.5%).

    ``levels`` and ``opponent`` are levels of :mod:`simlab.runs.levels` (the strategy playing each villain at that
    level) or strategy names; ``levels`` defaults to every scripted level available here, weakest first
    (``tuned`` once its files exist). The search level is a rung only when asked for: its games cost
    hundreds of scripted ones (README, "The search player"). ``settings`` (a
    :class:`simlab.runs.settings.RunSettings`) and
    ``given`` (its fields as keywords, ``n_games`` for games) say how many games, the seed, variants, turn
    cap and threads (its strategies and level are not used: the ladder names its own).
    """
    settings = settings_from(settings, **given)
    if search_games is None:
        search_games = default_games("search", settings.games)
    elif not isinstance(search_games, int) or search_games < 1:
        raise InputError(f"search_games must be a positive number of games, got {search_games!r}")
    villains = tuple(check_villain(v) for v in villains)
    levels = tuple(levels) if levels else scripted_levels()
    for s in levels:  # every name checked before any game (strong#VILLAIN: a mixture, read as one)
        for v in villains:
            play_spec(strategy_at(s, v), (v, v))
    for o in VILLAIN_KEYS:
        play_spec(strategy_at(opponent, o), (o, o))
    rows = []
    for v in villains:
        below = []  # (level, wins, games) of the rungs so far
        for level in levels:
            wins = games = 0
            searching = is_search(strategy_at(level, v)) or is_search(opponent)
            here = settings.replace(games=search_games) if searching else settings
            for o in VILLAIN_KEYS:
                if o == v:
                    continue
                res = simulate(
                    f"{v}-vs-{o}", strategies={v: strategy_at(level, v), o: strategy_at(opponent, o)}, settings=here
                ).games
                games += res.height
                wins += res.filter(pl.col("winner_index") == 0).height
            lo, hi = wilson(wins, games)
            p = wins / games
            zs = [(two_proportion_z(wins, games, bw, bn), b) for b, bw, bn in below]
            z = zs[-1][0] if zs else float("nan")
            finite = [t for t in zs if t[0] == t[0]]
            min_z, min_level = min(finite) if finite else (float("nan"), None)
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
                    "min_z_below": min_z,
                    "min_z_level": min_level,
                }
            )
            below.append((level, wins, games))
    return pl.DataFrame(rows, schema_overrides={"min_z_level": pl.String})


def two_proportion_z(k1: int, n1: int, k2: int, n2: int) -> float:
    """The pooled two-proportion z statistic of k1/n1 against k2/n2 (NaN when both are 0% or 100%)."""
    pool = (k1 + k2) / (n1 + n2)
    se = np.sqrt(pool * (1 - pool) * (1 / n1 + 1 / n2))
    return float((k1 / n1 - k2 / n2) / se) if se > 0 else float("nan")


def pairings(
    strategy: str = "expert",  # a level of simlab.runs.levels or a strategy name, on every seat
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
    """Turns each villain needs to win alone (median, 10th and 90th percentile) for each of ``strategies``: levels
    of :mod:`simlab.runs.levels` (the strategy playing each villain there; the ``level`` column names it) or
    strategy names (``level`` null). ``settings`` and ``given`` as for :func:`skill_ladder`."""
    villains = tuple(check_villain(v) for v in villains)
    settings = settings_from(settings, **given)
    return pl.concat(
        [
            goldfish(v, strategy=strategy_at(s, v), settings=settings).summary.with_columns(
                pl.lit(check_level(s) if is_level(s) else None, pl.String).alias("level")
            )
            for v in villains
            for s in strategies
        ]
    )
