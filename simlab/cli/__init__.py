"""The ``simlab`` command line: thin wrappers over library calls that return data."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated

import typer
import typer.core
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress

from simlab.data.rules import DEFAULT_MAX_TURNS
from simlab.engine.game import DEFAULT_STRATEGY
from simlab.errors import USER_ERRORS, InputError
from simlab.report.render import (  # noqa: F401
    _parameter_rich_table,
    _pct_change,
    _rate_table,
    ablation_view,
    console,
    goldfish_view,
    leverage_views,
    matrix_table,
    observational_view,
    pct_interval,
    print_calibration,
    print_difficulty,
    print_equilibrium,
    print_run,
    print_tune,
    rules_view,
    strategies_view,
    sweep_view,
)
from simlab.runs.settings import RunSettings
from simlab.studies import tune as tune_defaults


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
        names = [o for p in cmd.params if p.param_type_name == "option" and p.name != "help" for o in p.opts]
        msg += f"; options: {', '.join(names)}" if names else f"; simlab {cmd.name} takes no options"
    elif "unexpected extra argument" in msg and sub:
        msg += f"; simlab {cmd.name} takes options only (simlab {cmd.name} --help lists them)"
    return where + msg


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
        except typer.Abort:
            typer.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(code or 0)


app = typer.Typer(
    cls=OneLineErrors,
    add_completion=False,
    no_args_is_help=True,
    help="Monte Carlo balance analysis for Villainous: Despicable Plots.",
)


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
BackendName = Annotated[str, typer.Option("--backend", help="where games are played: local or dask")]
# commands that read experiment files: None means the file's backend, else local
BackendOrConfig = Annotated[str | None, typer.Option("--backend", help="where games are played: local or dask")]
Scheduler = Annotated[
    str | None, typer.Option("--scheduler", help="Dask scheduler tcp://HOST:PORT (without it: a local Dask cluster)")
]
Level = Annotated[
    str | None,
    typer.Option(
        "--level",
        help="strength every villain plays at: random, novice, expert, tuned, search (--strategy overrides)",
    ),
]


class backend_for:
    """``with backend_for(name, scheduler):`` plays the block's runs there, and closes it afterwards."""

    def __init__(self, name: str, scheduler: str | None):
        self.name, self.scheduler = name, scheduler

    def __enter__(self):
        from simlab.runs import backend

        self.backend = backend.make(self.name, self.scheduler)
        self._use = backend.use(self.backend)
        self._use.__enter__()
        return self.backend

    def __exit__(self, *exc):
        self._use.__exit__(*exc)
        self.backend.close()
        return False


def check_games(n: int) -> None:
    from simlab.runs.sim import MAX_GAMES

    if not 1 <= n <= MAX_GAMES:
        fail(f"-n must be a positive number of games of at most 2**63 - 1, got {n}")


def default_games(n: int | None, default: int, level: str | None, strategies=()) -> int:
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


def parse_edits(items: list[str] | None) -> tuple:
    from simlab.data.edits import normalise

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
    return out


def run_settings(n, seed, strategy, rules, max_turns, threads, edit, level, progress=None, where="the games"):
    """The options every study takes, checked once (:class:`simlab.runs.settings.RunSettings`); ``where`` names what
    the study plays in the message about a --strategy for a villain not in it."""
    check_games(n)
    return RunSettings(
        n,
        seed,
        level,
        parse_pairs(strategy, "--strategy"),
        parse_pairs(rules, "--rules"),
        max_turns,
        threads,
        parse_edits(edit),
        progress,
        where=where,
    )


def parse_pairs(items: list[str] | None, what: str) -> dict[str, str]:
    out = {}
    for item in items or []:
        if "=" not in item:
            fail(f"{what} {item!r} must look like NAME=VALUE")
        k, v = item.split("=", 1)
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


def _progress_bar(chunk: int | None = None):
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


