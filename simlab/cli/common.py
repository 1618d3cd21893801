"""What every command shares: one-line errors (the command group), the options, their checks, progress bars,
the backend a block plays on, and writing a plot. The commands live in the modules beside this one."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
import typer.core
from rich.console import Console
from rich.progress import Progress

from simlab.data.inputs import agree
from simlab.errors import USER_ERRORS, InputError
from simlab.report.render import console
from simlab.runs import levels
from simlab.runs.settings import RunSettings


def fail(message: str) -> None:
    """One line on stderr, exit code 2."""
    typer.echo(f"error: {' '.join(str(message).split())}", err=True)
    raise typer.Exit(2)


try:  # typer 0.2x carries its own copy of click, whose exceptions its commands raise
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover - older typer runs on click itself
    from click import exceptions as click_errors


def _given(argv: list[str], opts) -> str | None:
    """The text given on the command line for an option (``-n 5`` or ``--seed=5``), if any."""
    for i, token in enumerate(argv):
        for opt in opts:
            if token == opt and i + 1 < len(argv):
                return argv[i + 1]
            if token.startswith(opt + "="):
                return token[len(opt) + 1 :]
    return None


# (command, option) -> the command that option became
MOVED_OPTIONS = {("tune", "--all"): "tune-all"}


def usage_message(exc, argv: list[str] = ()) -> str:
    """A usage error (unknown option or command, bad or missing value, extra argument) as one line that names
    the bad value and the valid choices, instead of click's usage box. ``argv``: the command line."""
    ctx = exc.ctx
    cmd = ctx.command if ctx is not None else None
    sub = cmd is not None and ctx.parent is not None
    where = f"simlab {cmd.name}: " if sub else ""
    msg = exc.format_message().rstrip(".")
    param = getattr(exc, "param", None)
    if isinstance(exc, click_errors.MissingParameter):
        if getattr(param, "help", None):
            msg += f" ({param.help})"
    elif isinstance(exc, click_errors.BadParameter) and param is not None:
        raw = _given(list(argv), param.opts)
        if raw is not None:
            msg = f"{'/'.join(param.opts)} {raw!r} is not valid: {exc.message.rstrip('.')}"
    elif msg.startswith("No such command") and cmd is not None and hasattr(cmd, "list_commands"):
        msg += f"; commands: {', '.join(cmd.list_commands(ctx))}"
    elif isinstance(exc, click_errors.NoSuchOption) and cmd is not None:
        bad = exc.option_name
        if (cmd.name, bad) in MOVED_OPTIONS:
            now = MOVED_OPTIONS[cmd.name, bad]
            return f"simlab {cmd.name} {bad} is now a command of its own: simlab {now} (the same options)"
        if sub:  # an option of another command of the same group (module): say which
            siblings = [c for c in ctx.parent.command.commands.values() if c is not cmd]
            owners = [c.name for c in siblings if _group(c) == _group(cmd) and any(bad in p.opts for p in c.params)]
            msg += f"; {bad} is an option of {', '.join(f'simlab {c}' for c in owners)}" if owners else ""
        names = [o for p in cmd.params if p.param_type_name == "option" and p.name != "help" for o in p.opts]
        msg += f"; options: {', '.join(names)}" if names else f"; simlab {cmd.name} takes no options"
    elif "unexpected extra argument" in msg and sub:
        msg += f"; simlab {cmd.name} takes options only (simlab {cmd.name} --help lists them)"
    return where + msg


def _group(command) -> str | None:
    """The module (``simlab.cli.tune``, ...) a command is defined in."""
    return getattr(command.callback, "__module__", None)


