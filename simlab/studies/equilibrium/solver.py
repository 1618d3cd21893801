"""The meta-solver: the Nash equilibrium of a constant-sum payoff table by linear programming (scipy's HiGHS),
a tie between optimal mixtures broken towards the population's first strategies."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

TIE = 1e-9  # payoffs within this of the optimum count as optimal when a tie between mixtures is broken
NEGLIGIBLE = 1e-6  # a weight below this is the linear program's rounding, not a strategy played


@dataclass(frozen=True)
class MatrixGameSolution:
    """The equilibrium of a constant-sum table: the row player's value and both mixtures."""

    value: float  # what the row player's mixture guarantees (the column player's holds the row player to it)
    rows: np.ndarray  # the row player's mixture
    cols: np.ndarray  # the column player's mixture


def _maximin(payoff: np.ndarray) -> tuple[float, np.ndarray]:
    """The row player's maximin mixture of ``payoff`` (rows maximise) and its value, by linear programming; among
    the optimal mixtures the one that puts its weight on the earliest rows (a second program), so a tie is always
    broken the same way, towards the population's first strategies."""
    from scipy.optimize import linprog

    m, n = payoff.shape
    # variables: x_1..x_m, v; maximise v subject to (payoff^T x)_j >= v for every column, sum x = 1
    c = np.zeros(m + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-payoff.T, np.ones((n, 1))])
    a_eq = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0.0, 1.0)] * m + [(None, None)]
    first = linprog(c, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0], bounds=bounds, method="highs")
    if first.status != 0:
        raise RuntimeError(f"the equilibrium's linear program failed: {first.message}")
    value = float(first.x[-1])
    # among mixtures guaranteeing the value, the one with its weight earliest: minimise sum_i i * x_i
    second = linprog(
        np.arange(m, dtype=float),
        A_ub=-payoff.T,
        b_ub=-(value - TIE) * np.ones(n),
        A_eq=np.ones((1, m)),
        b_eq=[1.0],
        bounds=[(0.0, 1.0)] * m,
        method="highs",
    )
    x = second.x if second.status == 0 else first.x[:m]
    x = np.where(x > NEGLIGIBLE, x, 0.0)
    return value, x / x.sum()


def solve_matrix_game(payoff) -> MatrixGameSolution:
    """The Nash equilibrium of the constant-sum game ``payoff`` (m x n: the row player's score, the column player's
    is a constant minus it): the value, the row player's maximin mixture and the column player's minimax one."""
    payoff = np.asarray(payoff, np.float64)
    if payoff.ndim != 2 or payoff.size == 0 or not np.isfinite(payoff).all():
        raise ValueError(f"a payoff table must be a finite, non-empty 2-d array, got shape {payoff.shape}")
    value, rows = _maximin(payoff)
    _, cols = _maximin(-payoff.T)
    return MatrixGameSolution(value, rows, cols)
