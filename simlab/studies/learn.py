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


def positions(
    games: int, seed: int, level: str, villains=VILLAIN_KEYS, every: int = 1, threads: int | None = None
) -> pl.DataFrame:
    """Every seat's features at the start of every ``every``-th turn of ``games`` games per seating, every seat at
    ``level`` (a level or a strategy): one row per (seating, game, turn, seat) with ``result`` (1 won, 0 lost, 0.5
    the turn cap). Games are played on ``threads`` threads (default: numba's); the frame does not depend on them."""
    import numba

    from simlab.data.cards import load_cards
    from simlab.game import warmup

    warmup.ensure(search="search" in level)
    cards = load_cards()
    progress = progress_vectors(cards)
    jobs = [(order, i) for order in seatings(tuple(villains)) for i in range(games)]
    threads = max(1, min(threads or numba.get_num_threads(), len(jobs)))
    blocks = _record(jobs, seed, level, cards, progress, every, threads)
    return pl.concat([blocks[job] for job in jobs if job in blocks])


def _record(jobs, seed, level, cards, progress, every, threads) -> dict:
    """Each job's (seating, game index) positions as a frame, played on ``threads`` threads."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from simlab.game.api import Game
    from simlab.game.positions import record_game_nb
    from simlab.kernels import const as K
    from simlab.kernels.state import new_state
    from simlab.runs.levels import strategy_at
    from strategies.learned.features import FEATURE_NAMES, N_FEATURES

    todo = iter(jobs)
    lock = threading.Lock()
    blocks: dict = {}

    def work() -> None:
        out = np.zeros((MAX_TURNS_KEPT, 3, N_FEATURES))
        states: dict[int, object] = {}
        while True:
            with lock:
                job = next(todo, None)
            if job is None:
                return
            order, i = job
            strategies = tuple(strategy_at(level, v) for v in order)
            g = Game.new(order, seed=seed, game_index=i, strategies=strategies, cards=cards)
            work_state = states.setdefault(len(order), new_state(len(order), 0))
            turns = record_game_nb(g.state, cards.tables, g.rules, work_state, progress, out)  # without the GIL
            winner = int(g.state.g[K.G_WINNER])
            taken = np.arange(0, turns, every)
            rows = []
            for s, v in enumerate(order):
                columns = {
                    "seating": "-vs-".join(order),
                    "game": i,
                    "turn": taken,
                    "seat": s,
                    "villain": v,
                    "seats": len(order),
                    "result": 0.5 if winner < 0 else float(s == winner),
                }
                frame = pl.DataFrame({k: np.broadcast_to(val, len(taken)) for k, val in columns.items()})
                rows.append(frame.with_columns(pl.from_numpy(out[taken, s], schema=list(FEATURE_NAMES))))
            blocks[job] = pl.concat(rows)

    with ThreadPoolExecutor(threads) as pool:
        for done in [pool.submit(work) for _ in range(threads)]:
            done.result()
    return blocks


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


def shared(p: np.ndarray, frame: pl.DataFrame) -> np.ndarray:
    """Each seat's chance ``p`` shared out so that a position's seats add up to 1 (as the search uses the model)."""
    by = frame.select("seating", "game", "turn").with_columns(p=pl.Series(np.asarray(p, np.float64)))
    return by.select(pl.col("p") / pl.col("p").sum().over("seating", "game", "turn")).to_series().to_numpy()


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
    """Log-loss and Brier score on held-out positions: ``model`` (a learned value model, its chances shared out over
    a position's seats as the search does) and the 6-weight model, every position counted once (games stopped by
    the turn cap are left out, as the 6-weight model never fitted them)."""
    from strategies.learned import value

    result = held["result"].to_numpy()
    decided = result != 0.5
    rows = []
    for name, p in (("learned", shared(model.predict(feature_matrix(held)), held)), ("6-weight", six_weight(held))):
        rows.append((name, value.log_loss(p[decided], result[decided]), value.brier(p[decided], result[decided])))
    return pl.DataFrame(rows, schema=["model", "log_loss", "brier"], orient="row")


# ============================================================================ is a generation stronger?


def paired_gain(villain: str, candidate: str, incumbent: str, games: int, seed: int, threads=None) -> dict:
    """How much more ``villain`` wins playing ``candidate`` than playing ``incumbent``, every other seat playing
    ``incumbent``, on the same games (same seeds, seats and deals): over every 2-player pairing of ``villain`` with
    another villain, ``games`` games each. Returns the gain (share of games), its 95% interval from the paired
    differences, and the games."""
    from simlab.runs.settings import RunSettings
    from simlab.runs.sim import run

    diffs = []
    for other in VILLAIN_KEYS:
        if other == villain:
            continue
        matchup = f"{villain}-vs-{other}"
        won = {}
        for name, strategy in (("candidate", candidate), ("incumbent", incumbent)):
            settings = RunSettings(games, seed, threads=threads)
            result = run(matchup, settings, strategies={villain: strategy, other: incumbent}, keep_games=True)
            won[name] = result.games.sort("game")["winner"].eq(villain).fill_null(False).cast(pl.Float64).to_numpy()
        diffs.append(won["candidate"] - won["incumbent"])
    return gain_interval(np.concatenate(diffs))


def gain_interval(diffs: np.ndarray) -> dict:
    """The mean of paired differences and its 95% interval (normal approximation)."""
    diffs = np.asarray(diffs, np.float64)
    mean = float(diffs.mean())
    half = 1.96 * float(diffs.std(ddof=1)) / np.sqrt(len(diffs)) if len(diffs) > 1 else float("inf")
    return {"gain": mean, "low": mean - half, "high": mean + half, "games": len(diffs)}


def accepted(gains: dict[str, dict]) -> tuple[bool, str]:
    """Whether a generation is stronger than the last, from each villain's paired gain (:func:`paired_gain`):
    accepted when the gain pooled over the villains has a 95% interval above 0 and no villain's interval lies wholly
    below 0; else refused, with the reason."""
    losing = [v for v, g in gains.items() if g["high"] < 0]
    if losing:
        return False, f"refused: {', '.join(losing)} weaker (interval below 0)"
    n = sum(g["games"] for g in gains.values())
    mean = sum(g["gain"] * g["games"] for g in gains.values()) / n
    # the pooled interval from each villain's: independent games, so the variances add
    var = sum(((g["high"] - g["gain"]) / 1.96) ** 2 * g["games"] ** 2 for g in gains.values()) / n**2
    low = mean - 1.96 * var**0.5
    if low <= 0:
        return False, f"refused: pooled gain {mean:+.1%}, 95% interval reaching {low:+.1%} (not above 0)"
    return True, f"accepted: pooled gain {mean:+.1%} [{low:+.1%}, {mean + 1.96 * var**0.5:+.1%}]"


# ============================================================================ one generation of expert iteration

SEARCH_TEMPLATE = """# generation {k} of expert iteration (simlab.studies.learn): the search player scoring its
# horizon by the learned value model beside this file, fitted on generation {prev}'s self-play
name = "search-g{k}"
base = "search"
value_model = "value.json"
description = "The search player of generation {k}, its horizon scored by a value model learned from generation {prev}"

