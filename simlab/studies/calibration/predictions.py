"""The models a log is scored against and their predictions: each level at each rule setting compared, every seat
order of the log simulated, the simulated wins and rounds by model and seat order."""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from simlab.data.cards import VILLAIN_KEYS
from simlab.data.rules import DEFAULT_MAX_TURNS, RULE_VARIANTS, rules_array
from simlab.errors import InputError
from simlab.runs.settings import RunSettings, settings_from

DEFAULT_GAMES = 2000  # simulated games per seat order and model


def rule_settings(rules: Mapping[str, str | Sequence[str]] | None, max_turns: int = DEFAULT_MAX_TURNS) -> list[dict]:
    """The rule settings to compare: a variant given one value applies to every setting; a variant given
    several values (a list, ``"a,b"``, or ``"all"``) is compared at each, every combination with the others."""
    fixed, varied = {}, {}
    for variant, value in dict(rules or {}).items():
        if variant not in RULE_VARIANTS:
            raise InputError(f"unknown rule variant {variant!r}; choose from {', '.join(RULE_VARIANTS)}")
        values = list(value) if isinstance(value, list | tuple) else [v.strip() for v in str(value).split(",")]
        if values == ["all"]:
            values = list(RULE_VARIANTS[variant].values)
        values = list(dict.fromkeys(v for v in values if v))
        if not values:
            raise InputError(
                f"--rules {variant}= needs a value; choose from {', '.join(RULE_VARIANTS[variant].values)}"
            )
        if len(values) == 1:
            fixed[variant] = values[0]
        else:
            varied[variant] = values
    settings = [{**fixed, **dict(zip(varied, combo, strict=True))} for combo in itertools.product(*varied.values())]
    for s in settings:
        rules_array(s, max_turns)  # an unknown value fails here, naming the choices
    return settings


def setting_label(setting: Mapping[str, str]) -> str:
    """``"get_out=exactly_three"``: the setting's non-default readings, or ``"default"``."""
    parts = [f"{k}={v}" for k, v in sorted(setting.items()) if v != RULE_VARIANTS[k].default]
    return ", ".join(parts) or "default"


def model_name(level: str, rules_label: str, several_settings: bool) -> str:
    return f"{level} / {rules_label}" if several_settings else level


def run_order(order: tuple[str, ...]) -> tuple[str, ...]:
    """The matchup whose rotated run plays ``order``: seats rotate game by game, so one run of a 2-player
    matchup plays both orders and one run of a 3-player matchup plays the three orders of one cyclic order."""
    rotations = [order[i:] + order[:i] for i in range(len(order))]
    return min(rotations)


@dataclass
class Predictions:
    """Simulated outcomes of every seat order for every model."""

    orders: pl.DataFrame  # model, level, rules, order, players, seat, villain, games, finished, wins
    rounds: pl.DataFrame  # model, order, rounds, count (finished games)
    models: pl.DataFrame  # model, level, rules, setting (JSON of the full variant setting)
    n_games: int
    seed: int
    max_turns: int

    def select(self, models: Sequence[str]) -> Predictions:
        """The predictions of ``models`` only (to score a log against fewer models without simulating again)."""
        unknown = set(models) - set(self.models["model"])
        if unknown:
            raise InputError(f"no predictions for {sorted(unknown)}; models: {', '.join(self.models['model'])}")
        keep = pl.col("model").is_in(list(models))
        rounds = self.rounds.filter(keep) if self.rounds.height else self.rounds
        return Predictions(
            self.orders.filter(keep), rounds, self.models.filter(keep), self.n_games, self.seed, self.max_turns
        )


def _model_level(level: str) -> str:
    """A level's name, or a learning generation's rung (``search g1``): what a model is named by."""
    from simlab.runs.levels import check_level
    from simlab.studies.generations import is_rung, rung_name, rung_number

    if is_rung(level):
        return rung_name(rung_number(level))
    return check_level(level)


def model_strategies(level: str, villains) -> dict[str, str]:
    """villain -> strategy of a model: a level's, or a learning generation's (:mod:`simlab.studies.generations`)."""
    from simlab.runs.levels import level_strategies
    from simlab.studies.generations import is_rung, rung_strategies

    return rung_strategies(level, villains) if is_rung(level) else level_strategies(level, villains)


