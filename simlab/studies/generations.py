"""The learning run's generations as the top rungs of the skill trace (issue 55, point 6).

``simlab learn`` (:mod:`simlab.studies.expert_iteration`) measures every accepted generation's value on its own
self-play games: each 2-player matchup's first villain's win rate and each villain's share of the 3-player game,
with 95% intervals, generation k's search on every seat. Those values are the rungs "search g0" (the search player
as shipped) to "search gN" above ``strong``, read from the shipped run (``reports/learning``) rather than played
again, so the report, ``difficulty`` and the README show the same numbers. The top rung carries one word:
**settled** when the run's convergence rule holds, else **still moving (±x points)**: x the largest gain or move
that rule measured between the top two generations, or, while generation 0 is the top, the largest move from the
rung below it.

The run was played under the shipped rules and cards: under other rules or edits there are no generation rungs.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import polars as pl

LEARNING = Path(__file__).resolve().parents[2] / "reports" / "learning"  # the shipped learning run
# the six questions asked at the learned level alone (simlab difficulty --level novice --level learned --json)
TOP_VERDICTS = LEARNING.parent / "difficulty-top" / "difficulty.json"
TRACE_COLUMNS = ("matchup", "villain", "level", "games", "rate", "low", "high")


def rung_name(k: int) -> str:
    """The skill trace's name for generation ``k``."""
    return f"search g{k}"


@dataclass(frozen=True)
class Rungs:
    """The generations of a learning run as skill-trace rows (:data:`TRACE_COLUMNS`, level ``search gK``)."""

    trace: pl.DataFrame
    top: int  # the top generation
    settled: bool  # the run's convergence rule holds at the top
    verdict: str  # "settled", "still moving (±x points)", or "still moving" while generation 0 is the top
    under_way: bool  # the run has not written its verdict yet
    folder: Path

    @property
    def top_level(self) -> str:
        return rung_name(self.top)


def _read(path: Path) -> dict | None:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def _accepted(where: Path) -> dict | None:
    """The accept step of a generation that was accepted (a retry's, when the first try was refused)."""
    tries = sorted(where.glob("accept*.json"))
    for path in tries:
        doc = _read(path)
        if doc and doc.get("accepted"):
            return doc
    return None


def read_rungs(folder: Path | str | None = None) -> Rungs | None:
    """The generation rungs of the learning run in ``folder`` (default the shipped one); None without one."""
    from simlab.studies.expert_iteration import convergence, rung_generations

    folder = Path(folder) if folder is not None else LEARNING
    plays = {k: _read(folder / f"g{k}" / "play.json") for k in rung_generations(folder)}
    if not plays:
        return None
    rows = [
        {
            "matchup": r["matchup"],
            "villain": r["villain"],
            "level": rung_name(k),
            "games": int(r["games"]),
            "rate": float(r["value"]),
            "low": float(r["low"]),
            "high": float(r["high"]),
        }
        for k, doc in plays.items()
        for r in doc["values"]
    ]
    numbers = sorted(plays)
    top = numbers[-1]
    done = _read(folder / "verdict.json")
    if done is not None and done.get("top") == top:
        settled, verdict = bool(done["settled"]), str(done["verdict"])
    elif top == 0:
        settled, verdict = False, "still moving"
    else:
        accept = _accepted(folder / f"g{top}") or {"gains": {}}
        previous = plays[numbers[-2]]["values"]
        got = convergence({"gains": {}, "values": previous}, {**accept, "values": plays[top]["values"]})
        settled, verdict = got["settled"], got["verdict"]
    if verdict.startswith("still moving ("):
        verdict = verdict.split(";")[0]  # the measure of the move; why the run stopped is in its own files
    trace = pl.DataFrame(rows, schema=dict.fromkeys(TRACE_COLUMNS[:3], pl.String) | _numbers())
    under_way = done is None or done.get("top") != top  # a verdict on a lower top: a climb above it is under way
    return Rungs(trace, top, settled, verdict, under_way, folder)


def _numbers() -> dict:
    return {"games": pl.Int64, "rate": pl.Float64, "low": pl.Float64, "high": pl.Float64}


def oriented(rungs: Rungs, matchup: str) -> pl.DataFrame:
    """The rungs of ``matchup`` as the skill trace names it: a 2-player matchup's first villain's win rate (the run
    names each pairing in its own order; the other order is the complement), a 3-player game's every share."""
    villains = matchup.split("-vs-")
    t = rungs.trace
    if len(villains) == 3:
        got = t.filter(pl.col("matchup").str.split("-vs-").list.len() == 3)
        return got.with_columns(matchup=pl.lit(matchup)).filter(pl.col("villain").is_in(villains))
    a, b = villains
    same = t.filter((pl.col("matchup") == f"{a}-vs-{b}") & (pl.col("villain") == a))
    if same.height:
        return same
    other = t.filter((pl.col("matchup") == f"{b}-vs-{a}") & (pl.col("villain") == b))
    return other.select(
        pl.lit(matchup).alias("matchup"),
        pl.lit(a).alias("villain"),
        "level",
        "games",
        (1 - pl.col("rate")).alias("rate"),
        (1 - pl.col("high")).alias("low"),
        (1 - pl.col("low")).alias("high"),
    )


