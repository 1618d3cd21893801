"""Learning from simlab's own games: positions of self-play games, and the learned value model fitted on them.

:func:`positions` plays games per seating (every ordered pairing, mirrors included, and every rotation of the
3-player game) with a level on every seat and records every seat's features at the start of every turn
(:mod:`simlab.game.positions`), labelled with the game's result for that seat. :func:`fit_value` fits
:mod:`strategies.learned.value` on them; :func:`compare` measures a model against held-out positions (log-loss,
Brier score, calibration by decile), beside the search player's 6-weight model.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from simlab.data.cards import VILLAIN_KEYS
from simlab.studies.value import seatings

MAX_TURNS_KEPT = 256
PROGRESS_LEVEL = "tuned"  # each villain's progress is measured with its strategy at this level


def progress_vectors(cards) -> np.ndarray:
    """float64 (villain rows, N_SPARAMS): each villain's heuristic vector at :data:`PROGRESS_LEVEL`."""
    from simlab.runs.levels import strategy_at
    from strategies import resolve

    rows = []
    for v in cards.villains:
        rows.append(resolve(strategy_at(PROGRESS_LEVEL, v.key)).vector())
    return np.stack(rows).astype(np.float64)


def positions(games: int, seed: int, level: str, villains=VILLAIN_KEYS, every: int = 1) -> pl.DataFrame:
    """Every seat's features at the start of every ``every``-th turn of ``games`` games per seating, every seat at
    ``level``: one row per (seating, game, turn, seat) with ``result`` (1 won, 0 lost, 0.5 the turn cap)."""
    from simlab.data.cards import load_cards
    from simlab.game import warmup
    from simlab.game.api import Game
    from simlab.game.positions import record_game_nb
    from simlab.kernels import const as K
    from simlab.kernels.state import new_state
    from simlab.runs.levels import strategy_at
    from strategies.learned.features import FEATURE_NAMES, N_FEATURES

    warmup.ensure(search=level.startswith("search"))
    cards = load_cards()
    progress = progress_vectors(cards)
    out = np.zeros((MAX_TURNS_KEPT, 3, N_FEATURES))
    blocks = []
    for order in seatings(tuple(villains)):
        strategies = tuple(strategy_at(level, v) for v in order)
        name = "-vs-".join(order)
        work = new_state(len(order), 0)
        for i in range(games):
            g = Game.new(order, seed=seed, game_index=i, strategies=strategies, cards=cards)
            turns = record_game_nb(g.state, cards.tables, g.rules, work, progress, out)
            winner = int(g.state.g[K.G_WINNER])
            taken = np.arange(0, turns, every)
            for s, v in enumerate(order):
                result = 0.5 if winner < 0 else float(s == winner)
                block = {
                    "seating": name,
                    "game": i,
                    "turn": taken,
                    "seat": s,
                    "villain": v,
                    "seats": len(order),
                    "result": result,
                }
                feats = out[taken, s]
                blocks.append(
                    pl.DataFrame({**{k: np.broadcast_to(val, len(taken)) for k, val in block.items()}}).with_columns(
                        pl.from_numpy(feats, schema=list(FEATURE_NAMES))
                    )
                )
    return pl.concat(blocks)


def feature_matrix(frame: pl.DataFrame) -> np.ndarray:
    from strategies.learned.features import FEATURE_NAMES

    return frame.select(FEATURE_NAMES).to_numpy().astype(np.float64)


def game_weights(frame: pl.DataFrame) -> np.ndarray:
    """Each position's weight, so that every game weighs the same (1 over its positions)."""
    per_game = frame.group_by("seating", "game", maintain_order=True).len()
    joined = frame.select("seating", "game").join(per_game, on=["seating", "game"], how="left", maintain_order="left")
    return 1.0 / joined["len"].to_numpy().astype(np.float64) * frame.select("seat").n_unique()


def fit_value(frame: pl.DataFrame, provenance: dict | None = None):
    """The learned value model fitted on ``frame`` (:func:`positions`)."""
    from strategies.learned import value

    return value.fit(feature_matrix(frame), frame["result"].to_numpy(), game_weights(frame), provenance)


def calibration(p: np.ndarray, result: np.ndarray, bins: int = 10) -> pl.DataFrame:
    """Predicted against observed by decile of prediction: predicted mean, observed mean, positions."""
    order = np.argsort(p, kind="stable")
    rows = []
    for chunk in np.array_split(order, bins):
        if len(chunk):
            rows.append((float(p[chunk].mean()), float(result[chunk].mean()), len(chunk)))
    return pl.DataFrame(rows, schema=["predicted", "observed", "positions"], orient="row")


def six_weight(frame: pl.DataFrame) -> np.ndarray:
    """Each row's chance to win by the search player's 6-weight model (``strategies/search_value.toml``): the
    softmax over the position's seats of each seat's villain weights times its progress, Power, Heroes (and Fate
    Items), Villain cards in its Realm and progress to the 4th power, plus its villain's constant."""
    from strategies.search import value_model

    model = value_model()
    x = np.stack(
        [
            frame["my_progress"].to_numpy(),
            frame["my_power"].to_numpy(),
            (frame["my_heroes"] + frame["my_fate_items"]).to_numpy(),
            (frame["my_allies"] + frame["my_items"]).to_numpy(),
            frame["my_progress4"].to_numpy(),
            np.ones(len(frame)),
        ],
        axis=1,
    )
    weights = np.stack([model[v] for v in frame["villain"].to_list()])
    scored = frame.select("seating", "game", "turn").with_columns(score=pl.Series(np.sum(x * weights, axis=1)))
    scored = scored.with_columns(top=pl.col("score").max().over("seating", "game", "turn"))
    scored = scored.with_columns(e=(pl.col("score") - pl.col("top")).exp())
    return scored.select(pl.col("e") / pl.col("e").sum().over("seating", "game", "turn")).to_series().to_numpy()


def compare(model, held: pl.DataFrame) -> pl.DataFrame:
    """Log-loss and Brier score on held-out positions: ``model`` (a learned value model) and the 6-weight model,
    every position counted once (games of the turn cap left out of the 6-weight model's, which never fitted them)."""
    from strategies.learned import value

    result = held["result"].to_numpy()
    decided = result != 0.5
    rows = []
    for name, p in (("learned", model.predict(feature_matrix(held))), ("6-weight", six_weight(held))):
        rows.append((name, value.log_loss(p[decided], result[decided]), value.brier(p[decided], result[decided])))
    return pl.DataFrame(rows, schema=["model", "log_loss", "brier"], orient="row")
