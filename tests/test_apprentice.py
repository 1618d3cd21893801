"""The apprentice: a policy fitted to another player's choices, played by a kernel that scores options as the fit
does, measured on games it was not fitted on."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from simlab.errors import InputError, StrategyError
from simlab.studies import learn
from strategies import apprentice, resolve

VILLAINS = ("gaston", "horned-king", "lady-tremaine")


@pytest.fixture(scope="module")
def tuned_decisions() -> pl.DataFrame:
    """The decisions of five tuned games per seating (2- and 3-player), with each option's look-ahead features."""
    return learn.self_play(learn.HELD_EVERY, 5, "tuned", VILLAINS, threads=1, decisions=True)[1]


@pytest.fixture(scope="module")
def model(tuned_decisions, tmp_path_factory):
    """Weights fitted to the tuned games' choices, and a strategy file playing them."""
    weights = learn.fit_apprentice(tuned_decisions)
    folder = tmp_path_factory.mktemp("apprentice")
    apprentice.write(weights, folder / "model.json", {"data": "five tuned games per seating, seed 5"})
    (folder / "apprentice.toml").write_text(
        'name = "test-apprentice"\nbase = "apprentice"\npolicy_model = "model.json"\n'
    )
    return weights, folder / "apprentice.toml"


def test_each_decision_lists_every_option_once_with_one_taken(tuned_decisions):
    per = tuned_decisions.group_by("seating", "game", "decision").agg(
        pl.len().alias("rows"), pl.col("options").first(), pl.col("chosen").sum(), pl.col("tuned_pick").sum()
    )
    assert per.height > 500
    assert (per["rows"] == per["options"]).all() and (per["options"] > 1).all()
    assert (per["chosen"] == 1).all() and (per["tuned_pick"] == 1).all()


def test_the_apprentice_in_play_takes_the_option_its_weights_score_best(model, tmp_path):
    """Games with the apprentice on every seat, recorded: at every decision the kernel took the option that its
    villain's weights score best on the recorded features (the same look-ahead world, the same sum). Lady
    Tremaine's weights are negated, so a seat scored with another villain's row would choose differently."""
    weights, _ = model
    weights = {**weights, "lady-tremaine": -weights["lady-tremaine"]}
    apprentice.write(weights, tmp_path / "model.json", {"data": "fitted, Lady Tremaine's weights negated"})
    strategy = tmp_path / "apprentice.toml"
    strategy.write_text('name = "test-apprentice"\nbase = "apprentice"\npolicy_model = "model.json"\n')
    decisions = learn.self_play(1, 9, str(strategy), ("gaston", "lady-tremaine"), threads=1, decisions=True)[1]
    taken = decisions.filter(pl.col("chosen"))["option"].to_numpy()
    expected = learn.apprentice_choices(weights, decisions)
    assert len(taken) > 300
    assert np.array_equal(taken, expected), f"{np.sum(taken != expected)} of {len(taken)} decisions differ"


def test_the_fit_learns_to_copy_a_choice_it_can_see(tuned_decisions):
    """Relabelled so that the option taken is always the tuned heuristic's (a feature the apprentice sees), the fit
    copies it on games it was not fitted on."""
    copied = tuned_decisions.with_columns(chosen=pl.col("tuned_pick") == 1)
    train, held = learn.split_games(copied)
    weights = learn.fit_apprentice(train)
    table = learn.agreement(weights, held)
    assert table.filter(pl.col("villain") == "all")["apprentice"].item() > 0.99


def test_agreement_is_measured_on_games_the_fit_never_saw(tuned_decisions):
    gaston = tuned_decisions.filter(pl.col("villain") == "gaston")  # one villain's fit: quicker
    train, held = learn.split_games(gaston)
    games = lambda f: set(f.select("seating", "game").unique().iter_rows())  # noqa: E731
    assert games(train) and games(held) and not games(train) & games(held)
    assert games(train) | games(held) == games(gaston)
    weights, table = learn.apprentice_step(gaston)
    assert table.equals(learn.agreement(learn.fit_apprentice(train), held))
    assert set(weights) == {"gaston"}
    every = table.filter(pl.col("villain") == "all")
    assert every["decisions"].item() == held.select(pl.struct("seating", "game", "decision").n_unique()).item()


def test_the_same_decisions_give_the_same_weights(tuned_decisions):
    lady = tuned_decisions.filter(pl.col("villain") == "lady-tremaine")
    a = learn.fit_apprentice(lady)
    b = learn.fit_apprentice(lady.clone())
    assert np.array_equal(a["lady-tremaine"], b["lady-tremaine"])


