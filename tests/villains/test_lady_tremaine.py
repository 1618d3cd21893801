"""Lady Tremaine's cards: one test per card of her Villain deck (18) and Fate deck (11), then her special rules.

Villain cards are played on her own turn (seat 0, her action phase). Fate cards are played by Gaston (seat 1)
taking the Fate action at The Woods (bottom row: Fate, gain 2) with the card put on top of her Fate deck.
Her Conditions come up during Gaston's turn as a "condition" decision of seat 0.
Every seat gets an explicit hand so that no random Condition shows up.
"""

from __future__ import annotations

import pytest
from conftest import build, entry, labels, names_at

from simlab.kernels import const as K

VILLAINS = ("lady-tremaine", "gaston")
ROOM, MUSIC, CASTLE, BALLROOM = "Cinderella's Room", "The Music Room", "The Castle", "The Ballroom"
SLIPPER_ROOM, SLIPPER_CASTLE = "Glass Slipper (Cinderella's Room)", "Glass Slipper (The Castle)"
CANE, INVITATION, BBB = "Lady Tremaine's Cane", "Invitation from the King", "Bibbidi-Bobbidi-Boo"


# ----------------------------------------------------------------------------- helpers


def lt_turn(lt: dict, gaston: dict | None = None, **kw):
    """Lady Tremaine (seat 0) in her action phase; Gaston (seat 1) holds no card unless told."""
    lt = {"hand": [], **lt}
    return build(lt, {"hand": [], **(gaston or {})}, villains=VILLAINS, active=0, **kw)


def gaston_turn(lt: dict, gaston: dict | None = None, **kw):
    """Gaston (seat 1) in his action phase at The Woods (top: play, discard; bottom: Fate, gain 2)."""
    lt = {"hand": [], **lt}
    g = {"mover": "The Woods", "hand": [], "power": 0, **(gaston or {})}
    return build(lt, g, villains=VILLAINS, active=1, **kw)


def fated(lt: dict, top: list[str], **kw):
    """Gaston takes a Fate action against Lady Tremaine whose Fate deck starts with ``top``."""
    return gaston_turn({**lt, "fate_top": top}, **kw).apply("fate Lady Tremaine")


def plays(sc, card: str) -> list[str]:
    return [x for x in labels(sc) if x.startswith(f"play {card} ") or x == f"play {card}"]


def moves(sc, card: str) -> list[str]:
    return [x for x in labels(sc) if x.startswith(f"move {card} to")]


def where(sc, card: str, seat: int = 0) -> str | None:
    """Location of ``card`` in the Realm of ``seat``, or None."""
    for loc, cards in sc.realm(seat).items():
        if any(e["card"] == card for e in cards):
            return loc
    return None


def trapped(sc, card: str) -> bool:
    return bool(entry(sc, 0, where(sc, card), card).get("trapped", False))


def traps_left(sc) -> int:
    return int(sc.state.sv[0, K.SV_TRAPS])


def ballroom_locked(sc) -> bool:
    return int(sc.state.sv[0, K.SV_LOCK + 3]) == 1


def fate_top(sc, n: int) -> list[str]:
    """The top ``n`` cards of Lady Tremaine's Fate deck, top first."""
    st = sc.state
    count = int(st.sv[0, K.SV_FDECK_N])
    return [sc.card_name(0, int(st.fdeck[0, count - 1 - i])) for i in range(min(n, count))]


def fate_discard(sc) -> list[str]:
    return sc.zone(0, K.Z_FDISCARD)


def discard(sc) -> list[str]:
    return sc.zone(0, K.Z_VDISCARD)


# ============================================================================= Villain deck


@pytest.mark.card("There's Still a Chance")
def test_theres_still_a_chance():
    wedding = {
        "realm": {CASTLE: ["Wedding Bells"], BALLROOM: ["The Prince", "Ball Gown Drizella"]},
        "unlocked": [BALLROOM],
        "mover": MUSIC,
        "hand": ["There's Still a Chance"],
    }
    # Activate mode: the only way to Activate outside The Ballroom; here it wins the game.
    sc = lt_turn({**wedding, "power": 2})
    assert "activate Wedding Bells" not in labels(sc)  # no Activate symbol at The Music Room
    sc.apply("play There's Still a Chance")
    assert sc.decision.kind == "mode" and labels(sc) == ["mode move", "mode activate"]
    sc.apply("mode activate")  # Wedding Bells is the only card to activate
    assert sc.over and sc.winner == 0
    assert sc.power(0) == 0

    # Move mode: an Ally to an adjacent location.
    sc = lt_turn({"power": 2, "mover": MUSIC, "hand": ["There's Still a Chance"], "realm": {ROOM: ["Drizella"]}})
    sc.apply("play There's Still a Chance")  # nothing to activate, one move: all forced
    assert names_at(sc, 0, MUSIC) == ["Drizella"] and names_at(sc, 0, ROOM) == []
    assert discard(sc) == ["There's Still a Chance"]

    # Cannot be played with nothing to move or activate.
    sc = lt_turn({"power": 2, "mover": MUSIC, "hand": ["There's Still a Chance"]})
    assert plays(sc, "There's Still a Chance") == []
    # Cinderella: Effects cost 2 more.
    with_cinderella = {**wedding, "realm": {**wedding["realm"], ROOM: ["Cinderella"]}}
    assert plays(lt_turn({**with_cinderella, "power": 3}), "There's Still a Chance") == []
    sc = lt_turn({**with_cinderella, "power": 4})
    sc.apply("play There's Still a Chance").apply("mode activate")
    assert sc.winner == 0 and sc.power(0) == 0


@pytest.mark.card('I Said "If"')
def test_i_said_if():
    spec = {"mover": MUSIC, "hand": ['I Said "If"', "Trapped"], "discard": ["Lucifer", "Midnight", "The Key"]}
    assert plays(lt_turn({**spec, "power": 1}), 'I Said "If"') == []
    sc = lt_turn({**spec, "power": 2})
    deck = len(sc.zone(0, K.Z_VDECK))
    sc.apply('play I Said "If"')
    assert sc.power(0) == 0
    assert discard(sc) == ['I Said "If"']  # the discard pile went into the deck; the card itself is discarded after
    assert len(sc.hand(0)) == 3 and "Trapped" in sc.hand(0)  # drew 2
    assert len(sc.zone(0, K.Z_VDECK)) == deck + 3 - 2


@pytest.mark.card("Trapped")
def test_trapped():
    spec = {"mover": MUSIC, "hand": ["Trapped"], "realm": {CASTLE: ["Cinderella", "Gus"]}}
    # Cinderella (not Trapped) makes this Effect cost 1 + 2.
    assert plays(lt_turn({**spec, "power": 2}), "Trapped") == []
    sc = lt_turn({**spec, "power": 3})
    sc.apply("play Trapped")
    assert sc.decision.kind == "card" and labels(sc) == ["card Cinderella", "card Gus"]
    sc.apply("card Cinderella")
    assert trapped(sc, "Cinderella") and not trapped(sc, "Gus")
    assert sc.power(0) == 0 and traps_left(sc) == 4
    assert discard(sc) == ["Trapped"]

    # A Trapped Cinderella is ignored: cost 1 again.
    sc = lt_turn(
        {
            "power": 1,
            "mover": MUSIC,
            "hand": ["Trapped"],
            "realm": {CASTLE: [{"card": "Cinderella", "trapped": True}, "Jaq"]},
        }
    )
    sc.apply("play Trapped")  # Jaq is the only Hero left to trap
    assert trapped(sc, "Jaq") and traps_left(sc) == 3 and sc.power(0) == 0

    # Needs a Hero that can be Trapped: not Ball Gown Cinderella, not The Prince (not a Hero).
    sc = lt_turn(
        {
            "power": 5,
            "mover": MUSIC,
            "hand": ["Trapped"],
            "unlocked": [BALLROOM],
            "realm": {CASTLE: ["Ball Gown Cinderella"], BALLROOM: ["The Prince"]},
        }
    )
    assert plays(sc, "Trapped") == []
    assert plays(lt_turn({"power": 5, "mover": MUSIC, "hand": ["Trapped"]}), "Trapped") == []


