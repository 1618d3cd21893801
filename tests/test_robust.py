"""Robust verdicts and the leverage table: labels across settings, texts that never state a reversing verdict
as one sentence, readings read from the rule registry at run time, and the known large effect of
``obstacles_cover_actions=yes`` on the top of the table."""

from __future__ import annotations

import polars as pl
import pytest
from typer.testing import CliRunner

from simlab.cli import app
from simlab.data import rules
from simlab.errors import InputError
from simlab.studies.leverage import (
    leverage,
    leverage_summary,
    parse_perturbation,
    rule_perturbations,
    top_settings,
)
from simlab.studies.robust import label, label_verdicts, measures_at, robust_difficulty, setting_label

runner = CliRunner()


def test_labels():
    assert label([1, 1, 1]) == "holds" and label([-1, -1]) == "holds"
    assert label([1, 0, -1]) == "reverses" and label([-1, 1]) == "reverses"
    assert label([0, 0]) == "not significant" and label([1, 0, 1]) == "not significant"
    assert label([-1, 0]) == "not significant"


def test_measures_follow_the_level():
    assert measures_at("novice") == ("strength", "goldfish_turns")  # novice minus novice is no skill gap
    assert measures_at("expert") == ("strength", "skill_gap", "goldfish_turns", "fate_sensitivity")
    assert measures_at("random") == ("strength", "goldfish_turns")


def _setting(level, reading, a_rate, b_rate, z, p, measure="strength"):
    """One setting's verdict and the two measures it compares (a: gaston, b: lady-tremaine)."""
    diff = a_rate - b_rate
    sig = p < 0.05
    verdict = {
        "level": level,
        "reading": reading,
        "villain_a": "gaston",
        "villain_b": "lady-tremaine",
        "measure": measure,
        "difference": diff,
        "z": z,
        "p": p,
        "significant": sig,
        "direction": 0 if not sig else (1 if diff > 0 else -1),
    }
    rows = [
        {"level": level, "reading": reading, "villain": v, "measure": measure, "estimate": r, "low": r - 0.02}
        | {"high": r + 0.02, "se": 0.01, "games": 2000}
        for v, r in (("gaston", a_rate), ("lady-tremaine", b_rate))
    ]
    return verdict, rows


def _label(*settings):
    verdicts = [s[0] for s in settings]
    table = [r for s in settings for r in s[1]]
    out = label_verdicts(pl.DataFrame(verdicts), pl.DataFrame(table), ("gaston", "lady-tremaine"), "expert")
    return out.row(0, named=True)


def test_a_verdict_that_reverses_across_levels_names_both_directions():
    r = _label(
        _setting("novice", "default", 0.40, 0.55, -5.0, 1e-6),
        _setting("expert", "default", 0.60, 0.45, 6.0, 1e-9),
        _setting("expert", "obstacles_cover_actions=yes", 0.51, 0.50, 0.4, 0.7),
    )
    assert r["label"] == "reverses"
    text = r["verdict"]
    assert text.startswith("reverses: whether ")  # never one confident sentence
    assert "Gaston is stronger at expert (" in text and "Lady Tremaine is stronger at novice (" in text
    assert "no significant difference at expert with obstacles_cover_actions=yes" in text
    assert r["a_more"] == "expert" and r["b_more"] == "novice"


def test_not_significant_when_the_intervals_overlap_zero():
    r = _label(
        _setting("novice", "default", 0.50, 0.49, 0.5, 0.6), _setting("expert", "default", 0.52, 0.50, 1.2, 0.23)
    )
    assert r["label"] == "not significant"
    assert r["verdict"].startswith("not significant: no significant difference between Gaston and Lady Tremaine")
    assert "at any setting measured: novice (" in r["verdict"] and "expert (" in r["verdict"]
    # significant at one setting only: still not a verdict that holds, and the text says where it is significant
    r = _label(_setting("novice", "default", 0.50, 0.49, 0.5, 0.6), _setting("expert", "default", 0.60, 0.45, 6, 1e-9))
    assert r["label"] == "not significant"
    assert r["verdict"].startswith(
        "not significant at every setting: Gaston is stronger than Lady Tremaine only at expert"
    )
    assert "no significant difference at novice" in r["verdict"]


def test_a_verdict_that_holds_names_every_setting():
    r = _label(
        _setting("novice", "default", 0.60, 0.45, 4.0, 1e-4), _setting("expert", "default", 0.62, 0.40, 8, 1e-12)
    )
    assert r["label"] == "holds"
    assert r["verdict"].startswith(
        "holds: Gaston is stronger than Lady Tremaine at every setting measured (novice; expert)"
    )
    assert "weakest at novice (" in r["verdict"]


