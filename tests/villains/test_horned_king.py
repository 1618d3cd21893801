"""The Horned King's cards, one test per card: 13 Villain cards, 13 Fate cards, the Black Cauldron tile, the objective.

Seat 0 is the Horned King, seat 1 Gaston. Fate cards are played by Gaston through a Fate action from The Woods
(whose bottom row has a Fate action): the card under test is put on top of the Horned King's Fate deck.
Horned King board: Morva (top: play, fate; bottom: discard, gain 1), Fair Folk Kingdom (top: play, gain 3;
bottom: play, vanquish), Dungeons (top: play, move; bottom: fate, gain 2), Throne Room (top: vanquish, discard;
bottom: play, move). Morva - Fair Folk Kingdom - Dungeons - Throne Room, left to right.
"""

from __future__ import annotations

import pytest
from conftest import build, entry, labels, names_at

HK, GASTON = 0, 1
VILLAINS = ("horned-king", "gaston")
DECK, HAND, DISCARD, REALM, FATE_DECK, FATE_DISCARD, LIMBO = range(7)
FATE_HK = "fate The Horned King"

AS, CB = "Ancient Soldiers", "Cauldron Born"
HENCHMEN = "Horned King's Henchmen"
MOMENTS = "Only Moments Away From Victory"
PIG_KEEPER = "We Got You Now, Pig Keeper"
BARGAIN = "We Have Made a Bargain"
SHOW_ME = "Show Me the Black Cauldron"
FRONT, POWER_SIDE = "The Black Cauldron", "The Power of the Black Cauldron"


def hk_turn(hk: dict, gaston: dict | None = None, **kw):
    """The Horned King's action phase (or another ``phase=`` of his turn)."""
    return build(hk, gaston or {}, villains=VILLAINS, **kw)


def fated(hk: dict, top: list[str], **kw):
    """Gaston takes a Fate action against the Horned King, whose Fate deck starts with ``top``."""
    hk = {"hand": [], **hk, "fate_top": top}
    sc = build(hk, {"mover": "The Woods", "hand": []}, villains=VILLAINS, active=GASTON, **kw)
    assert FATE_HK in labels(sc)
    sc.apply(FATE_HK)
    assert sc.decision.player == GASTON and sc.decision.kind == "fate_pick"
    return sc


def pick_row(sc, code: str, a: int, b: int | None = None):
    """Answer with the option of kind ``code`` whose row is (a, b): for options with equal labels."""
    hits = [o.index for o in sc.options() if o.code == code and o.row[1] == a and (b is None or o.row[2] == b)]
    assert len(hits) == 1, labels(sc)
    return sc.apply(hits[0])


def instance(sc, loc: str, card: str) -> int:
    return entry(sc, HK, loc, card)["instance"]


def fate_counts(sc, name: str) -> tuple[int, int]:
    """How many copies of ``name`` are in the Horned King's Fate deck and Fate discard pile."""
    return sc.zone(HK, FATE_DECK).count(name), sc.zone(HK, FATE_DISCARD).count(name)


def after_turn_ends(sc):
    """Gaston ends his turn; the scenario stops at the Horned King's first decision of his next turn."""
    sc.apply("pass")
    assert sc.decision.player == HK
    return sc


# ================================================================================================ Villain deck


@pytest.mark.card("Ancient Soldiers")
def test_ancient_soldiers():
    sc = hk_turn({"power": 3, "mover": "Fair Folk Kingdom", "hand": [AS], "realm": {"Dungeons": ["Fair Folk"]}})
    opts = labels(sc)
    # Cannot be played to a location with Fair Folk.
    assert "play Ancient Soldiers to Dungeons" not in opts
    assert {
        "play Ancient Soldiers to Morva",
        "play Ancient Soldiers to Fair Folk Kingdom",
        "play Ancient Soldiers to Throne Room",
    } <= set(opts)
    sc.apply("play Ancient Soldiers to Morva")
    assert names_at(sc, HK, "Morva") == [AS]
    assert sc.power(HK) == 0  # cost 3
    assert AS not in sc.hand(HK)

    # Not enough Power: not playable.
    sc = hk_turn({"power": 2, "mover": "Fair Folk Kingdom", "hand": [AS]})
    assert not any(o.startswith("play Ancient Soldiers") for o in labels(sc))

    # Its location gains an Activate action (the board prints none): it can flip a claimed Black Cauldron.
    realm = {"Morva": [AS]}
    sc = hk_turn({"power": 0, "mover": "Morva", "hand": [], "tile": "front", "realm": realm})
    assert "activate The Black Cauldron" in labels(sc)
    sc = hk_turn({"power": 0, "mover": "Throne Room", "hand": [], "tile": "front", "realm": realm})
    assert "activate The Black Cauldron" not in labels(sc)


@pytest.mark.card("Cauldron Born")
def test_cauldron_born():
    # Never with a Play a Card action by default, even with the Power side up and its cost of 0.
    for side in ("none", "front", "power"):
        sc = hk_turn({"power": 5, "mover": "Fair Folk Kingdom", "hand": [CB, "Captured!"], "tile": side})
        assert not any(o.startswith("play Cauldron Born") for o in labels(sc)), side
    # Variant: also with Play a Card, but only while the Power side shows.
    yes = {"cauldron_born_play_card": "yes"}
    sc = hk_turn({"power": 0, "mover": "Fair Folk Kingdom", "hand": [CB, "Captured!"], "tile": "front"}, rules=yes)
    assert not any(o.startswith("play Cauldron Born") for o in labels(sc))
    sc = hk_turn({"power": 0, "mover": "Fair Folk Kingdom", "hand": [CB], "tile": "power"}, rules=yes)
    sc.apply("play Cauldron Born to Throne Room")
    assert names_at(sc, HK, "Throne Room") == [CB]
    assert entry(sc, HK, "Throne Room", CB)["strength"] == 6
    assert sc.power(HK) == 0


