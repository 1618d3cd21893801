"""The learned value model: features a player may see, and a kernel that evaluates the model as scikit-learn does."""

from __future__ import annotations

import numpy as np
import pytest

from simlab.data.cards import load_cards
from simlab.game.api import Game
from simlab.kernels import const as K
from strategies.learned import features as F
from strategies.learned import value
from strategies.learned.features import ALL_FEATURE_NAMES, N_ALL_FEATURES, N_FEATURES, all_features_nb


def _view(g: Game, progress: np.ndarray):
    """A copy of ``g``'s state whose seats' parameter rows are heuristic vectors (as the recorder makes)."""
    from simlab.studies.learn import progress_view

    return progress_view(g.state, progress)


def _features(g: Game, st, seat: int, width: int = N_ALL_FEATURES) -> np.ndarray:
    """Seat ``seat``'s features of ``st``: all of them (the base ones first), or the first ``width``."""
    out = np.zeros(N_ALL_FEATURES)
    st.memo_ok[:] = 0
    all_features_nb(st, g.cards.tables, g.rules, seat, out)
    return out[:width]


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
            np.testing.assert_array_equal(before, after, err_msg=f"seat {seat}: {ALL_FEATURE_NAMES}")
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


def test_the_board_block_says_where_heroes_and_allies_stand_and_what_the_next_move_offers():
    # Gaston's mover at Belle's House; Belle (Strength 2) covers the Tavern's top row, where Wolves (1) and LeFou (2)
    # stand; no Obstacles. His next move can reach the Tavern (its bottom: play, vanquish), the Woods (play, discard;
    # fate, 2 Power) and Beast's Castle (play, fate; play, 1 Power).
    from conftest import build

    sc = build(
        {"mover": "Belle's House", "obstacles": 0, "realm": {"The Tavern": ["Belle", "Wolves", "LeFou"]}},
        {},
    )
    g = sc.game
    x = dict(zip(ALL_FEATURE_NAMES, _features(g, g.state, 0), strict=True))
    tavern = 1
    for loc in range(K.N_LOC):
        assert x[f"my_hero_strength_at_{loc}"] == (2 / 8 if loc == tavern else 0.0)
        assert x[f"my_ally_strength_at_{loc}"] == (3 / 8 if loc == tavern else 0.0)
        assert x[f"my_covered_at_{loc}"] == (1.0 if loc == tavern else 0.0)
    reach = {name: x[f"my_reach_{name}"] * 3 for name in K.SYMBOL_NAMES}
    assert reach == {
        "gain_power": 2,
        "play_card": 3,
        "activate": 0,  # the Tavern's, covered
        "move_item_or_ally": 0,
        "fate": 2,
        "vanquish": 1,
        "discard_cards": 1,  # Belle's House's own is not a move away
    }
    assert x["my_reach_top_gain"] == 2 / 4
    assert x["my_vanquishable"] == 1 / 2  # Wolves and LeFou, 3 Strength, defeat Belle
    assert x["rival_vanquishable"] == 0.0 and x["rival_covered_at_0"] == 0.0  # the Horned King's Realm is empty
    # LeFou gone, Wolves alone cannot defeat her; where Obstacles cover actions (a rule variant), those on every
    # spot cover the Woods' and the Castle's tops too
    realm = {"mover": "Belle's House", "realm": {"The Tavern": ["Belle", "Wolves"]}}
    sc = build(realm, {}, rules={"obstacles_cover_actions": "yes"})
    x = dict(zip(ALL_FEATURE_NAMES, _features(sc.game, sc.game.state, 0), strict=True))
    assert x["my_vanquishable"] == 0.0 and x["my_ally_strength_at_1"] == 1 / 8
    assert x["my_reach_discard_cards"] == 0.0 and x["my_reach_play_card"] * 3 == 2 and x["my_reach_fate"] * 3 == 1


def _positions(n: int = 4):
    from simlab.studies import learn

    return learn.positions(n, 3, "expert", villains=("gaston", "horned-king"))


@pytest.mark.parametrize("features", ["base", "key-cards", "board"])
def test_the_kernel_evaluates_the_model_as_scikit_learn_does(features):
    from simlab.studies import learn

    frame = _positions()
    x = learn.feature_matrix(frame, features)
    model = learn.fit_value(frame, features=features)
    assert model.features == value.FEATURE_SETS[features]
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
    with pytest.raises(ValueError, match="none of this version's feature sets"):
        value.read(path)
    for features in ("key-cards", "board"):
        wider = learn.fit_value(frame, features=features)
        value.write(wider, path)
        np.testing.assert_array_equal(value.read(path).weights, wider.weights)
        assert value.read(path).features == value.FEATURE_SETS[features]
    assert len(wider.weights) == value.model_width(N_ALL_FEATURES + value.N_PRODUCTS) == value.MODEL_WIDTH


