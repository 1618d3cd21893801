"""The search player: its determinisation, that it reads no hidden information, and that it plays every decision."""

from __future__ import annotations

import re

import numpy as np
import pytest
from scipy import stats

import simlab.game.driver as driver
from simlab.errors import StrategyError
from simlab.game.api import Game
from simlab.game.scenario import Scenario
from simlab.kernels import const as K
from simlab.kernels.rules import advance_nb, apply_nb
from simlab.kernels.state import copy_state, index_zones_nb
from simlab.runs.settings import RunSettings
from strategies import StrategySpec, load_strategy_file, resolve, search

ALL = 1 << 62


@pytest.fixture(autouse=True, scope="module")
def _search_compiled():
    """The search player compiles on first use; these tests call the driver's kernels directly."""
    from simlab.game import warmup

    warmup.ensure(search=True)


@pytest.mark.slow
def test_search_fails_clearly_until_compiled():
    """Before ``bind_search`` the driver's search entry raises (here: after it, it plays; see the other tests)."""
    assert driver.search_bound()
    import subprocess
    import sys

    code = (
        "import numpy as np; from simlab.game import warmup; warmup.ensure(); import simlab.game.driver as d; "
        "from simlab.game.api import Game; from simlab.kernels import const as K; "
        "g = Game.new('gaston-vs-horned-king', seed=0, strategies=('expert', 'expert')); "
        "g.state.sv[:, K.SV_STRATEGY] = 2; "
        "from simlab.kernels.rules import advance_nb; advance_nb(g.state, g.cards.tables, g.rules, 1 << 62); "
        "d.choose_nb(g.state, g.cards.tables, g.rules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert out.returncode != 0 and "the search player is not compiled" in out.stderr, out.stderr[-2000:]


def positions(matchup: str, count: int, seed: int = 0, kinds=None) -> list:
    """``count`` (state, tables, rules) pairs waiting for a decision, taken from expert games at varied points."""
    out = []
    gi = 0
    while len(out) < count:
        g = Game.new(matchup, seed=seed, game_index=gi)
        g.play(30 + (37 * gi) % 150)
        gi += 1
        st, tb, ru = g.state, g.cards.tables, g.rules
        while advance_nb(st, tb, ru, ALL):
            if kinds is None or int(st.g[K.G_PEND_KIND]) in kinds:
                out.append((copy_state(st), tb, ru))
                break
            apply_nb(st, driver.choose_nb(st, tb, ru))
    return out


def hide_differently(st, observer: int, rng: np.random.Generator):
    """The same position with the hidden cards placed otherwise (written apart from the kernel under test):
    every deck reordered, each opponent's hand dealt again from its hand and deck."""
    st = copy_state(st)
    for s in range(int(st.g[K.G_NSEATS])):
        nf = int(st.sv[s, K.SV_FDECK_N])
        st.fdeck[s, :nf] = rng.permutation(st.fdeck[s, :nf])
        nv = int(st.sv[s, K.SV_VDECK_N])
        hand = [k for k in range(K.N_VCARDS) if st.inst[s, k, K.I_ZONE] == K.Z_HAND] if s != observer else []
        pool = rng.permutation(list(st.vdeck[s, :nv]) + hand)
        for k in pool[: len(hand)]:
            st.inst[s, k, K.I_ZONE] = K.Z_HAND
        for i, k in enumerate(pool[len(hand) :]):
            st.vdeck[s, i] = k
            st.inst[s, k, K.I_ZONE] = K.Z_VDECK
    index_zones_nb(st)
    return st


def visible(st, observer: int) -> dict:
    """Everything ``observer`` can see: all but the order of the decks and which unseen cards an opponent holds."""
    P = int(st.g[K.G_NSEATS])
    # the seat values but the zone masks (instances per zone: they say which unseen instance is where; the
    # zones of the cards seen are compared below, and consistent() checks the masks agree with the zones)
    out = {"g": st.g.copy(), "sv": st.sv[:, : K.SV_ZONE].copy(), "opts": st.opts[: st.g[K.G_NOPT]].copy()}
    out["g"][K.G_MEMO_KEPT] = 0  # a strategy's bookkeeping (whether its memo may be kept), not the position
    out["fr"] = st.fr[: st.g[K.G_SP]].copy()
    for s in range(P):
        for k in range(K.N_INST):
            zone = int(st.inst[s, k, K.I_ZONE])
            hidden = zone in (K.Z_VDECK, K.Z_FDECK) or (zone == K.Z_HAND and s != observer)
            out[(s, k)] = ("unseen",) if hidden else tuple(st.inst[s, k, : K.I_FLAGS])
        out[(s, "unseen cards")] = sorted(
            int(st.inst[s, k, K.I_CARD])
            for k in range(K.N_INST)
            if out[(s, k)] == ("unseen",) and st.inst[s, k, K.I_ZONE] != K.Z_FDECK
        )
        out[(s, "fate deck")] = sorted(int(st.inst[s, k, K.I_CARD]) for k in st.fdeck[s, : st.sv[s, K.SV_FDECK_N]])
        out[(s, "hand size")] = int(np.sum(st.inst[s, : K.N_VCARDS, K.I_ZONE] == K.Z_HAND))
    return out


def same_view(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def determinised(st, observer: int, seed: int):
    w = copy_state(st)
    search.determinise_nb(w, observer, np.array([seed], np.uint64), np.zeros(K.N_INST, np.int64))
    return w


def consistent(st) -> bool:
    """Deck arrays and zones agree (every deck entry is a distinct card of that deck's zone, and vice versa), and
    so do the zone masks."""
    for s in range(int(st.g[K.G_NSEATS])):
        for z in range(K.N_ZONES):
            if int(st.sv[s, K.SV_ZONE + z]) != sum(1 << k for k in range(K.N_INST) if st.inst[s, k, K.I_ZONE] == z):
                return False
        for deck, n, zone in ((st.vdeck, K.SV_VDECK_N, K.Z_VDECK), (st.fdeck, K.SV_FDECK_N, K.Z_FDECK)):
            listed = list(deck[s, : st.sv[s, n]])
            if len(set(listed)) != len(listed) or any(st.inst[s, k, K.I_ZONE] != zone for k in listed):
                return False
            if sum(st.inst[s, k, K.I_ZONE] == zone for k in range(K.N_INST)) != len(listed):
                return False
    return True


# ============================================================================ determinisation


@pytest.fixture(scope="module")
def mid_game():
    return positions("gaston-vs-horned-king", 6) + positions("lady-tremaine-vs-gaston-vs-horned-king", 6, seed=3)


def test_determinise_keeps_what_the_observer_sees(mid_game):
    for st, _, _ in mid_game:
        for observer in range(int(st.g[K.G_NSEATS])):
            w = determinised(st, observer, 99 + observer)
            assert same_view(visible(w, observer), visible(st, observer))
            assert consistent(w)
            assert np.array_equal(w.rng, st.rng)  # the world's stream is reseeded by the search, not here


def test_determinise_depends_only_on_what_the_observer_sees(mid_game):
    rng = np.random.default_rng(0)
    for st, _, _ in mid_game:
        observer = int(st.g[K.G_PEND_PLAYER])
        other = hide_differently(st, observer, rng)
        assert same_view(visible(other, observer), visible(st, observer))
        a, b = determinised(st, observer, 5), determinised(other, observer, 5)
        assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def test_determinise_deals_unseen_cards_uniformly(mid_game):
    """Each of an opponent's unseen Villain cards is in the redrawn hand with probability hand / unseen, and each
    card of the observer's own deck is on top with probability 1 / deck (within 4 standard errors)."""
    st, _, _ = mid_game[0]
    observer, opp = 0, 1
    unseen = [k for k in range(K.N_VCARDS) if st.inst[opp, k, K.I_ZONE] in (K.Z_HAND, K.Z_VDECK)]
    own = list(st.vdeck[observer, : st.sv[observer, K.SV_VDECK_N]])
    hand = int(np.sum(st.inst[opp, : K.N_VCARDS, K.I_ZONE] == K.Z_HAND))
    assert hand >= 1 and len(unseen) > hand and len(own) >= 2
    draws = 3000
    in_hand = dict.fromkeys(unseen, 0)
    on_top = dict.fromkeys(own, 0)
    for i in range(draws):
        w = determinised(st, observer, 1000 + i)
        for k in unseen:
            in_hand[k] += w.inst[opp, k, K.I_ZONE] == K.Z_HAND
        on_top[w.vdeck[observer, w.sv[observer, K.SV_VDECK_N] - 1]] += 1
    for counts, p in ((in_hand, hand / len(unseen)), (on_top, 1 / len(own))):
        se = np.sqrt(draws * p * (1 - p))
        assert all(abs(c - draws * p) < 4 * se for c in counts.values()), (counts, p)


def test_a_determinised_world_plays_to_the_end(mid_game):
    for st, tb, ru in mid_game:
        w = determinised(st, int(st.g[K.G_PEND_PLAYER]), 7)
        driver.play_nb(w, tb, ru, ALL)
        assert w.g[K.G_PHASE] == K.PH_OVER and consistent(w)


# ============================================================================ no hidden information


def _choice(st, tb, ru, spec: StrategySpec, stream: int) -> int:
    c = copy_state(st)
    p = int(c.g[K.G_PEND_PLAYER])
    c.sv[p, K.SV_STRATEGY] = spec.kernel
    c.sparams[p] = spec.vector()
    c.rng[0] = np.uint64(stream)
    return int(driver.choose_nb(c, tb, ru))


def _homogeneity_p(pairs) -> float:
    """p-value that each position's choices come from one distribution in both versions (chi-square, pooled)."""
    chi2 = dof = 0.0
    for a, b in pairs:
        table = np.array([np.bincount(a, minlength=K.MAX_OPTS), np.bincount(b, minlength=K.MAX_OPTS)])
        table = table[:, table.sum(axis=0) > 0]
        if table.shape[1] > 1:
            res = stats.chi2_contingency(table, correction=False)
            chi2 += res.statistic
            dof += res.dof
    return float(stats.chi2.sf(chi2, dof)) if dof else 1.0


@pytest.mark.slow
def test_search_choices_do_not_depend_on_hidden_cards():
    """Same visible position, hidden cards placed otherwise: the search's choices have the same distribution
    (and with the same stream they are identical); a search that reads the true hidden cards fails both."""
    base = resolve("search").params
    honest = StrategySpec("honest", "", 2, {**base, "samples": 4, "horizon": 2, "confidence": 0})
    cheat = StrategySpec("cheat", "", 2, {**honest.params, "cheat": 1})
    rng = np.random.default_rng(1)
    n = 12
    results = {}
    for spec in (honest, cheat):
        pairs, identical = [], True
        for st, tb, ru in positions("gaston-vs-horned-king", 20, seed=4, kinds=(K.DK_MOVE, K.DK_ACTION)):
            other = hide_differently(st, int(st.g[K.G_PEND_PLAYER]), np.random.default_rng(rng.integers(1 << 30)))
            a = [_choice(st, tb, ru, spec, s) for s in range(n)]
            b = [_choice(other, tb, ru, spec, s) for s in range(n)]
            identical &= a == b
            pairs.append((a, [_choice(other, tb, ru, spec, s) for s in range(n, 2 * n)]))
        results[spec.name] = (identical, _homogeneity_p(pairs))
    assert results["honest"][0] and results["honest"][1] > 0.01, results
    assert not results["cheat"][0] and results["cheat"][1] < 1e-4, results


# ============================================================================ playing


def _search(**params) -> StrategySpec:
    return StrategySpec("search-test", "", 2, {**resolve("search").params, **params})


def test_search_answers_a_condition_on_an_opponents_turn():
    # Horned King's 4th action: Gaston may play Beautiful as Me (remove 1 Obstacle) from his hand.
    sc = Scenario.build(
        {
            "villains": ["horned-king", "gaston"],
            "active": 0,
            "actions_taken": 3,
            "seats": [{"power": 5, "mover": "Morva"}, {"hand": ["Beautiful as Me", "Wolves", "Wolves", "Temper"]}],
        }
    )
    while sc.decision.player != 1:
        sc.apply(sc.suggest("expert").index)
    assert sc.decision.kind == "condition"
    spec = _search(samples=4, horizon=1)
    assert sc.suggest(spec).label == "card Beautiful as Me"


def test_search_makes_fate_choices():
    sc = Scenario.build(
        {
            "villains": ["gaston", "lady-tremaine"],
            "seats": [{"power": 2, "mover": "Beast's Castle", "hand": ["Wolves", "Wolves", "The Mob", "Temper"]}, {}],
        }
    )
    sc.apply("fate")
    assert sc.decision.kind == "fate_pick" and sc.decision.player == 0
    label = sc.suggest(_search(samples=2, horizon=0)).label
    assert label in [o.label for o in sc.options()]


def test_search_plays_whole_games_of_two_and_three():
    spec = _search(samples=2, horizon=0)
    for villains in (("gaston", "lady-tremaine"), ("lady-tremaine", "horned-king", "gaston")):
        g = Game.new(villains, seed=2, strategies=(spec, "expert", "expert")[: len(villains)]).play()
        assert g.over and g.state.g[K.G_DECISIONS] > 50


# ============================================================================ parameters


def test_rollout_parameters_are_each_villains_rollout_strategy():
    from simlab.data.cards import VILLAIN_KEYS, load_cards

    vec = resolve("search").vector()
    cards = load_cards()
    for v in VILLAIN_KEYS:
        row = cards.villain(v).row
        block = vec[search.HEADER + row * search.STRIDE : search.HEADER + (row + 1) * search.STRIDE]
        assert np.array_equal(block, resolve(search.rollout_strategy(2, v, resolve)).vector()[: search.STRIDE])
    assert np.array_equal(vec[: len(search.PARAM_NAMES)], [resolve("search").params[p] for p in search.PARAM_NAMES])


def test_a_villains_own_budget_is_what_its_seat_searches_with(tmp_path):
    """Gaston's own horizon in a file plays his seat as a file with that horizon for everyone does, the other seat
    as the common horizon; unset, every seat reads the common budget."""
    from simlab.data.cards import VILLAIN_KEYS, load_cards
    from simlab.runs.sim import simulate

    def file(name: str, params: str, samples: int = 2) -> str:
        path = tmp_path / f"{name}.toml"
        path.write_text(f'base = "search"\n[params]\nsamples = {samples}\nhalving = 0\nscreen = 0\n{params}')
        return str(path)

    own = file("own", "horizon = 2\nhorizon_gaston = 0\nsamples_gaston = 3\n")
    short, long = file("short", "horizon = 0\n", samples=3), file("long", "horizon = 2\n")
    vec, cards = resolve(own).vector(), load_cards()
    budgets = {v: tuple(vec[search.BUDGET_AT + 2 * cards.villain(v).row :][:2]) for v in VILLAIN_KEYS}
    assert budgets == {"gaston": (3, 0), "lady-tremaine": (2, 2), "horned-king": (2, 2)}

    def games(gaston: str, horned_king: str):
        chosen = {"gaston": gaston, "horned-king": horned_king}
        return simulate("gaston-vs-horned-king", RunSettings(4, seed=5, threads=1), strategies=chosen).games

    mixed = games(own, own)
    assert mixed.equals(games(short, long))
    assert not mixed.equals(games(long, long))  # the budget changes the play, so the comparison can fail


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        (
            "samples_lady_tremaine",
            1.5,
            "params.samples_lady_tremaine must be a whole number of worlds, 0 (the samples setting) or more, got 1.5",
        ),
        (
            "horizon_horned_king",
            -3,
            "params.horizon_horned_king must be a whole number of turns, -1 (to the end) or -2 "
            "(the horizon setting), got -3",
        ),
        ("rollout", 3, "params.rollout must be one of 0, 1, 2, got 3"),
        ("samples", 0, "params.samples must be a whole number of worlds, 1 or more, got 0"),
        ("horizon", -2, "params.horizon must be a whole number of turns, or -1 (to the end), got -2"),
        ("cheat", 0.5, "params.cheat must be one of 0, 1, got 0.5"),
    ],
)
def test_bad_search_parameters_are_refused(tmp_path, key, value, message):
    path = tmp_path / "bad.toml"
    path.write_text(f'base = "search"\n[params]\n{key} = {value}\n')
    with pytest.raises(StrategyError, match="^" + re.escape(f"{path}: {message}") + "$"):
        load_strategy_file(path)