@pytest.mark.card("Cauldron Born")
def test_cauldron_born_not_discarded_after_a_vanquish():
    sc = hk_turn(
        {"power": 0, "mover": "Fair Folk Kingdom", "hand": [], "realm": {"Dungeons": [CB, "The Witches of Morva"]}}
    )
    sc.apply("vanquish The Witches of Morva")  # the only Ally is picked automatically
    assert names_at(sc, HK, "Dungeons") == [CB]
    assert sc.zone(HK, DISCARD) == []
    assert sc.zone(HK, FATE_DISCARD) == ["The Witches of Morva"]


@pytest.mark.card("Horned King's Henchmen")
def test_horned_kings_henchmen():
    sc = hk_turn(
        {"power": 2, "mover": "Fair Folk Kingdom", "hand": [HENCHMEN], "realm": {"Dungeons": ["The Witches of Morva"]}}
    )
    sc.apply("play Horned King's Henchmen to Dungeons")
    assert sc.power(HK) == 0
    assert entry(sc, HK, "Dungeons", HENCHMEN)["strength"] == 3
    sc.apply("vanquish The Witches of Morva")  # 3 >= 3
    assert names_at(sc, HK, "Dungeons") == []
    assert sc.zone(HK, DISCARD) == [HENCHMEN]
    assert sc.zone(HK, FATE_DISCARD) == ["The Witches of Morva"]


@pytest.mark.card("Gwythaints")
def test_gwythaints():
    # Gwythaints at Throne Room can vanquish at the adjacent Dungeons, not two locations away (Fair Folk Kingdom).
    sc = hk_turn(
        {
            "power": 0,
            "mover": "Fair Folk Kingdom",
            "hand": [],
            "realm": {"Throne Room": ["Gwythaints"], "Dungeons": ["Taran"], "Fair Folk Kingdom": ["Gurgi"]},
        }
    )
    opts = labels(sc)
    assert "vanquish Taran" in opts
    assert "vanquish Gurgi" not in opts
    assert entry(sc, HK, "Throne Room", "Gwythaints")["strength"] == 2
    sc.apply("vanquish Taran")
    assert sc.heroes(HK) == ["Gurgi"]
    assert "Taran" in sc.zone(HK, FATE_DISCARD)
    assert sc.zone(HK, DISCARD) == ["Gwythaints"]  # discarded like any Ally


@pytest.mark.card("Only Moments Away From Victory")
def test_only_moments_away_from_victory():
    sc = build(
        {"power": 0, "hand": [MOMENTS, AS, "Captured!"], "realm": {"Dungeons": ["Fair Folk"]}},
        {"mover": "The Woods", "power": 4, "hand": ["Five Dozen Eggs"], "realm": {"The Woods": ["Wolves"]}},
        villains=VILLAINS,
        active=GASTON,
    )
    sc.apply("play Five Dozen Eggs to The Woods on Wolves")
    # Right after Gaston plays an Item, the Horned King may play his Condition.
    assert sc.decision.player == HK and sc.decision.kind == "condition"
    assert labels(sc) == ["pass", f"card {MOMENTS}"]
    sc.apply(f"card {MOMENTS}")
    # He plays an Item from his hand for free, to a legal location (not Fair Folk's).
    assert sc.decision.player == HK
    opts = labels(sc)
    assert "play Ancient Soldiers to Dungeons" not in opts
    sc.apply("play Ancient Soldiers to Throne Room")
    assert names_at(sc, HK, "Throne Room") == [AS]
    assert sc.power(HK) == 0
    assert sc.hand(HK) == ["Captured!"]
    assert sc.zone(HK, DISCARD) == [MOMENTS]
    assert sc.decision.player == GASTON and sc.decision.kind == "action"


@pytest.mark.card("Only Moments Away From Victory")
def test_only_moments_away_from_victory_needs_an_item_to_play():
    sc = build(
        {"power": 0, "hand": [MOMENTS, "Captured!"]},
        {"mover": "The Woods", "power": 4, "hand": ["Five Dozen Eggs"], "realm": {"The Woods": ["Wolves"]}},
        villains=VILLAINS,
        active=GASTON,
    )
    sc.apply("play Five Dozen Eggs to The Woods on Wolves")
    assert sc.decision.player == GASTON and sc.decision.kind == "action"
    assert MOMENTS in sc.hand(HK)
    # Nor is it ever played with a Play a Card action, nor after his own Item.
    sc = hk_turn({"power": 3, "mover": "Fair Folk Kingdom", "hand": [MOMENTS, AS, AS]})
    assert not any(MOMENTS in o for o in labels(sc))
    sc.apply("play Ancient Soldiers to Morva")
    assert sc.decision.player == HK and sc.decision.kind == "action"
    assert MOMENTS in sc.hand(HK)


@pytest.mark.card("Our Hour Has Arrived")
def test_our_hour_has_arrived():
    sc = hk_turn({"power": 0, "mover": "Fair Folk Kingdom", "hand": ["Our Hour Has Arrived"], "tile": "front"})
    sc.apply("play Our Hour Has Arrived")
    assert sc.tile_side(HK) == POWER_SIDE
    assert sc.power(HK) == 0  # cost 0
    assert sc.zone(HK, DISCARD) == ["Our Hour Has Arrived"]
    # Needs a claimed Black Cauldron on its front side.
    for side in ("none", "power"):
        sc = hk_turn(
            {"power": 3, "mover": "Fair Folk Kingdom", "hand": ["Our Hour Has Arrived", "Captured!"], "tile": side}
        )
        assert "play Our Hour Has Arrived" not in labels(sc), side


