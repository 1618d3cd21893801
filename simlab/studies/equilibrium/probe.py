"""An independent probe of an equilibrium: each side's search player against the other side's mixture, paired
with the side's own mixture on the same fresh games."""

from __future__ import annotations

import polars as pl

from simlab.errors import InputError
from simlab.runs.settings import RunSettings, settings_from
from simlab.studies.difficulty import derived_seed
from simlab.studies.equilibrium.files import ShippedEquilibrium
from simlab.studies.equilibrium.play import _mean_interval, _scores
from simlab.studies.equilibrium.result import EquilibriumResult
from simlab.studies.equilibrium.settings import DEFAULT_EPSILON


def search_probe(
    result: EquilibriumResult | ShippedEquilibrium,
    games: int = 100,
    epsilon: float = DEFAULT_EPSILON,
    search: str = "search",
    *,
    settings: RunSettings | None = None,
    **given,
) -> pl.DataFrame:
    """Each side's search player (``search``: a search strategy; its rollouts model each villain by that villain's
    most-weighted equilibrium strategy) against the other side's mixture, on fresh games, paired with the side's own
    mixture on the same games: one row per side with both scores, the gain [95%] and a verdict, "not converged at
    search level" when the gain's interval lies above ``epsilon``."""
    from dataclasses import replace

    from simlab.game import warmup
    from simlab.game.api import strategy_spec

    settings = settings_from(settings, "the search probe", **given)
    a, b = result.villains
    base = strategy_spec(search)
    if base.kernel != 2:
        raise InputError(f"--probe-strategy {search!r} is not a search strategy")
    models = tuple((v, result.mixture(v).most_weighted()) for v in result.villains)
    warmup.ensure(search=True)
    rows = []
    for v, opp in ((a, b), (b, a)):
        probe = replace(base, name=f"search ({base.name}) for {v}", rollouts=models)
        pseed = derived_seed(settings.seed, f"equilibrium:{result.matchup}:probe:{v}")
        own = _scores((v, opp), (result.mixture(v), result.mixture(opp)), games, pseed, settings, lambda: False)
        found = _scores((v, opp), (probe, result.mixture(opp)), games, pseed, settings, lambda: False)
        gain, low, high = _mean_interval(found - own)
        rows.append(
            {
                "matchup": result.matchup,
                "villain": v,
                "games": games,
                "search": base.name,
                "mixture_score": float(own.mean()),
                "search_score": float(found.mean()),
                "gain": gain,
                "gain_low": low,
                "gain_high": high,
                "verdict": "not converged at search level" if low > epsilon else "holds at search level",
            }
        )
    return pl.DataFrame(rows)
