"""Each villain's plan (``strategies/plans/<folder>.py``): its answers to the heuristic (``plan_nb``, asked by a
``W_*`` code) at built positions, and the table the heuristic reaches them through."""

from __future__ import annotations

import importlib
import math

import numba
import pytest
from conftest import build

import simlab.game.driver  # noqa: F401  (binds the heuristic's parts and fills the table of plans)
from simlab.kernels import const as K
from simlab.kernels.compile import as_ptr, link, ref
from simlab.villains import REGISTRY, ability_codes
from strategies import STRATEGIES
from strategies import heuristic as H

E = STRATEGIES["expert"].params
NAN = float("nan")
LT, HK = ("lady-tremaine", "gaston"), ("horned-king", "gaston")


@numba.njit(cache=False)
def _ask(st, tb, ru, sp, what, s, a, b, c, x):
    return H.ask_plan_nb(ref(st), ref(tb), as_ptr(ru), as_ptr(sp), what, s, a, b, c, x)


def ask(sc, what: int, a: int = 0, b: int = 0, c: int = 0, x: float = NAN, seat: int = 0) -> float:
    """Seat ``seat``'s plan's answer to ``what`` in scenario ``sc``, with the expert's parameters."""
    g = sc.game
    return _ask(g.state, g.cards.tables, g.rules, STRATEGIES["expert"].vector(), what, seat, a, b, c, x)


def row(sc, card: str) -> int:
    return sc.game.cards.card(card).row


def inst(sc, card: str, seat: int = 0, zone: int = -1) -> int:
    """An instance of ``card`` of seat ``seat`` (in ``zone`` if given; one a position put in place first)."""
    st = sc.game.state
    found = [k for k in range(K.N_INST) if st.inst[seat, k, K.I_CARD] == row(sc, card)]
    if zone >= 0:
        found = [k for k in found if st.inst[seat, k, K.I_ZONE] == zone]
    placed = [k for k in found if st.inst[seat, k, K.I_ZONE] in (K.Z_REALM, K.Z_HAND, K.Z_LIMBO)]
    return (placed or found)[0]


def loc(sc, name: str, seat: int = 0) -> int:
    return sc.game.cards.villains[int(sc.game.state.sv[seat, K.SV_VILLAIN])].locations.index(name)


def test_the_table_holds_each_registered_plan():
    assert link.filled(H.PLAN_TABLE, H.N_PLAN_ROWS) == set(range(len(REGISTRY)))
    py = link._PY_TABLES[H.PLAN_TABLE]
    for r, folder in enumerate(REGISTRY):
        plan = importlib.import_module(f"strategies.plans.{folder}")
        assert py[r] is getattr(plan.plan_nb, "py_func", plan.plan_nb)


def test_a_plan_answers_x_to_what_it_has_nothing_to_say_about():
    sc = build({}, {})
    assert ask(sc, H.W_POSITION, x=2.5) == 2.5  # Gaston's plan values no place
    assert math.isnan(ask(sc, H.W_MOVE))


# ------------------------------------------------------------------------------------------ progress


def test_gastons_progress_is_the_share_of_his_obstacle_spots_cleared():
    sc = build({"obstacles": 3}, {})
    spots = sum(int(sc.game.cards.tables.locs[0, i, K.LC_SPOTS]) for i in range(K.N_LOC))
    assert ask(sc, H.W_PROGRESS, x=0.0) == 1.0 - 3 / spots
    assert ask(build({"obstacles": 0}, {}), H.W_PROGRESS, x=0.0) == 1.0


def test_the_horned_kings_progress_counts_soldiers_cauldron_born_and_the_cauldron():
    sc = build(
        {"tile": "power", "realm": {"Morva": ["Ancient Soldiers"], "Dungeons": ["Cauldron Born"]}}, {}, villains=HK
    )
    expect = E["progress_soldier"] * 2 + E["progress_born"] * 1
    expect += E["progress_claimed"]
    expect += E["progress_powered"]
    assert ask(sc, H.W_PROGRESS, x=0.0) == expect


def test_lady_tremaines_progress_counts_the_wedding_steps():
    sc = build(
        {
            "unlocked": ["The Ballroom"],
            "realm": {"The Ballroom": ["The Prince", "Ball Gown Drizella"], "The Castle": ["Wedding Bells"]},
        },
        {},
        villains=LT,
    )
    expect = 0.0 + E["progress_bride"]
    expect += E["progress_ballroom"]
    expect += E["progress_bride_in"]
    expect += E["progress_prince"]
    expect += E["progress_bells"]
    assert ask(sc, H.W_PROGRESS, x=0.0) == min(expect, 1.0)


# ------------------------------------------------------------------------------------------ its own cards