@app.command()
def run(
    matchup: Annotated[str | None, typer.Option("--matchup", "-m", help="VILLAIN-vs-VILLAIN[-vs-VILLAIN]")] = None,
    n: Annotated[
        int | None,
        typer.Option("-n", help="games to play (the most, with --target-ci) [default: 10000; 100 at search level]"),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="run seed: game i uses the stream of (seed, i) [default: 0]")] = None,
    strategy: VillainStrategies = None,
    rules: Rules = None,
    max_turns: Annotated[
        int | None,
        typer.Option("--max-turns", help=f"rounds after which a game ends unfinished [default: {DEFAULT_MAX_TURNS}]"),
    ] = None,
    threads: Threads = None,
    first: Annotated[
        str | None, typer.Option(help="who plays first: rotate, random, or a villain [default: rotate]")
    ] = None,
    edit: Edits = None,
    level: Level = None,
    config: Config = None,
    backend: BackendOrConfig = None,
    scheduler: Scheduler = None,
    checkpoint: Annotated[
        str | None, typer.Option(help="record each finished chunk in this directory (resume with --resume)")
    ] = None,
    resume: Annotated[
        str | None, typer.Option(help="finish the checkpointed run in this directory (its own settings)")
    ] = None,
    out: Annotated[str | None, typer.Option(help="write one row per game to this parquet file")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="print a machine-readable summary instead")] = False,
    target_ci: Annotated[
        float | None, typer.Option(help="stop once every win-rate 95% interval is narrower than this")
    ] = None,
) -> None:
    """Play N games of a matchup and print win rates (overall and by seat), the first-seat advantage and game
    length, with 95% intervals. Options given here override the --config file. Ctrl-C stops after the
    current chunk and prints the finished games."""
    from simlab.runs.sim import DEFAULT_CHUNK, checkpoint_settings
    from simlab.runs.sim import resume as resume_run
    from simlab.runs.sim import run as run_games

    try:
        bar, update = _progress_bar(checkpoint_settings(resume)["chunk"] if resume is not None else DEFAULT_CHUNK)
        if resume is not None:
            check_resume_options(
                resume,
                {"--matchup": matchup, "-n": n, "--seed": seed, "--max-turns": max_turns, "--first": first},
                {
                    "--strategy": strategy,
                    "--rules": rules,
                    "--edit": edit,
                    "--config": config,
                    "--out": out,
                    "--target-ci": target_ci,
                    "--checkpoint": checkpoint if checkpoint is None or not _same_dir(checkpoint, resume) else None,
                },
            )
            with backend_for(backend or "local", scheduler), bar if not json_out else _null():
                res = resume_run(resume, threads, progress=None if json_out else update, keep_games=False)
            _print_or_json(res, json_out)
            return
        check_file_option(out, "--out", ".parquet")
        cfg = experiment_settings(
            config,
            matchup=(matchup, None),
            games=(n, 10000),
            seed=(seed, 0),
            max_turns=(max_turns, DEFAULT_MAX_TURNS),
            threads=(threads, None),
            first=(first, "rotate"),
            strategies=(parse_pairs(strategy, "--strategy"), {}),
            rules=(parse_pairs(rules, "--rules"), {}),
            edits=(parse_edits(edit), ()),
            backend=(backend, "local"),
            scheduler=(scheduler, None),
            level=(level, None),
        )
        if n is None and cfg["experiment"].games is None:
            cfg["games"] = default_games(None, 10000, cfg["level"], cfg["strategies"].values())
        with backend_for(cfg["backend"], cfg["scheduler"]), bar if not json_out else _null():
            res = run_games(
                cfg["matchup"],
                cfg["games"],
                cfg["seed"],
                cfg["strategies"],
                cfg["rules"],
                cfg["max_turns"],
                cfg["threads"],
                first=cfg["first"],
                out=out,
                target_ci=target_ci,
                keep_games=False,
                progress=None if json_out else update,
                edits=cfg["edits"],
                checkpoint=checkpoint,
                level=cfg["level"],
            )
    except USER_ERRORS as exc:
        fail(str(exc))
    _print_or_json(res, json_out)


def _same_dir(a: str, b: str) -> bool:
    return Path(a).resolve() == Path(b).resolve()


def check_resume_options(path: str, settings: dict, others: dict) -> None:
    """``--resume DIR`` plays the checkpoint's own run: a setting given with it must equal the checkpoint's
    (``settings``: option -> value given or None), and ``others`` (options a resumed run cannot take) must not
    be given at all; either is refused with one line rather than silently ignored."""
    from simlab.engine.game import parse_matchup
    from simlab.runs.sim import checkpoint_settings

    saved = checkpoint_settings(path)
    theirs = {
        "--matchup": parse_matchup(saved["matchup"]),
        "-n": saved["n_games"],
        "--seed": saved["seed"],
        "--max-turns": saved.get("max_turns"),
        "--first": saved.get("first"),
    }
    for option, value in settings.items():
        if value is None:
            continue
        mine = parse_matchup(value) if option == "--matchup" else value
        if mine != theirs[option]:
            shown = saved["matchup"] if option == "--matchup" else theirs[option]
            raise InputError(
                f"--resume {path!r} finishes the checkpoint's own run: {option} {value} differs from its {shown} "
                f"(drop {option})"
            )
    for option, value in others.items():
        if value:
            raise InputError(
                f"--resume {path!r} finishes the checkpoint's own run with its own settings: drop {option}"
            )


def _print_or_json(res, json_out: bool) -> None:
    if json_out:
        typer.echo(res.to_json())
    else:
        print_run(res)
    if res.interrupted:
        raise typer.Exit(130)


