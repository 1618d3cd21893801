"""The villains simlab plays: one folder each, listed in :data:`REGISTRY`.

``simlab/villains/<folder>/`` holds everything that is one villain's: ``cards.toml`` (the ``[villain]``
table with its key, names and objective, its four locations, its Villain and Fate decks, see :mod:`simlab.data.cards`;
the rule variants of its cards, ``[[rule]]``, see :mod:`simlab.data.rules`), ``abilities.py`` (the routine resolving
the ability codes only its cards print and the check of whether each can do what it says, reached by the engine
through tables filled by :func:`bind_abilities`) and the package's ``__init__.py`` (what the folder holds). The
folder's name is the villain's key with ``_`` for ``-`` (``lady_tremaine`` plays as ``lady-tremaine``). Adding a
villain is writing its folder and one line here (README, "Adding a villain").
"""

from __future__ import annotations

from importlib import resources

# Folders, in the order of the card tables' villain rows: seeded games depend on it, so a new villain goes last.
REGISTRY = (
    "gaston",
    "lady_tremaine",
    "horned_king",
)

DATA_FILE = "cards.toml"


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
    handled) and ``no_check_nb`` (nothing to check) for every other code. Must run before a game is played; the
    driver does it when imported."""
    from simlab.kernels import engine, link

    size = engine.N_ABILITY_CODES
    tables = (
        (engine.ABILITY_TABLE, engine.ABILITY_TYPES, "ability_r", engine.no_ability_r),
        (engine.CHECK_TABLE, engine.CHECK_TYPES, "check_nb", engine.no_check_nb),
    )
    if all(len(link.filled(table, size)) == size for table, *_ in tables):
        return
    modules = dict(_ability_modules())
    owners = ability_owners()
    for table, types, name, default in tables:
        for code in range(size):
            kernel = getattr(modules[owners[code]], name) if code in owners else default
            link.fill(table, size, code, kernel, types)
