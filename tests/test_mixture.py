"""Mixed strategies in runs: each game draws its strategy by weight from (seed, game index), reproducibly, and a
game played by a mixture is the game its drawn strategy plays."""

from __future__ import annotations

import numpy as np
import pytest

from simlab.errors import InputError, StrategyError
from simlab.runs.seating import seat_table
from simlab.runs.settings import RunSettings
from simlab.runs.sim import run
from strategies import resolve
from strategies.mixture import draw_uniforms, load_mixture, mixture, seat_slots, slot_table

MATCHUP = "gaston-vs-horned-king"


def novice_expert(w_novice=0.3):
    return mixture("mix", [(resolve("novice"), w_novice), (resolve("expert"), 1 - w_novice)])


def test_draws_follow_the_weights_within_four_standard_errors():
    mix = novice_expert(0.3)
    _, draws = slot_table([mix, resolve("expert")])
    seats = seat_table(("gaston", "horned-king"), 40_000)
    slots = seat_slots(seats, draws, seed=5, first=0)
    gaston = np.where(seats == 0, slots, -1)
    share = float((gaston == 0).sum() / (gaston >= 0).sum())  # slot 0: novice
    rounds = 20_000  # the two games of a seat rotation draw alike
    assert abs(share - 0.3) < 4 * np.sqrt(0.3 * 0.7 / rounds)
    assert set(np.unique(np.where(seats == 1, slots, -1))) == {-1, 2}  # horned-king: expert, slot 2, always


def test_draws_do_not_depend_on_chunking_and_differ_by_seed():
    u = draw_uniforms(7, 0, 1000, 2, 2)
    assert np.array_equal(u, np.concatenate([draw_uniforms(7, 0, 333, 2, 2), draw_uniforms(7, 333, 667, 2, 2)]))
    assert np.array_equal(u[0::2], u[1::2])  # one draw a seat rotation
    assert not np.array_equal(u, draw_uniforms(8, 0, 1000, 2, 2))
    assert 0 <= u.min() and u.max() < 1
    # the two entries draw independently: their correlation is near zero
    assert abs(np.corrcoef(u[::2, 0], u[::2, 1])[0, 1]) < 4 / np.sqrt(500)


def test_a_mixture_of_one_strategy_plays_the_same_games_as_the_strategy():
    alone = mixture("expert only", [(resolve("expert"), 1.0)])
    a = run(MATCHUP, RunSettings(200, seed=2), strategies={"gaston": alone}, keep_games=True)
    b = run(MATCHUP, RunSettings(200, seed=2), strategies={"gaston": "expert"}, keep_games=True)
    assert a.games.equals(b.games)


def test_each_game_is_the_game_its_drawn_strategy_plays():
    mix = novice_expert(0.5)
    n, seed = 240, 11
    mixed = run(
        MATCHUP, RunSettings(n, seed=seed), strategies={"gaston": mix, "horned-king": "expert"}, keep_games=True
    ).games
    pure = {
        name: run(
            MATCHUP, RunSettings(n, seed=seed), strategies={"gaston": name, "horned-king": "expert"}, keep_games=True
        ).games
        for name in ("novice", "expert")
    }
    _, draws = slot_table([mix, resolve("expert")])
    seats = seat_table(("gaston", "horned-king"), n)
    slot = seat_slots(seats, draws, seed, 0)
    drawn = np.where(seats[:, 0] == 0, slot[:, 0], slot[:, 1])  # gaston's slot in each game
    assert 0.3 < np.mean(drawn == 0) < 0.7
    for name, s in (("novice", 0), ("expert", 1)):
        rows = np.flatnonzero(drawn == s)
        assert mixed[rows].equals(pure[name][rows]), name
    assert not pure["novice"]["winner"].equals(pure["expert"]["winner"])  # the check can tell the two apart


def test_mixture_weights_are_checked():
    with pytest.raises(StrategyError, match="at least 0"):
        mixture("m", [(resolve("expert"), -0.1), (resolve("novice"), 1)])
    with pytest.raises(StrategyError, match="sum to more than 0"):
        mixture("m", [(resolve("expert"), 0.0)])
    m = mixture("m", [(resolve("expert"), 3), (resolve("novice"), 0), (resolve("random"), 1)])
    assert [s.name for s, _ in m.components] == ["expert", "random"]
    assert np.allclose(m.weights, [0.75, 0.25])
    assert m.most_weighted().name == "expert"