@app.command()
def matrix(
    n: Annotated[int | None, typer.Option("-n", help="games per matchup [default: 10000; 100 at search level]")] = None,
    seed: Seed = 0,
    strategy: VillainStrategies = None,
    rules: Rules = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
    png: Annotated[str, typer.Option(help="where to write the heatmap")] = "reports/matrix.png",
    edit: Edits = None,
    level: Level = None,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
) -> None:
    """Every 2-player pairing (mirrors included) and the 3-player game, seats rotated: one table and a heatmap."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from simlab.studies.matchups import matrix as run_matrix
    from simlab.studies.matchups import plot_matrix

    check_file_option(png, "--png", ".png")
    bar, update = _progress_bar()
    try:
        n = default_games(n, 10000, level, parse_pairs(strategy, "--strategy").values())
        settings = run_settings(n, seed, strategy, rules, max_turns, threads, edit, level, update, "the matrix")
        with backend_for(backend, scheduler), bar:
            res = run_matrix(settings=settings)
    except USER_ERRORS as exc:
        fail(str(exc))
    console.print(matrix_table(res.table, settings))
    fig, ax = plt.subplots(figsize=(6, 5))
    plot_matrix(res.grid(), ax)
    fig.tight_layout()
    try:
        Path(png).parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(png, dpi=120)
    except OSError as exc:
        fail(f"cannot write --png {png!r}: {exc.strerror or exc}")
    console.print(f"heatmap: {png}")


class _null:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@app.command()
def replay(
    matchup: Annotated[str, typer.Option("--matchup", "-m", help="VILLAIN-vs-VILLAIN[-vs-VILLAIN]")],
    seed: Seed = 0,
    game: Annotated[int, typer.Option(help="index of the game in the run")] = 0,
    strategy: VillainStrategies = None,
    rules: Rules = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
) -> None:
    """Print one game of a run as a readable log."""
    from simlab.engine.game import parse_matchup
    from simlab.engine.replay import replay as replay_game
    from simlab.runs.sim import seat_table

    try:
        villains = parse_matchup(matchup)
        if not 0 <= game < 2**63:
            raise InputError(f"--game must be a game index from 0 to 2**63 - 1, got {game}")
        seats = seat_table(villains, 1, game)[0]
        order = tuple(villains[i] for i in seats)
        strategies = parse_pairs(strategy, "--strategy")
        res = replay_game(
            order,
            seed,
            game,
            tuple(strategies.get(v, DEFAULT_STRATEGY) for v in order),
            parse_pairs(rules, "--rules"),
            max_turns,
        )
    except USER_ERRORS as exc:
        fail(str(exc))
    console.print(res.text, highlight=False, markup=False)


@app.command("strategies")
def strategies_cmd(
    name: Annotated[
        str | None, typer.Argument(help="a strategy (name or TOML path): every parameter with its value")
    ] = None,
    params: Annotated[bool, typer.Option("--params", help="every parameter of the heuristic, by group")] = False,
) -> None:
    """List every strategy (built-in and in configs/strategies/) with its description and how its parameters
    differ from expert; --params lists every parameter (group, expert value, tuning range, description), and
    NAME one strategy's values."""
    from simlab.errors import StrategyError
    from strategies import STRATEGIES, config_names, parameter_table, resolve

    if name is not None or params:
        try:
            table = parameter_table(name)
        except StrategyError as exc:
            fail(str(exc))
        if name is not None:
            spec = resolve(name)
            where = "" if spec.source == "built-in" else f" (file {spec.source})"
            console.print(f"[bold]{escape(spec.name)}[/bold]{escape(where)}: {escape(spec.description)}")
        console.print(_parameter_rich_table(table, f"{name} parameters" if name else "heuristic parameters"))
        return
    specs = list(STRATEGIES.values())
    for config in config_names():
        try:
            specs.append(resolve(config))
        except ValueError as exc:
            fail(str(exc))
    table = strategies_view(specs, STRATEGIES["expert"].params)
    console.print(table)
    groups = parameter_table().group_by("group", maintain_order=True).len()
    counts = ", ".join(f"{g} {n}" for g, n in groups.iter_rows())
    console.print(
        f"{groups['len'].sum()} parameters in {groups.height} groups ({counts}). "
        "`simlab strategies --params` describes each; `simlab strategies NAME` shows one strategy's values."
    )


def _each_villain(study, villain, n, seed, rules, max_turns, threads, *args, **keywords):
    """``study(villains, *args, settings=..., **keywords)`` for the villains asked (default: every registered
    one), with the run settings of the shared options; a bad input fails with one line."""
    from simlab.data.cards import VILLAIN_KEYS

    try:
        settings = run_settings(n, seed, None, rules, max_turns, threads, None, None)
        return study(villain or VILLAIN_KEYS, *args, settings=settings, **keywords)
    except USER_ERRORS as exc:
        fail(str(exc))


@app.command()
def goldfish(
    villain: VillainsOrAll = None,
    n: Annotated[int, typer.Option("-n", help="games per villain and strategy")] = 2000,
    seed: Seed = 0,
    strategy: Annotated[list[str] | None, typer.Option(help="strategy name or TOML path (repeatable)")] = None,
    rules: Rules = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
) -> None:
    """Each villain alone, nobody Fating it: turns to reach its objective (median, 10th, 90th percentile)."""
    from simlab.studies.ladder import goldfish_table

    frame = _each_villain(goldfish_table, villain, n, seed, rules, max_turns, threads, strategy or ("novice", "expert"))
    table = goldfish_view(frame, n, seed)
    console.print(table)