def test_the_shipped_generations_models_read_as_the_base_features():
    # fitted before the key cards: they read the first N_FEATURES features, as they were fitted on
    from pathlib import Path

    for path in sorted(Path("reports/learning").glob("g*/value.json")):
        model = value.read(path)
        assert model.features == N_FEATURES, path
        assert len(model.weights) == value.model_width(value.N_INPUTS)


def test_the_card_data_fits_the_key_card_slots():
    from collections import Counter

    decks = Counter((c.villain, c.deck) for c in load_cards().cards)
    assert max(n for (_, d), n in decks.items() if d == "villain") <= F.N_VILLAIN_SLOTS
    assert max(n for (_, d), n in decks.items() if d == "fate") <= F.N_FATE_SLOTS


@pytest.mark.parametrize("villains", [("lady-tremaine", "gaston"), ("horned-king", "lady-tremaine", "gaston")])
def test_the_key_cards_count_each_card_where_it_is(villains):
    from collections import Counter

    from simlab.studies.learn import progress_vectors

    cards = load_cards()
    progress = progress_vectors(cards)

    def names(seat: int, deck: str, slots: np.ndarray) -> Counter:
        v = villains[seat]
        deck_cards = [c.name for c in cards.cards if c.villain == v and c.deck == deck]
        return Counter({deck_cards[j]: int(n) for j, n in enumerate(slots) if n})

    def held(st, seat: int, zone: int, bits: int) -> Counter:
        m = int(st.sv[seat, K.SV_ZONE + zone]) & bits
        return Counter(cards.cards[int(st.inst[seat, k, K.I_CARD])].name for k in range(K.N_INST) if m >> k & 1)

    from simlab.kernels.bits import FATE_BITS, VILLAIN_BITS

    seen = Counter()
    for index in range(3):
        g = _midgame(villains, index, rounds=6)
        st = _view(g, progress)
        for seat in range(len(villains)):
            x = _features(g, st, seat)
            rival = int(np.argmax(x[F.RIVAL_VILLAIN : F.RIVAL_VILLAIN + 3]))
            rival = next(s for s in range(len(villains)) if s != seat and int(st.sv[s, K.SV_VILLAIN]) == rival)
            n, f = F.N_VILLAIN_SLOTS, F.N_FATE_SLOTS
            expected = (
                (F.MY_HAND_CARD, n, seat, "villain", K.Z_HAND, VILLAIN_BITS),
                (F.MY_REALM_CARD, n, seat, "villain", K.Z_REALM, VILLAIN_BITS),
                (F.MY_DISCARD_CARD, n, seat, "villain", K.Z_VDISCARD, VILLAIN_BITS),
                (F.MY_REALM_FATE, f, seat, "fate", K.Z_REALM, FATE_BITS),
                (F.RIVAL_REALM_CARD, n, rival, "villain", K.Z_REALM, VILLAIN_BITS),
                (F.RIVAL_DISCARD_CARD, n, rival, "villain", K.Z_VDISCARD, VILLAIN_BITS),
            )
            for at, width, whose, deck, zone, bits in expected:
                got = names(whose, deck, x[at : at + width])
                assert got == held(st, whose, zone, bits), (at, whose)
                seen[at] += sum(got.values())
    assert all(seen[at] > 0 for at in (F.MY_HAND_CARD, F.MY_REALM_CARD, F.MY_DISCARD_CARD, F.MY_REALM_FATE))


def test_the_same_positions_give_the_same_model():
    from simlab.studies import learn

    a, b = _positions(2), _positions(2)
    assert a.equals(b)  # games replay exactly
    np.testing.assert_array_equal(learn.fit_value(a).weights, learn.fit_value(b).weights)


def test_a_result_is_a_win_and_a_loss_weighed_by_it():
    x = np.arange(8.0).reshape(4, 2)
    rows, labels, weights = value.training_rows(x, [1.0, 0.0, 0.5, 0.3], [2.0, 2.0, 2.0, 2.0])
    # every position first (a win unless lost), then a loss for each result strictly between 0 and 1
    np.testing.assert_array_equal(rows, x[[0, 1, 2, 3, 2, 3]])
    assert labels.tolist() == [1, 0, 1, 1, 0, 0]
    np.testing.assert_allclose(weights, [2.0, 2.0, 1.0, 0.6, 1.0, 1.4])


@pytest.fixture(scope="module", params=["base", "key-cards", "board"])
def small_model(tmp_path_factory, request):
    from simlab.studies import learn

    path = tmp_path_factory.mktemp("model") / "value.json"
    model = learn.fit_value(_positions(3), {"command": "test"}, features=request.param)
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
    np.testing.assert_array_equal(sp[search.MODEL_AT : search.MODEL_AT + len(model.weights)], model.weights)
    g = _midgame(("lady-tremaine", "horned-king"), 2)
    ws = _view(g, progress_vectors(load_cards()))
    x = np.zeros(search.N_SCRATCH)
    chances = np.array([model.predict(_features(g, ws, seat, model.features)[None, :])[0] for seat in range(2)])
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
