"""Scoring a log against the predictions (:func:`evaluate`): the fit of each model, the verdicts, each matchup and
seat, the first player, the calibration bins, game lengths and groups; and :func:`calibrate`, the whole study."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from simlab.errors import InputError
from simlab.runs.settings import RunSettings, settings_from
from simlab.runs.stats import Z95, wilson
from simlab.studies.calibration.log import GameLog, compatible_orders, read_log
from simlab.studies.calibration.predictions import DEFAULT_GAMES, Predictions, predict

DECISIVE_RATIO = 20.0  # a likelihood ratio this large decides between two models (Kass & Raftery: strong)
POWER = 0.8  # chance of reaching DECISIVE_RATIO that "games needed" asks for
Z_POWER = 0.8416212335729143  # standard normal quantile of POWER
CALIBRATION_BINS = 10


@dataclass
class CalibrationResult:
    """Every table of a calibration (polars frames) and the verdicts."""

    log: GameLog
    predictions: Predictions
    fit: pl.DataFrame  # per model: log-likelihood, Brier score, each against a coin flip; likelihood ratio to the best
    verdicts: pl.DataFrame  # per question (level, readings): best, runner-up, likelihood ratio, decided, games needed
    matchups: pl.DataFrame  # per model, seat order and seat: observed wins vs predicted, exact binomial p-value
    first_player: pl.DataFrame  # per model and player count: first player's wins and advantage, observed vs predicted
    calibration: pl.DataFrame  # per model and bin of predicted probability: observed frequency, Wilson interval
    lengths: pl.DataFrame  # per model and matchup: observed rounds vs the simulated distribution (empty: no rounds)
    length_distribution: pl.DataFrame  # per model and rounds: share of logged games vs of simulated games
    groups: pl.DataFrame  # per group label and model: games, log-likelihood, Brier score (empty: no labels)
    per_game: pl.DataFrame = field(repr=False)  # per model, game and seated villain: predicted probability, won

    @property
    def best(self) -> str:
        return str(self.fit["model"][0])

    def frames(self) -> dict[str, pl.DataFrame]:
        return {
            "fit": self.fit,
            "verdicts": self.verdicts,
            "matchups": self.matchups,
            "first_player": self.first_player,
            "calibration": self.calibration,
            "lengths": self.lengths,
            "length_distribution": self.length_distribution,
            "groups": self.groups,
            "games": self.log.games,
            "skipped": self.log.skipped,
            "predictions": self.predictions.orders,
        }

    def to_pandas(self) -> dict:
        return {k: v.to_pandas() for k, v in self.frames().items()}

    def to_json(self) -> str:
        return json.dumps(self.to_doc(), indent=2, default=str)

    def to_doc(self) -> dict:
        """The calibration's log, settings and frames (as lists of rows) as plain data."""
        doc = {
            "log": self.log.describe(),
            "columns": self.log.columns,
            "simulated_games_per_order": self.predictions.n_games,
            "seed": self.predictions.seed,
            "best": self.best,
        }
        for k, v in self.frames().items():
            if k not in ("games", "predictions"):
                doc[k] = v.to_dicts()
        return doc


def _key_predictions(log: GameLog, pred: Predictions) -> pl.DataFrame:
    """Per model, seating key and position: the simulated counts pooled over the key's compatible orders."""
    counts = {
        (m, o, s): (g, f, w)
        for m, o, s, g, f, w in pred.orders.select("model", "order", "seat", "games", "finished", "wins").iter_rows()
    }
    rows = []
    keys = log.games.select("seating", "villains", "ordered", "first_known").unique("seating", maintain_order=True)
    for model in pred.models["model"]:
        for key, villains, ordered, first_known in keys.iter_rows():
            villains = tuple(villains)
            P = len(villains)
            compat = compatible_orders(villains, ordered, first_known)
            for pos, v in enumerate(villains):
                games = finished = wins = 0
                for o in compat:
                    okey = " > ".join(o)
                    seat = pos if ordered else o.index(v)
                    g, f, w = counts[(model, okey, seat)]
                    games, finished, wins = games + g, finished + f, wins + w
                lo, hi = wilson(wins, finished)
                rows.append(
                    {
                        "model": model,
                        "seating": key,
                        "position": pos,
                        "villain": v,
                        "seat": pos if ordered or (pos == 0 and first_known) else None,
                        "sim_games": games,
                        "sim_finished": finished,
                        "sim_wins": wins,
                        "predicted": (wins + 0.5) / (finished + P / 2),
                        "predicted_low": float(lo),
                        "predicted_high": float(hi),
                    }
                )
    return pl.DataFrame(rows, schema_overrides={"seat": pl.Int64})


