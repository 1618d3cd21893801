"""Run settings: checked once, then handed to every study."""

from __future__ import annotations

import pytest

import simlab.runs.settings as settings_module
from simlab.errors import InputError, RuleError
from simlab.runs.settings import RunSettings
from simlab.runs.sim import run
from simlab.studies.matchups import matrix


@pytest.mark.parametrize(
    ("changes", "error", "needle"),
    [
        ({"games": 0}, InputError, "the number of games must be a whole number from 1 to 2**63 - 1, got 0"),
        ({"games": True}, InputError, "got True"),
        ({"seed": -1}, InputError, "seed must be an integer in [0, 2**63), got -1"),
        ({"level": "master"}, InputError, "unknown level 'master'; choose from random, novice, expert, tuned"),
        ({"strategies": {"jafar": "expert"}}, InputError, "villain 'jafar', which is not in the games; choose"),
        ({"strategies": {"gaston": "nobody"}}, InputError, "nobody"),
        ({"variants": {"get_out": "never"}}, RuleError, "rule variant get_out cannot be 'never'"),
        ({"max_turns": 0}, RuleError, "max_turns must be a positive integer of at most 10,000, got 0"),
        ({"threads": 0}, InputError, "threads must be between 1 and"),
        ({"edits": ["Get Out!:cost=-1"]}, InputError, "Get Out!"),
    ],
)
def test_bad_settings_are_refused_naming_the_value(changes, error, needle):
    with pytest.raises(error) as info:
        RunSettings(**changes)
    assert needle in str(info.value) and "\n" not in str(info.value)


def test_settings_are_normalised_and_name_each_villains_strategy():
    s = RunSettings(100, 3, "novice", {"gaston": "expert"}, {"get_out": "exactly_three"}, edits=["Temper:cost=2"])
    assert s.strategies == (("gaston", "expert"),) and s.variants == (("get_out", "exactly_three"),)
    assert s.strategies_for() == {"gaston": "expert", "lady-tremaine": "novice", "horned-king": "novice"}
    assert RunSettings().strategy("gaston") == "expert"  # no level: expert
    plan = s.plan(("horned-king", "gaston"), n_games=10, seed=5)
    assert (plan.villains, plan.strategies, plan.n_games, plan.seed) == (
        ("horned-king", "gaston"),
        ("novice", "expert"),
        10,
        5,
    )
    assert plan.variants == s.variants and plan.edits == s.edits
    assert s.plan(("gaston", "horned-king"), strategies={"gaston": "random"}).strategies == ("random", "novice")
    assert s.plan(("gaston", "gaston"), strategies=["random", "expert"]).strategies == ("random", "expert")
    with pytest.raises(InputError, match="one strategy per villain"):
        s.plan(("gaston", "gaston"), strategies=["random"])
    assert s.replace(seed=9).seed == 9 and s.replace(seed=9).strategies == s.strategies
    assert RunSettings(variants={"obstacles_cover_actions": True}).variants == (("obstacles_cover_actions", "yes"),)
    with pytest.raises(InputError):
        s.replace(games=-5)


def test_a_study_given_settings_checks_nothing_again(monkeypatch):
    """The checks run when the settings are made; a study playing five matchups does not repeat them."""
    s = RunSettings(8, 2, "novice", {"gaston": "random"})
    calls = []
    real = settings_module.check_games
    monkeypatch.setattr(settings_module, "check_games", lambda *a: calls.append(a) or real(*a))
    given = matrix(settings=s)
    assert calls == []
    monkeypatch.undo()
    assert given.table.equals(matrix(8, seed=2, strategies={"gaston": "random"}, level="novice").table)


def test_run_with_settings_uses_only_the_matchups_villains():
    s = RunSettings(12, 4, strategies={"lady-tremaine": "random", "gaston": "novice"})
    res = run("gaston-vs-horned-king", settings=s, keep_games=True)
    assert res.strategies == ("novice", "expert")
    assert res.games.equals(
        run("gaston-vs-horned-king", RunSettings(12, seed=4), strategies={"gaston": "novice"}, keep_games=True).games
    )
    with pytest.raises(TypeError, match="run takes its settings as one RunSettings"):
        run("gaston-vs-horned-king", 12)  # the games alone, as before settings were all a run took
    with pytest.raises(InputError, match="not in the matchup"):
        run("gaston-vs-horned-king", RunSettings(12, seed=4), strategies={"lady-tremaine": "random"})
