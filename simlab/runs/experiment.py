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

from dataclasses import dataclass, field
from pathlib import Path

from simlab.data.cards import VILLAIN_KEYS, unknown_villain
from simlab.data.edits import (
    ATTRIBUTES,
    FLAGS,
    CardEdit,
    board_edits_from_table,
    check_edit,
    edits_from_table,
    normalise,
)
from simlab.data.inputs import read_toml
from simlab.data.rules import DEFAULT_MAX_TURNS, MAX_TURNS_LIMIT, RULE_VARIANTS, rules_array
from simlab.errors import BackendError, ConfigError, EditError, InputError, RuleError
from simlab.game.api import parse_matchup, strategy_spec
from simlab.runs.backend import check_backend
from simlab.runs.levels import Level
from simlab.runs.sim import MAX_GAMES

CONFIG_DIR = Path(__file__).resolve().parents[2] / "configs"
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
LIMITS = {"games": (1, MAX_GAMES), "seed": (0, 2**63 - 1), "max_turns": (1, MAX_TURNS_LIMIT), "threads": (1, 4096)}
SWEEP_KEYS = {"card": str, "attribute": str, "rule": str, "values": list}
REPORT_KEYS = {
    "ablation_games": int,
    "difficulty_games": int,
    "search_games": int,  # per matchup at the search level (section "At search level"; 0 leaves it out)
    "villains": list,
    "real_games": str,  # a log of real games: the report gains a calibration section (simlab.studies.calibration)
    "calibration_games": int,  # simulated games per seat order and model
    "calibration_levels": list,  # levels to compare (default: every available level)
    "calibration_rules": dict,  # variant = value or [values]: readings to compare
    "leverage_games": int,  # games per matchup and reading in the leverage table
    "leverage_board": str,  # board perturbations: catalogue (plausible transcription errors) or none
    "leverage_perturb": list,  # more readings for the leverage table: "VARIANT=VALUE", "board:LOCATION:OP", ...
    "readings": int,  # the verdicts are also measured under this many readings (largest leverage first)
    "robust_levels": list,  # levels the verdicts are measured at (default: every available one but random)
    "robust_readings": list,  # these readings instead of the largest-leverage ones
    "fix": dict,  # [report.fix]: a section with the best balance fix for its band (simlab.studies.fix)
}


@dataclass(frozen=True)
class Experiment:
    name: str
    description: str = ""
    matchup: str | None = None
    games: int | None = None
    seed: int | None = None
    max_turns: int | None = None
    first: str | None = None
    level: Level | None = None  # the level (simlab.runs.levels) of every villain [strategies] does not name
    threads: int | None = None
    strategies: dict = field(default_factory=dict)
    rules: dict = field(default_factory=dict)
    edits: tuple[CardEdit, ...] = ()  # card edits, then board edits (simlab.data.edits.BoardEdit)
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
            "level": None if self.level is None else self.level.name,
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


def _check_sweep(sweep: dict, where: str) -> None:
    """A [sweep] table: a card and one of its numeric attributes, or a rule variant, and values valid for it."""
    if not sweep:
        return
    values = sweep.get("values", [])
    if "rule" in sweep:
        if "card" in sweep or "attribute" in sweep:
            raise ConfigError(f"{where}: give either rule, or card and attribute, not both")
        rule = sweep["rule"]
        if rule not in RULE_VARIANTS:
            raise ConfigError(f"{where} rule: unknown rule variant {rule!r}; choose from {', '.join(RULE_VARIANTS)}")
        for v in values:
            if str(v) not in RULE_VARIANTS[rule].values:
                choices = ", ".join(RULE_VARIANTS[rule].values)
                raise ConfigError(f"{where} values: {rule} cannot be {v!r}; choose from {choices}")
        return
    numeric = tuple(a for a in ATTRIBUTES if a not in FLAGS)
    if "attribute" in sweep and sweep["attribute"] not in numeric:
        raise ConfigError(
            f"{where} attribute: unknown attribute {sweep['attribute']!r}; choose from {', '.join(numeric)}"
        )
    if "card" in sweep:
        try:
            check_edit(sweep["card"], sweep.get("attribute", "cost"), 0, f"{where} card")
            for v in values:
                check_edit(sweep["card"], sweep.get("attribute", "cost"), v, f"{where} values", typed=True)
        except EditError as exc:
            raise ConfigError(str(exc)) from None


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
    doc = read_toml(path, "experiment file", ConfigError)
    _check_types(doc, TOP_KEYS, where)
    for key, (low, high) in LIMITS.items():
        if key in doc and not low <= doc[key] <= high:
            raise ConfigError(f"{where}: {key} must be a whole number from {low:,} to {high:,}, got {doc[key]}")
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
            doc["level"] = Level.parse(doc["level"])
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
    if "first" in doc:
        valid = ("rotate", "random", *(villains or VILLAIN_KEYS))
        if doc["first"] not in valid:
            raise ConfigError(f"{where}: first {doc['first']!r} is not valid; choose from {', '.join(valid)}")
    if "backend" in doc or "scheduler" in doc:
        try:
            names = (f"{where}: backend", f"{where}: scheduler")
            check_backend(doc.get("backend", "dask"), doc.get("scheduler"), names)
        except BackendError as exc:
            raise ConfigError(str(exc)) from None
    sweep = doc.get("sweep", {})
    _check_types(sweep, SWEEP_KEYS, f"{where}: [sweep]")
    _check_sweep(sweep, f"{where}: [sweep]")
    report = doc.get("report", {})
    _check_types(report, REPORT_KEYS, f"{where}: [report]")
    for villain in report.get("villains", []):
        if villain not in VILLAIN_KEYS:
            raise ConfigError(f"{where}: [report] villains: {unknown_villain(villain)}")
    for key in ("ablation_games", "difficulty_games"):
        if key in report and report[key] < 1:
            raise ConfigError(f"{where}: [report] {key} must be positive, got {report[key]}")
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