@app.command()
def ladder(
    villain: VillainsOrAll = None,
    level: Annotated[
        list[str] | None,
        typer.Option(
            help="levels (or strategies) to rank, repeatable [default: every scripted level available here; "
            "--level search adds the search player's rung]"
        ),
    ] = None,
    opponent: Annotated[str, typer.Option(help="level or strategy of every opponent")] = "novice",
    n: Annotated[int, typer.Option("-n", help="games per level and opponent villain")] = 2000,
    search_games: Annotated[
        int | None,
        typer.Option("--search-games", help="games per opponent villain at a search level [default: min(-n, 100)]"),
    ] = None,
    seed: Seed = 0,
    rules: Rules = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
) -> None:
    """The skill ladder: each villain's win rate at each level against the same opponents, seats rotated."""
    from simlab.studies.ladder import skill_ladder

    check_search_games(search_games)
    frame = _each_villain(
        skill_ladder, villain, n, seed, rules, max_turns, threads, level or None, opponent, search_games=search_games
    )
    table = _rate_table(
        f"skill ladder vs {opponent} opponents (seed {seed})",
        frame,
        ["villain", "level"],
        extra={"step z": "step_z", "min z below": "min_z_below"},
    )
    console.print(table)


@app.command()
def cards(
    villain: Annotated[str, typer.Option(help="whose cards")],
    n: Annotated[int, typer.Option("-n", help="games against each other villain (per card, for the ablations)")] = 2000,
    seed: Seed = 0,
    strategy: VillainStrategies = None,
    rules: Rules = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
    edit: Edits = None,
    causal: Annotated[
        bool, typer.Option("--causal/--no-causal", help="also ablate each card on paired seeds (the causal number)")
    ] = True,
    card: Annotated[list[str] | None, typer.Option("--card", help="ablate only these cards (repeatable)")] = None,
    png: Annotated[str | None, typer.Option(help="write the ranked causal-impact chart here")] = None,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
) -> None:
    """Card impact. OBSERVATIONAL: the villain's win rate when each card was drawn / played vs not
    (associations, biased by selection). CAUSAL: the same games replayed with the card ablated (never
    played), and the paired change in win rate."""
    from simlab.studies.impact import ablation, deck_cards, observational

    check_file_option(png, "--png", ".png")
    bar, update = _progress_bar()
    try:
        settings = run_settings(n, seed, strategy, rules, max_turns, threads, edit, None)
        if causal:
            deck_cards(villain, card)  # a bad --card is refused before the observational games are played
        with backend_for(backend, scheduler):
            frame = observational(villain, settings=settings)
            if causal:
                with bar:
                    effects = ablation(villain, cards=card, settings=settings.replace(progress=update))
    except USER_ERRORS as exc:
        fail(str(exc))

    table = observational_view(frame, villain, n, seed)
    console.print(table)
    if not causal:
        return
    table = ablation_view(effects, villain)
    console.print(table)
    if png:
        save_plot(
            png, lambda ax: plot_impact(effects, ax, f"{villain}: causal card impact"), height=0.3 * effects.height + 1
        )


def check_file_option(path: str | None, option: str, suffix: str) -> None:
    """A file option (``--png``, ``--out``) must name a file with ``suffix``, not a directory; checked before
    any game is played, so a typo costs nothing and writes nothing."""
    if path is None:
        return
    p = Path(path)
    if p.suffix.lower() != suffix:
        fail(f"{option} {path!r} must be a file name ending in {suffix}")
    if p.is_dir():
        fail(f"{option} {path!r} is a directory; give a file name ending in {suffix}")