def _verdicts(fit: pl.DataFrame, per_game: pl.DataFrame, n_games: int) -> pl.DataFrame:
    """For each question with more than one answer (which level, which readings), the best answer against the
    runner-up: likelihood ratio, decided, and the games a log would need to decide."""
    rows = []
    questions = [("level", "level"), ("readings", "rules")]
    for question, col in questions:
        profile = fit.sort("log_lik", descending=True).unique(col, keep="first", maintain_order=True)
        if profile.height < 2:
            continue
        best, runner = profile.row(0, named=True), profile.row(1, named=True)
        log_lr = best["log_lik"] - runner["log_lik"]
        needed = games_needed(per_game, best["model"], runner["model"])
        decided = log_lr >= math.log(DECISIVE_RATIO)
        if decided:
            text = (
                f"{question}: {best[col]} fits best; likelihood ratio {ratio_text(log_lr)} against the runner-up "
                f"{runner[col]} on {n_games:,} games (decided: {DECISIVE_RATIO:g} or more is strong evidence)"
            )
        else:
            text = (
                f"{question}: the log cannot decide between {best[col]} and {runner[col]} "
                f"(likelihood ratio {ratio_text(log_lr)}, below {DECISIVE_RATIO:g}, on {n_games:,} games); "
                + (
                    f"about {needed:,} games would be needed to tell them apart ({POWER:.0%} chance of a ratio of "
                    f"{DECISIVE_RATIO:g} if {best[col]} is right)"
                    if needed is not None
                    else "they predict the same outcomes for these games, so no log of them can tell them apart"
                )
            )
        rows.append(
            {
                "question": question,
                "best": best[col],
                "runner_up": runner[col],
                "best_model": best["model"],
                "runner_up_model": runner["model"],
                "games": n_games,
                "log_lr": log_lr,
                "likelihood_ratio": math.exp(min(log_lr, 700.0)),
                "decided": decided,
                "games_needed": needed,
                "verdict": text,
            }
        )
    schema = {
        "question": pl.String,
        "best": pl.String,
        "runner_up": pl.String,
        "best_model": pl.String,
        "runner_up_model": pl.String,
        "games": pl.Int64,
        "log_lr": pl.Float64,
        "likelihood_ratio": pl.Float64,
        "decided": pl.Boolean,
        "games_needed": pl.Int64,
        "verdict": pl.String,
    }
    return pl.DataFrame(rows, schema=schema)


def ratio_text(log_lr: float) -> str:
    """A likelihood ratio given by its logarithm, readable however large (``3.2e+04``, ``e^812``)."""
    return f"{math.exp(log_lr):.3g}" if log_lr < 50 else f"e^{log_lr:.0f}"