def test_setting_labels():
    assert setting_label("expert", "default") == "expert"
    assert setting_label("novice", "get_out=exactly_three") == "novice with get_out=exactly_three"


def test_rule_readings_come_from_the_registry_at_run_time(monkeypatch):
    extra = rules.RuleVariant("test_only", rules.RULE_VARIANTS["get_out"].index, {"a": 0, "b": 1, "c": 1}, "test")
    monkeypatch.setitem(rules.RULE_VARIANTS, "test_only", extra)
    settings = [p.setting for p in rule_perturbations()]
    assert "test_only=b" in settings and "test_only=c" in settings and "test_only=a" not in settings
    want = sum(len(v.values) - 1 for v in rules.RULE_VARIANTS.values())
    assert len(settings) == want
    assert "get_out=up_to_three" in [p.setting for p in rule_perturbations({"get_out": "exactly_three"})]


def test_perturbations_parse_and_refuse_in_one_line():
    p = parse_perturbation("obstacles_cover_actions=yes + board:Morva:flip")
    assert p.variants == (("obstacles_cover_actions", "yes"),) and [str(e) for e in p.edits] == ["board:Morva:flip"]
    assert p.villains == ("gaston", "lady-tremaine", "horned-king")  # a rule variant can change any game
    b = parse_perturbation("board:Morva:flip")
    assert b.kind == "board" and b.villains == ("horned-king",)
    assert not b.affects("gaston-vs-lady-tremaine") and b.affects("gaston-vs-horned-king")
    for text, message in (
        ("teleport=yes", "neither VARIANT=VALUE"),
        ("get_out=sometimes", "get_out cannot be 'sometimes'"),
        ("board:Morva:fly=top", "unknown board operation 'fly'"),
    ):
        with pytest.raises(InputError, match=message):
            parse_perturbation(text)
        res = runner.invoke(app, ["leverage", "-n", "5", "--no-rules", "--board", "none", "--perturb", text])
        assert res.exit_code == 2 and message in res.output and len(res.output.strip().splitlines()) == 1
    res = runner.invoke(app, ["leverage", "-n", "5", "--board", "most"])
    assert res.exit_code == 2 and "--board must be one of catalogue, none" in res.output


@pytest.fixture(scope="module")
def gaston_horned_king():
    """Rule readings on gaston-vs-horned-king, expert play, 200 games."""
    return leverage(200, seed=1, matchups=["gaston-vs-horned-king"], board="none", threads=2).table


def test_the_leverage_table_puts_obstacles_covering_actions_first(gaston_horned_king):
    # Known answer: obstacles_cover_actions=yes takes the Horned King from about 21% to about 70% against
    # Gaston at expert play (shared/reference); at 200 paired games the change's standard error
    # is about 5 points, so a change above +25 points is more than 4 standard errors inside the known one.
    t = gaston_horned_king
    assert t.height == 2 * len(rule_perturbations())  # every reading, both villains
    top = t.row(0, named=True)
    assert top["setting"] == "obstacles_cover_actions=yes" and top["significant"]
    hk = t.filter((pl.col("setting") == "obstacles_cover_actions=yes") & (pl.col("villain") == "horned-king"))
    assert hk["change"][0] > 0.25 and hk["change_low"][0] > 0.15
    assert top_settings(t, 1) == ["obstacles_cover_actions=yes"]
    # largest |change| first, each change the paired difference of its rates and inside its interval
    changes = t["change"].abs().to_list()
    assert changes == sorted(changes, reverse=True)
    for r in t.iter_rows(named=True):
        assert r["change"] == pytest.approx(r["rate"] - r["base_rate"])
        assert r["change_low"] <= r["change"] <= r["change_high"]
        assert r["significant"] == (r["change_low"] > 0 or r["change_high"] < 0)
    s = leverage_summary(t)
    assert s.height == len(rule_perturbations()) and s["setting"][0] == "obstacles_cover_actions=yes"


def test_board_readings_only_where_that_villain_plays():
    t = leverage(
        20,
        seed=2,
        rules=False,
        board=["board:Morva:flip"],
        matchups=["gaston-vs-lady-tremaine", "gaston-vs-horned-king"],
    ).table
    assert set(t["matchup"]) == {"gaston-vs-horned-king"} and set(t["setting"]) == {"board:Morva:flip"}


