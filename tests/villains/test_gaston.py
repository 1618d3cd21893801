"""One test per card of Gaston's Villain deck (16) and Fate deck (14), plus the rulebook examples about them.

Villain cards are played by Gaston (seat 0) on his turn. Fate cards are put on top of Gaston's Fate deck
and the Horned King (seat 1, at Morva: Play + Fate on the top row) takes a Fate action against him.

Choices are made with :func:`pick`, which can also check which kind of decision is pending and who takes it.
"""

from __future__ import annotations

import pytest
from conftest import build, entry, labels, names_at

from simlab.kernels import const as K

BH, TAVERN, WOODS, CASTLE = "Belle's House", "The Tavern", "The Woods", "Beast's Castle"
LOCS = (BH, TAVERN, WOODS, CASTLE)
FULL = {BH: 2, TAVERN: 2, WOODS: 2, CASTLE: 2}
DECK, DISCARD, FATE_DECK, FATE_DISCARD = 0, 2, 4, 5  # zones for sc.zone(seat, zone)


# ---------------------------------------------------------------------------------------------- helpers


def pick(sc, label: str, kind: str | None = None, player: int | None = None):
    """Answer the pending decision with the option labelled ``label`` (exact, else a unique substring)."""
    d = sc.decision
    assert d is not None, "the game is over"
    if kind is not None:
        assert d.kind == kind, (d.kind, labels(sc))
    if player is not None:
        assert d.player == player, (d.player, d.kind, labels(sc))
    labs = labels(sc)
    hits = [i for i, lab in enumerate(labs) if lab == label]
    if not hits:
        hits = [i for i, lab in enumerate(labs) if label in lab]
        assert len(hits) == 1, f"{label!r} matches {len(hits)} of {labs}"
    return sc.apply(d.options[hits[0]].index)


def play(sc, *labels_):
    for lab in labels_:
        pick(sc, lab)
    return sc


def fated(gaston: dict, fate_top: list[str], **kw):
    """Gaston's position with ``fate_top`` on his Fate deck; the Horned King is at Morva, about to act."""
    g = dict(gaston)
    g["fate_top"] = fate_top
    return build(g, {"mover": "Morva", "hand": [], "power": 0}, active=1, **kw)


def fate(sc):
    """The Horned King takes his Fate action against Gaston."""
    assert sc.decision.player == 1 and sc.decision.kind == "action", (sc.decision, labels(sc))
    return sc.apply(next(o.index for o in sc.options() if o.code == "fate"))


def back_to_horned_king(sc) -> bool:
    """The Fate action is over: the Horned King picks his next action."""
    return sc.decision is not None and sc.decision.player == 1 and sc.decision.kind == "action"


def where(sc, card: str, seat: int = 0) -> str | None:
    for loc, cards in sc.realm(seat).items():
        if any(e["card"] == card for e in cards):
            return loc
    return None


def gaston(**kw) -> dict:
    """Gaston at The Tavern (Activate, Gain 2 / Play, Vanquish), all 8 Obstacles on the board by default."""
    d = {"mover": TAVERN, "power": 0, "hand": [], "obstacles": dict(FULL)}
    d.update(kw)
    return d


def total(sc) -> int:
    return sum(sc.obstacles(0))


# ============================================================================================ Villain deck


@pytest.mark.card("Wolves")
def test_wolves():
    # One Wolves alone has Strength 1; each other Wolves in the Realm (any location) adds 1.
    sc = build(gaston(power=1, hand=["Wolves"], realm={WOODS: ["Wolves"], BH: ["Wolves"], CASTLE: ["The Mob"]}), {})
    assert entry(sc, 0, WOODS, "Wolves")["strength"] == 2
    assert "play Wolves to The Tavern" in labels(sc)
    pick(sc, "play Wolves to The Tavern")
    assert sc.power(0) == 0
    assert [entry(sc, 0, loc, "Wolves")["strength"] for loc in (BH, TAVERN, WOODS)] == [3, 3, 3]
    assert entry(sc, 0, CASTLE, "The Mob")["strength"] == 4  # other Allies are not Wolves

    lone = build(gaston(power=1, hand=["Wolves"]), {})
    pick(lone, "play Wolves to The Woods")
    assert entry(lone, 0, WOODS, "Wolves")["strength"] == 1

    broke = build(gaston(power=0, hand=["Wolves"]), {})
    assert not [lab for lab in labels(broke) if lab.startswith("play Wolves")]  # costs 1


def beautiful(gaston_spec: dict, actions_before: int):
    """The Horned King at Morva has taken ``actions_before`` actions (extra ones count); Gain and Discard are left."""
    hk = {"mover": "Morva", "hand": ["Captured!"], "power": 0}
    return build(gaston_spec, hk, active=1, actions_taken=actions_before, used=["play_card", "fate"])


@pytest.mark.card("Beautiful as Me")
def test_beautiful_as_me():
    # After the opponent's 4th action Gaston may play it and remove 1 Obstacle.
    sc = beautiful(gaston(hand=["Beautiful as Me"]), 3)
    assert labels(sc) == ["pass", "gain 1 Power", "discard cards"]
    sc.apply("gain 1 Power")
    assert sc.decision.kind == "condition" and sc.decision.player == 0
    assert labels(sc) == ["pass", "card Beautiful as Me"]
    pick(sc, "card Beautiful as Me")
    pick(sc, "location The Woods", kind="location", player=0)
    assert sc.obstacles(0) == [2, 2, 1, 2]
    assert sc.hand(0) == [] and "Beautiful as Me" in sc.zone(0, DISCARD)
    assert back_to_horned_king(sc)

    # "may": Gaston can let the window pass and keep the card.
    sc = beautiful(gaston(hand=["Beautiful as Me"]), 3)
    sc.apply("gain 1 Power")
    pick(sc, "pass", kind="condition")
    assert total(sc) == 8 and sc.hand(0) == ["Beautiful as Me"]

    # Not after only 3 actions.
    sc = beautiful(gaston(hand=["Beautiful as Me"]), 2)
    sc.apply("gain 1 Power")
    assert back_to_horned_king(sc) and sc.hand(0) == ["Beautiful as Me"]

    # Not while Belle is in play (the Obstacle could not be removed).
    sc = beautiful(gaston(hand=["Beautiful as Me"], realm={WOODS: ["Belle"]}), 3)
    sc.apply("gain 1 Power")
    assert back_to_horned_king(sc) and sc.hand(0) == ["Beautiful as Me"]

    # Not on Gaston's own turn: his 4th action opens no window for himself.
    sc = build(gaston(power=1, hand=["Beautiful as Me", "Wolves"]), {}, actions_taken=3, used=["activate", "vanquish"])
    sc.apply("gain 2 Power")
    assert sc.decision.kind == "action" and sc.decision.player == 0
    assert sc.hand(0) == ["Beautiful as Me", "Wolves"] and total(sc) == 8
    assert "play Beautiful as Me" not in labels(sc)  # a Condition is never played with a Play a Card action

    # Several Conditions may be played at one time.
    sc = beautiful(gaston(hand=["Beautiful as Me", "Beautiful as Me"]), 3)
    sc.apply("gain 1 Power")
    play(sc, "card Beautiful as Me", "location The Woods", "card Beautiful as Me", "location The Woods")
    assert sc.obstacles(0) == [2, 2, 0, 2] and sc.hand(0) == []

    # The last Obstacle: Gaston wins during the opponent's turn.
    sc = beautiful(gaston(hand=["Beautiful as Me"], obstacles={BH: 0, TAVERN: 0, WOODS: 0, CASTLE: 1}), 3)
    sc.apply("gain 1 Power")
    pick(sc, "card Beautiful as Me")
    assert sc.over and sc.winner == 0

    # A Fate action as the 4th action: the window opens once it has fully resolved. Belle, just played by it,
    # then blocks the removal; Cogsworth does not.
    for hero, offered in (("Belle", False), ("Cogsworth", True)):
        hk = {"mover": "Morva", "hand": ["Captured!"], "power": 0}
        g = gaston(hand=["Beautiful as Me"], fate_top=[hero, "Massaging My Feet"])
        sc = build(g, hk, active=1, actions_taken=3, used=["play_card", "discard_cards"])
        fate(sc)
        pick(sc, f"play {hero} to The Woods", kind="fate_pick")
        assert (sc.decision.kind == "condition") == offered, (hero, sc.decision)