@pytest.mark.card("And One More Thing")
def test_and_one_more_thing():
    sc = gaston_turn(
        {
            "hand": ["And One More Thing", "Trapped", "Midnight"],
            "deck_top": ["Lucifer", "The Key", "Drizella", "Anastasia"],
        },
        {"hand": ["Temper"]},
    )
    sc.apply("discard cards")  # Gaston discards his only card
    assert sc.decision.player == 0 and sc.decision.kind == "condition"
    assert labels(sc) == ["pass", "card And One More Thing"]
    sc.apply("card And One More Thing")
    assert sc.decision.player == 0 and sc.decision.kind == "discard"
    assert labels(sc) == ["pass", "card Trapped", "card Midnight"]
    sc.apply("card Midnight").apply("pass")
    # Discard any number, then draw up to 4.
    assert sc.hand(0) == sorted(["Trapped", "Lucifer", "The Key", "Drizella"])
    assert discard(sc) == sorted(["And One More Thing", "Midnight"])
    # Gaston's turn goes on.
    assert sc.decision.player == 1 and sc.decision.kind == "action"
    assert "Temper" in sc.zone(1, K.Z_VDISCARD)


@pytest.mark.card("I Never Go Back on My Word")
def test_i_never_go_back_on_my_word():
    spec = {"mover": MUSIC, "hand": ["I Never Go Back on My Word"], "fate_discard": ["Jaq", "Gus", "Bruno"]}
    sc = lt_turn({**spec, "power": 2})
    sc.apply("play I Never Go Back on My Word")
    chosen = []
    while sc.decision.kind == "arrange":  # the last of the four is forced
        assert sc.decision.player == 0
        i = len(sc.options()) - 1
        chosen.append(sc.options()[i].label.removeprefix("card "))
        sc.apply(i)
    assert len(chosen) == 3
    assert fate_top(sc, 3) == chosen  # first chosen ends on top
    assert fate_discard(sc) == [] and len(sc.zone(0, K.Z_FDECK)) == 15  # the discard pile was shuffled in
    assert sc.power(0) == 0 and discard(sc) == ["I Never Go Back on My Word"]
    # Cinderella: Effects cost 2 more.
    spec["realm"] = {CASTLE: ["Cinderella"]}
    assert plays(lt_turn({**spec, "power": 3}), "I Never Go Back on My Word") == []
    assert plays(lt_turn({**spec, "power": 4}), "I Never Go Back on My Word") == ["play I Never Go Back on My Word"]


@pytest.mark.card("Locked Up")
def test_locked_up():
    gaston = {"mover": "The Tavern", "realm": {"The Tavern": ["The Mob", "Cogsworth"]}}
    sc = gaston_turn({"hand": ["Locked Up"], "realm": {CASTLE: ["Cinderella", "Ball Gown Drizella"]}}, gaston)
    sc.apply("vanquish Cogsworth")  # The Mob is the only Ally: forced
    assert sc.decision.player == 0 and sc.decision.kind == "condition"
    assert labels(sc) == ["pass", "card Locked Up"]
    sc.apply("card Locked Up")  # Cinderella is the only Hero: forced
    assert trapped(sc, "Cinderella") and traps_left(sc) == 4
    assert discard(sc) == ["Locked Up"] and sc.hand(0) == []
    assert "Cogsworth" in sc.zone(1, K.Z_FDISCARD) and "The Mob" in sc.zone(1, K.Z_VDISCARD)
    assert sc.decision.player == 1 and sc.decision.kind == "action"

    # No Hero it could Trap (Ball Gown Cinderella cannot be): not offered, stays in hand.
    sc = gaston_turn({"hand": ["Locked Up"], "realm": {CASTLE: ["Ball Gown Cinderella"]}}, gaston)
    sc.apply("vanquish Cogsworth")
    assert sc.decision.player == 1 and sc.decision.kind == "action"
    assert sc.hand(0) == ["Locked Up"]


@pytest.mark.card("Vicious Practical Jokes")
def test_vicious_practical_jokes():
    lt = {"hand": ["Vicious Practical Jokes"], "realm": {CASTLE: ["Wedding Bells", CANE]}}
    # Lady Tremaine picks the card and its location; the Fating player makes the choices inside the card.
    sc = fated(lt, ["Jaq", "Gus"])
    assert sc.decision.player == 0 and sc.decision.kind == "condition"
    assert labels(sc) == ["pass", "card Vicious Practical Jokes"]
    sc.apply("card Vicious Practical Jokes")
    assert sc.decision.player == 0 and sc.decision.kind == "fate_pick"
    opts = labels(sc)
    assert opts[0] == "pass"
    assert {"play Jaq to The Castle", "play Gus to Cinderella's Room"} <= set(opts)
    assert not any(BALLROOM in x for x in opts)
    sc.apply("play Jaq to The Castle")
    assert sc.decision.player == 1 and sc.decision.kind == "card"  # Jaq's discard: Gaston chooses
    sc.apply(f"card {CANE}")
    assert sorted(names_at(sc, 0, CASTLE)) == ["Jaq", "Wedding Bells"]
    assert sorted(discard(sc)) == sorted([CANE, "Vicious Practical Jokes"])
    assert fate_discard(sc) == ["Gus"]
    assert sc.decision.player == 1 and sc.decision.kind == "action"

    # She may play nothing: both revealed cards are discarded.
    sc = fated(lt, ["Jaq", "Gus"]).apply("card Vicious Practical Jokes").apply("pass")
    assert sc.heroes(0) == [] and fate_discard(sc) == ["Gus", "Jaq"]
    assert discard(sc) == ["Vicious Practical Jokes"]

    # Declined: Gaston picks as usual and the Condition stays in hand.
    sc = fated(lt, ["Jaq", "Gus"]).apply("pass")
    assert sc.decision.player == 1 and sc.decision.kind == "fate_pick"
    assert "pass" not in labels(sc)
    sc.apply("play Gus to The Music Room")
    assert sc.heroes(0) == ["Gus"] and sc.hand(0) == ["Vicious Practical Jokes"]

    # It cannot override The Prince: he goes to The Ballroom at once, and nobody is asked anything.
    sc = fated(lt, ["The Prince", "Jaq"])
    assert sc.decision.player == 1 and sc.decision.kind == "action"
    assert names_at(sc, 0, BALLROOM) == ["The Prince"] and sc.hand(0) == ["Vicious Practical Jokes"]


@pytest.mark.card("You Little Thief!")
def test_you_little_thief():
    # Cinderella (not Trapped): Effects cost 0 + 2.
    spec = {"mover": MUSIC, "hand": ["You Little Thief!"], "realm": {CASTLE: ["Cinderella"]}}
    assert plays(lt_turn({**spec, "power": 1}), "You Little Thief!") == []
    sc = lt_turn({**spec, "power": 2})
    sc.apply("play You Little Thief!")
    assert sc.heroes(0) == [] and fate_discard(sc) == ["Cinderella"] and sc.power(0) == 0

    # A Trapped Cinderella: cost 0, and her token goes back to the supply.
    sc = lt_turn(
        {
            "power": 0,
            "mover": MUSIC,
            "hand": ["You Little Thief!"],
            "realm": {CASTLE: [{"card": "Cinderella", "trapped": True}]},
        }
    )
    assert traps_left(sc) == 4
    sc.apply("play You Little Thief!")
    assert sc.heroes(0) == [] and traps_left(sc) == 5

    # Ball Gown Cinderella: defeating her plays both Glass Slippers (from the Fate deck and its discard pile).
    sc = lt_turn(
        {
            "power": 0,
            "mover": MUSIC,
            "hand": ["You Little Thief!", "Trapped"],
            "realm": {CASTLE: ["Ball Gown Cinderella", "Gus"]},
            "fate_discard": [SLIPPER_CASTLE],
        }
    )
    sc.apply("play You Little Thief!")  # only Ball Gown Cinderella qualifies (not Gus)
    assert sc.heroes(0) == ["Gus"]
    assert names_at(sc, 0, ROOM) == [SLIPPER_ROOM] and SLIPPER_CASTLE in names_at(sc, 0, CASTLE)
    assert fate_discard(sc) == ["Ball Gown Cinderella"]

    # Neither in play: cannot be played.
    sc = lt_turn({"power": 5, "mover": MUSIC, "hand": ["You Little Thief!"], "realm": {CASTLE: ["Gus"]}})
    assert plays(sc, "You Little Thief!") == []


