"""The learned value model: features a player may see, and a kernel that evaluates the model as scikit-learn does."""

from __future__ import annotations

import numpy as np
import pytest

from simlab.data.cards import load_cards
from simlab.game.api import Game
from simlab.kernels import const as K
from simlab.kernels.state import new_state
from strategies.learned import value
from strategies.learned.features import FEATURE_NAMES, N_FEATURES, features_nb


def _view(g: Game, progress: np.ndarray):
    """A copy of ``g``'s state whose seats' parameter rows are heuristic vectors (as the recorder makes)."""
    from strategies.search import copy_state_nb

    st = g.state
    work = new_state(int(st.g[K.G_NSEATS]), 0)
    copy_state_nb(work, st)
    for s in range(int(st.g[K.G_NSEATS])):
        work.sparams[s, : progress.shape[1]] = progress[int(st.sv[s, K.SV_VILLAIN])]
    return work


def _features(g: Game, st, seat: int) -> np.ndarray:
    out = np.zeros(N_FEATURES)
    st.memo_ok[:] = 0
    features_nb(st, g.cards.tables, g.rules, seat, out)
    return out


def _midgame(villains, index: int, rounds: int = 4) -> Game:
    g = Game.new(villains, seed=11, game_index=index)
    while not g.over and g.rounds < rounds:
        g.play(50)
    return g


@pytest.mark.parametrize("villains", [("gaston", "horned-king"), ("lady-tremaine", "gaston", "horned-king")])
def test_redrawing_the_hidden_cards_leaves_a_seats_features_unchanged(villains):
    from simlab.studies.learn import progress_vectors
    from strategies.search import determinise_nb

    progress = progress_vectors(load_cards())
    changed = 0
    for index in range(4):
        g = _midgame(villains, index)
        for seat in range(len(villains)):
            st = _view(g, progress)
            before = _features(g, st, seat)
            hands = [st.sv[s, K.SV_ZONE + K.Z_HAND] for s in range(len(villains))]
            decks = st.vdeck.copy()
            rng = np.array([12345 + seat + 7 * index], np.uint64)
            determinise_nb(st, seat, rng, np.zeros(K.N_INST, np.int64))
            other = [s for s in range(len(villains)) if s != seat]
            changed += any(st.sv[s, K.SV_ZONE + K.Z_HAND] != hands[s] for s in other) or (st.vdeck != decks).any()
            after = _features(g, st, seat)
            np.testing.assert_array_equal(before, after, err_msg=f"seat {seat}: {FEATURE_NAMES}")
    assert changed > 0  # the redraw did hide something: the check could fail


def test_an_opponents_hidden_hand_would_change_the_features_if_they_read_it():
    # the check above can fail: the own hand's features (which only its owner sees) move when its cards are redrawn
    from simlab.studies.learn import progress_vectors
    from strategies.search import determinise_nb

    progress = progress_vectors(load_cards())
    moved = 0
    for index in range(6):
        g = _midgame(("gaston", "horned-king"), index)
        st = _view(g, progress)
        before = _features(g, st, 0)
        determinise_nb(st, 1, np.array([99 + index], np.uint64), np.zeros(K.N_INST, np.int64))  # seat 1's view
        moved += not np.array_equal(before, _features(g, st, 0))
    assert moved > 0


def _positions(n: int = 4):
    from simlab.studies import learn

    return learn.positions(n, 3, "expert", villains=("gaston", "horned-king"))


def test_the_kernel_evaluates_the_model_as_scikit_learn_does():
    from simlab.studies import learn

    frame = _positions()
    x = learn.feature_matrix(frame)
    model = learn.fit_value(frame)
    library = model.pipeline.predict_proba(value.expand(x))[:, 1]
    h = np.zeros(value.HIDDEN)
    kernel = np.array([value.value_nb(row.copy(), model.weights, h) for row in x[:200]])
    np.testing.assert_allclose(kernel, library[:200], rtol=0, atol=1e-9)
    np.testing.assert_allclose(model.predict(x), library, rtol=0, atol=1e-9)
    assert 0 < library.min() < library.max() < 1