@pytest.mark.card("Swoon")
def test_swoon():
    six = {BH: 1, TAVERN: 2, WOODS: 1, CASTLE: 2}
    sc = build(gaston(power=1, hand=["Swoon"], obstacles=dict(six)), {})
    pick(sc, "play Swoon")
    assert sorted(labels(sc)) == ["location Belle's House", "location The Woods"]  # only where a spot is empty
    pick(sc, "location Belle's House", kind="location")
    assert sc.decision.kind == "mode" and sorted(labels(sc)) == ["mode draw", "mode gain power"]
    pick(sc, "mode gain power")
    assert sc.obstacles(0) == [2, 2, 1, 2]
    assert sc.power(0) == 3  # 1 - 1 + 3
    assert "Swoon" in sc.zone(0, DISCARD)

    sc = build(gaston(power=1, hand=["Swoon"], obstacles=dict(six), deck_top=["Temper", "Get Out!", "Wolves"]), {})
    play(sc, "play Swoon", "location The Woods", "mode draw")
    assert sc.obstacles(0) == [1, 2, 2, 2]
    assert sc.power(0) == 0
    assert sc.hand(0) == ["Get Out!", "Temper", "Wolves"]

    # Cannot be played when all 8 Obstacles are on the board, nor without the Power.
    assert "play Swoon" not in labels(build(gaston(power=1, hand=["Swoon"]), {}))
    assert "play Swoon" not in labels(build(gaston(power=0, hand=["Swoon"], obstacles=dict(six)), {}))


@pytest.mark.card("Belle Is Mine")
def test_belle_is_mine():
    # Gaston at The Woods has no Vanquish action; Belle Is Mine gives him one.
    spec = gaston(mover=WOODS, power=1, hand=["Belle Is Mine"], realm={BH: ["Belle", "The Mob"]})
    sc = build(spec, {})
    assert not [lab for lab in labels(sc) if lab.startswith("vanquish")]
    pick(sc, "play Belle Is Mine")
    assert sc.heroes(0) == []
    assert "Belle" in sc.zone(0, FATE_DISCARD)
    assert "The Mob" in sc.zone(0, DISCARD) and "Belle Is Mine" in sc.zone(0, DISCARD)
    assert sc.power(0) == 0

    # Not playable when no Hero can be vanquished (the Allies are elsewhere, or too weak).
    far = build(gaston(mover=WOODS, power=1, hand=["Belle Is Mine"], realm={BH: ["Belle"], TAVERN: ["The Mob"]}), {})
    assert "play Belle Is Mine" not in labels(far)
    weak = build(gaston(mover=WOODS, power=1, hand=["Belle Is Mine"], realm={BH: ["Lumiere", "Wolves"]}), {})
    assert "play Belle Is Mine" not in labels(weak)


@pytest.mark.card("Come Into the Light")
def test_come_into_the_light():
    sc = build(gaston(power=3, hand=["Come Into the Light"]), {})
    pick(sc, "play Come Into the Light")
    pick(sc, "location The Woods", kind="location")
    assert sc.obstacles(0) == [2, 2, 0, 2]  # both from the one location chosen
    assert sc.power(0) == 0
    assert sc.decision.kind == "action"  # no second location asked

    # "Up to 2": a location with a single Obstacle loses only that one; the others are untouched.
    sc = build(gaston(power=3, hand=["Come Into the Light"], obstacles={BH: 1, TAVERN: 2, WOODS: 2, CASTLE: 2}), {})
    play(sc, "play Come Into the Light", "location Belle's House")
    assert sc.obstacles(0) == [0, 2, 2, 2]

    assert "play Come Into the Light" not in labels(build(gaston(power=2, hand=["Come Into the Light"]), {}))
    belle = build(gaston(power=3, hand=["Come Into the Light"], realm={WOODS: ["Belle"]}), {})
    assert "play Come Into the Light" not in labels(belle)


@pytest.mark.card("Five Dozen Eggs")
def test_five_dozen_eggs():
    sc = build(gaston(power=4, hand=["Five Dozen Eggs"], realm={WOODS: ["Wolves"], BH: ["Belle"]}), {})
    plays = [lab for lab in labels(sc) if lab.startswith("play Five Dozen Eggs")]
    assert plays == ["play Five Dozen Eggs to The Woods on Wolves"]  # Allies only, not Heroes
    pick(sc, plays[0])
    wolves = entry(sc, 0, WOODS, "Wolves")
    assert wolves["items"] == ["Five Dozen Eggs"] and wolves["strength"] == 3
    assert sc.power(0) == 0

    # No Ally to attach to, or not enough Power: cannot be played.
    assert not [
        lab
        for lab in labels(build(gaston(power=4, hand=["Five Dozen Eggs"], realm={BH: ["Belle"]}), {}))
        if "Five Dozen Eggs" in lab
    ]
    assert not [
        lab
        for lab in labels(build(gaston(power=3, hand=["Five Dozen Eggs"], realm={WOODS: ["Wolves"]}), {}))
        if "Five Dozen Eggs" in lab
    ]


