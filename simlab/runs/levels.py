"""Strategy levels: the player strength a study is measured at, named once for every command.

A level maps each villain to the strategy that plays it. ``random``, ``novice`` and ``expert`` are the built-in
strategies on every seat; ``tuned`` plays each villain's tuned strategy file
(``configs/strategies/tuned-<villain>.toml``, written by ``simlab tune``); ``search`` is the search player
(:mod:`strategies.search`), which decides by playing each option out with the strongest scripted strategy (each
villain's tuned strategy where its file exists, else expert); ``apprentice`` is a policy learned from the search
player's decisions (:mod:`strategies.apprentice`, once its model is shipped); ``strong`` plays the equilibrium
mixtures of ``simlab equilibrium`` (``configs/equilibrium/``; see :mod:`strategies.mixture` for the 3-player and
mirror games); ``learned`` is the search player of the learning run's top accepted generation, its horizon scored by
a value model the run learned from its self-play (a climbed top keeps the model of the generation it climbed from;
``configs/strategies/learned.toml``, written by ``simlab learn FOLDER --ship``, names it). Levels are listed
weakest first. A level is a :class:`Level`, parsed once from the text a user gave; the functions here take one or
its name.

A search game costs hundreds of scripted games, so commands give the search level fewer games by default
(:func:`default_games`), and studies that play thousands of games per setting stay at the strongest
scripted level (:func:`strongest_level`) unless the search level is asked for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from simlab.data.cards import VILLAIN_KEYS
from simlab.errors import InputError, StrategyError
from simlab.game.api import check_villain
from strategies import STRATEGIES, StrategySpec, resolve

if TYPE_CHECKING:
    from strategies.mixture import MixedSpec

LEVELS = ("random", "novice", "expert", "tuned", "apprentice", "strong", "search", "learned")
DEFAULT_LEVEL = "expert"
SEARCH_LEVELS = ("search", "learned")  # levels that decide by simulation
LEARNED = "learned"  # the strategy file (configs/strategies/learned.toml) the learned level plays
LEARNED_LEVELS = ("apprentice",)  # levels that play a model learned from the search player's games
SEARCH_GAMES = 100  # default games per matchup (pairing, setting) at a search level; README "The search player"
# "Good play": the one level README, --help and every study mean by it (strong play, at equilibrium). It stays
# ``strong``, though the learning run's top is settled: a ``learned`` game costs thousands of strong ones, too many for
# the studies good play runs (matrix, fix, the report's robust verdicts). The settled top's verdicts are read beside
# it, first (report.figures.top_rung_verdicts; the headline's top rung).
GOOD_PLAY = "strong"


@dataclass(frozen=True)
class Level:
    """A level of :data:`LEVELS`, parsed once from the text a user gave (case-blind, blanks around it ignored):
    ``Level("Expert").name == "expert"``; anything else is an InputError naming it and the levels. Code that takes
    a level takes this value (:meth:`parse` passes one through unchanged) and checks nothing again; it gives each
    villain's strategy at the level, by name (:meth:`strategy`) or as the spec that plays (:meth:`spec`)."""

    name: str

    def __post_init__(self):
        name = str(self.name).strip().lower()
        if name not in LEVELS:
            raise InputError(f"unknown level {self.name!r}; choose from {', '.join(LEVELS)}")
        object.__setattr__(self, "name", name)

    @classmethod
    def parse(cls, level: Level | str) -> Level:
        """``level`` as a Level: a Level as it is, the text of one parsed."""
        return level if isinstance(level, Level) else cls(level)

    def __str__(self) -> str:
        return self.name

    @property
    def is_search(self) -> bool:
        """The level decides by simulation (:data:`SEARCH_LEVELS`)."""
        return self.name in SEARCH_LEVELS

    def strategy(self, villain: str) -> str:
        """The strategy playing ``villain`` at this level, by the name a game plan and a checkpoint record:
        ``expert``, ``tuned-<villain>``, ``strong#<villain>`` (the mixture of the matchup it plays in, see
        :meth:`spec`); an InputError when the level's files for ``villain`` are missing."""
        check_villain(villain)
        if self.name == "strong":
            from strategies.mixture import STRONG, strong_files

            if not strong_files(villain):
                raise InputError(_no_strong(villain))
            return f"{STRONG}#{villain}"
        if self.name == "tuned":
            self._tuned(villain)  # its file exists
            return f"tuned-{villain}"
        if self.name == "apprentice":
            _apprentice_model()
        if self.name == "learned":
            self._learned()
            return LEARNED
        return self.name

    def spec(self, villain: str, matchup: tuple[str, ...] | None = None) -> StrategySpec | MixedSpec:
        """What plays ``villain`` at this level in ``matchup`` (the villains seated, which decide the ``strong``
        level's mixture: :func:`strategies.mixture.strong_spec`)."""
        check_villain(villain)
        if self.name == "strong":
            from strategies.mixture import strong_spec

            return strong_spec(villain, matchup)
        if self.name == "tuned":
            return self._tuned(villain)
        if self.name == "apprentice":
            _apprentice_model()
        if self.name == "learned":
            return self._learned()
        return STRATEGIES[self.name]

    def strategies(self, villains=VILLAIN_KEYS) -> dict[str, str]:
        """villain -> strategy name at this level for each of ``villains``."""
        return {v: self.strategy(v) for v in villains}

    def _learned(self) -> StrategySpec:
        try:
            return resolve(LEARNED)
        except StrategyError:
            raise InputError(
                f"level 'learned' needs configs/strategies/{LEARNED}.toml, which does not exist; ship the learning "
                "run's top generation with: simlab learn reports/learning --ship"
            ) from None

    def _tuned(self, villain: str) -> StrategySpec:
        name = f"tuned-{villain}"
        try:
            return resolve(name)
        except StrategyError:
            raise InputError(
                f"level 'tuned' needs configs/strategies/{name}.toml, which does not exist; "
                f"make it with: simlab tune --villain {villain}"
            ) from None


