import pytest
from conftest import build, labels, names_at

from simlab.errors import InputError


def test_options_list_the_legal_actions():
    sc = build(
        {
            "power": 5,
            "mover": "The Tavern",
            "hand": ["Temper", "Get Out!", "Wolves", "Swoon"],
            "realm": {"The Tavern": ["Monsieur D'Arque"]},
        },
        {"hand": ["Captured!"]},
    )
    assert sc.decision.player == 0 and sc.decision.kind == "action"
    opts = labels(sc)
    assert "play Temper" in opts and "play Get Out!" in opts and "activate Monsieur D'Arque" in opts
    assert "play Swoon" not in opts  # nothing to replace: all 8 Obstacles are on the board
    assert "gain 2 Power" in opts


def test_apply_resolves_a_card_and_its_choices():
    sc = build({"power": 5, "mover": "The Tavern", "hand": ["Temper"]}, {})
    sc.apply("play Temper")
    assert sc.decision.kind == "location"
    sc.apply("location Belle's House")
    assert sc.obstacles(0) == [1, 2, 2, 2]
    assert sc.power(0) == 3
    assert "Temper" not in sc.hand(0)
    assert "Temper" in sc.zone(0, 2)  # villain discard pile


def test_realm_description_places_cards_with_items_and_tokens():
    sc = build(
        {"realm": {"Belle's House": [{"card": "Maurice", "items": ["Maurice's Invention"]}], "The Woods": ["Wolves"]}},
        {},
    )
    assert names_at(sc, 0, "Belle's House") == ["Maurice"]
    assert sc.realm(0)["Belle's House"][0]["items"] == ["Maurice's Invention"]
    assert sc.realm(0)["The Woods"][0]["strength"] == 1


def test_locate_finds_a_hero_in_the_realm_with_an_item_attached_and_the_item_on_it():
    invention = {"card": "Lumiere", "items": ["Maurice's Invention"], "trapped": True}
    sc = build({"realm": {"The Woods": [invention]}, "hand": ["Wolves"]}, {})
    (lumiere,) = sc.locate(0, "Lumiere")
    assert lumiere["zone"] == "realm" and lumiere["location"] == "The Woods"
    assert lumiere["items"] == ["Maurice's Invention"] and lumiere["trapped"] and "host" not in lumiere
    (item,) = sc.locate(0, "Maurice's Invention")
    assert item["zone"] == "realm" and item["location"] == "The Woods" and item["host"] == "Lumiere"
    assert item["items"] == [] and not item["trapped"]
    assert [e["zone"] for e in sc.locate(0, "Wolves")] == ["hand", "deck", "deck", "deck"]
    assert [e["zone"] for e in sc.locate(0, "Beast")] == ["fate deck"]
    with pytest.raises(InputError, match="unknown card 'Nobody'"):
        sc.locate(0, "Nobody")


@pytest.mark.card("Maurice", abilities=("fetch_attachment_here",))
def test_maurice_leaves_his_invention_on_a_hero_in_the_realm():
    """Maurice searches the Fate deck and discard pile for his Invention (cards.yaml), not the Realm: an Invention
    already attached to a Hero in play stays there; the Hero keeps it when Maurice joins him."""
    gaston = {"mover": "The Tavern", "hand": [], "fate_top": ["Maurice", "Massaging My Feet"]}
    gaston["realm"] = {"The Woods": [{"card": "Lumiere", "items": ["Maurice's Invention"]}, "Wolves"]}
    sc = build(gaston, {"mover": "Morva", "hand": [], "power": 0}, active=1)
    sc.apply(next(o.index for o in sc.options() if o.code == "fate"))
    sc.apply("play Maurice to The Woods")
    assert sc.decision.player == 1 and sc.decision.kind == "action"  # nothing found: no Hero to choose
    assert [e["host"] for e in sc.locate(0, "Maurice's Invention")] == ["Lumiere"]
    assert sorted(names_at(sc, 0, "The Woods")) == ["Lumiere", "Maurice", "Wolves"]
    assert [e["strength"] for e in sc.realm(0)["The Woods"] if e["card"] == "Wolves"] == [0]


def test_turn_state_of_the_black_cauldron_and_the_ancient_soldiers():
    """The once-a-turn uses: the Power of the Black Cauldron's swap (per seat) and the Activate actions Ancient
    Soldiers grant (this turn's count) are part of a position."""
    hk = {"power": 3, "mover": "Morva", "hand": ["Cauldron Born"], "tile": "power"}
    hk["realm"] = {"Dungeons": ["Ancient Soldiers"]}
    villains = ("horned-king", "gaston")
    assert build(hk, {}, villains=villains, phase="before_move").decision.kind == "swap"
    assert build({**hk, "swap_used": True}, {}, villains=villains, phase="before_move").decision.kind == "move"

    hk = {"power": 0, "mover": "Dungeons", "hand": [], "tile": "front"}
    hk["realm"] = {"Dungeons": ["Ancient Soldiers"]}
    assert "activate The Black Cauldron" in labels(build(hk, {}, villains=villains))
    used = build(hk, {}, villains=villains, granted_activates_used=1)
    assert "activate The Black Cauldron" not in labels(used)
    with pytest.raises(InputError, match="unknown tile side 'back'; choose from none, front, power"):
        build({"tile": "back"}, {}, villains=villains)