@pytest.mark.card("Show Me the Black Cauldron")
def test_show_me_the_black_cauldron():
    sc = hk_turn({"power": 1, "mover": "Fair Folk Kingdom", "hand": [SHOW_ME]})
    sc.apply(f"play {SHOW_ME}")
    assert sc.decision.kind == "mode"
    assert labels(sc) == ["mode claim the Black Cauldron", "mode gain power"]
    sc.apply("mode claim the Black Cauldron")
    assert sc.tile_side(HK) == FRONT
    assert sc.power(HK) == 0

    sc = hk_turn({"power": 1, "mover": "Fair Folk Kingdom", "hand": [SHOW_ME]})
    sc.apply(f"play {SHOW_ME}").apply("mode gain power")
    assert sc.tile_side(HK) == "not claimed"
    assert sc.power(HK) == 3

    # Once claimed, only the Power is left (chosen automatically); the side shown does not change.
    sc = hk_turn({"power": 1, "mover": "Fair Folk Kingdom", "hand": [SHOW_ME], "tile": "power"})
    sc.apply(f"play {SHOW_ME}")
    assert sc.decision.kind == "action"
    assert sc.tile_side(HK) == POWER_SIDE
    assert sc.power(HK) == 3


@pytest.mark.card("Visions")
def test_visions():
    sc = hk_turn(
        {
            "power": 0,
            "mover": "Fair Folk Kingdom",
            "hand": ["Visions"],
            "realm": {"Morva": ["Taran", "Doli"], "Throne Room": ["Gurgi"]},
        }
    )
    sc.apply("play Visions")
    assert sc.power(HK) == 3
    assert sc.zone(HK, DISCARD) == ["Visions"]
    # No Hero, nothing to gain: it cannot be played.
    sc = hk_turn({"power": 0, "mover": "Fair Folk Kingdom", "hand": ["Visions", "Captured!"]})
    assert "play Visions" not in labels(sc)


@pytest.mark.card("We Got You Now, Pig Keeper")
def test_we_got_you_now_pig_keeper():
    # Find Hen Wen (here in the Fate deck) and play her to any location: the Horned King chooses.
    sc = hk_turn({"power": 2, "mover": "Fair Folk Kingdom", "hand": [PIG_KEEPER], "realm": {"Dungeons": ["Gurgi"]}})
    sc.apply(f"play {PIG_KEEPER}")
    assert sc.decision.player == HK and labels(sc) == ["mode find", "mode defeat"]
    sc.apply("mode find")
    assert sc.decision.player == HK and sc.decision.kind == "location"
    sc.apply("location Throne Room")
    assert names_at(sc, HK, "Throne Room") == ["Hen Wen"]
    assert fate_counts(sc, "Hen Wen") == (0, 0)
    assert sc.power(HK) == 0
    assert sc.zone(HK, DISCARD) == [PIG_KEEPER]

    # Hen Wen in the Fate discard pile is found there.
    sc = hk_turn({"power": 2, "mover": "Fair Folk Kingdom", "hand": [PIG_KEEPER], "fate_discard": ["Hen Wen"]})
    sc.apply(f"play {PIG_KEEPER}")  # only the find mode: no Hero to defeat
    sc.apply("location Morva")
    assert names_at(sc, HK, "Morva") == ["Hen Wen"]
    assert fate_counts(sc, "Hen Wen") == (0, 0)

    # Or defeat a Hero with a Strength of 1 (no Allies needed); Taran (2) is not eligible.
    sc = hk_turn(
        {
            "power": 2,
            "mover": "Fair Folk Kingdom",
            "hand": [PIG_KEEPER],
            "realm": {"Dungeons": ["Doli"], "Morva": ["Taran"]},
        }
    )
    sc.apply(f"play {PIG_KEEPER}").apply("mode defeat")
    assert sc.heroes(HK) == ["Taran"]
    assert "Doli" in sc.zone(HK, FATE_DISCARD)

    # Gurgi has Strength 2 beside Princess Eilonwy: only the find mode is left (chosen automatically).
    sc = hk_turn(
        {
            "power": 2,
            "mover": "Fair Folk Kingdom",
            "hand": [PIG_KEEPER],
            "realm": {"Morva": ["Taran", "Princess Eilonwy", "Gurgi"]},
        }
    )
    sc.apply(f"play {PIG_KEEPER}")
    assert sc.decision.kind == "location"

    # Cost 2.
    sc = hk_turn({"power": 1, "mover": "Fair Folk Kingdom", "hand": [PIG_KEEPER], "realm": {"Dungeons": ["Gurgi"]}})
    assert f"play {PIG_KEEPER}" not in labels(sc)


