"""Difficulty: is a villain harder to play, or just weaker? Four measures per villain, each with its
95% interval, and a plain-language verdict per pair of villains backed by a significance test.

- strength: win rate against the field (each other villain, 2 players), the study's level on every seat;
- skill gap: that level minus novice win rate against the same novice opponents on the same seeds (paired);
  a villain that is harder to play rewards skill more;
- goldfish speed: median turns to win alone at that level (distribution-free interval for the median);
- Fate sensitivity: win rate against opponents at that level minus against ``fate-heavy`` ones, same seeds
  (paired).

The level (:mod:`simlab.runs.levels`) is ``expert`` unless asked otherwise (``tuned``: each villain's tuned strategy).

Runs of different purposes use different seeds (derived from the run seed), so measures are independent of
each other except where the design pairs them on purpose.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
import polars as pl

from simlab.data.cards import VILLAIN_KEYS, prose_name
from simlab.errors import InputError
from simlab.game.api import check_villain
from simlab.runs.levels import level_strategies
from simlab.runs.settings import RunSettings, settings_from
from simlab.runs.sim import play_games
from simlab.runs.stats import interval_text, wilson
from simlab.studies.whatif import paired_effect, winner_indices

MEASURES = ("strength", "skill_gap", "goldfish_turns", "fate_sensitivity")


def derived_seed(seed: int, purpose: str) -> int:
    """A seed for one purpose of a study, fixed by (seed, purpose) and unrelated to the others."""
    digest = hashlib.blake2b(f"{seed}:{purpose}".encode(), digest_size=5).digest()
    return int.from_bytes(digest, "little")


def median_interval(values: np.ndarray, level: float = 0.95) -> tuple[float, float, float]:
    """Median and its distribution-free interval (order statistics, binomial(n, 1/2)); values may be inf."""
    from scipy import stats as sps  # imported here: scipy takes seconds to import

    x = np.sort(np.asarray(values, float))
    n = x.size
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    r = max(int(sps.binom.ppf((1 - level) / 2, n, 0.5)), 1)  # P(Binomial(n, 1/2) < r) <= (1 - level) / 2
    lo_k, hi_k = r - 1, n - r  # 0-based order statistics x_(r) and x_(n - r + 1)
    return float(np.median(x)), float(x[lo_k]), float(x[hi_k])


@dataclass
class DifficultyResult:
    table: pl.DataFrame  # one row per villain and measure: estimate, low, high, se, games
    verdicts: pl.DataFrame  # one row per pair and question: text, difference, z, p
    settings: dict = field(default_factory=dict)

    def wide(self) -> pl.DataFrame:
        """One row per villain, a column per measure (estimate)."""
        return self.table.pivot(on="measure", index="villain", values="estimate")


def difficulty(
    villains=VILLAIN_KEYS,
    n_games: int | None = None,
    *,
    measures=MEASURES,
    settings: RunSettings | None = None,
    **given,
) -> DifficultyResult:
    """The four measures for each of ``villains`` (``n_games`` per pairing and setting, default 2,000) and the
    verdicts, with every villain played at the settings' level (a level of :mod:`simlab.runs.levels`, default
    expert; per-villain strategies are not used). ``measures``: only these of :data:`MEASURES` (the others'
    games are not played). ``settings`` (a :class:`simlab.runs.settings.RunSettings`) and ``given`` (its fields as
    keywords: seed, level, variants, max_turns, threads, edits, progress) say how."""
    settings = settings_from(settings, n_games=n_games, **given)
    level = settings.level_name or "expert"
    n_games, seed, progress = settings.games, settings.seed, settings.progress
    variants, max_turns, edits = settings.variant_dict, settings.max_turns, settings.edits
    villains = tuple(check_villain(v) for v in villains)
    at = level_strategies(level)
    if len(villains) < 1:
        raise ValueError("difficulty needs at least one villain")
    unknown = [m for m in measures if m not in MEASURES]
    if unknown or not measures:
        raise InputError(
            f"unknown difficulty measure {unknown[0] if unknown else None!r}; choose from {', '.join(MEASURES)}"
        )
    measures = tuple(m for m in MEASURES if m in measures)
    common = {"settings": settings}
    field_ = list(VILLAIN_KEYS)
    with_base = "strength" in measures or "fate_sensitivity" in measures  # Fate sensitivity pairs with strength
    total = difficulty_runs(len(villains), measures)
    done = 0

    def tick():
        nonlocal done
        done += 1
        if progress is not None:
            progress(done * n_games, total * n_games)

    # strength: every 2-player pairing once, the level everywhere; shared by both villains of the pairing
    strength_seed = derived_seed(seed, "strength")
    base = {}
    for a, b in combinations(field_, 2) if with_base else ():
        base[(a, b)] = winner_indices(f"{a}-vs-{b}", n_games, strength_seed, {a: at[a], b: at[b]}, **common)
        tick()
    rows, per_game = [], {}
    for v in villains:
        per_game[(v, "strength")] = {key: (base[key] == key.index(v)).astype(np.int8) for key in base if v in key}
        if "strength" in measures:
            w = np.concatenate(list(per_game[(v, "strength")].values()))
            lo, hi = wilson(int(w.sum()), w.size)
            rows.append(_row(v, "strength", w.mean(), lo, hi, np.sqrt(w.var() / w.size), w.size))
        if "skill_gap" in measures:
            _skill_gap(v, at, n_games, seed, common, rows, tick)
        if "fate_sensitivity" in measures:
            _fate_sensitivity(v, at, n_games, strength_seed, common, per_game, rows, tick)
        if "goldfish_turns" in measures:
            # goldfish: turns to win alone (a game not won by the cap counts as slower than any won)
            games = play_games((v,), [at[v]], n_games, derived_seed(seed, f"goldfish:{v}"), **common)
            tick()
            turns = np.where(
                games["winner_index"].to_numpy() == 0, games["winner_turns"].fill_null(0).to_numpy(), np.inf
            )
            med, lo, hi = median_interval(turns)
            per_game[(v, "goldfish_turns")] = turns
            rows.append(_row(v, "goldfish_turns", med, lo, hi, float("nan"), turns.size))
    table = pl.DataFrame(rows)
    where = f"{level} play" + "".join(f", {k}={v}" for k, v in sorted((variants or {}).items()))
    where += "".join(f", {e}" for e in edits)
    verdicts = _verdicts(table, per_game, villains, measures, where)
    return DifficultyResult(
        table,
        verdicts,
        {
            "games": n_games,
            "seed": seed,
            "level": level,
            "strategies": at,
            "variants": dict(variants or {}),
            "max_turns": max_turns,
            "edits": [str(e) for e in edits],
            "measures": list(measures),
        },
    )


def difficulty_runs(n_villains: int, measures=MEASURES) -> int:
    """The runs of games :func:`difficulty` plays for ``n_villains`` villains and ``measures``, each of its games."""
    per_villain = (
        2 * 2 * ("skill_gap" in measures)  # skill: 2 levels x 2 opponents
        + 2 * ("fate_sensitivity" in measures)  # fate-heavy opponents
        + ("goldfish_turns" in measures)
    )
    with_base = "strength" in measures or "fate_sensitivity" in measures  # Fate sensitivity pairs with strength
    return n_villains * per_villain + 3 * with_base


def _skill_gap(v, at, n_games, seed, common, rows, tick) -> None:
    """Skill gap: novice and the level's ``v`` against novice opponents, same seeds for both (paired)."""
    skill_seed = derived_seed(seed, f"skill:{v}")
    won = {}
    for lev, strategy in (("novice", "novice"), ("level", at[v])):
        parts = []
        for o in VILLAIN_KEYS:
            if o == v:
                continue
            res = winner_indices(f"{v}-vs-{o}", n_games, skill_seed, {v: strategy, o: "novice"}, **common)
            parts.append((res == 0).astype(np.int8))
            tick()
        won[lev] = np.concatenate(parts)
    eff = paired_effect(won["novice"], won["level"])
    d = won["level"].astype(float) - won["novice"]
    se = d.std() / np.sqrt(d.size)
    rows.append(_row(v, "skill_gap", eff["change"], eff["change_low"], eff["change_high"], se, d.size))