# ============================================================================ the search level


def test_search_level_plays_fewer_games_in_ladder_and_difficulty():
    import polars as pl

    from simlab.runs.levels import available_levels, default_games, is_search, scripted_levels, strongest_level
    from simlab.studies.ladder import skill_ladder
    from simlab.studies.robust import default_levels, robust_difficulty

    top = available_levels()[-1]
    assert top in ("search", "learned") and "search" in available_levels()  # learned once a generation is shipped
    assert not {"search", "learned"} & set(scripted_levels()) and not {"search", "learned"} & set(default_levels())
    assert strongest_level() not in ("search", "learned") and is_search("learned")
    assert is_search("search") and not is_search("expert") and not is_search(None)
    assert default_games("search", 2000) == 100 and default_games("search", 30) == 30
    assert default_games("expert", 2000) == 2000
    lad = skill_ladder(["gaston"], ["expert", "search"], "expert", n_games=6, seed=1, max_turns=6, search_games=2)
    assert lad["games"].to_list() == [12, 4]  # per opponent villain: 6 at expert, 2 at search
    res = robust_difficulty(
        ["gaston", "horned-king"],
        ["expert", "search"],
        0,
        n_games=6,
        max_turns=6,
        threads=1,
        search_games=2,
        measures=("strength",),
    )
    games = dict(res.table.filter(pl.col("villain") == "gaston").select("level", "games").iter_rows())
    assert games == {"expert": 12, "search": 4}, res.table  # 6 vs 2 games per pairing (strength counts both entries)
    assert res.settings["search_games"] == 2