class OneLineErrors(typer.core.TyperGroup):
    """simlab's command group: every command's bad input ends here. A usage error (unknown option or command,
    a value of the wrong type, a missing or extra argument) or a library error meaning bad input
    (:data:`USER_ERRORS`, raised from any command body) is printed as one line on stderr with exit code 2, so
    a new command gets that behaviour without handling errors itself; anything else is a bug and keeps its
    traceback."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        argv = list(args) if args is not None else sys.argv[1:]
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click_errors.NoArgsIsHelpError as exc:  # `simlab` alone: the help
            typer.echo(exc.format_message(), err=True)
            sys.exit(exc.exit_code)
        except click_errors.UsageError as exc:
            typer.echo(f"error: {' '.join(usage_message(exc, argv).split())}", err=True)
            sys.exit(2)
        except USER_ERRORS as exc:
            typer.echo(f"error: {' '.join(str(exc).split())}", err=True)
            sys.exit(2)
        except click_errors.ClickException as exc:
            typer.echo(f"error: {' '.join(exc.format_message().split())}", err=True)
            sys.exit(exc.exit_code)
        except typer.Abort as exc:
            from simlab.runs.stopping import code_of, stopped_by

            signame = stopped_by(exc)  # Ctrl-C, SIGTERM or SIGHUP: exit 130, 143 or 129
            typer.echo(f"stopped by {signame}" if signame else "Aborted!", err=True)
            sys.exit(code_of(exc) if signame else 1)
        sys.exit(code or 0)


# Options shared by the commands that play games.
Seed = Annotated[int, typer.Option(help="run seed: game i uses the stream of (seed, i)")]
VillainStrategies = Annotated[
    list[str] | None, typer.Option("--strategy", help="VILLAIN=NAME|PATH (repeatable; default expert)")
]
Rules = Annotated[list[str] | None, typer.Option("--rules", help="VARIANT=VALUE (repeatable)")]
VillainsOrAll = Annotated[list[str] | None, typer.Option(help="villain (repeatable; default: every villain)")]
MaxTurns = Annotated[int, typer.Option("--max-turns", help="rounds after which a game ends unfinished")]
Threads = Annotated[int | None, typer.Option("--threads", help="worker threads")]
Edits = Annotated[
    list[str] | None,
    typer.Option("--edit", help='card edit CARD:ATTRIBUTE=VALUE, e.g. "CARD:cost=4", "CARD:remove" (repeatable)'),
]
Config = Annotated[str | None, typer.Option("--config", help="experiment file (TOML; path or name under configs/)")]


def _backend_name(value: str | None) -> str | None:
    """An unknown --backend refused as it is parsed: before a plan line, a compile or a game."""
    from simlab.errors import BackendError
    from simlab.runs.backend import check_backend

    try:
        if value is not None:
            check_backend(value)
    except BackendError as exc:
        fail(str(exc))
    return value


BackendName = Annotated[
    str, typer.Option("--backend", help="where games are played: local or dask", callback=_backend_name)
]
# commands that read experiment files: None means the file's backend, else local
BackendOrConfig = Annotated[
    str | None, typer.Option("--backend", help="where games are played: local or dask", callback=_backend_name)
]
Scheduler = Annotated[
    str | None, typer.Option("--scheduler", help="Dask scheduler tcp://HOST:PORT (without it: a local Dask cluster)")
]
Level = Annotated[
    str | None,
    typer.Option(
        "--level",
        help=f"strength every villain plays at: {', '.join(levels.LEVELS)} (--strategy overrides) [default: expert]",
    ),
]


class backend_for:
    """``with backend_for(name, scheduler):`` plays the block's runs there, and closes it afterwards (``timeout``,
    ``fallback``: :func:`simlab.runs.backend.make`'s; a fallback is said in one line on stderr)."""

    def __init__(self, name: str, scheduler: str | None, timeout: float = 10.0, fallback: str | None = None):
        self.name, self.scheduler, self.timeout, self.fallback = name, scheduler, timeout, fallback

    def __enter__(self):
        from simlab.runs import backend

        self.backend = backend.make(self.name, self.scheduler, self.timeout, self.fallback)
        if getattr(self.backend, "fallback_reason", None):
            typer.echo(f"warning: {' '.join(self.backend.fallback_reason.split())}", err=True)
        self._use = backend.use(self.backend)
        self._use.__enter__()
        return self.backend

    def __exit__(self, *exc):
        self._use.__exit__(*exc)
        self.backend.close()
        return False


