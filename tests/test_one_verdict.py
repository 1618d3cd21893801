"""One verdict per question, whatever the command: the six verdict questions of README's question table
(:data:`simlab.report.figures.QUESTIONS`) get the same words from ``simlab difficulty``, from ``simlab report``
(its robust verdicts) on the same seed and sizes, with the readings of the shipped leverage ranking, and README
and the docs state the shipped report's words.

At small n (:data:`GAMES`) the verdicts may differ from the shipped report's (600 games a setting); what must not
differ is one command's answer from the other's on the same games. At their defaults (``difficulty`` plays the
shipped report's ``difficulty_games``) they are the shipped report's, word for word."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simlab.cli import app
from simlab.report import figures as F

ROOT = Path(__file__).resolve().parents[1]
GAMES = 12  # per pairing and setting: small, the same for both commands
HEADLINE_GAMES = 16  # per matchup and level of the headline: the report's matrix size, apart from GAMES
QUESTION_IDS = [f"{m}:{a}-{b}" for a, b, m in F.QUESTIONS]


@pytest.fixture(scope="module")
def command_output() -> str:
    """``simlab difficulty -n GAMES --headline-games HEADLINE_GAMES`` at its other defaults, its words on one
    line."""
    args = ["difficulty", "-n", str(GAMES), "--headline-games", str(HEADLINE_GAMES), "--threads", "1"]
    res = CliRunner().invoke(app, args, terminal_width=400)
    assert res.exit_code == 0, res.output[-3000:]
    return " ".join(res.output.split())


@pytest.fixture(scope="module")
def report_verdicts(tmp_path_factory):
    """The robust verdicts ``simlab report`` gives with the same seed and sizes (its other studies not played)."""
    from simlab.report.build import report_context
    from simlab.runs.experiment import Experiment

    report = {"difficulty_games": GAMES, "readings": 2}
    exp = Experiment(name="one-verdict", games=HEADLINE_GAMES, seed=0, report=report)
    ctx = report_context(exp, tmp_path_factory.mktemp("report"), 1, lambda _msg: None, None)
    grouped = ctx.grouped
    verdicts = {(r["question"], r["group"]): r["verdict"] for r in grouped.iter_rows(named=True)}
    return verdicts, ctx.settings, ctx.headline


def test_difficulty_plays_the_shipped_reports_games_by_default():
    from typer.main import get_command

    from simlab.cli.studies import REPORT_DIFFICULTY_GAMES

    config = tomllib.loads((ROOT / "configs/balance-report.toml").read_text(encoding="utf-8"))
    assert REPORT_DIFFICULTY_GAMES == config["report"]["difficulty_games"]
    shipped = F._json(F.REPORT / "settings.json")
    assert shipped["difficulty_games"] == REPORT_DIFFICULTY_GAMES and shipped["seed"] == 0
    command = get_command(app).get_command(None, "difficulty")
    assert {p.name: p.default for p in command.params}["n"] == REPORT_DIFFICULTY_GAMES


def test_difficulty_plays_the_shipped_reports_headline_by_default():
    """The headline ``simlab difficulty`` prints first is the report's (README's) at its defaults: the same games
    per matchup and level, on the same seed, so a designer reads the same win rates and words in both."""
    from typer.main import get_command

    from simlab.cli.studies import REPORT_HEADLINE_GAMES

    config = tomllib.loads((ROOT / "configs/balance-report.toml").read_text(encoding="utf-8"))
    assert REPORT_HEADLINE_GAMES == config["games"] == F._json(F.REPORT / "settings.json")["games_per_matchup"]
    command = get_command(app).get_command(None, "difficulty")
    assert {p.name: p.default for p in command.params}["headline_games"] == REPORT_HEADLINE_GAMES


def test_difficulty_prints_the_reports_headline_on_the_same_games(command_output, report_verdicts):
    from simlab.report.render import short_matchup
    from simlab.runs.stats import interval_text

    _, _, head = report_verdicts
    rows = list(head.table.iter_rows(named=True))
    assert rows and f"{HEADLINE_GAMES:,} games per matchup and level" in command_output
    for r in rows:
        rate = interval_text(r["strong_rate"], r["strong_low"], r["strong_high"])
        new = interval_text(r["new_players_rate"], r["new_players_low"], r["new_players_high"])
        said = f"{short_matchup(r['matchup'])}: "
        assert rate in command_output and new in command_output, (r["matchup"], rate, new)
        assert f"at strong play {r['strong_verdict']}" in command_output.split(said, 1)[1], r["matchup"]


def test_the_shipped_ranking_has_its_provenance_and_is_the_shipped_reports():
    import polars as pl

    from simlab.studies.ranking import PROVENANCE_KEYS, ranking_from_table, read_ranking

    ranking = read_ranking()
    assert set(PROVENANCE_KEYS) <= set(ranking.provenance)
    assert ranking.provenance["command"] == "simlab report --config balance-report"
    assert len(ranking.provenance["commit"]) == 40 and ranking.provenance["seed"] == 0
    table = pl.read_parquet(F.REPORT / "leverage_all.parquet")
    assert [r["setting"] for r in ranking_from_table(table)] == ranking.readings
    shipped = F._json(F.REPORT / "settings.json")
    assert ranking.top(2) == shipped["robust_readings"][1:]  # the readings the shipped verdicts were tested under


def test_a_ranking_is_read_back_with_its_provenance_and_a_bad_one_is_one_line(tmp_path):
    import polars as pl

    from simlab.errors import InputError
    from simlab.studies.ranking import PROVENANCE_KEYS, read_ranking, write_ranking

    table = pl.read_parquet(F.REPORT / "leverage_all.parquet")
    provenance = {k: f"the {k}" for k in PROVENANCE_KEYS}
    back = read_ranking(write_ranking(table, provenance, tmp_path / "r.toml"))
    assert back.readings == read_ranking().readings and back.provenance == provenance
    assert back.why(back.readings[0]).startswith("shipped leverage ranking #1: largest effect")
    (tmp_path / "bad.toml").write_text('[provenance]\ncommand = "x"\n')
    with pytest.raises(InputError, match=r"bad.toml: a leverage ranking needs \[provenance\]"):
        read_ranking(tmp_path / "bad.toml")
    with pytest.raises(InputError, match="no leverage ranking at .*; make one with simlab leverage --save-ranking"):
        read_ranking(tmp_path / "none.toml")


def test_both_commands_test_the_rankings_readings(command_output, report_verdicts):
    from simlab.studies.ranking import read_ranking

    readings = read_ranking().top(2)
    _, settings, _ = report_verdicts
    assert settings["robust_readings"][1:] == readings
    assert "configs/leverage/ranking.toml" in settings["robust_readings_from"]
    for r in readings:
        assert f"- {r}: shipped leverage ranking" in command_output
    assert "re-screening" not in command_output


@pytest.mark.parametrize(("a", "b", "measure"), F.QUESTIONS, ids=QUESTION_IDS)
def test_one_verdict_per_question(a, b, measure, command_output, report_verdicts):
    question = F.question_text(a, b, measure)
    verdicts, _, _ = report_verdicts
    said = verdicts[(question, "strong play")]
    # the command prints the report's verdict word for word, on the same games
    assert f"- {question} {said}" in command_output
    # README and the docs state the shipped report's verdict word for word, after the settled top rung's
    shipped = F.verdict(question)
    top = F.top_rung_verdicts()
    assert top is not None  # the shipped run is settled and its difficulty run played that top
    # the command prints the top rung's verdict first, as README does
    at_top = command_output.index(f"- {question} {top[1][question]}")
    assert at_top < command_output.index("verdicts by question") < command_output.index(f"- {question} {said}")
    cells = [question[0].upper() + question[1:], top[1][question], shipped]
    row = "| " + " | ".join(cells) + " |"
    for page in ("README.md", "docs/index.md", "docs/studies/report.md"):
        assert row in (ROOT / page).read_text(encoding="utf-8"), (page, question)
    assert shipped.startswith(("holds", "reverses", "not significant"))  # one label, one verdict


def test_rescreen_says_so_and_names_what_it_tested():
    res = CliRunner().invoke(
        app,
        ["difficulty", "--villain", "gaston", "--vs", "horned-king", "-n", "4", "--level", "novice", "--readings", "1"]
        + ["--headline-games", "4"]
        + ["--rescreen", "--screen-games", "4", "--threads", "1"],
        terminal_width=400,
    )
    assert res.exit_code == 0, res.output[-2000:]
    out = " ".join(res.output.split())
    assert "re-screening:" in out and "not the shipped ranking" in out
    assert "readings tested besides the default (from a leverage screen (re-screened" in out


def test_screen_games_without_rescreen_is_one_line():
    res = CliRunner().invoke(app, ["difficulty", "--screen-games", "10"])
    assert res.exit_code == 2
    assert res.output.strip().splitlines() == [
        "error: --screen-games sizes a new leverage screen: give it with --rescreen"
    ]


def test_a_report_that_rescreens_says_so_and_names_its_readings(tmp_path, monkeypatch):
    from simlab.report import build
    from simlab.runs.experiment import Experiment

    sizes = {"difficulty_games": 4, "leverage_games": 4, "leverage_board": "none", "search_games": 0}
    exp = Experiment(name="rescreen", games=4, seed=0, report={**sizes, "readings": 1, "rescreen": True})
    ctx = build.report_context(exp, tmp_path, 1, lambda _msg: None, "novice")
    monkeypatch.setattr(build, "STUDIES", ("robust",))  # the verdicts (and the leverage table they screen) only
    lines: list[str] = []
    build.play_studies(ctx, lines.append)
    assert any(line.startswith("re-screening ([report] rescreen = true)") for line in lines), lines
    tested = [line for line in lines if line.startswith("readings the verdicts tested besides the default: ")]
    assert len(tested) == 1 and "(from a leverage screen (re-screened" in tested[0], lines


@pytest.mark.parametrize("rules", [[], ["--rules", "get_out=exactly_three"]], ids=["shipped", "other-rules"])
def test_difficulty_reads_the_top_rungs_verdicts_only_for_the_shipped_game(rules):
    import json

    args = ["difficulty", "--villain", "gaston", "--vs", "horned-king", "-n", "4", "--level", "novice"]
    args += ["--headline-games", "4"]
    res = CliRunner().invoke(app, [*args, "--readings", "0", "--threads", "1", "--json", *rules])
    assert res.exit_code == 0, res.output[-2000:]
    tables = json.loads(res.output)["tables"]
    assert list(tables)[0] == "verdicts"  # --csv's table stays this run's own
    if rules:
        assert "top_rung_verdicts" not in tables  # the top rung learned the shipped rules only
    else:
        top = tables["top_rung_verdicts"]
        assert {(r["villain_a"], r["villain_b"]) for r in top} == {("gaston", "horned-king")}
        assert all(r["group"].startswith("top rung (search g") and r["levels"] == "learned" for r in top)