@pytest.mark.card("We Have Made a Bargain")
def test_we_have_made_a_bargain():
    # Shuffle the discard pile into the deck; the card itself is discarded afterwards.
    sc = hk_turn({"power": 1, "mover": "Fair Folk Kingdom", "hand": [BARGAIN], "discard": ["Captured!", "Visions"]})
    deck = len(sc.zone(HK, DECK))
    sc.apply(f"play {BARGAIN}")  # 0 Power left: the claim mode is not available
    assert sc.zone(HK, DISCARD) == [BARGAIN]
    assert len(sc.zone(HK, DECK)) == deck + 2
    assert sc.tile_side(HK) == "not claimed"
    assert sc.power(HK) == 0

    # Or pay 3 more Power, discard Dyrnwyn and claim the Black Cauldron.
    sc = hk_turn(
        {
            "power": 4,
            "mover": "Fair Folk Kingdom",
            "hand": [BARGAIN],
            "discard": ["Captured!"],
            "realm": {"Morva": [{"card": "Taran", "items": ["Dyrnwyn"]}]},
        }
    )
    sc.apply(f"play {BARGAIN}")
    assert labels(sc) == ["mode shuffle discard into deck", "mode claim the Black Cauldron"]
    sc.apply("mode claim the Black Cauldron")
    assert sc.tile_side(HK) == FRONT
    assert sc.power(HK) == 0
    assert "items" not in entry(sc, HK, "Morva", "Taran")
    assert entry(sc, HK, "Morva", "Taran")["strength"] == 2
    assert sc.zone(HK, FATE_DISCARD) == ["Dyrnwyn"]
    assert sc.zone(HK, DISCARD) == ["Captured!", BARGAIN]

    # 3 Power: 1 for the card leaves too little for the claim.
    sc = hk_turn({"power": 3, "mover": "Fair Folk Kingdom", "hand": [BARGAIN]})
    sc.apply(f"play {BARGAIN}")
    assert sc.tile_side(HK) == "not claimed"
    assert sc.power(HK) == 2

    # Without Dyrnwyn in play the claim still works ("discard Dyrnwyn from your Realm, if present").
    sc = hk_turn({"power": 4, "mover": "Fair Folk Kingdom", "hand": [BARGAIN]})
    sc.apply(f"play {BARGAIN}").apply("mode claim the Black Cauldron")
    assert sc.tile_side(HK) == FRONT
    assert sc.power(HK) == 0
    # Once claimed, only the shuffle is left (chosen automatically).
    sc = hk_turn({"power": 4, "mover": "Fair Folk Kingdom", "hand": [BARGAIN], "tile": "power"})
    sc.apply(f"play {BARGAIN}")
    assert sc.decision.kind == "action"
    assert sc.tile_side(HK) == POWER_SIDE and sc.power(HK) == 3


@pytest.mark.card("Captured!")
def test_captured():
    sc = hk_turn(
        {
            "power": 1,
            "mover": "Fair Folk Kingdom",
            "hand": ["Captured!"],
            "deck_top": ["Visions", "Gwythaints", "Creeper", "Guard Dog"],
        }
    )
    sc.apply("play Captured!")
    assert sc.hand(HK) == ["Creeper", "Gwythaints", "Visions"]
    assert sc.power(HK) == 0
    assert sc.zone(HK, DISCARD) == ["Captured!"]
    sc = hk_turn(
        {"power": 0, "mover": "Fair Folk Kingdom", "hand": ["Captured!", "Visions"], "realm": {"Morva": ["Gurgi"]}}
    )
    assert "play Captured!" not in labels(sc)  # cost 1


@pytest.mark.card("Creeper")
def test_creeper():
    # Used in a Vanquish, Creeper moves to the Horned King's location instead of being discarded.
    sc = hk_turn({"power": 0, "mover": "Fair Folk Kingdom", "hand": [], "realm": {"Dungeons": ["Creeper", "Gurgi"]}})
    assert entry(sc, HK, "Dungeons", "Creeper")["strength"] == 1
    sc.apply("vanquish Gurgi")
    assert names_at(sc, HK, "Fair Folk Kingdom") == ["Creeper"]
    assert names_at(sc, HK, "Dungeons") == []
    assert sc.zone(HK, DISCARD) == []
    # With other Allies: they are discarded, Creeper moves.
    sc = hk_turn(
        {
            "power": 0,
            "mover": "Throne Room",
            "hand": [],
            "realm": {"Morva": ["Creeper", HENCHMEN, "The Witches of Morva"]},
        }
    )
    sc.apply("vanquish The Witches of Morva").apply("card Creeper")  # then the Henchmen, the only way to reach 3
    assert names_at(sc, HK, "Throne Room") == ["Creeper"]
    assert names_at(sc, HK, "Morva") == []
    assert sc.zone(HK, DISCARD) == [HENCHMEN]


@pytest.mark.card("Guard Dog")
def test_guard_dog():
    sc = hk_turn({"power": 3, "mover": "Fair Folk Kingdom", "hand": ["Guard Dog", HENCHMEN]})
    sc.apply("play Guard Dog to Dungeons")
    assert sc.power(HK) == 2  # cost 1
    assert entry(sc, HK, "Dungeons", "Guard Dog")["strength"] == 1
    sc.apply(f"play {HENCHMEN} to Dungeons")
    assert entry(sc, HK, "Dungeons", "Guard Dog")["strength"] == 2  # another Ally at its location
    assert entry(sc, HK, "Dungeons", HENCHMEN)["strength"] == 3
    # Only once, however many Allies are there; an Ally elsewhere does not count.
    sc = hk_turn(
        {"power": 0, "mover": "Fair Folk Kingdom", "hand": [], "realm": {"Morva": ["Guard Dog", HENCHMEN, "Creeper"]}}
    )
    assert entry(sc, HK, "Morva", "Guard Dog")["strength"] == 2
    sc = hk_turn(
        {
            "power": 0,
            "mover": "Fair Folk Kingdom",
            "hand": [],
            "realm": {"Dungeons": ["Guard Dog"], "Fair Folk Kingdom": [CB], "Throne Room": [HENCHMEN]},
        }
    )
    assert entry(sc, HK, "Dungeons", "Guard Dog")["strength"] == 1


# ================================================================================================ Fate deck


@pytest.mark.card("I Believe in You")
def test_i_believe_in_you():
    sc = fated(
        {
            "hand": ["Visions", "Captured!", AS, CB, "Creeper"],
            "deck_top": ["Guard Dog", "Gwythaints", "Our Hour Has Arrived", "Visions"],
        },
        ["I Believe in You", "Gurgi's Sacrifice"],
    )
    sc.apply("play I Believe in You")
    assert sc.hand(HK) == ["Guard Dog", "Gwythaints", "Our Hour Has Arrived"]
    assert sc.zone(HK, DISCARD) == sorted([AS, "Captured!", CB, "Creeper", "Visions"])
    assert sc.zone(HK, FATE_DISCARD) == ["Gurgi's Sacrifice", "I Believe in You"]
    assert sc.decision.player == GASTON


