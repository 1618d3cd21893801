"""What a command will play, worked out from its checked settings before any game: its stages (a name, games, the
level and the number of players), and an estimate of the time from this machine's measured speed
(:mod:`simlab.runs.speed`). The command line prints it as one plan line when the estimate is long
(:data:`PLAN_ABOVE_SECONDS`), then follows the stages with one overall bar
(:class:`simlab.cli.common.StagedProgress`).

The counts follow each study's own loops; where a study stops early (a tune's last generation, an equilibrium that
converges, a fix found at fewer edits) they are the most it plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from simlab.data.cards import VILLAIN_KEYS

PLAN_ABOVE_SECONDS = 20.0  # a command expected to take longer prints its plan line first


@dataclass(frozen=True)
class Stage:
    name: str
    games: int
    level: str | None = None  # None: expert
    players: int = 2
    edited: int = 0  # runs under a card edit: each builds its own card tables first
    cost: float = 1.0  # a game's CPU over one at its level (a learning generation's over the search level's)


@dataclass(frozen=True)
class Workload:
    command: str
    stages: tuple[Stage, ...]
    note: str = ""  # e.g. "at most": the study may stop earlier

    @property
    def games(self) -> int:
        return sum(s.games for s in self.stages)

    def seconds(self, threads: int | None = None, corrected: bool = True) -> float:
        """The estimate: each stage's games at its level's measured rate (measured now if not yet), the runs under
        an edit at their measured cost, times what this command's last runs here took over their estimate
        (``corrected``; :func:`simlab.runs.speed.ratio`)."""
        from simlab.runs.speed import edit_seconds, rate, ratio

        play = sum(s.games * s.cost / rate(s.level, s.players, threads) for s in self.stages if s.games)
        edited = sum(s.edited for s in self.stages)
        raw = play + (edited * edit_seconds(threads) if edited else 0.0)
        return raw * (ratio(self.command) if corrected else 1.0)

    def line(self, threads: int | None = None, seconds: float | None = None) -> str:
        """``plan: 84,000 games in 7 stages, about 45 s (measured 1,870 expert games/s here)``."""
        from simlab.runs.speed import rate

        seconds = self.seconds(threads) if seconds is None else seconds
        levels = sorted({s.level or "expert" for s in self.stages if s.games})
        main = max(self.stages, key=lambda s: s.games)
        speed = f"{rate(main.level, main.players, threads):,.0f} {main.level or 'expert'} games/s"
        n = len(self.stages)
        return (
            f"plan: {self.command}, {self.note + ' ' if self.note else ''}{self.games:,} games in {n} "
            f"stage{'s' if n != 1 else ''} ({', '.join(levels)}), about {duration(seconds)} "
            f"(measured here: {speed}{'' if threads is None else f', {threads} thread' + ('s' if threads > 1 else '')})"
        )


def duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _players(matchup: str) -> int:
    return len(matchup.split("-vs-"))


def _level(settings) -> str | None:
    return settings.level_name if settings is not None else None


def run(matchup: str, settings, strategies=None, baseline: bool = False) -> Workload:
    """One matchup's games (its plan built first: bad input is refused here, before any game); ``baseline``: the
    same games again without the card edits (``run --edit``)."""
    from simlab.game.api import parse_matchup

    settings.plan(parse_matchup(matchup), None, None, strategies)
    stages = [Stage(matchup, settings.games, _level(settings), _players(matchup), int(bool(settings.edits)))]
    if baseline:
        stages.append(Stage("the same games without the edits", settings.games, _level(settings), _players(matchup)))
    return Workload("run", tuple(stages))


def matrix(settings, command: str = "matrix") -> Workload:
    from simlab.studies.matchups import matchups

    return Workload(command, tuple(Stage(m, settings.games, _level(settings), _players(m)) for m in matchups()))


def sweep(matchup: str, values: Sequence[str], settings, card: bool = True) -> Workload:
    """Every value, and the shipped one (counted once more: the estimate errs long), a card's values each a run under
    an edit. A size the sweep cannot keep is refused here, before the plan is printed (as
    :func:`simlab.studies.whatif.sweep` plans it, which counts the shipped value once more where it is not among
    them)."""
    from simlab.runs.sizes import plan_size

    total = len(values)
    plan_size("-n", settings.games, games_each=total, kept_bytes_each=total, what=f"games at each of {total:,} values")
    level, p = _level(settings), _players(matchup)
    stages = [Stage(f"value {v}", settings.games, level, p, int(card)) for v in values]
    return Workload("sweep", (Stage("shipped value", settings.games, level, p), *stages))


def goldfish(villains: Sequence[str], chosen: Sequence[str], games: int) -> Workload:
    """A villain alone plays about half a 2-player game: counted as one, the estimate errs long."""
    from simlab.runs.levels import is_level

    _check_levels_or_strategies(chosen)
    stages = [Stage(f"{v} {s}", games, s if is_level(s) else None) for v in villains for s in chosen]
    return Workload("goldfish", tuple(stages))


def _check_levels_or_strategies(names: Sequence[str]) -> None:
    """Each of ``names`` a level or a strategy that resolves: an unknown one refused before the plan is printed
    (its estimate may measure a rate by playing)."""
    from simlab.errors import InputError, StrategyError
    from simlab.runs.levels import is_level
    from strategies import resolve

    for name in names:
        if not is_level(name):
            try:
                resolve(name)
            except StrategyError as exc:
                raise InputError(str(exc)) from None


def ladder(
    villains: Sequence[str],
    levels: Sequence[str] | None,
    games: int,
    search_games: int | None,
    opponent: str | None = None,
) -> Workload:
    from simlab.runs.levels import SEARCH_GAMES, SEARCH_LEVELS, is_level, scripted_levels

    levels = list(levels or scripted_levels())
    _check_levels_or_strategies([*levels, *([opponent] if opponent else [])])
    opponents = len(VILLAIN_KEYS) - 1
    stages = []
    for v in villains:
        for lv in levels:
            n = (search_games or min(games, SEARCH_GAMES)) if lv in SEARCH_LEVELS else games
            stages.append(Stage(f"{v} {lv}", n * opponents, lv if is_level(lv) else None))
    return Workload("ladder", tuple(stages))


def cards(villain: str, cards_: Sequence[str] | None, causal: bool, settings) -> Workload:
    from simlab.studies.impact import deck_cards

    opponents = len(VILLAIN_KEYS) - 1
    level = _level(settings)
    stages = [Stage("observational", settings.games * opponents, level)]
    if causal:
        n_cards = deck_cards(villain, cards_ or None).height
        stages += [Stage("ablation", (n_cards + 1) * opponents * settings.games, level, 2, n_cards * opponents)]
    return Workload("cards", tuple(stages))


def leverage(rules: bool, board: str, perturb, matchups, settings) -> Workload:
    from simlab.studies.leverage import leverage_runs

    found, _, runs = leverage_runs(rules, board, perturb, matchups, settings.variant_dict)
    level = _level(settings)
    stages = [Stage(f"{m} shipped reading", settings.games, level, _players(m)) for m in found]
    stages += [Stage(f"{m} {p.setting}", settings.games, level, _players(m), int(bool(p.edits))) for p, m in runs]
    return Workload("leverage", tuple(stages))


def difficulty(
    villains: Sequence[str],
    levels: Sequence[str] | None,
    readings: int | Sequence[str],
    settings,
    screen_games: int | None = None,
    search_games: int | None = None,
    headline_search: int = 0,
    rescreen: bool = False,
    headline_games: int | None = None,
) -> Workload:
    """The headline's skill trace (``headline_games`` per matchup and level, default ``settings.games``), the
    leverage screen (``rescreen``: readings picked by a new screen rather than the shipped ranking) and every level
    and reading of :func:`simlab.studies.robust.robust_difficulty`."""
    from simlab.runs.levels import SEARCH_GAMES, SEARCH_LEVELS
    from simlab.studies.difficulty import difficulty_runs
    from simlab.studies.equilibrium import pairings
    from simlab.studies.headline import TRACE_LEVELS, shipped_rungs
    from simlab.studies.leverage import leverage_runs
    from simlab.studies.robust import default_levels, measures_at

    n = settings.games
    stages = []
    rungs = shipped_rungs(settings)  # the generations stand for the search level, read, not played
    traced = [m for m in pairings() if set(m.split("-vs-")) <= set(villains)]
    traced += ["-vs-".join(VILLAIN_KEYS)] if len(set(villains)) == 3 else []
    for m in traced:
        for lv in TRACE_LEVELS:
            if lv == "search" and (not headline_search or rungs is not None):
                continue
            head = headline_games or n
            games = min(head, headline_search) if lv == "search" else head
            stages.append(Stage(f"headline {m} {lv}", games, lv, _players(m)))
    k = readings if isinstance(readings, int) else len(readings)
    if isinstance(readings, int) and readings and rescreen:
        found, _, runs = leverage_runs(True, "none", (), None, settings.variant_dict)
        stages.append(Stage("leverage screen", (screen_games or max(n // 2, 1)) * (len(found) + len(runs))))
    search_n = search_games or min(n, SEARCH_GAMES)
    for lv in levels or default_levels():
        games = difficulty_runs(len(villains), measures_at(lv)) * (search_n if lv in SEARCH_LEVELS else n)
        stages.append(Stage(f"{lv}, {1 + k} readings", (1 + k) * games, lv))
    note = "at most" if isinstance(readings, int) and readings else ""
    return Workload("difficulty", tuple(stages), note)


def fix(band, matchups, options, edits_from, settings) -> Workload:
    from simlab.studies.fix import fix_plan

    games, edited = fix_plan(band, matchups, options, edits_from, settings=settings)
    return Workload("fix", (Stage("screen, best fixes, adaptation", games, _level(settings), 2, edited),), "at most")


def calibrate(orders, levels, rules, games: int, max_turns: int) -> Workload:
    """:func:`simlab.studies.calibration.predict`'s loops: each rule reading, each level, its 2-player runs then its
    3-player ones (a 3-player game costs more); a learning generation at its measured cost a game."""
    from simlab.studies.calibration import predict_runs
    from simlab.studies.generations import is_rung, rung_cost

    levels, rule_sets, runs, per_run = predict_runs(orders, levels, rules, games, max_turns)
    stages = []
    for reading in range(len(rule_sets)):
        for lv in levels:
            level, cost = ("search", rung_cost(lv)) if is_rung(lv) else (lv, 1.0)
            for players in sorted({len(r) for r in runs}):
                n = sum(per_run[r] for r in runs if len(r) == players)
                reading_of = f", reading {reading + 1} of {len(rule_sets)}" if len(rule_sets) > 1 else ""
                name = f"{lv}{reading_of}, {players}-player games"
                stages.append(Stage(name, n, level, players, cost=cost))
    return Workload("calibrate", tuple(stages))


def _tune_games(villain, budget, start, opponents, candidate_games, validation_games, popsize, params, goal, settings):
    """A tune's search games (the start and the whole generations the budget allows) and its validation, from the
    tune's own plan (its settings checked: bad input is refused here, before any game)."""
    from simlab.studies.tune.search import _tune_plan

    run = (settings, {})
    p = _tune_plan(
        villain,
        budget,
        start,
        opponents,
        candidate_games,
        validation_games,
        popsize,
        params,
        "tune",
        (goal, None),
        run,
        None,
    )
    return p.search_planned + p.validation_total


