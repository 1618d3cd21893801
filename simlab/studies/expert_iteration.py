"""Expert iteration (Anthony, Tian and Barber 2017): the search player learns from its own games until the answer
stops moving with skill.

Generation 0 is the search player as shipped (``settings.base``). For generation k, :func:`learn`:

1. **play**: ``settings.games`` self-play games per seating (every ordered pairing, mirrors included, and every
   rotation of the 3-player game) with generation k's search on every seat, recording positions and decisions
   (:func:`simlab.studies.learn.self_play`); the same games give each matchup's value at generation k;
2. **fit**: the value model on those positions (and a tuned level's, :func:`simlab.studies.learn.with_tuned`), its
   fit on held-out games against the 6-weight model, and the apprentice on the decisions; written as generation
   k+1's strategy files (``g{k+1}/search.toml`` scoring its horizon with ``g{k+1}/value.json``;
   ``g{k+1}/apprentice.toml``);
3. **accept**: each villain's generation k+1 against the other villains' generation k, paired on the same games
   with generation k's own (:func:`simlab.studies.learn.paired_gain`); a generation that is not stronger
   (:func:`simlab.studies.learn.accepted`) ends the loop.

After the play step of an accepted generation N, :func:`convergence` compares it with generation N-1 (issue 55's
rule) and the loop stops once it says ``settled``. A refused generation N+1 that plays as N does (:func:`equivalent`)
is the loop's fixed point: it plays its own self-play and the same rule compares it with N (:func:`fixed_point`). The
probe above the top (:func:`probe`) plays the top generation's search at four times its budget, and the shipped
``strong`` mixtures, against the top; a settled top whose 4x search still gains is still moving (:func:`with_probe`).

**Climbing the budget** (``settings.climbs``). Learning from the top's own games can reach a fixed point while more
search still gains. Once a learned generation is refused, with climbs left, the top's value model at twice its
horizon is tried as the next generation (:func:`climb_step`, the number after the refused one) by the same paired
test, and if refused, at twice its worlds. An accepted climb is the new top: it plays its self-play, the rule
compares it with the top below, and the loop learns on from its games at its budget. A top neither of whose climbs
is stronger stays the top, its verdict saying so.

Every step writes its files atomically (a temporary file, then ``os.replace``) and its JSON last, which marks it
done: an interrupted run, started again on the same folder with the same settings, goes on from the last finished
step and writes the same files. A step of paired games (accepting, climbing, the probe) also keeps each run's
finished chunks as they come, and self-play each finished seating (:func:`kept_runs`), so a resume plays only the
games not yet played. Each step's games depend on (seed, generation, step) only, not on threads or chunks.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from simlab.data.cards import VILLAIN_KEYS
from simlab.errors import InputError
from simlab.studies import learn as L

GAMES = 200  # self-play games per seating and generation
PAIRED_GAMES = 1300  # paired games per pairing for each villain's acceptance: the gain's interval about ±2 points
GENERATIONS = 3  # generations fitted at most
FEATURES = "base"  # the value model's feature set
LABELS = ("results", "search")  # what the value model is fitted to: the games' results, or the search's estimates
PROBE_GAMES = 100  # paired games per pairing of the probe above the top
PROBE_FACTOR = 4  # the probe's search budget (samples and horizon) over the top's
SETTLED_GAIN = 0.02  # issue 55, point 4: no villain's gain above 2 points ...
SETTLED_HIGH = 0.04  # ... nor the upper end of its 95% interval above 4
SETTLED_MOVE = 0.02  # every matchup's value within 2 points plus both 95% half-widths
PROBE_SUPPORTS = 0.03  # a probe gain of at most 3 points supports "converged"
CLIMBS = 0  # budget climbs at most (the loop at its defaults only learns)
# A climb's tries, in order: twice the horizon first, since twice the horizon gained the most per CPU second above
# generation 1, the shipped run's first top (reports/learning-budget/above.json), then twice its worlds (which won
# the climb from generation 4).
CLIMB_AXES = ("horizon", "samples")
TOLERANCE = 1e-12  # a boundary value (2 points exactly) is within


@dataclass(frozen=True)
class LearnSettings:
    """What a learning run plays with; every field but ``threads`` is recorded in ``settings.json`` and must be
    the same to resume a folder. ``games``: self-play games per seating; ``paired_games``: games per pairing of
    each villain's acceptance; ``generations``: generations fitted at most; ``base``: generation 0 (a search
    strategy); ``tuned_games``: tuned games per seating whose positions join each fit; ``probe_games``: games per
    pairing of the probe (0: no probe); ``retries``: a refused generation is fitted again on twice the games, up to
    this many times; ``features``: the value model's features (:data:`strategies.learned.value.FEATURE_SETS`: the
    base ones, with the key cards, or with the board too); ``climbs``: budget climbs at most once learning is
    refused (module docstring); ``labels``: what the value model is fitted to, the games' results or the search's
    own estimates of the positions (:func:`simlab.studies.learn.search_labels`)."""

    games: int = GAMES
    paired_games: int = PAIRED_GAMES
    generations: int = GENERATIONS
    seed: int = 0
    base: str = "search"
    tuned_games: int = L.TUNED_GAMES
    probe_games: int = PROBE_GAMES
    retries: int = 0
    villains: tuple[str, ...] = VILLAIN_KEYS
    features: str = FEATURES
    climbs: int = CLIMBS
    labels: str = LABELS[0]
    threads: int | None = dataclasses.field(default=None, compare=False)

    def __post_init__(self):
        from simlab.game.api import check_seed, check_villain
        from simlab.runs.levels import is_search
        from simlab.runs.settings import check_threads

        whole = lambda x: isinstance(x, int | np.integer) and not isinstance(x, bool)  # noqa: E731
        for name, low, why in (
            ("games", L.HELD_EVERY, f"every {L.HELD_EVERY}th game of a seating is held out to measure the fit"),
            ("paired_games", 2, "a paired gain's interval needs 2 games"),
            ("generations", 1, "the loop fits generation 1 at least"),
            ("tuned_games", 0, "games"),
            ("probe_games", 0, "0 plays no probe"),
            ("retries", 0, "retries"),
            ("climbs", 0, "0 climbs no budget"),
        ):
            value = getattr(self, name)
            if not whole(value) or value < low:
                flag = "-n" if name == "games" else "--" + name.replace("_", "-")
                raise InputError(f"{name} ({flag}) must be a whole number, at least {low} ({why}), got {value!r}")
        check_seed(self.seed)
        villains = tuple(self.villains)
        for v in villains:
            check_villain(v)
        if len(set(villains)) < 2 or len(set(villains)) != len(villains):
            raise InputError(f"villains must be 2 or 3 different villains of {', '.join(VILLAIN_KEYS)}, got {villains}")
        object.__setattr__(self, "villains", tuple(v for v in VILLAIN_KEYS if v in villains))
        from strategies.learned.value import FEATURE_SETS

        if self.features not in FEATURE_SETS:
            raise InputError(f"features (--features) must be one of {', '.join(FEATURE_SETS)}, got {self.features!r}")
        if self.labels not in LABELS:
            raise InputError(f"labels (--labels) must be one of {', '.join(LABELS)}, got {self.labels!r}")
        if not is_search(self.base):
            raise InputError(f"base must be a search strategy (search, or a file based on it), got {self.base!r}")
        check_threads(self.threads)

    def identity(self) -> dict:
        """The fields that decide the results (all but ``threads``), as ``settings.json`` holds them."""
        out = dataclasses.asdict(self)
        out.pop("threads")
        out["villains"] = list(self.villains)
        if out["features"] == "base":  # as runs begun before the key cards recorded it: not at all
            out.pop("features")
        if out["climbs"] == 0:  # as runs begun before climbing recorded it
            out.pop("climbs")
        if out["labels"] == LABELS[0]:  # as runs begun before the search's labels recorded it
            out.pop("labels")
        return out


def step_seed(seed: int, generation: int, step: str) -> int:
    """The seed of one step's games: from (seed, generation, step) alone."""
    tag = int.from_bytes(step.encode()[:8].ljust(8, b"\0"), "little")
    return int(np.random.SeedSequence((seed, generation, tag)).generate_state(2, np.uint64)[0] >> np.uint64(2))


# ============================================================================ files


