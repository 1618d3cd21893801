"""Learning from simlab's own games: positions of self-play games, and the learned value model fitted on them.

:func:`positions` plays games per seating (every ordered pairing, mirrors included, and every rotation of the
3-player game) with a level on every seat and records every seat's features at the start of every turn
(:mod:`simlab.game.positions`), labelled with the game's result for that seat. :func:`fit_value` fits
:mod:`strategies.learned.value` on them; :func:`compare` measures a model against held-out positions (log-loss,
Brier score, calibration by decile), beside the search player's 6-weight model.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import polars as pl

from simlab.data import durable
from simlab.data.cards import VILLAIN_KEYS
from simlab.errors import InputError
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


def set_progress_rows(dst, progress: np.ndarray, of) -> None:
    """Each seat's parameter row of state ``dst`` begun with its villain's progress vector (``progress``, the rows
    of :func:`progress_vectors`), each seat's villain read from state ``of``: how the recorder's look-ahead states
    hold them, so its kernels measure every seat's progress as the features need it."""
    from simlab.kernels import const as K

    width = min(progress.shape[1], dst.sparams.shape[1])
    for s in range(int(of.g[K.G_NSEATS])):
        dst.sparams[s, :width] = progress[int(of.sv[s, K.SV_VILLAIN]), :width]


def progress_view(st, progress: np.ndarray):
    """A copy of state ``st`` whose seats' parameter rows hold their progress vectors (:func:`set_progress_rows`):
    a position as the recorder scores its features."""
    from simlab.kernels import const as K
    from simlab.kernels.state import new_state
    from strategies.search import copy_state_nb

    view = new_state(int(st.g[K.G_NSEATS]), 0)
    copy_state_nb(view, st)
    set_progress_rows(view, progress, st)
    return view


def positions(
    games: int, seed: int, level: str, villains=VILLAIN_KEYS, every: int = 1, threads: int | None = None
) -> pl.DataFrame:
    """Every seat's features at the start of every ``every``-th turn of ``games`` games per seating, every seat at
    ``level`` (a level or a strategy): one row per (seating, game, turn, seat) with ``result`` (1 won, 0 lost, 0.5
    the turn cap). Games are played on ``threads`` threads (default: numba's); the frame does not depend on them."""
    return self_play(games, seed, level, villains, every, threads)[0]


def self_play(
    games: int,
    seed: int,
    level: str,
    villains=VILLAIN_KEYS,
    every: int = 1,
    threads: int | None = None,
    decisions: bool = False,
    progress=None,
    keep: Path | None = None,
    discarded=None,
) -> tuple[pl.DataFrame, pl.DataFrame | None]:
    """:func:`positions`, and with ``decisions`` the same games' decisions: one row per option of every decision
    with more than one (seating, game, decision, option, chosen, seat, villain, kind, options, turn, and the option's
    features as the apprentice sees them, :data:`strategies.apprentice.OPTION_FEATURE_NAMES`). ``progress`` is called
    with (games done, games planned) as games finish. Ctrl-C stops the threads after their game under way.
    ``keep``: a directory in which each seating's frames are kept as it finishes, so the same call after an
    interruption plays only the seatings not yet played (a record made with other settings is played again, and
    ``discarded`` is called with its folder once it is thrown away)."""
    import numba

    from simlab.data.cards import load_cards
    from simlab.game import warmup
    from strategies import KERNELS

    cards = load_cards()
    orders = seatings(tuple(villains))
    kernels = _kernels(orders, seed, level, cards)
    # record_game_nb calls the apprentice's option features through bound symbols, decisions or not: unbound, a
    # game without decisions crashed (segmentation fault) in a process that had not warmed the apprentice
    warmup.ensure_players(kernels | {KERNELS["apprentice"]})
    threads = max(1, min(threads or numba.get_num_threads(), games * len(orders)))
    vectors = progress_vectors(cards)
    if keep is None:
        jobs = [(order, i) for order in orders for i in range(games)]
        blocks = _record(jobs, seed, level, cards, vectors, every, threads, decisions, progress)
        frame = pl.concat([blocks[job][0] for job in jobs if job in blocks])
        chosen = pl.concat([blocks[job][1] for job in jobs if job in blocks]) if decisions else None
        return frame, chosen
    identity = {"games": games, "seed": seed, "level": _level_identity(level), "every": every}
    keep = _kept_folder(Path(keep), identity, discarded)
    parts = []
    for n, order in enumerate(orders):
        names = [keep / f"seating-{n}-{part}.parquet" for part in (["decisions"] if decisions else []) + ["positions"]]
        if not names[-1].is_file():  # the positions, written last, mark a seating kept

            def report(done, _planned, base=n * games):
                if progress is not None:
                    progress(base + done, games * len(orders))

            jobs = [(order, i) for i in range(games)]
            blocks = _record(jobs, seed, level, cards, vectors, every, threads, decisions, report)
            frames = [pl.concat([blocks[job][0] for job in jobs])]
            if decisions:
                frames.insert(0, pl.concat([blocks[job][1] for job in jobs]))
            for name, frame in zip(names, frames, strict=True):
                durable.write_with(name, frame.write_parquet, "a seating's self-play")
        parts.append([pl.read_parquet(name) for name in names])
    frame = pl.concat([p[-1] for p in parts])
    return frame, pl.concat([p[0] for p in parts]) if decisions else None


