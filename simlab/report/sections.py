"""The sections of a balance report and the studies they read.

Each section is a function of the report's :class:`ReportContext` that returns its part: a list of
:class:`Section` (empty when the settings leave it out), its plots written to the report's directory.
:func:`sections_in_order` lists them in the order the report shows them. The studies are properties of the
context, each played once on first use; :data:`STUDIES` is the order
:func:`simlab.report.build.build_report` plays them in before any section is made, so the progress lines come
in that order whatever a section reads first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import polars as pl

from simlab.data.cards import VILLAIN_KEYS
from simlab.data.inputs import output_name
from simlab.report.plots import (
    plot_calibration,
    plot_fix,
    plot_impact,
    plot_ladder,
    plot_lengths,
    plot_level_comparison,
    plot_leverage,
    plot_matrix,
    plot_skill_trace,
    plot_turns,
    plot_win_rates,
    write_plot,
)
from simlab.runs.experiment import Experiment
from simlab.runs.settings import RunSettings
from simlab.runs.stats import interval_text


@dataclass
class Section:
    title: str
    text: str = ""
    tables: dict[str, pl.DataFrame] = field(default_factory=dict)
    plots: dict[str, Path] = field(default_factory=dict)
    files: dict[str, pl.DataFrame] = field(default_factory=dict)  # written as parquet and CSV, linked, not shown


# The order the studies are played in (the context's properties).
STUDIES = (
    "headline",
    "matrix",
    "search_matrix",
    "leverage",
    "robust",
    "ladder",
    "goldfish",
    "card_impact",
    "calibration",
    "fix",
)


@dataclass
class ReportContext:
    """What every section shares: the experiment and its checked settings, where the files go, and the studies
    (properties, each played once on first use). ``settings`` is the record written to settings.json."""

    exp: Experiment
    directory: Path
    level: str  # the level of the headline
    main_level: str  # the level of the studies that play thousands of games per setting
    run: RunSettings  # the matrix's settings; the other studies change its games
    strategies: dict[str, str]  # villain -> the strategy at main_level
    villains: tuple[str, ...]  # whose cards' impact is measured
    games: int  # per matchup of the matrix
    ablation_games: int  # per card and opponent
    difficulty_games: int  # per pairing and setting
    leverage_games: int  # per matchup and reading
    search_games: int  # per matchup at the search level (0: no search section)
    leverage_board: str
    n_readings: int
    robust_levels: tuple[str, ...]
    perturb: list[str]  # the readings the leverage table adds
    chosen_readings: list[str]  # the readings the verdicts are measured under instead of the ranking's
    real_games: object  # the log of real games (a simlab.studies.calibration.GameLog), or None
    settings: dict
    say: Callable[[str], None] = lambda _msg: None
    band: tuple[float, float] = (0.45, 0.55)  # the headline's balance band
    rescreen: bool = False  # the verdicts' readings from this report's leverage table, not the shipped ranking

    def trace_levels(self, villains: tuple[str, ...]) -> tuple[str, ...]:
        """The headline's levels for a pairing: every level of the trace available here, search only when
        ``search_games`` is above 0."""
        from simlab.runs.levels import available_levels
        from simlab.studies.headline import TRACE_LEVELS

        have = available_levels(villains)
        return tuple(lv for lv in TRACE_LEVELS if lv in have and (lv != "search" or self.search_games > 0))

    @property
    def ladder_levels(self) -> list[str]:
        from simlab.runs.levels import SEARCH_LEVELS, available_levels

        return [lv for lv in available_levels() if self.search_games > 0 or lv not in SEARCH_LEVELS]

    @property
    def calibration_sizes(self) -> tuple[int, dict, list | None]:
        """(games per seat order and model, rule settings, levels) of the calibration, from ``[report]``."""
        from simlab.studies.calibration import DEFAULT_GAMES

        rep = self.exp.report
        n_games = rep.get("calibration_games", self.exp.games or DEFAULT_GAMES)
        return n_games, {**self.exp.rules, **rep.get("calibration_rules", {})}, rep.get("calibration_levels") or None

    @property
    def at_search(self) -> bool:
        from simlab.runs.levels import is_search

        return is_search(self.level)

    @property
    def per_pairing(self) -> RunSettings:
        return self.run.replace(games=self.difficulty_games)

    def plot(self, name: str, draw, size) -> Path:
        """``name``.png in the report's directory, drawn by ``draw(ax)`` on a figure of ``size`` inches."""
        return write_plot(output_name(f"{name}.png", self.directory, "plot"), draw, size, dpi=110)

    @cached_property
    def fix(self):
        return play_fix(self)

    @cached_property
    def headline(self):
        """The headline table and skill trace of every pairing (:mod:`simlab.studies.headline`), ``games`` per
        matchup and level, the search level on ``search_games``."""
        from simlab.studies.equilibrium import pairings
        from simlab.studies.headline import headline

        self.say("headline: the skill trace")
        levels = tuple(dict.fromkeys(lv for m in pairings() for lv in self.trace_levels(tuple(m.split("-vs-")))))
        return headline(
            band=self.band,
            levels=levels,
            search_games=self.search_games,
            settings=self.run.replace(level=None, strategies={}),
            three_player=True,
            learning=True,
        )

    @cached_property
    def matrix(self):
        from simlab.studies.matchups import matrix

        self.say("matchup matrix")
        return matrix(settings=self.run)

    @cached_property
    def search_matrix(self):
        """The matrix with every villain played by the search player; None when search_games is 0."""
        from simlab.studies.matchups import matrix

        if self.search_games <= 0:
            return None
        self.say("at search level")
        return matrix(
            settings=self.run.replace(
                games=self.search_games,
                level="search",
                progress=lambda done, total: self.say(f"at search level: {done:,} of {total:,} games"),
            )
        )

    @cached_property
    def leverage(self):
        from simlab.studies.leverage import leverage

        self.say("leverage: rule variants and board layouts")
        lev_settings = self.run.replace(
            games=self.leverage_games, progress=lambda done, total: self.say(f"leverage: {done:,} of {total:,} games")
        )
        return leverage(rules=True, board=self.leverage_board, perturbations=self.perturb, settings=lev_settings)

    @cached_property
    def robust(self):
        """The verdicts at every level and reading; records the readings in ``settings``."""
        from simlab.runs.levels import SEARCH_LEVELS
        from simlab.studies.robust import robust_difficulty

        screen = self.leverage.table if self.rescreen else None
        self.say("robust verdicts")
        rob = robust_difficulty(
            VILLAIN_KEYS,
            self.robust_levels,
            self.chosen_readings or self.n_readings,
            screen=screen,
            rescreen=self.rescreen,
            progress=lambda done, total, what: self.say(f"robust verdicts: {what}: {done:,} of {total:,} games"),
            settings=self.per_pairing,
            search_games=self.search_games if any(lv in SEARCH_LEVELS for lv in self.robust_levels) else None,
        )
        self.settings["robust_readings"] = list(rob.readings["reading"])
        self.settings["robust_readings_from"] = rob.settings["readings_from"]
        return rob

    @cached_property
    def top_verdicts(self) -> pl.DataFrame | None:
        """The questions' verdicts at the headline's top rung once it is settled, from the learned level's own
        difficulty run (:func:`simlab.studies.generations.top_rung_verdicts`); None while the top still moves, under
        other rules or cards, or without that run."""
        from simlab.studies.generations import top_rung_verdicts
        from simlab.studies.headline import shipped_rungs, top_settled

        return top_rung_verdicts(shipped_rungs(self.run)) if top_settled(self.headline) else None

    @cached_property
    def grouped(self) -> pl.DataFrame:
        """The robust verdicts labelled within each question's settings (strong play, new players)."""
        from simlab.studies.robust import grouped_verdicts

        return grouped_verdicts(self.robust)

    @cached_property
    def ladder(self) -> pl.DataFrame:
        from simlab.studies.ladder import skill_ladder

        self.say("skill ladder")
        # as before this settings object: the ladder is played with the printed cards (no edits)
        return skill_ladder(
            VILLAIN_KEYS,
            self.ladder_levels,
            "novice",
            settings=self.per_pairing.replace(edits=()),
            search_games=self.search_games or None,
        )

    @cached_property
    def goldfish(self) -> tuple[pl.DataFrame, pl.DataFrame]:
        """Each villain alone: (the summaries, one row per game won: villain, turns)."""
        from simlab.runs.sim import goldfish

        self.say("turns to win")
        parts, summaries = [], []
        for v in VILLAIN_KEYS:
            g = goldfish(v, strategy=self.strategies[v], settings=self.per_pairing)
            summaries.append(g.summary)
            parts.append(
                g.games.filter(pl.col("winner_index") == 0).select(
                    pl.lit(v).alias("villain"), pl.col("winner_turns").alias("turns")
                )
            )
        return pl.concat(summaries), pl.concat(parts)

    @cached_property
    def card_impact(self) -> dict[str, pl.DataFrame]:
        """Villain -> the causal impact of each of its cards."""
        from simlab.studies.impact import ablation

        out = {}
        for v in self.villains:
            self.say(f"card impact: {v}")
            out[v] = ablation(v, settings=self.run.replace(games=self.ablation_games))
        return out

    @cached_property
    def calibration(self):
        """(the calibration against the log of real games, games per seat order and model); None without a log.
        Sizes, levels and readings come from the experiment's ``[report]`` table."""
        from simlab.studies.calibration import evaluate, predict

        if self.real_games is None:
            return None
        self.say("calibration against real play")
        n_games, rules, levels = self.calibration_sizes
        run, log = self.run, self.real_games
        threads = run.threads
        pred = predict(log.orders(), levels, rules, n_games, seed=run.seed, max_turns=run.max_turns, threads=threads)
        return evaluate(log, pred), n_games


