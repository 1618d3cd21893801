"""The villains simlab plays: one folder each, listed in :data:`REGISTRY`.

``simlab/villains/<folder>/`` holds everything that is one villain's: ``cards.toml`` (the ``[villain]`` table with
its key, names and objective, its four locations, its Villain and Fate decks, see :mod:`simlab.data.cards`; the rule
variants of its cards, ``[[rule]]``, see :mod:`simlab.data.rules`), ``codes.py`` (the codes its abilities, rule slots
and card types were assigned, named once for its other modules and its plan: :func:`codes_for`), ``abilities.py``
(the routine resolving the ability codes only its cards print and the check of whether each can do what it says,
reached by the engine through tables filled by :func:`bind_abilities`) and the package's ``__init__.py`` (what the
folder holds). The folder's name is the villain's key with ``_`` for ``-`` (``lady_tremaine`` plays as
``lady-tremaine``). Adding a villain is writing its folder and one line in :data:`SHIPPED` (docs, "Adding a villain").

A villain may also live outside simlab: :data:`PATH_VARIABLE` names directories (``os.pathsep`` between them) whose
sub-folders holding a ``cards.toml`` are registered after the shipped ones, in name order, as if they were written
here; their plans are read from the directory's ``plans/`` (:func:`search_path`). The test villain of
``tests/villains/extra/`` plays this way, with no core file changed.
"""

from __future__ import annotations

import hashlib
import os
import tomllib
from functools import cache
from importlib import resources
from pathlib import Path

# Folders, in the order of the card tables' villain rows: seeded games depend on it, so a new villain goes last.
SHIPPED = (
    "gaston",
    "lady_tremaine",
    "horned_king",
)

PATH_VARIABLE = "SIMLAB_VILLAIN_PATH"


def search_path() -> tuple[Path, ...]:
    """The directories of extra villain folders :data:`PATH_VARIABLE` names, read once when this module loads (the
    card tables and the kernels' codes are built from the registry it makes)."""
    return tuple(Path(p).resolve() for p in os.environ.get(PATH_VARIABLE, "").split(os.pathsep) if p)


def _extra_folders(dirs: tuple[Path, ...]) -> tuple[str, ...]:
    out = []
    for d in dirs:
        if not d.is_dir():
            raise RuntimeError(f"{PATH_VARIABLE}: {d} is not a directory")
        __path__.append(str(d))  # noqa: F821  (this package's own search path: its folders import as ours)
        out += sorted(f.name for f in d.iterdir() if (f / DATA_FILE).is_file() and f.name not in SHIPPED)
    if len(set(out)) != len(out):
        raise RuntimeError(f"{PATH_VARIABLE}: a villain folder is named twice: {out}")
    return tuple(out)


DATA_FILE = "cards.toml"
REGISTRY = SHIPPED + _extra_folders(search_path())


def key_of(folder: str) -> str:
    """``"lady_tremaine"`` -> ``"lady-tremaine"`` (the key the CLI and the tables use)."""
    return folder.replace("_", "-")


def package(folder: str) -> str:
    """The villain's package: ``simlab.villains.<folder>``."""
    return f"{__name__}.{folder}"


def data_text(folder: str) -> str:
    """The text of the villain's ``cards.toml``."""
    return resources.files(package(folder)).joinpath(DATA_FILE).read_text(encoding="utf-8")


KEYS = tuple(key_of(f) for f in REGISTRY)

# the slots of a card that name an ability (a villain's tile names one in its [tile] table)
ABILITY_SLOTS = ("effect", "on_play", "on_enter", "on_defeat", "passive", "activate")


