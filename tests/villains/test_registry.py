"""Villains come from the registry alone (``simlab.villains.REGISTRY``): every registered folder provides what the
registry needs, a villain added as a folder plus one registry line loads and plays, and nothing outside the
villains' folders names a villain or one of its cards (README, "Adding a villain")."""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest
from numba import types

from simlab import villains as V
from simlab.data.cards import compile_cards, load_cards

ROOT = Path(__file__).resolve().parents[2]

# Modules that still hold villain-specific code, and what is to move out of them. The test below also
# fails when one of them no longer names a villain or a villain-only mechanic, so that it leaves this list.
NOT_YET: dict[str, str] = {}
# Modules that name a villain because a study asks about it by name (not villain code).
ASKED = {"simlab/report/sections.py": 'the report answers the question "is Lady Tremaine harder?" by name'}


def test_every_registered_folder_provides_what_the_registry_needs():
    assert len(set(V.REGISTRY)) == len(V.REGISTRY)
    for folder in V.REGISTRY:
        module = importlib.import_module(V.package(folder))
        assert module.__doc__, f"simlab/villains/{folder}/__init__.py says what the folder holds"
        doc = tomllib.loads(V.data_text(folder))
        meta = doc["villain"]
        assert meta["key"] == V.key_of(folder), f"{folder}/cards.toml: key must be the folder's name with - for _"
        for field in ("name", "prose_name", "objective", "objective_text", "won_text"):
            assert meta.get(field), f"{folder}/cards.toml: [villain] {field}"
        assert (ROOT / "tests" / "villains" / f"test_{folder}.py").exists(), f"tests/villains/test_{folder}.py"
        plan = importlib.import_module(f"strategies.plans.{folder}")
        assert plan.__doc__ and plan.PLAN, f"strategies/plans/{folder}.py: a docstring and PLAN"
        # its codes are worked out in one module: codes.py, which its other modules and its plan import them from
        # (a folder whose abilities.py alone freezes codes may work them out there, as the test villain does)
        here = Path(module.__file__).parent
        computing = [
            p.name
            for p in [*sorted(here.glob("*.py")), Path(plan.__file__)]
            if re.search(r"\b(codes_for|slots_for|card_type_code)\(", p.read_text(encoding="utf-8"))
        ]
        assert computing in ([], ["codes.py"], ["abilities.py"]), f"{folder}: codes worked out in {computing}"
        if (here / "codes.py").exists():
            codes = importlib.import_module(f"{V.package(folder)}.codes")
            assert codes.__doc__ and codes.CODES == V.codes_of(folder), f"simlab/villains/{folder}/codes.py"
    assert tuple(v.key for v in load_cards().villains) == V.KEYS


def test_the_tables_come_from_the_registry_alone(monkeypatch):
    # Without one registered folder, the tables hold the others only, in registry order.
    monkeypatch.setattr(V, "REGISTRY", V.REGISTRY[1:])
    import simlab.data.cards as cards

    monkeypatch.setattr(cards, "VILLAIN_FOLDERS", V.REGISTRY)
    cs = compile_cards()
    assert tuple(v.key for v in cs.villains) == tuple(V.key_of(f) for f in V.REGISTRY)
    assert cs.tables.vil.shape[0] == len(V.REGISTRY)


ADD_A_VILLAIN = """
import json, sys
from pathlib import Path
import simlab.villains as V
folder = Path(sys.argv[1])
V.__path__.append(str(folder.parent))  # the new villain's folder, as if written under simlab/villains
import strategies.plans as P
P.__path__.append(sys.argv[2])  # its plan, as if written under strategies/plans
V.REGISTRY = V.REGISTRY + (folder.name,)  # the one registry line
V.KEYS = tuple(V.key_of(f) for f in V.REGISTRY)
from simlab.runs.settings import RunSettings
from simlab.runs.sim import run
settings = RunSettings(40, 0, threads=1, max_turns=30)
r = run("gaston-vs-" + V.key_of(folder.name), settings, strategies={"gaston": "expert"})
print(json.dumps({"games": int(r.summary["games"].sum()) if "games" in r.summary.columns else 40,
                  "outcomes": r.summary.select("outcome", "rate").rows()}))
"""