def save_plot(path: str, draw, width: float = 7, height: float = 5, quiet: bool = False) -> None:
    """Draw on a fresh Axes and save it to ``path`` (PNG), or fail with a one-line error; say where (unless
    ``quiet``: a command printing JSON)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(width, height))
    draw(ax)
    fig.tight_layout()
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=120)
    except OSError as exc:
        fail(f"cannot write {path!r}: {exc.strerror or exc}")
    finally:
        plt.close(fig)
    if not quiet:
        console.print(f"plot: {path}")


def plot_impact(frame, ax, title=""):
    from simlab.studies.impact import plot_impact as draw

    return draw(frame, ax, title)


@app.command()
def sweep(
    matchup: Annotated[str | None, typer.Option("--matchup", "-m", help="VILLAIN-vs-VILLAIN[-vs-VILLAIN]")] = None,
    card: Annotated[str | None, typer.Option(help="card whose attribute to vary")] = None,
    attribute: Annotated[str | None, typer.Option(help="cost, strength or copies")] = None,
    rule: Annotated[str | None, typer.Option(help="rule variant to vary instead of a card")] = None,
    values: Annotated[str | None, typer.Option(help="comma-separated values, e.g. 3,4,5,6 (or 3..7)")] = None,
    n: Annotated[int | None, typer.Option("-n", help="games per value [default: 2000]")] = None,
    seed: Annotated[int | None, typer.Option(help="run seed, the same for every value [default: 0]")] = None,
    strategy: VillainStrategies = None,
    rules: Rules = None,
    max_turns: Annotated[int | None, typer.Option("--max-turns", help="turn cap in rounds")] = None,
    threads: Threads = None,
    edit: Edits = None,
    config: Config = None,
    png: Annotated[str | None, typer.Option(help="where to write the plot [default: reports/sweep-<name>.png]")] = None,
    backend: BackendOrConfig = None,
    scheduler: Scheduler = None,
) -> None:
    """Vary one card attribute or rule variant over values on paired seeds: win rate against the value,
    and each value's change from the shipped one with a paired 95% interval."""
    from simlab.studies.whatif import plot_sweep
    from simlab.studies.whatif import sweep as run_sweep

    check_file_option(png, "--png", ".png")
    bar, update = _progress_bar()
    try:
        cfg = experiment_settings(
            config,
            matchup=(matchup, None),
            games=(n, 2000),
            seed=(seed, 0),
            max_turns=(max_turns, DEFAULT_MAX_TURNS),
            threads=(threads, None),
            strategies=(parse_pairs(strategy, "--strategy"), {}),
            rules=(parse_pairs(rules, "--rules"), {}),
            edits=(parse_edits(edit), ()),
            backend=(backend, "local"),
            scheduler=(scheduler, None),
        )
        spec = cfg["experiment"].sweep
        card = card if card is not None else spec.get("card")
        attribute = attribute if attribute is not None else spec.get("attribute")
        rule = rule if rule is not None else spec.get("rule")
        vals = parse_values(values) if values is not None else [str(v) for v in spec.get("values", [])]
        with backend_for(cfg["backend"], cfg["scheduler"]), bar:
            settings = RunSettings(
                cfg["games"],
                cfg["seed"],
                None,
                cfg["strategies"],
                cfg["rules"],
                cfg["max_turns"],
                cfg["threads"],
                cfg["edits"],
                update,
            )
            res = run_sweep(cfg["matchup"], None, vals, card=card, attribute=attribute, rule=rule, settings=settings)
    except USER_ERRORS as exc:
        fail(str(exc))
    table = sweep_view(res, cfg["games"])
    console.print(table)
    slug = "".join(ch if ch.isalnum() else "-" for ch in res.what.lower()).strip("-")
    save_plot(
        png or f"reports/sweep-{slug}.png",
        lambda ax: plot_sweep(res.table, ax, f"{res.matchup}: {res.what}", res.baseline),
    )


def parse_values(text: str) -> list[str]:
    """``"3,4,5"`` or ``"3..7"`` -> list of value strings."""
    text = text.strip()
    if ".." in text:
        lo, _, hi = text.partition("..")
        try:
            a, b = int(lo), int(hi)
        except ValueError:
            fail(f"--values {text!r}: a range must look like 3..7")
        if b < a:
            fail(f"--values {text!r}: the range is empty")
        return [str(v) for v in range(a, b + 1)]
    vals = [v.strip() for v in text.split(",") if v.strip()]
    if not vals:
        fail("--values needs at least one value, e.g. 3,4,5")
    return vals


@app.command()
def difficulty(
    villain: Annotated[str | None, typer.Option(help="ask about this villain (with --vs: this pair only)")] = None,
    vs: Annotated[str | None, typer.Option("--vs", help="the villain to compare --villain with")] = None,
    n: Annotated[int, typer.Option("-n", help="games per pairing and setting")] = 2000,
    search_games: Annotated[
        int | None,
        typer.Option("--search-games", help="games per pairing and setting at a search level [default: min(-n, 100)]"),
    ] = None,
    seed: Seed = 0,
    rules: Rules = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
    edit: Edits = None,
    level: Annotated[
        list[str] | None,
        typer.Option(
            "--level",
            help="level to measure at, repeatable: random, novice, expert, tuned, search "
            "[default: every level available here but random and search]",
        ),
    ] = None,
    readings: Annotated[
        int,
        typer.Option(
            "--readings",
            help="also measure under the K rule readings with the largest effect in a leverage screen (0: none)",
        ),
    ] = 2,
    reading: Annotated[
        list[str] | None,
        typer.Option(
            "--reading",
            help="measure under this reading instead of screening: VARIANT=VALUE or a board edit "
            "(board:LOCATION:OPERATION); join several with ' + ' (repeatable)",
        ),
    ] = None,
    screen_games: Annotated[
        int | None, typer.Option("--screen-games", help="games per matchup and reading in the screen [default: n/2]")
    ] = None,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
) -> None:
    """Is a villain harder to play, or just weaker? Strength, skill gap, goldfish speed and Fate sensitivity
    per villain with 95% intervals at every level and under the rule readings with the largest effect, then a
    verdict per pair and question labelled holds / reverses / not significant across those settings."""
    from simlab.data.cards import VILLAIN_KEYS
    from simlab.engine.game import check_villain
    from simlab.studies.robust import robust_difficulty

    if screen_games is not None:
        check_games(screen_games)
    check_search_games(search_games)
    bar, update = _progress_bar()
    try:
        if vs is not None and villain is None:
            raise InputError("--vs needs --villain: the pair to compare")
        if readings < 0:
            raise InputError(f"--readings must be 0 or more, got {readings}")
        chosen = VILLAIN_KEYS
        if villain is not None:
            check_villain(villain)
            chosen = (villain, check_villain(vs)) if vs is not None else VILLAIN_KEYS
            if vs == villain:
                raise InputError(f"--vs must name a villain other than {villain!r}")
        with backend_for(backend, scheduler), bar:
            res = robust_difficulty(
                chosen,
                level or None,
                reading if reading else readings,
                screen_games=screen_games,
                progress=update,
                settings=run_settings(n, seed, None, rules, max_turns, threads, edit, None),
                search_games=search_games,
            )
    except USER_ERRORS as exc:
        fail(str(exc))
    print_difficulty(res, villain, chosen)


