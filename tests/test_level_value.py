"""A level is a value parsed once: the text a user gives (``--level``, ``RunSettings(level=...)``, an experiment
file's ``level``) becomes a :class:`simlab.runs.levels.Level`, which gives every villain the strategy that played
it before (by name and as the spec that plays); bad text is refused with the same one line; and the code below the
parse (the settings, the game plan, the run, its label) takes the value without reading the text again."""

from __future__ import annotations

import dataclasses

import pytest
from typer.testing import CliRunner

from simlab.cli import app
from simlab.data.cards import VILLAIN_KEYS
from simlab.errors import InputError
from simlab.runs.levels import LEVELS, Level, available_levels
from simlab.runs.settings import RunSettings
from simlab.runs.sim import run
from strategies.mixture import play_spec

CHOICES = "random, novice, expert, tuned, apprentice, strong, search, learned"
GASTON_HK = ("gaston", "horned-king")
# the seatings a level's strategy is asked for in: a pairing, a mirror, the 3-player game, none known
MATCHUPS = (GASTON_HK, ("gaston", "gaston"), tuple(VILLAIN_KEYS), None)


def expected_name(level: str, villain: str) -> str:
    """The strategy name each level played a villain by before the level was a value."""
    return {"tuned": f"tuned-{villain}", "strong": f"strong#{villain}"}.get(level, level)


@pytest.mark.parametrize("text", ["expert", "Expert", " EXPERT ", "novice", "Tuned", "strong", "Search", "random"])
def test_a_level_name_in_any_case_parses_to_its_level(text):
    level = Level.parse(text)
    assert level.name == text.strip().lower() and str(level) == level.name
    assert Level.parse(level) is level  # a level given as a value is taken as it is
    assert Level(text) == level and hash(Level(text)) == hash(level)
    with pytest.raises(dataclasses.FrozenInstanceError):
        level.name = "novice"


@pytest.mark.parametrize("name", LEVELS)
def test_each_level_gives_each_villain_the_strategy_it_played_before(name):
    if name not in available_levels():
        pytest.skip(f"level {name} has no files here")
    level = Level(name)
    assert level.strategies() == {v: expected_name(name, v) for v in VILLAIN_KEYS}
    assert level.is_search == (name in ("search", "learned"))
    for villain in VILLAIN_KEYS:
        for matchup in MATCHUPS:
            if matchup is not None and villain not in matchup:
                continue
            # the spec the level gives is the one its strategy's name resolves to, in the same seating
            assert level.spec(villain, matchup) == play_spec(expected_name(name, villain), matchup)


@pytest.mark.parametrize(
    "text",
    ["wizard", "Wizard", "", "  ", "expert#gaston", "strong#gaston", "tuned-gaston", "fate-heavy", "configs/x.toml"],
)
def test_anything_else_is_refused_in_one_line_naming_it_and_the_levels(text):
    message = f"unknown level {text!r}; choose from {CHOICES}"
    for parse in (Level, Level.parse, lambda t: RunSettings(level=t)):
        with pytest.raises(InputError) as info:
            parse(text)
        assert str(info.value) == message


def test_a_bad_level_on_the_command_line_is_one_line_with_exit_code_2():
    res = CliRunner().invoke(app, ["run", "-m", "gaston-vs-horned-king", "-n", "5", "--level", "Wizard"])
    assert res.exit_code == 2 and res.output.strip() == f"error: unknown level 'Wizard'; choose from {CHOICES}"


def test_the_settings_hold_the_value_and_record_its_name():
    s = RunSettings(12, 3, " Novice ", {"gaston": "expert"})
    assert s.level == Level("novice") and s.level_name == "novice" and s.describe()["level"] == "novice"
    assert s.replace(seed=4).level is s.level  # a copy keeps the value, not its text
    assert s.strategies_for(GASTON_HK) == {"gaston": "expert", "horned-king": "novice"}
    assert RunSettings(level=Level("tuned")).level == RunSettings(level="TUNED").level
    assert RunSettings().level is None and RunSettings().level_name is None


@pytest.fixture
def parses(monkeypatch):
    """Every level parsed from text from here on: (text, ...) in order."""
    seen = []
    real = Level.__post_init__
    monkeypatch.setattr(Level, "__post_init__", lambda self: seen.append(self.name) or real(self))
    return seen


def test_a_run_reads_no_level_text(parses):
    settings = RunSettings(8, 1, "novice", max_turns=20, threads=1)
    assert parses == ["novice"]  # parsed once, here
    res = run("gaston-vs-horned-king", settings=settings, strategies={"gaston": "expert"}, keep_games=True)
    assert parses == ["novice"]  # the plan, the games, the label: the value
    assert res.strategies == ("expert", "novice") and res.play == "novice play; gaston: expert"


def test_the_run_command_reads_its_level_once(parses):
    args = ["run", "-m", "gaston-vs-horned-king", "-n", "8", "--max-turns", "20", "--level", "Novice", "--json"]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    assert parses == ["Novice"] and '"play": "novice play"' in res.output