@pytest.mark.card("Anastasia")
def test_anastasia():
    sc = lt_turn({"power": 1, "mover": MUSIC, "hand": ["Anastasia"], "unlocked": [BALLROOM]})
    # Any location but The Ballroom (only the Prince and the Ball Gowns may enter it).
    assert plays(sc, "Anastasia") == [f"play Anastasia to {loc}" for loc in (ROOM, MUSIC, CASTLE)]
    sc.apply("play Anastasia to The Castle")
    assert names_at(sc, 0, CASTLE) == ["Anastasia"] and sc.power(0) == 0
    assert plays(lt_turn({"power": 0, "mover": MUSIC, "hand": ["Anastasia"]}), "Anastasia") == []
    # Not while Ball Gown Anastasia is in play.
    sc = lt_turn({"power": 1, "mover": MUSIC, "hand": ["Anastasia"], "realm": {CASTLE: ["Ball Gown Anastasia"]}})
    assert plays(sc, "Anastasia") == []
    # Ball Gown Drizella does not stop her.
    sc = lt_turn({"power": 1, "mover": MUSIC, "hand": ["Anastasia"], "realm": {CASTLE: ["Ball Gown Drizella"]}})
    assert len(plays(sc, "Anastasia")) == 3


@pytest.mark.card("Drizella")
def test_drizella():
    sc = lt_turn({"power": 1, "mover": MUSIC, "hand": ["Drizella"], "unlocked": [BALLROOM]})
    assert plays(sc, "Drizella") == [f"play Drizella to {loc}" for loc in (ROOM, MUSIC, CASTLE)]
    sc.apply("play Drizella to Cinderella's Room")
    assert names_at(sc, 0, ROOM) == ["Drizella"] and sc.power(0) == 0
    assert plays(lt_turn({"power": 0, "mover": MUSIC, "hand": ["Drizella"]}), "Drizella") == []
    # Not while Ball Gown Drizella is in play (wherever she is).
    sc = lt_turn(
        {
            "power": 1,
            "mover": MUSIC,
            "hand": ["Drizella"],
            "unlocked": [BALLROOM],
            "realm": {BALLROOM: ["Ball Gown Drizella"]},
        }
    )
    assert plays(sc, "Drizella") == []
    sc = lt_turn({"power": 1, "mover": MUSIC, "hand": ["Drizella"], "realm": {CASTLE: ["Ball Gown Anastasia"]}})
    assert len(plays(sc, "Drizella")) == 3


@pytest.mark.card("Ball Gown Anastasia")
def test_ball_gown_anastasia():
    # Needs Anastasia in the Realm (Drizella will not do).
    sc = lt_turn({"power": 2, "mover": MUSIC, "hand": ["Ball Gown Anastasia"], "realm": {CASTLE: ["Drizella"]}})
    assert plays(sc, "Ball Gown Anastasia") == []
    spec = {"mover": MUSIC, "hand": ["Ball Gown Anastasia"], "realm": {CASTLE: ["Anastasia"]}}
    assert plays(lt_turn({**spec, "power": 1}), "Ball Gown Anastasia") == []
    sc = lt_turn({**spec, "power": 2})
    # Only to Anastasia's location, replacing her.
    assert plays(sc, "Ball Gown Anastasia") == ["play Ball Gown Anastasia to The Castle on Anastasia"]
    sc.apply("play Ball Gown Anastasia to The Castle on Anastasia")
    assert names_at(sc, 0, CASTLE) == ["Ball Gown Anastasia"]
    assert discard(sc) == ["Anastasia"] and sc.power(0) == 0


@pytest.mark.card("Ball Gown Drizella")
def test_ball_gown_drizella():
    sc = lt_turn({"power": 2, "mover": MUSIC, "hand": ["Ball Gown Drizella"]})
    assert plays(sc, "Ball Gown Drizella") == []  # Drizella is not in the Realm
    # Swap at The Castle, then walk into the (unlocked) Ballroom with its Move action.
    sc = lt_turn(
        {
            "power": 2,
            "mover": BALLROOM,
            "hand": ["Ball Gown Drizella"],
            "unlocked": [BALLROOM],
            "realm": {CASTLE: ["Drizella"], BALLROOM: ["The Prince"]},
        }
    )
    assert "move Drizella to The Ballroom" not in labels(sc)  # the everyday Drizella may not enter
    assert plays(sc, "Ball Gown Drizella") == ["play Ball Gown Drizella to The Castle on Drizella"]
    sc.apply("play Ball Gown Drizella to The Castle on Drizella")
    assert names_at(sc, 0, CASTLE) == ["Ball Gown Drizella"] and discard(sc) == ["Drizella"]
    assert moves(sc, "Ball Gown Drizella") == [
        "move Ball Gown Drizella to The Music Room",
        "move Ball Gown Drizella to The Ballroom",
    ]
    sc.apply("move Ball Gown Drizella to The Ballroom")
    assert sorted(names_at(sc, 0, BALLROOM)) == ["Ball Gown Drizella", "The Prince"]
    # Ball Gown Cinderella keeps her out.
    sc = lt_turn(
        {
            "power": 0,
            "mover": BALLROOM,
            "unlocked": [BALLROOM],
            "realm": {CASTLE: ["Ball Gown Drizella"], ROOM: ["Ball Gown Cinderella"]},
        }
    )
    assert moves(sc, "Ball Gown Drizella") == ["move Ball Gown Drizella to The Music Room"]


@pytest.mark.card("Invitation from the King", abilities=("unlock_play_named", "peek_fate_discard_one"))
def test_invitation_from_the_king():
    # When played: unlock The Ballroom and find the Prince (here in the Fate discard pile) and play him there.
    sc = lt_turn({"power": 3, "mover": MUSIC, "hand": [INVITATION], "fate_discard": ["The Prince"]})
    assert ballroom_locked(sc)
    assert plays(sc, INVITATION) == [f"play {INVITATION} to {loc}" for loc in (ROOM, MUSIC, CASTLE)]
    sc.apply(f"play {INVITATION} to The Castle")
    assert not ballroom_locked(sc)
    assert names_at(sc, 0, BALLROOM) == ["The Prince"] and names_at(sc, 0, CASTLE) == [INVITATION]
    assert fate_discard(sc) == [] and sc.power(0) == 0
    # From the Fate deck.
    sc = lt_turn({"power": 3, "mover": MUSIC, "hand": [INVITATION]})
    sc.apply(f"play {INVITATION} to The Music Room")
    assert names_at(sc, 0, BALLROOM) == ["The Prince"] and len(sc.zone(0, K.Z_FDECK)) == 14
    # The Prince already in play (revealed into the locked Ballroom): only the unlock.
    sc = lt_turn({"power": 3, "mover": MUSIC, "hand": [INVITATION], "realm": {BALLROOM: ["The Prince"]}})
    sc.apply(f"play {INVITATION} to The Music Room")
    assert not ballroom_locked(sc) and names_at(sc, 0, BALLROOM) == ["The Prince"]
    # Gus: Items cost 2 more.
    spec = {"mover": MUSIC, "hand": [INVITATION], "realm": {CASTLE: ["Gus"]}}
    assert plays(lt_turn({**spec, "power": 4}), INVITATION) == []
    assert len(plays(lt_turn({**spec, "power": 5}), INVITATION)) == 3

    # Activate (1 Power): look at the top two Fate cards, discard one, the other stays on top.
    spec = {
        "mover": BALLROOM,
        "unlocked": [BALLROOM],
        "realm": {CASTLE: [INVITATION], BALLROOM: ["The Prince"]},
        "fate_top": ["Jaq", "Gus"],
    }
    assert f"activate {INVITATION}" not in labels(lt_turn({**spec, "power": 0}))
    sc = lt_turn({**spec, "power": 1})
    sc.apply(f"activate {INVITATION}")
    assert sc.decision.player == 0 and sorted(labels(sc)) == ["card Gus", "card Jaq"]
    sc.apply("card Jaq")
    assert fate_discard(sc) == ["Jaq"] and fate_top(sc, 1) == ["Gus"]
    assert sc.power(0) == 0 and len(sc.zone(0, K.Z_FDECK)) == 13


