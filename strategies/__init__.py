"""Scripted strategies, one per module, registered by name; variants from TOML files.

Every strategy module exports ``NAME``, ``DESCRIPTION``, ``PARAMS`` (name -> default) and a kernel
``choose_nb(st, tb, ru, realm, player, kind, ctx, n) -> int`` that picks an index into ``st.opts[:n]``:
``player`` decides, ``realm`` is the seat whose Realm the options concern, ``kind`` is a ``DK_*`` code and
``ctx`` the ability (``AB_*``) or trigger being resolved. A strategy's parameters reach its kernel as
``st.sparams[player]`` (in the order of its kernel's ``PARAM_NAMES``).

Strategies sharing a kernel differ only in parameters; the engine's dispatcher
(``simlab/game/driver.py``) maps a kernel id (:data:`KERNELS`) to its code.

A variant is a TOML file::

    name = "gaston-rush"            # optional, defaults to the file name
    description = "..."             # optional
    base = "expert"                 # a registered strategy (or another file's name)
    [params]
    obstacle_value = 6.0            # any of the base's parameters
    [provenance]                    # optional: how the file was made (simlab tune writes it); not read for play

usable wherever a strategy name is accepted, by path or by name when it sits in ``configs/strategies/``.
Every parameter of the heuristic (name, expert value, group, description, tuning range) is listed in
``strategies.plans.PARAMS``; :func:`parameter_table` gives them as a frame, with a strategy's values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from simlab.data.inputs import read_toml
from simlab.errors import StrategyError
from simlab.kernels.state import N_SPARAMS
from strategies import apprentice as _apprentice
from strategies import expert as _expert
from strategies import fate_heavy as _fate_heavy
from strategies import novice as _novice
from strategies import plans as _plans
from strategies import random as _random
from strategies import search as _search
from strategies.heuristic.params import DIVISORS

KERNELS = {"random": 0, "heuristic": 1, "search": 2, "apprentice": 3}
"""Kernel ids known to the dispatcher."""

_KERNEL_PARAMS = {0: (), 1: _plans.PARAM_NAMES, 2: _search.PARAM_NAMES, 3: _apprentice.PARAM_NAMES}
if len(_plans.PARAM_NAMES) > N_SPARAMS:
    raise RuntimeError(f"{len(_plans.PARAM_NAMES)} heuristic parameters; State.sparams holds {N_SPARAMS}")

CONFIG_DIRS = (Path.cwd() / "configs" / "strategies", Path(__file__).resolve().parents[1] / "configs" / "strategies")


@dataclass(frozen=True)
class StrategySpec:
    name: str
    description: str
    kernel: int
    params: dict[str, float] = field(default_factory=dict)
    source: str = "built-in"
    # a search player's rollout models: (villain, heuristic strategy) pairs in place of its ``rollout`` setting's
    rollouts: tuple = ()
    value_model: str = ""  # a search player's learned value model (a JSON file; its ``value`` setting 2)
    policy_model: str = ""  # an apprentice's weights (a JSON file; default the shipped one)

    def vector(self) -> np.ndarray:
        """The parameters as the kernel reads them (``State.sparams`` row)."""
        if self.kernel == KERNELS["search"]:
            return _search.vector(self.params, resolve, dict(self.rollouts), self.value_model)
        if self.kernel == KERNELS["apprentice"]:
            try:
                return _apprentice.vector(resolve, self.policy_model)
            except ValueError as exc:
                raise StrategyError(f"strategy {self.name!r}: {exc}") from None
        out = np.zeros(N_SPARAMS, np.float64)
        for i, name in enumerate(_KERNEL_PARAMS[self.kernel]):
            out[i] = self.params[name]
        return out


def _spec(module) -> StrategySpec:
    kernel = {
        _random.choose_nb: KERNELS["random"],
        _search.choose_nb: KERNELS["search"],
        _apprentice.choose_nb: KERNELS["apprentice"],
    }.get(module.choose_nb, KERNELS["heuristic"])
    names = _KERNEL_PARAMS[kernel]
    if tuple(module.PARAMS) != names:
        raise RuntimeError(f"strategy {module.NAME}: PARAMS must list {names}")
    return StrategySpec(module.NAME, module.DESCRIPTION, kernel, dict(module.PARAMS))


STRATEGIES: dict[str, StrategySpec] = {
    m.NAME: _spec(m) for m in (_random, _novice, _expert, _fate_heavy, _search, _apprentice)
}


def config_names() -> list[str]:
    """Names of the strategy files found in ``configs/strategies/``."""
    seen = []
    for d in CONFIG_DIRS:
        if d.is_dir():
            seen += [p.stem for p in sorted(d.glob("*.toml")) if p.stem not in seen]
    return seen


def load_strategy_file(path: str | Path, _depth: int = 0) -> StrategySpec:
    """Read a strategy variant from a TOML file (data only; nothing in it is executed)."""
    path = Path(path)
    doc = read_toml(path, "strategy file", StrategyError)
    return strategy_from_table(doc, str(path), path.parent, path.stem, _depth)


def strategy_from_table(
    doc: dict, where: str, base_dir: Path | None = None, default_name: str = "strategy", _depth: int = 0, extra=()
) -> StrategySpec:
    """A strategy variant from a TOML table (a strategy file's, or one entry of a mixture file's): ``base``, and
    optionally ``name``, ``description``, ``params``, ``provenance``; ``extra`` names more keys the caller reads.
    ``where`` names the table in errors; a relative ``base`` path is relative to ``base_dir``."""
    keys = ("name", "description", "base", "params", "provenance", "value_model", "policy_model", *extra)
    unknown = sorted(set(doc) - set(keys))
    if unknown:
        raise StrategyError(f"{where}: unknown key {unknown[0]!r}; valid keys: {', '.join(keys)}")
    if not isinstance(doc.get("provenance", {}), dict):
        raise StrategyError(f"{where}: 'provenance' must be a table (how the file was made; not read for play)")
    if "base" not in doc:
        raise StrategyError(f"{where}: missing key 'base' (the strategy it varies: {', '.join(STRATEGIES)})")
    if _depth > 8:
        raise StrategyError(f"{where}: 'base' chain too deep (a cycle?)")
    base_name = doc["base"]
    if not isinstance(base_name, str):
        raise StrategyError(f"{where}: base must be a strategy name or a path, got {base_name!r}")
    if _is_path(base_name) and not Path(base_name).is_absolute() and base_dir is not None:
        base_name = str(base_dir / base_name)  # a relative path is relative to this file, not to the cwd
    try:
        base = resolve(base_name, _depth + 1)
    except StrategyError as exc:
        raise StrategyError(f"{where}: base: {exc}") from None
    params = dict(base.params)
    given = doc.get("params", {})
    if not isinstance(given, dict):
        raise StrategyError(f"{where}: 'params' must be a table of NAME = number")
    for key, value in given.items():
        if key not in params:
            valid = ", ".join(params) or "none"
            raise StrategyError(f"{where}: unknown parameter params.{key} for base {base.name!r}; valid: {valid}")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise StrategyError(f"{where}: params.{key} must be a number, got {value!r}")
        if not math.isfinite(value):
            raise StrategyError(f"{where}: params.{key} must be a finite number, got {value!r}")
        if key in DIVISORS and value <= 0:
            raise StrategyError(f"{where}: params.{key} must be above 0 (the scoring divides by it), got {value!r}")
        params[key] = float(value)
    if base.kernel == KERNELS["search"] and (problem := _search.check_params(params)):
        raise StrategyError(f"{where}: {problem}")
    model = _value_model_path(doc, where, base, base_dir)
    if base.kernel == KERNELS["search"] and params["value"] == 2 and not model:
        raise StrategyError(f"{where}: params.value = 2 needs value_model, the learned value model's file")

    for key in ("name", "description"):
        if key in doc and not isinstance(doc[key], str):
            raise StrategyError(f"{where}: {key} must be a string")
    name = doc.get("name", default_name)
    desc = doc.get("description", f"{base.name} with {', '.join(f'{k}={v}' for k, v in given.items()) or 'no changes'}")
    policy = _model_path(doc, "policy_model", where, base, base_dir, KERNELS["apprentice"]) or base.policy_model
    return StrategySpec(name, desc, base.kernel, params, source=where, value_model=model, policy_model=policy)


def _value_model_path(doc: dict, where: str, base: StrategySpec, base_dir: Path | None) -> str:
    """The learned value model file a search strategy table names (relative to ``base_dir``), else its base's."""
    return _model_path(doc, "value_model", where, base, base_dir, KERNELS["search"]) or base.value_model