def test_apprentice_games_replay_exactly_on_any_thread_count(model):
    from simlab.runs.settings import RunSettings
    from simlab.runs.sim import run

    _, strategy = model
    strategies = {"gaston": str(strategy), "horned-king": str(strategy)}
    one = run("gaston-vs-horned-king", RunSettings(6, 3, threads=1), strategies=strategies, keep_games=True)
    two = run("gaston-vs-horned-king", RunSettings(6, 3, threads=2), strategies=strategies, keep_games=True)
    assert one.games.sort("game").equals(two.games.sort("game"))


def test_a_model_that_is_not_an_apprentice_model_is_refused(tmp_path, model):
    _, strategy = model
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": 1, "features": ["x"], "weights": {}}')
    toml = tmp_path / "bad.toml"
    toml.write_text('base = "apprentice"\npolicy_model = "bad.json"\n')
    with pytest.raises(StrategyError, match="other features"):
        resolve(str(toml)).vector()
    missing = tmp_path / "missing.toml"
    missing.write_text('base = "apprentice"\npolicy_model = "nowhere.json"\n')
    with pytest.raises(StrategyError, match="no file"):
        resolve(str(missing))
    expert = tmp_path / "expert.toml"
    expert.write_text(f'base = "expert"\npolicy_model = "{strategy.with_name("model.json")}"\n')
    with pytest.raises(StrategyError, match="setting of the apprentice player"):
        resolve(str(expert))


def test_the_apprentice_level_needs_its_shipped_model(monkeypatch, tmp_path):
    from simlab.runs.levels import Level, available_levels

    monkeypatch.setattr(apprentice, "MODEL_FILE", tmp_path / "none.json")
    with pytest.raises(InputError, match="make it with simlab learn"):
        Level("apprentice").strategy("gaston")
    assert "apprentice" not in available_levels()


TINY_SEARCH = 'name = "search-tiny"\nbase = "search"\n[params]\nsamples = 4\nhorizon = 1\nhalving = 0\nscreen = 0\n'


def test_a_recorded_search_game_keeps_what_the_search_measured_of_each_option(tmp_path):
    """Recording a search player's games keeps its estimate of every option (the mean gain over its rollout
    policy's option, and the worlds), plays the games as unrecorded play does, and its picks follow from them: the
    search leaves the reference option only for one it measured better."""
    from simlab.game.api import Game

    strategy = tmp_path / "search.toml"
    strategy.write_text(TINY_SEARCH)
    positions, decisions = learn.self_play(1, 4, str(strategy), ("gaston", "horned-king"), threads=1, decisions=True)
    per = decisions.group_by("seating", "game", "decision", maintain_order=True).agg(
        pl.col("search_worlds").max().alias("most"),
        (pl.col("search_worlds") == 0).sum().alias("unmeasured"),
        pl.col("search_gain").filter(pl.col("chosen")).first().alias("taken_gain"),
        (pl.col("chosen") & (pl.col("search_worlds") > 0)).any().alias("left_reference"),
    )
    searched = per.filter(pl.col("most") > 0)
    assert searched.height > 100
    assert (searched["unmeasured"] >= 1).all()  # the reference option: never measured against itself
    left = searched.filter(pl.col("left_reference"))
    assert left.height > 0 and (left["taken_gain"] > 0).all()
    assert decisions.filter(pl.col("search_worlds") == 0)["search_gain"].is_nan().all()
    # and what it estimates each option is worth: the reference's value too; with neither halving nor screening every
    # option is scored in every world, so an option's value is the reference's plus its gain
    reference = pl.col("search_value").filter(pl.col("search_worlds") == 0).first()
    valued = decisions.with_columns(reference=reference.over("seating", "game", "decision"))
    valued = valued.filter(pl.col("reference").is_not_nan())
    assert valued.select("seating", "game", "decision").n_unique() == searched.height
    assert valued["search_value"].is_between(0, 1).all() and valued["reference"].is_between(0, 1).all()
    measured = valued.filter(pl.col("search_worlds") > 0)
    np.testing.assert_allclose(measured["search_value"], measured["reference"] + measured["search_gain"], atol=1e-9)
    assert not decisions["search_value"].is_nan().any()  # this search leaves no kind to its rollout policy
    for order in ("gaston", "horned-king"), ("horned-king", "gaston"):
        played = Game.new(order, seed=4, game_index=0, strategies=(str(strategy),) * 2).play()
        recorded = positions.filter(pl.col("seating") == "-vs-".join(order), pl.col("seat") == 0)
        assert recorded["result"][0] == (0.5 if played.winner < 0 else float(played.winner == 0))
        assert recorded["turn"].max() <= played.rounds * 2
