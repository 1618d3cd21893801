"""Every figure and verdict of README.md and docs/ comes from a shipped artifact: each placeholder states what the
artifacts hold now (a changed artifact makes the page stale, and this fails), and no page types a figure of its
own (docs/performance.md's come from the benchmarks' files under reports/performance/)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from simlab.report import figures as F

ROOT = Path(__file__).resolve().parents[1]
# pages that describe the headline, the verdicts and the levels: every figure they state is generated
GENERATED = ("docs/index.md", "docs/strategies/levels.md")


@pytest.fixture(autouse=True)
def _fresh():
    F.clear_cache()
    yield
    F.clear_cache()


def test_every_page_states_what_the_artifacts_hold():
    assert F.stale_pages() == [], "run simlab docs-figures: these pages state figures the artifacts do not hold"


def test_a_changed_artifact_makes_the_pages_stale(tmp_path, monkeypatch):
    report = tmp_path / "balance-report"
    shutil.copytree(F.REPORT, report)
    verdicts = report / "robust_verdicts.csv"
    text = verdicts.read_text(encoding="utf-8")
    assert "holds: Lady Tremaine is stronger than Gaston" in text
    verdicts.write_text(text.replace("holds: Lady Tremaine is stronger than Gaston", "holds: Gaston is stronger"))
    monkeypatch.setattr(F, "REPORT", report)
    stale = F.stale_pages()
    assert {"README.md", "docs/index.md", "docs/studies/report.md"} <= set(stale), stale


def test_the_pages_use_the_figures_and_the_headline_pages_type_none():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for key in ("verdicts", "headline", "eq-table", "search-gains", "report-size", "test-times", "good-play", "fix"):
        assert f"<!-- fig:{key}" in readme, key
    for page in GENERATED:
        text = (ROOT / page).read_text(encoding="utf-8")
        assert F.FIG.search(text), page
        assert F.typed_figures(text) == [], (page, F.typed_figures(text))


def test_no_page_types_a_figure():
    typed = {}
    for path in F.pages():
        found = F.typed_figures(path.read_text(encoding="utf-8"))
        if found:
            typed[path.relative_to(ROOT).as_posix()] = found
    assert typed == {}, "typed figures (fill them with <!-- fig:KEY --> from an artifact instead): " + str(typed)


def test_the_performance_page_reads_only_what_one_run_of_its_script_wrote():
    """benchmarks/performance_page.py replaces reports/performance/ and lists what it wrote in run.json: the page
    reads those files alone, so that one run refreshes every figure on it."""
    text = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    generic = [m["arg"] for m in F.FIG.finditer(text) if m["key"] in ("value", "values", "table")]
    read = {arg.split()[0].split("#")[0].split("?")[0] for arg in generic}
    read |= {"reports/performance/engine.json"} if "<!-- fig:perf-compile:" in text else set()
    written = json.loads((F.PERFORMANCE / "run.json").read_text(encoding="utf-8"))["files"]
    assert read == {f"reports/performance/{f}" for f in written}


def test_the_compile_figure_says_when_the_run_did_not_measure_it(tmp_path, monkeypatch):
    doc = {"cold": None, "cached": None}
    (tmp_path / "engine.json").write_text(json.dumps(doc))
    monkeypatch.setattr(F, "PERFORMANCE", tmp_path)
    assert F.figure("perf-compile", "cold") == "not measured in the recorded run (`--skip-cold`)"
    doc = {
        "cold": {
            "start_s": 22.14,
            "parts_s": 40.2,
            "parts": 63,
            "compile_processes": 2,
            "compile_peak_mb": 325.4,
            "playing_peak_mb": 229.0,
        },
        "cached": {"start_s": 1.23},
    }
    (tmp_path / "engine.json").write_text(json.dumps(doc))
    F.clear_cache()
    assert F.figure("perf-compile", "cold") == (
        "22.1 s to the first game, 40 s of compiling over the 63 parts (2 compile processes); peak 325 MB in a "
        "compile process, 229 MB in the playing one"
    )
    assert F.figure("perf-compile", "cached") == "1.2 s to the first game"
    with pytest.raises(F.FigureError, match="cold or cached"):
        F.figure("perf-compile", "warm")


def test_typed_figures_are_found_outside_placeholders_and_code():
    text = (
        "Gaston wins 52.1% [50.0, 54.2] (**holds**, 3 of 6 settings) in 4 min, 17 points ahead. "
        "<!-- fig:good-play -->`strong`<!-- /fig --> `-n 2000 at 50%` and a 95% interval.\n```\n12.5%\n```"
    )
    assert F.typed_figures(text) == ["52.1%", "[50.0, 54.2]", "**holds**", "3 of 6 settings", "4 min", "17 points"]


def test_an_unknown_figure_is_one_clear_line():
    with pytest.raises(F.FigureError, match="unknown figure 'nope'; figures: verdicts"):
        F.fill("<!-- fig:nope -->1<!-- /fig -->")


def test_the_site_shows_the_figures_without_their_markers():
    text = "a <!-- fig:good-play -->`tuned`<!-- /fig --> b\n<!-- fig:verdicts -->\n<!-- /fig -->\n"
    out = F.fill(text, strip=True)
    assert "fig:" not in out and "a `strong` b" in out
    assert "| Is Gaston stronger than Lady Tremaine? |" in out


def test_docs_figures_check_exits_1_on_a_stale_page(tmp_path, monkeypatch):
    from simlab.cli import app

    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text("good play: <!-- fig:good-play -->`tuned`<!-- /fig -->\n")
    monkeypatch.setattr(F, "ROOT", tmp_path)
    res = CliRunner().invoke(app, ["docs-figures", "--check"])
    assert res.exit_code == 1 and "stale figures in README.md" in res.output
    res = CliRunner().invoke(app, ["docs-figures"])
    assert res.exit_code == 0 and "filled: README.md" in res.output
    assert "<!-- fig:good-play -->`strong`<!-- /fig -->" in (tmp_path / "README.md").read_text()
    assert CliRunner().invoke(app, ["docs-figures", "--check"]).exit_code == 0


def test_the_headline_figure_reads_the_top_rung_first_once_it_is_settled(tmp_path, monkeypatch):
    from simlab.studies.headline import headline_view

    row = {
        "matchup": "gaston-vs-horned-king",
        "villain": "gaston",
        "top_level": "search g6",
        "exploitability": None,
        "search_gain": 0.3,
    }
    for name, rate, verdict in (
        ("strong", 0.48, "balanced"),
        ("new_players", 0.7, "gaston favoured"),
        ("top", 0.57, "gaston leans"),
    ):
        row |= {
            f"{name}_rate": rate,
            f"{name}_low": rate - 0.02,
            f"{name}_high": rate + 0.02,
            f"{name}_verdict": verdict,
        }
    table = pl.DataFrame([row])
    said = {}
    for settled in (False, True):
        monkeypatch.setattr(F, "REPORT", tmp_path / str(settled))
        (tmp_path / str(settled)).mkdir()
        view = headline_view(table, settled)
        view.write_csv(tmp_path / str(settled) / "headline.csv")
        said[settled] = F.headline_list()
        first = "at the top rung [95%]" if settled else "at strong play [95%]"
        assert view.columns[2] == first
    strong, top = "48.0% [46.0, 50.0] at strong play (balanced", "57.0% [55.0, 59.0] at the top rung (gaston leans"
    assert said[False].index(strong) < said[False].index(top)
    assert said[True].index(top) < said[True].index(strong)  # the verdict more skill no longer moves, first


def test_the_skill_trace_figure_has_a_column_per_pairing_and_3_player_share_and_the_top_word(tmp_path, monkeypatch):
    rows = [
        ("gaston-vs-horned-king", "gaston", "novice", 0.7, 0.68, 0.72),
        ("gaston-vs-horned-king", "gaston", "search g1", 0.55, 0.5, 0.6),
        ("gaston-vs-lady-tremaine-vs-horned-king", "gaston", "search g1", 0.3, 0.27, 0.33),
    ]
    frame = pl.DataFrame(rows, schema=["matchup", "villain", "level", "rate", "low", "high"], orient="row")
    frame.write_csv(tmp_path / "skill_trace.csv")
    pl.DataFrame({"top": ["search g1: settled"]}).write_csv(tmp_path / "skill_trace_top.csv")
    monkeypatch.setattr(F, "REPORT", tmp_path)
    text = F.skill_trace_table()
    assert "| level | G v HK | 3p G |" in text
    assert "| search g1 | 55.0% [50.0, 60.0] | 30.0% [27.0, 33.0] |" in text
    assert "| novice | 70.0% [68.0, 72.0] |  |" in text
    assert text.endswith("3p: the 3-player game. Top rung search g1: settled.")
    # the front door keeps its length as generations come: the first and the top, the ones between named
    more = [("gaston-vs-horned-king", "gaston", f"search g{k}", 0.5, 0.45, 0.55) for k in (0, 2, 3)]
    later = tmp_path / "later"  # another folder: the figures read each file once
    later.mkdir()
    pl.concat([frame, pl.DataFrame(more, schema=frame.columns, orient="row")]).write_csv(later / "skill_trace.csv")
    monkeypatch.setattr(F, "REPORT", later)
    text = F.skill_trace_table()
    assert [line.split(" | ")[0] for line in text.splitlines()[2:5]] == ["| novice", "| search g0", "| search g3"]
    assert text.endswith(
        "Between the first generation and the top: search g1, search g2 ([learning](docs/studies/learning.md))."
    )


def test_a_table_reads_a_shipped_csv_through_its_template():
    out = F.fill(
        "<!-- fig:table:reports/tune/ladder_expert.csv?villain=gaston&@sort=-rate\n"
        "| level | rate |\n|---|---|\n| {level} | {rate:%} [{low:pt}, {high:pt}] |\n-->\n<!-- /fig -->",
        strip=True,
    )
    assert out.strip().splitlines()[:3] == ["| level | rate |", "|---|---|", "| tuned | 76.0% [74.7, 77.3] |"]
    assert len(out.strip().splitlines()) == 6


def test_a_value_reads_json_and_another_rows_column(tmp_path, monkeypatch):
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / "times.json").write_text(json.dumps({"default": {"tests": 1046, "seconds": 158.2}}))
    monkeypatch.setattr(F, "ROOT", tmp_path)
    assert F.figure("value", "reports/times.json {default.tests:,} tests") == "1,046 tests"
    monkeypatch.undo()
    F.clear_cache()
    lookup = "reports/tune/trajectory.csv?round=0&matchup=gaston-vs-horned-king&outcome=gaston {rate@round=3 - rate:+%}"
    assert F.figure("value", lookup) == "-35.9%"
    assert F.figure("values", "reports/tune/improvements.csv?villain=horned-king {change:+pt}") == "+17.4, +1.2, +4.0"


def test_a_changed_artifact_makes_a_generic_figure_stale(tmp_path, monkeypatch):
    (tmp_path / "docs").mkdir()
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / "x.csv").write_text("villain,rate\ngaston,0.5\n")
    page = "Gaston wins <!-- fig:value:reports/x.csv?villain=gaston {rate:%} -->50.0%<!-- /fig -->.\n"
    (tmp_path / "README.md").write_text(page)
    monkeypatch.setattr(F, "ROOT", tmp_path)
    assert F.stale_pages(tmp_path) == []
    (tmp_path / "reports" / "x.csv").write_text("villain,rate\ngaston,0.6\n")
    F.clear_cache()
    assert F.stale_pages(tmp_path) == ["README.md"]


@pytest.mark.parametrize(
    ("arg", "says"),
    [
        ("reports/tune/nope.csv {rate}", "reports/tune/nope.csv is missing: the figures read it; reports/tune/ holds"),
        ("reports/tune/ladder_expert.csv?villain=gaston&level=tuned {nope}", "no column 'nope'; columns: villain"),
        ("reports/tune/ladder_expert.csv?villain=joker {rate}", "no row has villain=joker; villain is one of gaston"),
        ("reports/test-times.json {default.nope}", "has no 'default.nope': at default the keys are seconds"),
        ("reports/tune/ladder_expert.csv?villain=gaston&level=tuned {rate:zz}", "formats: %, +%"),
        ("reports/tune/ladder_expert.csv?villain=gaston {rate}", "4 rows match, fig:value needs one"),
    ],
)
def test_a_bad_generic_figure_is_one_line_naming_the_choices(arg, says):
    with pytest.raises(F.FigureError) as err:
        F.figure("value", arg)
    assert says in str(err.value) and "\n" not in str(err.value)


def test_the_verdict_table_reads_the_top_rung_first_once_it_is_settled(tmp_path, monkeypatch):
    report = tmp_path / "balance-report"
    shutil.copytree(F.REPORT, report)
    monkeypatch.setattr(F, "REPORT", report)
    top = json.loads(F.TOP_VERDICTS.read_text(encoding="utf-8"))
    question = "is Gaston stronger than the Horned King?"
    said = next(r["verdict"] for r in top["tables"]["verdicts"] if r["question"] == question)
    assert said.startswith("holds: Gaston is stronger") and "(learned, " in said
    table = F.verdict_table().splitlines()
    assert table[0].startswith("| question | at the top rung (learned, search g") and "settled" in table[0]
    row = next(line for line in table if line.startswith("| Is Gaston stronger than the Horned King?"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1] == said and cells[2] == F.verdict(question)  # the top rung's first, then strong play's
    (report / "skill_trace_top.csv").write_text("top\nsearch g6: still moving (±4 points)\n")
    F.clear_cache()
    moving = F.verdict_table().splitlines()
    assert moving[0] == "| question | at strong play | for new players |"  # a top still moving is not read first
    assert said not in "\n".join(moving)
