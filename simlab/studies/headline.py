"""The headline a designer reads in ten seconds: is each matchup balanced at strong play, and for new players?

One row per 2-player pairing of different villains: the first villain's win rate at the ``strong`` level (the
shipped equilibrium mixtures, :mod:`simlab.studies.equilibrium`) with its 95% interval and the equilibrium's
exploitability, the same for new players (novice against novice), and a short verdict each: ``balanced`` when the
interval lies inside the band (default 45-55%), else who is favoured and by how many points (``leans`` when the
interval still reaches into the band). Beside it, the skill trace: the win rate at every level from novice up, so
the reader sees whether the answer settles as play gets stronger.

The strong level's mixtures were solved under the shipped rules and cards; with other rules or edits they still
play, but they are no longer an equilibrium of that game, and the exploitability is left blank.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from simlab.errors import InputError
from simlab.runs.levels import SEARCH_GAMES, available_levels, level_strategies
from simlab.runs.settings import RunSettings, settings_from

TRACE_LEVELS = ("novice", "expert", "tuned", "strong", "search")
DEFAULT_BAND = (0.45, 0.55)


def check_band(band) -> tuple[float, float]:
    low, high = (float(x) for x in band)
    if not 0 <= low < 0.5 < high <= 1:
        raise InputError(f"a balance band must hold 50% and lie within 0-100%, got {low:.0%}-{high:.0%}")
    return low, high


def verdict(villains: tuple[str, str], rate: float, low: float, high: float, band=DEFAULT_BAND) -> str:
    """``balanced`` when [low, high] lies inside ``band``; else the favoured villain and its edge over 50% in
    points, ``leans`` when the interval still reaches into the band, ``favoured`` when it lies wholly outside."""
    b_low, b_high = check_band(band)
    if b_low <= low and high <= b_high:
        return "balanced"
    who, edge = (villains[0], rate - 0.5) if rate >= 0.5 else (villains[1], 0.5 - rate)
    word = "favoured" if (low > b_high or high < b_low) else "leans"
    return f"{who} {word} +{edge * 100:.0f} pts"


def _shipped_exploitability(matchup: str, settings: RunSettings) -> float | None:
    """The shipped equilibrium's exploitability, if it was solved under these settings' rules and cards."""
    from simlab.engine.mixture import mixture_files, read_mixture_file

    if settings.variants or settings.edits:
        return None
    a, b = matchup.split("-vs-")
    for path in mixture_files():
        if path.stem in (f"{a}-vs-{b}", f"{b}-vs-{a}"):
            prov = read_mixture_file(path).get("provenance", {})
            if prov.get("variants"):
                return None
            value = prov.get("exploitability")
            return float(value) if isinstance(value, int | float) else None
    return None


@dataclass
class HeadlineResult:
    table: pl.DataFrame  # one row per matchup: strong value [95%], exploitability, new players [95%], verdicts
    trace: pl.DataFrame  # one row per (matchup, level): the first villain's win rate [95%] and games
    band: tuple[float, float]
    levels: tuple[str, ...]


def skill_trace(
    matchups: list[str], levels=TRACE_LEVELS, search_games: int = SEARCH_GAMES, *, settings: RunSettings
) -> pl.DataFrame:
    """The first villain's win rate [95% Wilson] in each matchup at each of ``levels`` available here (both sides
    at the level; the search level on ``search_games``, the first of the same seeds)."""
    from simlab.runs.sim import run

    rows = []
    for m in matchups:
        villains = tuple(m.split("-vs-"))
        have = available_levels(villains)
        for level in levels:
            if level not in have:
                continue
            games = min(settings.games, search_games) if level == "search" else settings.games
            res = run(m, strategies=level_strategies(level, villains), settings=settings.replace(games=games))
            row = res.summary.filter(pl.col("outcome") == villains[0]).row(0, named=True)
            rows.append(
                {
                    "matchup": m,
                    "villain": villains[0],
                    "level": level,
                    "games": row["games"],
                    "rate": row["rate"],
                    "low": row["low"],
                    "high": row["high"],
                }
            )
    return pl.DataFrame(rows)


def headline(
    matchups: list[str] | None = None,
    band=DEFAULT_BAND,
    levels=TRACE_LEVELS,
    search_games: int = SEARCH_GAMES,
    *,
    settings: RunSettings | None = None,
    **given,
) -> HeadlineResult:
    """The headline table and the skill trace for ``matchups`` (default every pairing of two different villains).
    ``settings`` (and ``given``, its fields): the games per matchup and level, seed, rules, edits, threads; its
    level and strategies are not used (each row names its level)."""
    from simlab.studies.equilibrium import pairings

    band = check_band(band)
    settings = settings_from(settings, "the headline", **given)
    matchups = list(matchups or pairings())
    trace = skill_trace(matchups, levels, search_games, settings=settings)
    rows = []
    for m in matchups:
        villains = tuple(m.split("-vs-"))
        here = trace.filter(pl.col("matchup") == m)

        def at(level, here=here):
            got = here.filter(pl.col("level") == level)
            return got.row(0, named=True) if got.height else None

        strong, novice = at("strong"), at("novice")
        row = {"matchup": m, "villain": villains[0]}
        for name, r in (("strong", strong), ("new_players", novice)):
            row |= {
                f"{name}_rate": r["rate"] if r else None,
                f"{name}_low": r["low"] if r else None,
                f"{name}_high": r["high"] if r else None,
                f"{name}_verdict": verdict(villains, r["rate"], r["low"], r["high"], band) if r else "not measured",
            }
        row["exploitability"] = _shipped_exploitability(m, settings) if strong else None
        rows.append(row)
    return HeadlineResult(pl.DataFrame(rows), trace, band, tuple(levels))
