"""Balance reports: one directory with a self-contained ``index.html``, ``report.md``, the PNG plots and every
table as parquet and CSV, plus ``settings.json`` recording what regenerates it exactly.

Sections: the matchup matrix (heatmap, win rates with intervals), difficulty (measures and verdicts), the
skill ladder, turns to win alone by villain, causal card impact per villain, rule-variant effects, and, when the
experiment file's ``[report]`` table names ``real_games``, calibration against that log of real games.
"""

from __future__ import annotations

import base64
import datetime as dt
import html
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from simlab.calibration import calibration_log, calibration_section
from simlab.cards import VILLAIN_KEYS
from simlab.experiment import Experiment
from simlab.game import InputError, check_villain, parse_matchup
from simlab.rules import DEFAULT_MAX_TURNS, RULE_VARIANTS
from simlab.stats import error_bars

DEFAULTS = {
    "games": 2000,  # per matchup of the matrix, and per variant setting
    "seed": 0,
    "ablation_games": 500,  # per card and opponent
    "difficulty_games": 1000,  # per pairing and setting
    "matchup": "gaston-vs-horned-king",  # where rule variants are measured
}


def simlab_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("simlab")
    except PackageNotFoundError:  # running from a source tree without installing: read pyproject.toml
        import tomllib

        pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
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


@dataclass
class Report:
    directory: Path
    settings: dict
    sections: list[Section]

    @property
    def index(self) -> Path:
        return self.directory / "index.html"


# ============================================================================ plots (frame in, Axes out)


def plot_win_rates(table: pl.DataFrame, ax, level: str = "expert"):
    """Each entry's win rate with its 95% interval, grouped by matchup (from the matrix table)."""
    rows = table.filter(pl.col("outcome") != "unfinished")
    labels = [f"{o}\n({m.replace('-vs-', ' v ')})" for m, o in zip(rows["matchup"], rows["outcome"], strict=True)]
    y = np.arange(rows.height)
    x = rows["rate"].to_numpy()
    err = error_bars(x, rows["low"], rows["high"])
    ax.barh(y, x, xerr=err, capsize=2, color="tab:blue")
    ax.set_yticks(y, labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.axvline(0.5, color="grey", linestyle=":")
    ax.set_xlabel("win rate (95% Wilson interval)")
    ax.set_title(f"win rates by matchup, {level} play")
    return ax


def plot_turns(games: pl.DataFrame, ax, level: str = "expert"):
    """Distribution of turns to win alone, one step histogram per villain (``villain``, ``turns`` columns)."""
    top = int(games["turns"].max() or 1)
    bins = np.arange(0.5, top + 1.5)
    for v in games["villain"].unique(maintain_order=True):
        t = games.filter(pl.col("villain") == v)["turns"].drop_nulls().to_numpy()
        ax.hist(t, bins=bins, histtype="step", linewidth=1.5, label=f"{v} (median {np.median(t):g})", density=True)
    ax.set_xlabel("own turns to reach the objective, alone (goldfish)")
    ax.set_ylabel("share of games")
    ax.legend()
    ax.set_title(f"turns to win unopposed, {level} play")
    return ax


def plot_ladder(ladder: pl.DataFrame, ax):
    """Win rate of each skill level per villain, with 95% intervals."""
    villains = list(ladder["villain"].unique(maintain_order=True))
    levels = list(ladder["level"].unique(maintain_order=True))
    width = 0.8 / len(levels)
    for i, lev in enumerate(levels):
        sub = ladder.filter(pl.col("level") == lev)
        x = np.arange(len(villains)) + i * width
        y = sub["rate"].to_numpy()
        err = error_bars(y, sub["low"], sub["high"])
        ax.bar(x, y, width, yerr=err, capsize=2, label=lev)
    ax.set_xticks(np.arange(len(villains)) + width * (len(levels) - 1) / 2, villains)
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.set_ylabel(f"win rate vs {ladder['opponent'][0]} opponents")
    ax.legend()
    ax.set_title("skill ladder")
    return ax


def plot_variants(effects: pl.DataFrame, ax):
    """Paired change in each entry's win rate for each rule-variant setting, with 95% intervals."""
    settings = list(effects["setting"].unique(maintain_order=True))
    entries = list(effects["entry"].unique(maintain_order=True))
    h = 0.8 / max(len(entries), 1)
    for i, e in enumerate(entries):
        sub = effects.filter(pl.col("entry") == e)
        y = np.arange(len(settings)) + i * h
        x = sub["change"].to_numpy()
        err = error_bars(x, sub["change_low"], sub["change_high"])
        ax.barh(y, x, h, xerr=err, capsize=2, label=e)
    ax.set_yticks(np.arange(len(settings)) + h * (len(entries) - 1) / 2, settings, fontsize=7)
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.8)
    ax.xaxis.set_major_formatter(lambda v, _: f"{v:+.0%}")
    ax.set_xlabel("change in win rate from the default reading (paired 95% interval)")
    ax.legend()
    ax.set_title("rule-variant effects")
    return ax