def _level_identity(level: str) -> str:
    """A level's name, or a strategy file's path with a hash of its text and of the value model it names."""
    import hashlib
    import tomllib

    path = Path(level)
    if not path.is_file():
        return level
    h = hashlib.sha256(path.read_bytes())
    model = tomllib.loads(path.read_text()).get("value_model")
    if model and (path.parent / model).is_file():
        h.update((path.parent / model).read_bytes())
    return f"{level}#{h.hexdigest()[:16]}"


def _kept_folder(keep: Path, settings: dict, discarded=None) -> Path:
    """``keep``, emptied first if it was kept with other ``settings`` or another simlab (its games would differ;
    ``discarded`` is called with it then)."""
    from simlab.runs.backend import fingerprint

    meta = keep / "settings.json"
    settings = settings | {"simlab": fingerprint()}
    if meta.is_file() and json.loads(meta.read_text()) != json.loads(json.dumps(settings)):
        shutil.rmtree(keep)
        if discarded is not None:
            discarded(keep)
    if not meta.is_file():
        keep.mkdir(parents=True, exist_ok=True)
        durable.write_bytes(meta, json.dumps(settings, indent=1).encode())
    return keep


def _kernels(orders, seed, level, cards) -> set[int]:
    """The strategy kernel ids the seats of the first game of each seating in ``orders`` play."""
    from simlab.game.api import Game
    from simlab.kernels import const as K
    from simlab.runs.levels import strategy_at

    out: set[int] = set()
    for order in orders:
        g = Game.new(
            order, seed=seed, game_index=0, strategies=tuple(strategy_at(level, v) for v in order), cards=cards
        )
        out |= {int(k) for k in g.state.sv[:, K.SV_STRATEGY]}
    return out


MAX_OPTION_ROWS = 1 << 16  # option rows of one game's decisions kept (a game has a few thousand)