def test_ladder_z_against_every_rung_below():
    from simlab.studies.ladder import skill_ladder, two_proportion_z

    lad = skill_ladder(["gaston"], ["novice", "random", "expert"], "novice", n_games=60, seed=3, threads=1)
    k, n = lad["wins"].to_list(), lad["games"].to_list()
    z = {(i, j): two_proportion_z(k[i], n[i], k[j], n[j]) for i in range(3) for j in range(i)}
    pool = (k[2] + k[0]) / (n[2] + n[0])
    assert np.isclose(z[(2, 0)], (k[2] / n[2] - k[0] / n[0]) / np.sqrt(pool * (1 - pool) * (1 / n[2] + 1 / n[0])))
    assert np.isclose(lad["step_z"][2], z[(2, 1)]) and np.isnan(lad["step_z"][0]) and lad["min_z_level"][0] is None
    weakest = min((z[(2, 0)], "novice"), (z[(2, 1)], "random"))
    assert (lad["min_z_below"][2], lad["min_z_level"][2]) == weakest and lad["min_z_level"][1] == "novice"


def test_search_level_on_the_command_line():
    import json

    from typer.testing import CliRunner

    from simlab.cli import app

    runner = CliRunner()
    res = runner.invoke(
        app, ["run", "-m", "gaston-vs-horned-king", "--level", "search", "--max-turns", "2", "--json", "--threads", "1"]
    )
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)  # the plan line goes to stderr
    assert doc["games"] == 100 and set(doc["strategies"].values()) == {"search"}
    for args in (["ladder", "--search-games", "0"], ["difficulty", "--search-games", "-1"]):
        res = runner.invoke(app, args)
        assert res.exit_code == 2 and "--search-games must be a positive number of games" in res.output, res.output
        assert len(res.output.strip().splitlines()) == 1