@pytest.mark.card("Lady Tremaine's Cane")
def test_lady_tremaines_cane():
    # Play it (an Item, cost 2), anywhere but The Ballroom.
    sc = lt_turn({"power": 2, "mover": MUSIC, "hand": [CANE], "unlocked": [BALLROOM]})
    assert plays(sc, CANE) == [f"play {CANE} to {loc}" for loc in (ROOM, MUSIC, CASTLE)]
    # Activate (free by default): discard a Glass Slipper from the Realm.
    spec = {
        "power": 0,
        "mover": BALLROOM,
        "unlocked": [BALLROOM],
        "realm": {CASTLE: [CANE, SLIPPER_CASTLE], ROOM: [SLIPPER_ROOM]},
    }
    sc = lt_turn(spec)
    sc.apply(f"activate {CANE}")
    assert sorted(labels(sc)) == [f"card {SLIPPER_ROOM}", f"card {SLIPPER_CASTLE}"]
    sc.apply(f"card {SLIPPER_CASTLE}")
    assert fate_discard(sc) == [SLIPPER_CASTLE] and names_at(sc, 0, CASTLE) == [CANE]
    assert names_at(sc, 0, ROOM) == [SLIPPER_ROOM] and sc.power(0) == 0
    assert f"activate {CANE}" not in labels(sc)  # The Ballroom's single Activate is used
    # Nothing to discard: cannot be activated.
    sc = lt_turn({"power": 0, "mover": BALLROOM, "unlocked": [BALLROOM], "realm": {CASTLE: [CANE]}})
    assert f"activate {CANE}" not in labels(sc)


@pytest.mark.card("Lucifer")
def test_lucifer():
    spec = {"mover": MUSIC, "hand": ["Lucifer"], "realm": {CASTLE: ["Cinderella", "Gus"], ROOM: ["Jaq"]}}
    assert plays(lt_turn({**spec, "power": 2}), "Lucifer") == []
    sc = lt_turn({**spec, "power": 3})
    sc.apply("play Lucifer to The Castle")
    # Every Hero at his location is Trapped, the others are not.
    assert trapped(sc, "Cinderella") and trapped(sc, "Gus") and not trapped(sc, "Jaq")
    assert traps_left(sc) == 3 and sc.power(0) == 0

    # A Hero arriving at his location is Trapped after its own "when played" ability (Jaq still discards).
    sc = fated({"realm": {CASTLE: ["Lucifer", "Wedding Bells"]}}, ["Jaq", "Gus"])
    sc.apply("play Jaq to The Castle")  # Wedding Bells is the only Item there: forced
    assert trapped(sc, "Jaq") and discard(sc) == ["Wedding Bells"]

    # Moving Lucifer to a Hero traps it (The Ballroom's Move action; Lucifer may not enter The Ballroom).
    sc = lt_turn(
        {"power": 0, "mover": BALLROOM, "unlocked": [BALLROOM], "realm": {CASTLE: ["Lucifer"], MUSIC: ["Bruno"]}}
    )
    assert moves(sc, "Lucifer") == ["move Lucifer to The Music Room"]
    sc.apply("move Lucifer to The Music Room")
    assert trapped(sc, "Bruno")

    # Ball Gown Cinderella cannot be Trapped; The Prince is not a Hero.
    sc = lt_turn({"power": 3, "mover": MUSIC, "hand": ["Lucifer"], "realm": {CASTLE: ["Ball Gown Cinderella"]}})
    sc.apply("play Lucifer to The Castle")
    assert not trapped(sc, "Ball Gown Cinderella") and traps_left(sc) == 5

    # Rule variant "on_play" (printed text): one Hero when he is played, none later.
    sc = lt_turn({**spec, "power": 3}, rules={"lucifer_trap": "on_play"})
    sc.apply("play Lucifer to The Castle")
    assert labels(sc) == ["card Cinderella", "card Gus"]
    sc.apply("card Gus")
    assert trapped(sc, "Gus") and not trapped(sc, "Cinderella")
    sc = fated({"realm": {CASTLE: ["Lucifer"]}}, ["Jaq", "Gus"], rules={"lucifer_trap": "on_play"})
    sc.apply("play Jaq to The Castle")
    assert not trapped(sc, "Jaq")


@pytest.mark.card("Midnight")
def test_midnight():
    realm = {
        CASTLE: [{"card": "Cinderella", "trapped": True}, "Jaq", CANE],
        ROOM: ["Fairy Godmother"],
        BALLROOM: ["The Prince"],
    }
    sc = lt_turn({"power": 4, "mover": MUSIC, "hand": ["Midnight"], "realm": realm, "fate_discard": [SLIPPER_CASTLE]})
    sc.apply("play Midnight")
    # All Heroes defeated (The Prince is not a Hero), tokens back, then both Glass Slippers played.
    assert sc.heroes(0) == [] and names_at(sc, 0, BALLROOM) == ["The Prince"]
    assert traps_left(sc) == 5
    assert sorted(fate_discard(sc)) == ["Cinderella", "Fairy Godmother", "Jaq"]
    assert names_at(sc, 0, ROOM) == [SLIPPER_ROOM]
    assert sorted(names_at(sc, 0, CASTLE)) == sorted([CANE, SLIPPER_CASTLE])
    assert sc.power(0) == 0 and discard(sc) == ["Midnight"]

    # Cinderella (not Trapped): cost 4 + 2.
    spec = {"mover": MUSIC, "hand": ["Midnight"], "realm": {CASTLE: ["Cinderella"]}}
    assert plays(lt_turn({**spec, "power": 5}), "Midnight") == []
    assert plays(lt_turn({**spec, "power": 6}), "Midnight") == ["play Midnight"]
    # No Hero in the Realm (The Prince is not one): cannot be played.
    sc = lt_turn({"power": 4, "mover": MUSIC, "hand": ["Midnight"], "realm": {BALLROOM: ["The Prince"]}})
    assert plays(sc, "Midnight") == []


@pytest.mark.card("The Key", abilities=("move_named_here_trap", "move_hero_here_trap"))
def test_the_key():
    # When played: Cinderella is moved to Cinderella's Room and Trapped.
    spec = {"mover": MUSIC, "hand": ["The Key"], "realm": {CASTLE: ["Cinderella"]}}
    assert plays(lt_turn({**spec, "power": 1}), "The Key") == []
    sc = lt_turn({**spec, "power": 2})
    sc.apply("play The Key to The Music Room")
    assert names_at(sc, 0, ROOM) == ["Cinderella"] and trapped(sc, "Cinderella")
    assert names_at(sc, 0, MUSIC) == ["The Key"] and sc.power(0) == 0 and traps_left(sc) == 4
    # A Trapped Cinderella cannot be moved (and already has her token).
    sc = lt_turn(
        {"power": 2, "mover": MUSIC, "hand": ["The Key"], "realm": {CASTLE: [{"card": "Cinderella", "trapped": True}]}}
    )
    sc.apply("play The Key to The Music Room")
    assert where(sc, "Cinderella") == CASTLE and trapped(sc, "Cinderella") and traps_left(sc) == 4
    # Playable without Cinderella.
    sc = lt_turn({"power": 2, "mover": MUSIC, "hand": ["The Key"], "realm": {CASTLE: ["Bruno"]}})
    sc.apply("play The Key to The Castle")
    assert sorted(names_at(sc, 0, CASTLE)) == ["Bruno", "The Key"] and not trapped(sc, "Bruno")

    # Activate (free by default): move any Hero to Cinderella's Room and Trap it.
    spec = {
        "power": 0,
        "mover": BALLROOM,
        "unlocked": [BALLROOM],
        "realm": {CASTLE: ["The Key", "Ball Gown Cinderella"], MUSIC: ["Gus", {"card": "Jaq", "trapped": True}]},
    }
    sc = lt_turn(spec)
    sc.apply("activate The Key")
    assert labels(sc) == ["card Ball Gown Cinderella", "card Gus"]  # a Trapped Jaq cannot be moved
    sc.apply("card Gus")
    assert names_at(sc, 0, ROOM) == ["Gus"] and trapped(sc, "Gus") and sc.power(0) == 0
    # Ball Gown Cinderella is moved but not Trapped.
    sc = lt_turn(spec).apply("activate The Key").apply("card Ball Gown Cinderella")
    assert names_at(sc, 0, ROOM) == ["Ball Gown Cinderella"] and not trapped(sc, "Ball Gown Cinderella")
    assert traps_left(sc) == 4  # only Jaq's token is out
    # Nothing to move or Trap: cannot be activated.
    sc = lt_turn(
        {
            "power": 0,
            "mover": BALLROOM,
            "unlocked": [BALLROOM],
            "realm": {CASTLE: ["The Key"], MUSIC: [{"card": "Jaq", "trapped": True}]},
        }
    )
    assert "activate The Key" not in labels(sc)