def _record(jobs, seed, level, cards, progress, every, threads, decisions=False, report=None) -> dict:
    """Each job's (seating, game index) positions and decisions as frames, played on ``threads`` threads;
    ``report`` (if given) called with (games done, games planned) after each game. An exception in the calling
    thread (Ctrl-C) stops the threads once their game under way is over and is raised again."""
    import threading
    from concurrent.futures import ThreadPoolExecutor, wait

    from simlab.game.api import Game
    from simlab.kernels.state import new_state
    from simlab.runs.levels import strategy_at

    todo = iter(jobs)
    lock = threading.Lock()
    stop = threading.Event()
    blocks: dict = {}

    def work() -> None:
        buffers = _Buffers(progress, decisions)
        while not stop.is_set():
            with lock:
                job = next(todo, None)
            if job is None:
                return
            order, i = job
            strategies = tuple(strategy_at(level, v) for v in order)
            g = Game.new(order, seed=seed, game_index=i, strategies=strategies, cards=cards)
            states = buffers.states(len(order), new_state)
            blocks[job] = buffers.play(g, order, i, states, every)
            if report is not None:
                with lock:
                    report(len(blocks), len(jobs))

    pool = ThreadPoolExecutor(threads)
    try:
        futures = [pool.submit(work) for _ in range(threads)]
        # waiting in short steps: a signal the kernel hands to a worker thread reaches the Python handler only
        # when the main thread wakes, and a wait without a timeout would not wake until every game is played
        while futures:
            finished, _ = wait(futures, timeout=0.1)
            for done in finished:
                done.result()
            futures = [f for f in futures if f not in finished]
    finally:  # on Ctrl-C, the games under way finish and no other starts
        stop.set()
        pool.shutdown(wait=True)
    return blocks


class _Buffers:
    """One thread's arrays for :func:`simlab.game.positions.record_game_nb`, and the frames of a game played."""

    def __init__(self, progress, decisions: bool):
        from simlab.game.positions import N_GAINS, N_META
        from simlab.kernels import const as K
        from strategies.apprentice import N_OPTION_FEATURES
        from strategies.learned.features import N_ALL_FEATURES
        from strategies.search import N_STATS

        self.progress = progress
        self.out = np.zeros((MAX_TURNS_KEPT, 3, N_ALL_FEATURES))
        rows = MAX_OPTION_ROWS if decisions else 0
        self.x = np.zeros((rows, N_OPTION_FEATURES))
        self.meta = np.zeros((rows, N_META), np.int64)
        self.gains = np.zeros((rows, N_GAINS))
        self.stats = np.zeros((N_STATS, K.MAX_OPTS))
        self.local = np.zeros(1, np.uint64)
        self.scratch = np.zeros(K.N_INST, np.int64)
        self.counts = np.zeros(2, np.int64)
        self._states: dict[int, tuple] = {}

    def states(self, seats: int, new_state) -> tuple:
        """(work, world, ws) of ``seats`` seats; the look-ahead states' rows hold each seat's progress vector (set
        per game, as the seats' villains change)."""
        if seats not in self._states:
            self._states[seats] = tuple(new_state(seats, 0) for _ in range(3))
        return self._states[seats]

    def play(self, g, order, i, states, every) -> tuple[pl.DataFrame, pl.DataFrame]:
        from simlab.game.positions import (
            G_MEAN,
            G_VALUE,
            G_WORLDS,
            M_CHOSEN,
            M_DECISION,
            M_KIND,
            M_OPTION,
            M_OPTIONS,
            M_SEAT,
            M_TURN,
            record_game_nb,
        )
        from simlab.kernels import const as K
        from strategies.apprentice import OPTION_FEATURE_NAMES
        from strategies.learned.features import ALL_FEATURE_NAMES, KEY_NAMES

        work, world, ws = states
        for look_ahead in (world, ws):
            set_progress_rows(look_ahead, self.progress, g.state)
        tb = g.cards.tables
        args = (work, self.progress, self.out, world, ws, self.local, self.scratch, self.x, self.meta, self.stats)
        args = (*args, self.gains)
        record_game_nb(g.state, tb, g.rules, *args, self.counts)  # without the GIL
        turns, rows = int(self.counts[0]), int(self.counts[1])
        winner = int(g.state.g[K.G_WINNER])
        seating = "-vs-".join(order)
        taken = np.arange(0, turns, every)
        frames = []
        for s, v in enumerate(order):
            columns = {
                "seating": seating,
                "game": i,
                "turn": taken,
                "seat": s,
                "villain": v,
                "seats": len(order),
                "result": 0.5 if winner < 0 else float(s == winner),
            }
            frame = pl.DataFrame({k: np.broadcast_to(val, len(taken)) for k, val in columns.items()})
            features = pl.from_numpy(self.out[taken, s], schema=list(ALL_FEATURE_NAMES))
            # the key cards are counts of copies: kept as bytes, a position's row is a third of its float size
            key = [pl.col(n).cast(pl.UInt8) for n in KEY_NAMES]
            frames.append(frame.with_columns(features.with_columns(key)))
        meta = self.meta[:rows]
        chosen = pl.DataFrame(
            {
                "seating": np.broadcast_to(seating, rows),
                "game": np.broadcast_to(i, rows),
                "decision": meta[:, M_DECISION],
                "option": meta[:, M_OPTION],
                "chosen": meta[:, M_CHOSEN].astype(bool),
                "seat": meta[:, M_SEAT],
                "villain": np.array(order)[meta[:, M_SEAT]] if rows else np.array([], str),
                "kind": meta[:, M_KIND],
                "options": meta[:, M_OPTIONS],
                "turn": meta[:, M_TURN],
                "search_gain": self.gains[:rows, G_MEAN].copy(),
                "search_worlds": self.gains[:rows, G_WORLDS].astype(np.int64),
                "search_value": self.gains[:rows, G_VALUE].copy(),
            }
        ).with_columns(pl.from_numpy(self.x[:rows].copy(), schema=list(OPTION_FEATURE_NAMES)))
        return pl.concat(frames), chosen


