"""Strategy levels: the player strength a study is measured at, named once for every command.

A level maps each villain to the strategy that plays it. ``random``, ``novice`` and ``expert`` are the
built-in strategies on every seat; ``tuned`` plays each villain's tuned strategy file
(``configs/strategies/tuned-<villain>.toml``, written by ``simlab tune``). Levels are listed weakest first.
"""

from __future__ import annotations

from simlab.cards import VILLAIN_KEYS
from simlab.game import InputError, check_villain
from strategies import StrategyError, resolve

LEVELS = ("random", "novice", "expert", "tuned")
DEFAULT_LEVEL = "expert"


def check_level(level: str) -> str:
    if level not in LEVELS:
        raise InputError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
    return level


def level_strategy(level: str, villain: str) -> str:
    """The strategy (a name ``strategies.resolve`` accepts) that plays ``villain`` at ``level``."""
    check_level(level)
    check_villain(villain)
    if level != "tuned":
        return level
    name = f"tuned-{villain}"
    try:
        resolve(name)
    except StrategyError:
        raise InputError(
            f"level 'tuned' needs configs/strategies/{name}.toml, which does not exist; "
            f"make it with: simlab tune --villain {villain}"
        ) from None
    return name


def level_strategies(level: str, villains=VILLAIN_KEYS) -> dict[str, str]:
    """villain -> strategy at ``level`` for each of ``villains``."""
    return {v: level_strategy(level, v) for v in villains}


def available_levels(villains=VILLAIN_KEYS) -> tuple[str, ...]:
    """The levels every one of ``villains`` can be played at here (``tuned`` only once its files exist)."""
    out = []
    for level in LEVELS:
        try:
            level_strategies(level, villains)
        except InputError:
            continue
        out.append(level)
    return tuple(out)


def strongest_level(villains=VILLAIN_KEYS) -> str:
    """The strongest level every one of ``villains`` can be played at here (``tuned`` once its files exist)."""
    return available_levels(villains)[-1]


def strategies_at(level: str | None, villains, given: dict | None = None) -> dict:
    """villain -> strategy: ``level``'s for each of ``villains`` (none without a level), then ``given``."""
    base = level_strategies(level, tuple(dict.fromkeys(villains))) if level is not None else {}
    return {**base, **dict(given or {})}


def strategy_at(name: str, villain: str) -> str:
    """``name`` as a level (the strategy playing ``villain`` at it) or, if it is no level, as a strategy."""
    return level_strategy(name, villain) if name in LEVELS else name