@app.command()
def leverage(
    n: Annotated[
        int, typer.Option("-n", help="games per matchup and reading (the same seeds for every reading)")
    ] = 1000,
    seed: Seed = 0,
    level: Annotated[
        str, typer.Option("--level", help="strength every villain plays at: random, novice, expert, tuned")
    ] = "expert",
    matchup: Annotated[
        list[str] | None,
        typer.Option(
            "--matchup", "-m", help="matchup to measure (repeatable) [default: every pairing and the 3-player game]"
        ),
    ] = None,
    board: Annotated[
        str, typer.Option(help="board perturbations: catalogue (plausible transcription errors) or none")
    ] = "catalogue",
    no_rules: Annotated[bool, typer.Option("--no-rules", help="leave out the rule variants")] = False,
    perturb: Annotated[
        list[str] | None,
        typer.Option(
            "--perturb",
            help="another reading to measure: VARIANT=VALUE or an edit (board:LOCATION:OPERATION, CARD:ATTRIBUTE="
            "VALUE); join several with ' + ' (repeatable)",
        ),
    ] = None,
    rules: Rules = None,
    edit: Edits = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
    top: Annotated[int, typer.Option(help="rows of the effect table to print (the whole table goes to --out)")] = 30,
    out: Annotated[str | None, typer.Option(help="write the whole table to this .parquet or .csv file")] = None,
    png: Annotated[str | None, typer.Option(help="plot the largest effects to this PNG file")] = None,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
) -> None:
    """How far each uncertain reading moves each matchup: every rule variant's non-default value and each
    plausible board transcription error, played on the same seeds as the shipped reading; each villain's
    win-rate change with a paired 95% interval, largest first."""
    from simlab.studies.leverage import BOARD_CHOICES, leverage_summary, plot_leverage
    from simlab.studies.leverage import leverage as run_leverage

    if top < 0:
        fail(f"--top must be 0 or more, got {top}")
    if board not in BOARD_CHOICES:
        fail(f"--board must be one of {', '.join(BOARD_CHOICES)}, got {board!r}")
    if out is not None and not out.endswith((".parquet", ".csv")):
        fail(f"--out must name a .parquet or .csv file, got {out!r}")
    bar, update = _progress_bar()
    try:
        with backend_for(backend, scheduler), bar:
            settings = run_settings(n, seed, None, rules, max_turns, threads, edit, level, update)
            res = run_leverage(
                rules=not no_rules,
                board=board,
                perturbations=perturb or (),
                matchups=matchup or None,
                settings=settings,
            )
    except USER_ERRORS as exc:
        fail(str(exc))
    t = res.table
    summary = leverage_summary(t)
    for view in leverage_views(t, summary, top, n, seed, level):
        console.print(view)
    if out is not None:
        try:
            t.write_parquet(out) if out.endswith(".parquet") else t.write_csv(out)
        except OSError as exc:
            fail(f"cannot write {out!r}: {exc.strerror or exc}")
        console.print(f"table: {out}")
    if png is not None:
        save_plot(png, lambda ax: plot_leverage(t, ax, title=f"leverage ({level} play)"), 8, 9)