def top_word(rungs: Rungs, trace: pl.DataFrame) -> str:
    """The top rung's one word: the run's own verdict, or, while generation 0 is the top, "still moving (±x
    points)" with x the largest move of any row of ``trace`` (a skill trace holding the rungs) from the rung just
    below generation 0."""
    if rungs.settled or rungs.top > 0 or rungs.verdict != "still moving":
        return rungs.verdict
    levels = list(dict.fromkeys(trace["level"]))
    at = levels.index(rungs.top_level) if rungs.top_level in levels else 0
    if at == 0:
        return rungs.verdict
    below = levels[at - 1]
    key = ["matchup", "villain"]
    top = trace.filter(pl.col("level") == rungs.top_level).select(*key, "rate")
    under = trace.filter(pl.col("level") == below).select(*key, pl.col("rate").alias("under"))
    moves = top.join(under, on=key).select((pl.col("rate") - pl.col("under")).abs()).to_series()
    if moves.is_empty():
        return rungs.verdict
    return f"still moving (±{100 * float(moves.max()):.1f} points)"


def rungs_note(rungs: Rungs | None) -> str:
    """One clause on where the generation rungs come from (empty without them)."""
    if rungs is None:
        return ""
    two = rungs.trace.filter((pl.col("level") == rungs.top_level) & (pl.col("matchup").str.count_matches("-vs-") == 1))
    games = int(two["games"].max() or 0)
    span = rung_name(0) if rungs.top == 0 else f"{rung_name(0)} to {rungs.top_level}"
    state = "; the run is under way" if rungs.under_way else ""
    return (
        f"{span}: the learning run's own self-play values ({_shown(rungs.folder)}, {games:,} games per pairing, "
        f"both seat orders{state})"
    )


def _shown(folder: Path) -> str:
    try:
        return folder.resolve().relative_to(LEARNING.parents[1]).as_posix()
    except ValueError:
        return str(folder)


def learned_source() -> dict | None:
    """Which generation of which run the ``learned`` level plays (its strategy file's provenance: ``learning_run``
    and ``shipped_generation``); None without the file or where it names neither."""
    import tomllib

    from simlab.runs.levels import LEARNED
    from strategies import StrategyError, resolve

    try:
        spec = resolve(LEARNED)
        prov = tomllib.loads(Path(spec.source).read_text(encoding="utf-8")).get("provenance", {})
    except (StrategyError, OSError, tomllib.TOMLDecodeError):
        return None
    if "learning_run" not in prov or "shipped_generation" not in prov:
        return None
    return {"learning_run": str(prov["learning_run"]), "shipped_generation": int(prov["shipped_generation"])}


def top_rung_verdicts(rungs: Rungs | None, path: Path | str | None = None) -> pl.DataFrame | None:
    """The questions' verdicts at the top rung once it is settled: the rows of ``path`` (default
    :data:`TOP_VERDICTS`, a ``simlab difficulty --json`` document) that the learned level answers alone, their group
    named ``top rung (search gN, settled)``, with the games per pairing the learned level played (``games``) and
    where they come from (``source``). None while the top is still moving or under way, and where the
    document is not of this top: it must have played the learned level as the generation ``rungs`` top (its
    ``learned`` setting names the same run and generation) under the shipped rules and cards."""
    import numpy as np

    from simlab.data.rules import rules_array

    path = Path(path) if path is not None else TOP_VERDICTS
    if rungs is None or not rungs.settled or rungs.under_way or not path.is_file():
        return None
    doc = json.loads(path.read_text(encoding="utf-8"))
    settings = doc.get("settings", {})
    played = settings.get("learned") or {}
    if (
        "learned" not in settings.get("levels", ())
        or played.get("learning_run") != _shown(rungs.folder)
        or played.get("shipped_generation") != rungs.top
        or settings.get("edits")
        or not np.array_equal(rules_array(settings.get("variants") or {}, settings["max_turns"]), rules_array())
    ):
        return None
    rows = [r for r in doc["tables"]["verdicts"] if r["group"] == "strong play" and r["levels"] == "learned"]
    if not rows:
        return None
    group = f"top rung ({rungs.top_level}, settled)"
    return pl.DataFrame(rows).with_columns(
        pl.lit(group).alias("group"),
        pl.lit(int(settings["search_games"])).alias("games"),
        pl.lit(_shown(path)).alias("source"),
        pl.lit(_difficulty_command(settings)).alias("command"),
    )


