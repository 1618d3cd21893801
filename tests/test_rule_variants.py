"""The rule readings the sources leave open, each a named variant: both readings played out on a position."""

import tomllib

import pytest
from conftest import build, entry, labels

from simlab import villains as V
from simlab.data import rules
from simlab.errors import RuleError
from simlab.kernels import const as K

SLOTS = V.rule_slots()  # a villain's rule variants' slots, assigned when the registry is loaded

GASTON, HK = 0, 1
TAVERN, WOODS = "The Tavern", "The Woods"


def fated(gaston: dict, fate_top: list[str], rules: dict):
    """The Horned King at Morva Fates Gaston, whose Fate deck has ``fate_top`` on top."""
    sc = build(dict(gaston, fate_top=fate_top), {"mover": "Morva", "hand": [], "power": 0}, active=1, rules=rules)
    return sc.apply(next(o.index for o in sc.options() if o.code == "fate"))


def test_other_revealed_card_before_or_after_be_our_guest():
    # Be Our Guest (Maurice already in the discard pile) revealed beside Belle.
    first = fated({"fate_discard": ["Maurice"]}, ["Be Our Guest", "Belle"], {})
    first.apply(next(o.index for o in first.options() if o.label == "play Be Our Guest"))
    # Belle went to the discard pile first: Be Our Guest may play her or Maurice.
    assert {o.label.split(" to ")[0] for o in first.options()} == {"play Belle", "play Maurice"}

    after = fated({"fate_discard": ["Maurice"]}, ["Be Our Guest", "Belle"], {"other_revealed_card": "discarded_after"})
    after.apply(next(o.index for o in after.options() if o.label == "play Be Our Guest"))
    assert {o.label.split(" to ")[0] for o in after.options()} == {"play Maurice"}
    assert "Belle" in after.zone(GASTON, K.Z_LIMBO)  # still revealed while Be Our Guest resolves
    after.apply(0)
    assert "Belle" in after.zone(GASTON, K.Z_FDISCARD) and after.zone(GASTON, K.Z_LIMBO) == []


def test_other_revealed_card_and_magic_mirror():
    # Magic Mirror shuffles the Fate discard pile into the deck: with the other card in it, or not yet.
    for rule, in_discard in (("discarded_first", False), ("discarded_after", True)):
        sc = fated({}, ["Magic Mirror", "Massaging My Feet"], {"other_revealed_card": rule})
        # Massaging My Feet has nothing to do here, so Magic Mirror is played without a choice
        assert ("Massaging My Feet" in sc.zone(GASTON, K.Z_LIMBO)) == in_discard
        while sc.decision.player == HK and sc.decision.kind != "action":
            sc.apply(0)  # where Beast goes, and what he pushes out
        assert ("Massaging My Feet" in sc.zone(GASTON, K.Z_FDISCARD)) == in_discard, rule
        assert "Beast" in sc.heroes(GASTON)


def four_actions(rules: dict):
    """The Horned King at Morva has taken 3 actions; Gain Power and Discard are left; Gaston holds Beautiful
    as Me and lets the window after the 4th action pass."""
    sc = build(
        {"hand": ["Beautiful as Me"]},
        {"mover": "Morva", "hand": ["Captured!"], "power": 0},
        active=1,
        actions_taken=3,
        used=["play_card", "fate"],
        rules=rules,
    )
    sc.apply("gain 1 Power")
    assert sc.decision.kind == "condition" and sc.decision.player == GASTON
    sc.apply("pass")
    sc.apply("discard cards")  # the 5th action (its only card, Captured!, is the one to discard)
    return sc


def test_four_actions_window_after_every_later_action_or_once():
    again = four_actions({})
    assert again.decision.kind == "condition" and again.decision.player == GASTON
    assert labels(again) == ["pass", "card Beautiful as Me"]

    once = four_actions({"four_actions_window": "once"})
    # no window after the 5th action: the Horned King's turn ends (every action used) and Gaston moves
    assert once.decision.kind == "move" and once.decision.player == GASTON
    assert once.hand(GASTON) == ["Beautiful as Me"]


def vanquish_maurice(rules: dict):
    """Gaston at The Tavern: Maurice there with his Invention (Allies there -1): Wolves 0, The Mob 3."""
    sc = build(
        {
            "power": 0,
            "mover": TAVERN,
            "hand": [],
            "realm": {TAVERN: [{"card": "Maurice", "items": ["Maurice's Invention"]}, "Wolves", "The Mob"]},
        },
        {},
        rules=rules,
    )
    assert entry(sc, GASTON, TAVERN, "Wolves")["strength"] == 0
    return sc.apply("vanquish Maurice")


