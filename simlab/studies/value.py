"""The search player's value model: who wins from a position at the start of a turn, fitted from simlab's own games.

A truncated rollout (``horizon`` D with ``value = 1``) stops at the start of a turn and scores the position by
this model instead of playing on. Each seat's score is its villain's weights times its features
(:data:`strategies.search.FEATURE_NAMES`: its objective's progress as the heuristic measures it and its 4th power,
Power, Heroes and Villain cards in its Realm) plus its villain's constant; the chance that a seat wins is
the softmax of the scores over the seats (a conditional logit: two and three players alike).

:func:`positions` plays games with the rollout policy (the ``tuned`` level where its files exist) on every seat
and takes every seat's features at the start of every turn, with the game's winner; :func:`fit` finds the
weights of greatest likelihood (scipy's L-BFGS on the exact gradient, every game weighing the same, a small ridge
pinning the constants, which only differences identify); :func:`write_model` ships them as
``strategies/search_value.toml``; :func:`calibration` compares predictions with the outcomes of games played to
the end from held-out positions.
``python benchmarks/fit_value.py`` runs the whole.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import polars as pl

from simlab.data import durable
from simlab.data.cards import VILLAIN_KEYS
from strategies.search import FEATURE_NAMES, N_FEATURES

MAX_TURNS_KEPT = 256  # turns of one game written (the turn cap is far below)
RIDGE = 1e-3  # per position: pins the constants (only their differences count) without moving the rest


def seatings(villains=VILLAIN_KEYS) -> list[tuple[str, ...]]:
    """Every ordered pairing of two villains (mirrors included) and every rotation of the three-player game."""
    two = list(itertools.product(villains, repeat=2))
    three = [tuple(villains[i:] + villains[:i]) for i in range(len(villains))] if len(villains) == 3 else []
    return two + three


def positions(games: int, seed: int, level: str = "tuned", every: int = 1, villains=VILLAIN_KEYS) -> pl.DataFrame:
    """Every seat's features at the start of every ``every``-th turn of ``games`` games per seating
    (:func:`seatings`), every seat played at ``level``: one row per (game, turn, seat), with ``won`` (this seat won
    the game; games stopped by the turn cap are left out)."""
    from simlab.game import warmup
    from simlab.game.api import Game
    from simlab.kernels import const as K
    from simlab.runs.levels import strategy_at
    from strategies.search import turn_positions_nb

    warmup.ensure(search=True)
    rows = []
    out = np.zeros((MAX_TURNS_KEPT, 3, N_FEATURES))
    for order in seatings(tuple(villains)):
        strategies = tuple(strategy_at(level, v) for v in order)
        name = "-vs-".join(order)
        for i in range(games):
            g = Game.new(order, seed=seed, game_index=i, strategies=strategies)
            st = g.state
            turns = turn_positions_nb(st, g.cards.tables, g.rules, out)
            winner = int(st.g[K.G_WINNER])
            if winner < 0:
                continue
            for t in range(0, turns, every):
                for s, v in enumerate(order):
                    rows.append((name, i, t, s, v, len(order), int(s == winner), *out[t, s]))
    schema = ["seating", "game", "turn", "seat", "villain", "seats", "won", *FEATURE_NAMES]
    return pl.DataFrame(rows, schema=schema, orient="row")


def _position_ids(frame: pl.DataFrame) -> np.ndarray:
    """Each row's position (0, 1, ...: a new one wherever seating, game or turn changes; ``frame`` sorted)."""
    new = pl.any_horizontal(pl.col(c).ne_missing(pl.col(c).shift(1)) for c in ("seating", "game", "turn"))
    return frame.select(new.fill_null(True).cast(pl.Int64).cum_sum() - 1).to_series().to_numpy()


def _arrays(frame: pl.DataFrame, villains):
    """Positions as arrays (``frame`` sorted): features (N, 3, F+1) with the constant's 1, villain index (N, 3), a
    seat mask, the winning seat."""
    pos = _position_ids(frame)
    n = int(pos[-1]) + 1
    index = {v: i for i, v in enumerate(villains)}
    x = np.zeros((n, 3, N_FEATURES + 1))
    vil = np.zeros((n, 3), np.int64)
    mask = np.zeros((n, 3), bool)
    won = np.zeros(n, np.int64)
    seat = frame["seat"].to_numpy()
    x[pos, seat, :N_FEATURES] = frame.select(FEATURE_NAMES).to_numpy()
    x[pos, seat, N_FEATURES] = 1.0
    vil[pos, seat] = [index[v] for v in frame["villain"]]
    mask[pos, seat] = True
    w = frame["won"].to_numpy() == 1
    won[pos[w]] = seat[w]
    return x, vil, mask, won


