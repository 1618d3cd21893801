"""Each villain's plan as the strategies see it: ``strategies/plans/<folder>.py`` per registered folder
(``simlab.villains.REGISTRY``), with ``PLAN``, one clause saying how an expert plays that villain (``expert``'s
description is built from them). The heuristic's villain-specific terms are to move here too (issue 18)."""

from __future__ import annotations

from importlib import import_module


def plan_of(folder: str):
    """The plan module of registered folder ``folder``."""
    try:
        return import_module(f"{__name__}.{folder}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{folder}":
            raise
        raise ImportError(f"villain {folder!r} is registered but strategies/plans/{folder}.py is missing") from exc


def plans() -> list[str]:
    """Every registered villain's ``PLAN``, in registry order."""
    from simlab.villains import REGISTRY

    return [plan_of(folder).PLAN for folder in REGISTRY]