# ============================================================================ the sections, in the report's order


def sections_in_order(ctx: ReportContext) -> list[Callable[[ReportContext], list[Section]]]:
    """The sections as the report shows them: a report at the search level puts that section first."""
    body = [matrix, difficulty, robustness, skill_ladder, turns_to_win, card_impact, leverage]
    body.insert(0 if ctx.at_search else 1, at_search_level)
    return [balance, stronger, lady_tremaine, *body, calibration, balance_fix]


def balance(ctx: ReportContext) -> list[Section]:
    """The first screen: one row per pairing (strong play, exploitability, new players, verdicts), then the skill
    trace of each pairing."""
    from simlab.studies.generations import rungs_note
    from simlab.studies.headline import headline_view, shipped_rungs, strong_note, top_settled

    res = ctx.headline
    band = f"{res.band[0]:.0%}-{res.band[1]:.0%}"
    rungs = shipped_rungs(ctx.run)
    if rungs is not None:
        search = rungs_note(rungs)
    elif ctx.search_games > 0:
        search = f"search level on {ctx.search_games:,} games"
    else:
        search = "search level left out ([report] search_games = 0)"
    settled = top_settled(res)
    lead = (
        f"The first villain's win rate [95%] at the top rung ({res.top.removesuffix(': settled')}, settled: more "
        "skill no longer moves it, so its verdict comes first), at strong play (the shipped equilibrium mixtures)"
        if settled
        else "The first villain's win rate [95%] at strong play (the shipped equilibrium mixtures)"
    )
    text = (
        f"{lead} and for new players (novice against novice), {ctx.games:,} games each at strong play and for new "
        f"players, seats rotated; balanced when the interval lies within {band} ([report] band). {strong_note(res)} "
        f"Below: the win rate at every level ({search})."
    )
    if res.top and not settled:
        text += f" Top rung {res.top}."
    plots = {}
    for m in dict.fromkeys(res.trace["matchup"]):
        trace = res.trace.filter(pl.col("matchup") == m)
        if trace.height:
            name = f"skill_trace_{m}"
            plots[name] = ctx.plot(name, lambda ax, t=trace: plot_skill_trace(t, ax, res.band), (7, 3.0))
    sec = Section("Headline: is each matchup balanced?", text, {"headline": headline_view(res.table, settled)}, plots)
    sec.files = {"headline_values": res.table, "skill_trace": res.trace}
    if res.top:
        sec.files["skill_trace_top"] = pl.DataFrame({"top": [res.top]})  # the top rung and its word
    return [sec]


