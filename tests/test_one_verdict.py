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
QUESTION_IDS = [f"{m}:{a}-{b}" for a, b, m in F.QUESTIONS]


@pytest.fixture(scope="module")
def command_output() -> str:
    """``simlab difficulty -n GAMES`` at its other defaults, its words on one line."""
    res = CliRunner().invoke(app, ["difficulty", "-n", str(GAMES), "--threads", "1"], terminal_width=400)
    assert res.exit_code == 0, res.output[-3000:]
    return " ".join(res.output.split())


@pytest.fixture(scope="module")
def report_verdicts(tmp_path_factory):
    """The robust verdicts ``simlab report`` gives with the same seed and sizes (its other studies not played)."""
    from simlab.report.build import report_context
    from simlab.runs.experiment import Experiment

    exp = Experiment(name="one-verdict", games=GAMES, seed=0, report={"difficulty_games": GAMES, "readings": 2})
    ctx = report_context(exp, tmp_path_factory.mktemp("report"), 1, lambda _msg: None, None)
    grouped = ctx.grouped
    return {(r["question"], r["group"]): r["verdict"] for r in grouped.iter_rows(named=True)}, ctx.settings


def test_difficulty_plays_the_shipped_reports_games_by_default():
    from typer.main import get_command

    from simlab.cli.studies import REPORT_DIFFICULTY_GAMES

    config = tomllib.loads((ROOT / "configs/balance-report.toml").read_text(encoding="utf-8"))
    assert REPORT_DIFFICULTY_GAMES == config["report"]["difficulty_games"]
    shipped = F._json(F.REPORT / "settings.json")
    assert shipped["difficulty_games"] == REPORT_DIFFICULTY_GAMES and shipped["seed"] == 0
    command = get_command(app).get_command(None, "difficulty")
    assert {p.name: p.default for p in command.params}["n"] == REPORT_DIFFICULTY_GAMES


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


def test_both_commands_test_the_rankings_readings(command_output, report_verdicts):
    from simlab.studies.ranking import read_ranking

    readings = read_ranking().top(2)
    _, settings = report_verdicts
    assert settings["robust_readings"][1:] == readings
    assert "configs/leverage/ranking.toml" in settings["robust_readings_from"]
    for r in readings:
        assert f"- {r}: shipped leverage ranking" in command_output
    assert "re-screening" not in command_output


@pytest.mark.parametrize(("a", "b", "measure"), F.QUESTIONS, ids=QUESTION_IDS)
def test_one_verdict_per_question(a, b, measure, command_output, report_verdicts):
    question = F.question_text(a, b, measure)
    verdicts, _ = report_verdicts
    said = verdicts[(question, "strong play")]
    # the command prints the report's verdict word for word, on the same games
    assert f"- {question} {said}" in command_output
    # README and the docs state the shipped report's verdict word for word
    shipped = F.verdict(question)
    row = f"| {question[0].upper() + question[1:]} | {shipped} |"
    for page in ("README.md", "docs/index.md", "docs/studies/report.md"):
        assert row in (ROOT / page).read_text(encoding="utf-8"), (page, question)
    assert shipped.startswith(("holds", "reverses", "not significant"))  # one label, one verdict


def test_rescreen_says_so_and_names_what_it_tested():
    res = CliRunner().invoke(
        app,
        ["difficulty", "--villain", "gaston", "--vs", "horned-king", "-n", "4", "--level", "novice", "--readings", "1"]
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
