"""The rulebook's general rules and FAQ answers (card-specific FAQ items live with the card tests)."""

from __future__ import annotations

from conftest import build, entry, labels, names_at

from simlab.data.cards import VILLAIN_FOLDERS, CardSet, _read, compile_cards
from simlab.game.scenario import Scenario
from simlab.kernels import const as K
from simlab.kernels.rules import find_nb


def test_draw_only_at_end_of_turn():
    sc = build({"power": 0, "mover": "The Woods", "hand": ["Temper", "Swoon"]}, {"mover": "Morva"})
    sc.apply("discard cards").apply("card Temper").apply("pass")
    assert sc.hand(0) == ["Swoon"]  # no draw after discarding
    sc.apply("pass")  # end the actions: now draw up to four
    assert len(sc.hand(0)) == 4


def test_no_hand_limit_and_no_draw_with_four_or_more():
    sc = build(
        {"power": 1, "mover": "The Woods", "hand": ["Swoon", "Temper", "Wolves", "Wolves"], "obstacles": 7},
        {"mover": "Morva"},
    )
    sc.apply("play Swoon").apply("mode draw")  # one empty spot: its location is forced
    assert len(sc.hand(0)) == 6
    sc.apply("pass")
    assert len(sc.hand(0)) == 6


def test_must_move_to_a_different_unlocked_location():
    sc = build({"mover": "Cinderella's Room"}, {}, villains=("lady-tremaine", "gaston"), phase="move")
    assert sc.decision.kind == "move"
    opts = labels(sc)
    assert "location Cinderella's Room" not in opts  # may not stay
    assert "location The Ballroom" not in opts  # locked
    assert len(opts) == 2


def test_two_unplayable_fate_cards_are_both_discarded():
    # Maurice's Invention needs a Hero; I've Never Seen So Many Books needs a missing Obstacle.
    sc = build(
        {"obstacles": 8, "fate_top": ["Maurice's Invention", "I've Never Seen So Many Books"]},
        {"mover": "Morva"},
        active=1,
    )
    sc.apply("fate Gaston")
    discard = sc.zone(0, K.Z_FDISCARD)
    assert "Maurice's Invention" in discard and "I've Never Seen So Many Books" in discard
    assert sc.heroes(0) == []


def test_one_unplayable_card_means_the_other_is_played():
    sc = build({"obstacles": 8, "fate_top": ["Maurice's Invention", "Cogsworth"]}, {"mover": "Morva"}, active=1)
    sc.apply("fate Gaston")
    assert sc.decision.kind == "fate_pick"
    locations = ("Belle's House", "The Tavern", "The Woods", "Beast's Castle")
    assert labels(sc) == [f"play Cogsworth to {loc}" for loc in locations]
    sc.apply("play Cogsworth to The Woods")
    assert sc.heroes(0) == ["Cogsworth"]
    assert "Maurice's Invention" in sc.zone(0, K.Z_FDISCARD)


def test_hero_covers_top_actions_only():
    sc = build(
        {"power": 5, "mover": "The Tavern", "hand": ["Temper"], "realm": {"The Tavern": ["Cogsworth"]}},
        {"mover": "Morva"},
    )
    opts = labels(sc)
    assert "gain 2 Power" not in opts  # top row covered by Cogsworth
    assert "play Temper" in opts  # bottom row still available


def test_each_action_symbol_once():
    sc = build({"power": 0, "mover": "The Tavern"}, {"mover": "Morva"})
    sc.apply("gain 2 Power")
    assert "gain 2 Power" not in labels(sc)
    assert sc.power(0) == 2


def test_vanquish_three_plus_two_against_five_leaves_the_third_ally():
    # Taran (2) gets +1 for each other Hero at his location: 5 with three companions.
    heroes = ["Taran", "Fair Folk", "Gurgi", "Doli"]
    allies = ["Horned King's Henchmen", "Gwythaints", "Guard Dog"]
    sc = build(
        {"mover": "Fair Folk Kingdom", "realm": {"Fair Folk Kingdom": heroes + allies}},
        {"mover": "The Woods"},
        villains=("horned-king", "gaston"),
    )
    assert entry(sc, 0, "Fair Folk Kingdom", "Taran")["strength"] == 5
    sc.apply("vanquish Taran")
    assert "pass" not in labels(sc)  # no Ally yet
    sc.apply("card Horned King's Henchmen")
    assert "pass" not in labels(sc)  # 3 < 5
    sc.apply("card Gwythaints")
    assert labels(sc)[0] == "pass"  # 3 + 2 reaches 5
    sc.apply("pass")
    left = names_at(sc, 0, "Fair Folk Kingdom")
    assert "Taran" not in left and "Guard Dog" in left
    assert "Horned King's Henchmen" not in left and "Gwythaints" not in left
    assert {"Horned King's Henchmen", "Gwythaints"} <= set(sc.zone(0, K.Z_VDISCARD))


