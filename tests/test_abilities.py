"""Every ability code is printed on a card and resolved by a test.

A card test declares what it resolves with ``@pytest.mark.card(NAME)`` (one marker per card; a card with
several abilities names the ones the test exercises: ``abilities=("push_allies_out",)``). The declarations
are read from the test files' source (whatever subset of tests runs), mapped to ability codes through the
loaded card tables, and every code (``AB_*`` in :mod:`simlab.kernels.const`) must be reached. The fixture in
``conftest.py`` checks at run time that a marked test builds a position naming its card.
"""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import COMPONENTS

from simlab.data.cards import SLOTS, load_cards
from simlab.kernels import const as K
from simlab.villains import ability_codes

TESTS = Path(__file__).parent


def card_abilities() -> dict[str, tuple[str, ...]]:
    """Each card's (and component's) ability names, read from the loaded card data, in slot order."""
    out = {c.name: tuple(c.raw[slot] for slot in SLOTS if c.raw.get(slot)) for c in load_cards().cards}
    out.update(COMPONENTS)
    return out


def _literal(node: ast.expr, where: str):
    try:
        return ast.literal_eval(node)
    except ValueError:
        raise AssertionError(f"{where}: @pytest.mark.card takes literal values (read from the source)") from None


def declarations(paths=None) -> list[tuple[str, str, tuple[str, ...] | None]]:
    """(test, card, abilities or None) for every ``@pytest.mark.card`` on a test function under tests/."""
    out = []
    for path in sorted(paths or TESTS.rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef):
                continue
            for dec in node.decorator_list:
                if not (isinstance(dec, ast.Call) and ast.unparse(dec.func) == "pytest.mark.card"):
                    continue
                where = f"{path.name}::{node.name}"
                assert len(dec.args) == 1, f"{where}: one card per @pytest.mark.card"
                kw = {k.arg: _literal(k.value, where) for k in dec.keywords}
                assert set(kw) <= {"abilities"}, f"{where}: unknown keywords {sorted(set(kw) - {'abilities'})}"
                abilities = kw.get("abilities")
                out.append((where, _literal(dec.args[0], where), None if abilities is None else tuple(abilities)))
    return out


def covered_abilities(decls, abilities_of) -> tuple[dict[str, list[str]], list[str]]:
    """Ability name -> tests that exercise it; and the problems in the declarations."""
    covered: dict[str, list[str]] = {}
    problems = []
    for test, card, named in decls:
        if card not in abilities_of:
            problems.append(f"{test}: no card or component named {card!r}")
            continue
        has = abilities_of[card]
        if named is None:
            if len(has) > 1:
                problems.append(f"{test}: {card} has abilities {list(has)}; say which the test exercises (abilities=)")
                continue
            named = has
        for ab in named:
            if ab not in has:
                problems.append(f"{test}: {card} has no ability {ab!r} (it has {list(has)})")
            else:
                covered.setdefault(ab, []).append(test)
    return covered, problems


OBJECTIVES = {v.raw["villain"]["objective"] for v in load_cards().villains}  # codes too, printed on no card
CODES = [name for name in ability_codes() if name != "none" and name not in OBJECTIVES]


def test_every_ability_code_is_named_by_a_card():
    named = {ab for abilities in card_abilities().values() for ab in abilities}
    missing = [f"AB_{name.upper()}" for name in CODES if name not in named]
    assert not missing, f"ability codes no card (or component) names: {missing}"
    # The components are no cards: none of their codes is printed on one.
    printed = {ab for c in load_cards().cards for ab in card_abilities()[c.name]}
    assert not printed & {ab for abilities in COMPONENTS.values() for ab in abilities}


def test_every_ability_code_is_exercised_by_a_test():
    covered, problems = covered_abilities(declarations(), card_abilities())
    assert not problems, "\n".join(problems)
    missing = [f"AB_{name.upper()}" for name in CODES if name not in covered]
    assert not missing, f"ability codes no test exercises: {missing}"


def test_the_coverage_check_names_what_is_missing(tmp_path):
    """The check itself: an undeclared card leaves its codes uncovered, bad declarations are named."""
    src = tmp_path / "test_x.py"
    src.write_text(
        "import pytest\n\n"
        '@pytest.mark.card("Swoon")\n'
        '@pytest.mark.card("Beast")\n'
        '@pytest.mark.card("Maurice", abilities=("fetch_attachment_here", "wolf_pack"))\n'
        '@pytest.mark.card("Nobody")\n'
        "def test_a():\n    pass\n"
    )
    decls = declarations([src])
    assert [(card, abilities) for _, card, abilities in decls] == [
        ("Swoon", None),
        ("Beast", None),
        ("Maurice", ("fetch_attachment_here", "wolf_pack")),
        ("Nobody", None),
    ]
    covered, problems = covered_abilities(decls, card_abilities())
    assert set(covered) == {"replace_one_gain_or_draw", "fetch_attachment_here"}
    assert problems == [
        "test_x.py::test_a: Beast has abilities ['push_allies_out', 'clear_obstacles_at']; say which the test "
        "exercises (abilities=)",
        "test_x.py::test_a: Maurice has no ability 'wolf_pack' "
        "(it has ['fetch_attachment_here', 'clear_obstacles_at'])",
        "test_x.py::test_a: no card or component named 'Nobody'",
    ]


def test_the_villain_table_names_exactly_the_ongoing_abilities_of_its_decks():
    """VF_PASSIVES lets the Realm walks (play costs, Strength) stop early: a clear bit must mean no such card."""
    cards = load_cards()
    tb = cards.tables
    for v in cards.villains:
        printed = {
            ability_codes()[c.raw["passive"]] for c in cards.cards if c.villain == v.key and c.raw.get("passive")
        }
        rows = [*tb.v_deck[v.row], *tb.v_fate[v.row]]
        assert printed == {int(tb.card[r, K.CF_PASSIVE]) for r in rows} - {K.AB_NONE}, v.name
        bits = {
            p
            for p in range(K.FIRST_PASSIVE, K.FIRST_PASSIVE + 63)
            if tb.vil[v.row, K.VF_PASSIVES] >> (p - K.FIRST_PASSIVE) & 1
        }
        assert bits == printed, v.name
    # the shipped decks differ, so the early stop is taken for some villain and not for another
    assert len({int(tb.vil[v.row, K.VF_PASSIVES]) for v in cards.villains}) == len(cards.villains)
