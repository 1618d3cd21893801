"""Experiment files: a study's settings as TOML data under ``configs/`` (parsed, never executed).

    name = "get-out-costs-4"
    description = "What if Get Out! cost 4?"
    matchup = "gaston-vs-horned-king"
    games = 20000
    seed = 0
    max_turns = 100          # optional
    first = "rotate"         # optional: rotate, random or a villain
    level = "tuned"          # optional: the level every villain plays at (random, novice, expert, tuned)

    [strategies]             # optional, villain = strategy name or TOML path
    gaston = "expert"

    [rules]                  # optional, variant = value (`simlab rules` lists them)
    get_out = "up_to_three"

    [cards."Get Out!"]       # optional card edits: cost, strength, copies, remove, ablate
    cost = 4

    [board."The Woods"]      # optional board edits: SYMBOL = "top"|"bottom", flip = true, swap = "LOCATION"
    fate = "top"

    backend = "dask"         # optional: where games are played (local or dask)
    scheduler = "tcp://10.0.0.5:8786"

    [sweep]                  # only for `simlab sweep`: a card attribute or a rule over values
    card = "Get Out!"
    attribute = "cost"
    values = [3, 4, 5, 6, 7]

Every error names the file and the key.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from simlab.edits import CardEdit, EditError, board_edits_from_table, edits_from_table, normalise
from simlab.game import InputError, parse_matchup, strategy_spec
from simlab.rules import DEFAULT_MAX_TURNS, RuleError, rules_array

CONFIG_DIR = Path(__file__).resolve().parent.parent / "configs"
TOP_KEYS = {
    "name": str,
    "description": str,
    "matchup": str,
    "games": int,
    "seed": int,
    "max_turns": int,
    "first": str,
    "level": str,
    "threads": int,
    "strategies": dict,
    "rules": dict,
    "cards": dict,
    "board": dict,
    "sweep": dict,
    "report": dict,
    "backend": str,
    "scheduler": str,
}
SWEEP_KEYS = {"card": str, "attribute": str, "rule": str, "values": list}
REPORT_KEYS = {
    "ablation_games": int,
    "difficulty_games": int,
    "villains": list,
    "real_games": str,  # a log of real games: the report gains a calibration section (simlab.calibration)
    "calibration_games": int,  # simulated games per seat order and model
    "calibration_levels": list,  # levels to compare (default: every available level)
    "calibration_rules": dict,  # variant = value or [values]: readings to compare
}


class ConfigError(InputError):
    """An experiment file the toolkit cannot use; the message names the file and key."""


@dataclass(frozen=True)
class Experiment:
    name: str
    description: str = ""
    matchup: str | None = None
    games: int | None = None
    seed: int | None = None
    max_turns: int | None = None
    first: str | None = None
    level: str | None = None  # a level of simlab.levels for every villain [strategies] does not name
    threads: int | None = None
    strategies: dict = field(default_factory=dict)
    rules: dict = field(default_factory=dict)
    edits: tuple[CardEdit, ...] = ()  # card edits, then board edits (simlab.edits.BoardEdit)
    sweep: dict = field(default_factory=dict)
    report: dict = field(default_factory=dict)
    backend: str | None = None  # local or dask
    scheduler: str | None = None  # tcp://HOST:PORT of a Dask scheduler
    source: str = ""

    def settings(self) -> dict:
        """Everything needed to regenerate the study (recorded in reports)."""
        return {
            "name": self.name,
            "matchup": self.matchup,
            "games": self.games,
            "seed": self.seed,
            "max_turns": self.max_turns,
            "first": self.first,
            "level": self.level,
            "strategies": self.strategies,
            "rules": self.rules,
            "edits": [str(e) for e in self.edits],
            "sweep": self.sweep,
            "source": self.source,
        }


def _check_types(table: dict, spec: dict, where: str) -> None:
    for key, value in table.items():
        if key not in spec:
            raise ConfigError(f"{where}: unknown key {key!r}; valid keys: {', '.join(spec)}")
        want = spec[key]
        ok = isinstance(value, want) and not (want is int and isinstance(value, bool))
        if not ok:
            raise ConfigError(f"{where}: {key} must be {want.__name__}, got {value!r}")


def config_path(name_or_path: str) -> Path:
    """A path as given, or a name under ``configs/`` (``.toml`` optional)."""
    p = Path(name_or_path)
    if p.suffix != ".toml" and not p.exists():
        p = CONFIG_DIR / f"{name_or_path}.toml"
    elif not p.exists() and not p.is_absolute():
        alt = CONFIG_DIR / p.name
        p = alt if alt.exists() else p
    if not p.exists():
        shipped = sorted(f.stem for f in CONFIG_DIR.glob("*.toml"))
        raise ConfigError(f"no experiment file {name_or_path!r}; shipped ones: {', '.join(shipped)}")
    return p


def load_experiment(name_or_path: str) -> Experiment:
    """Read and validate an experiment file (by path or by name under ``configs/``)."""
    path = config_path(name_or_path)
    where = str(path)
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{where}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}: not valid TOML: {exc}") from None
    _check_types(doc, TOP_KEYS, where)
    for key in ("games", "seed", "max_turns", "threads"):
        if key in doc and doc[key] < (0 if key == "seed" else 1):
            raise ConfigError(
                f"{where}: {key} must be {'non-negative' if key == 'seed' else 'positive'}, got {doc[key]}"
            )
    try:
        if "matchup" in doc:
            villains = parse_matchup(doc["matchup"])
        else:
            villains = None
        for villain, strategy in doc.get("strategies", {}).items():
            if villains is not None and villain not in villains:
                raise InputError(f"[strategies] names {villain!r}, which is not in the matchup {doc['matchup']!r}")
            if not isinstance(strategy, str):
                raise InputError(f"[strategies] {villain} must be a strategy name, got {strategy!r}")
            strategy_spec(strategy)
        if "level" in doc:
            from simlab.levels import check_level

            check_level(doc["level"])
        rules = doc.get("rules", {})
        bad = [k for k, v in rules.items() if not isinstance(v, str)]
        if bad:
            raise InputError(f"[rules] {bad[0]} must be a string value, got {rules[bad[0]]!r}")
        rules_array(rules, doc.get("max_turns", DEFAULT_MAX_TURNS))
        edits = normalise(
            edits_from_table(doc.get("cards", {}), where) + board_edits_from_table(doc.get("board", {}), where)
        )
    except EditError as exc:
        raise ConfigError(str(exc)) from None
    except (InputError, RuleError) as exc:
        raise ConfigError(f"{where}: {exc}") from None
    sweep = doc.get("sweep", {})
    _check_types(sweep, SWEEP_KEYS, f"{where}: [sweep]")
    report = doc.get("report", {})
    _check_types(report, REPORT_KEYS, f"{where}: [report]")
    return Experiment(
        name=doc.get("name", path.stem),
        description=doc.get("description", ""),
        matchup=doc.get("matchup"),
        games=doc.get("games"),
        seed=doc.get("seed"),
        max_turns=doc.get("max_turns"),
        first=doc.get("first"),
        level=doc.get("level"),
        threads=doc.get("threads"),
        strategies=dict(doc.get("strategies", {})),
        rules=dict(rules),
        edits=edits,
        sweep=dict(sweep),
        report=dict(report),
        backend=doc.get("backend"),
        scheduler=doc.get("scheduler"),
        source=where,
    )