def feature_matrix(frame: pl.DataFrame, features: str = "base") -> np.ndarray:
    """The positions' features of the set ``features`` (:data:`strategies.learned.value.FEATURE_SETS`), float64."""
    from strategies.learned.features import ALL_FEATURE_NAMES
    from strategies.learned.value import FEATURE_SETS

    if features not in FEATURE_SETS:
        raise ValueError(f"features must be one of {', '.join(FEATURE_SETS)}, got {features!r}")
    names = ALL_FEATURE_NAMES[: FEATURE_SETS[features]]
    missing = [n for n in names if n not in frame.columns]
    if missing:
        raise ValueError(f"the positions have no {missing[0]} ({len(missing)} of the {features} features missing)")
    return frame.select(names).to_numpy().astype(np.float64)


def game_weights(frame: pl.DataFrame) -> np.ndarray:
    """Each position's weight, so that every game weighs the same (1 over its positions)."""
    per_game = frame.group_by("seating", "game", maintain_order=True).len()
    joined = frame.select("seating", "game").join(per_game, on=["seating", "game"], how="left", maintain_order="left")
    return 1.0 / joined["len"].to_numpy().astype(np.float64) * frame.select("seat").n_unique()


def fit_value(
    frame: pl.DataFrame,
    provenance: dict | None = None,
    features: str = "base",
    alpha: float | None = None,
    target: str = "result",
):
    """The learned value model fitted on ``frame`` (:func:`positions`), over the feature set ``features``, with the
    L2 penalty ``alpha`` (default :data:`strategies.learned.value.ALPHA`), to its column ``target``: the games'
    results, or the search's own estimates (``label``, :func:`search_labels`)."""
    from strategies.learned import value

    x = feature_matrix(frame, features)
    alpha = value.ALPHA if alpha is None else alpha
    return value.fit(x, frame[target].to_numpy(), game_weights(frame), provenance, alpha)


