"""Balance reports: one directory with a self-contained ``index.html``, ``report.md``, the PNG plots and every
table as parquet and CSV, plus ``settings.json`` recording what regenerates it exactly.

Sections: a headline (which villain is stronger, each verdict labelled holds / reverses / not significant across
levels and readings), "is Lady Tremaine harder?", the matchup matrix (heatmap, win rates with intervals), the
matrix at search level (fewer games, each rate beside the scripted level's with the change's interval),
difficulty (measures and verdicts at the report's level), the robustness of every verdict across levels and
readings, the skill ladder, turns to win alone by villain, causal card impact per villain, the leverage table
(each rule variant and plausible board transcription error against each matchup), and, when the experiment
file's ``[report]`` table names ``real_games``, calibration against that log of real games.
"""

from __future__ import annotations

import base64
import datetime as dt
import html
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from simlab.data.cards import VILLAIN_KEYS
from simlab.data.rules import DEFAULT_MAX_TURNS, RULE_VARIANTS
from simlab.engine.game import check_villain
from simlab.errors import InputError
from simlab.report.plots import (
    plot_calibration,
    plot_impact,
    plot_ladder,
    plot_lengths,
    plot_level_comparison,
    plot_leverage,
    plot_matrix,
    plot_turns,
    plot_win_rates,
    write_plot,
)
from simlab.runs.experiment import Experiment
from simlab.runs.settings import RunSettings
from simlab.studies.calibration import calibration_log

DEFAULTS = {
    "games": 2000,  # per matchup of the matrix
    "seed": 0,
    "ablation_games": 500,  # per card and opponent
    "difficulty_games": 1000,  # per pairing and setting
    "leverage_games": 1000,  # per matchup and reading (leverage table)
    "leverage_board": "catalogue",  # board perturbations in the leverage table: catalogue or none
    "readings": 2,  # readings besides the default the verdicts are measured under (largest leverage first)
    "search_games": 20,  # per matchup at the search level (a search game costs hundreds of scripted games)
}


def simlab_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("simlab")
    except PackageNotFoundError:  # running from a source tree without installing: read pyproject.toml
        import tomllib

        pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
        try:
            return tomllib.loads(pyproject.read_text())["project"]["version"] + " (source tree)"
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            return "unknown"


@dataclass
class Section:
    title: str
    text: str = ""
    tables: dict[str, pl.DataFrame] = field(default_factory=dict)
    plots: dict[str, Path] = field(default_factory=dict)
    files: dict[str, pl.DataFrame] = field(default_factory=dict)  # written as parquet and CSV, linked, not shown


@dataclass
class Report:
    directory: Path
    settings: dict
    sections: list[Section]

    @property
    def index(self) -> Path:
        return self.directory / "index.html"


# ============================================================================ plots (frame in, Axes out)


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
        share = f"{a} wins {r['rate']:.0%} [{r['low']:.0%}, {r['high']:.0%}] of {r['games']:,} games"
        if r["low"] > 0.5:
            out.append(f"{a} beats {b} at {level} level ({share})")
        elif r["high"] < 0.5:
            out.append(f"{b} beats {a} at {level} level ({share})")
        else:
            out.append(f"no significant difference between {a} and {b} at {level} level ({share})")
    return out


# ============================================================================ studies