@pytest.mark.card("Wedding Bells")
def test_wedding_bells():
    # Play it (an Item, cost 4; Gus: +2), anywhere but The Ballroom.
    sc = lt_turn({"power": 4, "mover": MUSIC, "hand": ["Wedding Bells"], "unlocked": [BALLROOM]})
    assert plays(sc, "Wedding Bells") == [f"play Wedding Bells to {loc}" for loc in (ROOM, MUSIC, CASTLE)]
    assert plays(lt_turn({"power": 3, "mover": MUSIC, "hand": ["Wedding Bells"]}), "Wedding Bells") == []
    gus = {"mover": MUSIC, "hand": ["Wedding Bells"], "realm": {CASTLE: ["Gus"]}}
    assert plays(lt_turn({**gus, "power": 5}), "Wedding Bells") == []
    assert len(plays(lt_turn({**gus, "power": 6}), "Wedding Bells")) == 3

    def ready(ballroom, elsewhere=(), **kw):
        realm = {CASTLE: ["Wedding Bells", *elsewhere]}
        if ballroom:
            realm[BALLROOM] = list(ballroom)
        return lt_turn({"power": 0, "mover": BALLROOM, "unlocked": [BALLROOM], "realm": realm, **kw})

    # The Prince and a Ball Gown daughter in The Ballroom, no Glass Slipper: activating it wins.
    sc = ready(["The Prince", "Ball Gown Anastasia"])
    sc.apply("activate Wedding Bells")
    assert sc.over and sc.winner == 0 and sc.end_reason == "objective"
    # Not activatable otherwise.
    assert "activate Wedding Bells" not in labels(ready(["The Prince"], ["Ball Gown Drizella"]))
    assert "activate Wedding Bells" not in labels(ready(["Ball Gown Drizella"]))
    assert "activate Wedding Bells" not in labels(ready(["The Prince", "Ball Gown Cinderella"]))
    assert "activate Wedding Bells" not in labels(ready(["The Prince", "Ball Gown Drizella"], [SLIPPER_CASTLE]))
    sc = lt_turn(
        {
            "power": 0,
            "mover": BALLROOM,
            "unlocked": [BALLROOM],
            "realm": {CASTLE: ["Wedding Bells"], BALLROOM: ["The Prince", "Ball Gown Drizella"], ROOM: [SLIPPER_ROOM]},
        }
    )
    assert "activate Wedding Bells" not in labels(sc)
    # Only with an Activate action: none at The Castle.
    sc = lt_turn(
        {
            "power": 0,
            "mover": CASTLE,
            "unlocked": [BALLROOM],
            "realm": {CASTLE: ["Wedding Bells"], BALLROOM: ["The Prince", "Ball Gown Drizella"]},
        }
    )
    assert "activate Wedding Bells" not in labels(sc)


# ============================================================================= Fate deck


@pytest.mark.card("Bibbidi-Bobbidi-Boo")
def test_bibbidi_bobbidi_boo():
    lt = {"realm": {ROOM: [{"card": "Cinderella", "trapped": True}], CASTLE: ["Lucifer"]}, "unlocked": [BALLROOM]}
    sc = fated(lt, [BBB, "Gus"])
    assert sc.decision.kind == "fate_pick" and "play Bibbidi-Bobbidi-Boo" in labels(sc)
    sc.apply("play Bibbidi-Bobbidi-Boo")
    assert sc.decision.player == 1
    # The token comes off and the Hero goes to any other location (not The Ballroom).
    assert labels(sc) == ["move Cinderella to The Music Room", "move Cinderella to The Castle"]
    sc.apply("move Cinderella to The Music Room")
    assert names_at(sc, 0, MUSIC) == ["Cinderella"] and not trapped(sc, "Cinderella") and traps_left(sc) == 5
    assert sorted(fate_discard(sc)) == sorted([BBB, "Gus"])
    # Moved to Lucifer's location: Trapped again.
    sc = fated(lt, [BBB, "Gus"]).apply("play Bibbidi-Bobbidi-Boo").apply("move Cinderella to The Castle")
    assert trapped(sc, "Cinderella") and traps_left(sc) == 4
    # A Hero moved by it uses its "when moved" ability (Jaq discards an Item there).
    sc = fated({"realm": {ROOM: [{"card": "Jaq", "trapped": True}], CASTLE: ["Wedding Bells"]}}, [BBB, "Gus"])
    sc.apply("play Bibbidi-Bobbidi-Boo").apply("move Jaq to The Castle")
    assert where(sc, "Jaq") == CASTLE and discard(sc) == ["Wedding Bells"]
    # No Trapped Hero: it cannot be played (the other card is).
    sc = fated({"realm": {ROOM: ["Cinderella"]}}, [BBB, "Gus"])
    assert sc.decision.kind == "fate_pick" and all(x.startswith("play Gus") for x in labels(sc))


@pytest.mark.card("Sweet Nightingale")
def test_sweet_nightingale():
    realm = {CASTLE: ["Drizella", "Ball Gown Anastasia", "Wedding Bells"], MUSIC: ["Fairy Godmother"]}
    # Moves an Ally to any other location, even while Fairy Godmother is in play; not the Items.
    sc = fated({"realm": realm, "unlocked": [BALLROOM]}, ["Sweet Nightingale", "Gus"])
    sc.apply("play Sweet Nightingale")
    assert sc.decision.player == 1
    assert labels(sc) == [
        "move Drizella to Cinderella's Room",
        "move Drizella to The Music Room",
        "move Ball Gown Anastasia to Cinderella's Room",
        "move Ball Gown Anastasia to The Music Room",
        "move Ball Gown Anastasia to The Ballroom",
    ]
    sc.apply("move Drizella to Cinderella's Room")  # not adjacent: fine for a Fate card
    assert names_at(sc, 0, ROOM) == ["Drizella"]
    assert sorted(fate_discard(sc)) == ["Gus", "Sweet Nightingale"]
    # Out of The Ballroom; nothing may enter a locked Ballroom.
    sc = fated({"realm": {BALLROOM: ["Ball Gown Drizella"]}, "unlocked": [BALLROOM]}, ["Sweet Nightingale", "Gus"])
    sc.apply("play Sweet Nightingale")
    assert len(moves(sc, "Ball Gown Drizella")) == 3
    sc.apply("move Ball Gown Drizella to The Castle")
    assert names_at(sc, 0, BALLROOM) == [] and names_at(sc, 0, CASTLE) == ["Ball Gown Drizella"]
    sc = fated({"realm": {CASTLE: ["Ball Gown Drizella"]}}, ["Sweet Nightingale", "Gus"])
    sc.apply("play Sweet Nightingale")
    assert labels(sc) == ["move Ball Gown Drizella to Cinderella's Room", "move Ball Gown Drizella to The Music Room"]
    # No Ally: it cannot be played.
    sc = fated({"realm": {CASTLE: ["Wedding Bells"]}}, ["Sweet Nightingale", "Gus"])
    assert labels(sc) == [f"play Gus to {loc}" for loc in (ROOM, MUSIC, CASTLE)]