@pytest.mark.card("Reunited")
def test_reunited():
    sc = fated({"fate_discard": ["Taran", "Gurgi"]}, ["Reunited", "Gurgi's Sacrifice"])
    sc.apply("play Reunited")
    # The Fating player picks a Hero of the Fate discard pile and its location.
    assert sc.decision.player == GASTON
    assert "play Taran to Dungeons" in labels(sc) and "play Gurgi to Morva" in labels(sc)
    sc.apply("play Taran to Dungeons")
    assert names_at(sc, HK, "Dungeons") == ["Taran"]
    assert sc.zone(HK, FATE_DISCARD) == ["Gurgi", "Gurgi's Sacrifice", "Reunited"]
    # No Hero in the Fate discard pile: it cannot be played.
    sc = fated({}, ["Reunited", "Taran"])
    assert not any("Reunited" in o for o in labels(sc))


@pytest.mark.card("Reunited")
def test_reunited_revealed_after_a_hero():
    sc = fated({"fate_discard": ["Gurgi"]}, ["Taran", "Reunited"])
    opts = labels(sc)
    assert "play Reunited" in opts
    assert "play Taran to Dungeons" in opts
    sc.apply("play Taran to Dungeons")
    assert names_at(sc, HK, "Dungeons") == ["Taran"]
    assert sc.zone(HK, FATE_DISCARD) == ["Gurgi", "Reunited"]


@pytest.mark.card("Doli")
def test_doli():
    realm = {"Morva": ["Taran"], "Dungeons": ["Gurgi", "Hen Wen"]}
    sc = fated({"realm": realm}, ["Doli", "Gurgi's Sacrifice"])
    sc.apply("play Doli to Throne Room")
    assert sc.decision.player == GASTON and labels(sc) == ["mode nothing", "mode move all Heroes"]
    sc.apply("mode move all Heroes")
    # All Heroes go to one single location (variant doli_destination = single), Doli included.
    assert sc.decision.player == GASTON and sc.decision.kind == "location"
    sc.apply("location Fair Folk Kingdom")
    assert sorted(names_at(sc, HK, "Fair Folk Kingdom")) == ["Doli", "Gurgi", "Hen Wen", "Taran"]
    assert entry(sc, HK, "Fair Folk Kingdom", "Taran")["strength"] == 5
    # He may also move nobody.
    sc = fated({"realm": realm}, ["Doli", "Gurgi's Sacrifice"])
    sc.apply("play Doli to Throne Room").apply("mode nothing")
    assert names_at(sc, HK, "Throne Room") == ["Doli"]
    assert names_at(sc, HK, "Morva") == ["Taran"]
    assert sorted(names_at(sc, HK, "Dungeons")) == ["Gurgi", "Hen Wen"]


@pytest.mark.card("Dyrnwyn")
def test_dyrnwyn():
    sc = fated({"realm": {"Fair Folk Kingdom": ["Taran", CB]}}, ["Dyrnwyn", "Gurgi's Sacrifice"])
    assert labels(sc) == ["play Dyrnwyn to Fair Folk Kingdom on Taran", "play Gurgi's Sacrifice"]
    sc.apply("play Dyrnwyn to Fair Folk Kingdom on Taran")
    taran = entry(sc, HK, "Fair Folk Kingdom", "Taran")
    assert taran["items"] == ["Dyrnwyn"] and taran["strength"] == 4  # +2

    # A Vanquish of that Hero needs at least 2 Allies: one Cauldron Born (6 >= 4) is not enough.
    held = {"power": 2, "mover": "Fair Folk Kingdom", "hand": [HENCHMEN]}
    sc = hk_turn({**held, "realm": {"Fair Folk Kingdom": [{"card": "Taran", "items": ["Dyrnwyn"]}, CB]}})
    assert "vanquish Taran" not in labels(sc)
    allies = [CB, "Creeper", "Guard Dog"]
    sc = hk_turn({**held, "realm": {"Fair Folk Kingdom": [{"card": "Taran", "items": ["Dyrnwyn"]}, *allies]}})
    sc.apply("vanquish Taran").apply(f"card {CB}")
    assert labels(sc) == ["card Creeper", "card Guard Dog"]  # Strength suffices, but a second Ally is needed
    sc.apply("card Creeper")
    assert labels(sc) == ["pass", "card Guard Dog"]
    sc.apply("pass")
    assert sc.heroes(HK) == []
    assert sc.zone(HK, FATE_DISCARD) == ["Dyrnwyn", "Taran"]
    assert sorted(names_at(sc, HK, "Fair Folk Kingdom")) == sorted(allies)  # Cauldron Born and Creeper stay

    # Without a Hero it cannot be played (and is discarded).
    sc = fated({}, ["Dyrnwyn", "Gurgi"])
    assert not any("Dyrnwyn" in o for o in labels(sc))


@pytest.mark.card("Fair Folk")
def test_fair_folk():
    sc = fated({"realm": {"Morva": [AS]}}, ["Fair Folk", "Gurgi's Sacrifice"])
    sc.apply("play Fair Folk to Morva")
    assert names_at(sc, HK, "Morva") == [AS, "Fair Folk"]  # an Ancient Soldiers already there stays
    assert entry(sc, HK, "Morva", "Fair Folk")["strength"] == 1
    # Ancient Soldiers cannot be played to Fair Folk's location ...
    sc = hk_turn(
        {"power": 3, "mover": "Fair Folk Kingdom", "hand": [AS], "realm": {"Morva": [AS, "Fair Folk", HENCHMEN]}}
    )
    opts = labels(sc)
    assert "play Ancient Soldiers to Morva" not in opts
    assert "play Ancient Soldiers to Fair Folk Kingdom" in opts
    # ... until Fair Folk is gone.
    sc.apply("vanquish Fair Folk")
    sc.apply("play Ancient Soldiers to Morva")
    assert names_at(sc, HK, "Morva") == [AS, AS]