@pytest.mark.slow
def test_a_villain_added_as_a_folder_and_a_registry_line_plays(tmp_path):
    # A copy of Gaston under a new key and new card and location names: nothing else is touched.
    text = V.data_text("gaston")
    doc = tomllib.loads(text)
    renames = {c["name"]: f"{c['name']} II" for c in doc["card"]}
    renames |= {lc["name"]: f"{lc['name']} II" for lc in doc["location"]}
    for old, new in sorted(renames.items(), key=lambda kv: -len(kv[0])):
        text = re.sub(rf'"{re.escape(old)}"', f'"{new}"', text.replace('"' + new + '"', '"' + new + '"'))
    text = text.replace('key = "gaston"', 'key = "gaston-two"').replace('name = "Gaston"', 'name = "Gaston Two"')
    folder = tmp_path / "gaston_two"
    folder.mkdir()
    (folder / "__init__.py").write_text('"""A second Gaston, for the registry test."""\n')
    (folder / "cards.toml").write_text(text)
    plans = tmp_path / "plans"
    plans.mkdir()
    (plans / "gaston_two.py").write_text(
        '"""A second Gaston\'s plan: Gaston\'s terms, no parameters of its own."""\n\n'
        "from strategies.plans.gaston import plan_nb  # noqa: F401\n\n"
        'PLAN = "Gaston Two clears Obstacles"\n'
    )
    out = subprocess.run(
        [sys.executable, "-c", ADD_A_VILLAIN, str(folder), str(plans)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=1800,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    outcomes = dict(tuple(r) for r in __import__("json").loads(out.stdout.strip().splitlines()[-1])["outcomes"])
    assert set(outcomes) <= {"gaston", "gaston-two", "unfinished"}
    assert outcomes.get("gaston-two", 0) > 0, outcomes  # the new villain wins some games: it really plays


# ------------------------------------------------------------------------------------------ nothing else names one


def _names() -> tuple[set[str], set[tuple[str, ...]], set[str]]:
    """Phrases that name a villain, its cards or a villain-only mechanic (in strings), identifier token runs that
    name them, and identifiers that name a villain-only mechanic (:func:`_mechanics`)."""
    cs = load_cards()
    phrases = set()
    for v in cs.villains:
        phrases |= {v.key, v.name, v.prose_name, *v.tile}
        phrases.add(v.name.removeprefix("The "))
    phrases |= {c.name for c in cs.cards}
    tokens = {tuple(re.findall(r"[a-z0-9]+", p.lower())) for p in phrases - RULE_WORDS}
    tokens |= {(f,) for f in V.REGISTRY} | {tuple(f.split("_")) for f in V.REGISTRY}
    strings, idents, runs = _mechanics()
    return phrases | strings, {t for t in tokens if t} | runs, idents


def _mechanics() -> tuple[set[str], set[str], set[tuple[str, ...]]]:
    """What names a villain-only mechanic, from the registered folders' data: identifiers (``AB_<ability>`` of an
    ability one folder alone prints, ``R_<slot>`` of a rule slot one folder alone declares a variant of,
    ``T_<type>`` of a card type a folder declares), the same names as strings, and identifier token runs (a
    villain's tile: the last word of its name, ``cauldron``)."""
    printers: dict[str, set[str]] = {}
    rules: dict[str, set[str]] = {}
    strings, idents, runs = set(), set(), set()
    for folder in V.REGISTRY:
        doc = tomllib.loads(V.data_text(folder))
        for name in V.declared_abilities(folder):
            printers.setdefault(name, set()).add(folder)
        for rule in doc.get("rule", ()):
            rules.setdefault(rule["slot"], set()).add(folder)
        for card_type in V.declared_card_types(folder):
            strings.add(card_type)
            idents.add(f"T_{card_type.upper()}")
        if "name" in doc.get("tile", {}):
            runs.add((re.findall(r"[a-z0-9]+", doc["tile"]["name"].lower())[-1],))
    for name, folders in printers.items():
        if len(folders) == 1 and name not in CORE_RESOLVED:
            if "_" in name:  # a one-word name ("draw") is a word of the rules too
                strings.add(name)
            idents.add(f"AB_{name.upper()}")
    for slot, folders in rules.items():
        if len(folders) == 1:
            strings.add(slot)
            idents.add(f"R_{slot.upper()}")
    return strings, idents, runs


# Card names that are also words of the rules, so a core module may say them: "Trapped" (a token and a Lady
# Tremaine card).
RULE_WORDS = {"Trapped"}


def _docstrings(tree) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def villain_names_in(path: Path, names: tuple | None = None) -> list[str]:
    """What code in ``path`` names a villain, a card or a villain-only mechanic: its string constants (docstrings and
    comments aside) and identifiers. ``names``: what :func:`_names` returns, when the caller checks many files."""
    phrases, runs, idents = names or _names()
    patterns = [(p, re.compile(rf"(?<![\w-]){re.escape(p)}(?![\w-])")) for p in phrases - RULE_WORDS]
    runs_from: dict[str, list[tuple[str, ...]]] = {}  # a run is looked for only where its first token stands
    for run in runs:
        runs_from.setdefault(run[0], []).append(run)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            for p, pattern in patterns:
                if p in node.value and pattern.search(node.value):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: string names {p!r}")
        name = (
            node.id
            if isinstance(node, ast.Name)
            else node.attr
            if isinstance(node, ast.Attribute)
            else node.name
            if isinstance(node, (ast.FunctionDef, ast.ClassDef))
            else node.arg
            if isinstance(node, ast.arg)
            else None
        )
        if name in idents:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: identifier {name} names a villain-only mechanic")
        if name:
            toks = tuple(re.findall(r"[a-z0-9]+", name.lower()))
            for i, tok in enumerate(toks):
                for run in runs_from.get(tok, ()):
                    if toks[i : i + len(run)] == run:
                        found.append(
                            f"{path.relative_to(ROOT)}:{node.lineno}: identifier {name} names {' '.join(run)!r}"
                        )
    return sorted(set(found))


def core_modules() -> list[Path]:
    files = sorted((ROOT / "simlab").rglob("*.py")) + sorted((ROOT / "strategies").rglob("*.py"))
    skip = (ROOT / "simlab" / "villains", ROOT / "strategies" / "plans")
    return [p for p in files if not any(p.is_relative_to(s) for s in skip)]


def test_nothing_outside_the_villains_folders_names_a_villain():
    found = {}
    names = _names()
    for path in core_modules():
        hits = villain_names_in(path, names)
        if hits:
            found[str(path.relative_to(ROOT))] = hits
    unexpected = {p: h for p, h in found.items() if p not in NOT_YET and p not in ASKED}
    assert unexpected == {}, "\n".join(h for hs in unexpected.values() for h in hs)
    moved = sorted((set(NOT_YET) | set(ASKED)) - set(found))
    assert moved == [], f"no longer name a villain: take them off NOT_YET or ASKED: {moved}"


@pytest.mark.parametrize(
    "code, named",
    [
        ('if v.key == "gaston":\n    pass\n', "gaston"),
        ('WHY = {"x": "Wedding Bells activated"}\nname = "Wedding Bells"\n', "Wedding Bells"),
        ("def lucifer_sweep_nb(st):\n    return st\n", "lucifer"),
        ("AB_CAULDRON_BORN = 83\n", "cauldron born"),
        # villain-only mechanics, by the identifiers and names the folders' data gives them
        ("if tb.card[c, K.CF_PASSIVE] == K.AB_TRAPS_HEROES_HERE:\n    pass\n", "villain-only mechanic"),
        ('SLOT = "traps_heroes_here_continuous"\n', "traps_heroes_here_continuous"),
        ("if ru[K.R_OBSTACLE_WIN_AT_START_OF_TURN]:\n    pass\n", "villain-only mechanic"),
        ("T_PRINCE = 5\n", "villain-only mechanic"),
        ('KIND = "Prince"\n', "Prince"),
        ("SV_CAULDRON = 3\n", "cauldron"),
    ],
)
def test_the_check_sees_a_villain_named_in_code(tmp_path, code, named, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    path = tmp_path / "core.py"
    path.write_text(textwrap.dedent('"""Docstrings may name Gaston."""\n# so may comments: Lady Tremaine\n' + code))
    hits = villain_names_in(path)
    assert any(named in h for h in hits), hits
    path.write_text('"""Gaston and Beast in a docstring are examples, not code."""\n# Lucifer\nx = 1\n')
    assert villain_names_in(path) == []


# ------------------------------------------------------------------------------------------ the engine's core

# The rules engine and the heuristic's core, read whole, comments and docstrings too (grep
# finds no villain name in kernels/ or the core heuristic).
ENGINE_CORE = ("simlab/kernels", "simlab/game", "strategies/heuristic")


def declared_names() -> set[str]:
    """Every name the registered folders declare: each villain's key (with ``-`` and with ``_``), name and prose
    name, its tile's sides and the last word of the tile's name, the card types it declares and its cards' names
    (those that are also words of the rules aside)."""
    out: set[str] = set()
    for folder in V.REGISTRY:
        doc = tomllib.loads(V.data_text(folder))
        meta = doc["villain"]
        out |= {folder, V.key_of(folder), meta["name"], meta["name"].removeprefix("The "), meta["prose_name"]}
        if "tile" in doc:
            out |= {doc["tile"]["name"], doc["tile"]["power_side"], doc["tile"]["name"].split()[-1]}
        out |= set(V.declared_card_types(folder))
        out |= {c["name"] for c in doc["card"]} - RULE_WORDS
    return out


def names_in_text(path: Path, names: set[str]) -> list[str]:
    """Each line of ``path`` naming one of ``names`` (any case, as a whole word; ``_`` parts words, so an
    identifier's words count too)."""
    pattern = re.compile(
        r"(?<![A-Za-z0-9-])("
        + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        + r")(?![A-Za-z0-9-])",
        re.I,
    )
    found = []
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if m := pattern.search(line):
            found.append(f"{path.relative_to(ROOT)}:{i}: {m.group(1)!r}: {line.strip()}")
    return found


def test_no_villain_named_in_the_engine_core():
    names = declared_names()
    found = [h for d in ENGINE_CORE for path in sorted((ROOT / d).rglob("*.py")) for h in names_in_text(path, names)]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize(
    "line", ["# then Lucifer", '"""Wedding Bells can win"""', "x = st.sv[s, K.SV_CAULDRON]", "# horned_king"]
)
def test_the_engine_core_check_sees_a_name_in_a_comment_or_a_docstring(tmp_path, monkeypatch, line):
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    path = tmp_path / "core.py"
    path.write_text(f"x = 1\n{line}\n")
    assert names_in_text(path, declared_names()) != []
    path.write_text("# a villain's tile, its objective, the cards its folder marks\nx = 1\n")
    assert names_in_text(path, declared_names()) == []


# ------------------------------------------------------------------------------------------ ability routines

ROUTINE_SLOTS = ("effect", "on_play", "on_enter", "activate", "on_defeat")  # what villains' routines resolve
# Codes printed in those slots that no villain's routine resolves: the core does (a Hero played from the Fate
# discard pile, which two villains print), or the Fate action does before any routine is reached (the target
# taking over the choice).
CORE_RESOLVED = {"play_hero_from_fate_discard", "hijack_fate"}


def printed_codes(slots=ROUTINE_SLOTS) -> dict[str, set[str]]:
    """Ability name -> the registered folders whose cards print it in one of ``slots`` (or whose tile has it, or
    whose objective it is)."""
    out: dict[str, set[str]] = {}
    for folder in V.REGISTRY:
        doc = tomllib.loads(V.data_text(folder))
        for card in doc["card"]:
            for slot in slots:
                if slot in card:
                    out.setdefault(card[slot], set()).add(folder)
        if "ability" in doc.get("tile", {}):  # the villain's tile
            out.setdefault(doc["tile"]["ability"], set()).add(folder)
        out.setdefault(doc["villain"]["objective"], set()).add(folder)  # its check says when it holds
    return out


def test_each_printed_ability_has_one_routine_of_the_villain_printing_it():

    owners = V.ability_owners()
    printed = printed_codes()
    for name, folders in sorted(printed.items()):
        code = V.ability_codes()[name]
        if name in CORE_RESOLVED:
            assert code not in owners, f"{name} is resolved by the core, yet {owners[code]} handles it too"
            continue
        assert code in owners, f"{name} (printed by {sorted(folders)}) has no routine: add it to a HANDLES"
        assert folders == {owners[code]}, f"{name} is printed by {sorted(folders)}, handled by {owners[code]}"
    # and a folder handles only codes its own cards print (an ongoing ability too, where the engine asks it)
    names = {code: name for name, code in V.ability_codes().items()}
    anywhere = printed_codes(V.ABILITY_SLOTS)
    stray = {names[c]: f for c, f in owners.items() if f not in anywhere.get(names[c], ())}
    assert stray == {}


def test_the_engine_reaches_every_villain_routine_and_check_through_its_tables():
    import simlab.game.driver  # noqa: F401  (binds the routines and fills the table)
    from simlab.kernels import rules
    from simlab.kernels.compile import link

    filled = link.filled(rules.ABILITY_TABLE, rules.N_ABILITY_CODES)
    assert filled == set(range(rules.N_ABILITY_CODES))
    assert link.filled(rules.CHECK_TABLE, rules.N_ABILITY_CODES) == set(range(rules.N_ABILITY_CODES))
    py = link._PY_TABLES[rules.ABILITY_TABLE]
    checks = link._PY_TABLES[rules.CHECK_TABLE]
    owners = V.ability_owners()
    for code, folder in owners.items():
        module = importlib.import_module(f"{V.package(folder)}.abilities")
        assert py[code] is getattr(module.ability_r, "py_func", module.ability_r)
        assert checks[code] is getattr(module.check_nb, "py_func", module.check_nb)
        if hasattr(module.check_nb, "overloads"):  # the table's callers read an int64 answer
            assert module.check_nb.overloads[rules.CHECK_TYPES].signature.return_type == types.int64
    for code in set(range(rules.N_ABILITY_CODES)) - set(owners):
        assert checks[code] is getattr(rules.no_check_nb, "py_func", rules.no_check_nb)
    # the questions asked of ongoing abilities reach those each folder answers them for (ASKED), and no other
    from simlab.kernels import const as K

    asked = [0] * rules.N_ASKS
    for folder, module in V._ability_modules():
        for ask, codes in getattr(module, "ASKED", {}).items():
            for code in codes:
                assert owners[code] == folder, f"{folder} answers {ask} for code {code}, which it does not handle"
                asked[ask] |= 1 << (code - K.FIRST_PASSIVE)
    assert list(link._TABLES[rules.ASKED_TABLE]) == asked
    # and the queries' questions reach the answers of the folders' queries.py (ANSWERS), and no other
    from simlab.kernels import query

    answers = link._PY_TABLES[query.QUERY_TABLE]
    assert set(answers) == set(range(rules.N_ABILITY_CODES))
    answered = [0] * query.N_QUESTIONS
    for module in V._query_modules().values():
        for question, codes in module.ANSWERS.items():
            for code in codes:
                assert answers[code] is getattr(module.answer_nb, "py_func", module.answer_nb)
                answered[question] |= 1 << (code - K.FIRST_PASSIVE)
    assert list(link._TABLES[query.ANSWERED_TABLE]) == answered
    for code in set(range(rules.N_ABILITY_CODES)) - set(V.query_owners()):
        assert answers[code] is getattr(query.no_answer_nb, "py_func", query.no_answer_nb)


# ------------------------------------------------------------------------------------------ ability codes


def test_ability_codes_are_assigned_at_load_from_each_folders_declarations():
    from simlab.kernels import const as K
    from simlab.kernels.compile import cache

    V._ability_modules()  # the routines, which ask for their codes when imported
    codes = V.ability_codes()
    assert len(set(codes.values())) == len(codes), "one code a name"
    assert all(0 <= c < K.N_ABILITY_CODES for c in codes.values())
    for folder in V.REGISTRY:
        declared = V.declared_abilities(folder)
        assert set(declared) <= set(codes)
        for name, passive in declared.items():
            assert (codes[name] in K.PASSIVE_CODES) == passive, name
        # the folder's routines, queries and plan freeze the codes its codes.py names (the test villain's, its
        # abilities.py): the cache of each is kept apart by them
        key = V.frozen_key(folder)
        assert key in {cache._APART.get(f"{V.package(folder)}.{m}") for m in ("codes", "abilities")}
        for module in (f"{V.package(folder)}.abilities", f"{V.package(folder)}.queries", f"strategies.plans.{folder}"):
            if cache.module_file(module) is not None:
                assert f"-{key}" in cache.cache_dir("kernels", module).rpartition("/")[2], module
    assert {n for n in codes if n not in K.ABILITY_CODES}, "some codes come from the folders alone"


def test_a_folder_added_last_is_assigned_free_codes_and_leaves_the_others(monkeypatch):
    from simlab.kernels import const as K

    before = V.ability_codes()
    declared = V.declared_abilities
    extra = {"a_new_effect": False, "a_new_ongoing_ability": True, "remove_obstacles": False}
    monkeypatch.setattr(V, "declared_abilities", lambda f: extra if f == "extra" else declared(f))
    monkeypatch.setattr(V, "REGISTRY", V.REGISTRY + ("extra",))
    after = V.ability_codes()
    assert {n: after[n] for n in before} == before
    assert after["a_new_effect"] not in before.values() and after["a_new_effect"] < K.PASSIVE_CODES.start
    assert after["a_new_ongoing_ability"] in K.PASSIVE_CODES and after["a_new_ongoing_ability"] not in before.values()
    many = {f"effect_{i}": False for i in range(K.N_ABILITY_CODES)}
    monkeypatch.setattr(V, "declared_abilities", lambda f: {"extra": extra, "crowded": many}.get(f) or declared(f))
    monkeypatch.setattr(V, "REGISTRY", V.REGISTRY + ("crowded",))
    with pytest.raises(RuntimeError, match="no ability code is left"):
        V.ability_codes()


def test_rule_slots_are_the_cores_then_the_folders_and_a_new_one_takes_a_free_index(monkeypatch):
    from simlab.kernels import const as K

    before = V.rule_slots()
    assert {n: before[n] for n in K.RULE_SLOTS} == K.RULE_SLOTS
    assert len(set(before.values())) == len(before) and all(0 <= i < K.N_RULES for i in before.values())
    for folder in V.REGISTRY:  # the shipped variants keep the indices their tables ask for
        for name, index in V.declared_rule_slots(folder).items():
            assert index is None or before[name] == index
    declared = V.declared_rule_slots
    extra = {"a_new_rule": None, "obstacle_win_at_start_of_turn": before["obstacle_win_at_start_of_turn"]}
    monkeypatch.setattr(V, "declared_rule_slots", lambda f: extra if f == "extra" else declared(f))
    monkeypatch.setattr(V, "REGISTRY", V.REGISTRY + ("extra",))
    after = V.rule_slots()
    assert {n: after[n] for n in before} == before
    assert after["a_new_rule"] == min(set(range(K.N_RULES)) - set(before.values()))
    clash = {"another_rule": before["obstacle_win_at_start_of_turn"]}
    monkeypatch.setattr(V, "declared_rule_slots", lambda f: clash if f == "extra" else declared(f))
    monkeypatch.setattr(V, "REGISTRY", V.REGISTRY[:-1] + ("extra", "extra"))
    with pytest.raises(RuntimeError, match="cannot take index"):
        V.rule_slots()