# ============================================================================ where the budget goes


def _flat(st, tb, ru, spec: StrategySpec):
    """Run the flat search on a copy of ``st`` as ``choose_nb`` does; returns (choice, stats): per option the
    worlds it was played out in (row 2) and those it scored better than the policy's choice in (row 3)."""
    from simlab.kernels.state import new_state

    st = copy_state(st)
    player, n = int(st.g[K.G_PEND_PLAYER]), int(st.g[K.G_PEND_N])
    st.sparams[player] = spec.vector()
    P = int(st.g[K.G_NSEATS])
    root, world, ws = (new_state(P, 0) for _ in range(3))
    search.copy_state_nb(root, st)
    for s in range(P):
        root.sv[s, K.SV_STRATEGY] = 1
        block = st.sparams[player, search.HEADER + st.sv[s, K.SV_VILLAIN] * search.STRIDE :][: search.STRIDE]
        for w in (root, world, ws):
            w.sparams[s, : search.STRIDE] = block
    stats = np.zeros((search.N_STATS, n))
    local = np.array([12345], np.uint64)
    scratch, x = np.zeros(K.N_INST, np.int64), np.zeros(search.N_SCRATCH)
    choice = search.flat_nb(st, tb, ru, player, n, root, world, ws, stats, scratch, local, x)
    return choice, stats


