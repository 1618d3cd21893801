"""Reports: the directory's files, the recorded settings, and the page rendered in a real headless browser."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess

import polars as pl
import pytest
from typer.testing import CliRunner

from simlab.cli import app

CONFIG = """
name = "tiny"
description = "A small report for the tests."
games = 10
seed = 2
level = "expert"    # pinned: the strongest level here changes once tuned strategy files are shipped
[rules]
get_out = "exactly_three"
[cards."Get Out!"]
cost = 4
[report]
difficulty_games = 10
ablation_games = 5
search_games = 1
villains = ["gaston"]
real_games = "real-games-example.csv"
calibration_games = 10
calibration_levels = ["expert"]
leverage_games = 10
leverage_board = "none"
leverage_perturb = ["board:Morva:flip"]
robust_readings = ["obstacles_cover_actions=yes"]
robust_levels = ["novice", "expert"]
"""


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("report")
    cfg = tmp / "tiny.toml"
    cfg.write_text(CONFIG)
    res = CliRunner().invoke(app, ["report", "--config", str(cfg), "--out", str(tmp / "out")])
    assert res.exit_code == 0, res.output
    return tmp / "out" / "tiny"


@pytest.mark.slow
def test_report_files_and_settings(report_dir):
    names = {p.name for p in report_dir.iterdir()}
    for plot in (
        "matrix_heatmap",
        "win_rates",
        "skill_ladder",
        "turns_to_win",
        "card_impact_gaston",
        "leverage",
        "calibration",
        "calibration_lengths",
        "search_win_rates",
    ):
        assert f"{plot}.png" in names
    for table in (
        "matrix",
        "difficulty",
        "verdicts",
        "skill_ladder",
        "goldfish",
        "card_impact_gaston",
        "leverage",
        "leverage_top",
        "leverage_all",
        "headline",
        "headline_values",
        "skill_trace",
        "report_games",
        "headline_verdicts",
        "lady_tremaine_verdicts",
        "robust_verdicts",
        "robust_readings",
        "robust_measures",
        "robust_by_setting",
        "calibration_fit",
        "calibration_matchups",
        "calibration_first_player",
        "calibration_bins",
        "calibration_lengths",
        "calibration_groups",
        "calibration_skipped",
        "search_matrix",
        "search_verdicts",
    ):
        assert f"{table}.parquet" in names and f"{table}.csv" in names
        assert pl.read_parquet(report_dir / f"{table}.parquet").equals(
            pl.read_csv(report_dir / f"{table}.csv", schema=pl.read_parquet(report_dir / f"{table}.parquet").schema)
        )
    settings = json.loads((report_dir / "settings.json").read_text())
    assert settings["seed"] == 2 and settings["edits"] == ["Get Out!:cost=4"]
    assert settings["variants"]["get_out"] == "exactly_three" and settings["strategies"]["gaston"] == "expert"
    assert settings["simlab_version"] and settings["regenerate"].startswith("simlab report --config")
    assert settings["real_games"].endswith("configs/real-games-example.csv")
    md = (report_dir / "report.md").read_text()
    # the first screen: the headline; the settings JSON after every section
    assert md.index("## Headline: is each matchup balanced?") < md.index("## Which villain is stronger?")
    assert md.index("```json") > md.index("## Games played") > md.index("## Calibration against real play")
    assert "## Difficulty" in md and "![card_impact_gaston](card_impact_gaston.png)" in md
    assert "## Calibration against real play" in md and "32 usable games" in md
    assert "## Headline" in md and "## Is Lady Tremaine harder?" in md and "## Robustness of the verdicts" in md
    assert settings["robust_levels"] == ["novice", "expert"]
    assert settings["robust_readings"] == ["default", "obstacles_cover_actions=yes"]
    # every robust verdict is a bullet with its label, and names the settings it was measured at
    bullets = [line for line in md.splitlines() if line.startswith("- is ")]
    assert len(bullets) >= 3 + 2 * 2 + 3 * 4  # headline (3 pairs), Lady Tremaine (2 pairs, 2 questions), all
    for line in bullets:
        answer = line[line.index("? ") + 2 :]
        assert answer.startswith(("holds: ", "reverses ", "not significant")), answer
        assert "at expert play (the strongest measured) (expert" in answer or "for new players (novice" in answer
    leverage = pl.read_parquet(report_dir / "leverage_all.parquet")
    assert set(leverage["setting"]) >= {"board:Morva:flip", "obstacles_cover_actions=yes"}
    assert "leverage_all.csv" in md
    # a markdown table row stays on one line, long verdicts included
    assert any(line.startswith("| skill_gap") and "p " in line and line.endswith("|") for line in md.splitlines())
    # the search level: its own section on [report] search_games per matchup, named in the headline
    stronger = md.split("## Which villain is stronger?")[1].split("\n## ")[0]
    assert "## At search level" in md and "At search level (fewer games" in stronger
    assert settings["search_games"] == 1 and settings["studies_level"] == settings["level"] == "expert"
    search = pl.read_parquet(report_dir / "search_matrix.parquet")
    assert search["games"].unique().to_list() == [1] and search["base_games"].unique().to_list() == [10]
    assert search.height == pl.read_parquet(report_dir / "matrix.parquet").height
    ladder = pl.read_parquet(report_dir / "skill_ladder.parquet")
    assert ladder.filter(pl.col("level") == "search")["games"].to_list() == [2, 2, 2]  # 1 per opponent villain
    assert set(ladder.filter(~pl.col("level").is_in(["search", "learned"]))["games"]) == {20}
    page = (report_dir / "index.html").read_text()
    assert (
        page.count("data:image/png;base64,") == 9 + 4 and 'src="card_impact' not in page
    )  # self-contained (4 skill traces: 3 pairings and 3p)
    # every study played exactly the games it planned: the search level, explicit readings and calibration too
    assert settings["games_played"] == settings["games_planned"]
    assert settings["games_planned"]["calibration"] > 0 and settings["games_planned"]["search_matrix"] == 7


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def run_browser(browser: str, flags: list[str], args: list[str], profile) -> subprocess.CompletedProcess:
    """Run headless chromium with its own profile directory; once more with a fresh one if it hangs (in the CI
    sandbox it sometimes does at start, seen once in a screenshot call after a dump that had just used the same
    profile)."""

    def run(attempt: int) -> subprocess.CompletedProcess:
        command = [browser, *flags, f"--user-data-dir={profile}-{attempt}", *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=120)

    try:
        return run(0)
    except subprocess.TimeoutExpired:
        return run(1)


@pytest.mark.slow
def test_report_page_renders_in_a_headless_browser(report_dir, tmp_path):
    browser = chromium()
    if browser is None:
        if os.environ.get("SIMLAB_REQUIRE_BROWSER"):
            pytest.fail("chromium is not installed but SIMLAB_REQUIRE_BROWSER is set (.ci/run installs it)")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--virtual-time-budget=5000",
    ]
    url = (report_dir / "index.html").as_uri()
    dom = run_browser(browser, flags, ["--window-size=1200,900", "--dump-dom", url], tmp_path / "dump-profile").stdout
    # the first screen: the headline table first (no settings above it), whole at 1200 pixels (no sideways scroll)
    assert dom.index("Headline") < dom.index("<table") < dom.index("<h2>Settings</h2>")
    overflow = re.search(r'data-first-table-overflow="(-?\d+)"', dom)
    assert overflow and int(overflow.group(1)) <= 0, overflow
    plots = re.search(r'data-plots="(\d+)"', dom)
    ok = re.search(r'data-plots-ok="(\d+)"', dom)
    assert plots and ok, dom[:500]
    assert int(plots.group(1)) == 13 and int(ok.group(1)) == 13  # every embedded plot decoded (3p trace too)
    assert "simlab report: tiny" in dom and "<table" in dom
    shot = tmp_path / "page.png"
    run_browser(browser, flags, ["--window-size=1200,2400", f"--screenshot={shot}", url], tmp_path / "shot-profile")
    assert shot.stat().st_size > 20_000


def test_report_bad_config_and_unwritable_directory(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[report]\nablation_games = "many"\n')
    res = CliRunner().invoke(app, ["report", "--config", str(bad)])
    assert res.exit_code == 2 and "bad.toml: [report]: ablation_games must be int" in res.output
    nolog = tmp_path / "nolog.toml"
    nolog.write_text('[report]\nreal_games = "nowhere.csv"\n')
    res = CliRunner().invoke(app, ["report", "--config", str(nolog)])
    assert res.exit_code == 2 and "nolog.toml: [report] real_games: no game log 'nowhere.csv'" in res.output
    cfg = tmp_path / "ok.toml"
    cfg.write_text('name = "x"\ngames = 5\n')
    blocker = tmp_path / "file"
    blocker.write_text("")
    res = CliRunner().invoke(app, ["report", "--config", str(cfg), "--out", str(blocker)])
    assert res.exit_code == 2 and "cannot write the report" in res.output


def test_every_plot_draws_rates_of_0_and_100_percent_at_tiny_sizes(tmp_path):
    """Rates at 0% and 100% (exact interval ends: 0 of 300 games gave a low end of 8.7e-19 and a negative error
    bar), an estimate a rounding error outside its interval, and an empty interval: every report plot (and the
    sweep plot) draws them, on figures an inch or two wide."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    from simlab.report.plots import (
        plot_impact,
        plot_ladder,
        plot_level_comparison,
        plot_leverage,
        plot_matrix,
        plot_sweep,
        plot_turns,
        plot_win_rates,
    )
    from simlab.report.sections import level_comparison
    from simlab.runs.stats import paired_difference, wilson

    def rate_rows(counts, n):
        lo, hi = wilson(np.array(counts), n)
        return {"rate": [k / n for k in counts], "low": lo.tolist(), "high": hi.tolist(), "games": [n] * len(counts)}

    rates = rate_rows([0, 300, 150], 300)
    assert rates["low"][0] == 0.0 and rates["high"][1] == 1.0  # exact ends, so no bar is negative
    rates["low"][2] = rates["rate"][2] + 1e-12  # an estimate just outside its interval (rounding)
    win = pl.DataFrame(
        {"matchup": ["gaston-vs-horned-king"] * 3, "outcome": ["gaston", "horned-king", "unfinished"], **rates}
    )
    ladder = pl.DataFrame(
        {"villain": ["lady-tremaine"] * 3, "level": ["random", "expert", "novice"], "opponent": ["novice"] * 3} | rates
    )
    none, everything = paired_difference(0, 0, 0, 300), paired_difference(0, 300, 0, 0)
    assert none[1] < none[0] == 0.0 < none[2] and everything[0] == everything[2] == 1.0
    impact = pl.DataFrame(
        {
            "card": ["Swoon", "Belle", "Empty"],
            "deck": ["villain", "fate", "villain"],
            "impact": [none[0], everything[0], float("nan")],
            "impact_low": [none[1], everything[1], float("nan")],
            "impact_high": [none[2], everything[2], float("nan")],
        }
    )
    leverage = pl.DataFrame(
        {
            "kind": ["rule", "board", "rule"],
            "setting": ["get_out=exactly_three", "board:Morva:flip", "lucifer_trap=on_play"],
            "matchup": ["gaston-vs-horned-king"] * 3,
            "villain": ["gaston", "horned-king", "gaston"],
            "games": [300] * 3,
            "base_rate": [0.0, 0.5, 0.5],
            "rate": [1.0, 0.5, 0.5],
            "change": [everything[0], none[1] - 1e-12, float("nan")],
            "change_low": [everything[1], none[1], float("nan")],
            "change_high": [everything[2], none[2], float("nan")],
            "changed_games": [300, 0, 0],
            "significant": [True, False, False],
            "description": [""] * 3,
        }
    )
    sweep = pl.DataFrame({"value": ["3", "4", "5"], "entry": ["gaston"] * 3, **rates})
    counted = win.with_columns((pl.col("rate") * 300).round().cast(pl.Int64).alias("count"))
    searched = level_comparison(counted, counted.reverse(), "expert")
    grid = pl.DataFrame({"villain": ["gaston", "horned-king"], "gaston": [1.0, 0.0], "horned-king": [0.0, 1.0]})
    turns = pl.DataFrame({"villain": ["gaston"] * 3 + ["horned-king"], "turns": [7, 7, 8, 20]})
    plots = {
        "matrix_heatmap": lambda ax: plot_matrix(grid, ax),
        "win_rates": lambda ax: plot_win_rates(win, ax),
        "skill_ladder": lambda ax: plot_ladder(ladder, ax),
        "turns_to_win": lambda ax: plot_turns(turns, ax),
        "card_impact": lambda ax: plot_impact(impact, ax, "impact"),
        "leverage": lambda ax: plot_leverage(leverage, ax),
        "sweep": lambda ax: plot_sweep(sweep, ax, "sweep", "4"),
        "search_win_rates": lambda ax: plot_level_comparison(searched, ax),
    }
    for name, draw in plots.items():
        fig, ax = plt.subplots(figsize=(1.6, 1.2))
        draw(ax)
        fig.savefig(tmp_path / f"{name}.png", dpi=40)
        plt.close(fig)
        assert (tmp_path / f"{name}.png").stat().st_size > 0, name


