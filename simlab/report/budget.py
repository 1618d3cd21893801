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

RATE_GAMES = 400  # scripted games of a measured run (fewer when the report's matrix plays fewer)
RATE_SECONDS = 0.25  # each measured rate repeats its run until this long
AT_MOST_FACTOR, AT_MOST_SECONDS = 1.25, 5.0  # the stated bound on the play's time: see at_most_seconds
EDITED_RUNS = 4  # tiny runs timed with and without an edit, for what an edit adds to a run


@dataclass(frozen=True)
class StudyPlan:
    study: str
    games: int  # every game the study plays
    search: int  # of those, games where a search player sits
    note: str = ""
    search_seats: int = 0  # the search players' seats summed over those games: what a search game costs
    # the scripted games by the level they are played at (levels play at different speeds); "" is the report's
    # own settings, which also takes whatever the pairs leave over
    levels: tuple[tuple[str, int], ...] = ()
    three: int = 0  # of the scripted games, those of the 3-player game, which take longer than a 2-player one
    edited_runs: int = 0  # runs under card or board edits, each of which builds its own card tables first

    def scripted_by_level(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for level, n in self.levels:
            out[level] = out.get(level, 0) + n
        out[""] = self.games - self.search - sum(out.values())
        return {k: v for k, v in out.items() if v > 0}


def plan_report(ctx) -> list[StudyPlan]:
    """The games of every study of the report ``ctx`` (a :class:`simlab.report.sections.ReportContext`), in the
    order :data:`simlab.report.sections.STUDIES` plays them."""
    plans = {
        "headline": _headline(ctx),
        "matrix": StudyPlan("matrix", _n_matchups() * ctx.games, 0, three=_n_three() * ctx.games),
        "search_matrix": _search_matrix(ctx),
        "leverage": _leverage(ctx),
        "robust": _robust(ctx),
        "ladder": _ladder(ctx),
        "goldfish": StudyPlan("goldfish", len(VILLAIN_KEYS) * ctx.difficulty_games, 0),
        "card_impact": _card_impact(ctx),
        "calibration": _calibration(ctx),
        "fix": _fix(ctx),
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


def _n_three() -> int:
    from simlab.studies.matchups import matchups

    return sum(len(m.split("-vs-")) == 3 for m in matchups())


def _headline(ctx) -> StudyPlan:
    """Every pairing's trace and the 3-player game's, each level on ``games``; the search level on
    ``search_games`` unless the shipped learning run's generations stand for it (read, not played)."""
    from simlab.data.cards import VILLAIN_KEYS
    from simlab.studies.equilibrium import pairings
    from simlab.studies.headline import shipped_rungs

    rungs = shipped_rungs(ctx.run)
    games = search = three = seats = 0
    levels = []
    for m in [*pairings(), "-vs-".join(VILLAIN_KEYS)]:
        for level in ctx.trace_levels(tuple(m.split("-vs-"))):
            if level == "search" and rungs is not None:
                continue
            n = min(ctx.games, ctx.search_games) if level == "search" else ctx.games
            games += n
            search += n if level == "search" else 0
            seats += n * len(m.split("-vs-")) if level == "search" else 0  # every seat at the level
            three += n if m.count("-vs-") == 2 and level != "search" else 0
            if level != "search":
                levels.append((level, n))
    return StudyPlan("headline", games, search, search_seats=seats, three=three, levels=tuple(levels))


def _leverage(ctx) -> StudyPlan:
    from simlab.studies.leverage import leverage_runs

    matchups, _, runs = leverage_runs(True, ctx.leverage_board, ctx.perturb, None, ctx.run.variant_dict)
    three = sum(len(m.split("-vs-")) == 3 for m in [*matchups, *(m for _, m in runs)])
    edited = sum(bool(p.edits) for p, _ in runs)
    games = (len(matchups) + len(runs)) * ctx.leverage_games
    return StudyPlan("leverage", games, 0, three=three * ctx.leverage_games, edited_runs=edited)


def _robust(ctx) -> StudyPlan:
    from simlab.runs.levels import SEARCH_LEVELS
    from simlab.studies.difficulty import difficulty_runs
    from simlab.studies.robust import measures_at

    readings = len(ctx.chosen_readings) if ctx.chosen_readings else ctx.n_readings
    per_reading = search = three = 0
    levels = []
    for level in ctx.robust_levels:
        at_search = level in SEARCH_LEVELS
        n = difficulty_runs(len(VILLAIN_KEYS), measures_at(level)) * (
            ctx.search_games if at_search else ctx.difficulty_games
        )
        per_reading += n
        search += n if at_search else 0
        if not at_search:
            levels.append((level, (1 + readings) * n))
            if "strength" in measures_at(level):  # the 3-player game in each seat order
                three += (1 + readings) * 3 * ctx.difficulty_games
    plural = "s" if readings > 1 else ""
    note = "" if ctx.chosen_readings or not readings else f"at most: {readings} reading{plural}, as the screen finds"
    search *= 1 + readings
    # at most both sides search
    return StudyPlan("robust", (1 + readings) * per_reading, search, note, 2 * search, tuple(levels), three)


def _ladder(ctx) -> StudyPlan:
    from simlab.runs.levels import SEARCH_LEVELS

    games = search = 0
    levels = []
    for level in ctx.ladder_levels:
        n = (ctx.search_games if level in SEARCH_LEVELS else ctx.difficulty_games) * len(VILLAIN_KEYS) * 2
        games += n
        search += n if level in SEARCH_LEVELS else 0
        if level not in SEARCH_LEVELS:
            levels.append((level, n))
    # the level's side searches; novice opponents
    return StudyPlan("ladder", games, search, search_seats=search, levels=tuple(levels))


def _card_impact(ctx) -> StudyPlan:
    from simlab.studies.impact import deck_cards

    per_villain = [(deck_cards(v, None).height + 1) * (len(VILLAIN_KEYS) - 1) for v in ctx.villains]
    ablated = sum(deck_cards(v, None).height * (len(VILLAIN_KEYS) - 1) for v in ctx.villains)  # a card taken out
    return StudyPlan("card_impact", sum(per_villain) * ctx.ablation_games, 0, edited_runs=ablated)


def _fix(ctx) -> StudyPlan:
    from simlab.report.sections import fix_table
    from simlab.studies.fix import fix_plan

    table = fix_table(ctx)
    if table is None:
        return StudyPlan("fix", 0, 0, "no [report.fix]")
    band, games, matchups, edits_from, options = table
    n, edited = fix_plan(band, matchups, options, edits_from, settings=ctx.run.replace(games=games or ctx.games))
    note = "at most: the search stops at the first fix in the band, the adaptation check only follows a fix"
    return StudyPlan("fix", n, 0, note, edited_runs=edited)


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
    games_per_second: float  # scripted games at the report's own settings
    search_seconds: float | None  # one search player's seat in one game, when the report plays any
    measured_games: int  # scripted games of the measured rate at the report's own settings
    level_rates: tuple[tuple[str, float], ...] = ()  # games per second at each other level the studies play
    three_player_rate: float | None = None  # 3-player games per second at the report's own settings
    edited_run_seconds: float = 0.0  # what building a run's card tables under an edit adds to it

    def rate(self, level: str) -> float:
        return dict(self.level_rates).get(level, self.games_per_second)


def measure_rates(ctx, plans: list[StudyPlan]) -> Rates:
    """Time short runs on seeds the report does not use (these games are not part of it): the report's matrix
    settings and every other level a study plays, on the first matchup; and, when any study plays the search
    player, one search game of every matchup (2- and 3-player games cost a seat differently, and one game's cost
    varies by a factor of three), every seat searched, whose mean cost per seat the estimate uses."""
    from simlab.game import warmup
    from simlab.runs.sim import run
    from simlab.studies.matchups import matchups

    n = max(min(RATE_GAMES, ctx.games), 50)
    every = matchups()
    probe = ctx.run.replace(games=n, seed=ctx.run.seed + 1_000_003, progress=None)
    warmup.ensure()
    measured: list[int] = []

    def rate_of(settings, matchup=every[0]) -> float:
        # one run of a few hundred games takes tens of milliseconds: repeat it (on further seeds) until the
        # timing is long enough to mean something
        played, t0 = 0, time.perf_counter()
        while played == 0 or time.perf_counter() - t0 < RATE_SECONDS:
            run(matchup, settings=settings.replace(seed=settings.seed + played))
            played += n
        measured.append(played)
        return played / max(time.perf_counter() - t0, 1e-6)

    rate = rate_of(probe)
    three = [m for m in every if len(m.split("-vs-")) == 3]
    three_rate = rate_of(probe, three[0]) if three and any(p.three for p in plans) else None
    levels = sorted({lv for p in plans for lv, _ in p.levels if lv})
    level_rates = tuple((lv, rate_of(probe.replace(level=lv, strategies={}))) for lv in levels)
    edited = 0.0
    if any(p.edited_runs for p in plans):
        t0 = time.perf_counter()
        tiny = probe.replace(games=2)
        for k in range(EDITED_RUNS):
            run(every[0], settings=tiny.replace(seed=tiny.seed + k))
        plain = time.perf_counter() - t0
        t0 = time.perf_counter()
        for k in range(EDITED_RUNS):  # a different edit each time: edited tables are built once per edit
            run(every[0], settings=tiny.replace(seed=tiny.seed + k, edits=(*tiny.edits, _probe_edit(every[0], k))))
        edited = max(time.perf_counter() - t0 - plain, 0.0) / EDITED_RUNS
    search = None
    if any(p.search for p in plans):
        warmup.ensure(search=True)
        t0 = time.perf_counter()
        for m in every:
            run(m, settings=probe.replace(games=1, level="search", strategies={}))
        search = (time.perf_counter() - t0) / sum(len(m.split("-vs-")) for m in every)  # every seat searched
    return Rates(rate, search, measured[0], level_rates, three_rate, edited)


def _probe_edit(matchup: str, k: int) -> str:
    """A card edit for timing an edited run: the first villain's first card at a cost it does not print."""
    from simlab.studies.impact import deck_cards

    card = deck_cards(matchup.split("-vs-")[0], None).row(0, named=True)
    return f"{card['card']}:cost={int(card['cost'] or 0) + 1 + k}"


def at_most_seconds(estimate: float) -> float:
    """The bound the report states beside its estimate: a search game's cost varies by a factor of three from game
    to game and the studies' own work (their tables) is not timed in the measured runs."""
    return estimate * AT_MOST_FACTOR + AT_MOST_SECONDS


def estimate_seconds(plan: StudyPlan, rates: Rates) -> float:
    scripted = sum(n / rates.rate(lv) for lv, n in plan.scripted_by_level().items())
    if rates.three_player_rate:  # counted above at the 2-player rate
        scripted += plan.three * (1 / rates.three_player_rate - 1 / rates.games_per_second)
    return scripted + plan.search_seats * (rates.search_seconds or 0.0) + plan.edited_runs * rates.edited_run_seconds


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
        f"report plan: {total:,} games, play about {_duration(seconds)}, at most {_duration(at_most_seconds(seconds))} "
        f"(measured {rates.games_per_second:,.0f} scripted "
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