def test_screening_plays_out_only_options_that_gained():
    """With screen k, an option that beat the policy's choice in none of the first k worlds is played out in no
    more; one that did is played out in every world; without screening every option is played in every world."""
    screened = _search(samples=12, screen=2, horizon=1, halving=0)
    full = _search(samples=12, screen=0, horizon=1, halving=0)
    dropped = kept = 0
    for st, tb, ru in positions("gaston-vs-lady-tremaine", 12, seed=5, kinds=(K.DK_ACTION, K.DK_MOVE)):
        _, stats = _flat(st, tb, ru, full)
        played = stats[2][stats[2] > 0]
        assert np.all(played == 12)
        _, stats = _flat(st, tb, ru, screened)
        for worlds, gains in zip(stats[2], stats[3], strict=True):
            if worlds == 0:
                continue  # the policy's own choice
            if gains == 0:
                assert worlds <= 2
                dropped += 1
            else:
                assert worlds == 12
                kept += 1
    assert dropped > 0 and kept > 0  # the screen dropped options here, and kept others (below: fewer rollouts)


def test_kinds_not_searched_get_the_policys_answer():
    """An ACTION decision with ACTION left out of ``kinds`` is answered without playing anything out (no option
    played in any world, whatever the samples); with it searched, options are played out."""
    no_actions = search.ALL_KINDS - (1 << K.DK_ACTION)
    for st, tb, ru in positions("horned-king-vs-gaston", 6, seed=6, kinds=(K.DK_ACTION,)):
        a, sa = _flat(st, tb, ru, _search(samples=1, kinds=no_actions))
        b, sb = _flat(st, tb, ru, _search(samples=40, kinds=no_actions))
        assert a == b and not sa[2].any() and not sb[2].any()
        _, sc = _flat(st, tb, ru, _search(samples=2, kinds=search.ALL_KINDS, screen=0, halving=0))
        assert sc[2].sum() == 2 * (int(st.g[K.G_PEND_N]) - 1)


