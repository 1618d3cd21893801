"""What simlab knows, without playing: ``rules`` (the rule variants), ``strategies`` (the players and their
parameters) and ``warmup`` (compile the kernels now)."""

from __future__ import annotations

import time
from typing import Annotated

import typer
from rich.markup import escape

from simlab.cli.common import CsvOut, JsonOut, emit, fail, output_format
from simlab.report.render import _parameter_rich_table, console, rules_view, strategies_view


def warmup() -> None:
    """Compile the simulation kernels now (the first run otherwise does it), and say how long it took."""
    from simlab.game import warmup as warm
    from simlab.kernels.compile import cache

    if warm.cached() and warm.search_cached():
        t = time.perf_counter()
        warm.ensure(search=True)
        took = time.perf_counter() - t
        console.print(f"the kernels are compiled and cached ({cache.cache_base()}); loaded in {took:.1f} s")
        return
    times = warm.ensure(search=True)
    for stage, seconds in times.items():
        console.print(f"  {stage}: {seconds:.1f} s")


def rules_cmd(json_out: JsonOut = False, csv_out: CsvOut = False) -> None:
    """List the rule variants with their defaults."""
    from simlab.data.rules import variants_table

    fmt = output_format(json_out, csv_out)
    rows = variants_table()
    keys = ("variant", "default", "alternatives", "meaning")
    emit(fmt, {"rules": [dict(zip(keys, r, strict=True)) for r in rows]}, lambda: console.print(rules_view(rows)))


def strategies_cmd(
    name: Annotated[
        str | None, typer.Argument(help="a strategy (name or TOML path): every parameter with its value")
    ] = None,
    params: Annotated[bool, typer.Option("--params", help="every parameter of the heuristic, by group")] = False,
    json_out: JsonOut = False,
    csv_out: CsvOut = False,
) -> None:
    """List every strategy (built-in and in configs/strategies/) with its description and how its parameters
    differ from expert; --params lists every parameter (group, expert value, tuning range, description), and
    NAME one strategy's values."""
    from simlab.errors import StrategyError
    from strategies import STRATEGIES, config_names, parameter_table, resolve

    fmt = output_format(json_out, csv_out)
    if name is not None or params:
        try:
            table = parameter_table(name)
        except StrategyError as exc:
            fail(str(exc))
        spec = resolve(name) if name is not None else None

        def show() -> None:
            if spec is not None:
                where = "" if spec.source == "built-in" else f" (file {spec.source})"
                console.print(f"[bold]{escape(spec.name)}[/bold]{escape(where)}: {escape(spec.description)}")
            console.print(_parameter_rich_table(table, f"{name} parameters" if name else "heuristic parameters"))

        about = {"strategy": spec.name, "description": spec.description} if spec is not None else {}
        emit(fmt, {"parameters": table}, show, **about)
        return
    specs = list(STRATEGIES.values())
    for config in config_names():
        try:
            specs.append(resolve(config))
        except ValueError as exc:
            fail(str(exc))
    rows = [{"name": s.name, "description": s.description, "source": s.source, "params": s.params} for s in specs]
    if fmt != "table":
        return emit(fmt, {"strategies": rows}, lambda: None)
    table = strategies_view(specs, STRATEGIES["expert"].params)
    console.print(table)
    groups = parameter_table().group_by("group", maintain_order=True).len()
    counts = ", ".join(f"{g} {n}" for g, n in groups.iter_rows())
    console.print(
        f"{groups['len'].sum()} parameters in {groups.height} groups ({counts}). "
        "`simlab strategies --params` describes each; `simlab strategies NAME` shows one strategy's values."
    )


COMMANDS = {"rules": rules_cmd, "strategies": strategies_cmd, "warmup": warmup}