@pytest.mark.card("Fflewddur Fflam")
def test_fflewddur_fflam():
    sc = fated(
        {"realm": {"Morva": [HENCHMEN, AS, "Guard Dog"], "Throne Room": [CB, "Gwythaints"]}},
        ["Fflewddur Fflam", "Gurgi's Sacrifice"],
    )
    sc.apply("play Fflewddur Fflam to Dungeons")
    # All of the Horned King's Allies move to his location; Items stay.
    assert sorted(names_at(sc, HK, "Dungeons")) == sorted([CB, "Fflewddur Fflam", "Guard Dog", "Gwythaints", HENCHMEN])
    assert names_at(sc, HK, "Morva") == [AS]
    assert names_at(sc, HK, "Throne Room") == []
    assert entry(sc, HK, "Dungeons", "Fflewddur Fflam")["strength"] == 1


@pytest.mark.card("Gurgi")
def test_gurgi():
    # Played by Fate: a Strength-1 Hero.
    sc = fated({}, ["Gurgi", "Gurgi's Sacrifice"])
    sc.apply("play Gurgi to Morva")
    assert entry(sc, HK, "Morva", "Gurgi")["strength"] == 1

    # Defeated by a Vanquish: shuffled into the Fate deck, not discarded.
    sc = hk_turn({"power": 0, "mover": "Fair Folk Kingdom", "hand": [], "realm": {"Dungeons": [HENCHMEN, "Gurgi"]}})
    deck = len(sc.zone(HK, FATE_DECK))
    sc.apply("vanquish Gurgi")
    assert sc.heroes(HK) == []
    assert fate_counts(sc, "Gurgi") == (1, 0)
    assert len(sc.zone(HK, FATE_DECK)) == deck + 1
    assert sc.zone(HK, DISCARD) == [HENCHMEN]

    # Defeated by We Got You Now, Pig Keeper (not a Vanquish): discarded.
    sc = hk_turn({"power": 2, "mover": "Fair Folk Kingdom", "hand": [PIG_KEEPER], "realm": {"Dungeons": ["Gurgi"]}})
    sc.apply(f"play {PIG_KEEPER}").apply("mode defeat")
    assert sc.heroes(HK) == []
    assert fate_counts(sc, "Gurgi") == (0, 1)


@pytest.mark.card("Gurgi's Happy Day")
def test_gurgis_happy_day():
    # Fate deck: 12 cards, Gurgi's Happy Day and Hen Wen on top; discard pile: Taran, Doli; Gurgi in play.
    sc = fated({"fate_discard": ["Taran", "Doli"], "realm": {"Morva": ["Gurgi"]}}, ["Gurgi's Happy Day", "Hen Wen"])
    # While the Fate action waits for the pick, the two revealed cards are out of the deck (in limbo).
    assert len(sc.zone(HK, FATE_DECK)) == 10
    assert sc.zone(HK, LIMBO) == ["Gurgi's Happy Day", "Hen Wen"]
    sc.apply("play Gurgi's Happy Day")
    # Play both revealed cards (the order depends on the shuffle): take the first option of every choice.
    while sc.decision.kind != "action":
        sc.apply(0)
    assert sc.decision.player == GASTON
    # Hen Wen (the other revealed card), Taran and Doli went back into the Fate deck: 10 + 3, minus the 2 revealed.
    assert len(sc.zone(HK, FATE_DECK)) == 11
    discard = sc.zone(HK, FATE_DISCARD)
    assert "Gurgi's Happy Day" in discard
    assert not {"Hen Wen", "Taran", "Doli"} & set(discard)
    # Both revealed cards were played: a revealed Hero is in play, never in the discard pile.
    heroes = {
        "Doli",
        "Fair Folk",
        "Fflewddur Fflam",
        "Gurgi",
        "Hen Wen",
        "Princess Eilonwy",
        "Taran",
        "The Witches of Morva",
    }
    assert not heroes & set(discard)
    played = [c for c in sc.heroes(HK) if c != "Gurgi"] + [c for c in discard if c != "Gurgi's Happy Day"]
    assert len(played) + sc.zone(HK, REALM).count("Dyrnwyn") == 2


@pytest.mark.card("Gurgi's Sacrifice")
def test_gurgis_sacrifice():
    sc = fated({"tile": "power", "realm": {"Morva": ["Taran"]}}, ["Gurgi's Sacrifice", "I Believe in You"])
    sc.apply("play Gurgi's Sacrifice")
    assert sc.tile_side(HK) == FRONT
    assert sc.zone(HK, FATE_DISCARD) == ["Gurgi's Sacrifice", "I Believe in You"]
    # With the front side showing (or no Cauldron) nothing changes.
    for side, shown in (("front", FRONT), ("none", "not claimed")):
        sc = fated({"tile": side}, ["Gurgi's Sacrifice", "I Believe in You"])
        sc.apply("play Gurgi's Sacrifice")
        assert sc.tile_side(HK) == shown