def tune(villain, budget, start, opponents, candidate_games, validation_games, popsize, params, goal, settings):
    games = _tune_games(
        villain, budget, start, opponents, candidate_games, validation_games, popsize, params, goal, settings
    )
    return Workload("tune", (Stage(f"tune {villain}", games),))


def tune_all(rounds, budget, start_level, candidate_games, validation_games, popsize, goal, matrix_games, settings):
    """Each round re-tunes every villain (at most: a round that changes nothing ends the run) and plays the
    matrix; round 0's matrix first. Sizes the run cannot play are refused here, before the plan is printed."""
    from simlab.runs.levels import strategy_at
    from simlab.studies.matchups import matchups
    from simlab.studies.tune.iterated import check_sizes

    check_sizes(rounds, matrix_games, budget, candidate_games, validation_games, popsize)
    matrix = matrix_games * len(matchups())
    per_villain = {
        v: _tune_games(
            v,
            budget,
            strategy_at(start_level, v),
            None,
            candidate_games,
            validation_games,
            popsize,
            None,
            goal,
            settings,
        )
        for v in VILLAIN_KEYS
    }
    stages = [Stage("matrix, round 0", matrix)]
    for r in range(1, rounds + 1):
        stages += [Stage(f"round {r}: tune {v}", games) for v, games in per_villain.items()]
        stages.append(Stage(f"matrix, round {r}", matrix))
    return Workload("tune-all", tuple(stages), "at most")