@pytest.mark.card("Hunter's Instinct")
def test_hunters_instinct():
    realm = {BH: ["Maurice", "Wolves"], WOODS: ["Lumiere"], CASTLE: ["Beast"]}
    sc = build(gaston(power=3, hand=["Hunter's Instinct"], realm=realm), {})
    pick(sc, "play Hunter's Instinct")
    assert sc.decision.kind == "card"
    assert sorted(labels(sc)) == ["card Lumiere", "card Maurice"]  # Beast (6) is too strong
    pick(sc, "card Maurice")
    assert sorted(sc.heroes(0)) == ["Beast", "Lumiere"]
    assert "Maurice" in sc.zone(0, FATE_DISCARD)
    assert sc.obstacles(0) == [0, 2, 2, 2]  # Maurice's "when defeated"
    assert names_at(sc, 0, BH) == ["Wolves"]  # a defeat needs no Ally
    assert sc.power(0) == 0

    # Current Strength counts: Cogsworth makes Lumiere 4, so only Cogsworth himself (2) is a target.
    sc = build(gaston(power=3, hand=["Hunter's Instinct"], realm={WOODS: ["Lumiere", "Cogsworth"]}), {})
    pick(sc, "play Hunter's Instinct")
    assert "Cogsworth" in sc.zone(0, FATE_DISCARD) and sc.heroes(0) == ["Lumiere"]

    # Not playable with only strong Heroes in play (and not without the Power).
    only_beast = build(gaston(power=3, hand=["Hunter's Instinct"], realm={CASTLE: ["Beast"]}), {})
    assert "play Hunter's Instinct" not in labels(only_beast)
    assert "play Hunter's Instinct" not in labels(build(gaston(power=2, hand=["Hunter's Instinct"], realm=realm), {}))


@pytest.mark.card("Intimidating")
def test_intimidating():
    sc = build(gaston(power=1, hand=["Intimidating"], deck_top=["Temper", "Swoon", "Wolves", "Get Out!"]), {})
    pick(sc, "play Intimidating")
    assert sc.hand(0) == ["Wolves"]
    assert sc.zone(0, DISCARD) == ["Intimidating", "Swoon", "Temper"]
    assert "Get Out!" in sc.zone(0, DECK)
    st = sc.state
    top = int(st.vdeck[0, int(st.sv[0, K.SV_VDECK_N]) - 1])
    assert sc.card_name(0, top) == "Get Out!"  # the cards under the Ally are not revealed

    # No Ally left in the deck or discard pile: still playable, it only reshuffles the discard pile into the deck.
    allies = {BH: ["Wolves", "Wolves", "Wolves", "Wolves"], TAVERN: ["LeFou", "Monsieur D'Arque", "The Mob"]}
    sc = build(gaston(power=1, hand=["Intimidating"], realm=allies, discard=["Temper"]), {})
    pick(sc, "play Intimidating")
    assert sc.zone(0, DISCARD) == ["Intimidating"]
    assert "Temper" in sc.zone(0, DECK) and sc.hand(0) == []


@pytest.mark.card("Take Me Instead")
def test_take_me_instead():
    # Non-Heroes revealed go back into the Fate deck; the Hero goes to Beast's Castle; then 1 Obstacle is removed.
    sc = build(gaston(hand=["Take Me Instead"], fate_top=["Magic Mirror", "It Is You", "Lumiere"]), {})
    pick(sc, "play Take Me Instead")
    # Lumiere's "when played" (may move a Hero) is resolved by Gaston.
    assert sc.decision.player == 0 and "pass" in labels(sc)
    pick(sc, "pass")
    pick(sc, "location The Tavern", kind="location", player=0)
    assert where(sc, "Lumiere") == CASTLE
    assert sc.obstacles(0) == [2, 1, 2, 2]
    assert "Magic Mirror" in sc.zone(0, FATE_DECK) and "It Is You" in sc.zone(0, FATE_DECK)
    assert sc.zone(0, FATE_DISCARD) == []
    assert "Take Me Instead" in sc.zone(0, DISCARD)

    # Belle: she is played, and then no Obstacle can be removed.
    sc = build(gaston(hand=["Take Me Instead"], fate_top=["Belle"]), {})
    pick(sc, "play Take Me Instead")
    assert where(sc, "Belle") == CASTLE and total(sc) == 8
    assert "Take Me Instead" in sc.zone(0, DISCARD)

    # Beast: his push of the Allies at Beast's Castle is mandatory and Gaston picks the (single) destination.
    sc = build(gaston(hand=["Take Me Instead"], fate_top=["Beast"], realm={CASTLE: ["Wolves", "The Mob"]}), {})
    pick(sc, "play Take Me Instead")
    assert sc.decision.player == 0 and "location Beast's Castle" not in labels(sc)
    pick(sc, "location The Woods", kind="location")
    pick(sc, "location Belle's House", kind="location")  # the Obstacle
    assert names_at(sc, 0, CASTLE) == ["Beast"]
    assert sorted(names_at(sc, 0, WOODS)) == ["The Mob", "Wolves"]
    assert sc.obstacles(0) == [1, 2, 2, 2]


@pytest.mark.card("Time to Follow Me!")
def test_time_to_follow_me():
    sc = build(
        gaston(
            mover=WOODS,
            power=1,
            hand=["Time to Follow Me!"],
            realm={TAVERN: [{"card": "Wolves", "items": ["Five Dozen Eggs"]}]},
        ),
        {},
    )
    assert not [lab for lab in labels(sc) if lab.startswith("move")]  # no Move action at The Woods
    pick(sc, "play Time to Follow Me!")
    assert sc.decision.kind == "card"
    assert sorted(labels(sc)) == ["move Wolves to Belle's House", "move Wolves to The Woods"]  # adjacent only
    pick(sc, "move Wolves to The Woods")
    assert names_at(sc, 0, TAVERN) == []
    assert entry(sc, 0, WOODS, "Wolves")["items"] == ["Five Dozen Eggs"]  # attached Items go along
    assert sc.power(0) == 0 and "Time to Follow Me!" in sc.zone(0, DISCARD)

    # Nothing to move: cannot be played.
    assert "play Time to Follow Me!" not in labels(build(gaston(power=1, hand=["Time to Follow Me!"]), {}))


@pytest.mark.card("Get Out!")
def test_get_out():
    sc = build(gaston(power=5, hand=["Get Out!"]), {})
    play(sc, "play Get Out!", "location Belle's House", "location Belle's House", "location The Woods")
    assert sc.obstacles(0) == [0, 2, 1, 2]
    assert sc.power(0) == 0

    # Default reading: up to 3. With 2 left it removes both, and Gaston wins at once.
    two = {BH: 0, TAVERN: 0, WOODS: 1, CASTLE: 1}
    sc = build(gaston(power=5, hand=["Get Out!"], obstacles=dict(two)), {})
    pick(sc, "play Get Out!")
    pick(sc, "location The Woods")
    assert sc.over and sc.winner == 0 and total(sc) == 0

    # "exactly_three" reading: not playable with fewer than 3 Obstacles left, playable with 3.
    exact = {"get_out": "exactly_three"}
    sc = build(gaston(power=5, hand=["Get Out!"], obstacles=dict(two)), {}, rules=exact)
    assert "play Get Out!" not in labels(sc)
    three = {BH: 1, TAVERN: 0, WOODS: 1, CASTLE: 1}
    assert "play Get Out!" in labels(build(gaston(power=5, hand=["Get Out!"], obstacles=three), {}, rules=exact))

    assert "play Get Out!" not in labels(build(gaston(power=4, hand=["Get Out!"]), {}))
    assert "play Get Out!" not in labels(build(gaston(power=5, hand=["Get Out!"], realm={WOODS: ["Belle"]}), {}))