def _model_path(doc: dict, key: str, where: str, base: StrategySpec, base_dir: Path | None, kernel: int) -> str:
    """The model file a strategy table names under ``key`` (relative to ``base_dir``; a setting of the strategies of
    kernel id ``kernel`` only), or ""."""
    if key not in doc:
        return ""
    if base.kernel != kernel:
        owner = next(name for name, k in KERNELS.items() if k == kernel)
        raise StrategyError(f"{where}: {key} is a setting of the {owner} player; base {base.name!r} is not one")
    given = doc[key]
    if not isinstance(given, str) or not given:
        raise StrategyError(f"{where}: {key} must be the path of a model's file")
    path = Path(given)
    if not path.is_absolute() and base_dir is not None:
        path = base_dir / path
    if not path.is_file():
        raise StrategyError(f"{where}: {key}: no file {str(path)!r}")
    return str(path)


def _is_path(name: str) -> bool:
    return name.endswith(".toml") or "/" in name


def resolve(name: str, _depth: int = 0) -> StrategySpec:
    """A registered strategy, a file in ``configs/strategies/`` by name, or a TOML file by path. Names are
    case-blind (``Expert``, ``Tuned-Gaston``); a path is taken as written."""
    if name in STRATEGIES or name.lower() in STRATEGIES:
        return STRATEGIES[name if name in STRATEGIES else name.lower()]
    if _is_path(name):
        return load_strategy_file(name, _depth)
    for d in CONFIG_DIRS:
        for stem in dict.fromkeys((name, name.lower())):
            p = d / f"{stem}.toml"
            if p.is_file():
                return load_strategy_file(p, _depth)
    choices = ", ".join(list(STRATEGIES) + config_names())
    raise StrategyError(f"unknown strategy {name!r}; choose from {choices}, or give a path to a .toml file")