@pytest.mark.card("Hen Wen", abilities=("claim_cauldron", "no_effects"))
def test_hen_wen():
    sc = fated({}, ["Hen Wen", "Gurgi's Sacrifice"])
    sc.apply("play Hen Wen to Fair Folk Kingdom")
    assert entry(sc, HK, "Fair Folk Kingdom", "Hen Wen")["strength"] == 2

    # The Horned King cannot play Effects while she is in his Realm.
    hand = ["Captured!", "Visions", SHOW_ME, HENCHMEN]
    sc = hk_turn(
        {"power": 9, "mover": "Fair Folk Kingdom", "hand": hand, "realm": {"Fair Folk Kingdom": ["Hen Wen", HENCHMEN]}}
    )
    opts = labels(sc)
    assert not any(o in opts for o in ("play Captured!", "play Visions", f"play {SHOW_ME}"))
    assert f"play {HENCHMEN} to Morva" in opts
    # Defeating her claims the Black Cauldron; then Effects are playable again.
    sc.apply("vanquish Hen Wen")
    assert sc.tile_side(HK) == FRONT
    assert sc.zone(HK, FATE_DISCARD) == ["Hen Wen"]
    assert {"play Captured!", f"play {SHOW_ME}"} <= set(labels(sc))

    # Already claimed: the Cauldron keeps its side.
    sc = hk_turn(
        {
            "power": 0,
            "mover": "Fair Folk Kingdom",
            "hand": [],
            "tile": "power",
            "realm": {"Fair Folk Kingdom": ["Hen Wen", HENCHMEN]},
        }
    )
    sc.apply("vanquish Hen Wen")
    assert sc.tile_side(HK) == POWER_SIDE


@pytest.mark.card("Princess Eilonwy")
def test_princess_eilonwy():
    sc = fated(
        {"realm": {"Morva": ["Taran", "Gurgi"], "Throne Room": ["Hen Wen"]}}, ["Princess Eilonwy", "Gurgi's Sacrifice"]
    )
    sc.apply("play Princess Eilonwy to Dungeons")
    # All other Heroes get +1 Strength; she keeps her own 2.
    assert entry(sc, HK, "Dungeons", "Princess Eilonwy")["strength"] == 2
    assert entry(sc, HK, "Throne Room", "Hen Wen")["strength"] == 3
    assert entry(sc, HK, "Morva", "Gurgi")["strength"] == 2
    assert entry(sc, HK, "Morva", "Taran")["strength"] == 4  # 2 + 1 (Gurgi beside him) + 1 (Eilonwy)


@pytest.mark.card("Taran")
def test_taran():
    sc = fated({"realm": {"Morva": ["Gurgi", "Doli"], "Dungeons": ["Hen Wen"]}}, ["Taran", "Gurgi's Sacrifice"])
    sc.apply("play Taran to Morva")
    assert entry(sc, HK, "Morva", "Taran")["strength"] == 4  # 2 + 1 per other Hero at his location
    assert entry(sc, HK, "Morva", "Gurgi")["strength"] == 1
    sc = hk_turn(
        {
            "power": 0,
            "mover": "Fair Folk Kingdom",
            "hand": [],
            "realm": {"Throne Room": ["Taran"], "Dungeons": ["Hen Wen", "Gwythaints"]},
        }
    )
    assert entry(sc, HK, "Throne Room", "Taran")["strength"] == 2  # Hen Wen is not at his location
    sc.apply("vanquish Taran")  # Gwythaints (2), from the adjacent Dungeons
    assert sc.heroes(HK) == ["Hen Wen"]


@pytest.mark.card("The Witches of Morva")
def test_the_witches_of_morva():
    hand = ["Captured!", "Visions", AS]
    # The Fating player chooses: lose 2 Power ...
    sc = fated({"power": 5, "hand": hand}, ["The Witches of Morva", "Gurgi"])
    sc.apply("play The Witches of Morva to Dungeons")
    assert sc.decision.player == GASTON and labels(sc) == ["mode lose Power", "mode discard cards"]
    sc.apply("mode lose Power")
    assert sc.power(HK) == 3
    assert sc.hand(HK) == sorted(hand)
    assert entry(sc, HK, "Dungeons", "The Witches of Morva")["strength"] == 3
    # ... or discard 2 cards, which the Horned King picks.
    sc = fated({"power": 5, "hand": hand}, ["The Witches of Morva", "Gurgi"])
    sc.apply("play The Witches of Morva to Morva").apply("mode discard cards")
    assert sc.decision.player == HK and sc.decision.kind == "discard"
    sc.apply("card Visions")
    assert sc.decision.player == HK and sc.decision.kind == "discard"
    sc.apply("card Captured!")
    assert sc.hand(HK) == [AS]
    assert sc.zone(HK, DISCARD) == ["Captured!", "Visions"]
    assert sc.power(HK) == 5
    # Fewer than 2 Power: losing Power is not an option.
    sc = fated({"power": 1, "hand": hand}, ["The Witches of Morva", "Gurgi"])
    sc.apply("play The Witches of Morva to Morva")
    assert sc.decision.player == HK and sc.decision.kind == "discard"
    assert sc.power(HK) == 1


# ========================================================================================= the tile, the objective


@pytest.mark.card("The Black Cauldron")
def test_the_black_cauldron_discards_a_cauldron_born_at_the_start_of_the_turn():
    realm = {"Morva": [CB], "Dungeons": [CB, AS]}
    sc = hk_turn({"power": 0, "mover": "Morva", "hand": [CB], "tile": "front", "realm": realm}, phase="start")
    # The Horned King chooses which one; the one in his hand is not concerned.
    assert sc.decision.player == HK and sc.decision.kind == "card"
    assert labels(sc) == [f"card {CB}", f"card {CB}"]
    pick_row(sc, "card", instance(sc, "Dungeons", CB))
    assert names_at(sc, HK, "Morva") == [CB]
    assert names_at(sc, HK, "Dungeons") == [AS]
    assert sc.zone(HK, DISCARD) == [CB]
    assert sc.hand(HK) == [CB]
    assert sc.decision.kind == "move"  # then he moves: no swap on the front side

    # Not on the Power side.
    sc = hk_turn({"power": 0, "mover": "Morva", "hand": [], "tile": "power", "realm": realm}, phase="start")
    assert sc.decision.kind == "move"
    assert sorted(sc.zone(HK, REALM)) == [AS, CB, CB]

    # At the end of Gaston's turn, the Horned King's next turn starts with the discard (a single one: automatic).
    sc = build(
        {"power": 0, "mover": "Morva", "hand": [], "tile": "front", "realm": {"Throne Room": [CB]}},
        {"mover": "The Woods", "hand": []},
        villains=VILLAINS,
        active=GASTON,
    )
    after_turn_ends(sc)
    assert sc.decision.kind == "move"
    assert names_at(sc, HK, "Throne Room") == []
    assert sc.zone(HK, DISCARD) == [CB]