@pytest.mark.card("LeFou")
def test_lefou():
    # Allies used in a Vanquish at LeFou's location (LeFou included) go back to the hand.
    sc = build(gaston(realm={BH: ["Lumiere", "LeFou", "Wolves", "Wolves"]}), {})
    pick(sc, "vanquish Lumiere")
    pick(sc, "card LeFou", kind="vanquish_ally")
    assert "pass" not in labels(sc)  # 2 < 3: another Ally is needed
    pick(sc, "card Wolves")
    pick(sc, "pass", kind="vanquish_ally")
    assert sc.heroes(0) == [] and "Lumiere" in sc.zone(0, FATE_DISCARD)
    assert sc.hand(0) == ["LeFou", "Wolves"]
    assert names_at(sc, 0, BH) == ["Wolves"] and sc.zone(0, DISCARD) == []

    # LeFou need not take part: The Mob alone vanquishes at LeFou's location and returns to hand.
    sc = build(gaston(realm={BH: ["Lumiere", "LeFou", "The Mob"]}), {})
    play(sc, "vanquish Lumiere", "card The Mob", "pass")
    assert sc.hand(0) == ["The Mob"] and names_at(sc, 0, BH) == ["LeFou"]

    # Elsewhere the Allies are discarded as usual.
    sc = build(gaston(realm={BH: ["Lumiere", "The Mob"], WOODS: ["LeFou"]}), {})
    pick(sc, "vanquish Lumiere")
    assert sc.hand(0) == [] and "The Mob" in sc.zone(0, DISCARD)

    # LeFou himself: cost 2, Strength 2.
    sc = build(gaston(power=2, hand=["LeFou"]), {})
    pick(sc, "play LeFou to The Woods")
    assert entry(sc, 0, WOODS, "LeFou")["strength"] == 2 and sc.power(0) == 0


@pytest.mark.card("Monsieur D'Arque")
def test_monsieur_darque():
    sc = build(gaston(power=1, hand=["Monsieur D'Arque"]), {})
    pick(sc, "play Monsieur D'Arque to The Woods")
    assert entry(sc, 0, WOODS, "Monsieur D'Arque")["strength"] == 1 and sc.power(0) == 0

    sc = build(gaston(power=3, realm={WOODS: ["Monsieur D'Arque"]}), {})
    pick(sc, "activate Monsieur D'Arque")
    pick(sc, "location Beast's Castle", kind="location")
    assert sc.obstacles(0) == [2, 2, 2, 1]
    assert sc.power(0) == 1
    assert names_at(sc, 0, WOODS) == ["Monsieur D'Arque"]  # stays in play
    assert "activate Monsieur D'Arque" not in labels(sc)  # the one Activate action is used

    # Not with less than 2 Power, not while Belle is in play, not without an Activate action.
    assert "activate Monsieur D'Arque" not in labels(build(gaston(power=1, realm={WOODS: ["Monsieur D'Arque"]}), {}))
    belle = build(gaston(power=3, realm={WOODS: ["Monsieur D'Arque"], CASTLE: ["Belle"]}), {})
    assert "activate Monsieur D'Arque" not in labels(belle)
    woods = build(gaston(mover=WOODS, power=3, realm={WOODS: ["Monsieur D'Arque"]}), {})
    assert "activate Monsieur D'Arque" not in labels(woods)


@pytest.mark.card("Show Me the Beast!")
def test_show_me_the_beast():
    # Beast only: remove 1 Obstacle.
    sc = build(gaston(power=2, hand=["Show Me the Beast!"], realm={WOODS: ["Beast"]}), {})
    play(sc, "play Show Me the Beast!", "location The Tavern")
    assert sc.obstacles(0) == [2, 1, 2, 2] and sc.power(0) == 0

    # Belle only: replace 1 Obstacle.
    sc = build(
        gaston(
            power=2,
            hand=["Show Me the Beast!"],
            realm={WOODS: ["Belle"]},
            obstacles={BH: 1, TAVERN: 2, WOODS: 2, CASTLE: 1},
        ),
        {},
    )
    play(sc, "play Show Me the Beast!", "location Beast's Castle")
    assert sc.obstacles(0) == [1, 2, 2, 2] and sc.power(0) == 0

    # Both: neither, gain 2 Power instead.
    sc = build(
        gaston(
            power=2,
            hand=["Show Me the Beast!"],
            realm={WOODS: ["Belle"], CASTLE: ["Beast"]},
            obstacles={BH: 1, TAVERN: 2, WOODS: 2, CASTLE: 2},
        ),
        {},
    )
    pick(sc, "play Show Me the Beast!")
    assert sc.obstacles(0) == [1, 2, 2, 2] and sc.power(0) == 2

    # Neither: playable, no effect.
    sc = build(gaston(power=2, hand=["Show Me the Beast!"], obstacles={BH: 1, TAVERN: 2, WOODS: 2, CASTLE: 2}), {})
    pick(sc, "play Show Me the Beast!")
    assert sc.obstacles(0) == [1, 2, 2, 2] and sc.power(0) == 0 and "Show Me the Beast!" in sc.zone(0, DISCARD)

    # Belle only with all 8 Obstacles on the board: it cannot do what it says.
    full = build(gaston(power=2, hand=["Show Me the Beast!"], realm={WOODS: ["Belle"]}), {})
    assert "play Show Me the Beast!" not in labels(full)
    assert "play Show Me the Beast!" not in labels(build(gaston(power=1, hand=["Show Me the Beast!"]), {}))


@pytest.mark.card("Temper")
def test_temper():
    sc = build(gaston(power=2, hand=["Temper"]), {})
    play(sc, "play Temper", "location The Woods")
    assert sc.obstacles(0) == [2, 2, 1, 2] and sc.power(0) == 0

    # The last Obstacle: Gaston wins immediately.
    sc = build(gaston(power=2, hand=["Temper"], obstacles={BH: 0, TAVERN: 0, WOODS: 0, CASTLE: 1}), {})
    pick(sc, "play Temper")
    assert sc.over and sc.winner == 0

    assert "play Temper" not in labels(build(gaston(power=1, hand=["Temper"]), {}))
    assert "play Temper" not in labels(build(gaston(power=2, hand=["Temper"], realm={BH: ["Belle"]}), {}))