# ============================================================================ successive halving


def _known(gains, worlds, alive, pick):
    """A stats block (6, n) with the given total gains, worlds played and options still played out."""
    n = len(gains)
    st = np.zeros((6, n))
    st[0], st[2], st[4] = gains, worlds, alive
    st[4, pick] = 0.0
    return st


def test_halving_keeps_the_better_half_of_the_options_still_played():
    # mean gains over the pick (option 1): 0.3, -, 0.5, 0.2, 0.0, -0.4; option 5 was screened out already
    st = _known([2.4, 0, 4.0, 1.6, 0.0, -3.2], [8, 8, 8, 8, 8, 8], [1, 1, 1, 1, 1, 0], pick=1)
    assert search.halve_nb(st, 6, 1) == 2  # 4 options played out: 2 stay
    assert st[4].tolist() == [1, 0, 1, 0, 0, 0] and not st[5].any()
    assert search.halve_nb(st, 6, 1) == 1 and st[4].tolist() == [0, 0, 1, 0, 0, 0]
    assert search.halve_nb(st, 6, 1) == 1 and st[4].tolist() == [0, 0, 1, 0, 0, 0]  # the last one stays
    # an odd count keeps the upper half rounded up; a tie goes to the lower index; the means, not the sums, rank
    st = _known([1.0, 1.0, 0.5, 3.0, 0.0], [4, 4, 1, 12, 4], [1, 1, 1, 1, 1], pick=4)
    assert search.halve_nb(st, 5, 4) == 2 and st[4].tolist() == [1, 0, 1, 0, 0]


def test_halving_rounds_double_the_worlds_up_to_samples():
    assert [search.round_end_nb(32, 3, r) for r in range(3)] == [8, 16, 32]
    assert [search.round_end_nb(12, 2, r) for r in range(2)] == [6, 12]
    assert [search.round_end_nb(2, 4, r) for r in range(4)] == [1, 1, 1, 2]