[params]
value = 2

[provenance]
{provenance}
"""


TUNED_GAMES = 300  # games per seating of the tuned level whose positions join each generation's


def next_generation(
    folder, k: int, incumbent: str, games: int, seed: int, threads=None, villains=VILLAIN_KEYS, positions_to=None
):
    """Play ``games`` self-play games per seating with ``incumbent`` (generation ``k - 1``'s search) on every seat,
    fit the value model on their positions and on those of :data:`TUNED_GAMES` games per seating of the tuned level
    (cheap, and a search game's positions are few: with them the model beat the 6-weight model on held-out search
    positions, without them it did not), and write generation ``k`` into ``folder``: ``value.json`` and the search
    strategy ``search.toml`` (and the positions as parquet to ``positions_to``, if given). Returns (the strategy
    file, the model, the positions)."""
    import time
    from pathlib import Path

    import tomli_w

    from simlab.runs.backend import source_commit
    from strategies.learned import value

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    t = time.process_time()
    frame = positions(games, seed, incumbent, villains=villains, threads=threads)
    tuned = positions(TUNED_GAMES, seed + 1, "tuned", villains=villains, threads=threads)
    frame = pl.concat([frame, tuned])
    provenance = {
        "generation": k,
        "data": incumbent,
        "games_per_seating": games,
        "tuned_games_per_seating": TUNED_GAMES,
        "positions": len(frame),
        "seed": seed,
        "commit": source_commit() or "unknown",
        "command": f"simlab.studies.learn.next_generation(folder, {k}, {incumbent!r}, {games}, {seed})",
    }
    model = fit_value(frame, provenance)
    provenance["cpu_seconds"] = round(time.process_time() - t, 1)
    value.write(model, folder / "value.json")
    if positions_to is not None:
        frame.write_parquet(positions_to)
    lines = tomli_w.dumps(provenance).strip()
    (folder / "search.toml").write_text(SEARCH_TEMPLATE.format(k=k, prev=k - 1, provenance=lines))
    return folder / "search.toml", model, frame