def search_labels(positions: pl.DataFrame, decisions: pl.DataFrame) -> pl.DataFrame:
    """``positions`` with ``label``, a soft label of each seat's chance to win, and ``searched`` (the label is the
    search's): at the start of a seat's turn, the search's value of the option it took at its first searched decision
    of that turn (``search_value``; a decision's ``turn`` counts the turns begun before it), in a 2-player game one
    minus it for the opponent; elsewhere (the other seats of a 3-player game, a turn without a searched decision, a
    game no search player recorded) the game's result."""
    if "search_value" not in decisions.columns:
        raise InputError("the decisions hold no search_value (recorded before the search kept it): play them again")
    taken = (
        decisions.filter(pl.col("chosen") & pl.col("search_value").is_not_nan())
        .sort("seating", "game", "decision")
        .group_by("seating", "game", "turn", maintain_order=True)
        .agg(pl.col("seat").first().alias("_decider"), pl.col("search_value").first().alias("_value"))
        .with_columns(pl.col("turn") - 1)
    )
    joined = positions.join(taken, on=["seating", "game", "turn"], how="left", maintain_order="left")
    own = pl.col("seat") == pl.col("_decider")
    other = (pl.col("seats") == 2) & pl.col("_decider").is_not_null() & (pl.col("seat") != pl.col("_decider"))
    label = pl.when(own).then(pl.col("_value")).when(other).then(1 - pl.col("_value")).otherwise(pl.col("result"))
    return joined.with_columns(label=label, searched=(own | other).fill_null(False)).drop("_decider", "_value")


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
    from strategies.learned.features import ALL_FEATURE_NAMES

    x = held.select(ALL_FEATURE_NAMES[: model.features]).to_numpy().astype(np.float64)
    for name, p in (("learned", shared(model.predict(x), held)), ("6-weight", six_weight(held))):
        rows.append((name, value.log_loss(p[decided], result[decided]), value.brier(p[decided], result[decided])))
    return pl.DataFrame(rows, schema=["model", "log_loss", "brier"], orient="row")


# ============================================================================ the apprentice

APPRENTICE_ALPHA = 1e-3  # L2 penalty on the standardised weights


def decision_starts(decisions: pl.DataFrame) -> np.ndarray:
    """The first row of each decision in ``decisions`` (:func:`self_play`; a decision's options are adjacent)."""
    key = decisions.select(pl.struct("seating", "game", "decision").rank("dense")).to_series().to_numpy()
    return np.flatnonzero(np.r_[True, key[1:] != key[:-1]])


def fit_apprentice(decisions: pl.DataFrame, alpha: float = APPRENTICE_ALPHA, names=None) -> dict[str, np.ndarray]:
    """Each villain's apprentice weights (:mod:`strategies.apprentice`) fitted to the choices in ``decisions``
    (:func:`self_play`): a conditional logit, P(option) proportional to exp(weights . its features), every decision
    weighing the same, on standardised features with an L2 penalty ``alpha``, by L-BFGS (scipy). Returns villain ->
    weights on the features as they are (the standardising folded in; the shift, the same for every option of a
    decision, dropped). ``names``: the option features fitted on (default the apprentice's)."""
    from scipy.optimize import minimize

    out = {}
    for villain in sorted(decisions["villain"].unique().to_list()):
        part = decisions.filter(pl.col("villain") == villain)
        x = part.select(_option_features(names)).to_numpy().astype(np.float64)
        chosen = part["chosen"].to_numpy()
        starts = decision_starts(part)
        mean = x.mean(axis=0)
        scale = x.std(axis=0)
        scale[scale == 0] = 1.0
        z = (x - mean) / scale
        loss = _conditional_logit_loss(z, chosen, starts, alpha)
        fit = minimize(loss, np.zeros(z.shape[1]), jac=True, method="L-BFGS-B", options={"maxiter": 500})
        out[villain] = fit.x / scale
    return out