@pytest.mark.card("The Mob")
def test_the_mob():
    sc = build(gaston(power=2, hand=["The Mob"], realm={BH: ["Lumiere"]}), {})
    pick(sc, "play The Mob to Belle's House")
    assert entry(sc, 0, BH, "The Mob")["strength"] == 4 and sc.power(0) == 0
    pick(sc, "vanquish Lumiere")  # The Mob alone (4 >= 3): nothing to choose
    assert sc.heroes(0) == [] and "The Mob" in sc.zone(0, DISCARD)
    assert "play The Mob to Belle's House" not in labels(build(gaston(power=1, hand=["The Mob"]), {}))


# ============================================================================================ Fate deck


@pytest.mark.card("Be Our Guest")
def test_be_our_guest():
    # A Hero from the Fate discard pile is played, with its "when played" ability (Maurice fetches his Invention).
    sc = fated(gaston(fate_discard=["Maurice"]), ["Be Our Guest", "Massaging My Feet"])
    fate(sc)  # Massaging My Feet cannot be played (8 Obstacles): Be Our Guest is the only choice
    assert sc.decision.kind == "fate_pick" and sc.decision.player == 1
    assert sorted(labels(sc)) == [f"play Maurice to {loc}" for loc in sorted(LOCS)]
    pick(sc, "play Maurice to The Woods")
    assert back_to_horned_king(sc)
    assert entry(sc, 0, WOODS, "Maurice")["items"] == ["Maurice's Invention"]
    assert "Be Our Guest" in sc.zone(0, FATE_DISCARD) and "Maurice" not in sc.zone(0, FATE_DISCARD)

    # No Hero in the Fate discard pile: Be Our Guest cannot be played.
    sc = fated(gaston(), ["Be Our Guest", "Belle"])
    fate(sc)
    assert sorted(labels(sc)) == [f"play Belle to {loc}" for loc in sorted(LOCS)]


@pytest.mark.card("Beast", abilities=("push_allies_out", "clear_obstacles_at"))
def test_beast():
    # Played: the Allies at his location must leave, all to one location the Fating player picks.
    sc = fated(
        gaston(realm={WOODS: ["Wolves", "Wolves", "LeFou"], TAVERN: ["The Mob"]}), ["Beast", "Massaging My Feet"]
    )
    fate(sc)
    pick(sc, "play Beast to The Woods", kind="fate_pick")
    assert sc.decision.kind == "location" and sc.decision.player == 1
    assert "location The Woods" not in labels(sc)
    pick(sc, "location Belle's House")
    assert back_to_horned_king(sc)  # one destination for all of them
    assert names_at(sc, 0, WOODS) == ["Beast"]
    assert sorted(names_at(sc, 0, BH)) == ["LeFou", "Wolves", "Wolves"]
    assert names_at(sc, 0, TAVERN) == ["The Mob"]
    assert entry(sc, 0, WOODS, "Beast")["strength"] == 6

    # Rule variant "each": every Ally picks its own destination.
    sc = fated(
        gaston(realm={WOODS: ["Wolves", "The Mob"]}),
        ["Beast", "Massaging My Feet"],
        rules={"beast_destination": "each"},
    )
    fate(sc)
    play(sc, "play Beast to The Woods", "location Belle's House", "location Beast's Castle")
    assert sorted([where(sc, "Wolves"), where(sc, "The Mob")]) == sorted([BH, CASTLE])

    # Moved (by Lumiere): the Allies at his new location are pushed out too.
    sc = fated(gaston(realm={CASTLE: ["Beast"], BH: ["The Mob"]}), ["Lumiere", "Massaging My Feet"])
    fate(sc)
    pick(sc, "play Lumiere to The Tavern")
    pick(sc, "move Beast to Belle's House")
    pick(sc, "location The Woods", kind="location", player=1)
    assert names_at(sc, 0, BH) == ["Beast"] and names_at(sc, 0, WOODS) == ["The Mob"]

    # Defeated: all Obstacles at Beast's Castle are removed (wherever Beast was).
    eggs_mob = {"card": "The Mob", "items": ["Five Dozen Eggs"]}
    sc = build(gaston(realm={BH: ["Beast", eggs_mob]}), {})
    pick(sc, "vanquish Beast")  # The Mob with the Eggs (6) alone: nothing to choose
    assert "Beast" in sc.zone(0, FATE_DISCARD) and "Five Dozen Eggs" in sc.zone(0, DISCARD)
    assert sc.obstacles(0) == [2, 2, 2, 0]

    # ... unless Belle is in play.
    sc = build(gaston(realm={BH: ["Beast", eggs_mob], WOODS: ["Belle"]}), {})
    pick(sc, "vanquish Beast")
    assert "Beast" in sc.zone(0, FATE_DISCARD) and total(sc) == 8


@pytest.mark.card("Belle")
def test_belle():
    sc = fated(
        gaston(mover=BH, power=3, hand=["Temper"], realm={TAVERN: ["Monsieur D'Arque"]}), ["Belle", "Massaging My Feet"]
    )
    fate(sc)
    pick(sc, "play Belle to The Woods", kind="fate_pick")
    assert where(sc, "Belle") == WOODS and entry(sc, 0, WOODS, "Belle")["strength"] == 2
    sc.apply("pass")  # the Horned King ends his turn
    assert sc.decision.player == 0 and sc.decision.kind == "move"
    pick(sc, "location The Tavern")
    opts = labels(sc)
    assert "gain 2 Power" in opts  # Belle is at The Woods, The Tavern is not covered
    assert "activate Monsieur D'Arque" not in opts and "play Temper" not in opts

    # She covers the top row of her location: at The Tavern, Activate and Gain 2 are gone.
    sc = build(gaston(power=3, hand=["Wolves"], realm={TAVERN: ["Belle", "Monsieur D'Arque"]}), {})
    opts = labels(sc)
    assert "gain 2 Power" not in opts and "activate Monsieur D'Arque" not in opts
    assert "play Wolves to The Tavern" in opts  # the bottom row stays available


@pytest.mark.card("Cogsworth")
def test_cogsworth():
    sc = fated(gaston(realm={WOODS: ["Lumiere"], BH: ["Belle"]}), ["Cogsworth", "Massaging My Feet"])
    fate(sc)
    pick(sc, "play Cogsworth to The Woods")
    assert entry(sc, 0, WOODS, "Lumiere")["strength"] == 4
    assert entry(sc, 0, WOODS, "Cogsworth")["strength"] == 2  # not himself
    assert entry(sc, 0, BH, "Belle")["strength"] == 2  # not elsewhere


