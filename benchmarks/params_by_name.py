"""Every shipped strategy's parameters, read back by name from the vector the kernels play it with.

For every registered strategy (``simlab strategies``), every strategy file of ``configs/strategies/`` (the tuned
ones among them), every component of every mixture of ``configs/equilibrium/`` and the ``strong`` level of each
villain, it builds the ``State.sparams`` row (:meth:`strategies.StrategySpec.vector`) and names each entry by the
layout of the checkout it runs in: ``{parameter name: value}`` (a search player's: its settings, its value model
and each villain's rollout parameters). A vector entry beyond the named ones must be 0.

Run it on two checkouts and compare the outputs: a change of the parameters' layout that keeps every strategy
stored by name gives the same file::

    PYTHONPATH=/path/to/checkout python benchmarks/params_by_name.py > by-name.json

(with ``SIMLAB_VILLAIN_PATH=tests/villains/extra`` too: a test villain registered last moves no one's values; the
search player, which holds three villains' rollouts, is then reported unavailable).
"""

from __future__ import annotations

import json
import sys


def named(spec) -> dict[str, float]:
    """``{parameter name: value}`` of the vector ``spec`` plays with."""
    import strategies.search as S
    from simlab.data.cards import VILLAIN_KEYS, load_cards
    from strategies import KERNELS
    from strategies.plans import PARAM_NAMES

    try:
        vec = spec.vector()
    except RuntimeError as exc:  # a search player with more villains registered than it holds (a test villain)
        return {f"unavailable: {exc}": 0.0}
    if spec.kernel == KERNELS["random"]:
        assert not vec.any(), spec.name
        return {}
    if spec.kernel == KERNELS["heuristic"]:
        assert not vec[len(PARAM_NAMES) :].any(), spec.name
        return {n: float(vec[i]) for i, n in enumerate(PARAM_NAMES)}
    out = {n: float(vec[i]) for i, n in enumerate(S.PARAM_NAMES)}
    cards = load_cards()
    for v in VILLAIN_KEYS:
        row = cards.villain(v).row
        model = vec[S.VALUE_AT + row * S.VALUE_WIDTH : S.VALUE_AT + (row + 1) * S.VALUE_WIDTH]
        out |= {f"value {v} {f}": float(x) for f, x in zip((*S.FEATURE_NAMES, "constant"), model, strict=True)}
        block = vec[S.HEADER + row * S.STRIDE : S.HEADER + (row + 1) * S.STRIDE]
        assert not block[len(PARAM_NAMES) :].any(), (spec.name, v)
        out |= {f"rollout {v} {n}": float(block[i]) for i, n in enumerate(PARAM_NAMES)}
    return out


def shipped() -> dict[str, object]:
    """Every shipped strategy, by where it comes from: ``registered:NAME``, ``config:NAME``,
    ``mixture:FILE#VILLAIN:COMPONENT``, ``strong:VILLAIN``."""
    from simlab.data.cards import VILLAIN_KEYS
    from strategies import STRATEGIES, config_names, resolve
    from strategies.mixture import load_mixture, mixture_files, read_mixture_file, strong_files, strong_spec

    out: dict[str, object] = {f"registered:{n}": s for n, s in STRATEGIES.items()}
    out |= {f"config:{n}": resolve(n) for n in config_names()}
    for path in mixture_files():
        villains = dict.fromkeys(e["villain"] for e in read_mixture_file(path)["strategy"])
        for v in villains:
            for i, (spec, weight) in enumerate(load_mixture(f"{path}#{v}").components):
                out[f"mixture:{path.name}#{v}:{i}:{spec.name}"] = (spec, weight)
    for v in VILLAIN_KEYS:
        if strong_files(v):  # a villain with no shipped equilibrium (a test villain) has no strong level
            out[f"strong:{v}"] = strong_spec(v).most_weighted()
    return out


def main() -> None:
    result = {}
    for where, item in shipped().items():
        spec, weight = item if isinstance(item, tuple) else (item, None)
        result[where] = {"weight": weight, "params": named(spec)} if weight is not None else named(spec)
    kinds: dict[str, int] = {}
    for where in result:
        kinds[where.split(":")[0]] = kinds.get(where.split(":")[0], 0) + 1
    mixtures = {where.split(":")[1].split("#")[0] for where in result if where.startswith("mixture:")}
    values = sum(len(v["params"] if "weight" in v else v) for v in result.values())
    print(json.dumps(result, indent=1, sort_keys=True))
    print(
        f"{len(result)} strategies ({', '.join(f'{n} {k}' for k, n in kinds.items())}; "
        f"{len(mixtures)} mixture files), {values} values",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