def write_atomically(path: Path, data: bytes | str) -> None:
    """``data`` at ``path``, written to a temporary file beside it, then moved over it (``os.replace``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data.encode() if isinstance(data, str) else data)
    os.replace(tmp, path)


def write_json(path: Path, doc) -> None:
    write_atomically(path, json.dumps(doc, indent=1, default=float) + "\n")


def write_parquet(path: Path, frame: pl.DataFrame) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.write_parquet(tmp)
    os.replace(tmp, path)


def _step(path: Path, make) -> dict:
    """The finished step whose JSON is ``path``, or ``make()``'s result written there (last: the done marker); then
    the step's kept runs (:func:`kept_runs`) go."""
    if path.is_file():
        return json.loads(path.read_text())
    doc = make()
    write_json(path, doc)
    shutil.rmtree(kept_runs(path), ignore_errors=True)
    return doc


def kept_runs(path: Path) -> Path:
    """Where the step whose JSON is ``path`` keeps its games as they finish (the chunks of its paired games, each
    seating of its self-play), so an interrupted step goes on from them (``keep`` of
    :func:`simlab.studies.learn.paired_gain` and :func:`simlab.studies.learn.self_play`)."""
    return path.with_name(f".{path.stem}-runs")


LEDGER_EVERY = 30.0  # seconds between a step's writes of the CPU it has spent (a kill loses at most this much)


