"""Where the search starts: two equilibria of the same matchups from different seed populations (two report
folders), their values compared."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from simlab.errors import InputError
from simlab.studies.equilibrium.files import read_values
from simlab.studies.equilibrium.settings import DEFAULT_EPSILON


def start_robustness(results: dict[str, tuple], epsilon: float = DEFAULT_EPSILON) -> pl.DataFrame:
    """Per matchup, two equilibria from different seed populations: both values [95%], their difference and whether
    they agree, i.e. differ by less than epsilon plus the half-widths of both intervals (each value may be off by its
    interval, and each equilibrium is an epsilon-equilibrium as far as its best responses find)."""
    rows = []
    for matchup, (r1, r2) in results.items():
        diff = r1.value - r2.value
        slack = epsilon + (r1.value_high - r1.value_low) / 2 + (r2.value_high - r2.value_low) / 2
        rows.append(
            {
                "matchup": matchup,
                "villain": r1.villains[0],
                "start_1": ", ".join(r1.provenance["seed_population"][r1.villains[0]])
                + " / "
                + ", ".join(r1.provenance["seed_population"][r1.villains[1]]),
                "seed_1": r1.provenance.get("seed"),
                "value_1": r1.value,
                "value_1_low": r1.value_low,
                "value_1_high": r1.value_high,
                "start_2": ", ".join(r2.provenance["seed_population"][r2.villains[0]])
                + " / "
                + ", ".join(r2.provenance["seed_population"][r2.villains[1]]),
                "seed_2": r2.provenance.get("seed"),
                "value_2": r2.value,
                "value_2_low": r2.value_low,
                "value_2_high": r2.value_high,
                "difference": diff,
                "allowed": slack,
                "agree": abs(diff) <= slack,
            }
        )
    return pl.DataFrame(rows)


def compare_starts(first: str | Path, second: str | Path, epsilon: float = DEFAULT_EPSILON) -> pl.DataFrame:
    """:func:`start_robustness` of the matchups two report folders have in common."""
    one, two = read_values(first), read_values(second)
    common = [m for m in one if m in two]
    if not common:
        raise InputError(f"{str(first)!r} ({', '.join(one)}) and {str(second)!r} ({', '.join(two)}) share no matchup")
    return start_robustness({m: (one[m], two[m]) for m in common}, epsilon)