def games_needed(per_game: pl.DataFrame, true_model: str, other: str) -> int | None:
    """Games (in the log's mix of seat orders) for an 80% chance that the likelihood ratio of ``true_model``
    against ``other`` reaches 20 if ``true_model`` is right (normal approximation to the sum of per-game log
    ratios: mean = mean Kullback-Leibler divergence per game, variance = the mix's). None: same predictions."""
    a = per_game.filter(pl.col("model") == true_model).select("line", "position", pl.col("predicted").alias("p"))
    b = per_game.filter(pl.col("model") == other).select("line", "position", pl.col("predicted").alias("q"))
    j = a.join(b, on=["line", "position"]).with_columns((pl.col("p") / pl.col("q")).log().alias("lr"))
    g = j.group_by("line").agg(
        (pl.col("p") * pl.col("lr")).sum().alias("m"), (pl.col("p") * pl.col("lr") ** 2).sum().alias("s")
    )
    mu = float(g["m"].mean())
    var = max(float(g["s"].mean()) - mu * mu, 0.0)
    if not mu > 1e-12:
        return None
    c = math.log(DECISIVE_RATIO)
    sd = math.sqrt(var)
    root = (Z_POWER * sd + math.sqrt(Z_POWER**2 * var + 4 * mu * c)) / (2 * mu)
    return int(math.ceil(root * root))


def _binom_p(k: int, n: int, p: float) -> float:
    from scipy.stats import binomtest

    return float(binomtest(k, n, p).pvalue)


def _poisson_binom_p(k: int, probs: np.ndarray) -> float:
    """Two-sided exact p-value of k successes among independent trials with ``probs`` (the smaller tail, doubled)."""
    from scipy.stats import poisson_binom

    low = float(poisson_binom.cdf(k, probs))
    high = float(poisson_binom.sf(k - 1, probs))
    return min(1.0, 2 * min(low, high))


def evaluate(log: GameLog, pred: Predictions) -> CalibrationResult:
    """Score ``log`` against the simulated predictions of every model (see the module docstring)."""
    games = log.games
    keyp = _key_predictions(log, pred)
    missing = set(games["seating"]) - set(keyp["seating"])
    if missing:
        raise InputError(f"the predictions do not cover the log's seat orders {sorted(missing)}")
    per_game = (
        games.select("line", "players", "first_known", "seating", "matchup", "winner_pos", "group")
        .join(keyp, on="seating", how="inner")
        .with_columns((pl.col("position") == pl.col("winner_pos")).alias("won"))
        .sort("model", "line", "position")
    )
    n = games.height
    model_order = list(pred.models["model"])

    fit, scores = _fit(games, per_game, pred)
    verdicts = _verdicts(fit, per_game, n)
    matchups = _matchup_cells(games, keyp, pred, model_order)
    first_player = _first_player(per_game, model_order)
    calibration = _calibration_bins(per_game, model_order)
    lengths, distribution = _lengths(log, pred, model_order)
    groups = _groups(games, scores, model_order)
    per_game_out = per_game.select("model", "line", "seating", "position", "villain", "predicted", "won")
    return CalibrationResult(
        log, pred, fit, verdicts, matchups, first_player, calibration, lengths, distribution, groups, per_game_out
    )