def _glass_slipper(slipper: str, home: str, top_actions: list[str]):
    # Played by a Fate action: only to its own location, attached to nothing.
    sc = fated({"realm": {CASTLE: ["Gus"], ROOM: ["Jaq"]}}, [slipper, "Bruno"])
    assert sc.decision.kind == "fate_pick"
    assert [x for x in labels(sc) if slipper in x] == [f"play {slipper} to {home}"]
    sc.apply(f"play {slipper} to {home}")
    assert slipper in names_at(sc, 0, home) and not entry(sc, 0, home, slipper).get("items")
    assert all(not e.get("items") for e in sc.realm(0)[home])
    assert fate_discard(sc) == ["Bruno"]
    # It covers the top actions of its location (default reading) ...
    spec = {"power": 9, "mover": home, "hand": ["Drizella"], "realm": {home: [slipper], MUSIC: ["Anastasia"]}}
    opts = labels(lt_turn(spec))
    assert not any(x.startswith(top_actions[0]) for x in opts)
    assert top_actions[1] not in opts
    # ... and not in the other reading.
    opts = labels(lt_turn(spec, rules={"glass_slippers_cover_actions": "no"}))
    assert any(x.startswith(top_actions[0]) for x in opts) and top_actions[1] in opts
    # Lady Tremaine cannot win while it is in her Realm; the Cane removes it.
    wedding = {
        "power": 0,
        "mover": BALLROOM,
        "unlocked": [BALLROOM],
        "realm": {CASTLE: ["Wedding Bells", CANE], BALLROOM: ["The Prince", "Ball Gown Drizella"]},
    }
    wedding["realm"][home] = [*wedding["realm"].get(home, []), slipper]
    sc = lt_turn(wedding)
    assert "activate Wedding Bells" not in labels(sc)
    assert moves(sc, slipper) == []  # a Fate Item: her Move action cannot move it
    sc.apply(f"activate {CANE}")
    assert fate_discard(sc) == [slipper]
    # Jaq cannot discard it (a Fate Item).
    sc = fated({"realm": {home: [slipper]}}, ["Jaq", "Bruno"])
    sc.apply(f"play Jaq to {home}")
    assert slipper in names_at(sc, 0, home)


@pytest.mark.card("Glass Slipper (Cinderella's Room)")
def test_glass_slipper_cinderellas_room():
    _glass_slipper(SLIPPER_ROOM, ROOM, ["play Drizella", "move Anastasia to The Castle"])


@pytest.mark.card("Glass Slipper (The Castle)")
def test_glass_slipper_castle():
    _glass_slipper(SLIPPER_CASTLE, CASTLE, ["play Drizella", "discard cards"])


@pytest.mark.card("Ball Gown Cinderella", abilities=("play_glass_slippers", "no_allies_enter_ballroom"))
def test_ball_gown_cinderella():
    # Played by a Fate action only by replacing Cinderella at her location; her Trapped token goes.
    sc = fated({"realm": {CASTLE: [{"card": "Cinderella", "trapped": True}]}}, ["Ball Gown Cinderella", "Jaq"])
    assert [x for x in labels(sc) if "Ball Gown" in x] == ["play Ball Gown Cinderella to The Castle"]
    sc.apply("play Ball Gown Cinderella to The Castle")
    assert names_at(sc, 0, CASTLE) == ["Ball Gown Cinderella"] and not trapped(sc, "Ball Gown Cinderella")
    assert sorted(fate_discard(sc)) == ["Cinderella", "Jaq"] and traps_left(sc) == 5
    # Without Cinderella in play she cannot be played.
    sc = fated({"realm": {CASTLE: ["Gus"]}}, ["Ball Gown Cinderella", "Jaq"])
    assert sc.decision.kind == "fate_pick" and all(x.startswith("play Jaq") for x in labels(sc))
    # Cannot be Trapped: not by Lucifer ...
    sc = fated({"realm": {CASTLE: ["Cinderella", "Lucifer"]}}, ["Ball Gown Cinderella", "Jaq"])
    sc.apply("play Ball Gown Cinderella to The Castle")
    assert not trapped(sc, "Ball Gown Cinderella") and traps_left(sc) == 5
    # ... nor by Trapped.
    sc = lt_turn({"power": 5, "mover": MUSIC, "hand": ["Trapped"], "realm": {CASTLE: ["Ball Gown Cinderella"]}})
    assert plays(sc, "Trapped") == []
    # No Ally may enter The Ballroom while she is in play ...
    spec = {
        "power": 2,
        "mover": BALLROOM,
        "unlocked": [BALLROOM],
        "hand": ["Ball Gown Drizella"],
        "realm": {
            CASTLE: ["Drizella", "Ball Gown Anastasia", "Wedding Bells"],
            ROOM: ["Ball Gown Cinderella"],
            BALLROOM: ["The Prince"],
        },
    }
    assert not any(x.endswith("to The Ballroom") for x in labels(lt_turn(spec)))
    sc = fated({"realm": spec["realm"], "unlocked": [BALLROOM]}, ["Sweet Nightingale", "Gus"])
    sc.apply("play Sweet Nightingale")
    assert not any(x.endswith("to The Ballroom") for x in labels(sc))
    # ... but a Ball Gown daughter already there stays and may still marry.
    sc = lt_turn(
        {
            "power": 0,
            "mover": BALLROOM,
            "unlocked": [BALLROOM],
            "realm": {
                CASTLE: ["Wedding Bells"],
                ROOM: ["Ball Gown Cinderella"],
                BALLROOM: ["The Prince", "Ball Gown Drizella"],
            },
        }
    )
    sc.apply("activate Wedding Bells")
    assert sc.winner == 0
    # When defeated: both Glass Slippers are played.
    sc = lt_turn(
        {"power": 0, "mover": MUSIC, "hand": ["You Little Thief!"], "realm": {CASTLE: ["Ball Gown Cinderella"]}}
    )
    sc.apply("play You Little Thief!")
    assert names_at(sc, 0, ROOM) == [SLIPPER_ROOM] and names_at(sc, 0, CASTLE) == [SLIPPER_CASTLE]


@pytest.mark.card("Bruno")
def test_bruno():
    # When played: Lucifer comes to his location (and then Traps him).
    sc = fated({"realm": {CASTLE: ["Lucifer"], MUSIC: ["Fairy Godmother"]}}, ["Bruno", "Gus"])
    sc.apply("play Bruno to Cinderella's Room")
    assert sorted(names_at(sc, 0, ROOM)) == ["Bruno", "Lucifer"]
    assert names_at(sc, 0, CASTLE) == []  # a Fate card may move him despite Fairy Godmother
    assert trapped(sc, "Bruno")
    # When moved (by Bibbidi-Bobbidi-Boo): Lucifer follows again.
    sc = fated({"realm": {ROOM: [{"card": "Bruno", "trapped": True}], CASTLE: ["Lucifer"]}}, [BBB, "Gus"])
    sc.apply("play Bibbidi-Bobbidi-Boo").apply("move Bruno to The Music Room")
    assert sorted(names_at(sc, 0, MUSIC)) == ["Bruno", "Lucifer"] and trapped(sc, "Bruno")
    # No Lucifer: nothing happens.
    sc = fated({"realm": {CASTLE: ["Drizella"]}}, ["Bruno", "Gus"])
    sc.apply("play Bruno to Cinderella's Room")
    assert names_at(sc, 0, ROOM) == ["Bruno"] and names_at(sc, 0, CASTLE) == ["Drizella"]
    assert not trapped(sc, "Bruno")


@pytest.mark.card("Cinderella")
def test_cinderella():
    # Played to any location but The Ballroom.
    sc = fated({"unlocked": [BALLROOM]}, ["Cinderella", "Sweet Nightingale"])
    assert labels(sc) == [f"play Cinderella to {loc}" for loc in (ROOM, MUSIC, CASTLE)]
    sc.apply("play Cinderella to The Castle")
    assert sc.heroes(0) == ["Cinderella"]
    # Not while Ball Gown Cinderella is in play.
    sc = fated({"realm": {ROOM: ["Ball Gown Cinderella"]}}, ["Cinderella", "Gus"])
    assert labels(sc) == [f"play Gus to {loc}" for loc in (ROOM, MUSIC, CASTLE)]
    # Lady Tremaine's Effects cost 2 more; her Items do not.
    spec = {"mover": MUSIC, "hand": ["Trapped", "The Key"], "realm": {CASTLE: ["Cinderella"]}}
    sc = lt_turn({**spec, "power": 2})
    assert plays(sc, "Trapped") == [] and plays(sc, "The Key") != []
    assert plays(lt_turn({**spec, "power": 3}), "Trapped") == ["play Trapped"]
    # A Trapped Cinderella has no ability.
    spec["realm"] = {CASTLE: [{"card": "Cinderella", "trapped": True}, "Jaq"]}
    assert plays(lt_turn({**spec, "power": 1}), "Trapped") == ["play Trapped"]


