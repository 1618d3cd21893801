"""What a tune maximises (:class:`Objective`: weighted parts, each a win rate in 2- or 3-player games against a
field), the pairings each part plays with their games and seeds, and a batch of strategies played on them
(every strategy the same games)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from simlab.data.cards import VILLAIN_KEYS
from simlab.errors import InputError
from simlab.game.api import strategy_spec
from simlab.studies.difficulty import derived_seed
from strategies import StrategySpec

DEFAULT_OBJECTIVE = "2p:current=0.5,2p:novice=0.2,3p:current=0.3"
DEFAULT_DROP_PENALTY = 3.0  # a point a part loses below the start counts this much more than a point gained
CURRENT = "current"  # the field of the opponents' current strategies (--opponent; in simlab tune-all the round's)


@dataclass(frozen=True)
class Part:
    """One part of the objective: the villain's win rate in ``players``-player games against the other
    villains, each played by ``field`` (``current``: the opponents' current strategies; else a level or a
    strategy every opponent plays), counted with ``weight`` (the weights sum to 1)."""

    players: int
    field: str
    weight: float

    @property
    def name(self) -> str:
        return f"{self.players}p:{self.field}"


@dataclass(frozen=True)
class Objective:
    """What a tune maximises: the weighted mean of the parts' win rates, less ``drop_penalty`` times the
    weighted points each part falls below the start's rate on the same games (in the search only; validation
    reports the weighted mean and each part's change)."""

    parts: tuple[Part, ...]
    drop_penalty: float = DEFAULT_DROP_PENALTY

    @property
    def text(self) -> str:
        return ",".join(f"{p.name}={p.weight:g}" for p in self.parts)

    def value(self, rates, start_rates) -> float:
        """The search's score of a candidate from its per-part win rates and the start's (same games)."""
        gain = sum(p.weight * r for p, r in zip(self.parts, rates, strict=True))
        drop = sum(p.weight * max(0.0, s - r) for p, r, s in zip(self.parts, rates, start_rates, strict=True))
        return float(gain - self.drop_penalty * drop)

    def mean(self, rates) -> float:
        """The weighted mean of per-part win rates (what validation measures)."""
        return float(sum(p.weight * r for p, r in zip(self.parts, rates, strict=True)))


def parse_objective(objective: str | Objective | None = None, drop_penalty: float | None = None) -> Objective:
    """An :class:`Objective` from text ``"2p:current=0.5,2p:novice=0.2,3p:current=0.3"`` (PLAYERSp:FIELD=WEIGHT,
    comma-separated; FIELD is ``current`` or a level or strategy name; weights are scaled to sum to 1)."""
    from simlab.runs.levels import LEVELS

    if isinstance(objective, Objective):
        obj = objective
    else:
        text = DEFAULT_OBJECTIVE if objective is None else str(objective)
        parts, seen = [], set()
        for item in (t.strip() for t in text.split(",")):
            head, _, weight = item.partition("=")
            players, _, field_ = head.strip().partition("p:")
            if not (players.strip() in ("2", "3") and field_.strip() and weight.strip()):
                raise InputError(
                    f"objective part {item!r} must look like 2p:FIELD=WEIGHT or 3p:FIELD=WEIGHT, FIELD one of "
                    f"{CURRENT}, {', '.join(LEVELS)} or a strategy"
                )
            try:
                w = float(weight)
            except ValueError:
                w = float("nan")
            if not (math.isfinite(w) and w > 0):
                raise InputError(
                    f"objective part {item!r}: the weight must be a positive number, got {weight.strip()!r}"
                )
            field_ = field_.strip()
            if field_ != CURRENT and field_ not in LEVELS:
                strategy_spec(field_)  # a strategy name or file, or the one-line error naming the choices
            part = Part(int(players), field_, w)
            if part.name in seen:
                raise InputError(f"objective part {part.name!r} is given twice")
            seen.add(part.name)
            parts.append(part)
        total = sum(p.weight for p in parts)
        obj = Objective(tuple(Part(p.players, p.field, p.weight / total) for p in parts))
    if drop_penalty is not None:
        if not (isinstance(drop_penalty, int | float) and math.isfinite(drop_penalty) and drop_penalty >= 0):
            raise InputError(f"the drop penalty must be a number of at least 0, got {drop_penalty!r}")
        obj = replace(obj, drop_penalty=float(drop_penalty))
    return obj