def stronger(ctx: ReportContext) -> list[Section]:
    from simlab.runs.levels import available_levels, strongest_level

    main_level, settings = ctx.main_level, ctx.settings
    search_verdicts = head_to_head(ctx.search_matrix.table, "search") if ctx.search_matrix is not None else []
    strongest = strongest_level()
    which = "the strongest scripted level here" if main_level == strongest else f"not the strongest ({strongest})"
    strength = ctx.grouped.filter(pl.col("measure") == "strength")
    if ctx.at_search:
        lead = (
            f"Which villain is stronger (win rate against the field, each villain against each other one)? Asked "
            f"at the search level, the strongest here: head to head at search level, on {ctx.search_games:,} games "
            f"per matchup (section At search level): " + "; ".join(search_verdicts) + ". The studies below play "
            f"thousands of games per setting, so they are measured at the {main_level} level, {which}; levels here: "
            f"{', '.join(available_levels())}. Each verdict of the table is measured at every level "
        )
    else:
        at_search_text = (
            " At search level (fewer games, section At search level): " + "; ".join(search_verdicts) + "."
            if search_verdicts
            else ""
        )
        lead = (
            f"Which villain is stronger (win rate against the field, each villain against each other one)? The "
            f"studies below are measured at the {main_level} level, {which}; levels here: "
            f"{', '.join(available_levels())}.{at_search_text} Each verdict of the table is measured at every level "
        )
    text = (
        lead
        + f"({', '.join(ctx.robust_levels)}) under the default readings"
        + (
            f" and under {', '.join(settings['robust_readings'][1:])} (the readings with the largest effect, from "
            f"{settings.get('robust_readings_from', 'the leverage screen')})"
            if len(settings["robust_readings"]) > 1
            else ""
        )
        + ", and labelled holds, reverses or not significant across the settings that answer the same question: "
        "at strong play, and separately for new players (novice); neither overturns the other."
    )
    verdicts = strength.select("question", "group", "label", "verdict")
    top = ctx.top_verdicts
    if top is not None:  # after the question, before the levels that answer it here
        asked, rest = text.split("? ", 1)
        text = f"{asked}? {top_rung_lead(top)} {rest}"
        at_top = top.filter(pl.col("measure") == "strength").select(verdicts.columns)
        verdicts = pl.concat([at_top, verdicts])
    return [Section("Which villain is stronger?", text, {"headline_verdicts": verdicts})]