def parameter_table(strategy: str | None = None) -> pl.DataFrame:
    """The heuristic's parameters as a frame, one row each in table order (the core's, grouped by what they value,
    then each villain's plan's).

    Columns: group, name, [value,] expert, low, high (the range ``simlab tune`` searches), integer,
    tunable, description. ``value`` (only with ``strategy``, any name :func:`resolve` accepts) is that
    strategy's value. For a search strategy: its settings (group ``search``; ``expert`` is the built-in
    ``search``'s value).
    """
    spec = None
    if strategy is not None:
        spec = resolve(strategy)
        if spec.kernel == KERNELS["random"]:
            raise StrategyError(f"strategy {spec.name!r} plays at random and has no parameters")
        if spec.kernel == KERNELS["search"]:
            # the search player's settings; "expert" holds the built-in search's value
            return pl.DataFrame(
                [
                    {"group": "search", "name": name, "value": spec.params[name], "expert": default}
                    | {"low": float(low), "high": float(high), "integer": whole, "tunable": False, "description": doc}
                    for name, default, low, high, whole, doc in _search.SETTINGS
                ]
            )
    rows = []
    for p in _plans.PARAMS:
        row = {"group": p.group, "name": p.name}
        if spec is not None:
            row["value"] = spec.params[p.name]
        row |= {"expert": p.expert, "low": p.low, "high": p.high, "integer": p.integer, "tunable": p.tunable}
        rows.append(row | {"description": p.doc})
    return pl.DataFrame(rows)
