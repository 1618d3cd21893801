"""Mixed strategies: a villain played, game by game, by one of several strategies drawn by weight.

An equilibrium of a matchup (:mod:`simlab.studies.equilibrium`) is a pair of mixtures. A mixture plays in runs
(``run``, ``matrix``, every study): before game *i* starts, each entry of the matchup that a mixture plays draws its
strategy from a uniform number fixed by (seed, *i* // P, entry) alone, so a game is the same whatever thread, chunk
or machine plays it, and two runs on the same seed draw the same strategies. The P games of one seat rotation
(*i* // P) draw alike: every component plays every seat equally often.

A mixture file (``configs/equilibrium/<matchup>.toml``, written by ``simlab equilibrium``) holds both sides::

    matchup = "<key>-vs-<key>"
    [[strategy]]
    villain = "<key>"
    weight = 0.62
    name = "expert"
    base = "expert"
    [strategy.params]              # optional: any of the base's parameters
    [provenance]                   # how the file was made; not read for play

and ``FILE#VILLAIN`` (a path, or a name under ``configs/equilibrium/``) names one villain's mixture.

``strong#VILLAIN`` is the ``strong`` level: in a 2-player game of two different villains whose equilibrium is
shipped, that equilibrium's mixture; elsewhere (a 3-player or mirror game, which have no equilibrium of this kind,
or a pairing not yet solved) the villain's most-weighted strategy across the equilibria it plays in, said so in
its description. Which one plays is decided where the matchup is known (:func:`play_spec`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simlab.data.inputs import read_toml
from simlab.errors import InputError, StrategyError
from simlab.kernels.rng import mix64_nb
from strategies import StrategySpec, resolve, strategy_from_table

MIXTURE_DIRS = (Path.cwd() / "configs" / "equilibrium", Path(__file__).resolve().parents[1] / "configs" / "equilibrium")
_DRAW_SALT = np.uint64(0xD1B54A32D192ED03)  # keeps the mixture draws apart from the seat-order draws


@dataclass(frozen=True)
class MixedSpec:
    """A mixed strategy: ``components`` are (strategy, weight) pairs, weights positive and summing to 1."""

    name: str
    description: str
    components: tuple[tuple[StrategySpec, float], ...]
    source: str = "built-in"

    def __post_init__(self):
        if not self.components:
            raise StrategyError(f"mixture {self.name!r} has no strategy of positive weight")

    @property
    def weights(self) -> np.ndarray:
        return np.array([w for _, w in self.components], np.float64)

    def most_weighted(self) -> StrategySpec:
        """The component of the largest weight (the first of them on a tie)."""
        return self.components[int(np.argmax(self.weights))][0]

    def describe(self) -> str:
        return " + ".join(f"{w:.0%} {s.name}" for s, w in self.components)


def mixture(name: str, components, description: str = "", source: str = "built-in") -> MixedSpec:
    """A :class:`MixedSpec` of (strategy, weight) pairs: weights finite and at least 0 with a positive sum; those of
    weight 0 are left out and the rest scaled to sum to 1 (order kept)."""
    pairs = [(s, float(w)) for s, w in components]
    for s, w in pairs:
        if not math.isfinite(w) or w < 0:
            raise StrategyError(f"mixture {name!r}: the weight of {s.name!r} must be a number of at least 0, got {w}")
    total = sum(w for _, w in pairs)
    if not total > 0:
        raise StrategyError(f"mixture {name!r}: the weights must sum to more than 0")
    kept = tuple((s, w / total) for s, w in pairs if w > 0)
    return MixedSpec(name, description or " + ".join(f"{w:.0%} {s.name}" for s, w in kept), kept, source)


def is_mixture_name(name) -> bool:
    return isinstance(name, str) and "#" in name


def mixture_file(name: str) -> Path:
    """The file of ``name`` (a path, or a name under ``configs/equilibrium/``), or an InputError naming the choices."""
    if name.endswith(".toml") or "/" in name:
        return Path(name)
    for d in MIXTURE_DIRS:
        if (d / f"{name}.toml").is_file():
            return d / f"{name}.toml"
    known = sorted({p.stem for d in MIXTURE_DIRS if d.is_dir() for p in d.glob("*.toml")})
    raise InputError(
        f"no mixture file {name!r}; choose from {', '.join(known) or 'none yet (make one with simlab equilibrium)'}, "
        "or give a path to a .toml file"
    )


def read_mixture_file(path: Path) -> dict:
    where = str(path)
    doc = read_toml(path, "mixture file")
    if not isinstance(doc.get("strategy"), list) or not all(isinstance(t, dict) for t in doc["strategy"]):
        raise InputError(f"{where}: needs [[strategy]] tables (villain, weight, base, optional params)")
    return doc


def load_mixture(ref: str) -> MixedSpec:
    """``FILE#VILLAIN``: that villain's mixture in a mixture file."""
    name, _, villain = ref.partition("#")
    path = mixture_file(name)
    doc = read_mixture_file(path)
    pairs = []
    for k, table in enumerate(doc["strategy"]):
        where = f"{path}: strategy {k + 1}"
        if table.get("villain") != villain:
            continue
        weight = table.get("weight")
        if isinstance(weight, bool) or not isinstance(weight, int | float):
            raise InputError(f"{where}: weight must be a number, got {weight!r}")
        body = {k2: v for k2, v in table.items() if k2 not in ("villain", "weight")}
        try:
            pairs.append((strategy_from_table(body, where, path.parent, f"{villain}-{k + 1}"), float(weight)))
        except StrategyError as exc:
            raise InputError(str(exc)) from None
    if not pairs:
        villains = sorted({str(t.get("villain")) for t in doc["strategy"]})
        raise InputError(f"{path} has no strategy for {villain!r}; its villains: {', '.join(villains)}")
    try:
        return mixture(f"{path.stem}#{villain}", pairs, source=str(path))
    except StrategyError as exc:
        raise InputError(str(exc)) from None