def top_rung_lead(top: pl.DataFrame) -> str:
    """The sentence that puts the settled top rung's verdicts first and says where they come from."""
    n = int(top["settings"][0])
    where = "at the default readings, one setting" if n == 1 else f"under {n} settings"
    return (
        f"First, at the {top['group'][0]}: the learned level alone {where}, {int(top['games'][0]):,} games per "
        f"pairing ({top['source'][0]}, written by {top['command'][0]}); fewer settings on fewer "
        "games, so where strong play's settings split it supports one side without settling it."
    )


def lady_tremaine(ctx: ReportContext) -> list[Section]:
    from simlab.studies.robust import answer

    text = (
        "Harder to play means a larger skill gap (the level's win rate minus novice's against the same novice "
        "opponents): skill rewards her more. Weaker means a lower win rate against the field. Each verdict "
        "is labelled across the levels and readings measured, and says at which it goes which way."
    )
    columns = ("question", "group", "label", "verdict")
    verdicts = answer(ctx.robust, "lady-tremaine", verdicts=ctx.grouped).select(columns)
    top = ctx.top_verdicts
    if top is not None:
        text += " " + top_rung_lead(top)
        at_top = answer(ctx.robust, "lady-tremaine", verdicts=top).select(columns)
        verdicts = pl.concat([at_top, verdicts])
    return [Section("Is Lady Tremaine harder?", text, {"lady_tremaine_verdicts": verdicts})]


def matrix(ctx: ReportContext) -> list[Section]:
    m = ctx.matrix
    sec = Section(
        "Matchup matrix",
        f"Every 2-player pairing and the 3-player game, {ctx.games:,} games each, seats rotated, {ctx.main_level} "
        "play unless the settings say otherwise. Win rates with 95% Wilson intervals.",
        {"matrix": m.table},
    )
    sec.plots["matrix_heatmap"] = ctx.plot("matrix_heatmap", lambda ax: plot_matrix(m.grid(), ax), (6, 5))
    sec.plots["win_rates"] = ctx.plot("win_rates", lambda ax: plot_win_rates(m.table, ax, ctx.main_level), (8, 7))
    return [sec]