def _fit(games: pl.DataFrame, per_game: pl.DataFrame, pred: Predictions) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Each model's log-likelihood and Brier score against a coin flip, its weight and the games needed to tell
    it from the best; and the per-game scores (model, line, players, ll, brier)."""
    scores = per_game.group_by("model", "line", "players").agg(
        pl.col("predicted").filter(pl.col("won")).first().log().alias("ll"),
        ((pl.col("predicted") - pl.col("won").cast(pl.Float64)) ** 2).sum().alias("brier"),
    )
    base = games.select(
        (-(pl.col("players").cast(pl.Float64).log())).sum().alias("ll0"),
        ((pl.col("players") - 1) / pl.col("players")).mean().alias("brier0"),
    ).row(0, named=True)
    fit = (
        scores.group_by("model")
        .agg(pl.len().alias("games"), pl.col("ll").sum().alias("log_lik"), pl.col("brier").mean().alias("brier"))
        .join(pred.models.select("model", "level", "rules"), on="model")
        .with_columns(
            pl.lit(base["ll0"]).alias("coin_flip_log_lik"),
            pl.lit(base["brier0"]).alias("coin_flip_brier"),
        )
        .with_columns(
            (pl.col("log_lik") - pl.col("coin_flip_log_lik")).alias("log_lik_gain"),
            (pl.col("log_lik") / pl.col("games")).alias("log_lik_per_game"),
            (1 - pl.col("brier") / pl.col("coin_flip_brier")).alias("brier_skill"),
        )
        .sort("log_lik", descending=True)
    )
    top = float(fit["log_lik"][0])
    weights = np.exp(fit["log_lik"].to_numpy() - top)
    fit = fit.with_columns(
        (top - pl.col("log_lik")).alias("log_lr_best"),
        pl.Series("weight", weights / weights.sum()),  # the models' posterior shares with equal prior weights
    )
    best = str(fit["model"][0])
    needed = [games_needed(per_game, best, m) if m != best else None for m in fit["model"]]
    fit = fit.with_columns(pl.Series("games_needed", needed, dtype=pl.Int64)).select(
        "model",
        "level",
        "rules",
        "games",
        "log_lik",
        "coin_flip_log_lik",
        "log_lik_gain",
        "log_lik_per_game",
        "brier",
        "coin_flip_brier",
        "brier_skill",
        "log_lr_best",
        "weight",
        "games_needed",
    )
    return fit, scores


def _matchup_cells(games: pl.DataFrame, keyp: pl.DataFrame, pred: Predictions, model_order: list[str]) -> pl.DataFrame:
    """Observed wins against predicted per model, matchup, seat order and seat, with the exact binomial p."""
    obs = games.group_by("seating", "winner_pos").len("wins")
    cells = (
        keyp.join(games.group_by("seating", "matchup").len("games"), on="seating")
        .join(obs.rename({"winner_pos": "position"}), on=["seating", "position"], how="left")
        .with_columns(pl.col("wins").fill_null(0).cast(pl.Int64))
    )
    lo, hi = wilson(cells["wins"].to_numpy(), cells["games"].to_numpy())
    pvals = [_binom_p(k, g, p) for k, g, p in cells.select("wins", "games", "predicted").iter_rows()]
    return (
        cells.with_columns(
            (pl.col("wins") / pl.col("games")).alias("observed"),
            pl.Series("observed_low", lo),
            pl.Series("observed_high", hi),
            pl.Series("p_value", pvals),
        )
        .join(pred.models.select("model", "level", "rules"), on="model")
        .select(
            "model",
            "level",
            "rules",
            "matchup",
            "seating",
            "seat",
            "villain",
            "games",
            "wins",
            "observed",
            "observed_low",
            "observed_high",
            "predicted",
            "predicted_low",
            "predicted_high",
            "sim_finished",
            "p_value",
        )
        .sort(pl.col("model").replace_strict(model_order, list(range(len(model_order)))), "matchup", "seating", "seat")
    )


def _first_player(per_game: pl.DataFrame, model_order: list[str]) -> pl.DataFrame:
    """The first player's share of wins and advantage, observed against predicted, per model and player count."""
    # a game whose first player nobody noted says nothing about going first
    firsts = per_game.filter((pl.col("position") == 0) & pl.col("first_known")).with_columns(
        pl.col("won").cast(pl.Float64).alias("x"),
        (pl.col("predicted") - (1 - pl.col("predicted")) / (pl.col("players") - 1)).alias("adv_pred"),
        (pl.col("won").cast(pl.Float64) - (1 - pl.col("won").cast(pl.Float64)) / (pl.col("players") - 1)).alias(
            "adv_obs"
        ),
    )
    fp_rows = []
    for model in model_order:
        sub_all = firsts.filter(pl.col("model") == model)
        for label in ("2-player", "3-player", "all"):
            sub = sub_all if label == "all" else sub_all.filter(pl.col("players") == int(label[0]))
            if sub.height == 0 or (label == "all" and sub["players"].n_unique() < 2):
                continue
            k, m = int(sub["x"].sum()), sub.height
            wl, wh = (float(x) for x in wilson(k, m))
            adv = float(sub["adv_obs"].mean())
            if label == "all":  # mixed player counts: normal approximation, kept inside the possible range
                half = Z95 * float(sub["adv_obs"].std()) / math.sqrt(m)
                floor = -float((1 / (sub["players"] - 1)).mean())
                adv_low, adv_high = max(adv - half, floor), min(adv + half, 1.0)
            else:  # one player count: the advantage is a rising function of the share; map its Wilson interval
                P = int(label[0])
                adv_low, adv_high = wl - (1 - wl) / (P - 1), wh - (1 - wh) / (P - 1)
            fp_rows.append(
                {
                    "model": model,
                    "players": label,
                    "games": m,
                    "first_wins": k,
                    "observed": k / m,
                    "observed_low": wl,
                    "observed_high": wh,
                    "predicted": float(sub["predicted"].mean()),
                    "advantage_observed": adv,
                    "advantage_low": adv_low,
                    "advantage_high": adv_high,
                    "advantage_predicted": float(sub["adv_pred"].mean()),
                    "p_value": _poisson_binom_p(k, sub["predicted"].to_numpy()),
                }
            )
    return pl.DataFrame(fp_rows)