def test_halving_plays_fewer_worlds_on_the_dropped_options():
    """With 2 rounds over 8 worlds every option is played in 4 worlds, the better half of them in 8, and the
    choice is one of the survivors or the policy's; the flat schedule plays every option in all 8."""
    halved = _search(samples=8, halving=2, screen=0, horizon=1)
    cut = 0
    for st, tb, ru in positions("gaston-vs-lady-tremaine", 10, seed=5, kinds=(K.DK_ACTION, K.DK_MOVE)):
        choice, stats = _flat(st, tb, ru, halved)
        played = sorted(int(w) for w in stats[2] if w > 0)
        m = len(played)
        assert played == [4] * (m // 2) + [8] * (m - m // 2), played
        assert stats[2, choice] in (0, 8)
        cut += m // 2
    assert cut > 0


# ============================================================================ the value model


@pytest.fixture(scope="module")
def held_out():
    from simlab.studies import value

    return value.positions(60, seed=1234)


@pytest.mark.slow
def test_value_model_is_calibrated_on_held_out_games(held_out):
    """On positions of games the model was not fitted on (seed 1234; it was fitted on seed 0), one random position
    per game, the share won in each fifth of predicted chance is within 3 standard errors of the prediction, and the
    model tells the positions apart (Brier score well below the constant prediction's); the same model with every
    weight turned the wrong way fails."""
    from simlab.studies import value

    model = search.value_model()
    assert set(model) == {"gaston", "lady-tremaine", "horned-king"}
    table = value.calibration(model, held_out, bins=5)
    assert table["positions"].sum() == held_out.select("seating", "game").n_unique()
    assert (table["z"].abs() < 3).all(), table
    scored = value.predict(model, held_out)
    brier = ((scored["p"] - scored["won"]) ** 2).mean()
    constant = ((scored["won"].mean() - scored["won"]) ** 2).mean()
    assert brier < 0.85 * constant, (brier, constant)
    wrong = {v: -w for v, w in model.items()}
    assert (value.calibration(wrong, held_out, bins=5)["z"].abs() > 3).any()


@pytest.mark.slow
def test_value_kernel_agrees_with_the_fitted_model(held_out):
    """The kernel's probability at a turn's start is the study's softmax over the same features."""
    from simlab.studies import value

    spec = resolve("search")
    g = Game.new("lady-tremaine-vs-horned-king", seed=3, strategies=("tuned-lady-tremaine", "tuned-horned-king"))
    st, tb, ru = g.state, g.cards.tables, g.rules
    feats = np.zeros((200, 3, search.N_FEATURES))
    turns = search.turn_positions_nb(copy_state(st), tb, ru, feats)
    assert turns > 4
    sp = spec.vector()
    sp[search.S_VALUE] = 1
    model = search.value_model()
    x = np.zeros(search.N_SCRATCH)
    rows = []
    for t in range(turns):
        for s, v in enumerate(("lady-tremaine", "horned-king")):
            rows.append(("m", 0, t, s, v, 2, 0, *feats[t, s]))
    frame = value.predict(model, pl_frame(rows))
    # replay to each turn's start and ask the kernel
    w = copy_state(st)
    t = 0
    while w.g[K.G_PHASE] != K.PH_OVER and t < turns:
        if w.g[K.G_PHASE] == K.PH_START:
            p = search.value_nb(w, tb, ru, 0, sp, x)
            assert np.isclose(p, frame.filter((frame["turn"] == t) & (frame["seat"] == 0))["p"][0])
            t += 1
        search.rollout_nb(w, tb, ru, 0, 1)
    assert t == turns


def pl_frame(rows):
    import polars as pl

    return pl.DataFrame(
        rows, schema=["seating", "game", "turn", "seat", "villain", "seats", "won", *search.FEATURE_NAMES], orient="row"
    )


# ============================================================================ strength


@pytest.mark.slow
def test_search_beats_expert_clearly_and_replays_on_any_thread_count():
    """The built-in search playing the Horned King against an expert Gaston, 30 games, seats rotated, wins more than
    expert does in the same seat on the same seeds by over 3 standard errors (of a proportion at expert's rate); the
    games are the same on 1 and 2 threads."""
    import polars as pl

    from simlab.runs.sim import simulate

    def games(strategy, n, threads):
        chosen = {"horned-king": strategy, "gaston": "expert"}
        return simulate("horned-king-vs-gaston", RunSettings(n, seed=11, threads=threads), strategies=chosen).games

    base = games("expert", 2000, 2)
    p0 = base.filter(pl.col("winner_index") == 0).height / base.height
    one = games("search", 30, 1)
    two = games("search", 30, 2)
    assert one.equals(two)
    rate = one.filter(pl.col("winner_index") == 0).height / one.height
    se = np.sqrt(p0 * (1 - p0) / one.height)
    assert (rate - p0) / se > 3, (rate, p0)