@app.command()
def report(
    config: Config = None,
    out: Annotated[str, typer.Option(help="directory that receives <name>/")] = "reports",
    threads: Threads = None,
    level: Annotated[
        str | None,
        typer.Option(
            "--level", help="strength every villain plays at [default: the config's, else the strongest available]"
        ),
    ] = None,
    backend: BackendOrConfig = None,
    scheduler: Scheduler = None,
) -> None:
    """Write a balance report to reports/<name>/: index.html (plots embedded), report.md, PNG plots, every table
    as parquet and CSV, and settings.json (version, seed, strategies, variants, edits) to regenerate it."""
    from simlab.report.build import build_report
    from simlab.runs.experiment import load_experiment

    try:
        exp = load_experiment(config) if config else None
        backend = backend or (exp.backend if exp else None) or "local"
        scheduler = scheduler or (exp.scheduler if exp else None)
        with backend_for(backend, scheduler), console.status("report") as status:
            rep = build_report(exp, out, threads, progress=lambda msg: status.update(f"report: {msg}"), level=level)
    except USER_ERRORS as exc:
        fail(str(exc))
    console.print(f"report: {rep.index}")


def _tune_bar():
    """A rich progress bar for tuning, with the best win rate so far; returns (bar, callback)."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    bar = LazyProgress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games  {task.fields[best]}"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    tasks = {}

    def update(label: str, done: int, total: int, best: float, start: float) -> None:
        text = "" if best != best else f"best so far {best:.1%} (start {start:.1%}) on the search games"
        if label not in tasks:
            tasks[label] = bar.add_task(label, total=total, best=text)
        bar.update(tasks[label], completed=done, total=total, best=text)

    return bar, update


@app.command()
def tune(
    villain: Annotated[str | None, typer.Option(help="the villain to tune (or --all)")] = None,
    all_: Annotated[bool, typer.Option("--all", help="every villain: iterated best response, round by round")] = False,
    rounds: Annotated[int, typer.Option(help="with --all: rounds of best response at most")] = (
        tune_defaults.DEFAULT_ROUNDS
    ),
    budget: Annotated[
        int, typer.Option(help="search games per tune (validation comes on top)")
    ] = tune_defaults.DEFAULT_BUDGET,
    candidate_games: Annotated[
        int, typer.Option("--candidate-games", help="games each candidate plays, split over the objective's parts")
    ] = tune_defaults.DEFAULT_CANDIDATE_GAMES,
    validation_games: Annotated[
        int,
        typer.Option(
            "--validation-games", help="fresh games per opponent (3-player: per seat order) of each part to validate on"
        ),
    ] = tune_defaults.DEFAULT_VALIDATION_GAMES,
    seed: Seed = 0,
    start: Annotated[
        str, typer.Option(help="the strategy (or, with --all, the level) the search starts from")
    ] = "expert",
    opponent: Annotated[
        list[str] | None,
        typer.Option("--opponent", help="VILLAIN=LEVEL|STRATEGY each opponent plays (repeatable; default expert)"),
    ] = None,
    param: Annotated[
        list[str] | None, typer.Option("--param", help="search only these parameters (repeatable)")
    ] = None,
    popsize: Annotated[int | None, typer.Option(help="CMA-ES population per generation [default: pycma's]")] = None,
    objective: Annotated[
        str,
        typer.Option(
            help="what the search maximises: PLAYERSp:FIELD=WEIGHT parts, comma-separated; FIELD is current (the "
            "opponents' current strategies) or a level or strategy every opponent plays"
        ),
    ] = tune_defaults.DEFAULT_OBJECTIVE,
    drop_penalty: Annotated[
        float,
        typer.Option(
            "--drop-penalty", help="search penalty per point a part falls below the start (on top of the point lost)"
        ),
    ] = tune_defaults.DEFAULT_DROP_PENALTY,
    matrix_games: Annotated[
        int, typer.Option("--matrix-games", help="with --all: games per matchup of each round's matrix")
    ] = tune_defaults.DEFAULT_MATRIX_GAMES,
    rules: Rules = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
    out: Annotated[
        str | None,
        typer.Option(
            help="the tuned strategy file [default: configs/strategies/tuned-VILLAIN.toml]; with --all a directory "
            "[default: configs/strategies]"
        ),
    ] = None,
    report_dir: Annotated[
        str, typer.Option("--report-dir", help="with --all: where the trajectory and each round's strategies go")
    ] = "reports/tune",
    backend: BackendName = "local",
    scheduler: Scheduler = None,
) -> None:
    """Tune a villain's strategy parameters (CMA-ES) for its win rate against the field (--objective: 2- and
    3-player parts against the current opponents and other levels), every candidate on the same games, then
    validate on fresh games: the improvement over the start with a paired 95% interval, part by part.
    --all: iterated best response, each villain re-tuned against the others' current strategies, round after
    round, until no villain improves (or --rounds). Ctrl-C stops the search and keeps the best so far."""
    from simlab.studies import tune as tuning

    try:
        if all_ == (villain is not None):
            raise InputError("give --villain VILLAIN to tune one villain, or --all for every villain")
        if not all_ and rounds != tune_defaults.DEFAULT_ROUNDS:
            raise InputError("--rounds goes with --all")
        if not all_:
            check_file_option(out, "--out", ".toml")
        goal = tuning.parse_objective(objective, drop_penalty)
        bar, update = _tune_bar()
        settings = RunSettings(seed=seed, variants=parse_pairs(rules, "--rules"), max_turns=max_turns, threads=threads)
        with backend_for(backend, scheduler), bar:
            if all_:
                from simlab.runs.levels import check_level

                check_level(start)
                if opponent or param:
                    raise InputError("--opponent and --param go with --villain (--all plays the others' strategies)")
                res = tuning.equilibrium(
                    rounds,
                    budget,
                    start,
                    candidate_games=candidate_games,
                    validation_games=validation_games,
                    matrix_games=matrix_games,
                    popsize=popsize,
                    out_dir=out or "configs/strategies",
                    report_dir=report_dir,
                    progress=update,
                    objective=goal,
                    settings=settings,
                )
            else:
                from simlab.engine.game import check_villain
                from simlab.runs.levels import strategy_at

                check_villain(villain)
                opponents = {o: strategy_at(s, o) for o, s in parse_pairs(opponent, "--opponent").items()}
                res = tuning.tune(
                    villain,
                    budget,
                    strategy_at(start, villain),
                    opponents,
                    candidate_games,
                    validation_games,
                    popsize,
                    param,
                    out or f"configs/strategies/tuned-{villain}.toml",
                    progress=lambda *a: update(f"tune {villain}", *a),
                    objective=goal,
                    settings=settings,
                )
    except USER_ERRORS as exc:
        fail(str(exc))
    if not all_:
        print_tune(res)
    else:
        print_equilibrium(res, report_dir)
    if res.interrupted:
        raise typer.Exit(130)


@app.command()
def calibrate(
    games: Annotated[str, typer.Option("--games", help="log of real games: a .csv or .parquet file (see README)")],
    n: Annotated[int, typer.Option("-n", help="simulated games per seat order and model")] = 2000,
    seed: Seed = 0,
    levels: Annotated[
        list[str] | None,
        typer.Option(
            "--levels", help="levels to compare, comma-separated or repeated [default: every available but search]"
        ),
    ] = None,
    rules: Annotated[
        list[str] | None,
        typer.Option("--rules", help="VARIANT=VALUE, or VARIANT=A,B or VARIANT=all to compare readings (repeatable)"),
    ] = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    threads: Threads = None,
    png: Annotated[
        str | None, typer.Option(help="calibration plot [default: reports/calibration.png; none with --json]")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="print the tables as JSON instead")] = False,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
) -> None:
    """Compare simulated predictions with a log of real games: per level and rule reading, observed wins vs
    predicted per matchup and seat (exact binomial p), the first player's advantage, log-likelihood and Brier
    score against a coin flip, which level and readings fit best (likelihood ratio), a calibration plot, and
    game length when rounds are logged."""
    from simlab.studies.calibration import calibrate as run_calibrate

    check_games(n)
    check_file_option(png, "--png", ".png")
    wanted = [lv.strip() for item in levels or [] for lv in item.split(",") if lv.strip()] or None
    variants: dict[str, list[str]] = {}
    for item in rules or []:
        if "=" not in item:
            fail(f"--rules {item!r} must look like VARIANT=VALUE[,VALUE...]")
        k, v = item.split("=", 1)
        variants.setdefault(k.strip(), []).extend(x.strip() for x in v.split(","))
    bar, update = _progress_bar()
    try:
        with backend_for(backend, scheduler), bar if not json_out else _null():
            settings = RunSettings(n, seed, max_turns=max_turns, threads=threads, progress=None if json_out else update)
            res = run_calibrate(games, wanted, variants, settings=settings)
    except USER_ERRORS as exc:
        fail(str(exc))
    if json_out:
        typer.echo(res.to_json())
    else:
        print_calibration(res)
    png = png or (None if json_out else "reports/calibration.png")
    if png:
        from simlab.studies.calibration import plot_calibration, plot_lengths

        save_plot(png, lambda ax: plot_calibration(res.calibration, ax), quiet=json_out)
        if res.length_distribution.height:
            path = Path(png)
            save_plot(
                str(path.with_name(f"{path.stem}-lengths{path.suffix}")),
                lambda ax: plot_lengths(res.length_distribution, ax),
                quiet=json_out,
            )


@app.command()
def warmup() -> None:
    """Compile the simulation kernels now (the first run otherwise does it), and say how long it took."""
    from simlab.engine import warmup as warm
    from simlab.kernels import jit

    if warm.cached() and warm.search_cached():
        t = time.perf_counter()
        warm.ensure(search=True)
        took = time.perf_counter() - t
        console.print(f"the kernels are compiled and cached ({jit._cache_base()}); loaded in {took:.1f} s")
        return
    times = warm.ensure(search=True)
    for stage, seconds in times.items():
        console.print(f"  {stage}: {seconds:.1f} s")


@app.command("rules")
def rules_cmd() -> None:
    """List the rule variants with their defaults."""
    from simlab.data.rules import variants_table

    table = rules_view(variants_table())
    console.print(table)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:  # pragma: no cover
        sys.exit(130)


if __name__ == "__main__":  # pragma: no cover
    main()
