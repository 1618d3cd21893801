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
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from simlab.data import durable
from simlab.data.cards import VILLAIN_KEYS
from simlab.data.inputs import output_name
from simlab.data.rules import DEFAULT_MAX_TURNS, RULE_VARIANTS
from simlab.errors import InputError
from simlab.game.api import check_villain
from simlab.report.sections import STUDIES, ReportContext, Section, sections_in_order
from simlab.runs.experiment import Experiment
from simlab.runs.settings import RunSettings
from simlab.studies.calibration import calibration_log
from simlab.studies.headline import check_band

DEFAULTS = {
    "games": 2000,  # per matchup of the matrix (and of the headline, per level)
    "seed": 0,
    "ablation_games": 500,  # per card and opponent
    "difficulty_games": 1000,  # per pairing and setting
    "leverage_board": "catalogue",  # board perturbations in the leverage table: catalogue or none
    "readings": 2,  # readings besides the default the verdicts are measured under (largest leverage first)
    "rescreen": False,  # those readings from this report's leverage table, not configs/leverage/ranking.toml
    "search_games": 20,  # at most, per matchup at the search level (a search game costs hundreds of scripted games)
    "band": (0.45, 0.55),  # the headline's balance band
}
SCRIPTED_PER_SEARCH_GAME = 100  # default search_games: one per this many of the config's games, at most 20