def at_search_level(ctx: ReportContext) -> list[Section]:
    if ctx.search_matrix is None:
        return []
    main_level, sm = ctx.main_level, ctx.search_matrix
    comparison = level_comparison(sm.table, ctx.matrix.table, main_level)
    verdicts = head_to_head(sm.table, "search")
    return [
        Section(
            "At search level",
            "The matchup matrix with every villain played by the search player (strategies.search: at each "
            "decision it samples worlds consistent with what it can see and plays every option out with the "
            f"strongest scripted strategy), {ctx.search_games:,} games per matchup on the first seeds of the matrix "
            f"above, seats rotated: far fewer games than at {main_level} level (a search game costs hundreds of "
            f"scripted games), so the intervals are wide. Beside each rate: the {main_level} rate of the same entry "
            "and the change with its 95% interval (Newcombe, independent samples).",
            {"search_matrix": comparison, "search_verdicts": pl.DataFrame({"verdict": verdicts})},
            {
                "search_win_rates": ctx.plot(
                    "search_win_rates", lambda ax: plot_level_comparison(comparison, ax, "search"), (8, 7)
                )
            },
        )
    ]


def difficulty(ctx: ReportContext) -> list[Section]:
    main_level, rob = ctx.main_level, ctx.robust
    here = rob.verdicts_at(main_level)
    return [
        Section(
            "Difficulty",
            f"{ctx.difficulty_games:,} games per pairing and setting, {main_level} play, default readings. Strength: "
            f"win rate against the field. Skill gap: {main_level} minus novice against the same novice opponents "
            "(paired; only above novice). Goldfish: median turns to win alone. Fate sensitivity: drop in win rate "
            "when the opponents play fate-heavy (paired; from expert up). These verdicts hold at this one setting; "
            "the next section says whether each survives the other levels and readings.",
            {"difficulty": rob.at(main_level), "verdicts": here.select("measure", "verdict", "z", "p")},
        )
    ]


def robustness(ctx: ReportContext) -> list[Section]:
    rob = ctx.robust
    readings_text = "; ".join(
        f"{r['reading']} ({r['why']})" for r in rob.readings.iter_rows(named=True) if r["kind"] != "default"
    )
    return [
        Section(
            "Robustness of the verdicts",
            f"Every verdict measured at each level ({', '.join(ctx.robust_levels)}) under the default readings"
            + (f" and under {readings_text}" if readings_text else " (no reading moved any matchup significantly)")
            + f", {ctx.difficulty_games:,} games per pairing and setting, the same seeds at every setting. Label: "
            "holds (significant the same way at every setting), reverses (significant both ways), not significant "
            "(otherwise); two-sided tests at 5% at each setting, across the settings of one question (strong play; "
            "new players): every setting's numbers are in robust_by_setting.csv, the labels across all of them in "
            "robust_across_all_settings.csv. The skill gap is measured only above novice, Fate "
            "sensitivity from expert up; random is not a player and is left out.",
            {
                "robust_verdicts": ctx.grouped.select("question", "group", "label", "verdict", "settings", "min_abs_z"),
                "robust_readings": rob.readings,
            },
            files={
                "robust_measures": rob.table,
                "robust_by_setting": rob.by_setting,
                "robust_across_all_settings": rob.verdicts,
            },
        )
    ]


def skill_ladder(ctx: ReportContext) -> list[Section]:
    lad = ctx.ladder
    search_rung = (
        f"; the search rung plays {ctx.search_games:,} games per opponent villain (the first of the same seeds)"
        if ctx.search_games > 0
        else ""
    )
    return [
        Section(
            "Skill ladder",
            f"Each villain at each level against every other villain played by novice, {ctx.difficulty_games:,} "
            f"games per opponent villain, seats rotated{search_rung}; step_z compares a level with the one below, "
            "min_z_below with every level below (the smallest z).",
            {"skill_ladder": lad},
            {"skill_ladder": ctx.plot("skill_ladder", lambda ax: plot_ladder(lad, ax), (7, 4.5))},
        )
    ]


def turns_to_win(ctx: ReportContext) -> list[Section]:
    summaries, turns = ctx.goldfish
    return [
        Section(
            "Turns to win",
            f"Each villain alone (goldfish), {ctx.main_level} play, {ctx.difficulty_games:,} games.",
            {"goldfish": summaries},
            {"turns_to_win": ctx.plot("turns_to_win", lambda ax: plot_turns(turns, ax, ctx.main_level), (7, 4.5))},
        )
    ]