@pytest.mark.card("It Is You")
def test_it_is_you():
    sc = fated(gaston(obstacles={BH: 1, TAVERN: 1, WOODS: 0, CASTLE: 1}), ["It Is You", "Massaging My Feet"])
    fate(sc)
    assert sorted(labels(sc)) == ["play It Is You", "play Massaging My Feet"]
    pick(sc, "play It Is You")
    assert sc.obstacles(0) == [2, 2, 1, 2]
    assert back_to_horned_king(sc)
    assert {"It Is You", "Massaging My Feet"} <= set(sc.zone(0, FATE_DISCARD))

    # Not playable unless every location is missing an Obstacle.
    sc = fated(gaston(obstacles={BH: 2, TAVERN: 1, WOODS: 0, CASTLE: 1}), ["It Is You", "Belle"])
    fate(sc)
    assert "play It Is You" not in labels(sc) and "play Belle to The Woods" in labels(sc)


@pytest.mark.card("I've Never Seen So Many Books")
def test_ive_never_seen_so_many_books():
    sc = fated(
        gaston(obstacles={BH: 1, TAVERN: 2, WOODS: 1, CASTLE: 2}), ["I've Never Seen So Many Books", "It Is You"]
    )
    fate(sc)  # It Is You cannot be played: the Fating player goes straight to placing the Obstacle
    assert sc.decision.kind == "location" and sc.decision.player == 1
    assert sorted(labels(sc)) == ["location Belle's House", "location The Woods"]
    pick(sc, "location The Woods")
    assert sc.obstacles(0) == [1, 2, 2, 2]
    assert back_to_horned_king(sc)

    sc = fated(gaston(), ["I've Never Seen So Many Books", "Belle"])
    fate(sc)
    assert not [lab for lab in labels(sc) if "Books" in lab]


@pytest.mark.card("Lumiere")
def test_lumiere():
    sc = fated(gaston(realm={BH: ["Belle"], WOODS: ["Wolves"]}), ["Lumiere", "Massaging My Feet"])
    fate(sc)
    pick(sc, "play Lumiere to The Tavern")
    assert sc.decision.player == 1 and labels(sc)[0] == "pass"
    assert "move Belle to The Woods" in labels(sc) and "move Lumiere to The Woods" in labels(sc)
    assert "move Belle to Belle's House" not in labels(sc)  # to a different location
    pick(sc, "move Belle to The Woods")
    assert where(sc, "Belle") == WOODS and where(sc, "Lumiere") == TAVERN
    assert entry(sc, 0, TAVERN, "Lumiere")["strength"] == 3
    assert back_to_horned_king(sc)

    # "may": the move can be declined.
    sc = fated(gaston(realm={BH: ["Belle"]}), ["Lumiere", "Massaging My Feet"])
    fate(sc)
    pick(sc, "play Lumiere to The Tavern")
    pick(sc, "pass")
    assert where(sc, "Belle") == BH and back_to_horned_king(sc)


@pytest.mark.card("Magic Mirror")
def test_magic_mirror():
    # Beast in the Fate discard pile: he is played; then the discard pile, Magic Mirror included, is shuffled in.
    sc = fated(
        gaston(fate_discard=["Beast", "Saving My Life"], realm={WOODS: ["Wolves"]}),
        ["Magic Mirror", "Massaging My Feet"],
    )
    fate(sc)  # Massaging My Feet cannot be played: Magic Mirror it is
    assert sc.decision.kind == "location" and sc.decision.player == 1
    assert len(sc.options()) == 4
    pick(sc, "location The Woods")
    pick(sc, "location The Tavern", kind="location")  # Beast pushes the Wolves out
    assert back_to_horned_king(sc)
    assert names_at(sc, 0, WOODS) == ["Beast"] and names_at(sc, 0, TAVERN) == ["Wolves"]
    assert {"Magic Mirror", "Saving My Life"} <= set(sc.zone(0, FATE_DECK))
    assert "Magic Mirror" not in sc.zone(0, FATE_DISCARD) and "Saving My Life" not in sc.zone(0, FATE_DISCARD)

    # Beast in the Fate deck: found there.
    sc = fated(gaston(), ["Magic Mirror", "Massaging My Feet"])
    assert "Beast" in sc.zone(0, FATE_DECK)
    fate(sc)
    pick(sc, "location Beast's Castle")
    assert where(sc, "Beast") == CASTLE and "Magic Mirror" in sc.zone(0, FATE_DECK)


@pytest.mark.card("Massaging My Feet")
def test_massaging_my_feet():
    sc = fated(gaston(obstacles={BH: 0, TAVERN: 1, WOODS: 2, CASTLE: 2}), ["Massaging My Feet", "Belle"])
    fate(sc)
    pick(sc, "play Massaging My Feet")
    assert sorted(labels(sc)) == ["location Belle's House", "location The Tavern"]
    pick(sc, "location Belle's House", player=1)
    pick(sc, "location Belle's House", player=1)
    assert sc.obstacles(0) == [2, 1, 2, 2]

    # "Up to 2": with one spot empty it replaces one.
    sc = fated(gaston(obstacles={BH: 2, TAVERN: 1, WOODS: 2, CASTLE: 2}), ["Massaging My Feet", "Belle"])
    fate(sc)
    pick(sc, "play Massaging My Feet")
    assert total(sc) == 8 and back_to_horned_king(sc)

    sc = fated(gaston(), ["Massaging My Feet", "Belle"])
    fate(sc)
    assert not [lab for lab in labels(sc) if "Massaging" in lab]


@pytest.mark.card("Maurice", abilities=("fetch_attachment_here", "clear_obstacles_at"))
def test_maurice():
    # Played: his Invention is found and attached to a Hero at his location (Maurice or another).
    sc = fated(gaston(realm={WOODS: ["Lumiere", "Wolves", "Wolves"]}), ["Maurice", "Massaging My Feet"])
    fate(sc)
    pick(sc, "play Maurice to The Woods")
    assert sc.decision.kind == "card" and sc.decision.player == 1
    assert sorted(labels(sc)) == ["card Lumiere", "card Maurice"]
    pick(sc, "card Lumiere")
    assert entry(sc, 0, WOODS, "Lumiere")["items"] == ["Maurice's Invention"]
    assert [e["strength"] for e in sc.realm(0)[WOODS] if e["card"] == "Wolves"] == [1, 1]

    # The Invention is found in the Fate discard pile too.
    sc = fated(gaston(fate_discard=["Maurice's Invention"]), ["Maurice", "Massaging My Feet"])
    fate(sc)
    pick(sc, "play Maurice to Beast's Castle")
    assert entry(sc, 0, CASTLE, "Maurice")["items"] == ["Maurice's Invention"]

    # Defeated: all Obstacles at Belle's House are removed.
    sc = build(gaston(realm={WOODS: ["Maurice", "The Mob"]}), {})
    pick(sc, "vanquish Maurice")
    assert sc.obstacles(0) == [0, 2, 2, 2] and "Maurice" in sc.zone(0, FATE_DISCARD)

    # ... and none when Belle's House has none left, nor while Belle is in play.
    sc = build(gaston(realm={WOODS: ["Maurice", "The Mob"]}, obstacles={BH: 0, TAVERN: 2, WOODS: 2, CASTLE: 2}), {})
    pick(sc, "vanquish Maurice")
    assert sc.obstacles(0) == [0, 2, 2, 2]
    sc = build(gaston(realm={WOODS: ["Maurice", "The Mob"], CASTLE: ["Belle"]}), {})
    pick(sc, "vanquish Maurice")
    assert total(sc) == 8