def _fate_sensitivity(v, at, n_games, strength_seed, common, per_game, rows, tick) -> None:
    """Fate sensitivity: ``v`` at the level against the level's vs fate-heavy opponents, strength seeds (paired)."""
    drop_base, drop_heavy = [], []
    for key, w_base in per_game[(v, "strength")].items():
        other = key[1 - key.index(v)]
        res = winner_indices(f"{key[0]}-vs-{key[1]}", n_games, strength_seed, {v: at[v], other: "fate-heavy"}, **common)
        drop_base.append(w_base)
        drop_heavy.append((res == key.index(v)).astype(np.int8))
        tick()
    wb, wh = np.concatenate(drop_base), np.concatenate(drop_heavy)
    eff = paired_effect(wh, wb)  # change = base - heavy = the drop
    d = wb.astype(float) - wh
    rows.append(
        _row(
            v,
            "fate_sensitivity",
            eff["change"],
            eff["change_low"],
            eff["change_high"],
            d.std() / np.sqrt(d.size),
            d.size,
        )
    )


def _row(villain, measure, estimate, low, high, se, games) -> dict:
    return {
        "villain": villain,
        "measure": measure,
        "estimate": float(estimate),
        "low": float(low),
        "high": float(high),
        "se": float(se),
        "games": int(games),
    }