def card_impact(ctx: ReportContext) -> list[Section]:
    return [
        Section(
            f"Card impact: {v}",
            f"CAUSAL: the same {2 * ctx.ablation_games:,} games ({ctx.ablation_games:,} against each other villain) "
            "with each card ablated "
            f"(never played), {ctx.main_level} play; impact = win rate with the card minus without, paired 95% "
            "interval.",
            {f"card_impact_{v}": eff},
            {
                f"card_impact_{v}": ctx.plot(
                    f"card_impact_{v}",
                    lambda ax, eff=eff, v=v: plot_impact(eff, ax, f"{v}: causal card impact"),
                    (8, 0.28 * eff.height + 1.5),
                )
            },
        )
        for v, eff in ctx.card_impact.items()
    ]


def leverage(ctx: ReportContext) -> list[Section]:
    lev = ctx.leverage
    summary = lev.summary()
    n_rule = summary.filter(pl.col("kind") == "rule").height
    n_board = summary.filter(pl.col("kind") == "board").height
    return [
        Section(
            "Leverage: rule readings and board layouts",
            f"Each rule variant's non-default value ({n_rule}) and each plausible transcription error of the board "
            f"layouts ({n_board}; the layouts come from one medium-low-trust source: a symbol read in the wrong row, "
            "a whole board's rows read upside down, two neighbouring locations' panels swapped) played on the same "
            f"{ctx.leverage_games:,} games per matchup as the shipped reading, {ctx.main_level} play, every pairing "
            "of different villains and the 3-player game (a board edit only where that villain plays). leverage: "
            "each reading's largest effect, largest first; leverage_top: the largest effects by matchup and villain "
            "(the whole table in leverage_all.csv). Change in win rate with Newcombe's paired 95% interval.",
            {"leverage": summary, "leverage_top": lev.table.head(40).drop("description")},
            {
                "leverage": ctx.plot(
                    "leverage",
                    lambda ax: plot_leverage(lev.table, ax, 25, f"leverage ({ctx.main_level} play)"),
                    (9, 10),
                )
            },
            files={"leverage_all": lev.table},
        )
    ]


def calibration(ctx: ReportContext) -> list[Section]:
    """Calibration against the log of real games the experiment's ``[report] real_games`` names (if it does)."""
    from simlab.studies.calibration import DECISIVE_RATIO

    if ctx.calibration is None:
        return []
    res, n_games = ctx.calibration
    log = ctx.real_games
    text = (
        f"The log {log.describe()}. Each model (a level playing every seat, at a rule setting) played "
        f"{n_games:,} games of every seat order in the log (seed {ctx.run.seed}); real games use the printed cards, "
        "so the settings' card edits and strategies are not applied here. Predicted probability = (wins + 1/2) / "
        "(finished games + P/2). Verdicts: "
        + " ".join(f"{v}." for v in res.verdicts["verdict"])
        + (" (One model only: nothing to compare.)" if res.verdicts.height == 0 else "")
        + f" A likelihood ratio below {DECISIVE_RATIO:g} decides little, and it compares the models with each "
        "other, not with the truth (see the exact p-values per seat order and seat)."
    )
    tables = {
        "calibration_fit": res.fit,
        "calibration_verdicts": res.verdicts.select(
            "question", "best", "runner_up", "log_lr", "decided", "games_needed"
        ),
        "calibration_matchups": res.matchups,
        "calibration_first_player": res.first_player,
        "calibration_bins": res.calibration,
    }
    plots = {"calibration": ctx.plot("calibration", lambda ax: plot_calibration(res.calibration, ax), (7, 5.5))}
    if res.lengths.height:
        tables["calibration_lengths"] = res.lengths
        plots["calibration_lengths"] = ctx.plot(
            "calibration_lengths", lambda ax: plot_lengths(res.length_distribution, ax), (8, 4.5)
        )
    if res.groups.height:
        tables["calibration_groups"] = res.groups
    if log.skipped.height:
        tables["calibration_skipped"] = log.skipped
    return [Section("Calibration against real play", text, tables, plots)]


# ============================================================================ verdicts from matrix tables


def level_comparison(table: pl.DataFrame, base: pl.DataFrame, base_level: str) -> pl.DataFrame:
    """Each (matchup, outcome) of a matrix ``table`` beside the same entry of the ``base`` matrix (played at
    ``base_level``): both rates and the change with its 95% interval (Newcombe's, independent samples)."""
    from simlab.runs.stats import difference

    other = {(r["matchup"], r["outcome"]): r for r in base.iter_rows(named=True)}
    rows = []
    for r in table.iter_rows(named=True):
        b = other[(r["matchup"], r["outcome"])]
        change, low, high = difference(r["count"], r["games"], b["count"], b["games"])
        rows.append(
            {k: r[k] for k in ("matchup", "outcome", "games", "count", "rate", "low", "high")}
            | {"base_level": base_level, "base_games": b["games"], "base_rate": b["rate"]}
            | {"change": change, "change_low": low, "change_high": high}
        )
    return pl.DataFrame(rows)