def _difficulty_command(settings: dict) -> str:
    """The ``simlab difficulty`` command that wrote a document with ``settings`` (its readings named one by one,
    as the document records them, quoted for a shell: a board reading may name Beast's Castle)."""
    import shlex

    words = ["simlab difficulty", *(f"--level {lv}" for lv in settings["levels"])]
    readings = [r for r in settings.get("readings", ()) if r != "default"]
    words += [f"--reading {shlex.quote(r)}" for r in readings] if readings else ["--readings 0"]
    words += [f"-n {int(settings['games'])}", f"--search-games {int(settings['search_games'])}"]
    words += [f"--seed {int(settings['seed'])}"] if settings.get("seed") else []
    return " ".join([*words, "--json"])


RUNG = re.compile(r"^search[ -]?g(\d+)$")


def is_rung(name: str) -> bool:
    """``name`` names a generation rung (``search g1``; ``search-g1`` too, which needs no quotes in a shell)."""
    return bool(RUNG.match(str(name).strip().lower()))


def rung_number(name: str) -> int:
    """The generation a rung ``name`` (:func:`is_rung`) names: ``search g4`` and ``search-g4`` give 4."""
    return int(RUNG.match(str(name).strip().lower())[1])


def rung_strategies(name: str, villains, folder: Path | str | None = None) -> dict[str, str]:
    """villain -> the strategy that plays generation rung ``name`` of the learning run in ``folder`` (default the
    shipped one): generation 0 is the shipped search player, generation k its ``gK/search.toml``; an InputError
    naming the generations there when it has none of that number."""
    from simlab.errors import InputError

    k = rung_number(name)
    folder = Path(folder) if folder is not None else LEARNING
    have = [g for g in range(64) if (folder / f"g{g}" / "play.json").is_file()]
    if k not in have:
        shown = ", ".join(rung_name(g) for g in have) or "none (run simlab learn)"
        raise InputError(f"no generation {k} in the learning run {_shown(folder)}; generations: {shown}")
    strategy = "search" if k == 0 else str(folder / f"g{k}" / "search.toml")
    return dict.fromkeys(villains, strategy)


def rung_cost(name: str, folder: Path | str | None = None) -> float:
    """What a game of generation rung ``name`` costs over one of generation 0 (the search level), from the CPU
    seconds a game of each one's self-play in the learning run in ``folder`` (default the shipped one); 1 where
    either is not measured. A climbed generation searches more worlds or turns, so it costs several times more."""
    folder = Path(folder) if folder is not None else LEARNING
    own, base = (_read(folder / f"g{k}" / "play.json") for k in (rung_number(name), 0))
    if not own or not base or not own.get("cpu_per_game") or not base.get("cpu_per_game"):
        return 1.0
    return own["cpu_per_game"] / base["cpu_per_game"]


# ---------------------------------------------------------------------------- shipping the top


def ship(folder, dest: Path | None = None) -> list[Path]:
    """The top accepted generation of the run in ``folder`` shipped as the ``learned`` level: its search strategy
    as ``configs/strategies/learned.toml`` (``dest``: another folder) beside its value model
    (``learned-value.json``), the strategy's provenance naming the run, the generation and the verdict. An
    InputError when no generation above 0 was accepted (generation 0 is the ``search`` level itself)."""
    from simlab.errors import InputError
    from simlab.runs.levels import LEARNED
    from simlab.studies.expert_iteration import write_atomically
    from strategies import CONFIG_DIRS

    folder = Path(folder)
    rungs = read_rungs(folder)
    if rungs is None or rungs.top == 0:
        raise InputError(
            f"{folder}: no generation above 0 was accepted, so the search level is the strongest play it has; "
            "nothing to ship"
        )
    dest = Path(dest) if dest is not None else CONFIG_DIRS[-1]
    k = rungs.top
    text = (folder / f"g{k}" / "search.toml").read_text(encoding="utf-8")
    value_file = f"{LEARNED}-value.json"
    text = text.replace(f'name = "search-g{k}"', f'name = "{LEARNED}"', 1)
    text = text.replace('value_model = "value.json"', f'value_model = "{value_file}"', 1)
    text += (
        f'learning_run = "{_shown(folder)}"\nshipped_generation = {k}\n'
        f"shipped_verdict = {json.dumps(rungs.verdict if not rungs.under_way else 'under way: ' + rungs.verdict)}\n"
    )
    dest.mkdir(parents=True, exist_ok=True)
    model, strategy = dest / value_file, dest / f"{LEARNED}.toml"
    write_atomically(model, (folder / f"g{k}" / "value.json").read_bytes())
    write_atomically(strategy, text)
    return [strategy, model]