@pytest.mark.card("Fairy Godmother", abilities=("find_named_hero_play", "allies_moved_only_by_fate"))
def test_fairy_godmother():
    # When played: find Ball Gown Cinderella and play her to any unlocked location (the Fating player chooses).
    sc = fated({"realm": {CASTLE: ["Drizella"]}}, ["Fairy Godmother", "Gus"])
    sc.apply("play Fairy Godmother to The Castle")
    assert sc.decision.player == 1 and sc.decision.kind == "location"
    assert labels(sc) == [f"location {loc}" for loc in (ROOM, MUSIC, CASTLE)]  # The Ballroom is locked
    sc.apply("location The Music Room")
    assert names_at(sc, 0, MUSIC) == ["Ball Gown Cinderella"] and len(sc.zone(0, K.Z_FDECK)) == 12
    # Once The Ballroom is unlocked she may go there; found in the Fate discard pile.
    sc = fated({"unlocked": [BALLROOM], "fate_discard": ["Ball Gown Cinderella"]}, ["Fairy Godmother", "Gus"])
    sc.apply("play Fairy Godmother to The Castle")
    assert "location The Ballroom" in labels(sc)
    sc.apply("location The Ballroom")
    assert names_at(sc, 0, BALLROOM) == ["Ball Gown Cinderella"] and fate_discard(sc) == ["Gus"]
    # At Lucifer's location her "when played" ability happens first, then she is Trapped.
    sc = fated({"realm": {CASTLE: ["Lucifer"]}}, ["Fairy Godmother", "Gus"])
    sc.apply("play Fairy Godmother to The Castle")
    assert sc.decision.kind == "location"
    sc.apply("location Cinderella's Room")
    assert names_at(sc, 0, ROOM) == ["Ball Gown Cinderella"] and trapped(sc, "Fairy Godmother")

    # While she is in play, a Move action cannot move Allies (Items still move) ...
    spec = {
        "power": 2,
        "mover": BALLROOM,
        "unlocked": [BALLROOM],
        "hand": ["There's Still a Chance"],
        "realm": {CASTLE: ["Drizella", "Fairy Godmother"], MUSIC: ["Wedding Bells"]},
    }
    sc = lt_turn(spec)
    assert [x for x in labels(sc) if x.startswith("move")] == [
        "move Wedding Bells to Cinderella's Room",
        "move Wedding Bells to The Castle",
    ]
    # ... nor There's Still a Chance (here it has nothing left to do) ...
    spec["realm"] = {CASTLE: ["Drizella", "Fairy Godmother"]}
    sc = lt_turn(spec)
    assert moves(sc, "Drizella") == [] and plays(sc, "There's Still a Chance") == []
    # ... but a Trapped Fairy Godmother has no ability.
    spec["realm"] = {CASTLE: ["Drizella", {"card": "Fairy Godmother", "trapped": True}]}
    assert moves(lt_turn(spec), "Drizella") == ["move Drizella to The Music Room"]


@pytest.mark.card("Gus")
def test_gus():
    # Fated by the Horned King this time (Morva, top row: play, Fate).
    sc = build(
        {"hand": [], "unlocked": [BALLROOM], "fate_top": ["Gus", "Sweet Nightingale"]},
        {"mover": "Morva", "hand": [], "power": 0},
        villains=("lady-tremaine", "horned-king"),
        active=1,
    )
    sc.apply("fate Lady Tremaine")
    assert sc.decision.player == 1 and labels(sc) == [f"play Gus to {loc}" for loc in (ROOM, MUSIC, CASTLE)]
    sc.apply("play Gus to Cinderella's Room")
    assert sc.heroes(0) == ["Gus"] and fate_discard(sc) == ["Sweet Nightingale"]
    # Lady Tremaine's Items cost 2 more; her Effects and Allies do not.
    spec = {"mover": MUSIC, "hand": ["The Key", "Trapped", "Drizella"], "realm": {CASTLE: ["Gus"]}}
    sc = lt_turn({**spec, "power": 3})
    assert plays(sc, "The Key") == [] and plays(sc, "Trapped") == ["play Trapped"] and plays(sc, "Drizella")
    assert len(plays(lt_turn({**spec, "power": 4}), "The Key")) == 3
    # A Trapped Gus has no ability.
    spec["realm"] = {CASTLE: [{"card": "Gus", "trapped": True}]}
    assert len(plays(lt_turn({**spec, "power": 2}), "The Key")) == 3


@pytest.mark.card("Jaq")
def test_jaq():
    # When played: discard one of Lady Tremaine's Items at his location (the Fating player chooses), not a Slipper.
    lt = {"realm": {CASTLE: ["Wedding Bells", CANE, SLIPPER_CASTLE, "Drizella"]}}
    sc = fated(lt, ["Jaq", "Gus"])
    sc.apply("play Jaq to The Castle")
    assert sc.decision.player == 1 and sorted(labels(sc)) == [f"card {CANE}", "card Wedding Bells"]
    sc.apply("card Wedding Bells")
    assert discard(sc) == ["Wedding Bells"]
    assert sorted(names_at(sc, 0, CASTLE)) == sorted([CANE, SLIPPER_CASTLE, "Drizella", "Jaq"])
    # No Item there: nothing happens.
    sc = fated(lt, ["Jaq", "Gus"]).apply("play Jaq to The Music Room")
    assert discard(sc) == [] and names_at(sc, 0, MUSIC) == ["Jaq"]
    # When moved (by The Key's Activate): he discards an Item at his new location, then is Trapped.
    sc = lt_turn(
        {
            "power": 0,
            "mover": BALLROOM,
            "unlocked": [BALLROOM],
            "realm": {CASTLE: ["The Key"], MUSIC: ["Jaq"], ROOM: ["Wedding Bells"]},
        }
    )
    sc.apply("activate The Key")
    assert names_at(sc, 0, ROOM) == ["Jaq"] and trapped(sc, "Jaq") and discard(sc) == ["Wedding Bells"]


@pytest.mark.card("The Prince")
def test_the_prince():
    # Revealed: played at once to The Ballroom, even locked; the other card is discarded; nobody chooses.
    sc = fated({"hand": ["Vicious Practical Jokes"]}, ["Jaq", "The Prince"])
    assert sc.decision.player == 1 and sc.decision.kind == "action"
    assert names_at(sc, 0, BALLROOM) == ["The Prince"] and ballroom_locked(sc)
    assert fate_discard(sc) == ["Jaq"] and sc.heroes(0) == []
    # Rule variant: discarded while The Ballroom is locked.
    sc = fated({}, ["The Prince", "Jaq"], rules={"prince_into_locked_ballroom": "no"})
    assert names_at(sc, 0, BALLROOM) == [] and sorted(fate_discard(sc)) == ["Jaq", "The Prince"]
    # Not a Hero: cards that target Heroes ignore him.
    spec = {"power": 9, "mover": MUSIC, "hand": ["Trapped", "Midnight"], "realm": {BALLROOM: ["The Prince"]}}
    sc = lt_turn(spec)
    assert plays(sc, "Trapped") == [] and plays(sc, "Midnight") == []
    sc = lt_turn(
        {
            "power": 0,
            "mover": BALLROOM,
            "unlocked": [BALLROOM],
            "realm": {CASTLE: ["The Key"], BALLROOM: ["The Prince"]},
        }
    )
    assert "activate The Key" not in labels(sc)
    assert moves(sc, "The Prince") == [] and moves(sc, "The Key") == ["move The Key to The Music Room"]


# ============================================================================= special rules