def _apprentice_model() -> None:
    """An InputError unless the apprentice's shipped model exists."""
    from strategies.apprentice import MODEL_FILE

    if not MODEL_FILE.is_file():
        raise InputError(
            f"level 'apprentice' needs its learned model {MODEL_FILE}, which does not exist; make it with simlab learn"
        )


def _no_strong(villain: str) -> str:
    return (
        f"level 'strong' needs an equilibrium with {villain} in configs/equilibrium/, which has none; "
        "make them with: simlab equilibrium --all"
    )


def good_play_level() -> str:
    """The level "good play" (strong play) means everywhere: :data:`GOOD_PLAY`."""
    return GOOD_PLAY


def check_level(level: Level | str) -> str:
    """``level``'s name in :data:`LEVELS` (case-blind: ``Expert`` is ``expert``), else an InputError."""
    return Level.parse(level).name


def level_strategy(level: Level | str, villain: str) -> str:
    """The strategy (a name ``strategies.resolve`` accepts) that plays ``villain`` at ``level``."""
    return Level.parse(level).strategy(villain)


def level_strategies(level: Level | str, villains=VILLAIN_KEYS) -> dict[str, str]:
    """villain -> strategy at ``level`` for each of ``villains``."""
    return Level.parse(level).strategies(villains)


def available_levels(villains=VILLAIN_KEYS) -> tuple[str, ...]:
    """The levels every one of ``villains`` can be played at here (``tuned`` only once its files exist)."""
    out = []
    for level in LEVELS:
        try:
            Level(level).strategies(villains)
        except InputError:
            continue
        out.append(level)
    return tuple(out)


def strongest_level(villains=VILLAIN_KEYS) -> str:
    """The strongest scripted level every one of ``villains`` can be played at here (``tuned`` once its files
    exist): the level studies are measured at by default (the search level is measured apart, on fewer games)."""
    return scripted_levels(villains)[-1]


def scripted_levels(villains=VILLAIN_KEYS) -> tuple[str, ...]:
    """The available levels that play by a scripted strategy (every one but the search and learned levels)."""
    return tuple(lv for lv in available_levels(villains) if lv not in SEARCH_LEVELS + LEARNED_LEVELS)


def is_search(level_or_strategy: Level | str | None) -> bool:
    """A search level, or a strategy that decides by simulation (``search`` or a file based on it)."""
    if level_or_strategy is None:
        return False
    if is_level(level_or_strategy):
        return Level.parse(level_or_strategy).is_search
    from strategies import KERNELS

    try:
        return resolve(level_or_strategy).kernel == KERNELS["search"]
    except StrategyError:
        return False


def default_games(level: Level | str | None, games: int) -> int:
    """Games a command plays by default at ``level`` (a level or strategy): ``games``, or at most
    :data:`SEARCH_GAMES` at a search level."""
    return min(games, SEARCH_GAMES) if is_search(level) else games


def strategies_at(level: Level | str | None, villains, given: dict | None = None) -> dict:
    """villain -> strategy: ``level``'s for each of ``villains`` (none without a level), then ``given``."""
    base = level_strategies(level, tuple(dict.fromkeys(villains))) if level is not None else {}
    return {**base, **dict(given or {})}


def strategy_at(name: Level | str, villain: str) -> str:
    """``name`` as a level (the strategy playing ``villain`` at it) or, if it is no level, as a strategy."""
    return Level.parse(name).strategy(villain) if is_level(name) else name


def is_level(name) -> bool:
    """``name`` is a level (a :class:`Level`, or its name in any case), not a strategy name."""
    return isinstance(name, Level) or str(name).strip().lower() in LEVELS


def play_label(strategies, level: Level | str | None = None, matchup: tuple[str, ...] | None = None) -> str:
    """What a table says it was played at: ``"expert play"``, or ``"expert play; gaston: novice"`` naming each
    villain whose strategy differs from the level's. ``strategies``: villain -> strategy as given (a name, a
    path, ``strong#VILLAIN`` or a spec, a mixture's too), or (villain, strategy) pairs (a mirror's entries).
    ``level`` (default expert, the strategy of a villain no option names): the level asked for; ``None`` with
    strategies that are all one level's reads as that level. ``matchup``: the villains seated, which decide
    what ``strong#VILLAIN`` plays."""
    pairs = list(strategies.items() if hasattr(strategies, "items") else strategies)
    if level is None:
        level = next((lv for lv in LEVELS if pairs and not _differing(pairs, Level(lv), matchup)), DEFAULT_LEVEL)
    level = Level.parse(level)
    differ = _differing(pairs, level, matchup)
    return f"{level} play" + (f"; {', '.join(f'{v}: {s}' for v, s in differ.items())}" if differ else "")


def _differing(pairs, level: Level, matchup: tuple[str, ...] | None) -> dict[str, str]:
    """villain -> strategy name, for each of ``pairs`` that ``level`` would not play (in order, once each)."""
    from strategies.mixture import play_spec

    out = {}
    for villain, strategy in pairs:
        name = getattr(strategy, "name", str(strategy))  # a spec (a mixture, a strategy) by its name
        try:
            wanted = level.strategy(villain)
            same = name == wanted or play_spec(strategy, matchup).name == level.spec(villain, matchup).name
        except (InputError, StrategyError, OSError):  # a level without its files, a name that is no strategy
            same = False
        if not same:
            out.setdefault(villain, name)
    return out