def check_games(n: int, option: str = "-n") -> None:
    """A game count given as ``option`` that a run can play, else the error naming the option and the value."""
    from simlab.runs.sim import MAX_GAMES

    if not 1 <= n <= MAX_GAMES:
        fail(f"{option} must be a positive number of games of at most 2**63 - 1, got {n}")


def default_games(n: int | None, default: int, level: levels.Level | str | None, strategies=()) -> int:
    """``n`` if given, else ``default``, or at most :data:`simlab.runs.levels.SEARCH_GAMES` when the level or one of
    ``strategies`` is the search player (a search game costs hundreds of scripted ones)."""
    from simlab.runs.levels import default_games as for_level
    from simlab.runs.levels import is_search

    if n is not None:
        return n
    search = is_search(level) or any(is_search(str(s)) for s in strategies)
    return for_level("search" if search else level, default)


def check_search_games(search_games: int | None) -> None:
    if search_games is not None and search_games < 1:
        fail(f"--search-games must be a positive number of games, got {search_games}")


def parse_edits(items: list[str] | None, what: str = "--edit") -> tuple:
    """The ``--edit`` items, each checked; two that set the same card attribute (or board location) to different
    values are refused naming both (the same edit twice is fine)."""
    from simlab.data.edits import normalise, parse_edit

    given = {}
    for item in items or []:
        edit = parse_edit(item, what)
        agree(given, edit.key, item, str(edit), what)
    return normalise(items or [])


def experiment_settings(config: str | None, **given) -> dict:
    """Settings of a command: each option given on the command line, else the experiment file's value, else
    the default. ``given`` maps name -> (value given or None, default); strategies/rules/edits merge. A
    matchup and a valid number of games are required."""
    from simlab.runs.experiment import Experiment, load_experiment

    exp = load_experiment(config) if config else Experiment(name="command line")
    out = {"experiment": exp}
    for name, (value, default) in given.items():
        if name in ("strategies", "rules"):
            out[name] = {**getattr(exp, name), **(value or {})}
        elif name == "edits":
            from simlab.data.edits import normalise

            out[name] = normalise(list(exp.edits) + list(value or ()))
        else:
            from_file = getattr(exp, name, None)
            out[name] = value if value is not None else (from_file if from_file is not None else default)
    if out.get("matchup") is None:
        fail("give --matchup VILLAIN-vs-VILLAIN[-vs-VILLAIN] (or a --config file that sets matchup)")
    check_games(out["games"])
    if out.get("level") is not None:
        out["level"] = levels.Level.parse(out["level"])  # read once: what follows takes the value
    return out


def config_settings(cfg: dict, progress=None, strategies: bool = True) -> RunSettings:
    """The run settings of :func:`experiment_settings`' values (``strategies=False``: without its strategies,
    which the command hands to the run of its matchup instead)."""
    return RunSettings(
        cfg["games"],
        cfg["seed"],
        cfg["level"],
        cfg["strategies"] if strategies else {},
        cfg["rules"],
        cfg["max_turns"],
        cfg["threads"],
        cfg["edits"],
        progress,
    )


def run_settings(
    n, seed, strategy, rules, max_turns, threads, edit, level, progress=None, where="the games", default=None
):
    """The options every study takes, checked once (:class:`simlab.runs.settings.RunSettings`); ``where`` names what
    the study plays in the message about a --strategy for a villain not in it. ``n`` None: ``default`` games, at
    most :data:`simlab.runs.levels.SEARCH_GAMES` at a search level or with a search --strategy."""
    strategies = parse_pairs(strategy, "--strategy")
    level = levels.Level.parse(level) if level is not None else None  # read once: what follows takes the value
    n = default_games(n, default, level, strategies.values())
    check_games(n)
    from simlab.runs.sizes import plan_size

    plan_size("-n", n, what="games each")  # a study shows its results at its end: it must be able to end
    return RunSettings(
        n,
        seed,
        level,
        strategies,
        parse_pairs(rules, "--rules"),
        max_turns,
        threads,
        parse_edits(edit),
        progress,
        where=where,
    )