def test_a_mixture_file_names_each_villains_mixture(tmp_path):
    path = tmp_path / "eq.toml"
    path.write_text(
        'matchup = "gaston-vs-horned-king"\n'
        '[[strategy]]\nvillain = "gaston"\nweight = 0.25\nbase = "novice"\n'
        '[[strategy]]\nvillain = "gaston"\nweight = 0.75\nname = "sharp"\nbase = "expert"\n'
        "[strategy.params]\nobstacle_value = 6.0\n"
        '[[strategy]]\nvillain = "horned-king"\nweight = 1\nbase = "expert"\n'
    )
    g = load_mixture(f"{path}#gaston")
    assert [(s.name, w) for s, w in g.components] == [("gaston-1", 0.25), ("sharp", 0.75)]
    assert g.components[1][0].params["obstacle_value"] == 6.0
    res = run(
        MATCHUP, RunSettings(40, seed=1), strategies={"gaston": f"{path}#gaston", "horned-king": f"{path}#horned-king"}
    )
    assert res.n_games == 40
    with pytest.raises(InputError, match="no strategy for 'lady-tremaine'"):
        load_mixture(f"{path}#lady-tremaine")
    with pytest.raises(InputError, match="no mixture file 'nowhere'"):
        load_mixture("nowhere#gaston")
    (tmp_path / "bad.toml").write_text('[[strategy]]\nvillain = "gaston"\nweight = "a lot"\nbase = "expert"\n')
    with pytest.raises(InputError, match="weight must be a number"):
        load_mixture(f"{tmp_path / 'bad.toml'}#gaston")


# ---------------------------------------------------------------------------- the strong level

EQ_FILE = """matchup = "gaston-vs-horned-king"
[[strategy]]
villain = "gaston"
weight = 0.25
name = "g-novice"
base = "novice"
[[strategy]]
villain = "gaston"
weight = 0.75
name = "g-expert"
base = "expert"
[[strategy]]
villain = "horned-king"
weight = 1.0
name = "hk-expert"
base = "expert"
"""


@pytest.fixture
def shipped(tmp_path, monkeypatch):
    import strategies.mixture as M

    (tmp_path / "gaston-vs-horned-king.toml").write_text(EQ_FILE)
    monkeypatch.setattr(M, "MIXTURE_DIRS", (tmp_path,))
    return tmp_path


def test_the_strong_level_plays_the_pairings_equilibrium(shipped):
    from simlab.runs.levels import available_levels, level_strategies
    from strategies.mixture import play_spec

    assert "strong" in available_levels(("gaston", "horned-king"))
    assert "strong" not in available_levels(("gaston", "lady-tremaine"))  # no equilibrium with lady-tremaine
    names = level_strategies("strong", ("gaston", "horned-king"))
    assert names == {"gaston": "strong#gaston", "horned-king": "strong#horned-king"}
    mix = play_spec("strong#gaston", ("gaston", "horned-king"))
    assert [(s.name, w) for s, w in mix.components] == [("g-novice", 0.25), ("g-expert", 0.75)]
    a = run(MATCHUP, RunSettings(200, seed=3, level="strong"), keep_games=True)
    b = run(MATCHUP, RunSettings(200, seed=3), strategies={"gaston": mix, "horned-king": "expert"}, keep_games=True)
    assert a.games.equals(b.games)
    assert a.strategies[0].startswith("strong (gaston-vs-horned-king equilibrium)")


def test_without_a_pairings_equilibrium_strong_plays_the_most_weighted_strategy(shipped):
    from strategies.mixture import play_spec

    mirror = play_spec("strong#gaston", ("gaston", "gaston"))
    assert [(s.name, w) for s, w in mirror.components] == [("g-expert", 1.0)]
    assert "most-weighted" in mirror.description and "gaston-vs-horned-king" in mirror.description
    three = play_spec("strong#horned-king", ("gaston", "lady-tremaine", "horned-king"))
    assert [s.name for s, _ in three.components] == ["hk-expert"] and "3-player" in three.description


def test_the_strong_level_without_an_equilibrium_says_how_to_make_one(shipped):
    from simlab.runs.levels import level_strategies

    with pytest.raises(InputError, match="simlab equilibrium --all"):
        level_strategies("strong", ("lady-tremaine",))