def test_the_verdict_sections_read_the_settled_top_rung_first():
    from types import SimpleNamespace

    from simlab.report.sections import lady_tremaine, stronger

    def rows(group, verdict):
        pairs = [("gaston", "lady-tremaine"), ("lady-tremaine", "horned-king")]
        return pl.DataFrame(
            [
                {"villain_a": a, "villain_b": b, "measure": m, "group": group, "question": f"{a} {m} {b}?"}
                | {"label": "holds", "verdict": f"{verdict} {a} {m} {b}"}
                for a, b in pairs
                for m in ("strength", "skill_gap")
            ]
        )

    top = rows("top rung (search g6, settled)", "at the top:").with_columns(
        pl.lit(100).alias("games"),
        pl.lit("reports/difficulty-top/difficulty.json").alias("source"),
        pl.lit("simlab difficulty --level learned --readings 0 --json").alias("command"),
        pl.lit(1).alias("settings"),
    )
    ctx = SimpleNamespace(
        grouped=rows("strong play", "at strong play:"),
        top_verdicts=top,
        search_matrix=None,
        main_level="strong",
        at_search=False,
        robust_levels=("novice", "strong"),
        settings={"robust_readings": ["default"]},
        robust=None,
    )
    for section, measures in ((stronger, ("strength",)), (lady_tremaine, ("skill_gap", "strength"))):
        (sec,) = section(ctx)
        (table,) = sec.tables.values()
        groups = table["group"].to_list()
        n_top = 2 * len(measures)
        assert groups == [top["group"][0]] * n_top + ["strong play"] * n_top, section.__name__
        assert "100 games per pairing (reports/difficulty-top/difficulty.json" in sec.text
        assert "written by simlab difficulty --level learned --readings 0 --json)" in sec.text
        ctx.top_verdicts = None  # a top still moving: strong play's verdicts alone
        (plain,) = section(ctx)
        assert list(plain.tables.values())[0]["group"].unique().to_list() == ["strong play"]
        assert "top rung" not in plain.text
        ctx.top_verdicts = top