def head_to_head(table: pl.DataFrame, level: str) -> list[str]:
    """One verdict per 2-player pairing of two villains from a matrix ``table``: who wins more often at ``level``
    (the 95% Wilson interval of the first villain's share of all games excludes 50%) or no significant difference,
    each naming its rate, interval and games."""
    out = []
    two = table.filter((pl.col("players") == 2) & ~pl.col("outcome").str.contains("#"))
    for m in two["matchup"].unique(maintain_order=True):
        a, b = m.split("-vs-")
        if a == b:  # a mirror matchup: no pairing of two villains
            continue
        r = two.filter((pl.col("matchup") == m) & (pl.col("outcome") == a)).row(0, named=True)
        share = f"{a} wins {interval_text(r['rate'], r['low'], r['high'])} of {r['games']:,} games"
        if r["low"] > 0.5:
            out.append(f"{a} beats {b} at {level} level ({share})")
        elif r["high"] < 0.5:
            out.append(f"{b} beats {a} at {level} level ({share})")
        else:
            out.append(f"no significant difference between {a} and {b} at {level} level ({share})")
    return out


def fix_table(ctx) -> tuple | None:
    """The experiment's ``[report.fix]`` table as :func:`simlab.studies.fix.fix`'s arguments: (band, games per
    matchup, matchups, edits_from, options), checked; None without one."""
    from simlab.studies.fix import options_from_table

    if "fix" not in ctx.exp.report:
        return None
    return options_from_table(ctx.exp.report["fix"], ctx.exp.source or "report")


def play_fix(ctx):
    """The best balance fix of the ``[report.fix]`` table (a :class:`simlab.studies.fix.FixResult`), None without
    one: the report's study ``fix``."""
    from simlab.studies.fix import fix

    table = fix_table(ctx)
    if table is None:
        return None
    band, games, matchups, edits_from, options = table
    ctx.say(f"balance fix for the band {band.text}")
    return fix(
        band,
        matchups,
        options,
        edits_from,
        progress=lambda done, total, what: ctx.say(f"balance fix: {what}: {done:,} of {total:,} games"),
        settings=ctx.run.replace(games=games or ctx.games),
    )


def balance_fix(ctx: ReportContext) -> list[Section]:
    """The best balance fix for the band of the experiment's ``[report.fix]`` table (none without one)."""
    res = ctx.fix
    if res is None:
        return []
    band, games = res.band, res.settings["games"]
    ctx.settings["fix"] = res.settings
    if not res.fixes.height:
        return [Section("Balance fix", f"Every matchup is inside the band {band.text} already: nothing to fix.")]
    best = res.best
    rows = res.table.filter(pl.col("rank") == 1)
    where = "inside the band" if best["in_band"] else f"{best['distance']:.1%} outside the band"
    text = (
        f"The smallest edits that bring every matchup into the band {band.text} (each villain's share: its win rate "
        f"times players/2, so a fair share is 50% in the 3-player game too), {res.play}, on the same "
        f"{games:,} games per matchup as the game as printed. Best fix: {best['fix']} ({best['words']}; {where}; paste "
        f"{best['options']}). Adaptation (each villain it changes re-tuned on the fixed game): {res.verdict}. "
        "fix_best: the best fixes, ranked inside the band by interval, then fewer edits, smaller size, fewer side "
        "effects, a direct repair, the larger margin; "
        "fix_matchups: the best fix's matchups before and after, change with Newcombe's paired 95% interval."
    )
    table = rows.select("matchup", "villain", "before_text", "after_text", "change_text")
    adapted = res.adaptation if res.adaptation.height else None
    plot = ctx.plot("fix", lambda ax: plot_fix(rows, ax, (band.low, band.high), adapted, f"fix: {best['fix']}"), (9, 6))
    files = {k: v for k, v in res.frames().items() if v.height and k not in ("fix_best", "fix_matchups")}
    files["fix_matchups_all"] = res.table
    return [Section("Balance fix", text, {"fix_best": res.fixes, "fix_matchups": table}, {"fix": plot}, files)]