def test_a_hero_with_strength_is_vanquished_only_by_allies_as_strong():
    """Belle (Strength 2) at Belle's House, a Vanquish symbol free at The Tavern: no Vanquish with no Ally at her
    location or only Wolves (1); with LeFou (2) there is one (so its absence is the rule, not a covered symbol
    or a label). A Strength-0 Hero needs no Ally at all: the next test."""

    def vanquish_offered(*allies):
        sc = build({"mover": "The Tavern", "realm": {"Belle's House": ["Belle", *allies]}}, {"mover": "Morva"})
        return "vanquish Belle" in labels(sc)

    assert not vanquish_offered()
    assert not vanquish_offered("Wolves")
    assert vanquish_offered("LeFou")


def test_strength_modifiers_apply_to_hunters_instinct_targets():
    # Cogsworth gives Lumiere (3) +1: Hunter's Instinct (3 or less) can no longer defeat him.
    sc = build(
        {
            "power": 5,
            "mover": "The Woods",
            "hand": ["Hunter's Instinct"],
            "realm": {"The Tavern": ["Lumiere", "Cogsworth"]},
        },
        {"mover": "Morva"},
    )
    sc.apply("play Hunter's Instinct")  # the only target (Cogsworth) is chosen without asking
    assert sc.heroes(0) == ["Lumiere"]
    assert entry(sc, 0, "The Tavern", "Lumiere")["strength"] == 3


def _cards_with(name: str, **changes) -> CardSet:
    """The shipped card data with one card's fields changed (tables are data: no recompilation)."""
    docs = [_read(f) for f in VILLAIN_FOLDERS]
    for doc in docs:
        for card in doc["card"]:
            if card["name"] == name:
                card.update(changes)
    return compile_cards(docs)


def test_strength_zero_hero_is_vanquished_without_allies():
    # FAQ: a Hero at Strength 0 is not removed by itself; a Vanquish defeats it with no Ally at its location.
    # No card here brings a Hero to 0, so Belle's printed Strength is edited to 0.
    cards = _cards_with("Belle", strength=0)
    sc = Scenario.build(
        {
            "villains": ["gaston", "horned-king"],
            "seats": [{"mover": "The Tavern", "realm": {"Belle's House": ["Belle"]}}, {"mover": "Morva"}],
        },
        cards=cards,
    )
    assert "vanquish Belle" in labels(sc)  # no Ally anywhere, yet the Vanquish is legal
    assert sc.heroes(0) == ["Belle"]  # a Strength-0 Hero is not removed by itself
    sc.apply("vanquish Belle")
    assert sc.heroes(0) == []
    assert "Belle" in sc.zone(0, K.Z_FDISCARD)


def test_find_takes_a_card_from_the_realm_and_discards_its_attachments():
    sc = build({"realm": {"The Woods": [{"card": "Lumiere", "items": ["Maurice's Invention"]}]}}, {"mover": "Morva"})
    st = sc.state
    lumiere = entry(sc, 0, "The Woods", "Lumiere")["instance"]
    k = find_nb(st, 0, sc.cards.card("Lumiere").row, 1)
    assert k == lumiere
    assert st.inst[0, k, K.I_ZONE] == K.Z_LIMBO and st.inst[0, k, K.I_LOC] == -1
    assert sc.zone(0, K.Z_FDISCARD) == ["Maurice's Invention"]
    # not in the Realm: the discard pile comes before the deck
    k = find_nb(st, 0, sc.cards.card("Maurice's Invention").row, 1)
    assert k >= 0 and sc.zone(0, K.Z_FDISCARD) == []