def probabilities(weights: np.ndarray, x, vil, mask) -> np.ndarray:
    """Each seat's chance to win (N, 3) under ``weights`` (villains, F+1)."""
    z = np.einsum("nsf,nsf->ns", x, weights[vil])
    z = np.where(mask, z, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def fit(frame: pl.DataFrame, villains=VILLAIN_KEYS) -> dict[str, np.ndarray]:
    """The weights of greatest likelihood for the positions of ``frame`` (:func:`positions`): villain -> its
    weights in :data:`~strategies.search.FEATURE_NAMES` order, then its constant."""
    from scipy.optimize import minimize

    frame = frame.sort("seating", "game", "turn", "seat")
    x, vil, mask, won = _arrays(frame, villains)
    n, shape = len(won), (len(villains), N_FEATURES + 1)
    onehot = np.zeros((n, 3))
    onehot[np.arange(n), won] = 1.0
    # every game weighs the same, however many turns it lasted: a long game's positions are many and alike
    game = frame.filter(pl.col("seat") == 0).select(pl.struct("seating", "game").rank("dense")).to_series().to_numpy()
    weight = n / len(np.unique(game)) / np.bincount(game)[game]

    def loss(flat):
        w = flat.reshape(shape)
        p = probabilities(w, x, vil, mask)
        nll = -(weight * np.log(np.maximum(p[np.arange(n), won], 1e-300))).sum() + RIDGE * n * (w**2).sum() / 2
        r = (weight[:, None] * (p - onehot))[:, :, None] * x  # d(-log L)/d(score) times the features, per seat
        grad = np.zeros(shape)
        np.add.at(grad, vil[mask], r[mask])
        return nll / n, (grad + RIDGE * n * w).ravel() / n

    res = minimize(loss, np.zeros(shape).ravel(), jac=True, method="L-BFGS-B")
    if not res.success:
        raise RuntimeError(f"the value model's fit did not converge: {res.message}")
    w = res.x.reshape(shape)
    return {v: w[i] for i, v in enumerate(villains)}


def predict(model: dict[str, np.ndarray], frame: pl.DataFrame, villains=VILLAIN_KEYS) -> pl.DataFrame:
    """``frame`` (sorted by position) with each row's predicted chance ``p`` that its seat wins, under ``model``."""
    frame = frame.sort("seating", "game", "turn", "seat")
    weights = np.array([model[v] for v in villains])
    x, vil, mask, _ = _arrays(frame, villains)
    p = probabilities(weights, x, vil, mask)
    return frame.with_columns(pl.Series("p", p[_position_ids(frame), frame["seat"].to_numpy()]))


def calibration(model: dict[str, np.ndarray], frame: pl.DataFrame, bins: int = 10, seed: int = 0) -> pl.DataFrame:
    """Predictions against outcomes on ``frame``'s positions, one seat of one position per game, drawn at random
    (so the rows are independent games played to the end by the rollout policy): per bin of predicted chance
    (deciles), the positions, the mean prediction, the share won, and z: (wins - predicted wins) over the binomial
    standard error of the predictions."""
    scored = predict(model, frame)
    game = scored.select(pl.struct("seating", "game").rank("dense")).to_series().to_numpy()
    order = np.random.default_rng(seed).permutation(len(game))
    _, first = np.unique(game[order], return_index=True)
    one = scored[np.sort(order[first])]
    p = one["p"].to_numpy()
    edges = np.quantile(p, np.linspace(0, 1, bins + 1))
    one = one.with_columns(pl.Series("bin", np.clip(np.searchsorted(edges, p, "right") - 1, 0, bins - 1)))
    return (
        one.group_by("bin")
        .agg(
            pl.len().alias("positions"),
            pl.col("p").mean().alias("predicted"),
            pl.col("won").mean().alias("won"),
            ((pl.col("won").sum() - pl.col("p").sum()) / (pl.col("p") * (1 - pl.col("p"))).sum().sqrt()).alias("z"),
        )
        .sort("bin")
    )


def write_model(model: dict[str, np.ndarray], path: Path, provenance: dict) -> None:
    """``model`` as TOML: ``[villains.<key>]`` one weight per feature and ``constant``; ``[provenance]``."""
    import tomli_w

    doc = {
        "villains": {
            v: {f: round(float(w[i]), 6) for i, f in enumerate(FEATURE_NAMES)} | {"constant": round(float(w[-1]), 6)}
            for v, w in model.items()
        },
        "provenance": provenance,
    }
    header = "# The search player's value model (simlab.studies.value; python benchmarks/fit_value.py writes it).\n"
    durable.write_text(path, header + tomli_w.dumps(doc), "the value model")