# ============================================================================ studies


def variant_effects(
    matchup: str, n_games: int, seed: int, strategies, variants, max_turns, threads, edits
) -> pl.DataFrame:
    """For every rule variant's every non-default value: the paired change in each entry's win rate."""
    from simlab.sim import entry_names
    from simlab.whatif import paired_effect, winner_indices

    villains = parse_matchup(matchup)
    names = entry_names(villains)
    base_variants = dict(variants or {})
    base = winner_indices(matchup, n_games, seed, strategies, base_variants, max_turns, threads, edits)
    rows = []
    for name, v in RULE_VARIANTS.items():
        current = base_variants.get(name, v.default)
        for value in v.values:
            if value == current:
                continue
            w = winner_indices(
                matchup, n_games, seed, strategies, {**base_variants, name: value}, max_turns, threads, edits
            )
            for e, entry in enumerate(names):
                eff = paired_effect((base == e).astype(np.int8), (w == e).astype(np.int8))
                rows.append({"setting": f"{name}={value}", "entry": entry} | eff)
    return pl.DataFrame(rows)


def build_report(
    exp: Experiment | None = None,
    out_dir: str | Path = "reports",
    threads: int | None = None,
    progress: Callable[[str], None] | None = None,
    level: str | None = None,
) -> Report:
    """Run every study of the report and write ``out_dir/<name>/``. ``exp``: the experiment file's settings.

    level: the level of :mod:`simlab.levels` every villain plays at (unless the experiment's ``[strategies]``
    names one); default the experiment's ``level``, else the strongest level available here (``tuned`` once
    its strategy files exist, else ``expert``). The headline and every study use it; the skill ladder shows
    every available level."""
    import matplotlib

    matplotlib.use("Agg")
    from simlab.difficulty import difficulty
    from simlab.impact import ablation, plot_impact
    from simlab.ladder import skill_ladder
    from simlab.matchups import matrix, plot_matrix
    from simlab.sim import goldfish

    exp = exp or Experiment(name="balance")
    rep = exp.report
    games = exp.games or DEFAULTS["games"]
    seed = exp.seed if exp.seed is not None else DEFAULTS["seed"]
    max_turns = exp.max_turns or DEFAULT_MAX_TURNS
    matchup = exp.matchup or DEFAULTS["matchup"]
    parse_matchup(matchup)
    villains = tuple(check_villain(v) for v in rep.get("villains", VILLAIN_KEYS))
    ablation_games = rep.get("ablation_games", DEFAULTS["ablation_games"])
    difficulty_games = rep.get("difficulty_games", DEFAULTS["difficulty_games"])
    from simlab.levels import available_levels, check_level, strategies_at, strongest_level

    level = check_level(level or exp.level or strongest_level())
    strategies = strategies_at(level, VILLAIN_KEYS, exp.strategies)
    variants, edits = exp.rules, exp.edits
    if any(not isinstance(n, int) or n < 1 for n in (games, ablation_games, difficulty_games)):
        raise InputError("report game counts must be positive integers")
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
        "variant_matchup": matchup,
        "max_turns": max_turns,
        "level": level,
        "strategies": {v: str(strategies.get(v, "expert")) for v in VILLAIN_KEYS},
        "variants": {k: variants.get(k, v.default) for k, v in RULE_VARIANTS.items()},
        "edits": [str(e) for e in edits],
        "regenerate": f"simlab report --config {_config_name(exp.source)}" if exp.source else "simlab report",
    }
    if real_games is not None:
        settings["real_games"] = real_games.source
    say = progress or (lambda _msg: None)
    sections = []

    say("matchup matrix")
    m = matrix(games, seed, strategies, variants, max_turns, threads, edits=edits)
    sec = Section(
        "Matchup matrix",
        f"Every 2-player pairing and the 3-player game, {games:,} games each, seats rotated, {level} play "
        "unless the settings say otherwise. Win rates with 95% Wilson intervals.",
        {"matrix": m.table},
    )
    sec.plots["matrix_heatmap"] = _plot(directory, "matrix_heatmap", lambda ax: plot_matrix(m.grid(), ax), (6, 5))
    sec.plots["win_rates"] = _plot(directory, "win_rates", lambda ax: plot_win_rates(m.table, ax, level), (8, 7))
    sections.append(sec)

    say("difficulty")
    d = difficulty(VILLAIN_KEYS, difficulty_games, seed, variants, max_turns, threads, edits, level=level)
    sec = Section(
        "Difficulty",
        f"{difficulty_games:,} games per pairing and setting, {level} play. Strength: win rate against the "
        f"field. Skill gap: {level} minus novice against the same novice opponents (paired). Goldfish: median "
        "turns to win alone. "
        "Fate sensitivity: drop in win rate when the opponents play fate-heavy (paired).",
        {"difficulty": d.table, "verdicts": d.verdicts.select("measure", "verdict", "z", "p")},
    )
    sections.append(sec)

    say("skill ladder")
    lad = skill_ladder(VILLAIN_KEYS, available_levels(), "novice", difficulty_games, seed, variants, max_turns, threads)
    sections.append(
        Section(
            "Skill ladder",
            "Each villain at each level against every other villain played by novice, seats rotated; step_z "
            "compares a level with the one below.",
            {"skill_ladder": lad},
            {"skill_ladder": _plot(directory, "skill_ladder", lambda ax: plot_ladder(lad, ax), (7, 4.5))},
        )
    )

    say("turns to win")
    parts, summaries = [], []
    for v in VILLAIN_KEYS:
        g = goldfish(v, difficulty_games, seed, strategies[v], variants, max_turns, threads, edits=edits)
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
            f"Each villain alone (goldfish), {level} play, {difficulty_games:,} games.",
            {"goldfish": pl.concat(summaries)},
            {"turns_to_win": _plot(directory, "turns_to_win", lambda ax: plot_turns(turns, ax, level), (7, 4.5))},
        )
    )

    for v in villains:
        say(f"card impact: {v}")
        eff = ablation(v, ablation_games, seed, strategies, variants, max_turns, threads, edits=edits)
        sections.append(
            Section(
                f"Card impact: {v}",
                f"CAUSAL: the same {2 * ablation_games:,} games (against each other villain) with each card ablated "
                "(never played); impact = win rate with the card minus without, paired 95% interval.",
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

    say("rule variants")
    ve = variant_effects(matchup, games, seed, strategies, variants, max_turns, threads, edits)
    sections.append(
        Section(
            "Rule-variant effects",
            f"{matchup}, {games:,} games per setting on the same seeds: the change in each villain's win rate when "
            "one rule variant takes another value (the rest as in the settings).",
            {"variant_effects": ve},
            {
                "variant_effects": _plot(
                    directory,
                    "variant_effects",
                    lambda ax: plot_variants(ve, ax),
                    (8, 0.45 * ve["setting"].n_unique() + 2),
                )
            },
        )
    )

    strongest = available_levels()[-1]
    which = "the strongest level available here" if level == strongest else f"not the strongest ({strongest})"
    strength = d.verdicts.filter(pl.col("measure") == "strength")["verdict"].to_list()
    sections.insert(
        0,
        Section(
            "Headline",
            f"Measured at the {level} level, {which}; levels here: {', '.join(available_levels())}. "
            "Which villain is stronger, with every villain played at that level: " + "; ".join(strength) + ".",
        ),
    )
    if real_games is not None:
        say("calibration against real play")
        sections.append(calibration_section(real_games, exp, directory, seed, max_turns, threads, _plot))

    report = Report(directory, settings, sections)
    write_report(report)
    return report


def _config_name(source: str) -> str:
    """A shipped experiment file by its name (``balance-report``), any other by its path."""
    from simlab.experiment import CONFIG_DIR

    path = Path(source).resolve()
    return path.stem if path.parent == CONFIG_DIR.resolve() else source


def _plot(directory: Path, name: str, draw, size) -> Path:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=size)
    draw(ax)
    fig.tight_layout()
    path = directory / f"{name}.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


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
            if name == "verdicts":
                md += [f"- {v}" for v in frame["verdict"]] + [""]
                body.append("<ul>" + "".join(f"<li>{html.escape(v)}</li>" for v in frame["verdict"]) + "</ul>")
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
