"""Strategy files: a tuned strategy written with its provenance as a ``[provenance]`` table (the loader ignores
it), and that table read back."""

from __future__ import annotations

from pathlib import Path

from simlab.data import durable
from simlab.errors import InputError
from simlab.game.api import strategy_spec
from strategies import StrategySpec


def write_strategy(spec: StrategySpec, path: str | Path, provenance: dict) -> Path:
    """Write ``spec`` as a strategy file (``base = "expert"`` and every parameter that differs from it, plus
    the searched ones) with its provenance as a ``[provenance]`` table the loader accepts and ignores."""
    import tomli_w

    from strategies import STRATEGIES

    path = Path(path)
    expert = STRATEGIES["expert"].params
    searched = set(provenance.get("params_searched", ()))
    params = {k: v for k, v in spec.params.items() if k in searched or v != expert.get(k)}
    doc = {"name": spec.name, "description": spec.description, "base": "expert", "params": params}
    doc["provenance"] = {k: v for k, v in provenance.items() if v is not None}
    head = (
        f"# {spec.name}: written by simlab tune; regenerate with `simlab tune` (see README, Tuned strategies).\n"
        "# [provenance] records how it was made; the strategy loader ignores it.\n"
    )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot write the strategy file {str(path)!r}: {exc.strerror or exc}") from None
    durable.write_text(path, head + tomli_w.dumps(doc), "the strategy file")
    return path


def read_provenance(strategy: str) -> dict:
    """The ``[provenance]`` table of a strategy file (by name or path); empty for built-in strategies."""
    import tomllib

    spec = strategy_spec(strategy)
    if spec.source in ("built-in", "simlab tune"):
        return {}
    return tomllib.loads(Path(spec.source).read_text()).get("provenance", {})