def _conditional_logit_loss(z, chosen, starts, alpha):
    """The mean negative log-likelihood of the chosen options (one per decision) and its gradient, plus ``alpha``/2
    times the squared weights."""
    group = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, len(z)]))
    decisions = len(starts)

    def loss(w):
        score = z @ w
        top = np.maximum.reduceat(score, starts)
        e = np.exp(score - top[group])
        total = np.add.reduceat(e, starts)
        log_p = score[chosen] - top[group[chosen]] - np.log(total[group[chosen]])
        p = e / total[group]
        p[chosen] -= 1.0
        value = -log_p.sum() / decisions + 0.5 * alpha * w @ w
        return value, z.T @ p / decisions + alpha * w

    return loss


def _option_features(names) -> list[str]:
    from strategies.apprentice import OPTION_FEATURE_NAMES

    return list(OPTION_FEATURE_NAMES if names is None else names)


def apprentice_choices(weights: dict[str, np.ndarray], decisions: pl.DataFrame, names=None) -> np.ndarray:
    """For each decision of ``decisions`` (in order), the option the apprentice with ``weights`` (on the option
    features ``names``, default the apprentice's) takes: the best score, the lower option on a tie (as its kernel
    does)."""
    x = decisions.select(_option_features(names)).to_numpy().astype(np.float64)
    w = np.stack([weights[v] for v in decisions["villain"].to_list()])
    score = np.einsum("ij,ij->i", x, w)
    starts = decision_starts(decisions)
    top = np.maximum.reduceat(score, starts)
    group = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, len(score)]))
    first_best = np.minimum.reduceat(np.where(score == top[group], np.arange(len(score)), len(score)), starts)
    return decisions["option"].to_numpy()[first_best]


def agreement(weights: dict[str, np.ndarray], decisions: pl.DataFrame, names=None) -> pl.DataFrame:
    """How often the apprentice with ``weights`` (on the option features ``names``, default the apprentice's) takes
    the option taken in ``decisions`` (held-out games), beside the tuned heuristic's choice in the same look-ahead
    world: per villain and overall, with the decisions counted."""
    starts = decision_starts(decisions)
    heads = decisions[starts]
    taken = decisions.filter(pl.col("chosen"))["option"].to_numpy()
    tuned = decisions.filter(pl.col("tuned_pick") == 1)["option"].to_numpy()
    frame = heads.select("villain").with_columns(
        apprentice=pl.Series(apprentice_choices(weights, decisions, names) == taken),
        tuned=pl.Series(tuned == taken),
    )
    rows = frame.group_by("villain").agg(pl.len().alias("decisions"), pl.col("apprentice", "tuned").mean())
    every = frame.select(
        pl.lit("all").alias("villain"), pl.len().alias("decisions"), pl.col("apprentice", "tuned").mean()
    )
    return pl.concat([rows.sort("villain"), every])


HELD_EVERY = 5  # every 5th game of a seating is held out of a fit, to measure it on