STRONG = "strong"


def mixture_files() -> list[Path]:
    """Every mixture file here, by name (a file under the working directory's ``configs/equilibrium/`` first)."""
    seen: dict[str, Path] = {}
    for d in MIXTURE_DIRS:
        if d.is_dir():
            for p in sorted(d.glob("*.toml")):
                seen.setdefault(p.stem, p)
    return [seen[k] for k in sorted(seen)]


def strong_files(villain: str) -> list[Path]:
    """The mixture files with a mixture for ``villain``."""
    return [p for p in mixture_files() if any(t.get("villain") == villain for t in read_mixture_file(p)["strategy"])]


def strong_spec(villain: str, matchup: tuple[str, ...] | None = None) -> MixedSpec:
    """The strategy of the ``strong`` level for ``villain`` in ``matchup`` (see the module's docstring)."""
    files = strong_files(villain)
    if not files:
        raise InputError(
            f"level 'strong' needs an equilibrium with {villain} in configs/equilibrium/, which has none; "
            "make them with: simlab equilibrium --all"
        )
    if matchup is not None and len(matchup) == 2 and matchup[0] != matchup[1]:
        for name in ("-vs-".join(matchup), "-vs-".join(matchup[::-1])):
            path = next((p for p in files if p.stem == name), None)
            if path is not None:
                mix = load_mixture(f"{path}#{villain}")
                return MixedSpec(
                    f"{STRONG} ({name} equilibrium)", f"{villain} at strong play: {mix.describe()}", mix.components
                )
    best, best_w, where = None, -1.0, []
    for path in files:
        mix = load_mixture(f"{path}#{villain}")
        where.append(path.stem)
        for spec, w in mix.components:
            if w > best_w:
                best, best_w = spec, w
    why = "a 3-player game" if matchup is not None and len(matchup) == 3 else "a game with no equilibrium of its own"
    return MixedSpec(
        f"{STRONG} ({best.name})",
        f"{villain}'s most-weighted strategy ({best.name}, {best_w:.0%}) across the equilibria of "
        f"{', '.join(where)}: {why}",
        ((best, 1.0),),
    )


def play_spec(strategy, matchup: tuple[str, ...] | None = None) -> StrategySpec | MixedSpec:
    """What plays an entry: a strategy (name, path or spec) or a mixture (``FILE#VILLAIN``, ``strong#VILLAIN`` in
    ``matchup``, or a spec)."""
    if isinstance(strategy, StrategySpec | MixedSpec):
        return strategy
    if is_mixture_name(strategy):
        name, _, villain = strategy.partition("#")
        if name == STRONG:
            return strong_spec(villain, matchup)
        return load_mixture(strategy)
    try:
        return resolve(str(strategy))
    except StrategyError as exc:
        raise InputError(str(exc)) from None


def slot_table(specs) -> tuple[tuple[StrategySpec, ...], tuple[tuple[tuple[int, float], ...], ...]]:
    """The pure strategies of a matchup's entries, in slot order, and each entry's draw: (slot, cumulative weight)
    pairs, the last at 1. Without a mixture, entry e plays slot e and the draws are ``()``."""
    if not any(isinstance(s, MixedSpec) for s in specs):
        return tuple(specs), ()
    slots, draws = [], []
    for s in specs:
        parts = s.components if isinstance(s, MixedSpec) else ((s, 1.0),)
        cum, out = 0.0, []
        for spec, w in parts:
            cum += w
            out.append((len(slots), cum))
            slots.append(spec)
        out[-1] = (out[-1][0], 1.0)
        draws.append(tuple(out))
    return tuple(slots), tuple(draws)


def draw_uniforms(seed: int, first: int, n: int, entries: int, players: int) -> np.ndarray:
    """float64 (n, entries) in [0, 1): the draw of each entry in games first..first+n-1, fixed by (seed, game index
    // players, entry)."""
    mix64 = mix64_nb.py_func  # the kernels' splitmix64, run as numpy code
    rounds = (np.arange(first, first + n, dtype=np.uint64) // np.uint64(players))[:, None]
    with np.errstate(over="ignore"):
        base = mix64(np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + _DRAW_SALT)
        keys = mix64(base ^ (rounds * np.uint64(entries) + np.arange(entries, dtype=np.uint64)[None, :]))
    return (keys >> np.uint64(11)).astype(np.float64) / float(1 << 53)


def seat_slots(seats: np.ndarray, draws, seed: int, first: int) -> np.ndarray:
    """int64 (n, P): the strategy slot at each seat of each game, from the entry at each seat (``seats``) and the
    entries' draws (:func:`slot_table`)."""
    if not draws:
        return seats
    n, players = seats.shape
    u = draw_uniforms(seed, first, n, len(draws), players)
    slot_of_entry = np.empty((n, len(draws)), np.int64)
    for e, pairs in enumerate(draws):
        cum = np.array([c for _, c in pairs])
        idx = np.minimum(np.searchsorted(cum, u[:, e], side="right"), len(pairs) - 1)
        slot_of_entry[:, e] = np.array([s for s, _ in pairs], np.int64)[idx]
    return np.take_along_axis(slot_of_entry, seats, axis=1)
