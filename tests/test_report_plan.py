"""A report sized by its config: the games it plans, counts and plays per study, its estimate, the headline on its
first screen, verdicts grouped by question, percentages in one interval notation, and the settings last."""

from __future__ import annotations

import json
import re
import time

import polars as pl
import pytest
from typer.testing import CliRunner

from simlab.cli import app
from simlab.report.tables import display_table
from simlab.runs.backend import counting
from simlab.runs.settings import RunSettings
from simlab.studies.robust import RobustResult, grouped_verdicts, label_verdicts, question_groups

runner = CliRunner()


# ---------------------------------------------------------------------------- counting games


def test_counting_sees_every_game_a_run_plays_and_nests():
    from simlab.runs.sim import run

    with counting() as outer:
        run("gaston-vs-horned-king", RunSettings(130, seed=1), chunk=50)
        with counting() as inner:
            run("gaston-vs-lady-tremaine", RunSettings(70, seed=1, level="novice"))
    assert inner.games == 70 and inner.search == 0
    assert outer.games == 200
    with counting() as none:
        pass
    assert none.games == 0


# ---------------------------------------------------------------------------- sizes follow the config


def test_leverage_and_search_sizes_scale_with_games():
    from simlab.report.build import default_sizes

    assert default_sizes(300) == {"leverage_games": 300, "search_games": 3}
    assert default_sizes(2000) == {"leverage_games": 2000, "search_games": 20}
    assert default_sizes(50_000)["search_games"] == 20 and default_sizes(99)["search_games"] == 0


# ---------------------------------------------------------------------------- verdicts by question


def _by_setting(level, direction, measure="strength"):
    return {
        "level": level,
        "reading": "default",
        "villain_a": "gaston",
        "villain_b": "lady-tremaine",
        "measure": measure,
        "difference": 0.1 * direction,
        "z": 5.0 * direction,
        "p": 1e-6 if direction else 0.5,
        "significant": bool(direction),
        "direction": direction,
        "verdict": "",
    }


def _result(*settings) -> RobustResult:
    by = pl.DataFrame([_by_setting(*s) for s in settings])
    table = pl.DataFrame(
        [
            {"level": s[0], "reading": "default", "villain": v, "measure": "strength"}
            | {"estimate": 0.5, "low": 0.48, "high": 0.52, "se": 0.01, "games": 1000}
            for s in settings
            for v in ("gaston", "lady-tremaine")
        ]
    )
    verdicts = label_verdicts(by, table, ("gaston", "lady-tremaine"), settings[-1][0])
    return RobustResult(table, by, verdicts, pl.DataFrame({"reading": ["default"]}))


def test_new_players_never_overturn_a_strong_play_verdict():
    res = _result(("novice", -1), ("expert", -1), ("tuned", 1), ("strong", 1))
    assert res.verdicts["label"].to_list() == ["reverses"]  # across every setting, as before
    g = {r["group"]: r for r in grouped_verdicts(res).iter_rows(named=True)}
    assert set(g) == {"strong play", "new players"}
    assert g["strong play"]["label"] == "holds" and g["strong play"]["levels"] == "tuned, strong"
    assert g["strong play"]["verdict"].startswith("holds: Gaston is stronger than Lady Tremaine at strong play")
    assert g["new players"]["label"] == "holds"
    assert "Lady Tremaine is stronger than Gaston" in g["new players"]["verdict"]
    # and a strong-play reversal stays one, whatever novice says
    res = _result(("novice", 1), ("tuned", -1), ("strong", 1))
    g = {r["group"]: r for r in grouped_verdicts(res).iter_rows(named=True)}
    assert g["strong play"]["label"] == "reverses" and g["new players"]["label"] == "holds"


def test_question_groups():
    assert question_groups(("novice", "expert", "tuned", "strong")) == [
        ("strong play", ("tuned", "strong")),
        ("new players", ("novice",)),
    ]
    assert question_groups(("novice", "expert")) == [
        ("expert play (the strongest measured)", ("expert",)),
        ("new players", ("novice",)),
    ]
    assert question_groups(("novice",)) == [("new players", ("novice",))]


# ---------------------------------------------------------------------------- one notation, percentages


def test_tables_show_percentages_in_one_interval_notation():
    frame = pl.DataFrame(
        {
            "matchup": ["a-vs-b"],
            "rate": [0.4275],
            "low": [0.41],
            "high": [0.445],
            "base_rate": [0.5],
            "change": [-0.0725],
            "change_low": [-0.09],
            "change_high": [-0.05],
            "first_seat_advantage": [0.031],
            "games": [2000],
            "z": [1.234],
        }
    )
    shown = display_table(frame).row(0, named=True)
    assert shown["rate [95%]"] == "42.8% [41.0, 44.5]"
    assert shown["change [95%]"] == "-7.2% [-9.0, -5.0]"
    assert shown["base_rate"] == "50.0%" and shown["first_seat_advantage"] == "3.1%"
    assert shown["games"] == 2000 and shown["z"] == 1.234  # counts and statistics as they are
    measures = pl.DataFrame(
        {
            "measure": ["strength", "skill_gap", "goldfish_turns"],
            "estimate": [0.52, 0.1, 9.0],
            "low": [0.5, 0.08, 8.0],
            "high": [0.54, 0.12, 10.0],
        }
    )
    assert display_table(measures)["estimate [95%]"].to_list() == [
        "52.0% [50.0, 54.0]",
        "+10.0% [+8.0, +12.0]",
        "9 [8, 10] turns",
    ]


# ------------------------------------------------- a small report: its plan kept, rates with intervals, headline first

SMALL = """
name = "small"
games = 100
seed = 0
level = "expert"      # pinned: the strongest level here changes as strategy files ship
[report]
difficulty_games = 100
ablation_games = 50
readings = 1
villains = ["gaston"]
"""