@pytest.mark.card("Maurice's Invention")
def test_maurices_invention():
    realm = {WOODS: ["Lumiere", "Wolves", "Wolves", "Monsieur D'Arque"], TAVERN: ["The Mob"]}
    sc = fated(gaston(realm=realm), ["Maurice's Invention", "Massaging My Feet"])
    fate(sc)  # the only playable option: on Lumiere
    assert back_to_horned_king(sc)
    assert entry(sc, 0, WOODS, "Lumiere")["items"] == ["Maurice's Invention"]
    assert entry(sc, 0, WOODS, "Lumiere")["strength"] == 3  # Heroes are unaffected
    assert [e["strength"] for e in sc.realm(0)[WOODS] if e["card"] == "Wolves"] == [1, 1]
    assert entry(sc, 0, WOODS, "Monsieur D'Arque")["strength"] == 0  # never below 0
    assert entry(sc, 0, TAVERN, "The Mob")["strength"] == 4  # other locations unaffected

    # Its Hero defeated: the Invention goes to the Fate discard pile with him and the -1 ends.
    sc = build(
        gaston(
            power=3,
            hand=["Hunter's Instinct"],
            realm={WOODS: [{"card": "Lumiere", "items": ["Maurice's Invention"]}, "Wolves", "Wolves"]},
        ),
        {},
    )
    pick(sc, "play Hunter's Instinct")
    assert {"Lumiere", "Maurice's Invention"} <= set(sc.zone(0, FATE_DISCARD))
    assert [e["strength"] for e in sc.realm(0)[WOODS]] == [2, 2]

    # No Hero in play: it cannot be played; with nothing playable both revealed cards are discarded.
    sc = fated(gaston(), ["Maurice's Invention", "Massaging My Feet"])
    fate(sc)
    assert back_to_horned_king(sc)
    assert {"Maurice's Invention", "Massaging My Feet"} <= set(sc.zone(0, FATE_DISCARD))
    assert sc.heroes(0) == [] and total(sc) == 8


def potts(realm):
    sc = fated(gaston(realm=realm), ["Mrs. Potts and Chip", "Massaging My Feet"])
    fate(sc)
    pick(sc, "play Mrs. Potts and Chip to The Tavern")
    assert sc.decision.kind == "mode" and sc.decision.player == 1
    return sc


@pytest.mark.card("Mrs. Potts and Chip")
def test_mrs_potts_and_chip():
    realm = {BH: ["Belle", "Wolves", "Wolves"], WOODS: [{"card": "Lumiere", "items": ["Maurice's Invention"]}]}

    # "may": nothing happens.
    sc = potts(realm)
    assert sorted(labels(sc)) == ["mode move Fate Items", "mode move all Heroes", "mode nothing"]
    pick(sc, "mode nothing")
    assert (where(sc, "Belle"), where(sc, "Lumiere"), where(sc, "Mrs. Potts and Chip")) == (BH, WOODS, TAVERN)
    assert entry(sc, 0, TAVERN, "Mrs. Potts and Chip")["strength"] == 1

    # All Heroes, each to a new location of the Fating player's choice (Mrs. Potts and Chip included).
    sc = potts(realm)
    pick(sc, "mode move all Heroes")
    plan = {BH: CASTLE, WOODS: BH, TAVERN: WOODS}  # from -> to
    asked = []
    while sc.decision.kind == "location":
        assert sc.decision.player == 1
        here = [loc for loc in LOCS if f"location {loc}" not in labels(sc)]
        assert len(here) == 1  # the Hero's own location is excluded
        asked.append(here[0])
        pick(sc, f"location {plan[here[0]]}")
    assert sorted(asked) == sorted(plan)
    assert (where(sc, "Belle"), where(sc, "Lumiere"), where(sc, "Mrs. Potts and Chip")) == (CASTLE, BH, WOODS)
    assert entry(sc, 0, BH, "Lumiere")["items"] == ["Maurice's Invention"]  # Items move with their Hero
    assert back_to_horned_king(sc)

    # Fate Items: the Invention is re-attached to another Hero.
    sc = potts(realm)
    pick(sc, "mode move Fate Items")
    assert sorted(labels(sc)) == ["card Belle", "card Mrs. Potts and Chip"]
    pick(sc, "card Belle")
    assert entry(sc, 0, BH, "Belle")["items"] == ["Maurice's Invention"]
    assert "items" not in entry(sc, 0, WOODS, "Lumiere")
    assert [e["strength"] for e in sc.realm(0)[BH] if e["card"] == "Wolves"] == [1, 1]

    # No Fate Item in play: that mode is not offered.
    sc = potts({BH: ["Belle"]})
    assert sorted(labels(sc)) == ["mode move all Heroes", "mode nothing"]


@pytest.mark.card("Saving My Life")
def test_saving_my_life():
    sc = fated(gaston(obstacles={BH: 0, TAVERN: 1, WOODS: 2, CASTLE: 2}), ["Saving My Life", "Belle"])
    fate(sc)
    pick(sc, "play Saving My Life")
    assert sorted(labels(sc)) == ["location Belle's House", "location The Tavern"]
    pick(sc, "location Belle's House", player=1)
    assert sc.obstacles(0) == [2, 1, 2, 2]  # all missing at that one location

    # Works with a single Obstacle missing.
    sc = fated(gaston(obstacles={BH: 2, TAVERN: 2, WOODS: 1, CASTLE: 2}), ["Saving My Life", "Belle"])
    fate(sc)
    pick(sc, "play Saving My Life")
    assert total(sc) == 8 and back_to_horned_king(sc)

    sc = fated(gaston(), ["Saving My Life", "Belle"])
    fate(sc)
    assert not [lab for lab in labels(sc) if "Saving" in lab]


