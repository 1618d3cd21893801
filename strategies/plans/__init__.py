"""Each villain's plan as the strategies see it: ``strategies/plans/<folder>.py`` per registered folder
(``simlab.villains.REGISTRY``), holding

* ``PLAN``: one clause saying how an expert plays that villain (``expert``'s description is built from them);
* ``PARAMS``: the heuristic's parameters only that villain's plan reads (rows made by
  :func:`strategies.heuristic.group`, in the same table as the core's: :data:`PARAMS` here), and their indices
  in ``State.sparams`` (``P = slots(__name__, PARAMS)``, read as ``P_X = P["x"]``);
* ``plan_nb(st, tb, ru, sp, what, s, a, b, c, x)``: the villain's terms of the heuristic's scoring, asked for by
  ``what`` (the ``W_*`` codes of :mod:`strategies.heuristic`, which say what ``a``, ``b``, ``c`` and ``x`` are)
  about seat ``s``, a seat of that villain, with the deciding player's parameters ``sp``. It answers ``x`` when
  it has nothing to say, and is asked only the codes its source compares ``what`` with (:func:`answers`). The
  heuristic reaches it through a table of kernels indexed by the seat's villain row, filled from the registry by
  :func:`bind_plans`.

This package also holds the heuristic's whole parameter table, ``PARAMS`` (the core's rows,
``strategies.heuristic.CORE_PARAMS``, then every plan's in registry order: :func:`parameter_rows`), with
``PARAM_NAMES`` (the order of ``State.sparams``) and ``EXPERT`` (name -> the expert's value). The plans import
the heuristic, never the reverse: the heuristic's kernels reach the plans through the table only.
"""

from __future__ import annotations

from importlib import import_module

from simlab.villains import search_path

# the plans of villain folders outside simlab (simlab.villains.PATH_VARIABLE): each directory's plans/
__path__ += [str(d / "plans") for d in search_path() if (d / "plans").is_dir()]  # noqa: F821


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


def params_of(folder: str) -> tuple:
    """The parameter rows of registered folder ``folder``'s plan (none if it declares none)."""
    return tuple(getattr(plan_of(folder), "PARAMS", ()))


def slots(module: str, rows) -> dict[str, int]:
    """Parameter name -> its index in ``State.sparams``, for the rows of plan module ``module``: they follow every
    row of the core and of the plans before this one in the registry, in order (:func:`parameter_rows`).

    The plan freezes these indices into its kernels, and they move when a plan before it gains or loses a row,
    which its source does not show: its cache is kept apart by them
    (:func:`simlab.kernels.compile.cache.keep_apart`).
    """
    from simlab.kernels.compile import cache
    from simlab.villains import REGISTRY, codes_key
    from strategies.heuristic import CORE_PARAMS

    folder = module.rsplit(".", 1)[-1]
    earlier = REGISTRY[: REGISTRY.index(folder)] if folder in REGISTRY else REGISTRY
    first = len(CORE_PARAMS) + sum(len(params_of(f)) for f in earlier)
    out = {p.name: first + i for i, p in enumerate(rows)}
    cache.keep_apart(module, codes_key({f"parameter {name}": i for name, i in out.items()}))
    return out


def parameter_rows(core) -> tuple:
    """The heuristic's whole table: the core's rows ``core``, then each registered villain's plan's rows
    (:func:`params_of`), plan by plan in registry order (the indices :func:`slots` gives)."""
    from simlab.villains import REGISTRY

    table = (*core, *(p for folder in REGISTRY for p in params_of(folder)))
    names = [p.name for p in table]
    if len(set(names)) != len(names):
        raise RuntimeError(f"parameters declared twice: {sorted({n for n in names if names.count(n) > 1})}")
    return table


def __getattr__(name: str):
    # The whole table, built on first use: the plan modules import this package while they are imported.
    if name not in ("PARAMS", "PARAM_NAMES", "EXPERT"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from strategies.heuristic import CORE_PARAMS

    params = parameter_rows(CORE_PARAMS)
    globals().update(
        PARAMS=params, PARAM_NAMES=tuple(p.name for p in params), EXPERT={p.name: p.expert for p in params}
    )
    return globals()[name]


def bind_plans() -> None:
    """Fill the heuristic's table of plans from the registry: row ``i``, registered villain ``i``'s ``plan_nb``
    (compiled or loaded from the cache, after the heuristic's parts a plan calls, which
    :func:`simlab.kernels.compile.fill` binds first)."""
    from simlab.kernels import compile as link
    from simlab.villains import REGISTRY
    from strategies import heuristic as H

    if len(REGISTRY) > H.N_PLAN_ROWS:
        raise RuntimeError(f"{len(REGISTRY)} villains; the table of plans has room for {H.N_PLAN_ROWS}")
    for row, folder in enumerate(REGISTRY):
        plan = getattr(plan_of(folder), "plan_nb", H.no_plan_nb)
        link.fill(H.PLAN_TABLE, H.N_PLAN_ROWS, row, plan, H.PLAN_TYPES)
        mask = sum(1 << code for code in answers(plan))
        link.set_value(H.PLAN_ANSWERS_TABLE, H.N_PLAN_ROWS, row, mask)


def answers(plan) -> set[int]:
    """The ``W_*`` codes kernel ``plan`` (a ``plan_nb``) answers: those its source compares ``what`` with
    (``what == W_NAME``); the heuristic does not ask it the others. Every code if its source cannot be read."""
    import ast
    import inspect
    import textwrap

    from strategies import heuristic as H

    codes = {name: value for name, value in vars(H).items() if name.startswith("W_") and isinstance(value, int)}
    if max(codes.values()) >= 63:
        raise RuntimeError(f"{max(codes.values()) + 1} W_* codes; the table of answers holds 63 bits a villain")
    fn = getattr(plan, "py_func", plan)
    if fn is H.no_plan_nb or fn is getattr(H.no_plan_nb, "py_func", None):
        return set()
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError):
        return set(codes.values())
    found = set()
    compared = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "what":
            compared.add(id(node.left))
            for op, right in zip(node.ops, node.comparators, strict=True):
                if not isinstance(op, ast.Eq) or not isinstance(right, ast.Name) or right.id not in codes:
                    return set(codes.values())  # a test of ``what`` this cannot read: ask it everything
                found.add(codes[right.id])
    uses = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "what"]
    if any(id(n) not in compared for n in uses):  # ``what`` handed on or rebound: ask it everything
        return set(codes.values())
    return found
