"""Robust verdicts: each difficulty verdict at each level and under the readings with the largest effect.

A balance verdict ("Gaston is stronger than Lady Tremaine") is a claim about villains only if it survives the
things simlab cannot be sure of: how well the villains are played (the level, :mod:`simlab.runs.levels`) and how
the sources are read (rule variants and board layouts, :mod:`simlab.studies.leverage`). Each verdict of
:mod:`simlab.studies.difficulty` is measured at every *setting* (a level and a reading) and labelled across them:

- **holds**: significant (two-sided, 5%) in the same direction at every setting;
- **reverses**: significant in one direction at one setting and in the other at another;
- **not significant**: anything else (no significant difference anywhere, or one only at some settings).

A verdict that reverses or is not significant everywhere is never written as one sentence: its text says at
which settings it goes which way. Every text names the settings it was measured at.

Which measures mean something at which level: strength (win rate against the field) and goldfish speed at
every level; the skill gap (the level minus novice, same opponents and seeds) only above novice (at novice it is
zero by construction); Fate sensitivity (the level's opponents against ``fate-heavy`` ones, which are the expert
with more Fate) from expert up (against novice opponents it would measure skill, not Fate). ``random`` is not a
player (it chooses uniformly among legal options), so it is left out unless asked for.

Every setting plays the same seeds (the study's seed), so settings differ only where the level or the reading
changes a game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
import polars as pl

from simlab.data.cards import VILLAIN_KEYS, prose_name
from simlab.errors import InputError
from simlab.game.api import check_villain
from simlab.runs.levels import GOOD_PLAY, LEARNED, LEVELS, SEARCH_LEVELS, check_level, default_games, scripted_levels
from simlab.runs.settings import RunSettings, settings_from
from simlab.runs.stats import interval_text
from simlab.studies.difficulty import MEASURES, QUESTIONS, difficulty
from simlab.studies.leverage import DEFAULT_READING, Perturbation, leverage, parse_perturbation, top_settings

LABELS = ("holds", "reverses", "not significant")


def measures_at(level: str) -> tuple[str, ...]:
    """The difficulty measures that mean something at ``level`` (see the module's docstring)."""
    i = LEVELS.index(check_level(level))
    out = ["strength"]
    if i > LEVELS.index("novice"):
        out.append("skill_gap")
    out.append("goldfish_turns")
    if i >= LEVELS.index("expert"):
        out.append("fate_sensitivity")
    return tuple(m for m in MEASURES if m in out)


def default_levels(villains=VILLAIN_KEYS) -> tuple[str, ...]:
    """Every scripted level available here (``tuned`` once its files exist) but ``random``, weakest first (the
    search level only when asked for: it plays far fewer games)."""
    return tuple(lv for lv in scripted_levels(villains) if lv != "random")


def setting_label(level: str, reading: str) -> str:
    return level if reading == DEFAULT_READING.setting else f"{level} with {reading}"


@dataclass
class RobustResult:
    table: pl.DataFrame  # measures per setting: level, reading, villain, measure, estimate, low, high, se, games
    by_setting: pl.DataFrame  # the verdict of each pair and measure at each setting (z, p, direction, text)
    verdicts: pl.DataFrame  # one row per pair and measure: label across the settings and its text
    readings: pl.DataFrame  # the readings measured: setting, kind, description, why chosen
    leverage: pl.DataFrame | None = None  # the leverage screen that chose the readings, when one ran
    settings: dict = field(default_factory=dict)

    def at(self, level: str, reading: str = "default") -> pl.DataFrame:
        """The measures at one setting (like :attr:`simlab.studies.difficulty.DifficultyResult.table`)."""
        return self.table.filter((pl.col("level") == level) & (pl.col("reading") == reading)).drop("level", "reading")

    def verdicts_at(self, level: str, reading: str = "default") -> pl.DataFrame:
        return self.by_setting.filter((pl.col("level") == level) & (pl.col("reading") == reading))


def choose_readings(
    readings,
    screen: pl.DataFrame | None = None,
    screen_games: int = 1000,
    level: str = "expert",
    *,
    board="none",
    progress=None,
    settings: RunSettings | None = None,
    rescreen: bool = False,
    ranking=None,
    **given,
) -> tuple[list[Perturbation], pl.DataFrame, pl.DataFrame | None]:
    """The readings a robust study measures besides the default, with a frame saying why each was chosen.

    readings: a number k (the k readings with the largest significant effect in ``screen``, a leverage table;
    without one, from the shipped leverage ranking (:mod:`simlab.studies.ranking`), or with ``rescreen`` from a
    leverage screen of ``screen_games`` per matchup run here, at ``level``, over the rule variants and
    ``board``) or a list of perturbation texts (``"obstacles_cover_actions=yes"``, ``"board:The Woods:fate=top"``:
    see :func:`simlab.studies.leverage.parse_perturbation`). ``ranking``: a
    :class:`simlab.studies.ranking.Ranking` instead of the shipped one. ``settings`` (a
    :class:`simlab.runs.settings.RunSettings`) and ``given`` (its fields as keywords) give the screen's seed,
    variants, turn cap, threads and edits."""
    if isinstance(readings, int) and not isinstance(readings, bool) and readings and screen is None and not rescreen:
        from simlab.studies.ranking import read_ranking

        if readings < 0:
            raise InputError(f"the number of readings must be 0 or more, got {readings}")
        ranking = ranking or read_ranking()
        picked = [parse_perturbation(s) for s in ranking.top(readings)]
        return picked, _readings_frame(picked, [ranking.why(p.setting) for p in picked]), None
    if isinstance(readings, int) and not isinstance(readings, bool):
        if readings < 0:
            raise InputError(f"the number of readings must be 0 or more, got {readings}")
        if readings and screen is None:
            base = settings_from(settings, **given)
            screen_settings = base.replace(games=screen_games, level=level, strategies={}, progress=progress)
            screen = leverage(rules=True, board=board, settings=screen_settings).table
        chosen = top_settings(screen, readings) if readings else []
        by_setting = {}  # each setting's largest effect: the table is sorted largest first
        for r in screen.iter_rows(named=True) if screen is not None else ():
            by_setting.setdefault(r["setting"], r)
        picked = [parse_perturbation(s) for s in chosen]
        why = [
            f"largest effect in the leverage screen: {by_setting[p.setting]['villain']} in "
            f"{by_setting[p.setting]['matchup']} {by_setting[p.setting]['change']:+.1%}"
            for p in picked
        ]
    else:
        picked = [parse_perturbation(r) for r in readings or ()]
        picked = list({p.setting: p for p in picked}.values())
        why = ["asked for"] * len(picked)
    return picked, _readings_frame(picked, why), screen


def _readings_frame(picked: list[Perturbation], why: list[str]) -> pl.DataFrame:
    """The readings measured, the default first, each with why it was chosen."""
    return pl.DataFrame(
        {
            "reading": [DEFAULT_READING.setting] + [p.setting for p in picked],
            "kind": [DEFAULT_READING.kind] + [p.kind for p in picked],
            "why": ["the recommended readings (the baseline)"] + why,
            "description": [DEFAULT_READING.description] + [p.description for p in picked],
        }
    )


def robust_difficulty(
    villains=VILLAIN_KEYS,
    levels=None,
    readings=2,
    n_games: int | None = None,
    *,
    screen: pl.DataFrame | None = None,
    screen_games: int | None = None,
    screen_board="none",
    progress: Callable[[int, int, str], None] | None = None,
    measures=MEASURES,
    settings: RunSettings | None = None,
    search_games: int | None = None,
    rescreen: bool = False,
    **given,
) -> RobustResult:
    """The difficulty verdicts for ``villains`` at every level of ``levels`` (default :func:`default_levels`)
    under the default reading and ``readings`` (a number k: the k with the largest effect in the shipped leverage
    ranking, or with ``rescreen`` in ``screen`` or a leverage screen run here, see :func:`choose_readings`; or a
    list of perturbation texts), ``n_games`` per pairing and setting, each labelled holds / reverses / not
    significant across the settings.

    measures: only these of :data:`simlab.studies.difficulty.MEASURES` (each where :func:`measures_at` allows it).
    progress(done, total, label): games done in the current part (the screen, then each setting).
    search_games: games per pairing at a search level (default ``min(n_games, SEARCH_GAMES)``,
    :func:`simlab.runs.levels.default_games`); the leverage screen plays at the strongest scripted level asked for
    (else the strongest here).
    settings (a :class:`simlab.runs.settings.RunSettings`) and ``given`` (its fields as keywords) say how:
    ``n_games`` per pairing and setting (default 1,000), seed, variants, turn cap, threads and edits (its
    level and strategies are not used: ``levels`` say who plays)."""
    if settings is None and n_games is None:
        n_games = 1000
    settings = settings_from(settings, n_games=n_games, **given)
    n_games, seed, max_turns = settings.games, settings.seed, settings.max_turns
    villains = tuple(check_villain(v) for v in villains)
    if len(villains) < 2:
        raise InputError("robust verdicts compare villains: give at least two")
    levels = tuple(check_level(lv) for lv in (levels or default_levels()))
    levels = tuple(lv for lv in LEVELS if lv in levels)  # weakest first, once each
    strongest = levels[-1]
    scripted = [lv for lv in levels if lv not in SEARCH_LEVELS]
    screen_level = scripted[-1] if scripted else scripted_levels(villains)[-1]
    if search_games is None:
        search_games = default_games("search", n_games)
    elif not isinstance(search_games, int) or search_games < 1:
        raise InputError(f"search_games must be a positive number of games, got {search_games!r}")
    screen_games = screen_games or max(n_games // 2, 1)
    edits, base_variants = settings.edits, settings.variant_dict

    def bar(label):
        return None if progress is None else (lambda done, total: progress(done, total, label))

    picked, readings_frame, screen = choose_readings(
        readings,
        screen,
        screen_games,
        screen_level,
        board=screen_board,
        progress=bar(f"leverage screen ({screen_level})"),
        settings=settings,
        rescreen=rescreen,
    )
    tables, verdicts = [], []
    for reading in [DEFAULT_READING, *picked]:
        for level in levels:
            here = tuple(m for m in measures_at(level) if m in measures)
            if not here:
                continue
            label = setting_label(level, reading.setting)
            here_settings = settings.replace(
                games=search_games if level in SEARCH_LEVELS else n_games,
                level=level,
                variants={**base_variants, **dict(reading.variants)},
                edits=edits + reading.edits,
                progress=bar(label),
            )
            d = difficulty(villains, measures=here, settings=here_settings)
            tag = [pl.lit(level).alias("level"), pl.lit(reading.setting).alias("reading")]
            tables.append(d.table.select(*tag, pl.all()))
            verdicts.append(d.verdicts.select(*tag, pl.all()))
    table = pl.concat(tables)
    by_setting = pl.concat(verdicts, how="diagonal_relaxed").with_columns(
        pl.when(~pl.col("significant"))
        .then(0)
        .when(pl.col("difference") > 0)
        .then(1)
        .otherwise(-1)
        .cast(pl.Int8)
        .alias("direction")
    )
    summary = label_verdicts(by_setting, table, villains, strongest)
    played = {}
    if LEARNED in levels:  # which generation the learned level was, so its verdicts are read as that rung's only
        from simlab.studies.generations import learned_source

        played = {"learned": learned_source()}
    return RobustResult(
        table,
        by_setting,
        summary,
        readings_frame,
        screen,
        {
            "games": n_games,
            "search_games": search_games if any(lv in SEARCH_LEVELS for lv in levels) else None,
            "seed": seed,
            "levels": list(levels),
            "readings": list(readings_frame["reading"]),
            "readings_from": readings_source(readings, rescreen, screen),
            "screen_games": screen_games if screen is not None else None,
            "variants": base_variants,
            "edits": [str(e) for e in edits],
            "max_turns": max_turns,
        }
        | played,
    )


def readings_source(readings, rescreen: bool, screen) -> str:
    """Where the readings of a robust study came from, in words: the shipped ranking, a screen, or the caller."""
    if not isinstance(readings, int) or isinstance(readings, bool):
        return "asked for"
    if not readings:
        return "none"
    if screen is not None and not rescreen:
        return "the leverage table given"
    if not rescreen:
        from simlab.studies.ranking import read_ranking

        return read_ranking().source_line()
    return "a leverage screen (re-screened: not the shipped ranking)"


def label(directions) -> str:
    """holds / reverses / not significant from per-setting directions (+1, -1, or 0 for not significant)."""
    d = {int(x) for x in directions}
    if 1 in d and -1 in d:
        return "reverses"
    if len(d) == 1 and 0 not in d:
        return "holds"
    return "not significant"


def label_verdicts(by_setting: pl.DataFrame, table: pl.DataFrame, villains, reference_level: str) -> pl.DataFrame:
    """One row per pair and measure: the label across the settings and a text that names them."""
    est = {(r["level"], r["reading"], r["villain"], r["measure"]): r for r in table.iter_rows(named=True)}
    rows = []
    for a, b in combinations(villains, 2):
        for measure in MEASURES:
            sub = by_setting.filter(
                (pl.col("villain_a") == a) & (pl.col("villain_b") == b) & (pl.col("measure") == measure)
            )
            if sub.height == 0:
                continue
            settings = list(sub.iter_rows(named=True))
            lab = label(sub["direction"])
            rows.append(
                {
                    "villain_a": a,
                    "villain_b": b,
                    "measure": measure,
                    "question": f"is {prose_name(a)} {QUESTIONS[measure][0]} than {prose_name(b)}?",
                    "label": lab,
                    "verdict": _text(a, b, measure, lab, settings, est, reference_level),
                    "settings": len(settings),
                    "a_more": _where(settings, 1),
                    "b_more": _where(settings, -1),
                    "not_significant": _where(settings, 0),
                    "levels": ", ".join(dict.fromkeys(s["level"] for s in settings)),
                    "min_abs_z": _min_abs(sub["z"].to_numpy()),
                }
            )
    return pl.DataFrame(rows)


def _min_abs(z: np.ndarray) -> float:
    """The smallest |z| over the settings; NaN when no setting has one."""
    z = np.abs(z[~np.isnan(z)])
    return float(z.min()) if z.size else float("nan")


def _where(settings, direction) -> str:
    return "; ".join(setting_label(s["level"], s["reading"]) for s in settings if s["direction"] == direction)


def _z(s) -> str:
    z, p = s["z"], s["p"]
    zt = f"z = {abs(z):.1f}" if np.isfinite(z) else "z > 37"
    return f"{zt}, {'p < 0.001' if p < 0.001 else f'p = {p:.3f}'}"


def _fmt(r: dict, measure: str) -> str:
    if measure == "goldfish_turns":
        return f"{r['estimate']:g} [{r['low']:g}, {r['high']:g}] turns"
    return interval_text(r["estimate"], r["low"], r["high"], "" if measure == "strength" else "+")


def _list(settings, est, first, second, measure) -> str:
    """'expert (win rate 62.0 [...] % vs 45.1 [...] %; z = 9.1, p < 0.001), novice with X (...)'."""
    parts = []
    for s in settings:
        ra = est[(s["level"], s["reading"], first, measure)]
        rb = est[(s["level"], s["reading"], second, measure)]
        parts.append(f"{setting_label(s['level'], s['reading'])} ({_fmt(ra, measure)} vs {_fmt(rb, measure)}; {_z(s)})")
    return ", ".join(parts)


def _text(a, b, measure, lab, settings, est, reference_level) -> str:
    more, what = QUESTIONS[measure]
    names = "; ".join(setting_label(s["level"], s["reading"]) for s in settings)
    pos = [s for s in settings if s["direction"] == 1]
    neg = [s for s in settings if s["direction"] == -1]
    ns = [s for s in settings if s["direction"] == 0]
    if lab == "holds":
        first, second = (a, b) if pos else (b, a)
        ref = next(
            (s for s in settings if s["level"] == reference_level and s["reading"] == DEFAULT_READING.setting),
            settings[0],
        )
        weakest = min(settings, key=lambda s: abs(s["z"]) if np.isfinite(s["z"]) else np.inf)
        return (
            f"holds: {prose_name(first)} is {more} than {prose_name(second)} at every setting measured ({names}). "
            f"{what.capitalize()} at {_list([ref], est, first, second, measure)}; "
            f"weakest at {_list([weakest], est, first, second, measure)}"
        )
    if lab == "reverses":
        (first, second, one, other) = (a, b, pos, neg) if len(pos) >= len(neg) else (b, a, neg, pos)
        text = (
            f"reverses: whether {prose_name(first)} or {prose_name(second)} is {more} depends on the setting. "
            f"{prose_name(first)} is {more} at {_list(one, est, first, second, measure)}; "
            f"{prose_name(second)} is {more} at {_list(other, est, second, first, measure)}"
        )
        return text + (f"; no significant difference at {_list(ns, est, first, second, measure)}" if ns else "")
    if not pos and not neg:
        return (
            f"not significant: no significant difference between {prose_name(a)} and {prose_name(b)} in {what} at any "
            f"setting measured: {_list(ns, est, a, b, measure)}"
        )
    first, second, one = (a, b, pos) if pos else (b, a, neg)
    return (
        f"not significant at every setting: {prose_name(first)} is {more} than {prose_name(second)} only at "
        f"{_list(one, est, first, second, measure)}; no significant difference at "
        f"{_list(ns, est, first, second, measure)}"
    )


# the levels whose readings answer "at strong play?" (good play first; the learned level: the learning run's top)
STRONG_PLAY = (GOOD_PLAY, "tuned", "search", "learned")
NEW_PLAYERS = ("novice",)  # the level whose readings answer "for new players?"


def question_groups(levels) -> list[tuple[str, tuple[str, ...]]]:
    """The levels of ``levels`` grouped by the question they answer: strong play (strong, with tuned, search and
    learned as supporting readings; without any of them the strongest level measured above novice, named as such)
    and new players (novice). Expert play, when a strong-play level is measured, answers neither and is left out of
    both."""
    strong = tuple(lv for lv in levels if lv in STRONG_PLAY)
    name = "strong play"
    if not strong:
        above = [lv for lv in levels if lv not in ("random", *NEW_PLAYERS)]
        strong, name = ((above[-1],), f"{above[-1]} play (the strongest measured)") if above else ((), "")
    groups = [(name, strong)] if strong else []
    new = tuple(lv for lv in levels if lv in NEW_PLAYERS)
    return groups + ([("new players", new)] if new else [])


def grouped_verdicts(result: RobustResult) -> pl.DataFrame:
    """One row per pair, measure and question group (:func:`question_groups`): the label across that group's
    settings only, so a reading of one question never overturns the other's verdict, and a one-line verdict."""
    by = result.by_setting
    levels = [lv for lv in LEVELS if lv in set(by["level"])] if by.height else []
    rows = []
    for a, b in combinations(dict.fromkeys(result.table["villain"]), 2):
        for measure in MEASURES:
            for group, group_levels in question_groups(levels):
                sub = by.filter(
                    (pl.col("villain_a") == a)
                    & (pl.col("villain_b") == b)
                    & (pl.col("measure") == measure)
                    & pl.col("level").is_in(list(group_levels))
                )
                if sub.height == 0:
                    continue
                lab = label(sub["direction"])
                rows.append(
                    {
                        "villain_a": a,
                        "villain_b": b,
                        "measure": measure,
                        "group": group,
                        "question": f"is {prose_name(a)} {QUESTIONS[measure][0]} than {prose_name(b)}?",
                        "label": lab,
                        "verdict": _line(a, b, measure, lab, group, sub),
                        "settings": sub.height,
                        "levels": ", ".join(dict.fromkeys(sub["level"])),
                        "min_abs_z": _min_abs(sub["z"].to_numpy()),
                    }
                )
    return pl.DataFrame(rows)


def _line(a, b, measure, lab, group, sub: pl.DataFrame) -> str:
    """The one-line verdict of a group: the label, who, and at how many of its settings (the numbers of each
    setting are in the table by setting)."""
    more = QUESTIONS[measure][0]
    n = sub.height
    pos, neg = int((sub["direction"] == 1).sum()), int((sub["direction"] == -1).sum())
    first, second, k = (a, b, pos) if pos >= neg else (b, a, neg)
    at = f"{'for' if group == 'new players' else 'at'} {group} ({', '.join(dict.fromkeys(sub['level']))}"
    if lab == "holds":
        return f"holds: {prose_name(first)} is {more} than {prose_name(second)} {at}, {n} of {n} settings)"
    if lab == "reverses":
        return f"reverses {at}): {prose_name(a)} {more} at {pos}, {prose_name(b)} at {neg} of {n} settings"
    if k == 0:
        return f"not significant {at}): no difference at {n} of {n} settings"
    return f"not significant {at}): {prose_name(first)} {more} at {k} of {n} settings only"


def answer(
    result: RobustResult, villain: str, measures=("skill_gap", "strength"), verdicts: pl.DataFrame | None = None
) -> pl.DataFrame:
    """The robust verdicts about ``villain`` (each pair it is in) for ``measures``: "is Lady Tremaine harder?"
    asks about the skill gap (harder to play) and strength (weaker). ``verdicts``: these instead of the labels
    across every setting (:func:`grouped_verdicts`)."""
    v = result.verdicts if verdicts is None else verdicts
    about = (pl.col("villain_a") == villain) | (pl.col("villain_b") == villain)
    rows = v.filter(about & pl.col("measure").is_in(list(measures)))
    order = {m: i for i, m in enumerate(measures)}
    asked = [  # asked about ``villain`` first: "is Lady Tremaine harder to play than Gaston?"
        f"is {prose_name(villain)} {QUESTIONS[m][0]} than {prose_name(b if a == villain else a)}?"
        for a, b, m in rows.select("villain_a", "villain_b", "measure").iter_rows()
    ]
    rows = rows.with_columns(pl.Series("question", asked, pl.String))
    return rows.with_columns(pl.col("measure").replace_strict(order).alias("_o")).sort("_o").drop("_o")