def test_gaston_values_his_removal_cards_and_the_last_obstacles_win():
    sc = build({"obstacles": 1}, {})
    assert ask(sc, H.W_EFFECT, row(sc, "Temper")) == 0.5 * H.BIG
    sc = build({"obstacles": 9}, {})
    assert ask(sc, H.W_EFFECT, row(sc, "Get Out!")) == E["obstacle_value"] * 3
    assert ask(sc, H.W_EFFECT, row(sc, "Belle Is Mine")) == -H.BIG  # an extra Vanquish, with no Hero to vanquish
    assert math.isnan(ask(sc, H.W_EFFECT, row(sc, "Be Our Guest")))  # not his plan's to value: the core's
    assert ask(sc, H.W_KEEPS_COPIES, row(sc, "Temper"), x=0.0) == 1.0
    assert ask(sc, H.W_KEEPS_COPIES, row(sc, "Belle Is Mine"), x=0.0) == 0.0


def test_gaston_values_an_ally_that_removes_obstacles():
    sc = build({"obstacles": 5, "hand": ["Monsieur D'Arque"]}, {})
    k = inst(sc, "Monsieur D'Arque")
    assert ask(sc, H.W_ALLY, k, -1, x=1.0) == 1.0 + E["remover_ally"] * E["obstacle_value"]
    assert ask(build({"obstacles": 1, "hand": ["Monsieur D'Arque"]}, {}), H.W_ALLY, k, -1, x=1.0) == 1.0 + 0.0


def test_gaston_empties_one_location_first_and_leaves_those_a_hero_clears():
    sc = build({"obstacles": {"The Tavern": 1, "The Woods": 2}}, {})
    pick = [ask(sc, H.W_LOCATION_PICK, x, ability_codes()["remove_obstacles"], 1) for x in range(K.N_LOC)]
    cleared = -E["cleared_by_hero"]  # Maurice clears Belle's House, Beast his Castle
    assert pick == [cleared, -1.0, -2.0, cleared]
    assert ask(sc, H.W_LOCATION_PICK, 0, ability_codes()["push_allies_out"], 1) == 0.0  # no Ally to push out near
    assert math.isnan(ask(sc, H.W_LOCATION_PICK, 0, ability_codes()["trap_hero"], 1))  # not his: the core's


def test_the_horned_king_values_a_cauldron_born_where_none_stands():
    sc = build({"hand": ["Cauldron Born"], "realm": {"Morva": ["Cauldron Born"]}}, {}, villains=HK)
    k = inst(sc, "Cauldron Born", zone=K.Z_HAND)
    assert ask(sc, H.W_CARD, k, loc(sc, "Dungeons")) == E["cauldron_value"] + E["new_born_bonus"]
    assert ask(sc, H.W_CARD, k, loc(sc, "Morva")) == E["spare_born"]
    assert ask(sc, H.W_KEEP, k) == E["keep_born_unclaimed"]  # the Cauldron not claimed yet


def test_the_horned_king_flips_the_cauldron_and_swaps_onto_empty_locations():
    sc = build({"tile": "front", "realm": {"Morva": ["Cauldron Born"]}}, {}, villains=HK)
    cost = int(sc.game.cards.tables.vil[2, K.VF_FLIP_COST])
    cost = int(sc.game.rules[K.R_UNPRINTED_ACTIVATION_COST]) if cost < 0 else cost
    assert ask(sc, H.W_ACTIVATION, -1) == E["cauldron_value"] - E["power_value"] * cost
    assert ask(sc, H.W_SWAP, loc(sc, "Dungeons"), x=0.0) == E["cauldron_value"]
    assert ask(sc, H.W_SWAP, loc(sc, "Morva"), x=0.0) == E["swap_onto_born"]


def test_lady_tremaine_values_wedding_bells_by_the_ballroom_and_keeps_the_only_one():
    locked = build({"hand": ["Wedding Bells"]}, {}, villains=LT)
    k = inst(locked, "Wedding Bells")
    assert ask(locked, H.W_CARD, k, -1) == E["bells_locked"] * E["wedding_value"]
    opened = build({"hand": ["Wedding Bells"], "unlocked": ["The Ballroom"]}, {}, villains=LT)
    assert ask(opened, H.W_CARD, k, -1) == E["bells_open"] * E["wedding_value"]
    assert ask(locked, H.W_KEEP_ITEM, k, x=0.5) == E["bells_keep"] * E["wedding_value"]


def test_lady_tremaine_plays_her_first_daughter_as_a_step_and_times_the_bride():
    sc = build({"hand": ["Anastasia"]}, {}, villains=LT)
    assert ask(sc, H.W_ALLY, inst(sc, "Anastasia"), -1, x=1.0) == 1.0 + E["first_daughter"] * E["wedding_value"]
    sc = build({"realm": {"The Castle": ["Ball Gown Drizella"]}, "unlocked": ["The Ballroom"]}, {}, villains=LT)
    early = ask(sc, H.W_MOVE, inst(sc, "Ball Gown Drizella"), loc(sc, "The Ballroom"))
    assert early == E["bride_early"] * E["wedding_value"]  # no Prince, no Bells: not yet
    assert math.isnan(ask(sc, H.W_MOVE, inst(sc, "Ball Gown Drizella"), loc(sc, "The Castle")))