@pytest.fixture(scope="module")
def small_report(tmp_path_factory):
    import strategies.mixture as M

    tmp = tmp_path_factory.mktemp("small")
    (tmp / "small.toml").write_text(SMALL)
    dirs, M.MIXTURE_DIRS = M.MIXTURE_DIRS, (tmp / "no-equilibria",)  # the shipped mixtures may not exist yet
    try:
        t0 = time.perf_counter()
        res = runner.invoke(app, ["report", "--config", str(tmp / "small.toml"), "--out", str(tmp / "out")])
        seconds = time.perf_counter() - t0
    finally:
        M.MIXTURE_DIRS = dirs
    assert res.exit_code == 0, res.output
    return tmp / "out" / "small", res.output, seconds


@pytest.mark.slow
def test_a_small_report_plays_exactly_its_planned_games_within_its_estimate(small_report):
    directory, output, seconds = small_report
    settings = json.loads((directory / "settings.json").read_text())
    planned, played = settings["games_planned"], settings["games_played"]
    assert played == planned, (planned, played)
    assert sum(played.values()) > 0 and planned["leverage"] > 0 and planned["search_matrix"] == 7 * 1
    assert settings["leverage_games"] == 100 and settings["search_games"] == 1  # scaled with games = 100
    # the play finishes within the bound the plan states (measured on this machine at the start)
    assert settings["estimate_seconds"] <= settings["estimate_at_most_seconds"]
    assert settings["seconds"] <= settings["estimate_at_most_seconds"], settings
    # the plan is printed before the report is written, with the total, the estimate and its bound
    first = output.index("report plan:")
    assert first < output.index("report: ")
    total = re.search(r"report plan: ([\d,]+) games, play about ([\d.]+) (s|min|h), at most ([\d.]+) (s|min|h)", output)
    assert total and int(total.group(1).replace(",", "")) == sum(planned.values())
    stated = float(total.group(4)) * {"s": 1, "min": 60, "h": 3600}[total.group(5)]
    assert abs(stated - settings["estimate_at_most_seconds"]) <= 0.5 * {"s": 1, "min": 60, "h": 360}[total.group(5)]
    recorded = pl.read_parquet(directory / "report_games.parquet")
    assert (recorded["planned_games"] == recorded["played_games"]).all()


RATE_HEADER = re.compile(r"rate|change|impact|estimate|observed|predicted|advantage|exploitability|share|strong|new pl")


def _bare_rates(md: str) -> list[tuple[str, str]]:
    """(column, cell) of every markdown table cell under a rate's header that holds a bare number."""
    found, header = [], None
    for line in md.splitlines():
        if not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if header is None:
            header = cells
        elif not set("".join(cells)) <= set("-: "):
            pairs = zip(header, cells, strict=True)
            found += [(h, c) for h, c in pairs if RATE_HEADER.search(h) and re.fullmatch(r"-?\d*\.\d+", c)]
    return found


def test_a_bare_rate_in_a_table_is_found():
    assert _bare_rates("| rate [95%] | z |\n|---|---|\n| 42.8% [41.0, 44.5] | 1.2451 |") == []
    assert _bare_rates("| base_rate | z |\n|---|---|\n| 0.4275 | 1.2 |") == [("base_rate", "0.4275")]


@pytest.mark.slow
def test_the_first_screen_is_the_headline_and_the_settings_come_last(small_report):
    directory, _, _ = small_report
    md = (directory / "report.md").read_text()
    sections = re.findall(r"^## (.+)$", md, re.M)
    assert sections[0] == "Headline: is each matchup balanced?" and sections[-1] == "Settings"
    assert md.index("```json") > md.index("## Games played")
    head = md.split("## Headline")[1].split("\n## ")[0]
    assert "No equilibrium is shipped here" in head and "strong-play columns are blank" in head
    assert "![skill_trace_gaston-vs-horned-king](skill_trace_gaston-vs-horned-king.png)" in head
    from simlab.studies.equilibrium import pairings

    for m in pairings():
        assert (directory / f"skill_trace_{m}.png").is_file()
    trace = pl.read_parquet(directory / "skill_trace.parquet")
    assert set(trace["level"]) >= {"novice", "expert"} and "strong" not in set(trace["level"])
    # the search level is the shipped learning run's generations, read from its files (its own games), not played
    assert "search g0" in set(trace["level"]) and "search" not in set(trace["level"])
    page = (directory / "index.html").read_text()
    assert page.index("<h2>Headline") < page.index("<h2>Settings</h2>") and page.index("<pre>") > page.index("<img")
    # shown tables: every rate a percentage (no bare fraction such as 0.4275), every interval in the one notation
    assert _bare_rates(md) == []
    rows = [line for line in md.splitlines() if line.startswith("|")]
    assert rows and not [r for r in rows if re.search(r"\d%? - \d|±", r)]
    # verdict cells stay on one line: short, and grouped by question
    from simlab.studies.generations import read_rungs

    top = f"top rung ({read_rungs().top_level}, settled)"  # the shipped run's settled top: read first, not played
    for name in ("headline_verdicts", "robust_verdicts", "lady_tremaine_verdicts"):
        frame = pl.read_parquet(directory / f"{name}.parquet")
        played = frame.filter(pl.col("group") != top)
        assert set(played["group"]) == {"strong play", "new players"}  # tuned is the strong-play reading here
        read = frame["group"].to_list()[: frame.height - played.height]
        assert read == [top] * len(read) and bool(read) == (name != "robust_verdicts")  # first, in the two sections
        assert frame["verdict"].str.len_chars().max() <= 110, frame["verdict"].to_list()