@cache
def declared_abilities(folder: str) -> dict[str, bool]:
    """The ability names the folder's ``cards.toml`` prints (its cards' ability slots, its tile's ability, its
    objective), in the
    order first printed, each with whether it is an ongoing (passive) ability: the folder's declaration, from which
    its codes are assigned (:func:`ability_codes`)."""
    doc = tomllib.loads(data_text(folder))
    out: dict[str, bool] = {}
    for card in doc.get("card", ()):
        for slot in ABILITY_SLOTS:
            if slot in card:
                name, passive = card[slot], slot == "passive"
                if out.setdefault(name, passive) != passive:
                    raise RuntimeError(f"{folder}: {name} is printed both as an ongoing ability and as another")
    if "ability" in doc.get("tile", {}):
        out.setdefault(doc["tile"]["ability"], False)
    if "objective" in doc.get("villain", {}):  # checked through the same table as an ability
        out.setdefault(doc["villain"]["objective"], False)
    return out


def ability_codes() -> dict[str, int]:
    """Every ability name -> its code: the core's (:data:`simlab.kernels.const.ABILITY_CODES`), then, folder by folder
    in registry order, each name a folder declares that has none yet, the lowest code left free (an ongoing ability's
    from ``PASSIVE_CODES``, any other's below them). A folder added last leaves the others' codes as they were."""
    return dict(_assigned(REGISTRY))