def split_games(frame: pl.DataFrame, every: int = HELD_EVERY) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``frame`` (positions or decisions) as (fitted on, held out): every ``every``-th game of each seating held out,
    a whole game on one side."""
    held = pl.col("game") % every == every - 1
    return frame.filter(~held), frame.filter(held)


def apprentice_step(decisions: pl.DataFrame) -> tuple[dict[str, np.ndarray], pl.DataFrame]:
    """The apprentice fitted on the games of ``decisions`` that are not held out (:func:`split_games`), and its
    agreement on the held-out ones (:func:`agreement`)."""
    train, held = split_games(decisions)
    weights = fit_apprentice(train)
    return weights, agreement(weights, held)


def make_apprentice(
    path, games: int, seed: int, level: str = "search", threads=None, decisions: pl.DataFrame | None = None
) -> pl.DataFrame:
    """Fit the apprentice on the decisions of ``games`` self-play games per seating at ``level`` (or on
    ``decisions``, the frame :func:`self_play` gives for those arguments, already played) and write it to ``path``
    with its provenance and its agreement on the held-out games; returns the agreement table."""
    import time

    from simlab.runs.backend import source_commit
    from strategies import apprentice

    t = time.process_time()
    if decisions is None:
        decisions = self_play(games, seed, level, threads=threads, decisions=True)[1]
    weights, table = apprentice_step(decisions)
    provenance = {
        "data": level,
        "games_per_seating": games,
        "decisions": int(decisions.select(pl.struct("seating", "game", "decision").n_unique()).item()),
        "seed": seed,
        "held_out": f"every {HELD_EVERY}th game of each seating",
        "agreement": {r["villain"]: round(r["apprentice"], 4) for r in table.iter_rows(named=True)},
        "tuned_agreement": {r["villain"]: round(r["tuned"], 4) for r in table.iter_rows(named=True)},
        "commit": source_commit() or "unknown",
        "command": f"simlab.studies.learn.make_apprentice(path, {games}, {seed}, {level!r})",
        "cpu_seconds_fit": round(time.process_time() - t, 1),
    }
    apprentice.write(weights, path, provenance)
    return table


def apprentice_strength(path, games: int, seed: int, against=("strong", "tuned"), threads=None) -> dict:
    """The apprentice in ``path``'s paired gain (:func:`paired_gain`) over each level of ``against``, per villain,
    every other seat at that level; also written into the model's provenance (``strength``), with the command."""
    import tempfile

    from strategies import apprentice

    path = Path(path).resolve()
    with tempfile.TemporaryDirectory() as folder:
        strategy = Path(folder) / "apprentice.toml"
        strategy.write_text(f'name = "apprentice-measured"\nbase = "apprentice"\npolicy_model = "{path}"\n')
        out = {
            level: {v: paired_gain(v, str(strategy), level, games, seed, threads) for v in VILLAIN_KEYS}
            for level in against
        }
    provenance = json.loads(path.read_text(encoding="utf-8"))["provenance"]
    provenance["strength"] = {
        "gain_over": {lv: {v: {k: round(x, 4) for k, x in g.items()} for v, g in by.items()} for lv, by in out.items()},
        "command": f"simlab.studies.learn.apprentice_strength(path, {games}, {seed}, {tuple(against)!r})",
    }
    apprentice.write(apprentice.read(str(path)), path, provenance)  # the model's own writer: durable, same format
    apprentice.read.cache_clear()
    return out


# ============================================================================ is a generation stronger?


def paired_gain(
    villain: str,
    candidate: str,
    incumbent: str,
    games: int,
    seed: int,
    threads=None,
    villains=VILLAIN_KEYS,
    cache: dict | None = None,
    progress=None,
    keep: Path | None = None,
    label: str = "candidate",
    discarded=None,
) -> dict:
    """How much more ``villain`` wins playing ``candidate`` than playing ``incumbent``, every other seat playing
    ``incumbent``, on the same games (same seeds, seats and deals): over every 2-player pairing of ``villain`` with
    another of ``villains``, ``games`` games each (``candidate`` and ``incumbent``: levels or strategies; the
    matchup named in the order of ``villains``, so the games with ``incumbent`` on both seats are the same for
    either villain of a pairing: ``cache``, a dict kept between calls, keeps them). Returns the gain (share of
    games), its 95% interval from the paired differences, and the games. ``progress`` is called with (games done,
    games planned). An interrupted run (Ctrl-C) raises KeyboardInterrupt: a gain over the games finished would pair
    unequal runs. ``keep``: a directory in which each run records its finished chunks of :data:`KEPT_CHUNK` games
    (``label`` names the candidate's runs there), so the same call after an interruption plays only the games not
    yet played, with the same results (a chunk's games depend on the seed and the game index alone); a record made
    with other settings (another simlab) is played again, and ``discarded`` is called with its folder once it is
    thrown away."""
    from simlab.runs.levels import strategy_at
    from simlab.runs.settings import RunSettings

    cache = {} if cache is None else cache
    others = [v for v in villains if v != villain]
    planned = 2 * games * len(others)
    done = 0
    diffs = []
    for other in others:
        pair = tuple(v for v in villains if v in (villain, other))
        won = {}
        for name, strategy in (("candidate", candidate), ("incumbent", incumbent)):
            if name == "incumbent" and (pair, incumbent, games, seed) in cache:
                won[name] = cache[(pair, incumbent, games, seed)][villain]
                done += games
                continue

            def step(n, _total, base=done):
                if progress is not None:
                    progress(base + n, planned)

            settings = RunSettings(games, seed, threads=threads, progress=step)
            seats = {villain: strategy_at(strategy, villain), other: strategy_at(incumbent, other)}
            matchup = "-vs-".join(pair)
            # the incumbent's run is the same games for either villain of the pairing
            run_name = f"{matchup}-incumbent" if name == "incumbent" else f"{matchup}-{villain}-{label}"
            kept = None if keep is None else Path(keep) / run_name
            result = _kept_run(matchup, settings, seats, kept, discarded)
            if result.interrupted:
                raise KeyboardInterrupt
            winners = result.games.sort("game")["winner"]
            won[name] = winners.eq(villain).fill_null(False).cast(pl.Float64).to_numpy()
            if name == "incumbent":
                cache[(pair, incumbent, games, seed)] = {
                    v: winners.eq(v).fill_null(False).cast(pl.Float64).to_numpy() for v in pair
                }
            done += games
        diffs.append(won["candidate"] - won["incumbent"])
    return gain_interval(np.concatenate(diffs))