def predict_runs(orders, levels, rules, n_games: int, max_turns: int):
    """What :func:`predict` plays: (levels, rule settings, runs of seat orders, games per run); every level plays
    every run at every rule setting."""
    from simlab.runs.levels import scripted_levels

    orders = [tuple(o) for o in orders]
    villains = tuple(v for v in VILLAIN_KEYS if any(v in o for o in orders))
    levels = list(dict.fromkeys(_model_level(lv) for lv in levels)) if levels else list(scripted_levels(villains))
    for level in levels:
        model_strategies(level, villains)  # tuned without its files, a generation not learned, fail here
    rule_sets = rule_settings(rules, max_turns)
    runs = sorted({run_order(o) for o in orders}, key=lambda o: (len(o), o))
    per_run = {r: n_games * len({r[i:] + r[:i] for i in range(len(r))}) for r in runs}
    return levels, rule_sets, runs, per_run


def predict(
    orders: Sequence[Sequence[str]],
    levels: Sequence[str] | None = None,
    rules: Mapping[str, str | Sequence[str]] | None = None,
    n_games: int | None = None,
    *,
    settings: RunSettings | None = None,
    **given,
) -> Predictions:
    """Play ``n_games`` games of every seat order in ``orders`` (tuples of villains, seat 0 first) for every
    model: each level (default: every scripted level available for these villains, ``simlab.runs.levels``; the
    search level only when named) at each rule
    setting (:func:`rule_settings`). Runs go through :func:`simlab.runs.sim.run` on the current backend, seats
    rotated, so one run of a matchup plays all of its rotations; every model plays the same seeds.
    ``settings`` (a :class:`simlab.runs.settings.RunSettings`) and ``given`` (its fields as keywords) give the seed,
    turn cap, threads and progress (``n_games`` default 2,000; their variants, level and strategies are not
    used: ``rules`` and ``levels`` say what is compared)."""
    from simlab.runs.sim import run

    if n_games is not None and (not isinstance(n_games, int) or isinstance(n_games, bool) or n_games < 1):
        raise InputError(f"the number of simulated games must be a positive integer, got {n_games!r}")
    if settings is None and n_games is None:
        n_games = DEFAULT_GAMES
    settings = settings_from(settings, n_games=n_games, **given)
    n_games, seed, max_turns, progress = settings.games, settings.seed, settings.max_turns, settings.progress
    orders = [tuple(o) for o in orders]
    levels, rule_sets, runs, per_run = predict_runs(orders, levels, rules, n_games, max_turns)
    several = len(rule_sets) > 1
    total = len(levels) * len(rule_sets) * sum(per_run.values())
    done = 0
    order_rows, round_parts, model_rows = [], [], []
    for setting in rule_sets:
        label = setting_label(setting)
        for level in levels:
            model = model_name(level, label, several)
            model_rows.append({"model": model, "level": level, "rules": label, "setting": json.dumps(setting)})
            for r in runs:
                n = per_run[r]
                base = done

                def tick(k, _total, base=base):
                    if progress is not None:
                        progress(base + k, total)

                here = settings.replace(games=n, variants=setting, level=None, strategies={}, progress=tick)
                res = run("-vs-".join(r), strategies=model_strategies(level, set(r)), keep_games=True, settings=here)
                done += n
                g = res.games.with_columns(
                    pl.concat_str([pl.col(f"seat{s}") for s in range(len(r))], separator=" > ").alias("order")
                )
                for (key,), part in g.group_by("order", maintain_order=True):
                    order = tuple(key.split(" > "))
                    finished = part.filter(pl.col("winner_seat") >= 0)
                    wins = np.bincount(finished["winner_seat"].to_numpy(), minlength=len(order))
                    for s, v in enumerate(order):
                        order_rows.append(
                            {
                                "model": model,
                                "level": level,
                                "rules": label,
                                "order": key,
                                "players": len(order),
                                "seat": s,
                                "villain": v,
                                "games": part.height,
                                "finished": finished.height,
                                "wins": int(wins[s]),
                            }
                        )
                    round_parts.append(
                        finished.group_by("rounds")
                        .len("count")
                        .select(pl.lit(model).alias("model"), pl.lit(key).alias("order"), "rounds", "count")
                    )
    rounds_frame = pl.concat(round_parts).sort("model", "order", "rounds") if round_parts else pl.DataFrame()
    return Predictions(
        pl.DataFrame(order_rows),
        rounds_frame.cast({"count": pl.Int64}),
        pl.DataFrame(model_rows),
        n_games,
        seed,
        max_turns,
    )