def test_condition_is_offered_at_its_trigger_and_declining_keeps_it_in_hand():
    lt = {"hand": ["And One More Thing", "Locked Up", "Trapped"], "realm": {CASTLE: ["Cinderella"]}}
    sc = gaston_turn(lt, {"hand": ["Temper", "Wolves"]})
    sc.apply("gain 2 Power")  # not a Discard action: no window
    assert sc.decision.player == 1 and sc.decision.kind == "action"
    sc.apply("discard cards").apply("card Temper").apply("pass")
    # Right after the Discard action; Locked Up (a Vanquish trigger) is not offered.
    assert sc.decision.player == 0 and sc.decision.kind == "condition"
    assert labels(sc) == ["pass", "card And One More Thing"]
    sc.apply("pass")
    assert sc.decision.player == 1 and sc.decision.kind == "action"
    assert sc.hand(0) == sorted(["And One More Thing", "Locked Up", "Trapped"])
    # The window is gone: no later chance in this turn; Gaston ends his turn and Lady Tremaine moves.
    sc.apply("pass")
    assert sc.decision.player == 0 and sc.decision.kind == "move"
    assert sc.hand(0) == sorted(["And One More Thing", "Locked Up", "Trapped"])
    # Her own Discard action does not open a window for her.
    sc = lt_turn({"power": 0, "mover": CASTLE, "hand": ["And One More Thing", "Trapped"]})
    sc.apply("discard cards").apply("card Trapped").apply("pass")
    assert sc.decision.player == 0 and sc.decision.kind == "action"


def test_locked_ballroom_rules():
    # Lady Tremaine cannot move there.
    sc = lt_turn({"mover": CASTLE}, phase="move")
    assert labels(sc) == ["location Cinderella's Room", "location The Music Room"]
    # No card may be played or moved there (not even the Ball Gowns, who may enter it once it is unlocked).
    spec = {
        "power": 9,
        "mover": ROOM,
        "hand": ["Ball Gown Anastasia", INVITATION],
        "realm": {CASTLE: ["Ball Gown Drizella", "Anastasia"]},
    }
    opts = labels(lt_turn(spec))
    assert "move Ball Gown Drizella to The Music Room" in opts
    assert not any(BALLROOM in x for x in opts)
    sc = fated({"realm": {CASTLE: ["Ball Gown Drizella"]}}, ["Sweet Nightingale", "Fairy Godmother"])
    sc.apply("play Sweet Nightingale")
    assert not any(BALLROOM in x for x in labels(sc))
    sc = fated({"realm": {CASTLE: ["Cinderella"]}}, ["Fairy Godmother", "Gus"])
    sc.apply("play Fairy Godmother to Cinderella's Room")
    assert "location The Ballroom" not in labels(sc)
    # Invitation from the King unlocks it and brings the Prince; then a Ball Gown may walk in.
    sc = lt_turn({**spec, "mover": MUSIC, "power": 3, "hand": [INVITATION]})
    sc.apply(f"play {INVITATION} to The Music Room")
    assert not ballroom_locked(sc) and names_at(sc, 0, BALLROOM) == ["The Prince"]
    sc.apply("pass")  # end of her turn; Gaston moves and ends his turn at once
    assert sc.decision.player == 1 and sc.decision.kind == "move"
    sc.apply("location The Woods").apply("pass")
    assert sc.decision.player == 0 and sc.decision.kind == "move"
    assert "location The Ballroom" in labels(sc)
    sc.apply("location The Ballroom")
    assert "move Ball Gown Drizella to The Ballroom" in labels(sc)
    sc.apply("move Ball Gown Drizella to The Ballroom")
    assert sorted(names_at(sc, 0, BALLROOM)) == ["Ball Gown Drizella", "The Prince"]


def test_find_plays_the_card_from_the_fate_pile_and_keeps_unattached_items():
    """FIND: Realm, then discard pile, then deck. Lady Tremaine's Items are never attached (none of her cards
    attaches), so nothing is discarded along with a found card and Items at its new location stay."""
    # Fairy Godmother finds Ball Gown Cinderella in the Fate discard pile; the Items at the location stay.
    sc = fated(
        {"realm": {CASTLE: ["Wedding Bells", CANE]}, "fate_discard": ["Ball Gown Cinderella"]},
        ["Fairy Godmother", "Gus"],
    )
    sc.apply("play Fairy Godmother to Cinderella's Room").apply("location The Castle")
    assert sorted(names_at(sc, 0, CASTLE)) == sorted(["Wedding Bells", CANE, "Ball Gown Cinderella"])
    assert not entry(sc, 0, CASTLE, "Ball Gown Cinderella").get("items")
    assert discard(sc) == [] and fate_discard(sc) == ["Gus"]
    # Cinderella replaced by Ball Gown Cinderella through Fairy Godmother: the Items at her location stay.
    sc = fated(
        {"realm": {CASTLE: [{"card": "Cinderella", "trapped": True}, "Wedding Bells"]}}, ["Fairy Godmother", "Gus"]
    )
    sc.apply("play Fairy Godmother to Cinderella's Room")  # she takes Cinderella's place: no location to choose
    assert sorted(names_at(sc, 0, CASTLE)) == sorted(["Wedding Bells", "Ball Gown Cinderella"])
    assert discard(sc) == [] and traps_left(sc) == 5
    # Midnight finds the Glass Slippers in the Fate deck and discard pile; the Cane at The Castle stays.
    sc = lt_turn(
        {
            "power": 4,
            "mover": MUSIC,
            "hand": ["Midnight"],
            "realm": {CASTLE: ["Gus", CANE]},
            "fate_discard": [SLIPPER_ROOM],
        }
    )
    sc.apply("play Midnight")
    assert sorted(names_at(sc, 0, CASTLE)) == sorted([CANE, SLIPPER_CASTLE]) and names_at(sc, 0, ROOM) == [SLIPPER_ROOM]
    assert len(sc.zone(0, K.Z_FDECK)) == 12 and fate_discard(sc) == ["Gus"]


def test_trapped_heroes_still_cover_actions():
    spec = {"power": 0, "mover": ROOM, "hand": ["Drizella"], "realm": {ROOM: [{"card": "Cinderella", "trapped": True}]}}
    # Cinderella's Room: top Play and Move covered; bottom Discard and gain 3 open.
    assert labels(lt_turn(spec)) == ["pass", "gain 3 Power", "discard cards"]
    spec["realm"] = {MUSIC: [{"card": "Gus", "trapped": True}]}
    assert "play Drizella to Cinderella's Room" in labels(lt_turn({**spec, "power": 1}))
    # The Music Room: top Fate and gain 2 covered by a Trapped Gus; the two bottom Plays remain.
    opts = labels(lt_turn({**spec, "power": 1, "mover": MUSIC}))
    assert "gain 2 Power" not in opts and "fate Gaston" not in opts and "play Drizella to The Castle" in opts


@pytest.mark.card("Fairy Godmother", abilities=("find_named_hero_play", "allies_moved_only_by_fate"))
def test_fairy_godmother_with_cinderella_in_play_swaps_at_her_location():
    """Villain Guide: the Ball Gowns are played by discarding the everyday version and playing the Ball Gown "to the
    same location"; Fairy Godmother "can play Ball Gown Cinderella even if Cinderella is not in play. If this occurs,
    you may play Ball Gown Cinderella to any unlocked location" - the free choice is only when Cinderella is absent."""
    sc = fated({"realm": {CASTLE: ["Cinderella"]}}, ["Fairy Godmother", "Gus"])
    sc.apply("play Fairy Godmother to Cinderella's Room")
    assert sc.decision.kind == "action"  # no location to choose
    assert names_at(sc, 0, CASTLE) == ["Ball Gown Cinderella"]


@pytest.mark.card("Fairy Godmother", abilities=("find_named_hero_play", "allies_moved_only_by_fate"))
def test_fairy_godmother_finds_ball_gown_cinderella_in_the_realm():
    """Fairy Godmother: "find and play Ball Gown Cinderella". Rulebook, "Finding": "First, check to see if they are
    already in the Realm, and if so, remove them from their location" (DVFAQ: Realm, then discard pile, then deck).
    With Cinderella out of play the Fating player may then play her to any unlocked location (Villain Guide)."""
    sc = fated({"realm": {CASTLE: ["Ball Gown Cinderella"]}}, ["Fairy Godmother", "Gus"])
    sc.apply("play Fairy Godmother to Cinderella's Room")
    assert sc.decision.player == 1 and sc.decision.kind == "location"
    sc.apply("location The Music Room")
    assert names_at(sc, 0, MUSIC) == ["Ball Gown Cinderella"] and names_at(sc, 0, CASTLE) == []