def parse_pairs(items: list[str] | None, what: str) -> dict[str, str]:
    """``NAME=VALUE`` items as a dict; a NAME given twice with different values is refused naming both."""
    out, given = {}, {}
    for item in items or []:
        if "=" not in item:
            fail(f"{what} {item!r} must look like NAME=VALUE")
        k, v = item.split("=", 1)
        agree(given, k.strip().lower(), item, v.strip(), what)
        out[k.strip()] = v.strip()
    return out


class LazyProgress(Progress):
    """A rich progress bar (a context manager) shown from its first update on, which comes once the input is
    checked, before any game is played: bad input leaves its one line on a terminal that no bar touched."""

    entered = False

    def __enter__(self):
        self.entered = True
        return self

    def __exit__(self, *exc):
        if self.live.is_started:
            self.stop()

    def update(self, *args, **kwargs) -> None:
        if self.entered and not self.live.is_started:
            self.start()
        super().update(*args, **kwargs)


def progress_bar(chunk: int | None = None):
    """A rich progress bar with ETA, shown on stderr; returns (context manager, callback). With ``chunk``
    (the run's chunk size) it also counts chunks: all are full but the last, so ceil(games / chunk) of them
    are done whichever ones finished (a resumed run's chunks need not be consecutive)."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    bar = LazyProgress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[chunks]}"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = {}

    def update(done: int, total: int, label: str = "games") -> None:
        chunks = f"{-(-done // chunk):,}/{-(-total // chunk):,} chunks" if chunk else ""
        if label not in task:
            # the first call comes before any game is played (a resumed run's games are already done), so
            # the ETA is estimated from the games played here only
            task[label] = bar.add_task(label, total=total, completed=done, chunks=chunks)
        bar.update(task[label], completed=done, total=total, chunks=chunks)

    return bar, update


class no_bar:
    """``with bar if shown else no_bar():``: the block without a progress bar (a command printing JSON)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def each_villain(study, villain, n, seed, rules, max_turns, threads, *args, work=None, bar=True, **keywords):
    """``study(villains, *args, settings=..., **keywords)`` for the villains asked (default: every registered
    one), with the run settings of the shared options; a bad input fails with one line. ``work(villains)``: the
    study's :class:`simlab.studies.workload.Workload`, planned (:func:`plan`) and followed by one bar (unless
    ``bar`` is False: a command printing JSON or CSV)."""
    from simlab.data.cards import VILLAIN_KEYS
    from simlab.game.api import check_villain

    try:
        settings = run_settings(n, seed, None, rules, max_turns, threads, None, None)
        villains = tuple(check_villain(v) for v in villain or VILLAIN_KEYS)
        shown = plan(work(villains), settings.threads) if work is not None else None
        if shown is not None and bar:
            settings = settings.replace(progress=shown.games)
        with shown if shown is not None and bar else shown.plan_only() if shown is not None else no_bar():
            return study(villain or VILLAIN_KEYS, *args, settings=settings, **keywords)
    except USER_ERRORS as exc:
        fail(str(exc))


def save_plot(path: str, draw, width: float = 7, height: float = 5, quiet: bool = False, what: str = "") -> None:
    """Draw on a fresh Axes and save it to ``path`` (PNG), or fail with a one-line error naming ``what`` (default
    the path); say where (unless ``quiet``: a command printing JSON)."""
    from simlab.report.plots import write_plot

    replaced = Path(path).is_file()
    try:
        write_plot(path, draw, (width, height), what=what or f"the plot {path!r}")
    except InputError as exc:
        fail(f"{exc}; the results are printed above")
    if not quiet:
        console.print(f"plot: {path}" + (" (replaced the file that was there)" if replaced else ""), highlight=False)


def check_png(png: str | None) -> None:
    """``--png`` checked before any game is played; without it, the folder of :func:`default_png`'s file."""
    from simlab.data.inputs import check_output_dir, check_output_file

    check_output_file(png, "--png", ".png")
    if png is None:
        check_output_dir("reports", "the plots' folder")


