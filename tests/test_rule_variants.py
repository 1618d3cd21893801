"""The rule readings the sources leave open, each a named variant: both readings played out on a position."""

from conftest import build, entry, labels

from simlab.kernels import const as K

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