@cache
def _assigned(registry: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    from simlab.kernels import const as K

    codes = dict(K.ABILITY_CODES)
    taken = set(codes.values())
    for folder in registry:
        for name, passive in declared_abilities(folder).items():
            if name in codes:
                continue
            free = K.PASSIVE_CODES if passive else range(1, K.PASSIVE_CODES.start)
            code = next((c for c in free if c not in taken and c < K.N_ABILITY_CODES), None)
            if code is None:
                kind = "ongoing ability" if passive else "ability"
                raise RuntimeError(f"{folder}: no {kind} code is left for {name} (N_ABILITY_CODES, PASSIVE_CODES)")
            codes[name] = code
            taken.add(code)
    return tuple(codes.items())


@cache
def declared_card_types(folder: str) -> dict[str, dict]:
    """The card types the folder's ``cards.toml`` declares beyond the core's (``[[card_type]]``: its name, and
    ``played_when_revealed``: a Fate action plays a card of it at once to the location it names)."""
    doc = tomllib.loads(data_text(folder))
    return {t["name"]: t for t in doc.get("card_type", ())}


def card_types() -> tuple[str, ...]:
    """Every card type by its code: the core's (:data:`simlab.kernels.const.CARD_TYPES`), then each registered folder's
    (:func:`declared_card_types`) in registry order."""
    from simlab.kernels import const as K

    out = list(K.CARD_TYPES)
    for folder in REGISTRY:
        out += [name for name in declared_card_types(folder) if name not in out]
    return tuple(out)


def codes_of(folder: str) -> dict[str, int]:
    """Ability name -> code for the names registered folder ``folder`` declares (:func:`declared_abilities`)."""
    codes = ability_codes()
    return {name: codes[name] for name in declared_abilities(folder)}


def codes_for(module: str) -> dict[str, int]:
    """:func:`codes_of` the folder that module ``module`` (``simlab.villains.<folder>.codes``, or another of the
    folder's modules, or its plan ``strategies.plans.<folder>``) belongs to, for the module to freeze into its
    kernels. The cache of ``module`` and of every module importing it is kept apart by what the folder freezes
    (:func:`frozen_key`; :func:`simlab.kernels.compile.cache.keep_apart`), which numba's own cache, keyed on the
    source, would not see change: a folder's ``codes.py`` names its codes once, for its abilities, queries and plan
    to import."""
    from simlab.kernels.compile import cache

    parts = module.split(".")
    folder = parts[2] if module.startswith(__name__ + ".") else parts[-1]
    cache.keep_apart(module, frozen_key(folder))
    return codes_of(folder)


def frozen_key(folder: str) -> str:
    """A short name for what the folder's modules freeze: its ability codes, its card types' codes and its rule
    slots."""
    types = card_types()
    frozen = codes_of(folder) | {f"card type {t}": types.index(t) for t in declared_card_types(folder)}
    return codes_key(frozen | {f"rule slot {name}": i for name, i in slots_of(folder).items()})


@cache
def declared_rule_slots(folder: str) -> dict[str, int | None]:
    """The rule slots the folder's ``[[rule]]`` tables name, in the order first named, each with the index its
    table asks for (``index``; None: any free one)."""
    doc = tomllib.loads(data_text(folder))
    out: dict[str, int | None] = {}
    for r in doc.get("rule", ()):
        if "slot" in r and out.setdefault(r["slot"], r.get("index")) != r.get("index"):
            raise RuntimeError(f"{folder}: rule slot {r['slot']} is given two indices")
    return out


def rule_slots() -> dict[str, int]:
    """Every rule slot name -> its index in the kernels' rules array: the core's
    (:data:`simlab.kernels.const.RULE_SLOTS`), then each slot a registered folder's rule variants name with the
    index its ``[[rule]]`` table asks for (the shipped villains keep the indices their variants always had: the
    variants are listed, and studies move through them, in index order), then, folder by folder in registry order,
    each other slot the lowest index left free (below ``N_RULES``)."""
    return dict(_rule_slots(REGISTRY))


@cache
def _rule_slots(registry: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    from simlab.kernels import const as K

    slots = dict(K.RULE_SLOTS)
    owner = dict.fromkeys(slots.values(), "the core")
    for folder in registry:
        for name, index in declared_rule_slots(folder).items():
            if index is None or slots.get(name) == index:
                continue
            if name in slots or not 0 <= index < K.N_RULES or index in owner:
                raise RuntimeError(f"{folder}: rule slot {name} cannot take index {index} (N_RULES, or taken)")
            slots[name] = index
            owner[index] = folder
    for folder in registry:
        for name in declared_rule_slots(folder):
            if name in slots:
                continue
            index = next((i for i in range(K.N_RULES) if i not in owner), None)
            if index is None:
                raise RuntimeError(f"{folder}: no rule slot is left for {name} (N_RULES)")
            slots[name] = index
            owner[index] = folder
    return tuple(slots.items())


def slots_of(folder: str) -> dict[str, int]:
    """Rule slot name -> index for the slots registered folder ``folder``'s rule variants name."""
    slots = rule_slots()
    return {name: slots[name] for name in declared_rule_slots(folder)}


def slots_for(module: str) -> dict[str, int]:
    """:func:`slots_of` the folder module ``module`` belongs to (as :func:`codes_for`, whose cache key covers
    them)."""
    from simlab.kernels.compile import cache

    parts = module.split(".")
    folder = parts[2] if module.startswith(__name__ + ".") else parts[-1]
    cache.keep_apart(module, frozen_key(folder))
    return slots_of(folder)


def card_type_code(name: str) -> int:
    """The code of card type ``name`` (:func:`card_types`); a module freezing it gets it through :func:`codes_for`'s
    folder, whose card types its cache key covers."""
    return card_types().index(name)


def codes_key(codes: dict[str, int]) -> str:
    """A short name for an assignment of codes."""
    h = hashlib.sha256(repr(sorted(codes.items())).encode())
    return h.hexdigest()[:12]


def _ability_modules() -> list[tuple[str, object]]:
    """(folder, its ``abilities`` module) for every registered folder that has one."""
    from importlib import import_module

    out = []
    for folder in REGISTRY:
        name = f"{package(folder)}.abilities"
        try:
            out.append((folder, import_module(name)))
        except ModuleNotFoundError as exc:  # a villain whose cards print only codes others handle
            if exc.name != name:
                raise
    return out


def ability_owners() -> dict[int, str]:
    """Ability code -> the registered folder whose ``abilities.py`` handles it (one folder a code)."""
    owner: dict[int, str] = {}
    for folder, module in _ability_modules():
        for code in module.HANDLES:
            if code in owner and owner[code] != folder:
                raise RuntimeError(f"ability code {code} is handled by both {owner[code]} and {folder}")
            owner[code] = folder
    return owner


def bind_abilities() -> None:
    """Fill the engine's tables of ability routines and of ability checks from the registry, once per process: each
    folder's ``abilities.ability_r`` and ``abilities.check_nb`` (compiled on their own, or loaded from the cache) for
    every code in its ``HANDLES``, and the engine's ``no_ability_r`` (nothing happens, as for a code no branch
    handled) and ``no_check_nb`` (nothing to check) for every other code. A binder
    (:func:`simlab.kernels.compile.bind_all`, which the driver calls when imported)."""
    from simlab.kernels import compile as link
    from simlab.kernels import const as K
    from simlab.kernels import rules

    size = rules.N_ABILITY_CODES
    tables = (
        (rules.ABILITY_TABLE, rules.ABILITY_TYPES, "ability_r", rules.no_ability_r),
        (rules.CHECK_TABLE, rules.CHECK_TYPES, "check_nb", rules.no_check_nb),
    )
    if all(len(link.filled(table, size)) == size for table, *_ in tables):
        return
    modules = dict(_ability_modules())
    owners = ability_owners()
    codes = ability_codes()
    for folder in REGISTRY:  # an objective no routine checks would never be won
        objective = tomllib.loads(data_text(folder))["villain"]["objective"]
        if codes[objective] not in owners:
            raise RuntimeError(f"{folder}: no abilities.py HANDLES its objective {objective} (CHECK_OBJECTIVE)")
    for table, types, name, default in tables:
        for code in range(size):
            kernel = getattr(modules[owners[code]], name) if code in owners else default
            link.fill(table, size, code, kernel, types)
    asked = [0] * rules.N_ASKS
    for folder, module in modules.items():
        for ask, passives in getattr(module, "ASKED", {}).items():
            for code in passives:
                if code not in K.PASSIVE_CODES or owners.get(code) != folder:
                    raise RuntimeError(f"{folder}: ASKED names {code}, no ongoing ability its abilities.py HANDLES")
                asked[ask] |= 1 << (code - K.FIRST_PASSIVE)
    for ask, mask in enumerate(asked):
        link.set_value(rules.ASKED_TABLE, rules.N_ASKS, ask, mask)
    bind_queries()


def _query_modules() -> dict[str, object]:
    """folder -> its ``queries`` module, for every registered folder that has one."""
    from importlib import import_module

    out = {}
    for folder in REGISTRY:
        name = f"{package(folder)}.queries"
        try:
            out[folder] = import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
    return out


def query_owners() -> dict[int, str]:
    """Ongoing ability code -> the registered folder whose ``queries.py`` answers questions about it (its
    ``ANSWERS``; one folder a code)."""
    owner: dict[int, str] = {}
    for folder, module in _query_modules().items():
        for codes in getattr(module, "ANSWERS", {}).values():
            for code in codes:
                if owner.setdefault(code, folder) != folder:
                    raise RuntimeError(f"ongoing ability {code} is answered for by both {owner[code]} and {folder}")
    return owner


def bind_queries() -> None:
    """Fill the queries' table of villains' answers (:data:`simlab.kernels.query.QUERY_TABLE`): each folder's
    ``queries.answer_nb`` for the ongoing abilities its ``ANSWERS`` names, ``query.no_answer_nb`` for every other
    code; and the bits of the abilities answering each question (``ANSWERED_TABLE``)."""
    from simlab.kernels import compile as link
    from simlab.kernels import const as K
    from simlab.kernels import query as Q

    modules = _query_modules()
    owners = query_owners()
    for code in range(K.N_ABILITY_CODES):
        kernel = modules[owners[code]].answer_nb if code in owners else Q.no_answer_nb
        link.fill(Q.QUERY_TABLE, K.N_ABILITY_CODES, code, kernel, Q.QUERY_TYPES)
    answered = [0] * Q.N_QUESTIONS
    for folder, module in modules.items():
        for question, codes in getattr(module, "ANSWERS", {}).items():
            for code in codes:
                if code not in K.PASSIVE_CODES:
                    raise RuntimeError(f"{folder}: queries.py ANSWERS names {code}, no ongoing ability")
                answered[question] |= 1 << (code - K.FIRST_PASSIVE)
    for question, mask in enumerate(answered):
        link.set_value(Q.ANSWERED_TABLE, Q.N_QUESTIONS, question, mask)