def test_zero_strength_ally_joins_a_vanquish_or_not():
    joins = vanquish_maurice({})
    assert joins.decision.kind == "vanquish_ally"
    assert labels(joins) == ["card Wolves", "card The Mob"]

    cannot = vanquish_maurice({"zero_strength_allies_vanquish": "cannot_join"})
    # The Mob is the only Ally that can join: forced, so the Vanquish resolves at once.
    assert cannot.decision.kind == "action" and cannot.decision.player == GASTON
    assert cannot.heroes(GASTON) == [] and entry(cannot, GASTON, TAVERN, "Wolves")["strength"] == 1


# (name, default, other values, slot) of every variant users know: moving a definition must not change one
KNOWN = {
    "gaston_win_timing": ("immediate", ["start_of_turn"], SLOTS["obstacle_win_at_start_of_turn"]),
    "get_out": ("up_to_three", ["exactly_three"], SLOTS["remove_n_needs_n"]),
    "cauldron_born_placement": ("same_location", ["any_location"], SLOTS["tile_ally_any_location"]),
    "cauldron_born_play_card": ("no", ["yes"], SLOTS["tile_ally_play_card"]),
    "glass_slippers_cover_actions": ("yes", ["no"], SLOTS["glass_slippers_cover"]),
    "obstacles_cover_actions": ("no", ["yes"], K.R_OBSTACLES_COVER),
    "lucifer_trap": ("continuous", ["on_play"], SLOTS["traps_heroes_here_continuous"]),
    "prince_into_locked_ballroom": ("yes", ["no"], SLOTS["played_when_revealed_into_locked"]),
    "unprinted_activation_cost": ("0", ["1", "2"], K.R_UNPRINTED_ACTIVATION_COST),
    "beast_destination": ("single", ["each"], SLOTS["push_allies_single_destination"]),
    "doli_destination": ("single", ["each"], SLOTS["move_each_hero_single_destination"]),
    "mrs_potts_destination": ("each", ["single"], SLOTS["move_heroes_single_destination"]),
    "other_revealed_card": ("discarded_first", ["discarded_after"], K.R_OTHER_REVEALED_AFTER),
    "four_actions_window": ("every_later_action", ["once"], K.R_FOUR_ACTIONS_ONCE),
    "zero_strength_allies_vanquish": ("join", ["cannot_join"], K.R_ZERO_STRENGTH_NO_VANQUISH),
}


def test_the_variants_of_the_core_and_of_each_villains_cards():
    got = {v.name: (v.default, list(v.values)[1:], v.index) for v in rules.RULE_VARIANTS.values()}
    assert got == KNOWN
    assert list(rules.RULE_VARIANTS) == list(KNOWN)  # in slot order, as `simlab rules` lists them
    owned = {r["name"] for f in V.REGISTRY for r in tomllib.loads(V.data_text(f)).get("rule", [])}
    core = {v.name for v in rules.core_variants([tomllib.loads(V.data_text(f)) for f in V.REGISTRY])}
    assert owned | core == set(KNOWN) and not owned & core
    assert "Beautiful as Me" in rules.RULE_VARIANTS["four_actions_window"].description  # examples from the data


@pytest.mark.parametrize(
    "rule, error",
    [
        ({"name": "x", "slot": "no_such_slot", "values": {"a": 0}, "description": "d"}, "unknown slot"),
        ({"name": "x", "slot": "max_turns", "values": {"a": 0}, "description": "d"}, "unknown slot"),
        ({"name": "x", "slot": "obstacles_cover", "values": {}, "description": "d"}, "at least one"),
        ({"name": "x", "slot": "obstacles_cover", "values": {"a": 0}}, "exactly the fields"),
    ],
)
def test_a_villains_rule_table_that_does_not_fit_is_an_error(rule, error):
    with pytest.raises(RuleError, match=error):
        rules.villain_variants("somebody", {"rule": [rule]})


def test_two_villains_may_print_the_same_rule_but_not_share_a_slot(monkeypatch):
    same = rules.villain_variants("gaston", tomllib.loads(V.data_text("gaston")))
    monkeypatch.setattr(rules, "villain_variants", lambda f, d: same + [same[0]] if f == "gaston" else [])
    assert rules.collect_variants()[same[0].name] == same[0]  # listed twice, collected once
    clash = rules.RuleVariant("other_name", same[0].index, same[0].values, "d")
    monkeypatch.setattr(rules, "villain_variants", lambda f, d: [clash] + same if f == "gaston" else [])
    with pytest.raises(RuleError, match="share slot"):
        rules.collect_variants()