def build_report(
    exp: Experiment | None = None,
    out_dir: str | Path = "reports",
    threads: int | None = None,
    progress: Callable[[str], None] | None = None,
    level: str | None = None,
) -> Report:
    """Run every study of the report and write ``out_dir/<name>/``. ``exp``: the experiment file's settings.

    level: the level of :mod:`simlab.runs.levels` every villain plays at (unless the experiment's ``[strategies]``
    names one); default the experiment's ``level``, else the strongest scripted level available here
    (``tuned`` once its strategy files exist, else ``expert``). The headline and every study use it; the skill
    ladder shows every available level, its search rung on ``search_games`` per opponent villain. The section
    "At search level" plays the matchup matrix with every villain played by the search player on ``[report]
    search_games`` per matchup (default 20, at most ``games``; 0 leaves it out), beside the report level's.
    With ``level="search"`` the headline is measured there, and the studies that play thousands of games per
    setting (matrix, difficulty and robustness, turns to win, card impact, leverage) at the strongest
    scripted level, each section naming it."""
    from simlab.runs.sim import goldfish
    from simlab.studies.impact import ablation
    from simlab.studies.ladder import skill_ladder
    from simlab.studies.leverage import leverage
    from simlab.studies.matchups import matrix
    from simlab.studies.robust import answer, robust_difficulty

    exp = exp or Experiment(name="balance")
    rep = exp.report
    games = exp.games or DEFAULTS["games"]
    seed = exp.seed if exp.seed is not None else DEFAULTS["seed"]
    max_turns = exp.max_turns or DEFAULT_MAX_TURNS
    villains = tuple(check_villain(v) for v in rep.get("villains", VILLAIN_KEYS))
    ablation_games = rep.get("ablation_games", DEFAULTS["ablation_games"])
    difficulty_games = rep.get("difficulty_games", DEFAULTS["difficulty_games"])
    leverage_games = rep.get("leverage_games", DEFAULTS["leverage_games"])
    leverage_board = rep.get("leverage_board", DEFAULTS["leverage_board"])
    n_readings = rep.get("readings", DEFAULTS["readings"])
    search_games = rep.get("search_games", min(DEFAULTS["search_games"], games))
    from simlab.runs.levels import (
        SEARCH_LEVELS,
        available_levels,
        check_level,
        is_search,
        strategies_at,
        strongest_level,
    )
    from simlab.studies.leverage import BOARD_CHOICES
    from simlab.studies.robust import default_levels

    level = check_level(level or exp.level or strongest_level())
    at_search = is_search(level)
    where = exp.source or "report"
    if not isinstance(search_games, int) or search_games < 0:
        raise InputError(f"{where}: [report] search_games must be a number of games, 0 or more, got {search_games!r}")
    if at_search and search_games < 1:
        raise InputError(f"{where}: a report at the search level needs [report] search_games of 1 or more")
    main_level = strongest_level() if at_search else level  # the level of the studies that play thousands of games
    strategies = strategies_at(main_level, VILLAIN_KEYS, exp.strategies)
    variants, edits = exp.rules, exp.edits
    if any(not isinstance(n, int) or n < 1 for n in (games, ablation_games, difficulty_games, leverage_games)):
        raise InputError("report game counts must be positive integers")
    if leverage_board not in BOARD_CHOICES:
        raise InputError(f"[report] leverage_board must be one of {', '.join(BOARD_CHOICES)}, got {leverage_board!r}")
    if n_readings < 0:
        raise InputError(f"[report] readings must be 0 or more, got {n_readings}")
    robust_levels = [check_level(lv) for lv in rep.get("robust_levels", default_levels())]
    robust_levels = tuple(lv for lv in available_levels() if lv in {*robust_levels, main_level})
    perturb = _perturbations(rep, "leverage_perturb", exp.source)
    chosen_readings = _perturbations(rep, "robust_readings", exp.source)
    real_games = calibration_log(rep, exp.source)  # read now: a bad log fails before the long studies
    directory = Path(out_dir) / exp.name
    try:
        directory.mkdir(parents=True, exist_ok=True)
        (directory / ".write-test").write_text("")
        (directory / ".write-test").unlink()
    except OSError as exc:
        raise InputError(f"cannot write the report to {str(directory)!r}: {exc.strerror or exc}") from None
    settings = {
        "simlab_version": simlab_version(),
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "name": exp.name,
        "description": exp.description,
        "config": _config_name(exp.source) if exp.source else None,
        "seed": seed,
        "games_per_matchup": games,
        "ablation_games": ablation_games,
        "difficulty_games": difficulty_games,
        "leverage_games": leverage_games,
        "leverage_board": leverage_board,
        "leverage_perturb": perturb,
        "max_turns": max_turns,
        "level": level,
        "studies_level": main_level,
        "search_games": search_games,
        "levels_available": list(available_levels()),
        "robust_levels": list(robust_levels),
        "strategies": {v: str(strategies.get(v, "expert")) for v in VILLAIN_KEYS},
        "variants": {k: variants.get(k, v.default) for k, v in RULE_VARIANTS.items()},
        "edits": [str(e) for e in edits],
        "regenerate": f"simlab report --config {_config_name(exp.source)}" if exp.source else "simlab report",
    }
    if real_games is not None:
        settings["real_games"] = real_games.source
    say = progress or (lambda _msg: None)
    run = RunSettings(games, seed, main_level, exp.strategies, variants, max_turns, threads, edits)  # checked once
    per_pairing, per_ablation = run.replace(games=difficulty_games), run.replace(games=ablation_games)
    sections = []

    say("matchup matrix")
    m = matrix(settings=run)
    sec = Section(
        "Matchup matrix",
        f"Every 2-player pairing and the 3-player game, {games:,} games each, seats rotated, {main_level} play "
        "unless the settings say otherwise. Win rates with 95% Wilson intervals.",
        {"matrix": m.table},
    )
    sec.plots["matrix_heatmap"] = _plot(directory, "matrix_heatmap", lambda ax: plot_matrix(m.grid(), ax), (6, 5))
    sec.plots["win_rates"] = _plot(directory, "win_rates", lambda ax: plot_win_rates(m.table, ax, main_level), (8, 7))
    sections.append(sec)

    search_section, search_verdicts = None, []
    if search_games > 0:
        say("at search level")
        sm = matrix(
            settings=run.replace(
                games=search_games,
                level="search",
                progress=lambda done, total: say(f"at search level: {done:,} of {total:,} games"),
            )
        )
        comparison = level_comparison(sm.table, m.table, main_level)
        search_verdicts = head_to_head(sm.table, "search")
        search_section = Section(
            "At search level",
            "The matchup matrix with every villain played by the search player (strategies.search: at each "
            "decision it samples worlds consistent with what it can see and plays every option out with the "
            f"strongest scripted strategy), {search_games:,} games per matchup on the first seeds of the matrix "
            f"above, seats rotated: far fewer games than at {main_level} level (a search game costs hundreds of "
            f"scripted games), so the intervals are wide. Beside each rate: the {main_level} rate of the same entry "
            "and the change with its 95% interval (Newcombe, independent samples).",
            {"search_matrix": comparison, "search_verdicts": pl.DataFrame({"verdict": search_verdicts})},
            {
                "search_win_rates": _plot(
                    directory,
                    "search_win_rates",
                    lambda ax: plot_level_comparison(comparison, ax, "search"),
                    (8, 7),
                )
            },
        )
        sections.append(search_section)

    say("leverage: rule variants and board layouts")
    lev_settings = run.replace(
        games=leverage_games, progress=lambda done, total: say(f"leverage: {done:,} of {total:,} games")
    )
    lev = leverage(rules=True, board=leverage_board, perturbations=perturb, settings=lev_settings)
    say("robust verdicts")
    rob = robust_difficulty(
        VILLAIN_KEYS,
        robust_levels,
        chosen_readings or n_readings,
        screen=lev.table,
        progress=lambda done, total, what: say(f"robust verdicts: {what}: {done:,} of {total:,} games"),
        settings=per_pairing,
        search_games=search_games if any(lv in SEARCH_LEVELS for lv in robust_levels) else None,
    )
    settings["robust_readings"] = list(rob.readings["reading"])

    here = rob.verdicts_at(main_level)
    sections.append(
        Section(
            "Difficulty",
            f"{difficulty_games:,} games per pairing and setting, {main_level} play, default readings. Strength: win "
            f"rate against the field. Skill gap: {main_level} minus novice against the same novice opponents "
            "(paired; only above novice). Goldfish: median turns to win alone. Fate sensitivity: drop in win rate "
            "when the opponents play fate-heavy (paired; from expert up). These verdicts hold at this one setting; "
            "the next section says whether each survives the other levels and readings.",
            {"difficulty": rob.at(main_level), "verdicts": here.select("measure", "verdict", "z", "p")},
        )
    )
    readings_text = "; ".join(
        f"{r['reading']} ({r['why']})" for r in rob.readings.iter_rows(named=True) if r["kind"] != "default"
    )
    sections.append(
        Section(
            "Robustness of the verdicts",
            f"Every verdict measured at each level ({', '.join(robust_levels)}) under the default readings"
            + (f" and under {readings_text}" if readings_text else " (no reading moved any matchup significantly)")
            + f", {difficulty_games:,} games per pairing and setting, the same seeds at every setting. Label: holds "
            "(significant the same way at every setting), reverses (significant both ways), not significant "
            "(otherwise); two-sided tests at 5% at each setting. The skill gap is measured only above novice, Fate "
            "sensitivity from expert up; random is not a player and is left out.",
            {
                "robust_verdicts": rob.verdicts.select("question", "label", "verdict", "settings", "min_abs_z"),
                "robust_readings": rob.readings,
            },
            files={"robust_measures": rob.table, "robust_by_setting": rob.by_setting},
        )
    )

    say("skill ladder")
    # as before this settings object: the ladder is played with the printed cards (no edits)
    ladder_levels = [lv for lv in available_levels() if search_games > 0 or lv not in SEARCH_LEVELS]
    lad = skill_ladder(
        VILLAIN_KEYS,
        ladder_levels,
        "novice",
        settings=per_pairing.replace(edits=()),
        search_games=search_games or None,
    )
    search_rung = (
        f"; the search rung plays {search_games:,} games per opponent villain (the first of the same seeds)"
        if search_games > 0
        else ""
    )
    sections.append(
        Section(
            "Skill ladder",
            f"Each villain at each level against every other villain played by novice, {difficulty_games:,} games "
            f"per opponent villain, seats rotated{search_rung}; step_z compares a level with the one below, "
            "min_z_below with every level below (the smallest z).",
            {"skill_ladder": lad},
            {"skill_ladder": _plot(directory, "skill_ladder", lambda ax: plot_ladder(lad, ax), (7, 4.5))},
        )
    )

    say("turns to win")
    parts, summaries = [], []
    for v in VILLAIN_KEYS:
        g = goldfish(v, strategy=strategies[v], settings=per_pairing)
        summaries.append(g.summary)
        parts.append(
            g.games.filter(pl.col("winner_index") == 0).select(
                pl.lit(v).alias("villain"), pl.col("winner_turns").alias("turns")
            )
        )
    turns = pl.concat(parts)
    sections.append(
        Section(
            "Turns to win",
            f"Each villain alone (goldfish), {main_level} play, {difficulty_games:,} games.",
            {"goldfish": pl.concat(summaries)},
            {"turns_to_win": _plot(directory, "turns_to_win", lambda ax: plot_turns(turns, ax, main_level), (7, 4.5))},
        )
    )

    for v in villains:
        say(f"card impact: {v}")
        eff = ablation(v, settings=per_ablation)
        sections.append(
            Section(
                f"Card impact: {v}",
                f"CAUSAL: the same {2 * ablation_games:,} games (against each other villain) with each card ablated "
                f"(never played), {main_level} play; impact = win rate with the card minus without, paired 95% "
                "interval.",
                {f"card_impact_{v}": eff},
                {
                    f"card_impact_{v}": _plot(
                        directory,
                        f"card_impact_{v}",
                        lambda ax, eff=eff, v=v: plot_impact(eff, ax, f"{v}: causal card impact"),
                        (8, 0.28 * eff.height + 1.5),
                    )
                },
            )
        )

    summary = lev.summary()
    n_rule = summary.filter(pl.col("kind") == "rule").height
    n_board = summary.filter(pl.col("kind") == "board").height
    sections.append(
        Section(
            "Leverage: rule readings and board layouts",
            f"Each rule variant's non-default value ({n_rule}) and each plausible transcription error of the board "
            f"layouts ({n_board}; the layouts come from one medium-low-trust source: a symbol read in the wrong row, "
            "a whole board's rows read upside down, two neighbouring locations' panels swapped) played on the same "
            f"{leverage_games:,} games per matchup as the shipped reading, {main_level} play, every pairing of "
            "different villains and the 3-player game (a board edit only where that villain plays). leverage: each "
            "reading's largest effect, largest first; leverage_top: the largest effects by matchup and villain (the "
            "whole table in leverage_all.csv). Change in win rate with Newcombe's paired 95% interval.",
            {"leverage": summary, "leverage_top": lev.table.head(40).drop("description")},
            {
                "leverage": _plot(
                    directory,
                    "leverage",
                    lambda ax: plot_leverage(lev.table, ax, 25, f"leverage ({main_level} play)"),
                    (9, 10),
                )
            },
            files={"leverage_all": lev.table},
        )
    )

    strongest = strongest_level()
    which = "the strongest scripted level here" if main_level == strongest else f"not the strongest ({strongest})"
    strength = rob.verdicts.filter(pl.col("measure") == "strength")
    if at_search:
        lead = (
            f"Which villain is stronger (win rate against the field, each villain against each other one)? Asked "
            f"at the search level, the strongest here: head to head at search level, on {search_games:,} games per "
            f"matchup (section At search level): " + "; ".join(search_verdicts) + ". The studies below play "
            f"thousands of games per setting, so they are measured at the {main_level} level, {which}; levels here: "
            f"{', '.join(available_levels())}. Each verdict of the table is measured at every level "
        )
        sections.remove(search_section)
        sections.insert(0, search_section)
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
    sections.insert(
        0,
        Section(
            "Headline",
            lead
            + f"({', '.join(robust_levels)}) under the default readings"
            + (
                f" and under {', '.join(settings['robust_readings'][1:])} (the readings with the largest effect)"
                if len(settings["robust_readings"]) > 1
                else ""
            )
            + ", and labelled holds, reverses or not significant across them.",
            {"headline_verdicts": strength.select("question", "label", "verdict")},
        ),
    )
    sections.insert(
        1,
        Section(
            "Is Lady Tremaine harder?",
            "Harder to play means a larger skill gap (the level's win rate minus novice's against the same novice "
            "opponents): skill rewards her more. Weaker means a lower win rate against the field. Each verdict "
            "is labelled across the levels and readings measured, and says at which it goes which way.",
            {"lady_tremaine_verdicts": answer(rob, "lady-tremaine").select("question", "label", "verdict")},
        ),
    )
    if real_games is not None:
        say("calibration against real play")
        sections.append(Section(**calibration_section(real_games, exp, directory, seed, max_turns, threads, _plot)))

    report = Report(directory, settings, sections)
    write_report(report)
    return report


