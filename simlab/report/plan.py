"""A report's plan: the games each study will play, worked out from the checked settings before any is played, and
an estimate of the time from a short measured run (scripted games per second, and a search game's cost when the
search player plays). :func:`simlab.report.build.build_report` prints both first and records, per study, the games
planned and played (counted where the chunks come back, :func:`simlab.runs.backend.counting`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import polars as pl

from simlab.data.cards import VILLAIN_KEYS

RATE_GAMES = 400  # scripted games of the measured run (fewer when the report's matrix plays fewer)


@dataclass(frozen=True)
class StudyPlan:
    study: str
    games: int  # every game the study plays
    search: int  # of those, games where a search player sits
    note: str = ""
    search_seats: int = 0  # the search players' seats summed over those games: what a search game costs


def plan_report(ctx) -> list[StudyPlan]:
    """The games of every study of the report ``ctx`` (a :class:`simlab.report.sections.ReportContext`), in the
    order :data:`simlab.report.sections.STUDIES` plays them."""
    plans = {
        "headline": _headline(ctx),
        "matrix": StudyPlan("matrix", _n_matchups() * ctx.games, 0),
        "search_matrix": _search_matrix(ctx),
        "leverage": _leverage(ctx),
        "robust": _robust(ctx),
        "ladder": _ladder(ctx),
        "goldfish": StudyPlan("goldfish", len(VILLAIN_KEYS) * ctx.difficulty_games, 0),
        "card_impact": _card_impact(ctx),
        "calibration": _calibration(ctx),
    }
    from simlab.report.sections import STUDIES

    return [plans[s] for s in STUDIES]


def _search_matrix(ctx) -> StudyPlan:
    from simlab.studies.matchups import matchups

    n = _n_matchups() * ctx.search_games
    seats = sum(len(m.split("-vs-")) for m in matchups()) * ctx.search_games  # every seat at search level
    return StudyPlan("search_matrix", n, n, search_seats=seats)


def _n_matchups() -> int:
    from simlab.studies.matchups import matchups

    return len(matchups())


def _headline(ctx) -> StudyPlan:
    from simlab.studies.equilibrium import pairings

    games = search = 0
    for m in pairings():
        for level in ctx.trace_levels(tuple(m.split("-vs-"))):
            n = min(ctx.games, ctx.search_games) if level == "search" else ctx.games
            games += n
            search += n if level == "search" else 0
    return StudyPlan("headline", games, search, search_seats=2 * search)  # both sides at the level


def _leverage(ctx) -> StudyPlan:
    from simlab.studies.leverage import leverage_runs

    matchups, _, runs = leverage_runs(True, ctx.leverage_board, ctx.perturb, None, ctx.run.variant_dict)
    return StudyPlan("leverage", (len(matchups) + len(runs)) * ctx.leverage_games, 0)


def _robust(ctx) -> StudyPlan:
    from simlab.runs.levels import SEARCH_LEVELS
    from simlab.studies.difficulty import difficulty_runs
    from simlab.studies.robust import measures_at

    readings = len(ctx.chosen_readings) if ctx.chosen_readings else ctx.n_readings
    per_reading = search = 0
    for level in ctx.robust_levels:
        at_search = level in SEARCH_LEVELS
        n = difficulty_runs(len(VILLAIN_KEYS), measures_at(level)) * (
            ctx.search_games if at_search else ctx.difficulty_games
        )
        per_reading += n
        search += n if at_search else 0
    plural = "s" if readings > 1 else ""
    note = "" if ctx.chosen_readings or not readings else f"at most: {readings} reading{plural}, as the screen finds"
    search *= 1 + readings
    return StudyPlan("robust", (1 + readings) * per_reading, search, note, 2 * search)  # at most both sides


def _ladder(ctx) -> StudyPlan:
    from simlab.runs.levels import SEARCH_LEVELS

    games = search = 0
    for level in ctx.ladder_levels:
        n = (ctx.search_games if level in SEARCH_LEVELS else ctx.difficulty_games) * len(VILLAIN_KEYS) * 2
        games += n
        search += n if level in SEARCH_LEVELS else 0
    return StudyPlan("ladder", games, search, search_seats=search)  # the level's side; novice opponents


def _card_impact(ctx) -> StudyPlan:
    from simlab.studies.impact import deck_cards

    per_villain = [(deck_cards(v, None).height + 1) * (len(VILLAIN_KEYS) - 1) for v in ctx.villains]
    return StudyPlan("card_impact", sum(per_villain) * ctx.ablation_games, 0)


def _calibration(ctx) -> StudyPlan:
    from simlab.studies.calibration import predict_runs

    if ctx.real_games is None:
        return StudyPlan("calibration", 0, 0, "no [report] real_games")
    n_games, rules, levels = ctx.calibration_sizes
    levels, rule_sets, _, per_run = predict_runs(ctx.real_games.orders(), levels, rules, n_games, ctx.run.max_turns)
    games = len(levels) * len(rule_sets) * sum(per_run.values())
    return StudyPlan("calibration", games, 0)


# ============================================================================ the estimate


@dataclass(frozen=True)
class Rates:
    games_per_second: float  # scripted games
    search_seconds: float | None  # one search player's seat in one game, when the report plays any
    measured_games: int  # scripted games of the measured run (the search game apart)


def measure_rates(ctx, plans: list[StudyPlan]) -> Rates:
    """Time a short run of the report's matrix settings (its first matchup, on seeds the report does not use:
    these games are not part of it) and, when any study plays the search player, one search game, whose cost per
    searching seat the estimate uses."""
    from simlab.engine import warmup
    from simlab.runs.sim import run
    from simlab.studies.matchups import matchups

    n = max(min(RATE_GAMES, ctx.games), 50)
    first = matchups()[0]
    probe = ctx.run.replace(games=n, seed=ctx.run.seed + 1_000_003, progress=None)
    warmup.ensure()
    t0 = time.perf_counter()
    run(first, settings=probe)
    rate = n / max(time.perf_counter() - t0, 1e-6)
    search = None
    if any(p.search for p in plans):
        warmup.ensure(search=True)
        t0 = time.perf_counter()
        run(first, settings=probe.replace(games=1, level="search", strategies={}))
        search = (time.perf_counter() - t0) / len(first.split("-vs-"))  # every seat searched
    return Rates(rate, search, n)


def estimate_seconds(plan: StudyPlan, rates: Rates) -> float:
    scripted = plan.games - plan.search
    return scripted / rates.games_per_second + plan.search_seats * (rates.search_seconds or 0.0)


def plan_frame(
    plans: list[StudyPlan], rates: Rates, played: dict[str, tuple[int, float]] | None = None
) -> pl.DataFrame:
    """One row per study: games planned (of them with the search player), the estimate, and once played the games
    counted and the seconds taken."""
    rows = []
    for p in plans:
        row = {
            "study": p.study,
            "planned_games": p.games,
            "search_games": p.search,
            "estimate_s": round(estimate_seconds(p, rates)),
            "note": p.note,
        }
        if played is not None:
            games, seconds = played.get(p.study, (0, 0.0))
            row |= {"played_games": games, "seconds": round(seconds)}
        rows.append(row)
    return pl.DataFrame(rows)


def plan_lines(plans: list[StudyPlan], rates: Rates) -> list[str]:
    """What the report prints before it starts: games per study and in all, and the estimate."""
    total = sum(p.games for p in plans)
    seconds = sum(estimate_seconds(p, rates) for p in plans)
    search_cost = (
        f", a search player's seat {rates.search_seconds:.1f} s a game"
        if rates.search_seconds is not None
        else ", no search games"
    )
    lines = [
        f"report plan: {total:,} games, about {_duration(seconds)} (measured {rates.games_per_second:,.0f} scripted "
        f"games/s on {rates.measured_games:,} games{search_cost})"
    ]
    for p in plans:
        if p.games or p.note:
            extra = f" ({p.search:,} with the search player)" if p.search else ""
            note = f"; {p.note}" if p.note else ""
            lines.append(f"  {p.study}: {p.games:,} games{extra}, about {_duration(estimate_seconds(p, rates))}{note}")
    return lines


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