def default_sizes(games: int) -> dict[str, int]:
    """The sizes a ``[report]`` table does not set, scaled with the config's ``games``: the leverage table plays
    ``games`` per matchup and reading, the search level one game per hundred (at most 20)."""
    return {"leverage_games": games, "search_games": min(DEFAULTS["search_games"], games // SCRIPTED_PER_SEARCH_GAME)}


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
class Report:
    directory: Path
    settings: dict
    sections: list[Section]

    @property
    def index(self) -> Path:
        return self.directory / "index.html"


# ============================================================================ studies


def build_report(
    exp: Experiment | None = None,
    out_dir: str | Path = "reports",
    threads: int | None = None,
    progress: Callable[[str], None] | None = None,
    level: str | None = None,
    announce: Callable[[str], None] | None = None,
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
    scripted level, each section naming it. The sections: :mod:`simlab.report.sections`. ``announce(line)``: the
    plan (games per study and in all, and the estimated time) before any study is played."""
    ctx = report_context(exp or Experiment(name="balance"), out_dir, threads, progress or (lambda _msg: None), level)
    played = play_studies(ctx, announce or (lambda _line: None))
    parts = [part for section in sections_in_order(ctx) for part in section(ctx)]
    report = Report(ctx.directory, ctx.settings, [*parts, played])
    try:
        write_report(report)
    except OSError as exc:  # a disk full or a folder made read-only after the check before the studies
        raise InputError(
            f"cannot write the report to {str(ctx.directory)!r}: {exc.strerror or exc}; the files written before "
            "this one are there"
        ) from None
    return report


def play_studies(ctx: ReportContext, announce: Callable[[str], None]) -> Section:
    """Plan every study, announce the plan and its estimate, then play the studies in order (before any section
    is made), counting the games of each; the section that records planned against played."""
    import time

    from simlab.report.budget import (
        at_most_seconds,
        estimate_seconds,
        measure_rates,
        plan_frame,
        plan_lines,
        plan_report,
    )
    from simlab.runs.backend import counting

    plans = plan_report(ctx)
    ctx.say("measuring the rate of play for the estimate")
    rates = measure_rates(ctx, plans)
    for line in plan_lines(plans, rates):
        announce(line)
    if ctx.rescreen and ctx.n_readings and not ctx.chosen_readings:
        announce(
            "re-screening ([report] rescreen = true): the verdicts' readings come from this report's leverage table, "
            "not the shipped ranking configs/leverage/ranking.toml"
        )
    played = {}
    for study in STUDIES:
        t0 = time.perf_counter()
        with counting() as count:
            getattr(ctx, study)
        played[study] = (count.games, time.perf_counter() - t0)
    if "robust_readings" in ctx.settings:
        tested = ", ".join(ctx.settings["robust_readings"][1:]) or "none"
        source = ctx.settings["robust_readings_from"]
        announce(f"readings the verdicts tested besides the default: {tested} (from {source})")
    frame = plan_frame(plans, rates, played)
    estimate = sum(estimate_seconds(p, rates) for p in plans)
    ctx.settings["games_planned"] = {p.study: p.games for p in plans}
    ctx.settings["games_played"] = {k: v[0] for k, v in played.items()}
    ctx.settings["estimate_seconds"] = round(estimate, 1)
    ctx.settings["estimate_at_most_seconds"] = round(at_most_seconds(estimate), 1)
    ctx.settings["seconds"] = round(sum(v[1] for v in played.values()), 1)
    text = (
        f"The games each study planned before any was played and the games it played (counted as they came back), "
        f"{sum(p.games for p in plans):,} planned in all; the estimate ({estimate:,.0f} s, at most "
        f"{at_most_seconds(estimate):,.0f} s) came from "
        f"{rates.games_per_second:,.0f} scripted games/s measured on {rates.measured_games:,} games"
        + (f" and {rates.search_seconds:.1f} s per search seat and game" if rates.search_seconds is not None else "")
        + f"; the studies took {ctx.settings['seconds']:,.0f} s. Sizes follow the config (docs: Reports, sizes)."
    )
    return Section("Games played", text, {"report_games": frame})


def report_context(exp: Experiment, out_dir, threads, say: Callable[[str], None], level: str | None) -> ReportContext:
    """The report's settings from ``exp`` (its ``[report]`` table, :data:`DEFAULTS`) and the command line, each
    checked before any game is played (bad input: an InputError naming the file and key), and its directory made."""
    from simlab.runs.levels import available_levels, check_level, is_search, strategies_at, strongest_level
    from simlab.studies.leverage import BOARD_CHOICES
    from simlab.studies.robust import default_levels

    rep = exp.report
    games = exp.games or DEFAULTS["games"]
    scaled = default_sizes(games) if isinstance(games, int) else {"leverage_games": games, "search_games": 0}
    counts = {k: rep.get(k, DEFAULTS[k]) for k in ("ablation_games", "difficulty_games")}
    counts["leverage_games"] = rep.get("leverage_games", scaled["leverage_games"])
    leverage_board = rep.get("leverage_board", DEFAULTS["leverage_board"])
    n_readings = rep.get("readings", DEFAULTS["readings"])
    rescreen = rep.get("rescreen", DEFAULTS["rescreen"])
    if not isinstance(rescreen, bool):
        raise InputError(f"{exp.source or 'report'}: [report] rescreen must be true or false, got {rescreen!r}")
    search_games = rep.get("search_games", scaled["search_games"])
    villains = tuple(check_villain(v) for v in rep.get("villains", VILLAIN_KEYS))
    level = check_level(level or exp.level or strongest_level())
    where = exp.source or "report"
    if not isinstance(search_games, int) or search_games < 0:
        raise InputError(f"{where}: [report] search_games must be a number of games, 0 or more, got {search_games!r}")
    if is_search(level) and search_games < 1:
        raise InputError(f"{where}: a report at the search level needs [report] search_games of 1 or more")
    main_level = strongest_level() if is_search(level) else level  # the level of the studies of thousands of games
    strategies = strategies_at(main_level, VILLAIN_KEYS, exp.strategies)
    if any(not isinstance(n, int) or n < 1 for n in (games, *counts.values())):
        raise InputError("report game counts must be positive integers")
    if leverage_board not in BOARD_CHOICES:
        raise InputError(f"[report] leverage_board must be one of {', '.join(BOARD_CHOICES)}, got {leverage_board!r}")
    if n_readings < 0:
        raise InputError(f"[report] readings must be 0 or more, got {n_readings}")
    if n_readings and not rescreen and not rep.get("robust_readings"):
        from simlab.studies.ranking import read_ranking

        read_ranking()  # the shipped ranking is there: a missing one fails before the long studies
    robust_levels = [check_level(lv) for lv in rep.get("robust_levels", default_levels())]
    robust_levels = tuple(lv for lv in available_levels() if lv in {*robust_levels, main_level})
    try:
        band = check_band(rep.get("band", DEFAULTS["band"]))
    except (InputError, TypeError, ValueError) as exc:
        raise InputError(f"{where}: [report] band must be two rates such as [0.45, 0.55]: {exc}") from None
    perturb = _perturbations(rep, "leverage_perturb", exp.source)
    chosen_readings = _perturbations(rep, "robust_readings", exp.source)
    real_games = calibration_log(rep, exp.source)  # read now: a bad log fails before the long studies
    directory = _writable(output_name(exp.name, out_dir, f"{where}: name"))
    seed = exp.seed if exp.seed is not None else DEFAULTS["seed"]
    max_turns = exp.max_turns or DEFAULT_MAX_TURNS
    run = RunSettings(games, seed, main_level, exp.strategies, exp.rules, max_turns, threads, exp.edits)
    ctx = ReportContext(
        exp,
        directory,
        level,
        main_level,
        run,
        strategies,
        villains,
        games,
        **counts,
        search_games=search_games,
        leverage_board=leverage_board,
        n_readings=n_readings,
        robust_levels=robust_levels,
        perturb=perturb,
        chosen_readings=chosen_readings,
        real_games=real_games,
        settings={},
        say=say,
        band=band,
        rescreen=rescreen,
    )
    ctx.settings = _settings_record(ctx, seed, max_turns)
    return ctx


def _writable(directory: Path) -> Path:
    """``directory`` if a report can be written there; checked without making it, so a refusal later in the
    checks (``[report.fix]``) leaves no empty folder behind."""
    from simlab.data.inputs import check_output_dir

    try:
        check_output_dir(str(directory), "the report folder")
    except InputError as exc:
        raise InputError(f"cannot write the report to {str(directory)!r}: {exc}") from None
    return directory


def _settings_record(ctx: ReportContext, seed: int, max_turns: int) -> dict:
    """settings.json: what regenerates the report exactly (the robust study adds the readings it measured)."""
    from simlab.runs.levels import available_levels

    exp = ctx.exp
    settings = {
        "simlab_version": simlab_version(),
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "name": exp.name,
        "description": exp.description,
        "config": _config_name(exp.source) if exp.source else None,
        "seed": seed,
        "games_per_matchup": ctx.games,
        "ablation_games": ctx.ablation_games,
        "difficulty_games": ctx.difficulty_games,
        "leverage_games": ctx.leverage_games,
        "leverage_board": ctx.leverage_board,
        "leverage_perturb": ctx.perturb,
        "rescreen": ctx.rescreen,
        "max_turns": max_turns,
        "level": ctx.level,
        "studies_level": ctx.main_level,
        "search_games": ctx.search_games,
        "band": list(ctx.band),
        "levels_available": list(available_levels()),
        "robust_levels": list(ctx.robust_levels),
        "strategies": {v: str(ctx.strategies.get(v, "expert")) for v in VILLAIN_KEYS},
        "variants": {k: exp.rules.get(k, v.default) for k, v in RULE_VARIANTS.items()},
        "edits": [str(e) for e in exp.edits],
        "regenerate": f"simlab report --config {_config_name(exp.source)}" if exp.source else "simlab report",
    }
    if ctx.real_games is not None:
        settings["real_games"] = ctx.real_games.source
    return settings


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


WRAP_ABOVE = 24  # characters: a text cell longer than this (a verdict) keeps a readable width as it wraps
ONE_WORD = 14  # characters: a cell of one word this short (a villain) does not break at its hyphen


def _html_table(frame: pl.DataFrame) -> str:
    """``frame`` as an HTML table whose cells wrap at their spaces, so the headline fits the page's column with no
    sideways scroll; an interval's brackets and a single word (a villain's name) stay on one line."""
    table = frame.to_pandas()
    for c in [c for c, t in frame.schema.items() if t == pl.Utf8]:
        table[c] = [_html_cell(v) if isinstance(v, str) else None for v in table[c]]
    return table.to_html(index=False, float_format=lambda x: f"{x:.4g}", border=0, classes="t", escape=False)


def _html_cell(text: str) -> str:
    kept = re.sub(r"\[([^\]]*)\]", lambda m: "[" + m.group(1).replace(" ", "\u00a0") + "]", html.escape(text))
    if " " not in text and len(text) <= ONE_WORD:
        return f'<span class="nw">{kept}</span>'
    return f'<span class="wrap">{kept}</span>' if len(text) > WRAP_ABOVE else kept


CSS = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1100px;padding:0 1em;color:#222}
table.t{border-collapse:collapse;font-size:12px;margin:.5em 0 1.5em;display:block;overflow-x:auto;max-width:100%}
table.t td,table.t th{border-bottom:1px solid #ddd;padding:2px 5px;text-align:right;white-space:normal}
table.t span.wrap{white-space:normal;display:inline-block;min-width:7em;text-align:left}
table.t span.nw{white-space:nowrap}
table.t th{background:#f4f4f4;white-space:normal;vertical-align:bottom} img{max-width:100%;display:block;margin:1em 0}
pre{background:#f6f6f6;padding:1em;white-space:pre-wrap;overflow-wrap:anywhere}
"""


def _write_table(d: Path, name: str, frame: pl.DataFrame) -> None:
    durable.write_with(output_name(f"{name}.parquet", d, "table"), frame.write_parquet, "the report table")
    durable.write_with(output_name(f"{name}.csv", d, "table"), frame.write_csv, "the report table")


def write_report(report: Report) -> None:
    """index.html (plots embedded), report.md, settings.json, tables as parquet and CSV."""
    from simlab.report.tables import display_table

    d = report.directory
    d.mkdir(parents=True, exist_ok=True)
    settings_text = json.dumps(report.settings, indent=2)
    durable.write_text(d / "settings.json", settings_text, "the report settings")
    md = [f"# simlab report: {report.settings['name']}", ""]
    body = [f"<h1>simlab report: {html.escape(report.settings['name'])}</h1>"]
    if report.settings.get("description"):
        body.append(f"<p>{html.escape(report.settings['description'])}</p>")
    for sec in report.sections:
        md += [f"## {sec.title}", "", sec.text, ""]
        body.append(f"<h2>{html.escape(sec.title)}</h2><p>{html.escape(sec.text)}</p>")
        for name, frame in sec.tables.items():
            _write_table(d, name, frame)
            shown = display_table(frame)
            md += [f"### {name}", "", _markdown(shown), ""]
            body.append(f"<h3>{html.escape(name)}</h3>{_html_table(shown)}")
            if name.endswith("verdicts") and "verdict" in frame.columns:
                rows = frame.to_dicts()
                items = [f"{r['question']} {r['verdict']}" if "question" in r else r["verdict"] for r in rows]
                md += [f"- {v}" for v in items] + [""]
                body.append("<ul>" + "".join(f"<li>{html.escape(v)}</li>" for v in items) + "</ul>")
        # the plots right under the section's tables (the headline's skill trace on the first screen), then the
        # links to the tables behind them
        for name, path in sec.plots.items():
            md += [f"![{name}]({path.name})", ""]
            data = base64.b64encode(path.read_bytes()).decode()
            body.append(f'<img alt="{html.escape(name)}" src="data:image/png;base64,{data}">')
        for name, frame in sec.files.items():
            _write_table(d, name, frame)
            md += [f"Table `{name}`: [{name}.csv]({name}.csv), [{name}.parquet]({name}.parquet)", ""]
            body.append(f'<p>Table {html.escape(name)}: <a href="{name}.csv">{name}.csv</a></p>')
    # last: what regenerates the report (also settings.json), below every answer
    md += ["## Settings", "", "```json", settings_text, "```", ""]
    body.append(f"<h2>Settings</h2><pre>{html.escape(settings_text)}</pre>")
    durable.write_text(d / "report.md", "\n".join(md), "the report")
    # Page checks (used by the browser test): count the embedded plots that decoded, and how far the first table
    # (the headline) overflows its column (0: it fits, no sideways scroll on the first screen).
    script = (
        "<script>window.addEventListener('load',()=>{const i=[...document.images];"
        "document.body.dataset.plots=i.length;"
        "document.body.dataset.plotsOk=i.filter(x=>x.complete&&x.naturalWidth>0).length;"
        "const t=document.querySelector('table');"
        "document.body.dataset.firstTableOverflow=t?t.scrollWidth-t.clientWidth:0;});</script>"
    )
    page = (
        f"<!doctype html><html><head><meta charset='utf-8'><title>simlab report: "
        f"{html.escape(report.settings['name'])}</title><style>{CSS}</style>{script}</head><body>"
        + "\n".join(body)
        + "</body></html>"
    )
    durable.write_text(report.index, page, "the report")
