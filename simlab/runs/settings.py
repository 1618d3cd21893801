"""Run settings: what every study plays with, checked once.

A :class:`RunSettings` is built once (by the CLI from its options, or in Python) and handed to a study; the
study asks it for the strategies of the villains it seats and for the :class:`simlab.runs.gameplan.GamePlan` of each
matchup it plays, instead of taking and checking the same tail of parameters (games, seed, strategies or
level, rule variants, turn cap, threads, card edits, progress) again in every module.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numba
import numpy as np

from simlab.data.cards import VILLAIN_KEYS
from simlab.data.edits import edited_cards, normalise
from simlab.data.rules import DEFAULT_MAX_TURNS, rules_array
from simlab.errors import InputError
from simlab.game.api import DEFAULT_STRATEGY, check_seed
from simlab.runs.gameplan import DEFAULT_CHUNK, GamePlan, check_games, check_strategies
from simlab.runs.levels import Level


def check_threads(threads) -> int | None:
    """``threads`` (None: numba's default) if it is between 1 and the threads numba was started with."""
    if threads is not None and not (
        isinstance(threads, int | np.integer) and 1 <= threads <= numba.config.NUMBA_NUM_THREADS
    ):
        raise InputError(f"threads must be between 1 and {numba.config.NUMBA_NUM_THREADS}, got {threads}")
    return None if threads is None else int(threads)


@dataclass(frozen=True)
class RunSettings:
    """What a study plays with, checked when it is made (bad input: an InputError naming the value).

    games: games per matchup (a study may scale it); seed: the run's seed (game i depends on (seed, i) only).
    level: a :class:`simlab.runs.levels.Level` (given as one or its name, parsed here) playing every villain
    ``strategies`` does not name (None: expert).
    strategies: villain -> strategy name or TOML path (given as a dict). variants: rule variant -> value.
    max_turns: the turn cap. threads: numba threads (None: all). edits: card and board edits (objects or
    ``"CARD:ATTRIBUTE=VALUE"`` strings). progress: called with (games done, games planned).
    """

    games: int = 2000
    seed: int = 0
    level: Level | None = None
    strategies: tuple[tuple[str, str], ...] = ()
    variants: tuple[tuple[str, str], ...] = ()
    max_turns: int = DEFAULT_MAX_TURNS
    threads: int | None = None
    edits: tuple = ()
    progress: Callable[[int, int], None] | None = field(default=None, compare=False)
    where: dataclasses.InitVar[str] = "the games"  # what a bad --strategy villain is said not to be in

    def __post_init__(self, where: str):
        set_ = object.__setattr__  # frozen: normalise the fields once, here
        set_(self, "games", check_games(self.games))
        set_(self, "seed", check_seed(self.seed))
        strategies = check_strategies(self.strategies, VILLAIN_KEYS, where)
        set_(self, "strategies", tuple(sorted(strategies.items())))
        if self.level is not None:
            set_(self, "level", Level.parse(self.level))  # the one place a level's text is read
        variants = dict(self.variants or {})
        rules_array(variants, self.max_turns)  # unknown variants, values and turn caps fail here
        # a bool is the yes/no value rules_array reads it as (str(True) would be no value of any variant)
        named = {k: ("yes" if v else "no") if isinstance(v, bool) else str(v) for k, v in variants.items()}
        set_(self, "variants", tuple(sorted(named.items())))
        set_(self, "threads", check_threads(self.threads))
        set_(self, "edits", normalise(self.edits))
        edited_cards(self.edits)  # edits that do not apply fail here

    def replace(self, **changes) -> RunSettings:
        """A copy with ``changes`` (checked again)."""
        return dataclasses.replace(self, **changes)

    @property
    def level_name(self) -> str | None:
        """The level's name (None without a level), as reports and checkpoints record it."""
        return None if self.level is None else self.level.name

    @property
    def variant_dict(self) -> dict[str, str]:
        return dict(self.variants)

    def strategy(self, villain: str) -> str:
        """The strategy playing ``villain``: the one named for it, else the level's, else ``expert``."""
        given = dict(self.strategies)
        if villain in given:
            return given[villain]
        if self.level is not None:
            return self.level.strategy(villain)
        return DEFAULT_STRATEGY

    def strategies_for(self, villains=VILLAIN_KEYS) -> dict[str, str]:
        return {v: self.strategy(v) for v in villains}

    def play_label(self, villains=VILLAIN_KEYS) -> str:
        """``"expert play"``, ``"tuned play; gaston: novice"``: the level ``villains`` play at here, and the
        strategies that differ from it (:func:`simlab.runs.levels.play_label`)."""
        from simlab.runs.levels import play_label

        return play_label(self.strategies_for(villains), self.level)

    def plan(
        self,
        villains: tuple[str, ...],
        n_games: int | None = None,
        seed: int | None = None,
        strategies: Mapping[str, str] | Sequence[str] | None = None,
        order: str = "rotate",
        chunk: int = DEFAULT_CHUNK,
    ) -> GamePlan:
        """The games of ``villains`` with these settings; ``n_games``, ``seed`` and ``strategies`` (villain ->
        strategy, or one strategy per entry of ``villains``) override the settings' for this plan."""
        if isinstance(strategies, Sequence) and not isinstance(strategies, str):
            if len(strategies) != len(villains):
                raise InputError(f"one strategy per villain: {len(villains)} villains, {len(strategies)} strategies")
            names = list(strategies)
        else:
            given = dict(strategies or {})
            names = [given.get(v) or self.strategy(v) for v in villains]
        return GamePlan(
            tuple(villains),
            names,
            self.games if n_games is None else check_games(n_games),
            self.seed if seed is None else check_seed(seed),
            self.variants,
            self.max_turns,
            order,
            self.edits,
            chunk,
        )

    def describe(self) -> dict:
        """The settings as JSON-able data (reports record it)."""
        return {
            "games": self.games,
            "seed": self.seed,
            "level": self.level_name,
            "strategies": dict(self.strategies),
            "variants": dict(self.variants),
            "max_turns": self.max_turns,
            "edits": [str(e) for e in self.edits],
        }


FIELDS = frozenset(f.name for f in dataclasses.fields(RunSettings))


def settings_from(settings: RunSettings | None = None, where: str = "the games", **given) -> RunSettings:
    """A study's settings: ``settings``, with any of ``given`` (RunSettings fields, ``n_games`` for ``games``;
    None values left out) replacing its values; without ``settings``, RunSettings made from ``given``.
    ``where``: what the study plays, named when a strategy is given for a villain that is not in it."""
    given = {("games" if k == "n_games" else k): v for k, v in given.items() if v is not None}
    unknown = sorted(set(given) - FIELDS)
    if unknown:
        raise TypeError(f"unexpected keyword arguments {unknown}; a study takes {sorted(FIELDS)}")
    if settings is None:
        return RunSettings(**given, where=where)
    return settings.replace(**given, where=where) if given else settings