def _calibration_bins(per_game: pl.DataFrame, model_order: list[str]) -> pl.DataFrame:
    """Observed frequency against predicted probability in bins of the prediction, per model."""
    binned = per_game.with_columns(
        pl.min_horizontal((pl.col("predicted") * CALIBRATION_BINS).floor(), CALIBRATION_BINS - 1)
        .cast(pl.Int64)
        .alias("bin")
    )
    cal = (
        binned.group_by("model", "bin")
        .agg(
            pl.len().alias("entries"),
            pl.col("won").sum().cast(pl.Int64).alias("wins"),
            pl.col("predicted").mean().alias("predicted"),
        )
        .with_columns(
            (pl.col("bin") / CALIBRATION_BINS).alias("bin_low"),
            ((pl.col("bin") + 1) / CALIBRATION_BINS).alias("bin_high"),
            (pl.col("wins") / pl.col("entries")).alias("observed"),
        )
    )
    lo, hi = wilson(cal["wins"].to_numpy(), cal["entries"].to_numpy())
    return (
        cal.with_columns(pl.Series("observed_low", lo), pl.Series("observed_high", hi))
        .sort(pl.col("model").replace_strict(model_order, list(range(len(model_order)))), "bin")
        .select(
            "model", "bin_low", "bin_high", "entries", "wins", "predicted", "observed", "observed_low", "observed_high"
        )
    )


def _groups(games: pl.DataFrame, scores: pl.DataFrame, model_order: list[str]) -> pl.DataFrame:
    """The fit per labelled group (play group, event), when the log labels its games; else an empty frame."""
    groups = pl.DataFrame()
    if games["group"].null_count() < games.height:
        groups = (
            scores.join(games.select("line", "group"), on="line")
            .filter(pl.col("group").is_not_null())
            .group_by("group", "model")
            .agg(
                pl.len().alias("games"),
                pl.col("ll").sum().alias("log_lik"),
                (-(pl.col("players").cast(pl.Float64).log())).sum().alias("coin_flip_log_lik"),
                pl.col("brier").mean().alias("brier"),
            )
            .with_columns((pl.col("log_lik") == pl.col("log_lik").max().over("group")).alias("best_in_group"))
            .sort("group", pl.col("model").replace_strict(model_order, list(range(len(model_order)))))
        )
    return groups