class CpuLedger:
    """The CPU seconds a step has spent across the processes that played it: ``cpu.json`` in its kept runs
    (:func:`kept_runs`), written as its games finish (at most every :data:`LEDGER_EVERY` seconds), read back by
    the process that resumes it, so a step resumed from kept games counts their CPU too. A step resumed from kept
    games with no ledger (kept before the ledger was, which the first report writes) says so: its CPU is a lower
    bound (``partial``)."""

    def __init__(self, kept: Path):
        self.path = kept / "cpu.json"
        found = json.loads(self.path.read_text()) if self.path.is_file() else {}
        self.earlier = float(found.get("cpu_seconds", 0.0))
        self.partial = bool(found.get("partial", False)) or (not found and kept.is_dir() and any(kept.iterdir()))
        # what was kept when the step resumed: the games the carried CPU was spent on
        self.inherited = {p.name for p in kept.iterdir() if p.name != "cpu.json"} if kept.is_dir() else set()
        self.start, self.written = time.process_time(), float("-inf")  # the first report writes it

    def spent(self) -> float:
        return self.earlier + time.process_time() - self.start

    def watch(self, progress):
        """``progress`` (a step's callback) that also writes the ledger as games finish."""

        def update(*args) -> None:
            if time.monotonic() - self.written >= LEDGER_EVERY:
                self.write()
            progress(*args)

        return update

    def discarded(self, where: Path) -> None:
        """The kept games in ``where`` (the kept runs, or one run among them) were thrown away, kept with other
        settings: the CPU the ledger carried was partly theirs, not this step's. It is dropped; the games still kept
        from before then have no count of their own, so the step's CPU is a lower bound while any is kept."""
        self.inherited = set() if where == self.path.parent else self.inherited - {where.name}
        self.earlier, self.partial = 0.0, bool(self.inherited)

    def write(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_json(self.path, {"cpu_seconds": round(self.spent(), 2), "partial": self.partial})
        self.written = time.monotonic()

    def fields(self) -> dict:
        """The step's ``cpu_seconds`` (and ``cpu_partial`` when it is a lower bound)."""
        return {"cpu_seconds": round(self.spent(), 2)} | ({"cpu_partial": True} if self.partial else {})


def open_folder(folder, settings: LearnSettings) -> Path:
    """``folder``, made, with ``settings.json``; a folder started with other settings is refused, naming them."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise InputError(f"learning folder {str(folder)!r} is a file, not a folder")
    meta = folder / "settings.json"
    wanted = settings.identity()
    if meta.is_file():
        kept = json.loads(meta.read_text())
        kept.setdefault("features", "base")  # a run begun before the key cards
        kept.setdefault("climbs", 0)  # ... or before climbing
        kept.setdefault("labels", LABELS[0])  # ... or before the search's labels
        # more generations, retries or climbs add steps after the finished ones, which they leave as they are
        # (more retries only while no refused generation has others after it: _refuse_a_retry_that_rewrites)
        asked = wanted | {"features": settings.features, "climbs": settings.climbs, "labels": settings.labels}
        grown = {k for k in EXTENDABLE if isinstance(kept.get(k), int) and asked[k] > kept[k]}
        differ = [f"{k}={kept.get(k)!r} (asked {v!r})" for k, v in asked.items() if kept.get(k) != v and k not in grown]
        if differ:
            raise InputError(
                f"learning folder {str(folder)!r} was started with other settings: {'; '.join(differ)}; "
                "resume it with the same settings (--generations, --retries and --climbs may grow), or use another "
                "folder"
            )
        if "retries" in grown:
            _refuse_a_retry_that_rewrites(folder, kept["retries"], settings.retries)
        if grown:
            write_json(meta, wanted)
    else:
        write_json(meta, wanted)
    return folder


EXTENDABLE = ("generations", "retries", "climbs")  # settings a resumed run may raise


def _generation_numbers(folder: Path) -> list[int]:
    names = (p.name for p in folder.glob("g*") if p.is_dir())
    return sorted(int(n[1:]) for n in names if n[1:].isdigit())


def _refuse_a_retry_that_rewrites(folder: Path, kept: int, asked: int) -> None:
    """More retries try again every learned generation refused at its last try, from the first: one with
    generations after it (a climb, and what was learned on from it) would be tried again under them and could
    disown them, so growing ``--retries`` is refused there."""
    numbers = _generation_numbers(folder)
    for j in numbers:
        last = folder / f"g{j}" / ("accept.json" if kept == 0 else f"accept-{kept}.json")
        if not last.is_file():
            continue
        doc = json.loads(last.read_text())
        after = [m for m in numbers if m > j]
        if doc.get("accepted") or "climb" in doc or not after:
            continue
        raise InputError(
            f"--retries {asked}: generation {j} was refused at its last try and generations {after[0]} to {after[-1]} "
            f"were played after it; a run started with --retries {asked} would try generation {j} again first and "
            f"could disown them. Resume with --retries {kept} (--generations and --climbs may grow), or start "
            "another folder"
        )


def strategy_file(folder: Path, k: int, settings: LearnSettings) -> str:
    """Generation ``k``'s search strategy: the base for 0, else ``g{k}/search.toml`` in ``folder``."""
    return settings.base if k == 0 else str(folder / f"g{k}" / "search.toml")


SEARCH_TOML = """# generation {k} of expert iteration (simlab learn): the search player scoring its horizon by the
# learned value model beside this file, fitted on generation {prev}'s self-play
name = "search-g{k}"
base = "search"
value_model = "value.json"
description = "The search player of generation {k}, its horizon scored by a value model learned from generation {prev}"

"""

APPRENTICE_TOML = """# generation {k}'s apprentice (simlab learn): fitted to generation {prev}'s search choices
name = "apprentice-g{k}"
base = "apprentice"
policy_model = "apprentice.json"
"""


Budgets = dict[str, tuple[int, int]]  # villain -> (worlds sampled, turns of horizon) of its seat


def budget(folder: Path, k: int, settings: LearnSettings) -> Budgets:
    """Generation ``k``'s search budget, each villain's seat's (a climb may give one villain more)."""
    return strategy_budget(strategy_file(folder, k, settings), settings.villains)


def strategy_budget(strategy: str, villains) -> Budgets:
    """The budget of search ``strategy`` (a name or file) in each of ``villains``' seats."""
    from strategies import resolve
    from strategies.search import budget_of

    params = resolve(strategy).params
    return {v: tuple(int(x) for x in budget_of(params, v)) for v in villains}


def budget_text(budgets: Budgets) -> str:
    """A budget as the docs write it: worlds x turns (32x4), or each villain's where they differ (G 32x4, LT 32x8)."""
    texts = {v: "{}x{}".format(*b) for v, b in budgets.items()}
    if len(set(texts.values())) == 1:
        return next(iter(texts.values()))
    return ", ".join(f"{_initials(v)} {t}" for v, t in texts.items())


def _initials(villain: str) -> str:
    return "".join(w[0].upper() for w in villain.split("-"))


def search_params(settings: LearnSettings, factor: int = 1, at: Budgets | None = None) -> dict[str, float]:
    """The base's search settings at budget ``at`` (default the base's own) times ``factor``, scoring by a learned
    model: the budget most villains have is the common one, a villain with another has its own settings."""
    from collections import Counter

    from strategies import resolve
    from strategies.search import BUDGET_VILLAINS, budget_keys

    params = dict(resolve(settings.base).params)
    if at is not None:
        shared = Counter(at.values()).most_common(1)[0][0]  # on a tie, the first villain's
        params["samples"], params["horizon"] = float(shared[0]), float(shared[1])
        for v, (worlds, turns) in at.items():
            if (worlds, turns) != shared:
                own_samples, own_horizon = budget_keys(v)
                params[own_samples], params[own_horizon] = float(worlds), float(turns)
    for own_samples, own_horizon in [("samples", "horizon"), *map(budget_keys, BUDGET_VILLAINS)]:
        if params[own_samples] >= 1:
            params[own_samples] *= factor
        if params[own_horizon] >= 0:
            params[own_horizon] *= factor
        if own_samples != "samples" and params[own_samples] == 0:  # unset: the file names only the budgets that differ
            del params[own_samples]
        if own_horizon != "horizon" and params[own_horizon] == -2:
            del params[own_horizon]
    params["value"] = 2.0
    return params


def _search_toml(k: int, params: dict, provenance: dict) -> str:
    import tomli_w

    return SEARCH_TOML.format(k=k, prev=k - 1) + tomli_w.dumps({"params": params, "provenance": provenance})


# ============================================================================ steps


class _Progress:
    """The whole run's progress in games (search games: self-play, paired), for one bar and its ETA."""

    def __init__(self, total: int, report, left=None):
        self.total, self.done, self.report, self.left = total, 0, report, left
        self.played: set[str] = set()  # the steps played here (the others are read back from the folder)

    def part(self, label: str):
        """A callback for one step: (games done in it, games planned in it). The first step played after steps
        read back sets the total to the games done and those ``left`` (a callable) at most."""
        if not self.played and self.done and self.left is not None:
            self.total = min(self.total, self.done + self.left())
        base = self.done
        self.played.add(label)

        def update(done: int, _planned: int) -> None:
            if self.report is not None:
                self.report(base + done, self.total, label)

        return update

    def note(self, label: str) -> None:
        """Say what is under way without moving the count (work outside the plan, e.g. a resumed run's replay)."""
        if self.report is not None:
            self.report(self.done, self.total, label)

    def advance(self, games: int, label: str) -> None:
        """The step ``label`` is done: its ``games`` count, and a step not played here says it was kept."""
        self.done += games
        if self.report is not None:
            self.report(self.done, self.total, label if label in self.played else f"{label}: kept")


def seating_count(villains) -> int:
    from simlab.studies.value import seatings

    return len(seatings(tuple(villains)))


def paired_count(settings: LearnSettings, games: int) -> int:
    """Games a paired comparison of every villain counts in the progress: two runs per villain and pairing (the
    incumbent's, shared by a pairing's two villains, is played once and counted twice)."""
    v = len(settings.villains)
    return 2 * games * v * (v - 1)


def play_step(folder: Path, k: int, settings: LearnSettings, bar: _Progress, attempt: int = 0) -> dict:
    """Generation ``k``'s self-play: ``g{k}/positions.parquet`` and ``decisions.parquet`` (the ``attempt``-th
    retry plays twice the games for each before it), and ``g{k}/play.json``: games, positions, decisions, CPU
    seconds per game and each matchup's value."""
    planned = settings.games * 2**attempt * seating_count(settings.villains)
    doc = _step(
        folder / f"g{k}" / f"play{_suffix(attempt)}.json", lambda: _self_play(folder, k, settings, bar, attempt)
    )
    bar.advance(planned, f"generation {k}: self-play")
    return doc


def _self_play(folder: Path, k: int, settings: LearnSettings, bar: _Progress, attempt: int) -> dict:
    """:func:`play_step`'s games, written as parquet; its JSON document returned (the step's files from seeds alone,
    so playing them again gives the same files)."""
    games = settings.games * 2**attempt
    where = folder / f"g{k}"
    planned = games * seating_count(settings.villains)
    keep = kept_runs(where / f"play{_suffix(attempt)}.json")
    ledger = CpuLedger(keep)
    positions, decisions = L.self_play(
        games,
        step_seed(settings.seed, k, "play"),
        _strategy(folder, k, settings),
        settings.villains,
        threads=settings.threads,
        decisions=True,
        progress=ledger.watch(bar.part(f"generation {k}: self-play")),
        keep=keep,
        discarded=ledger.discarded,
    )
    cpu = ledger.spent()
    write_parquet(where / f"positions{_suffix(attempt)}.parquet", positions)
    write_parquet(where / f"decisions{_suffix(attempt)}.parquet", decisions)
    return {
        "generation": k,
        "strategy": strategy_file(Path("."), k, settings),
        "games_per_seating": games,
        "games": planned,
        "positions": positions.height,
        "decisions": int(decisions.filter(pl.col("chosen")).height),
        **ledger.fields(),
        "cpu_per_game": round(cpu / planned, 4),
        "values": matchup_values(positions, settings.villains),
    }


def _has_data(where: Path, attempt: int) -> bool:
    return all((where / f"{n}{_suffix(attempt)}.parquet").is_file() for n in ("positions", "decisions"))


def _suffix(attempt: int) -> str:
    return "" if attempt == 0 else f"-{attempt}"


def _strategy(folder: Path, k: int, settings: LearnSettings) -> str:
    return strategy_file(folder, k, settings)


def matchup_values(positions: pl.DataFrame, villains) -> list[dict]:
    """Each matchup's value from self-play ``positions``: for each 2-player pairing (seatings both ways), its first
    villain's share of games won; for the 3-player game, each villain's share. 95% Wilson intervals."""
    from simlab.runs.stats import wilson

    games = positions.unique(["seating", "game", "seat"], keep="first", maintain_order=True)
    rows = []
    villains = list(villains)
    for i, a in enumerate(villains):
        for b in villains[i + 1 :]:
            part = games.filter((pl.col("seats") == 2) & pl.col("seating").is_in([f"{a}-vs-{b}", f"{b}-vs-{a}"]))
            rows.append(_value_row(f"{a}-vs-{b}", a, part.filter(pl.col("villain") == a), wilson))
    if len(villains) == 3:
        three = games.filter(pl.col("seats") == 3)
        for v in villains:
            rows.append(_value_row("-vs-".join(villains), v, three.filter(pl.col("villain") == v), wilson))
    return rows


def _value_row(matchup: str, villain: str, part: pl.DataFrame, wilson) -> dict:
    n = part.height
    won = int((part["result"] == 1.0).sum())
    low, high = wilson(won, n)
    value = won / n if n else float("nan")
    return {"matchup": matchup, "villain": villain, "value": value, "low": float(low), "high": float(high), "games": n}


def fit_step(
    folder: Path, k: int, settings: LearnSettings, fit_apprentice, fit_value, attempt: int = 0, bar=None
) -> dict:
    """Generation ``k+1`` from generation ``k``'s self-play (and, for a retry, its extra games): ``value.json``,
    ``apprentice.json``, ``search.toml``, ``apprentice.toml`` in ``g{k+1}/``, and ``fit.json``: the data, the
    value model's log-loss and Brier score on held-out games beside the 6-weight model's, the apprentice's
    agreement with the search on held-out games."""
    from simlab.runs.backend import source_commit
    from strategies import apprentice, search
    from strategies.learned import value

    src, out = folder / f"g{k}", folder / f"g{k + 1}"
    name = "fit" if attempt == 0 else f"fit-{attempt}"

    def make() -> dict:
        if not _has_data(src, attempt):
            # the data is kept out of git (tens of MB a generation): a run resumed from a fresh clone plays the same
            # games again, from the same seeds, when a fit still needs them; the play step's JSON stays as written
            if bar is not None:
                bar.note(f"generation {k}: self-play again for generation {k + 1}'s fit (its data is not in git)")
            _self_play(folder, k, settings, _Progress(0, None), attempt)
            shutil.rmtree(kept_runs(src / f"play{_suffix(attempt)}.json"), ignore_errors=True)
        t = time.process_time()
        frame = pl.read_parquet(src / f"positions{_suffix(attempt)}.parquet")
        decisions = pl.read_parquet(src / f"decisions{_suffix(attempt)}.parquet")
        train, held = L.split_games(frame)
        tuned = pl.DataFrame()
        if settings.tuned_games:
            tuned = L.positions(
                settings.tuned_games,
                step_seed(settings.seed, k, "tuned"),
                "tuned",
                villains=settings.villains,
                threads=settings.threads,
            )
            train = L.with_tuned(train, tuned)
        if settings.labels == "search":  # the tuned games' seatings match no search decision: their results stay
            train = L.search_labels(train, decisions)
        provenance = {
            "generation": k + 1,
            "data": strategy_file(Path("."), k, settings),
            "games_per_seating": settings.games * 2**attempt,
            "tuned_games_per_seating": settings.tuned_games,
            "positions": train.height,
            "seed": settings.seed,
            "commit": source_commit() or "unknown",
            "command": f"simlab learn FOLDER -n {settings.games} --seed {settings.seed}"
            + ("" if settings.features == FEATURES else f" --features {settings.features}")
            + ("" if settings.labels == LABELS[0] else f" --labels {settings.labels}"),
            "features": settings.features,
            "labels": settings.labels,
        }
        model = fit_value(train, provenance)
        quality = L.compare(model, held)
        weights, agreement = fit_apprentice(decisions)
        value.write(model, out / "value.json")
        tmp = out / ".apprentice.json.tmp"
        apprentice.write(weights, tmp, provenance)
        os.replace(tmp, out / "apprentice.json")
        at = budget(folder, k, settings)
        write_atomically(out / "search.toml", _search_toml(k + 1, search_params(settings, at=at), provenance))
        write_atomically(out / "apprentice.toml", APPRENTICE_TOML.format(k=k + 1, prev=k))
        # a retry rewrites the files of the same paths, which the players read once a process
        search.learned_model.cache_clear()
        apprentice.read.cache_clear()
        return {
            "generation": k + 1,
            "data_games": settings.games * 2**attempt * seating_count(settings.villains),
            "positions": frame.height,
            "tuned_positions": tuned.height,
            "fit": quality.to_dicts(),
            "agreement": agreement.to_dicts(),
            "cpu_seconds": round(time.process_time() - t, 2),
        }

    return _step(out / f"{name}.json", make)


def accept_step(
    folder: Path,
    k: int,
    settings: LearnSettings,
    bar: _Progress,
    attempt: int = 0,
    incumbent: int | None = None,
    climb: dict | None = None,
) -> dict:
    """Is generation ``k`` stronger than ``incumbent`` (default ``k-1``)? ``g{k}/accept.json``: each villain's paired
    gain with its 95% interval, the verdict and its reason (:func:`simlab.studies.learn.accepted`); for a climb
    (``climb``: from, axis, the villains it tries and their budgets), only the villains it tries, each climbing if
    its gain's interval lies above 0 (:func:`climbed`)."""
    name = "accept" if attempt == 0 else f"accept-{attempt}"
    planned = paired_count(settings, settings.paired_games)
    if climb is not None:  # only the villains it tries
        planned = planned * len(climb["tried"]) // len(settings.villains)
    below = k - 1 if incumbent is None else incumbent

    def make() -> dict:
        keep = kept_runs(folder / f"g{k}" / f"{name}.json")
        ledger = CpuLedger(keep)
        gains = paired_gains(
            _strategy(folder, k, settings),
            _strategy(folder, below, settings),
            settings,
            settings.paired_games,
            step_seed(settings.seed, k, "accept"),
            ledger.watch(bar.part(f"generation {k}: paired against {below}")),
            villains=None if climb is None else climb["tried"],
            keep=keep,
            discarded=ledger.discarded,
        )
        if climb is None:
            ok, why = L.accepted(gains)
        else:
            climb_doc = climb | {"villains": [v for v in gains if gains[v]["low"] > 0]}
            ok, why = climbed(gains, climb_doc["villains"])
        doc = {"generation": k, "gains": gains, "accepted": ok, "reason": why}
        if below != k - 1:
            doc["incumbent"] = below
        if climb is not None:
            doc["climb"] = climb_doc
        return doc | ledger.fields()

    doc = _step(folder / f"g{k}" / f"{name}.json", make)
    bar.advance(planned, f"generation {k}: paired against {below}")
    return doc


def climbed(gains: dict, villains: list[str]) -> tuple[bool, str]:
    """A climb try's verdict: the ``villains`` whose gain's 95% interval lies above 0 climb, each of the others
    keeping its budget (the seats are separate: one villain's budget never costs another's seat)."""
    if not villains:
        return False, "refused: no villain's gain has its 95% interval above 0"
    g = {v: {k: 100 * gains[v][k] for k in ("gain", "low", "high")} for v in villains}
    said = ", ".join(f"{v} {g[v]['gain']:+.1f}% [{g[v]['low']:+.1f}%, {g[v]['high']:+.1f}%]" for v in villains)
    return True, f"accepted for {said}"


def climb_step(
    folder: Path, top: int, k: int, settings: LearnSettings, bar: _Progress, attempt: int, earlier: list[dict]
) -> dict:
    """A try of climb generation ``k`` from the ``top``: each villain not climbed in the ``earlier`` tries at twice
    its budget along ``CLIMB_AXES[attempt]``, tried against the top in its own seat (:func:`accept_step`). The
    generation's files are the top's value model (copied) and ``search.toml`` at the budget tried, then, once any
    villain has climbed, at the budget climbed: the top's, with each climbed villain's own."""
    axis = CLIMB_AXES[attempt]
    top_budget = budget(folder, top, settings)
    won: Budgets = {}  # the villains climbed so far, at their climbed budgets
    for doc in earlier:
        won |= {v: tuple(doc["climb"]["budgets"][v]) for v in doc["climb"]["villains"]}
    tried = [v for v in settings.villains if v not in won]
    doubled = {v: (2 * w, h) if axis == "samples" else (w, 2 * h) for v, (w, h) in top_budget.items()}
    candidate = top_budget | won | {v: doubled[v] for v in tried}
    out = folder / f"g{k}"

    def write(at: Budgets, what: str) -> None:
        if top == 0:
            from strategies import resolve

            params = search_params(settings, at=at) | {"value": resolve(settings.base).params["value"]}
        else:
            params = search_params(settings, at=at)
            write_atomically(out / "value.json", (folder / f"g{top}" / "value.json").read_bytes())
        provenance = {
            "generation": k,
            "climb": f"generation {top}: {what}",
            "value_model": "search" if top == 0 else f"g{top}/value.json",  # its own provenance: data, commit, command
            "decided_by": f"g{k}/accept*.json",
            "paired_games": settings.paired_games,
            "seed": settings.seed,
        }
        text = _search_toml(k, params, provenance).replace(
            f"fitted on generation {k - 1}'s self-play", f"of generation {top}: {what}"
        )
        text = text.replace(f"learned from generation {k - 1}", f"of generation {top} at a climbed budget")
        if top == 0:
            text = text.replace('value_model = "value.json"\n', "")
        write_atomically(out / "search.toml", text)

    done = out / ("accept.json" if attempt == 0 else f"accept-{attempt}.json")
    if not done.is_file():
        write(candidate, f"{', '.join(tried)} at twice the {axis}")
    climb = {
        "from": top,
        "axis": axis,
        "tried": tried,
        "budgets": {v: list(candidate[v]) for v in settings.villains},
        "budget": budget_text({v: candidate[v] for v in tried}),
    }
    doc = accept_step(folder, k, settings, bar, attempt, incumbent=top, climb=climb)
    won |= {v: candidate[v] for v in doc["climb"]["villains"]}
    if won:  # the generation: the top with each climbed villain's budget (again on a resume: the same file)
        write(top_budget | won, "; ".join(f"{v} at {budget_text({v: b})}" for v, b in won.items()))
    return doc


def merged_climb(tries: list[dict], settings: LearnSettings, top_budget: Budgets) -> dict:
    """A climb generation's accept doc from its tries: each climbed villain's gain in the try that climbed it (a
    villain that did not climb plays as the top does: its tries are in :func:`climb_tries`), accepted when any
    villain climbed, and the budget climbed (``top_budget``, the top's, with each climbed villain's own)."""
    gains, axes = {}, {}
    for doc in tries:
        gains |= {v: doc["gains"][v] for v in doc["climb"]["villains"]}
        axes |= dict.fromkeys(doc["climb"]["villains"], doc["climb"]["axis"])
    first = tries[0]
    at = top_budget | {v: tuple(d["climb"]["budgets"][v]) for d in tries for v in d["climb"]["villains"]}
    said = "; ".join(f"{v} at twice its {a}" for v, a in axes.items())
    return {
        "generation": first["generation"],
        "gains": {v: gains[v] for v in settings.villains if v in gains},
        "accepted": bool(axes),
        "reason": f"accepted: {said}" if axes else "refused: no villain gains at twice its horizon nor its worlds",
        "incumbent": first["incumbent"],
        "climb": {"from": first["climb"]["from"], "villains": list(axes), "axes": axes, "budget": budget_text(at)},
        "cpu_seconds": round(sum(d["cpu_seconds"] for d in tries), 2),
    }


def paired_gains(
    candidate,
    incumbent,
    settings: LearnSettings,
    games: int,
    seed: int,
    report=None,
    cache=None,
    villains=None,
    keep: Path | None = None,
    label: str = "candidate",
    discarded=None,
) -> dict:
    """Each villain's (of ``villains``, default all) :func:`simlab.studies.learn.paired_gain` of ``candidate`` (a
    strategy, or villain -> one) over ``incumbent``, the incumbent's games shared between a pairing's villains (and
    with other calls given the same ``cache``); ``keep`` and ``label``: where the runs keep their finished games
    (``discarded``: called when kept games are thrown away)."""
    cache = {} if cache is None else cache
    out = {}
    each = 2 * games * (len(settings.villains) - 1)  # a villain's paired_gain: two runs per pairing
    for i, v in enumerate(villains if villains is not None else settings.villains):
        mine = candidate[v] if isinstance(candidate, dict) else candidate

        def step(n, _planned, base=i * each):
            if report is not None:
                report(base + n, 0)

        out[v] = L.paired_gain(
            v, mine, incumbent, games, seed, settings.threads, settings.villains, cache, step, keep, label, discarded
        )
    return out


# ============================================================================ the verdict


def convergence(previous: dict, top: dict) -> dict:
    """Issue 55's rule, on two generations' tables (``gains``: villain -> gain, low, high over the previous
    generation, the top's only; ``values``: rows of matchup, villain, value, low, high). The top is settled when no
    villain's gain is above 2 points nor its interval's upper end above 4, and every matchup value moved at most 2
    points plus both 95% half-widths. Returns settled, the verdict ("settled" or "still moving (±x points)", x the
    largest of the gains, their intervals' upper ends and the moves), and each check."""
    gains = []
    for villain, g in sorted(top["gains"].items()):
        ok = g["gain"] <= SETTLED_GAIN + TOLERANCE and g["high"] <= SETTLED_HIGH + TOLERANCE
        gains.append({"villain": villain, "gain": g["gain"], "high": g["high"], "ok": ok})
    before = {(r["matchup"], r["villain"]): r for r in previous["values"]}
    moves = []
    for r in top["values"]:
        p = before[(r["matchup"], r["villain"])]
        half = (r["high"] - r["low"]) / 2 + (p["high"] - p["low"]) / 2
        move = r["value"] - p["value"]
        allowed = SETTLED_MOVE + half
        moves.append({"matchup": r["matchup"], "villain": r["villain"], "move": move, "allowed": allowed})
        moves[-1]["ok"] = abs(move) <= allowed + TOLERANCE
    settled = all(g["ok"] for g in gains) and all(m["ok"] for m in moves)
    size = max([max(abs(g["gain"]), g["high"]) for g in gains] + [abs(m["move"]) for m in moves], default=0.0)
    verdict = "settled" if settled else f"still moving (±{100 * size:.1f} points)"
    return {"settled": settled, "verdict": verdict, "moved": size, "gains": gains, "values": moves}


# ============================================================================ the probe above the top

PROBE_TOML = """# the probe above generation {k} (simlab learn): generation {k}'s search at {f} times its worlds and its
# horizon, scoring its horizon as generation {k} does
name = "search-g{k}-x{f}"
base = "search"
{model}description = "The search player of generation {k} at {f} times its budget"

"""


def probe_toml(top: int, params: dict, own_model: bool) -> str:
    """The probe's search file: the ``top``'s search at :data:`PROBE_FACTOR` times its budget (``params``), reading
    the value model beside it if the top has its own (``own_model``; generation 0 scores by the shipped one)."""
    import tomli_w

    model = 'value_model = "value.json"\n' if own_model else ""
    text = PROBE_TOML.format(k=top, f=PROBE_FACTOR, model=model)
    return text + tomli_w.dumps({"params": params, "provenance": {"probe": f"{PROBE_FACTOR}x generation {top}"}})


def probe(folder: Path, top: int, settings: LearnSettings, bar: _Progress) -> dict:
    """``g{top}/probe.json``, and ``probe.json`` beside the generations: the top generation's search at
    :data:`PROBE_FACTOR` times its budget against the top, and the shipped ``strong`` mixtures against the top,
    paired, per villain (:data:`PROBE_SUPPORTS`)."""
    from simlab.runs.levels import Level

    planned = 2 * paired_count(settings, settings.probe_games)

    def make() -> dict:
        where = folder / f"g{top}"
        keep = kept_runs(where / "probe.json")
        ledger = CpuLedger(keep)
        incumbent = _strategy(folder, top, settings)
        from strategies import resolve

        params = search_params(settings, PROBE_FACTOR, at=budget(folder, top, settings))
        params["value"] = resolve(incumbent).params["value"]  # the top's own scoring
        write_atomically(where / "probe.toml", probe_toml(top, params, (where / "value.json").is_file()))
        seed = step_seed(settings.seed, top, "probe")
        cache: dict = {}  # the top's own games, played once for both comparisons

        def against_top(candidate, label: str, part: str) -> dict:
            """``candidate``'s paired gains over the top, on the probe's games, kept and ledgered with the step."""
            return paired_gains(
                candidate,
                incumbent,
                settings,
                settings.probe_games,
                seed,
                ledger.watch(bar.part(part)),
                cache,
                keep=keep,
                label=label,
                discarded=ledger.discarded,
            )

        above = against_top(str(where / "probe.toml"), "above", "probe")
        strong = {}
        try:
            strong = against_top({v: Level("strong").strategy(v) for v in settings.villains}, "strong", "probe: strong")
        except InputError as exc:
            strong = {"missing": str(exc)}
        supports = all(g["gain"] <= PROBE_SUPPORTS + TOLERANCE for g in above.values())
        return {
            "top": top,
            "factor": PROBE_FACTOR,
            "above": above,
            "strong": strong,
            "supports_converged": supports,
            **ledger.fields(),
        }

    own, kept = folder / f"g{top}" / "probe.json", folder / "probe.json"
    if not own.is_file() and kept.is_file() and json.loads(kept.read_text()).get("top") == top:
        doc = json.loads(kept.read_text())  # a run from before each top kept its own probe
    else:
        doc = _step(own, make)  # a climb's new top is probed again; the probe below it stays in its folder
        write_json(kept, doc)
    bar.advance(planned, "probe")
    return doc


# ============================================================================ the loop


@dataclass
class LearnResult:
    """A learning run: its folder, the table per generation, the verdict and the probe (None when not played)."""

    folder: Path
    table: pl.DataFrame
    verdict: dict
    probe: dict | None
    doc: dict


def planned_stages(settings: LearnSettings) -> list[tuple[str, int, int]]:
    """The search games the whole run plays at most, as (stage, games, players): every generation's self-play,
    every generation's paired trial, every retry of each (twice the self-play games of the one before it), the
    climbs and the probe. The plan line (:func:`simlab.studies.workload.learn`) and the progress total count these."""
    two, three, paired, again = _stage_units(settings)
    rounds = settings.generations + 1
    return [
        ("self-play", rounds * two, 2),
        ("self-play, 3 players", rounds * three, 3),
        ("paired trials", settings.generations * paired, 2),
        ("retries", settings.generations * (again * (two + three) + settings.retries * paired), 2),
        ("climbs", settings.climbs * len(CLIMB_AXES) * paired, 2),
        ("probe", 2 * paired_count(settings, settings.probe_games), 2),
    ]


def _stage_units(settings: LearnSettings) -> tuple[int, int, int, int]:
    """What the plans count in: a self-play's 2-player and 3-player games, a paired trial's games, and every retry's
    self-play together, in self-plays (each retry plays twice the games of the one before it)."""
    from simlab.studies.value import seatings

    seats = seatings(tuple(settings.villains))
    two = sum(len(s) == 2 for s in seats) * settings.games
    three = (len(seats) * settings.games) - two
    again = sum(2**a for a in range(1, settings.retries + 1))
    return two, three, paired_count(settings, settings.paired_games), again


def planned_games(settings: LearnSettings) -> int:
    """The progress total: every game :func:`planned_stages` counts."""
    return sum(games for _, games, _ in planned_stages(settings))


def stages_left(settings: LearnSettings, folder) -> list[tuple[str, int, int]]:
    """The search games a run resumed on ``folder`` can still play at most, stage by stage as
    :func:`planned_stages` names them, from its finished steps: what the highest generation begun (``m``) has not
    finished (its self-play; its tries left), then each generation number up to ``settings.generations`` at the
    dearer of a learned generation (self-play, every try and retry) and a climb (self-play, a try per axis), and
    the probe unless the top, and every generation that may yet become it, has played its own. A run that has
    gone far thus plans what it can still play, not the whole run's bound less the games done."""
    folder = Path(folder)
    two, three, paired, retry_play = _stage_units(settings)
    begun = [k for k in _generation_numbers(folder) if any((folder / f"g{k}").glob("*.json"))]
    m = max(begun, default=0)
    docs = {k: _accept_docs(folder / f"g{k}") for k in begun}
    top = max((k for k, d in docs.items() if any(a["accepted"] for a in d)), default=0)
    climbs_left = settings.climbs - sum(1 for d in docs.values() if any("climb" in a and a["accepted"] for a in d))
    trials, again, tries = 0, 0, 0  # paired trials; retries' self-play (in settings.games a seating); climb tries
    tried = docs.get(m, [])
    if tried and "climb" in tried[0]:  # a climb tries each axis until every villain has climbed
        climbed_here = {v for a in tried for v in a["climb"]["villains"]}
        if len(climbed_here) < len(settings.villains):
            tries += len(CLIMB_AXES) - len(tried)
    elif m > 0 and not any(a["accepted"] for a in tried):
        for a in range(len(tried), settings.retries + 1):
            trials += 1
            again += 2**a if a else 0
    ended = m > 0 and not (tries or trials) and not any(a["accepted"] for a in tried)  # refused at its last try
    plays = not ended or ("climb" not in tried[-1] and equivalent(tried[-1]["gains"]))  # as the fixed point
    play = int(plays and not (folder / f"g{m}" / "play.json").is_file())  # self-plays, in settings.games a seating
    candidates = {top} | ({m} if tries or trials else set())  # the generations the probe may yet be played for
    # generation numbers still open: none once a refused generation leaves no climb (or a climb is refused)
    ahead = 0 if ended and (climbs_left <= 0 or "climb" in tried[-1]) else max(0, settings.generations - m)
    learned = (settings.retries + 1) * paired + retry_play * (two + three)
    play += ahead
    if climbs_left > 0 and len(CLIMB_AXES) * paired > learned:
        tries += ahead * len(CLIMB_AXES)
    else:
        trials += ahead * (settings.retries + 1)
        again += ahead * retry_play
    probed = not ahead and all((folder / f"g{k}" / "probe.json").is_file() for k in candidates)
    return [
        ("self-play", play * two, 2),
        ("self-play, 3 players", play * three, 3),
        ("paired trials", trials * paired, 2),
        ("retries", again * (two + three), 2),
        ("climbs", tries * paired, 2),
        ("probe", 0 if probed else 2 * paired_count(settings, settings.probe_games), 2),
    ]


def _accept_docs(where: Path) -> list[dict]:
    """A generation's finished tries (``accept.json``, ``accept-1.json``, ...), in the order they were made."""
    return [json.loads(p.read_text()) for p in sorted(where.glob("accept*.json"), key=_attempt_order)]


def learn(folder, settings: LearnSettings, fit_apprentice=None, progress=None, fit_value=None) -> LearnResult:
    """Expert iteration in ``folder`` with ``settings`` (module docstring): checkpointed step by step, resumed from
    the last finished step. ``fit_apprentice`` (decisions -> (weights, agreement); default
    :func:`simlab.studies.learn.apprentice_step`) and ``fit_value`` (positions, provenance -> a value model; default
    :func:`simlab.studies.learn.fit_value`) are the fits; ``progress`` is called with (games done, games planned,
    what is under way). Writes ``learning.json``, ``learning.parquet`` and ``verdict.json``; returns them."""
    from simlab.game import warmup
    from strategies import KERNELS

    fit_apprentice = fit_apprentice or L.apprentice_step
    target = "label" if settings.labels == "search" else "result"
    fit_value = fit_value or functools.partial(L.fit_value, features=settings.features, target=target)
    warmup.ensure_players({KERNELS["search"], KERNELS["apprentice"]})  # compiling is no step's CPU time
    folder = open_folder(folder, settings)
    bar = _Progress(planned_games(settings), progress, lambda: sum(g for _, g, _ in stages_left(settings, folder)))
    first = budget_text(budget(folder, 0, settings))
    gens: list[dict] = [{"generation": 0, "strategy": settings.base, "budget": first}]
    by_number = {0: gens[0]}
    verdict: dict = {"settled": False, "verdict": "still moving", "top": 0, "reason": ""}
    k, below, climbed = 0, None, 0  # the top, the accepted generation below it, the climbs accepted
    while True:
        by_number[k]["play"] = play_step(folder, k, settings, bar)
        if below is not None:
            verdict = convergence(_table(by_number[below]), _table(by_number[k])) | {"top": k, "reason": ""}
            if verdict["settled"] or k >= settings.generations:
                if not verdict["settled"]:
                    verdict["reason"] = f"stopped after {k} generations (--generations)"
                break
        entry = _next(folder, k, settings, bar, fit_apprentice, fit_value)
        gens.append(entry)
        by_number[k + 1] = entry
        if entry["accept"]["accepted"]:
            below, k = k, k + 1
            continue
        verdict = fixed_point(folder, k, settings, bar, by_number[k], entry, verdict)
        if climbed >= settings.climbs:
            break
        if k + 2 > settings.generations:
            verdict["reason"] += f"; no climb: generation {k + 2} is past --generations"
            break
        step = _climb(folder, k, settings, bar)
        gens.append(step)
        by_number[k + 2] = step
        if not step["accept"]["accepted"]:
            tried = " nor ".join(f"twice its {a}" for a in CLIMB_AXES)
            verdict["reason"] += f"; climbing refused: no villain of generation {k} at {tried} is stronger"
            break
        climbed += 1
        below, k = k, k + 2
    result_probe = probe(folder, verdict["top"], settings, bar) if settings.probe_games else None
    return _write_summary(folder, settings, gens, with_probe(verdict, result_probe), result_probe)


# LearnSettings field -> the option of simlab learn that sets it: the command that resumes a run names them
OPTIONS = {
    "games": "-n",
    "paired_games": "--paired-games",
    "generations": "--generations",
    "probe_games": "--probe-games",
    "tuned_games": "--tuned-games",
    "retries": "--retries",
    "climbs": "--climbs",
    "base": "--base",
    "features": "--features",
    "labels": "--labels",
    "villains": "--villains",
    "seed": "--seed",
}


def go_on(folder, settings: LearnSettings, verdict: dict) -> dict | None:
    """What a run that ended still moving can do next: the settings to resume it with (only ``generations`` and
    ``climbs`` grow, which a resume allows), the command, and the search games that resume can still play at most
    (:func:`stages_left`); the command times them (the plan's rates, at the top's cost a game). A run stopped by
    ``--generations`` goes on learning; one whose learning was refused climbs the top's budget (one climb more,
    room for it in ``--generations``). None for a settled run, and for one whose climb was refused (twice the
    horizon nor the worlds gained for any villain: the loop has nothing left to try)."""
    if verdict.get("settled") or "climbing refused" in verdict.get("reason", ""):
        return None
    folder, top = Path(folder), int(verdict["top"])
    if "(--generations)" in verdict.get("reason", ""):
        changes = {"generations": settings.generations + 1}
    else:
        docs = [_accept_docs(folder / f"g{k}") for k in _generation_numbers(folder)]
        climbed = sum(1 for tries in docs if any("climb" in a and a["accepted"] for a in tries))  # as stages_left
        changes = {"climbs": max(settings.climbs, climbed + 1), "generations": max(settings.generations, top + 2)}
    resumed = dataclasses.replace(settings, **changes)
    default = LearnSettings()
    words = [f"simlab learn {folder}"]
    for field, option in OPTIONS.items():
        value = getattr(resumed, field)
        if value != getattr(default, field):
            words.append(f"{option} {','.join(value) if field == 'villains' else value}")
    games = sum(g for _, g, _ in stages_left(resumed, folder))
    return {"settings": changes, "command": " ".join(words), "games": games, "resumed": resumed}


def _refused_verdict(verdict: dict, k: int) -> str:
    if k == 0:
        return "still moving (generation 1 refused: no stronger generation found)"
    return verdict["verdict"] + f"; generation {k + 1} refused"


def equivalent(gains: dict) -> bool:
    """Whether a generation plays as its predecessor does, by each villain's paired gain over it: no gain nor loss
    above :data:`SETTLED_GAIN`, every interval inside ±:data:`SETTLED_HIGH`. (A much weaker generation is not: it
    says the fit failed, not that learning has nothing left to find.)"""
    return bool(gains) and all(
        abs(g["gain"]) <= SETTLED_GAIN + TOLERANCE
        and g["high"] <= SETTLED_HIGH + TOLERANCE
        and g["low"] >= -SETTLED_HIGH - TOLERANCE
        for g in gains.values()
    )


def fixed_point(folder: Path, k: int, settings: LearnSettings, bar, top: dict, entry: dict, verdict: dict) -> dict:
    """The verdict on generation ``k`` once generation k+1 (``entry``) is refused. Refused but :func:`equivalent`
    (learning from k's own games found a player neither stronger nor weaker), k+1 plays its self-play and
    :func:`convergence` compares its answers with k's: both holding, generation k is **settled**, the loop's fixed
    point, since a further generation gains no more than issue 55's rule allows and gives the same answers.
    Otherwise still moving, by that comparison's measure (or, not equivalent, the last one's)."""
    reason = f"generation {k + 1} {entry['accept']['reason']}"
    if not equivalent(entry["accept"]["gains"]):
        return {"settled": False, "verdict": _refused_verdict(verdict, k), "top": k, "reason": reason}
    entry["play"] = play_step(folder, k + 1, settings, bar)
    check = convergence(_table(top), _table(entry))
    said = "gives the same answers: the loop's fixed point" if check["settled"] else "gives other answers"
    return check | {"top": k, "reason": f"{reason}; it plays as generation {k} does and {said}"}


def with_probe(verdict: dict, probe_doc: dict | None) -> dict:
    """``verdict`` with the probe above the top beside it: a settled top whose 4x search still gains more than
    :data:`PROBE_SUPPORTS` for a villain, its interval above 0, is still moving by that gain, since more skill
    moves the answer."""
    if not verdict["settled"] or not probe_doc or not isinstance(probe_doc.get("above"), dict):
        return verdict
    beyond = {v: g for v, g in probe_doc["above"].items() if g["gain"] > PROBE_SUPPORTS + TOLERANCE and g["low"] > 0}
    if not beyond:
        return verdict
    size = max(g["gain"] for g in beyond.values())
    said = ", ".join(f"{v} {100 * g['gain']:+.1f} points" for v, g in beyond.items())
    return verdict | {
        "settled": False,
        "verdict": f"still moving (±{100 * size:.1f} points)",
        "reason": f"{verdict['reason']}; but its search at {PROBE_FACTOR}x the budget still gains: {said}".lstrip("; "),
    }


def _climb(folder, k, settings, bar) -> dict:
    """Generation k+2: each villain of the top ``k`` at twice its horizon, and each that does not gain there at
    twice its worlds (:func:`climb_step`), until every villain has climbed or every axis is tried."""
    tries: list[dict] = []
    for attempt in range(len(CLIMB_AXES)):
        tries.append(climb_step(folder, k, k + 2, settings, bar, attempt, tries))
        if len({v for d in tries for v in d["climb"]["villains"]}) == len(settings.villains):
            break
    accept = merged_climb(tries, settings, budget(folder, k, settings))
    return {
        "generation": k + 2,
        "strategy": f"g{k + 2}/search.toml",
        "budget": accept["climb"]["budget"],
        "accept": accept,
        "attempts": len(tries),
    }


def _next(folder, k, settings, bar, fit_apprentice, fit_value) -> dict:
    """Generation k+1 fitted and tried, again on more of generation k's games while refused and retries remain."""
    for attempt in range(settings.retries + 1):
        if attempt:
            play_step(folder, k, settings, bar, attempt)
        fit = fit_step(folder, k, settings, fit_apprentice, fit_value, attempt, bar)
        accept = accept_step(folder, k + 1, settings, bar, attempt)
        if accept["accepted"]:
            break
    return {
        "generation": k + 1,
        "strategy": f"g{k + 1}/search.toml",
        "budget": budget_text(budget(folder, k + 1, settings)),
        "fit": fit,
        "accept": accept,
        "attempts": attempt + 1,
    }


def _table(entry: dict) -> dict:
    return {"gains": entry.get("accept", {}).get("gains", {}), "values": entry["play"]["values"]}


def _write_summary(folder: Path, settings: LearnSettings, gens: list[dict], verdict: dict, probe_doc) -> LearnResult:
    table = learning_table(gens)
    doc = {"settings": settings.identity(), "generations": gens, "verdict": verdict, "probe": probe_doc}
    write_json(folder / "learning.json", doc)
    write_parquet(folder / "learning.parquet", table)
    write_json(folder / "verdict.json", verdict | {"probe": probe_doc})
    return LearnResult(folder, table, verdict, probe_doc, doc)


def learning_table(gens: list[dict]) -> pl.DataFrame:
    """One row per generation: data games and positions of its fit, its fit quality (log-loss, Brier) beside the
    6-weight model's, whether it was accepted, each villain's paired gain over the previous generation, each
    matchup's value and the 3-player shares (its own self-play), CPU seconds per self-play game."""
    rows = []
    for g in gens:
        row: dict = {"generation": g["generation"], "strategy": g["strategy"], "budget": g.get("budget")}
        fit = g.get("fit")
        row["data_games"] = fit["data_games"] if fit else None
        row["positions"] = fit["positions"] + fit["tuned_positions"] if fit else None
        quality = {r["model"]: r for r in fit["fit"]} if fit else {}
        for model, short in (("learned", "learned"), ("6-weight", "six_weight")):
            row[f"{short}_log_loss"] = quality.get(model, {}).get("log_loss")
            row[f"{short}_brier"] = quality.get(model, {}).get("brier")
        accept = g.get("accept")
        row["accepted"] = accept["accepted"] if accept else None
        for v, gain in (accept or {}).get("gains", {}).items():
            row |= {f"gain {v}": gain["gain"], f"gain {v} low": gain["low"], f"gain {v} high": gain["high"]}
        play = g.get("play")
        for r in (play or {}).get("values", []):
            key = f"{r['matchup']} {r['villain']}"
            row |= {key: r["value"], f"{key} low": r["low"], f"{key} high": r["high"]}
        row["cpu_per_game"] = play["cpu_per_game"] if play else None
        rows.append(row)
    return pl.DataFrame(rows, infer_schema_length=None)


def read_generations(folder) -> list[dict]:
    """The generations of the run in ``folder`` as its step files hold them so far (as :func:`learn` gathers them:
    generation, strategy, and the play, fit and accept steps it has; a retried generation's last try; a climb's tries
    merged, :func:`merged_climb`), for a table of a run still under way or stopped (:func:`learning_table`)."""
    folder = Path(folder)
    meta = folder / "settings.json"
    kept = json.loads(meta.read_text()) if meta.is_file() else {}
    settings = LearnSettings(base=kept.get("base", "search"), villains=tuple(kept.get("villains", VILLAIN_KEYS)))
    base = settings.base
    gens = []
    for k in range(64):
        where = folder / f"g{k}"
        entry: dict = {"generation": k, "strategy": base if k == 0 else f"g{k}/search.toml"}
        if k == 0 or (where / "search.toml").is_file():
            entry["budget"] = budget_text(budget(folder, k, settings))
        for step in ("play", "fit", "accept"):
            # a generation's values are its own self-play (play.json); a retry's play-N.json is data for the next fit
            pattern = "play.json" if step == "play" else f"{step}*.json"
            tries = sorted(where.glob(pattern), key=_attempt_order)
            if tries:
                entry[step] = json.loads(tries[-1].read_text())
        if not {"play", "fit", "accept"} & set(entry):
            break
        entry["attempts"] = len(list(where.glob("fit*.json"))) or len(list(where.glob("accept*.json"))) or None
        if "climb" in entry.get("accept", {}):  # its tries as one, whichever try the strategy file holds now
            climb = entry["accept"]["climb"]
            entry["accept"] = merged_climb(_climb_docs(where), settings, budget(folder, climb["from"], settings))
            entry["budget"] = entry["accept"]["climb"]["budget"]
        gens.append(entry)
    return gens


STEP_FILES = ("play*", "fit*", "accept*", "probe")  # a generation's step files; its models' files hold no CPU time


def _step_docs(folder: Path) -> list[dict]:
    """Every finished step's document of the run in ``folder``, each once (a run from before each top kept its own
    probe has it beside the generations only)."""
    docs = [json.loads(p.read_text()) for step in STEP_FILES for p in sorted(folder.glob(f"g*/{step}.json"))]
    kept = folder / "probe.json"
    if kept.is_file():
        doc = json.loads(kept.read_text())
        if not (folder / f"g{doc.get('top')}" / "probe.json").is_file():
            docs.append(doc)
    return docs


def cpu_seconds(folder) -> float:
    """The CPU seconds every finished step of the run in ``folder`` took, as its step files record them (the self-play,
    fits, paired games and probes; compiling is in none)."""
    return sum(float(doc.get("cpu_seconds", 0.0)) for doc in _step_docs(Path(folder)))


def cpu_partial(folder) -> bool:
    """Whether a finished step's CPU is a lower bound (:class:`CpuLedger`)."""
    return any(doc.get("cpu_partial") for doc in _step_docs(Path(folder)))


def learning_markdown(folder) -> str:
    """The run in ``folder`` as the docs show it: a table of each generation's data, fit and paired gains, a table
    of each generation's values, and the verdict (or that the run is under way)."""
    from simlab.runs.stats import interval_text

    folder = Path(folder)
    gens = read_generations(folder)
    if not gens:
        return f"No learning run in `{folder.name}` yet: `simlab learn` makes one."
    villains = json.loads((folder / "settings.json").read_text())["villains"]
    short = {v: _initials(v) for v in villains}

    def gain(g: dict, v: str) -> str:
        x = g.get("accept", {}).get("gains", {}).get(v)
        return interval_text(x["gain"], x["low"], x["high"], "+") if x else ""

    head = ["generation", "budget", "data games", "positions", "log-loss (6-weight)", "Brier (6-weight)", "accepted"]
    head += [f"gain {short[v]}" for v in villains] + ["CPU s a game"]
    rows = []
    for g in gens:
        fit = {r["model"]: r for r in g.get("fit", {}).get("fit", [])}
        f = g.get("fit")
        accepted = {True: "yes", False: "refused"}.get(g.get("accept", {}).get("accepted"), "")
        climb = g.get("accept", {}).get("climb")
        cells = [str(g["generation"]), g.get("budget", "") + (f" (climb from {climb['from']})" if climb else "")]
        cells += [f"{f['data_games']:,}", f"{f['positions'] + f['tuned_positions']:,}"] if f else ["", ""]
        cells += [f"{fit['learned'][k]:.4f} ({fit['6-weight'][k]:.4f})" if fit else "" for k in ("log_loss", "brier")]
        cells += [accepted, *(gain(g, v) for v in villains)]
        partial = " (at least)" if g.get("play", {}).get("cpu_partial") else ""
        cells.append(f"{g['play']['cpu_per_game']:.3f}{partial}" if "play" in g else "")
        rows.append(cells)
    played = [g for g in gens if "play" in g]
    keys = [(r["matchup"], r["villain"]) for r in played[0]["play"]["values"]] if played else []

    def label(m: str, v: str) -> str:
        parts = m.split("-vs-")
        return f"3p {short[v]}" if len(parts) == 3 else "–".join(short[p] for p in parts)

    values = []
    for g in played:
        own = {(r["matchup"], r["villain"]): r for r in g["play"]["values"]}
        name = f"{g['generation']} (refused)" if g.get("accept", {}).get("accepted") is False else str(g["generation"])
        values.append([name] + [interval_text(*(own[k][x] for x in ("value", "low", "high"))) for k in keys])
    done = folder / "verdict.json"
    top = max(rung_generations(folder), default=0)
    v = json.loads(done.read_text()) if done.is_file() else {}
    if v and v["top"] == top and not _resumed_since(folder):
        said = f"Top generation {v['top']}: **{v['verdict']}**" + (f" ({v['reason']})." if v.get("reason") else ".")
    else:
        said = f"The run is under way: generation {top} is the top played so far"
        said += f" (the verdict on generation {v['top']} was **{v['verdict']}**)." if v else "."
    cpu = cpu_seconds(folder)
    some = " at least" if cpu_partial(folder) else ""
    said += (
        f" Its finished steps took{some} {cpu / 3600:.1f} CPU hours, about {cpu / 7200:.1f} hours on two cores"
        " (compiling excluded"
        + (
            "; a step resumed from games kept before their CPU was recorded counts only what it played after"
            if some
            else ""
        )
        + ")."
    )
    parts = [
        _markdown(head, rows),
        "Each generation's value on its own self-play games (the first villain's win rate; 3p: each villain's "
        "share of the 3-player game), 95% intervals:",
        _markdown(["generation", *(label(m, v) for m, v in keys)], values),
    ]
    climbs = climb_tries(folder)
    if climbs:
        parts.append(
            "Each climb tried, against the top it climbed from, paired (gains in points, 95% intervals; a villain "
            "that climbs is tried no further):"
        )
        head = ["generation", "from", "budget tried", "climbed", *(f"gain {short[v]}" for v in villains)]
        cells = [
            [str(c["generation"]), str(c["climb"]["from"]), c["climb"]["budget"]]
            + [_climbed(c["climb"]["villains"], short), *(gain({"accept": c}, v) for v in villains)]
            for c in climbs
        ]
        parts.append(_markdown(head, cells))
    return "\n\n".join([*parts, said, *_probe_markdown(folder, villains, short)])


def _resumed_since(folder: Path) -> bool:
    """Whether the run was resumed with more steps (``--generations``, ``--retries``, ``--climbs`` grown) after its
    last verdict: the folder's settings differ from those the summary (``learning.json``) was written with."""
    summary, settings = folder / "learning.json", folder / "settings.json"
    if not (summary.is_file() and settings.is_file()):
        return False
    return json.loads(summary.read_text()).get("settings") != json.loads(settings.read_text())


def probe_players(doc: dict) -> list[tuple[str, dict]]:
    """The players of a probe document (``probe.json``) against the top, named, each with its gains by villain (or
    ``missing``): the top's search at the probe's budget, then the ``strong`` mixtures."""
    return [(f"{doc['factor']}x budget", doc["above"]), ("strong mixture", doc["strong"])]


def _probe_markdown(folder: Path, villains: list[str], short: dict[str, str]) -> list[str]:
    """The probe above the top (``probe.json``) as the docs show it: a sentence and a table of each villain's gain,
    the 4x-budget search's and the ``strong`` mixture's, against the top."""
    from simlab.runs.stats import interval_text

    path = folder / "probe.json"
    if not path.is_file():
        return []
    doc = json.loads(path.read_text())
    rows = []
    for what, gains in probe_players(doc):
        if "missing" in gains:
            rows.append([what, *(["-"] * len(villains))])
            continue
        rows.append(
            [
                what,
                *(interval_text(g["gain"], g["low"], g["high"], "+") if (g := gains.get(v)) else "" for v in villains),
            ]
        )
    games = sorted(
        {g["games"] for gains in (doc["above"], doc["strong"]) for g in gains.values() if isinstance(g, dict)}
    )
    word = "supports" if doc["supports_converged"] else "does not support"
    said = (
        f"The probe above generation {doc['top']}, each villain's seat against the top on every other seat, paired "
        f"({' or '.join(f'{n:,}' for n in games)} games a villain, 95% intervals; "
        f"{doc['cpu_seconds'] / 3600:.1f} CPU hours). "
        f'The {doc["factor"]}x-budget search {word} "settled" (a gain of at most '
        f"{100 * PROBE_SUPPORTS:.0f} points for every villain):"
    )
    return [said, _markdown(["player against the top", *(f"gain {short[v]}" for v in villains)], rows)]


def _climbed(villains: list[str], short: dict[str, str]) -> str:
    return ", ".join(short[v] for v in villains) or "none"


def rung_generations(folder) -> list[int]:
    """The generations of the run in ``folder`` that are rungs of the skill trace: generation 0 and each accepted
    one (a climb in which any villain climbed, a retry that was accepted) that has played its self-play. A refused
    generation is none, even one that played as the loop's fixed point test, but a climb above it may be."""
    folder = Path(folder)
    out = []
    for k in range(64):
        where = folder / f"g{k}"
        if not where.is_dir():
            break
        accepted = any(json.loads(p.read_text()).get("accepted") for p in where.glob("accept*.json"))
        if (where / "play.json").is_file() and (k == 0 or accepted):
            out.append(k)
        elif k == 0:
            break
    return out


def climb_tries(folder) -> list[dict]:
    """Every climb the run in ``folder`` has tried so far, in order: each try's accept step (generation, gains,
    accepted, reason, and what it climbed: from, axis, budget)."""
    folder = Path(folder)
    return [doc for k in _generation_numbers(folder) for doc in _climb_docs(folder / f"g{k}")]


def _climb_docs(where: Path) -> list[dict]:
    """The climb tries in one generation's folder, in the order they were tried."""
    return [doc for doc in _accept_docs(where) if "climb" in doc]


def _attempt_order(path: Path):
    """A step's tries in the order they were made: ``accept``, ``accept-1``, ... ``accept-10``."""
    return len(path.stem), path.stem


def _markdown(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])