QUESTIONS = {
    "strength": ("stronger", "win rate against the field"),
    "skill_gap": ("harder to play", "skill gap"),
    "fate_sensitivity": ("more sensitive to Fate", "drop against fate-heavy opponents"),
    "goldfish_turns": ("slower alone", "median turns to win unopposed"),
}


def _verdicts(table: pl.DataFrame, per_game: dict, villains, measures=MEASURES, where: str = "") -> pl.DataFrame:
    """One verdict per pair and measure; ``where`` (the level and readings) is named in each text."""
    at = f" at {where}" if where else ""
    from scipy import stats as sps  # imported here: scipy takes seconds to import

    est = {(r["villain"], r["measure"]): r for r in table.iter_rows(named=True)}
    rows = []
    for a, b in combinations(villains, 2):
        for measure, (more, label) in QUESTIONS.items():
            if measure not in measures:
                continue
            ra, rb = est[(a, measure)], est[(b, measure)]
            diff = ra["estimate"] - rb["estimate"]
            if measure == "goldfish_turns":
                # rank test on the turn counts (unwon games rank slowest)
                test = sps.mannwhitneyu(per_game[(a, measure)], per_game[(b, measure)], alternative="two-sided")
                p = float(test.pvalue)
                z = float(sps.norm.isf(p / 2)) * (1 if diff >= 0 else -1) if p > 0 else float("inf")
            else:
                cov = 0.0
                if measure == "strength":
                    # the a-vs-b games count for both: a's win is b's loss
                    key = (a, b) if (a, b) in per_game[(a, measure)] else (b, a)
                    wa, wb = per_game[(a, measure)][key], per_game[(b, measure)][key]
                    na, nb = ra["games"], rb["games"]
                    cov = float(np.sum((wa - wa.mean()) * (wb - wb.mean()))) / (na * nb)
                se = np.sqrt(ra["se"] ** 2 + rb["se"] ** 2 - 2 * cov)
                z = diff / se if se > 0 else float("nan")
                p = float(2 * sps.norm.sf(abs(z))) if se > 0 else float("nan")
            significant = p < 0.05
            first, second = (a, b) if diff >= 0 else (b, a)
            unit = "pp" if measure != "goldfish_turns" else " turns"
            scale = 100 if measure != "goldfish_turns" else 1
            if significant:
                text = f"{prose_name(first)} is {more} than {prose_name(second)}{at}"
            else:
                text = f"no significant difference between {prose_name(first)} and {prose_name(second)} in {label}{at}"
            rf, rs = est[(first, measure)], est[(second, measure)]
            sign = "+" if measure in ("skill_gap", "fate_sensitivity") else ""
            text += f": {label} {_fmt(rf, scale, unit, sign)} vs {_fmt(rs, scale, unit, sign)} ({_z(z)}, {_p(p)})"
            rows.append(
                {
                    "villain_a": a,
                    "villain_b": b,
                    "measure": measure,
                    "difference": diff,
                    "z": z,
                    "p": p,
                    "significant": significant,
                    "verdict": text,
                }
            )
    return pl.DataFrame(rows)


def _fmt(r: dict, scale: float, unit: str, sign: str = "") -> str:
    if unit == "pp":
        return interval_text(r["estimate"], r["low"], r["high"], sign)
    return f"{r['estimate']:g} [{r['low']:g}, {r['high']:g}]{unit}"


def _z(z: float) -> str:
    return f"z = {abs(z):.1f}" if np.isfinite(z) else "z > 37"  # beyond what a double's tail holds


def _p(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"