def equilibrium(matchups: Sequence[str], options, seed_levels: Sequence[str], probe_games: int = 0) -> Workload:
    """Per matchup: the payoff table as it grows by one strategy a side an iteration, each side's best response
    (the tuner's budget and validation, the library's games) per iteration, and the value's games."""
    stages = []
    for m in matchups:
        pop = max(len(seed_levels), 1)
        for it in range(1, options.iterations + 1):
            size = pop + it - 1
            table = (size * size - (pop + it - 2) ** 2 if it > 1 else size * size) * options.table_games
            respond = 2 * (options.budget + 2 * options.validation_games + options.library_games)
            stages.append(Stage(f"{m} iteration {it}", table + respond))
        stages.append(Stage(f"{m} value", options.value_games))
        if probe_games:
            stages.append(Stage(f"{m} search probe", 4 * probe_games, "search"))
    return Workload("equilibrium", tuple(stages), "at most")


def learn(settings, folder=None) -> Workload:
    """Expert iteration (:func:`simlab.studies.expert_iteration.learn`) at most, stage by stage as the study counts
    them (:func:`simlab.studies.expert_iteration.planned_stages`), at generation 0's speed (a climbed budget or the
    probe's four times costs more a game; the command's last runs here correct the estimate); with the ``folder``
    of a resumed run, only what it can still play (:func:`simlab.studies.expert_iteration.stages_left`)."""
    from simlab.studies.expert_iteration import planned_stages, stages_left

    planned = planned_stages(settings) if folder is None else stages_left(settings, folder)
    stages = [Stage(name, games, "search", players) for name, games, players in planned]
    return Workload("learn", tuple(s for s in stages if s.games), "at most")