# ------------------------------------------------------------------------------------------ Fate cards


def test_fating_gaston_the_rose_is_refused_while_it_could_win_him_the_game():
    sc = build({"obstacles": 2, "fate_top": ["The Rose", "Cogsworth"]}, {"mover": "Morva"}, active=1)
    sc.apply("fate Gaston")
    assert ask(sc, H.W_REVEALED, inst(sc, "The Rose"), -1, -1) == -H.BIG
    assert math.isnan(ask(sc, H.W_REVEALED, inst(sc, "Cogsworth"), -1, -1))


def test_fating_gaston_it_is_you_is_worth_an_obstacle_everywhere():
    sc = build({}, {})
    assert ask(sc, H.W_FATE_CARD, inst(sc, "It Is You"), -1, -1) == E["replace_each_harm"] * E["obstacle_value"]


def test_fating_lady_tremaine_a_glass_slipper_costs_her_steps():
    sc = build({}, {}, villains=LT)
    slipper = inst(sc, "Glass Slipper (The Castle)")
    assert ask(sc, H.W_FATE_CARD, slipper, -1, -1) == E["fate_slipper"] * E["wedding_value"]
    assert ask(sc, H.W_HERO_ON_PLAY, row(sc, "Fairy Godmother"), 0, x=1.0) == 1.0 + (
        E["fairy_godmother_harm"] * E["wedding_value"]
    )


def test_fating_the_horned_king_gurgis_sacrifice_hurts_once_the_cauldron_is_powered():
    sc = build({"tile": "power"}, {}, villains=HK)
    k = inst(sc, "Gurgi's Sacrifice")
    assert ask(sc, H.W_FATE_CARD, k, -1, -1) == E["depower_share"] * E["cauldron_value"]
    sc = build({"realm": {"Morva": ["Cauldron Born"], "Dungeons": ["Cauldron Born"]}}, {}, villains=HK)
    gathered = ask(sc, H.W_ALLIES_GATHERED, loc(sc, "Morva"), x=0.0)
    assert gathered == E["gather_born_share"] * E["cauldron_value"] * 1


# ------------------------------------------------------------------------------------------ Heroes


def test_a_hero_blocking_obstacle_removal_harms_gaston():
    sc = build({"realm": {"Belle's House": ["Belle"]}}, {})
    assert ask(sc, H.W_HERO_HARM, row(sc, "Belle"), loc(sc, "Belle's House"), inst(sc, "Belle"), x=1.0) == 1.0 + (
        E["blocks_removal_harm"] * E["obstacle_value"]
    )


def test_gurgi_harms_the_horned_king_less_and_is_worth_less_to_defeat():
    sc = build({"realm": {"Morva": ["Gurgi"]}}, {}, villains=HK)
    h = inst(sc, "Gurgi")
    assert ask(sc, H.W_HERO_HARM, row(sc, "Gurgi"), loc(sc, "Morva"), h, x=1.0) == 1.0 - E["gurgi_harm_discount"]
    assert ask(sc, H.W_DEFEAT_VALUE, h, x=1.0) == 1.0 - E["gurgi_defeat_discount"]


@pytest.mark.parametrize(
    "villains, hero, expect",
    [
        (("gaston", "horned-king"), "Beast", E["obstacle_value"] * 2),
        (LT, "Ball Gown Cinderella", -E["slippers_defeat"] * E["wedding_value"]),
        (HK, "Hen Wen", E["cauldron_value"]),
    ],
)
def test_what_defeating_a_hero_gives_its_villain(villains, hero, expect):
    sc = build({"obstacles": {"Beast's Castle": 2}} if villains[0] == "gaston" else {}, {}, villains=villains)
    assert ask(sc, H.W_DEFEAT_GAIN, row(sc, hero), x=0.0) == expect


# ------------------------------------------------------------------------------------------ what a plan is asked


def test_a_plan_is_asked_only_what_its_source_compares_what_with():
    from strategies.plans import answers, plan_of

    gaston = answers(plan_of("gaston").plan_nb)
    assert H.W_PROGRESS in gaston and H.W_EFFECT in gaston
    assert H.W_MOVE not in gaston and H.W_SWAP not in gaston  # Gaston's plan says nothing about these
    assert answers(H.no_plan_nb) == set()
    table = link._TABLES[H.PLAN_ANSWERS_TABLE]
    for row, folder in enumerate(REGISTRY):
        assert table[row] == sum(1 << w for w in answers(plan_of(folder).plan_nb)), folder


def _hands_what_on(st, tb, ru, sp, what, s, a, b, c, x):
    if what == H.W_PROGRESS:
        return 0.5
    return _other(what, x)


def _other(what, x):
    return x


def test_a_plan_that_hands_what_on_is_asked_everything():
    from strategies.plans import answers

    everything = {v for n, v in vars(H).items() if n.startswith("W_") and isinstance(v, int)}
    assert answers(_hands_what_on) == everything
