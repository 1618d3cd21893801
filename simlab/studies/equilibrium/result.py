"""One matchup's equilibrium as a run returns it (:class:`EquilibriumResult`): the value [95%], both mixtures, the
iterations, the payoff table and the provenance."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from strategies import StrategySpec
from strategies.mixture import MixedSpec, mixture


@dataclass
class EquilibriumResult:
    """One matchup's equilibrium: the value at strong play, both mixtures, and how the search got there."""

    matchup: str
    villains: tuple[str, str]
    value: float  # villains[0]'s score (win rate, unfinished games counting a half) at the equilibrium
    value_low: float
    value_high: float
    value_games: int
    mixtures: pl.DataFrame  # villain, strategy, weight (every population member; weight 0 outside the support)
    iterations: pl.DataFrame  # one row per iteration: table value, each side's best-response gain [95%], joined
    table: pl.DataFrame  # one row per entry: row strategy, column strategy, score, games, standard error
    converged: bool
    stopped_by: str
    populations: dict[str, list[StrategySpec]]
    weights: dict[str, np.ndarray]
    provenance: dict = field(default_factory=dict)
    seconds: float = 0.0
    games: int = 0  # games played by this run (checkpointed steps not counted)
    checkpoint: Path | None = None

    def mixture(self, villain: str) -> MixedSpec:
        pop, w = self.populations[villain], self.weights[villain]
        return mixture(f"strong-{self.matchup}#{villain}", list(zip(pop, w, strict=True)))

    @property
    def exploitability(self) -> float:
        """The last iteration's sum of both sides' best-response gains (each at least 0): NashConv."""
        last = self.iterations.row(-1, named=True)
        return max(last["gain_a"], 0.0) + max(last["gain_b"], 0.0)

    def frames(self) -> dict[str, pl.DataFrame]:
        value = pl.DataFrame(
            [
                {
                    "matchup": self.matchup,
                    "villain": self.villains[0],
                    "value": self.value,
                    "value_low": self.value_low,
                    "value_high": self.value_high,
                    "games": self.value_games,
                    "exploitability": self.exploitability,
                    "converged": self.converged,
                    "stopped_by": self.stopped_by,
                }
            ]
        )
        return {"value": value, "mixtures": self.mixtures, "iterations": self.iterations, "table": self.table}