def calibration_section(log, exp, directory: Path, seed: int, max_turns: int, threads, plot):
    """The report's section on ``log``: the fields of a :class:`simlab.report.build.Section` (title, text, tables,
    plots) as a dict; ``plot(directory, name, draw, size)`` writes a PNG. Sizes, levels and readings come from
    the experiment's ``[report]`` table."""
    from simlab.studies.calibration import DECISIVE_RATIO, DEFAULT_GAMES, evaluate, predict

    rep = exp.report
    n_games = rep.get("calibration_games", exp.games or DEFAULT_GAMES)
    rules = {**exp.rules, **rep.get("calibration_rules", {})}
    levels = rep.get("calibration_levels") or None
    pred = predict(log.orders(), levels, rules, n_games, seed=seed, max_turns=max_turns, threads=threads)
    res = evaluate(log, pred)
    text = (
        f"The log {log.describe()}. Each model (a level playing every seat, at a rule setting) played "
        f"{n_games:,} games of every seat order in the log (seed {seed}); real games use the printed cards, so "
        "the settings' card edits and strategies are not applied here. Predicted probability = (wins + 1/2) / "
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
    plots = {"calibration": plot(directory, "calibration", lambda ax: plot_calibration(res.calibration, ax), (7, 5.5))}
    if res.lengths.height:
        tables["calibration_lengths"] = res.lengths
        plots["calibration_lengths"] = plot(
            directory, "calibration_lengths", lambda ax: plot_lengths(res.length_distribution, ax), (8, 4.5)
        )
    if res.groups.height:
        tables["calibration_groups"] = res.groups
    if log.skipped.height:
        tables["calibration_skipped"] = log.skipped
    return {"title": "Calibration against real play", "text": text, "tables": tables, "plots": plots}


def _perturbations(rep: dict, key: str, source: str) -> list[str]:
    """A ``[report]`` list of readings (``"VARIANT=VALUE"``, board edits), checked; errors name the file and key."""
    from simlab.studies.leverage import parse_perturbation

    out = []
    for p in rep.get(key, []):
        try:
            out.append(parse_perturbation(p).setting)
        except InputError as exc:
            raise InputError(f"{source or 'report'}: [report] {key}: {exc}") from None
    return out


def _config_name(source: str) -> str:
    """A shipped experiment file by its name (``balance-report``), any other by its path."""
    from simlab.runs.experiment import CONFIG_DIR

    path = Path(source).resolve()
    return path.stem if path.parent == CONFIG_DIR.resolve() else source


def _plot(directory: Path, name: str, draw, size) -> Path:
    return write_plot(directory / f"{name}.png", draw, size, dpi=110)


# ============================================================================ writing


def _markdown(frame: pl.DataFrame) -> str:
    with pl.Config(
        tbl_formatting="MARKDOWN",
        tbl_hide_column_data_types=True,
        tbl_hide_dataframe_shape=True,
        tbl_rows=-1,
        tbl_cols=-1,
        tbl_width_chars=60_000,  # a markdown row must stay on one line (polars takes at most 65,535)
        fmt_str_lengths=400,
        float_precision=4,
    ):
        return str(frame)


def _html_table(frame: pl.DataFrame) -> str:
    return frame.to_pandas().to_html(index=False, float_format=lambda x: f"{x:.4g}", border=0, classes="t")


CSS = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1100px;padding:0 1em;color:#222}
table.t{border-collapse:collapse;font-size:12px;margin:.5em 0 1.5em}
table.t td,table.t th{border-bottom:1px solid #ddd;padding:2px 8px;text-align:right}
table.t th{background:#f4f4f4} img{max-width:100%;display:block;margin:1em 0} pre{background:#f6f6f6;padding:1em}
"""


def write_report(report: Report) -> None:
    """index.html (plots embedded), report.md, settings.json, tables as parquet and CSV."""
    d = report.directory
    (d / "settings.json").write_text(json.dumps(report.settings, indent=2))
    md = [f"# simlab report: {report.settings['name']}", "", "## Settings", "", "```json"]
    md += [json.dumps(report.settings, indent=2), "```", ""]
    body = [f"<h1>simlab report: {html.escape(report.settings['name'])}</h1>"]
    if report.settings.get("description"):
        body.append(f"<p>{html.escape(report.settings['description'])}</p>")
    body.append(f"<h2>Settings</h2><pre>{html.escape(json.dumps(report.settings, indent=2))}</pre>")
    for sec in report.sections:
        md += [f"## {sec.title}", "", sec.text, ""]
        body.append(f"<h2>{html.escape(sec.title)}</h2><p>{html.escape(sec.text)}</p>")
        for name, frame in sec.tables.items():
            frame.write_parquet(d / f"{name}.parquet")
            frame.write_csv(d / f"{name}.csv")
            md += [f"### {name}", "", _markdown(frame), ""]
            body.append(f"<h3>{html.escape(name)}</h3>{_html_table(frame)}")
            if name.endswith("verdicts") and "verdict" in frame.columns:
                rows = frame.to_dicts()
                items = [f"{r['question']} {r['verdict']}" if "question" in r else r["verdict"] for r in rows]
                md += [f"- {v}" for v in items] + [""]
                body.append("<ul>" + "".join(f"<li>{html.escape(v)}</li>" for v in items) + "</ul>")
        for name, frame in sec.files.items():
            frame.write_parquet(d / f"{name}.parquet")
            frame.write_csv(d / f"{name}.csv")
            md += [f"Table `{name}`: [{name}.csv]({name}.csv), [{name}.parquet]({name}.parquet)", ""]
            body.append(f'<p>Table {html.escape(name)}: <a href="{name}.csv">{name}.csv</a></p>')
        for name, path in sec.plots.items():
            md += [f"![{name}]({path.name})", ""]
            data = base64.b64encode(path.read_bytes()).decode()
            body.append(f'<img alt="{html.escape(name)}" src="data:image/png;base64,{data}">')
    (d / "report.md").write_text("\n".join(md))
    # A page check (used by the browser test): count the embedded plots that decoded.
    script = (
        "<script>window.addEventListener('load',()=>{const i=[...document.images];"
        "document.body.dataset.plots=i.length;"
        "document.body.dataset.plotsOk=i.filter(x=>x.complete&&x.naturalWidth>0).length;});</script>"
    )
    page = (
        f"<!doctype html><html><head><meta charset='utf-8'><title>simlab report: "
        f"{html.escape(report.settings['name'])}</title><style>{CSS}</style>{script}</head><body>"
        + "\n".join(body)
        + "</body></html>"
    )
    report.index.write_text(page, encoding="utf-8")