def _lengths(log: GameLog, pred: Predictions, model_order: list[str]) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Observed rounds against each model's simulated distribution of finished games for the same seat orders.

    Each logged game's rounds r is placed in its own simulated distribution F by the mid-distribution
    transform u = F(r - 1) + f(r) / 2; if the simulation is right, u has mean 1/2 and variance
    (1 - sum f^3) / 12, which gives a z statistic per matchup (above 0: real games are longer)."""
    from scipy.stats import norm

    timed = log.games.filter(pl.col("rounds").is_not_null())
    if timed.height == 0:
        return pl.DataFrame(), pl.DataFrame()
    cap = pred.max_turns + 1
    top = max(cap, int(timed["rounds"].max()) + 1)
    hists = {}
    for (model, order), part in pred.rounds.group_by("model", "order"):
        h = np.zeros(top + 1)
        np.add.at(h, np.minimum(part["rounds"].to_numpy(), top), part["count"].to_numpy())
        hists[(model, order)] = h
    rows, dist_rows = [], []
    keys = timed.select("seating", "villains", "ordered", "first_known").unique("seating", maintain_order=True)
    for model in model_order:
        pmf = {}
        for key, villains, ordered, first_known in keys.iter_rows():
            h = sum(
                (
                    hists.get((model, " > ".join(o)), np.zeros(top + 1))
                    for o in compatible_orders(tuple(villains), ordered, first_known)
                ),
                np.zeros(top + 1),
            )
            pmf[key] = h / h.sum() if h.sum() > 0 else None
        values = np.arange(top + 1)
        groups = [("all games", timed)] + [
            (m, timed.filter(pl.col("matchup") == m)) for m in sorted(timed["matchup"].unique())
        ]
        if timed["matchup"].n_unique() == 1:
            groups = groups[1:]
        for label, sub in groups:
            us, vs, means, mix = [], [], [], np.zeros(top + 1)
            used = 0
            for key, r in sub.select("seating", "rounds").iter_rows():
                f = pmf[key]
                if f is None:
                    continue
                used += 1
                cdf_below = f[:r].sum()
                us.append(cdf_below + f[r] / 2)
                vs.append((1 - (f**3).sum()) / 12)
                means.append((values * f).sum())
                mix += f
            if used == 0:
                continue
            mix /= used
            cum = np.cumsum(mix)
            z = (sum(us) - used / 2) / math.sqrt(sum(vs)) if sum(vs) > 0 else float("nan")
            obs = sub["rounds"].to_numpy()
            rows.append(
                {
                    "model": model,
                    "matchup": label,
                    "games": used,
                    "observed_mean": float(obs.mean()),
                    "observed_median": float(np.median(obs)),
                    "simulated_mean": float(np.mean(means)),
                    "simulated_median": _quantile(cum, 0.5),
                    "simulated_p10": _quantile(cum, 0.1),
                    "simulated_p90": _quantile(cum, 0.9),
                    "mean_pit": float(np.mean(us)),
                    "z": z,
                    "p_value": float(2 * norm.sf(abs(z))) if z == z else float("nan"),
                }
            )
            if label == "all games" or len(groups) == 1:
                counts = np.bincount(np.minimum(obs, top), minlength=top + 1)
                last = int(np.flatnonzero((counts > 0) | (mix > 0)).max())
                dist_rows += [
                    {"model": model, "rounds": r, "observed": counts[r] / obs.size, "simulated": float(mix[r])}
                    for r in range(1, last + 1)
                ]
    return pl.DataFrame(rows), pl.DataFrame(dist_rows)


def _quantile(cum: np.ndarray, p: float) -> float:
    """The smallest value whose cumulative share reaches ``p`` (nearest rank)."""
    return float(np.searchsorted(cum, p - 1e-12))


# ============================================================================ the whole study


def calibrate(
    games,
    levels: Sequence[str] | None = None,
    rules: Mapping[str, str | Sequence[str]] | None = None,
    n_games: int | None = None,
    *,
    settings: RunSettings | None = None,
    **given,
) -> CalibrationResult:
    """Read the log ``games`` (a CSV or parquet path, or a frame; see :func:`read_log`), simulate its seat
    orders for every model (:func:`predict`: ``n_games`` games per seat order, each level at each rule
    setting) and score the log against them (:func:`evaluate`). ``settings`` and ``given`` as for
    :func:`predict`."""
    if settings is None:
        settings = settings_from(None, n_games=n_games or DEFAULT_GAMES, **given)
        n_games = None
    log = read_log(games)
    pred = predict(log.orders(), levels, rules, n_games, settings=settings)
    return evaluate(log, pred)
