from conftest import build, labels, names_at


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