def test_a_shipped_model_reads_back_the_same_and_refuses_other_inputs(tmp_path):
    from simlab.studies import learn

    frame = _positions(2)
    model = learn.fit_value(frame, {"command": "test", "games": 2})
    path = tmp_path / "value.json"
    value.write(model, path)
    back = value.read(path)
    np.testing.assert_array_equal(back.weights, model.weights)
    assert back.provenance == {"command": "test", "games": 2}
    bad = path.read_text().replace('"my_progress"', '"my_progress_old"')
    path.write_text(bad)
    with pytest.raises(ValueError, match="not this version's features"):
        value.read(path)


def test_the_same_positions_give_the_same_model():
    from simlab.studies import learn

    a, b = _positions(2), _positions(2)
    assert a.equals(b)  # games replay exactly
    np.testing.assert_array_equal(learn.fit_value(a).weights, learn.fit_value(b).weights)


@pytest.fixture(scope="module")
def small_model(tmp_path_factory):
    from simlab.studies import learn

    path = tmp_path_factory.mktemp("model") / "value.json"
    model = learn.fit_value(_positions(3), {"command": "test"})
    value.write(model, path)
    return model, path


def test_a_search_player_reads_its_learned_value_model_as_the_model_predicts(small_model, tmp_path):
    from simlab.studies.learn import progress_vectors
    from strategies import resolve, search

    model, path = small_model
    file = tmp_path / "search-learned.toml"
    file.write_text(f'base = "search"\nvalue_model = "{path}"\n[params]\nvalue = 2\n')
    spec = resolve(str(file))
    sp = spec.vector()
    np.testing.assert_array_equal(sp[search.MODEL_AT : search.MODEL_AT + value.MODEL_WIDTH], model.weights)
    g = _midgame(("lady-tremaine", "horned-king"), 2)
    ws = _view(g, progress_vectors(load_cards()))
    x = np.zeros(search.N_SCRATCH)
    chances = np.array([model.predict(_features(g, ws, seat)[None, :])[0] for seat in range(2)])
    for seat in range(2):
        ws.memo_ok[:] = 0
        got = search.learned_value_nb(ws, g.cards.tables, g.rules, seat, sp, x)
        assert abs(got - chances[seat] / chances.sum()) < 1e-9


def test_a_learned_value_needs_its_model_file_and_a_search_base(small_model, tmp_path):
    from simlab.errors import StrategyError
    from strategies import resolve

    _, path = small_model
    bad = tmp_path / "no-model.toml"
    bad.write_text('base = "search"\n[params]\nvalue = 2\n')
    with pytest.raises(StrategyError, match="needs value_model"):
        resolve(str(bad))
    heuristic = tmp_path / "expert-model.toml"
    heuristic.write_text(f'base = "expert"\nvalue_model = "{path}"\n')
    with pytest.raises(StrategyError, match="setting of the search player"):
        resolve(str(heuristic))
    missing = tmp_path / "missing.toml"
    missing.write_text('base = "search"\nvalue_model = "nowhere.json"\n[params]\nvalue = 2\n')
    with pytest.raises(StrategyError, match="no file"):
        resolve(str(missing))


def test_a_generation_that_is_not_stronger_is_refused():
    from simlab.studies.learn import accepted, gain_interval

    rng = np.random.default_rng(0)

    def gains(shift):
        return {v: gain_interval(rng.choice([-1.0, 0.0, 1.0], 2000, p=[0.2 - shift, 0.6, 0.2 + shift])) for v in "abc"}

    ok, why = accepted(gains(0.05))
    assert ok and why.startswith("accepted")
    ok, why = accepted(gains(0.0))
    assert not ok and "not above 0" in why
    weaker = gains(0.05)
    weaker["b"] = gain_interval(rng.choice([-1.0, 0.0, 1.0], 2000, p=[0.3, 0.6, 0.1]))
    ok, why = accepted(weaker)
    assert not ok and "b weaker" in why


@pytest.mark.slow
def test_a_generation_no_different_from_the_last_gains_nothing_paired():
    from simlab.studies.learn import paired_gain

    same = paired_gain("gaston", "expert", "expert", 60, 4, threads=1)
    assert same["gain"] == 0.0 and same["games"] == 120  # the same strategy on the same games: the same results
    better = paired_gain("gaston", "expert", "novice", 200, 4, threads=1)
    assert better["low"] > 0  # expert over novice, paired: a gain the interval shows