@dataclass(frozen=True)
class Pairing:
    """The games of one seat order of one part: ``villains`` (the tuned villain first) and the opponents'
    strategies (entries 1..)."""

    part: int  # index into the objective's parts
    villains: tuple[str, ...]
    opponents: tuple[StrategySpec, ...]

    @property
    def label(self) -> str:
        return ", ".join(self.villains[1:])


def pairings(villain: str, objective: Objective, current: dict, versus: str | None = None) -> list[Pairing]:
    """Every pairing of ``objective`` for ``villain``: a 2-player part meets each other villain (only ``versus``
    when given: one matchup's best response); a 3-player part plays both seat orders of the other two (with seats
    rotated within each, every seat of both orders equally). ``current``: villain -> strategy spec (or mixture) of
    the ``current`` field."""
    from simlab.runs.levels import strategy_at

    others = [v for v in VILLAIN_KEYS if v != villain]
    if versus is not None and any(part.players != 2 for part in objective.parts):
        raise InputError("a tune against one opponent villain has 2-player parts only")
    out = []
    for k, part in enumerate(objective.parts):

        def at(o, part=part):
            return current[o] if part.field == CURRENT else strategy_spec(strategy_at(part.field, o))

        if part.players == 2:
            out += [Pairing(k, (villain, o), (at(o),)) for o in others if versus in (None, o)]
        else:
            a, b = others
            out += [Pairing(k, (villain, a, b), (at(a), at(b))), Pairing(k, (villain, b, a), (at(b), at(a)))]
    return out


def games_per_pairing(objective: Objective, games: int, pairings_per_part: int = 2) -> list[int]:
    """Games of each pairing of a part when a candidate plays about ``games`` in all: each part gets its
    weight's share, split evenly over its pairings (two a part: two opponents, or two seat orders; one against a
    single opponent villain), a multiple of the players (every seat equally)."""
    out = []
    for part in objective.parts:
        share = games * part.weight / pairings_per_part
        out.append(max(part.players, int(share // part.players) * part.players))
    return out


def part_seed(seed: int, part: Part) -> int:
    """The seed of a part's games: every candidate (and both strategies of a validation) plays the same."""
    return derived_seed(seed, f"part:{part.name}")


# ============================================================================ playing a batch against the field


def _play_field(villain, specs, plays, seed, variants, max_turns, stop=None, on_chunk=None, objective=None, edits=()):
    """Per strategy and pairing (``plays``: (pairing, games) pairs), the 0/1 array of the villain's wins in
    games 0..games-1 of that pairing (``None`` if ``stop()`` said to stop before the batch was played). The
    villain is entry 0, seats rotated; every strategy plays the same games (the seed of the pairing's part),
    with the card ``edits``."""
    from simlab.runs.backend import current, play_chunk
    from simlab.runs.sim import GamePlan

    jobs = []
    for i, spec in enumerate(specs):
        for j, (pr, n) in enumerate(plays):
            pseed = part_seed(seed, objective.parts[pr.part])
            plan = GamePlan(pr.villains, (spec, *pr.opponents), n, pseed, variants, max_turns, edits=edits)
            jobs += [(i, j, job) for job in plan.jobs("games")]
    won = {(i, j): np.zeros(n, np.int8) for i in range(len(specs)) for j, (_, n) in enumerate(plays)}
    for (i, j, job), res in zip(jobs, current().map(play_chunk, [jb for _, _, jb in jobs]), strict=False):
        seats = job.seats()
        ws = res["winner_seat"].astype(np.int64)
        entry = np.where(ws >= 0, seats[np.arange(job.n), np.maximum(ws, 0)], -1)
        won[(i, j)][job.first : job.first + job.n] = entry == 0
        if on_chunk is not None:
            on_chunk(job.n)
        if stop is not None and stop():
            return None
    return won


def _part_rates(won, i, plays, objective) -> list[float]:
    """Strategy ``i``'s win rate in each part: the mean over the part's pairings (equal games each)."""
    out = []
    for k in range(len(objective.parts)):
        out.append(float(np.mean([won[(i, j)].mean() for j, (pr, _) in enumerate(plays) if pr.part == k])))
    return out