KEPT_CHUNK = 100  # games a kept run records at a time: about a minute of the top generation's play on two cores


def _kept_run(matchup: str, settings, seats: dict, kept: Path | None, discarded=None):
    """:func:`simlab.runs.sim.run` of ``matchup``, its chunks recorded in ``kept`` (if given) and read back from it;
    a record that does not match is thrown away (``discarded`` called) and played again."""
    from simlab.runs.sim import run

    if kept is None:
        return run(matchup, settings, strategies=seats, keep_games=True)
    try:
        return run(matchup, settings, strategies=seats, keep_games=True, chunk=KEPT_CHUNK, checkpoint=kept)
    except InputError as exc:
        if not (kept.exists() and str(exc).startswith("checkpoint")):
            raise
        shutil.rmtree(kept)  # recorded with other settings or damaged: those games are played again
        if discarded is not None:
            discarded(kept)
        return run(matchup, settings, strategies=seats, keep_games=True, chunk=KEPT_CHUNK, checkpoint=kept)


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
TUNED_PREFIX = "tuned:"  # the seating of a tuned game's positions, so its (seating, game) is no search game's


def with_tuned(frame: pl.DataFrame, tuned: pl.DataFrame) -> pl.DataFrame:
    """The positions ``frame`` and, after them, the tuned games' ``tuned``, whose seatings are prefixed with
    :data:`TUNED_PREFIX`: a game is one (seating, game) for :func:`game_weights`, and game ``i`` of a seating at
    the tuned level is not game ``i`` of the same seating at search."""
    tuned = tuned.with_columns((pl.lit(TUNED_PREFIX) + pl.col("seating")).alias("seating"))
    # positions recorded before the key cards (a resumed run's) have fewer columns: the ones both have are kept
    if frame.columns != tuned.columns:
        common = [c for c in frame.columns if c in tuned.columns]
        frame, tuned = frame.select(common), tuned.select(common)
    return pl.concat([frame, tuned])


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
    frame = with_tuned(frame, tuned)
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
        durable.write_with(positions_to, frame.write_parquet, "the positions")
    lines = tomli_w.dumps(provenance).strip()
    durable.write_text(folder / "search.toml", SEARCH_TEMPLATE.format(k=k, prev=k - 1, provenance=lines), "search.toml")
    return folder / "search.toml", model, frame
