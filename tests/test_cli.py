"""The command line: replay output, and bad input as one line with exit code 2."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from simlab.cli import app, pct_interval
from simlab.runs.settings import RunSettings

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args))


def test_replay_prints_a_readable_game():
    res = run("replay", "--matchup", "gaston-vs-lady-tremaine", "--seed", "7", "--game", "3")
    assert res.exit_code == 0, res.output
    out = res.output
    assert "moves to" in out and "[Gaston: Power" in out and "Obstacles" in out
    # the game the run of seed 7 played as its game 3: who sat first, who won, after how many rounds
    from simlab.runs.sim import run as play

    game = play("gaston-vs-lady-tremaine", RunSettings(4, seed=7, threads=1), keep_games=True).games.row(3, named=True)
    name = {"gaston": "Gaston", "lady-tremaine": "Lady Tremaine"}
    assert out.split("== Round 1: ")[1].startswith(f"{name[game['seat0']]} (")
    assert out.rstrip().splitlines()[-1].startswith(f"Winner: {name[game['winner']]} (")
    assert out.rstrip().endswith(f" after {game['rounds']} rounds")


@pytest.mark.parametrize(
    ("rate", "low", "high", "sign", "expected"),
    [
        (0.5, 0.45, 0.55, "", ("50.0%", "45.0%", "55.0%")),  # a few hundred games: one decimal
        (0.7789, 0.7786, 0.7792, "", ("77.89%", "77.86%", "77.92%")),  # millions: the ends would merge at one
        (0.0049, 0.00485, 0.00495, "+", ("+0.490%", "+0.485%", "+0.495%")),
        (0.0, 0.0, 0.0, "", ("0.0%", "0.0%", "0.0%")),  # nothing to tell apart
    ],
)
def test_intervals_show_enough_decimals_for_their_ends_to_differ(rate, low, high, sign, expected):
    assert pct_interval(rate, low, high, sign) == expected


def test_run_prints_win_rates():
    res = run("run", "--matchup", "gaston-vs-horned-king", "-n", "200", "--max-turns", "20", "--threads", "1")
    assert res.exit_code == 0, res.output
    assert "gaston" in res.output and "horned-king" in res.output and "unfinished" in res.output
    assert "games/s" in res.output


@pytest.mark.parametrize(
    "args, needle",
    [
        (("run", "--matchup", "gaston-vs-jafar", "-n", "10"), "unknown villain 'jafar'"),
        (("run", "--matchup", "gaston", "-n", "10"), "malformed matchup"),
        (("run", "--matchup", "gaston-vs-horned-king", "-n", "0"), "-n must be a positive"),
        (("run", "--matchup", "gaston-vs-horned-king", "--seed", "-3"), "seed must be"),
        (("run", "--matchup", "gaston-vs-horned-king", "--rules", "get_out=sometimes"), "choose from up_to_three"),
        (("run", "--matchup", "gaston-vs-horned-king", "--rules", "flying=yes"), "unknown rule variant 'flying'"),
        (("run", "--matchup", "gaston-vs-horned-king", "--strategy", "gaston=genius"), "unknown strategy 'genius'"),
        (("replay", "--matchup", "gaston-vs-horned-king", "--seed", "-1"), "seed must be"),
        (("replay", "--matchup", "horned-king-vs-nobody"), "choose from gaston, lady-tremaine, horned-king"),
        (("replay", "--matchup", "gaston-vs-horned-king", "--rules", "lucifer_trap"), "must look like NAME=VALUE"),
    ],
)
def test_bad_input_is_one_clear_line_with_exit_code_2(args, needle):
    res = run(*args)
    assert res.exit_code == 2, res.output
    assert needle in res.output
    assert "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_rules_lists_every_variant_with_its_default():
    res = runner.invoke(app, ["rules"], env={"COLUMNS": "250"})
    assert res.exit_code == 0
    for name in ("gaston_win_timing", "get_out", "lucifer_trap", "glass_slippers_cover_actions"):
        assert name in res.output
