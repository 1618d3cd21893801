"""Strength modifiers as data: each villain's [[strength]] declarations compile into the card table's CF_STR_*
columns and the villain table's masks, which query.strength_nb reads inline. The invariants (tests/test_invariants.py,
"queries agree with their definitions") check over random games that this data gives the Strength each folder's
queries.py gives by definition; here, what the data compiles to and which declarations are refused."""

from __future__ import annotations

import copy

import pytest

from simlab.data.cards import _read, compile_cards, load_cards
from simlab.errors import CardDataError
from simlab.kernels import const as K
from simlab.villains import REGISTRY, ability_codes


def _row(cs, name: str):
    return cs.tables.card[cs.card(name).row]


def _columns(cs, name: str) -> tuple[int, int, int, int]:
    r = _row(cs, name)
    return int(r[K.CF_STR_CHANGES]), int(r[K.CF_STR_PER]), int(r[K.CF_STR_FLAGS]), int(r[K.CF_STR_AMOUNT])


def test_the_shipped_declarations_compile_to_the_cards_texts():
    cs = load_cards()
    # Wolves: +1 for each other Wolves; Five Dozen Eggs: its host +2; Maurice's Invention: Allies there -1;
    # Cogsworth: other Heroes there +1 while untrapped
    assert _columns(cs, "Wolves") == (K.SC_OWN, K.SP_OTHER_COPY, 0, 1)
    assert _columns(cs, "Five Dozen Eggs") == (K.SC_HOST, K.SP_FLAT, 0, 2)
    assert _columns(cs, "Maurice's Invention") == (K.SC_ALLIES_HERE, K.SP_FLAT, 0, -1)
    assert _columns(cs, "Cogsworth") == (K.SC_HEROES_HERE, K.SP_FLAT, K.SF_UNTRAPPED, 1)
    # Guard Dog: +1 once with another Ally there; Taran: +1 per other Hero there, untrapped; Dyrnwyn: host +2;
    # Princess Eilonwy: every other Hero +1 while untrapped
    assert _columns(cs, "Guard Dog") == (K.SC_OWN, K.SP_ALLY_HERE, K.SF_ONCE, 1)
    assert _columns(cs, "Taran") == (K.SC_OWN, K.SP_HERO_HERE, K.SF_UNTRAPPED, 1)
    assert _columns(cs, "Dyrnwyn") == (K.SC_HOST, K.SP_FLAT, 0, 2)
    assert _columns(cs, "Princess Eilonwy") == (K.SC_OTHER_HEROES, K.SP_FLAT, K.SF_UNTRAPPED, 1)
    # a card without such an ability has no Strength data
    assert _columns(cs, "Get Out!") == (K.SC_NONE, K.SP_FLAT, 0, 0)
    codes = ability_codes()
    bit = {n: 1 << (codes[n] - K.FIRST_PASSIVE) for n in codes if codes[n] in K.PASSIVE_CODES}
    g, hk, lt = (cs.villain(k).row for k in ("gaston", "horned-king", "lady-tremaine"))
    vil = cs.tables.vil
    assert vil[g, K.VF_ALLY_STRENGTH] == bit["attached_strength"] | bit["allies_here_minus"]
    assert vil[g, K.VF_HERO_STRENGTH] == bit["other_heroes_here_plus"]  # Five Dozen Eggs attaches to an Ally
    assert vil[hk, K.VF_ALLY_STRENGTH] == 0  # Dyrnwyn attaches to a Hero
    assert vil[hk, K.VF_HERO_STRENGTH] == bit["attached_needs_two_allies"] | bit["other_heroes_plus"]
    assert vil[lt, K.VF_ALLY_STRENGTH] == vil[lt, K.VF_HERO_STRENGTH] == 0


def _docs():
    return [copy.deepcopy(_read(f)) for f in REGISTRY]


def _gaston(docs):
    return next(d for d in docs if d["villain"]["key"] == "gaston")


def test_the_amount_follows_the_cards_number_and_the_data():
    docs = _docs()
    eggs = next(c for c in _gaston(docs)["card"] if c["name"] == "Five Dozen Eggs")
    eggs["n"] = 3  # "n": the card's number, whatever it is
    wolves = next(s for s in _gaston(docs)["strength"] if s["ability"] == "wolf_pack")
    wolves["amount"] = 2
    cs = compile_cards(docs)
    assert _columns(cs, "Five Dozen Eggs")[3] == 3
    assert _columns(cs, "Wolves")[3] == 2


@pytest.mark.parametrize(
    "change, message",
    [
        ({"colour": "red"}, r"unknown keys \['colour'\]"),
        ({"ability": "nope"}, "ability 'nope' is no ongoing ability"),
        ({"changes": "everyone"}, "changes must be one of"),
        ({"changes": "host", "per": "other_copy"}, "only with changes = 'own'"),
        ({"amount": "twice"}, "amount must be a whole number, 'n' or '-n'"),
        ({"amount": True}, "amount must be a whole number"),
    ],
)
def test_a_bad_declaration_is_refused_naming_it(change, message):
    docs = _docs()
    _gaston(docs)["strength"][0].update(change)
    with pytest.raises(CardDataError, match=message):
        compile_cards(docs)


def test_a_second_reading_of_an_ability_is_refused_a_copy_is_not():
    docs = _docs()
    g = _gaston(docs)
    g["strength"].append(dict(g["strength"][0]))
    compile_cards(docs)  # the same declaration again (a copied folder): one reading
    g["strength"][-1]["amount"] = 5
    with pytest.raises(CardDataError, match="'wolf_pack' is declared again, differently"):
        compile_cards(docs)
