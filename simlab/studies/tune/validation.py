"""Validation on fresh games (:func:`validate`): the start and the tuned strategy on the same games of every
pairing, each part's change with Newcombe's paired 95% interval and the objective's with a normal one."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from simlab.data.rules import DEFAULT_MAX_TURNS
from simlab.runs.stats import wilson
from simlab.studies.tune.objective import (
    Objective,
    _play_field,
    pairings,
    parse_objective,
)
from simlab.studies.whatif import paired_effect
from strategies.mixture import play_spec


def _row(part, opponent, strategies, a, b, weight=None):
    eff = paired_effect(a, b)
    lo, hi = wilson(int(b.sum()), b.size)
    return {
        "part": part,
        "opponent": opponent,
        "opponent_strategy": strategies,
        "weight": weight,
        "games": eff["games"],
        "start_rate": eff["base_rate"],
        "rate": eff["rate"],
        "rate_low": float(lo),
        "rate_high": float(hi),
        "change": eff["change"],
        "change_low": eff["change_low"],
        "change_high": eff["change_high"],
        "changed_games": eff["changed_games"],
    }


def validate(
    villain: str,
    start,
    tuned,
    opponents: dict,
    n_games: int,
    seed: int,
    variants=None,
    max_turns: int = DEFAULT_MAX_TURNS,
    on_chunk=None,
    objective: str | Objective | None = "2p:current=1",
    versus: str | None = None,
    edits=(),
) -> pl.DataFrame:
    """``start`` and ``tuned`` play the same ``n_games`` in every pairing of ``objective`` (``opponents``,
    villain -> strategy, is its ``current`` field; the default objective is the 2-player game against them).
    One row per pairing (``opponent``: the villains it meets, in seat order), per part (``opponent`` "all":
    its pairings together) with both win rates and the paired change [Newcombe 95%], and the objective
    (``part`` "objective", ``opponent`` "field"): the weighted mean of the parts' rates with a normal 95%
    interval, and its change with a normal 95% interval from the per-game paired differences (variance: the
    sum over parts of weight squared times the variance of the part's mean difference)."""
    objective = parse_objective(objective)
    specs = [play_spec(start), play_spec(tuned)]
    opp_specs = {o: play_spec(s) for o, s in opponents.items()}
    plays = [(pr, n_games) for pr in pairings(villain, objective, opp_specs, versus)]
    won = _play_field(
        villain, specs, plays, seed, variants, max_turns, on_chunk=on_chunk, objective=objective, edits=edits
    )
    rows = []
    mean_a = mean_b = var = var_b = 0.0
    games = changed = 0
    for k, part in enumerate(objective.parts):
        js = [j for j, (pr, _) in enumerate(plays) if pr.part == k]
        for j in js:
            pr = plays[j][0]
            rows.append(_row(part.name, pr.label, ", ".join(s.name for s in pr.opponents), won[(0, j)], won[(1, j)]))
        a = np.concatenate([won[(0, j)] for j in js]).astype(np.float64)
        b = np.concatenate([won[(1, j)] for j in js]).astype(np.float64)
        names = ", ".join(dict.fromkeys(s.name for j in js for s in plays[j][0].opponents))
        row = _row(part.name, "all", names, a, b, part.weight)
        rows.append(row)
        d = b - a
        mean_a += part.weight * a.mean()
        mean_b += part.weight * b.mean()
        var += part.weight**2 * d.var(ddof=1) / d.size if d.size > 1 else 0.0
        var_b += part.weight**2 * b.mean() * (1 - b.mean()) / b.size
        games += d.size
        changed += row["changed_games"]
    change = mean_b - mean_a
    half = 1.959964 * math.sqrt(var)
    rows.append(
        {
            "part": "objective",
            "opponent": "field",
            "opponent_strategy": objective.text,
            "weight": 1.0,
            "games": games,
            "start_rate": mean_a,
            "rate": mean_b,
            "rate_low": mean_b - 1.959964 * math.sqrt(var_b),
            "rate_high": mean_b + 1.959964 * math.sqrt(var_b),
            "change": change,
            "change_low": change - half,
            "change_high": change + half,
            "changed_games": changed,
        }
    )
    return pl.DataFrame(rows)
