"""The villains simlab plays: one folder each, listed in :data:`REGISTRY`.

``simlab/villains/<folder>/`` holds everything that is one villain's: ``cards.toml`` (the ``[villain]``
table with its key, names and objective, its four locations, its Villain and Fate decks; see
:mod:`simlab.cards`) and the package's ``__init__.py`` (what the folder holds). The folder's name is the
villain's key with ``_`` for ``-`` (``lady_tremaine`` plays as ``lady-tremaine``). Adding a villain is
writing its folder and one line here (README, "Adding a villain").
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