def test_a_strength_verdict_reverses_under_a_reading():
    # At expert play Gaston is stronger than the Horned King; with obstacles covering actions the Horned King
    # is (21% -> 70% head to head). Measured on strength only, the verdict must read "reverses".
    res = robust_difficulty(
        ("gaston", "horned-king"),
        ["expert"],
        ["obstacles_cover_actions=yes"],
        n_games=200,
        seed=3,
        measures=("strength",),
        threads=2,
    )
    assert list(res.readings["reading"]) == ["default", "obstacles_cover_actions=yes"]
    r = res.verdicts.row(0, named=True)
    assert r["label"] == "reverses", r["verdict"]
    assert "Gaston is stronger at expert (" in r["verdict"]
    assert "the Horned King is stronger at expert with obstacles_cover_actions=yes (" in r["verdict"]
    by = res.by_setting
    assert by.height == 2 and set(by["direction"]) == {1, -1}
    assert set(res.table["measure"]) == {"strength"}


def test_cli_difficulty_prints_labelled_verdicts(tmp_path, monkeypatch):
    import strategies.mixture as M

    monkeypatch.setattr(M, "MIXTURE_DIRS", (tmp_path / "none",))  # the shipped mixtures may not exist yet
    res = runner.invoke(
        app,
        ["difficulty", "--villain", "gaston", "--vs", "horned-king", "-n", "20", "--level", "novice"]
        + ["--headline-games", "20"]
        + ["--level", "expert", "--reading", "get_out=exactly_three", "--plots", str(tmp_path)],
    )
    assert res.exit_code == 0, res.output
    out = res.output
    # first the headline of the pair asked about, its skill trace and plot, then the study's verdicts
    head = out.index("headline: is each matchup balanced? (band 45%-55%")
    assert head < out.index("skill trace") < out.index("verdicts by question")
    assert "G-HK" in out[head:] and "G gaston, HK horned-king" in out and "LT" not in out
    assert "No equilibrium is shipped here" in out
    # the search level: the shipped learning run's generations, read from its files, not played
    from simlab.studies.generations import read_rungs

    top = read_rungs().top_level  # the shipped run's top rung, whichever generation it has reached
    assert f"search g0 to {top}: the learning run's own self-play values" in " ".join(out.split())
    assert (tmp_path / "skill_trace_gaston-vs-horned-king.png").is_file()
    assert "at strong play" in out and "for new players" in out
    assert "levels novice, expert; readings: default, get_out=exactly_three" in " ".join(out.split())
    assert "is Gaston stronger than the Horned King?" in out
    assert any(lab in out for lab in ("holds:", "reverses:", "not significant"))
    assert "for new players (novice, 2 of 2 settings)" in out  # novice at both readings, its own question
    res = runner.invoke(app, ["difficulty", "--level", "grandmaster"])
    assert res.exit_code == 2 and "unknown level 'grandmaster'" in res.output
    res = runner.invoke(app, ["difficulty", "--reading", "board:Nowhere:flip"])
    assert res.exit_code == 2 and "unknown location 'Nowhere'" in res.output


def test_readings_are_the_largest_significant_effects_of_the_screen():
    from simlab.studies.leverage import _sorted
    from simlab.studies.robust import choose_readings

    def row(setting, matchup, villain, change, significant):
        return (
            {"kind": "rule", "setting": setting, "matchup": matchup, "villain": villain, "base_rate": 0.5}
            | {"rate": 0.5 + change, "change": change, "change_low": change - (0.01 if significant else 0.5)}
            | {"change_high": change + 0.01, "significant": significant, "description": ""}
        )

    screen = _sorted(
        pl.DataFrame(
            [
                row("get_out=exactly_three", "gaston-vs-horned-king", "gaston", 0.05, True),
                row("get_out=exactly_three", "gaston-vs-lady-tremaine", "gaston", -0.20, True),
                row("lucifer_trap=on_play", "gaston-vs-lady-tremaine", "lady-tremaine", 0.30, False),
                row("obstacles_cover_actions=yes", "gaston-vs-horned-king", "horned-king", 0.40, True),
            ]
        )
    )
    picked, frame, _ = choose_readings(2, screen)
    assert [p.setting for p in picked] == ["obstacles_cover_actions=yes", "get_out=exactly_three"]
    assert list(frame["reading"]) == ["default", "obstacles_cover_actions=yes", "get_out=exactly_three"]
    assert frame["why"][2].endswith("gaston in gaston-vs-lady-tremaine -20.0%")  # its largest effect
    picked, frame, _ = choose_readings(5, screen)
    assert len(picked) == 2  # a reading whose effect is not significant is not used
    assert choose_readings(0, screen)[0] == []


def test_the_smallest_z_of_settings_without_any_is_nan_and_warns_nothing():
    import warnings

    import numpy as np

    from simlab.studies.robust import _min_abs

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan(_min_abs(np.array([np.nan, np.nan])))
        assert _min_abs(np.array([np.nan, -1.5, 2.0, np.inf])) == 1.5