def default_png(*parts: str) -> str:
    """A default plot file named after what it shows: ``default_png("sweep", "gaston-vs-horned-king", "Get Out!
    cost", "expert")`` is ``reports/sweep-gaston-vs-horned-king-get-out-cost-expert.png``."""
    words = ("".join(ch if ch.isalnum() else "-" for ch in str(p).lower()) for p in parts)
    return "reports/" + "-".join("-".join(w for w in word.split("-") if w) for word in words) + ".png"


# ---------------------------------------------------------------------------------------------- output formats
JsonOut = Annotated[bool, typer.Option("--json", help="print the tables as one JSON document instead")]
CsvOut = Annotated[bool, typer.Option("--csv", help="print the main table as CSV instead")]


def output_format(json_out: bool, csv_out: bool) -> str:
    """``table``, ``json`` or ``csv`` from the ``--json``/``--csv`` flags (both: refused with one line)."""
    if json_out and csv_out:
        fail("--json and --csv: give one of them (--json prints every table, --csv the main one)")
    return "json" if json_out else "csv" if csv_out else "table"


def plain(value):
    """``value`` as plain JSON data: frames become lists of rows, numpy scalars Python numbers, tuples lists, and
    NaN or infinity None (JSON has no NaN; ``json.loads`` of strict readers refuses it)."""
    import math

    import numpy as np
    import polars as pl

    if isinstance(value, pl.DataFrame):
        return [plain(r) for r in value.iter_rows(named=True)]
    if isinstance(value, pl.Series):
        return [plain(v) for v in value.to_list()]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return [plain(v) for v in value.tolist()]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Path):
        return str(value)
    return str(value)


def json_text(data) -> str:
    """One JSON document of ``data`` (:func:`plain`): never a bare NaN or Infinity."""
    import json

    return json.dumps(plain(data), indent=2, allow_nan=False)


def print_json(data) -> None:
    typer.echo(json_text(data))


def csv_text(frame) -> str:
    """A frame (or a list of row dicts) as CSV text with a header line; nested values as JSON, NaN empty."""
    import csv
    import io
    import json

    import polars as pl

    rows = plain(frame) if isinstance(frame, pl.DataFrame) else plain(list(frame))
    if isinstance(frame, pl.DataFrame):
        columns = list(frame.columns)
    else:
        columns = list(dict.fromkeys(k for r in rows for k in r))
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(columns)
    for r in rows:
        writer.writerow(
            ["" if r.get(c) is None else json.dumps(r[c]) if isinstance(r[c], list | dict) else r[c] for c in columns]
        )
    return buf.getvalue()


def print_csv(frame) -> None:
    typer.echo(csv_text(frame), nl=False)


def emit(fmt: str, tables: dict, show, **meta) -> None:
    """Print a command's result: ``show()`` (the rich tables) for ``table``; for ``json`` one document of ``meta``
    and every table (name -> frame or rows); for ``csv`` the first of ``tables``, the command's main table."""
    if fmt == "json":
        print_json({**meta, "tables": tables})
    elif fmt == "csv":
        print_csv(next(iter(tables.values())))
    else:
        show()


def say(text: str) -> None:
    """One line of plain text on stdout: no markup, no highlighting (a name in brackets stays as written)."""
    console.print(text, highlight=False, markup=False)