def test_the_black_cauldron_flips_with_an_ancient_soldiers_activate():
    sc = hk_turn({"power": 0, "mover": "Morva", "hand": [], "tile": "front", "realm": {"Morva": [AS]}})
    sc.apply("activate The Black Cauldron")
    assert sc.tile_side(HK) == POWER_SIDE
    assert sc.power(HK) == 0  # no printed cost (variant unprinted_activation_cost = 0)
    assert names_at(sc, HK, "Morva") == [AS]
    assert "activate The Black Cauldron" not in labels(sc)
    # Unclaimed or already powered: nothing to activate.
    for side in ("none", "power"):
        sc = hk_turn({"power": 0, "mover": "Morva", "hand": [], "tile": side, "realm": {"Morva": [AS]}})
        assert "activate The Black Cauldron" not in labels(sc), side
    # With an activation cost of 1 (variant), the Power must be there.
    sc = hk_turn(
        {"power": 0, "mover": "Morva", "hand": [], "tile": "front", "realm": {"Morva": [AS]}},
        rules={"unprinted_activation_cost": "1"},
    )
    assert "activate The Black Cauldron" not in labels(sc)
    sc = hk_turn(
        {"power": 1, "mover": "Morva", "hand": [], "tile": "front", "realm": {"Morva": [AS]}},
        rules={"unprinted_activation_cost": "1"},
    )
    sc.apply("activate The Black Cauldron")
    assert sc.tile_side(HK) == POWER_SIDE and sc.power(HK) == 0


def test_the_power_of_the_black_cauldron():
    realm = {"Dungeons": [AS, AS], "Throne Room": [AS]}
    sc = hk_turn({"power": 3, "mover": "Morva", "hand": [CB, CB], "tile": "power", "realm": realm}, phase="before_move")
    assert sc.decision.player == HK and sc.decision.kind == "swap"
    assert labels(sc) == [
        "pass",
        "swap Ancient Soldiers for Cauldron Born at Dungeons",
        "swap Ancient Soldiers for Cauldron Born at Throne Room",
    ]
    sc.apply("swap Ancient Soldiers for Cauldron Born at Throne Room")
    # Pay 2, the Ancient Soldiers is discarded and the Cauldron Born takes its place.
    assert sc.power(HK) == 1
    assert names_at(sc, HK, "Throne Room") == [CB]
    assert sc.zone(HK, DISCARD) == [AS]
    assert sc.hand(HK) == [CB]
    # Once per turn: he moves next.
    assert sc.decision.kind == "move"

    # "pass" keeps everything.
    sc = hk_turn({"power": 3, "mover": "Morva", "hand": [CB], "tile": "power", "realm": realm}, phase="before_move")
    sc.apply("pass")
    assert sc.decision.kind == "move" and sc.power(HK) == 3 and sc.hand(HK) == [CB]

    # Not offered with less than 2 Power, without a Cauldron Born in hand, without an Ancient Soldiers in play,
    # or with the front side showing.
    for hk in (
        {"power": 1, "hand": [CB], "tile": "power", "realm": realm},
        {"power": 5, "hand": [AS], "tile": "power", "realm": realm},
        {"power": 5, "hand": [CB], "tile": "power", "realm": {"Morva": [CB]}},
        {"power": 5, "hand": [CB], "tile": "front", "realm": realm},
    ):
        sc = hk_turn({"mover": "Morva", **hk}, phase="before_move")
        assert sc.decision.kind == "move", hk

    # Variant cauldron_born_placement = any_location.
    sc = hk_turn(
        {"power": 2, "mover": "Morva", "hand": [CB], "tile": "power", "realm": {"Dungeons": [AS]}},
        phase="before_move",
        rules={"cauldron_born_placement": "any_location"},
    )
    sc.apply("swap Ancient Soldiers for Cauldron Born at Morva")
    assert names_at(sc, HK, "Morva") == [CB] and names_at(sc, HK, "Dungeons") == []


def test_objective():
    # A swap brings the fourth Cauldron Born: the Horned King wins at once, before moving.
    realm = {"Morva": [CB], "Fair Folk Kingdom": [CB], "Dungeons": [AS], "Throne Room": [CB]}
    sc = hk_turn({"power": 2, "mover": "Morva", "hand": [CB], "tile": "power", "realm": realm}, phase="before_move")
    sc.apply("swap Ancient Soldiers for Cauldron Born at Dungeons")
    assert sc.over and sc.winner == HK and sc.decision is None

    # A Move action completes the set in the middle of his turn.
    realm = {"Morva": [CB], "Fair Folk Kingdom": [CB], "Dungeons": [CB, CB]}
    sc = hk_turn({"power": 0, "mover": "Dungeons", "hand": [], "tile": "front", "realm": realm})
    assert not sc.over
    pick_row(sc, "move", instance(sc, "Dungeons", CB), 3)  # to Throne Room
    assert sc.over and sc.winner == HK

    # Three locations are not enough.
    realm = {"Morva": [CB, CB], "Fair Folk Kingdom": [CB], "Dungeons": [CB]}
    sc = hk_turn({"power": 0, "mover": "Dungeons", "hand": [], "tile": "power", "realm": realm})
    assert not sc.over and sc.winner == -1