@pytest.mark.card("The Rose")
def test_the_rose():
    # The other revealed card is played first, then 2 more are revealed and one is played, then 1 Obstacle goes.
    sc = fated(gaston(), ["The Rose", "Cogsworth", "Lumiere", "Massaging My Feet"])
    fate(sc)
    pick(sc, "play The Rose", kind="fate_pick")
    assert sc.decision.kind == "place" and sc.decision.player == 1
    pick(sc, "play Cogsworth to The Tavern")
    # Lumiere and Massaging My Feet (unplayable with 8 Obstacles) are revealed.
    pick(sc, "play Lumiere to The Tavern", kind="fate_pick")
    pick(sc, "pass")  # Lumiere's optional move
    assert total(sc) == 8  # the removal comes last
    pick(sc, "location The Woods", kind="location", player=1)
    assert sc.obstacles(0) == [2, 2, 1, 2]
    assert entry(sc, 0, TAVERN, "Lumiere")["strength"] == 4
    assert {"The Rose", "Massaging My Feet"} <= set(sc.zone(0, FATE_DISCARD))
    assert back_to_horned_king(sc)

    # Belle, even played by The Rose itself, stops the removal.
    sc = fated(gaston(), ["The Rose", "Belle", "Cogsworth", "Massaging My Feet"])
    fate(sc)
    play(sc, "play The Rose", "play Belle to The Woods", "play Cogsworth to The Woods")
    assert back_to_horned_king(sc) and total(sc) == 8

    # With one Obstacle left, Fating Gaston with The Rose makes him win (on the opponent's turn).
    sc = fated(gaston(obstacles={BH: 0, TAVERN: 0, WOODS: 0, CASTLE: 1}), ["The Rose", "Cogsworth", "Lumiere", "Belle"])
    fate(sc)
    play(sc, "play The Rose", "play Cogsworth to The Tavern", "play Lumiere to The Tavern", "pass")
    assert sc.over and sc.winner == 0 and total(sc) == 0


# ============================================================================================ rulebook examples


def test_rulebook_vanquish_uses_only_the_allies_needed():
    # Rulebook: three Allies at a Strength-5 Hero's location; two (3+2) suffice, the third remains.
    # Gaston's version: Beast (6) and three Wolves (3 each): two of them (3+3) vanquish him.
    sc = build(gaston(realm={BH: ["Beast", "Wolves", "Wolves", "Wolves"]}), {})
    pick(sc, "vanquish Beast")
    assert sc.decision.kind == "vanquish_ally"
    pick(sc, "card Wolves")
    assert "pass" not in labels(sc)  # 3 < 6
    pick(sc, "card Wolves")
    assert labels(sc)[0] == "pass"  # 6 >= 6: done
    pick(sc, "pass")
    assert sc.heroes(0) == []
    assert names_at(sc, 0, BH) == ["Wolves"]
    assert sc.zone(0, DISCARD) == ["Wolves", "Wolves"]
    assert entry(sc, 0, BH, "Wolves")["strength"] == 1  # the pack is gone


def test_rulebook_vanquish_with_mixed_allies():
    # Lumiere with Cogsworth beside him has Strength 4: Wolves (2) + Wolves (2) suffice, Monsieur D'Arque stays.
    sc = build(gaston(realm={BH: ["Lumiere", "Cogsworth", "Wolves", "Wolves", "Monsieur D'Arque"]}), {})
    assert "vanquish Lumiere" in labels(sc) and "vanquish Cogsworth" in labels(sc)  # either Hero, player's choice
    play(sc, "vanquish Lumiere", "card Wolves", "card Wolves", "pass")
    assert sc.heroes(0) == ["Cogsworth"]
    assert sorted(names_at(sc, 0, BH)) == ["Cogsworth", "Monsieur D'Arque"]


def test_rulebook_effect_needs_its_ability_to_resolve():
    # "If you cannot do what the card says, you may not play it" (but you may discard it).
    hand = ["Swoon", "Hunter's Instinct", "Time to Follow Me!", "Belle Is Mine"]
    sc = build(gaston(mover=BH, power=9, hand=hand), {})
    assert not [lab for lab in labels(sc) if lab.startswith("play")]
    assert "discard cards" in labels(sc)


def test_rulebook_may_is_optional():
    # Beautiful as Me ("may"), Lumiere ("may move") and Mrs. Potts and Chip ("may move") can all be declined;
    # Beast's push (no "may") cannot: the Fating player is only asked where the Allies go.
    sc = fated(gaston(realm={WOODS: ["Wolves"]}), ["Beast", "Massaging My Feet"])
    fate(sc)
    pick(sc, "play Beast to The Woods")
    assert "pass" not in labels(sc) and sc.decision.kind == "location"

    sc = fated(gaston(realm={BH: ["Belle"]}), ["Lumiere", "Massaging My Feet"])
    fate(sc)
    pick(sc, "play Lumiere to The Woods")
    assert labels(sc)[0] == "pass"


@pytest.mark.parametrize("rule", ["immediate", "start_of_turn"])
def test_rulebook_gaston_win_timing(rule):
    # Default: Gaston wins as soon as the 8th Obstacle is removed; the variant waits for his next turn.
    sc = build(
        gaston(power=2, hand=["Temper"], obstacles={BH: 0, TAVERN: 0, WOODS: 1, CASTLE: 0}),
        {},
        rules={"gaston_win_timing": rule},
    )
    pick(sc, "play Temper")
    if rule == "immediate":
        assert sc.over and sc.winner == 0
    else:
        assert not sc.over and total(sc) == 0
        sc.apply("pass")  # end Gaston's turn; the Horned King moves next
        assert sc.decision.player == 1


def test_rulebook_heroes_cover_the_top_row():
    # A Hero covers the top row of its location; with several Heroes there, defeating one leaves it covered;
    # once none is left the actions are available at once.
    sc = build(gaston(power=6, hand=["Hunter's Instinct"], realm={TAVERN: ["Belle", "Cogsworth"]}), {})
    assert "gain 2 Power" not in labels(sc)
    play(sc, "play Hunter's Instinct", "card Belle")
    assert sc.heroes(0) == ["Cogsworth"] and "gain 2 Power" not in labels(sc)

    sc = build(gaston(power=3, hand=["Hunter's Instinct"], realm={TAVERN: ["Lumiere"]}), {})
    assert "gain 2 Power" not in labels(sc)
    pick(sc, "play Hunter's Instinct")
    assert "gain 2 Power" in labels(sc)

    # Beast's Castle has a Play action in each row: a Hero there leaves the bottom one.
    sc = build(gaston(mover=CASTLE, power=1, hand=["Wolves"], realm={CASTLE: ["Mrs. Potts and Chip"]}), {})
    assert "play Wolves to The Woods" in labels(sc)
    assert not [lab for lab in labels(sc) if lab.startswith("fate")]  # the Fate action is on the top row


def test_rulebook_vanquish_needs_an_ally_unless_strength_zero():
    # Rulebook: only a Strength-0 Hero is vanquished with no Ally. No Gaston card lowers a Hero's Strength (the
    # weakest, Mrs. Potts and Chip, has 1), so in his Realm every Vanquish needs at least one Ally there.
    sc = build(gaston(realm={BH: ["Mrs. Potts and Chip"], WOODS: ["Monsieur D'Arque"]}), {})
    assert entry(sc, 0, BH, "Mrs. Potts and Chip")["strength"] == 1
    assert not [lab for lab in labels(sc) if lab.startswith("vanquish")]
    sc = build(gaston(realm={BH: ["Mrs. Potts and Chip", "Monsieur D'Arque"]}), {})
    pick(sc, "vanquish Mrs. Potts and Chip")
    assert sc.heroes(0) == [] and "Monsieur D'Arque" in sc.zone(0, DISCARD)