# ---------------------------------------------------------------------------------------------- plan and progress
class StagedProgress(LazyProgress):
    """One bar with an ETA over every stage of a command (games done of the games planned), the current stage
    named on the line under it. The studies' callbacks feed it: ``games(done, total, label)``,
    ``named(label, done, total)`` and ``tuning(label, done, total, best, start)``; each counts games done within
    its current part, so a part that starts again from 0 (the next run under the same label) adds on. A part
    without a name of its own (``games``) is named after the planned stage the count has reached (``stages``:
    (name, games) pairs)."""

    stage = ""

    def __init__(self, total: int, seconds: float | None = None, stages=(), command: str = "", raw: float = 0.0):
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn

        super().__init__(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("games"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        self.planned, self.estimate, self.stages = max(int(total), 1), seconds, list(stages)
        self.command, self.raw, self.started = command, raw, None  # raw: the estimate before the correction
        self.line = ""  # the plan line, said when the work starts (after every check, the backend's too)
        self.workload, self.threads = None, None  # estimated when the work starts (:func:`plan`)
        self.task = self.add_task("all stages", total=self.planned)
        self.done, self._last = 0, (None, 0)

    def __enter__(self):
        self.say_plan()
        self._start_clock()
        return super().__enter__()

    def _start_clock(self) -> None:
        import time

        self.started = time.perf_counter()

    def say_plan(self) -> None:
        """The plan line on stderr, once (a command printing JSON or CSV says it too: stdout holds the document)."""
        self._estimate()
        if self.line:
            typer.echo(self.line, err=True)
            self.line = ""

    def _estimate(self) -> None:
        from simlab.studies.workload import PLAN_ABOVE_SECONDS

        work, self.workload = self.workload, None
        if work is None:
            return
        self.raw = work.seconds(self.threads, corrected=False)
        self.estimate = work.seconds(self.threads)
        if self.estimate > PLAN_ABOVE_SECONDS:
            self.line = work.line(self.threads, self.estimate)

    def plan_only(self):
        """``with bar if shown else bar.plan_only():``: the plan line without the bar."""
        bar = self

        class _PlanOnly(no_bar):
            def __enter__(self):
                bar.say_plan()
                bar._start_clock()
                return self

            def __exit__(self, *exc):
                bar._record_ratio(exc)  # a command printing JSON or CSV corrects its next estimate too
                return False

        return _PlanOnly()

    def __exit__(self, *exc):
        super().__exit__(*exc)
        self._record_ratio(exc)

    def _record_ratio(self, exc) -> None:
        """A command that played what it planned corrects its next estimate (:func:`simlab.runs.speed.ratio`)."""
        import time

        if exc[0] is None and self.command and self.started is not None and self.done >= 0.9 * self.planned:
            from simlab.runs.speed import record_ratio

            record_ratio(self.command, self.raw, time.perf_counter() - self.started)

    def get_renderables(self):
        from rich.text import Text

        yield self.make_tasks_table(self.tasks)
        if self.stage:
            shown = self.stage if self.stage.startswith("stage ") else f"stage: {self.stage}"
            yield Text(f"  {shown}", overflow="ellipsis", no_wrap=True)

    def advance(self, label: str, done: int) -> None:
        """``done`` games of the part ``label``: the increase since the last call counts (a new part, or a
        smaller count under the same label, starts from 0)."""
        last_label, last_done = self._last
        self.done += done - last_done if label == last_label and done >= last_done else done
        self._last = (label, done)
        self.stage = label if label not in ("", "games") else self.planned_stage()
        self.planned = max(self.planned, self.done)
        self.update(self.task, completed=self.done, total=self.planned)

    def planned_stage(self) -> str:
        """``stage 3 of 7: gaston-vs-horned-king``: the planned stage the games done so far have reached."""
        start = 0
        for k, (name, games) in enumerate(self.stages, 1):
            if self.done < start + games or k == len(self.stages):
                return f"stage {k} of {len(self.stages)}: {name}"
            start += games
        return ""

    def games(self, done: int, total: int, label: str = "games") -> None:
        self.advance(label, done)

    def named(self, label: str, done: int, total: int) -> None:
        self.advance(label, done)

    def tuning(self, label: str, done: int, total: int, best: float = float("nan"), start: float = 0.0) -> None:
        text = "" if best != best else f" (best so far {best:.1%}, start {start:.1%})"
        self.advance(label, done)
        self.stage = label + text


def plan(workload, threads: int | None = None) -> StagedProgress:
    """The overall bar of ``workload`` (:class:`simlab.studies.workload.Workload`); entering it (or its
    :meth:`~StagedProgress.plan_only`) estimates the time, then says the plan line on stderr first when the
    estimate is longer than :data:`simlab.studies.workload.PLAN_ABOVE_SECONDS`. The estimate waits for the entry:
    a rate not known here is measured by playing, which must come after every check (the backend's, made as
    ``with backend_for(...), bar:`` enters)."""
    stages = [(s.name, s.games) for s in workload.stages]
    bar = StagedProgress(workload.games, None, stages, workload.command)
    bar.workload, bar.threads = workload, threads
    return bar
