"""The headline a designer reads in ten seconds: is each matchup balanced at strong play, and for new players?

One row per 2-player pairing of different villains: the first villain's win rate at the ``strong`` level (the
shipped equilibrium mixtures, :mod:`simlab.studies.equilibrium`) with its 95% interval and the equilibrium's
exploitability, the same for new players (novice against novice), and a short verdict each: ``balanced`` when the
interval lies inside the band (default 45-55%), else who is favoured and by how many points (``leans`` when the
interval still reaches into the band). Beside it, the skill trace: the win rate at every level from novice up, so
the reader sees whether the answer settles as play gets stronger.

The strong level's mixtures were solved under the shipped rules and cards; with other rules or edits they still
play, but they are no longer an equilibrium of that game, and the exploitability is left blank.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl

from simlab.errors import InputError
from simlab.runs.levels import GOOD_PLAY, SEARCH_GAMES, available_levels, level_strategies
from simlab.runs.settings import RunSettings, settings_from
from simlab.studies.generations import Rungs

TRACE_LEVELS = tuple(dict.fromkeys(("novice", "expert", "tuned", GOOD_PLAY, "search")))
DEFAULT_BAND = (0.45, 0.55)


def check_band(band) -> tuple[float, float]:
    low, high = (float(x) for x in band)
    if not 0 <= low < 0.5 < high <= 1:
        raise InputError(f"a balance band must hold 50% and lie within 0-100%, got {low:.0%}-{high:.0%}")
    return low, high


def verdict(villains: tuple[str, str], rate: float, low: float, high: float, band=DEFAULT_BAND) -> str:
    """``balanced`` when [low, high] lies inside ``band``; else the favoured villain and its edge over 50% in
    points, ``leans`` when the interval still reaches into the band, ``favoured`` when it lies wholly outside."""
    b_low, b_high = check_band(band)
    if b_low <= low and high <= b_high:
        return "balanced"
    who, edge = (villains[0], rate - 0.5) if rate >= 0.5 else (villains[1], 0.5 - rate)
    word = "favoured" if (low > b_high or high < b_low) else "leans"
    return f"{who} {word} +{edge * 100:.0f} pts"


def shipped_provenance(villains: tuple[str, ...]) -> tuple[Path, dict] | None:
    """The shipped mixture file of a 2-player pairing (either order) and its ``[provenance]``; None without one."""
    from strategies.mixture import mixture_files, read_mixture_file

    if len(villains) != 2 or villains[0] == villains[1]:
        return None
    a, b = villains
    for path in mixture_files():
        if path.stem in (f"{a}-vs-{b}", f"{b}-vs-{a}"):
            return path, read_mixture_file(path).get("provenance", {})
    return None


def _shipped_exploitability(matchup: str, settings: RunSettings) -> float | None:
    """The shipped equilibrium's exploitability, if it was solved under these settings' rules and cards."""
    got = shipped_provenance(tuple(matchup.split("-vs-")))
    if settings.variants or settings.edits or got is None or got[1].get("variants"):
        return None
    value = got[1].get("exploitability")
    return float(value) if isinstance(value, int | float) else None


def _shipped_probe(matchup: str, settings: RunSettings) -> tuple[float, bool] | None:
    """The search probe recorded in the shipped mixture file (``simlab equilibrium-probe``): the largest gain of a
    search player over its side's mixture, and whether any side's gain lies above the equilibrium's epsilon (the
    mixture is then no equilibrium at search level); None without a probe or under other rules or cards."""
    got = shipped_provenance(tuple(matchup.split("-vs-")))
    if settings.variants or settings.edits or got is None or got[1].get("variants"):
        return None
    probe = got[1].get("search_probe", {})
    sides = [v for v in probe.get("villains", {}).values() if isinstance(v, dict)]
    gains = [(s.get("gain"), s.get("gain_low")) for s in sides]
    if not gains or not all(isinstance(g, int | float) and isinstance(lo, int | float) for g, lo in gains):
        return None
    epsilon = got[1].get("options", {}).get("epsilon", 0.02)
    return max(g for g, _ in gains), any(lo > epsilon for _, lo in gains)


@dataclass
class HeadlineResult:
    table: pl.DataFrame  # one row per matchup: strong value [95%], exploitability, new players [95%], verdicts
    trace: pl.DataFrame  # one row per (matchup, level): the first villain's win rate [95%] and games
    band: tuple[float, float]
    levels: tuple[str, ...]
    top: str | None = None  # the top rung and its word ("search g0: still moving (±x points)"), with generations
    settled: bool = False  # the learning run's convergence rule holds at the top rung


def skill_trace(
    matchups: list[str],
    levels=TRACE_LEVELS,
    search_games: int = SEARCH_GAMES,
    *,
    settings: RunSettings,
    rungs: Rungs | None = None,
) -> pl.DataFrame:
    """The first villain's win rate [95% Wilson] in each 2-player matchup, and every villain's share of a 3-player
    game, at each of ``levels`` available here (every seat at the level; the search level on ``search_games``, the
    first of the same seeds). With ``rungs`` (a learning run's generations,
    :func:`simlab.studies.generations.read_rungs`) the search level is not played: the generations' own values
    stand above the other levels instead."""
    from simlab.runs.sim import run
    from simlab.studies.generations import TRACE_COLUMNS, oriented

    rows = []
    for m in matchups:
        villains = tuple(m.split("-vs-"))
        have = available_levels(villains)
        for level in levels:
            if level not in have or (rungs is not None and level == "search"):
                continue
            games = min(settings.games, search_games) if level == "search" else settings.games
            res = run(m, strategies=level_strategies(level, villains), settings=settings.replace(games=games))
            for villain in villains if len(villains) == 3 else villains[:1]:
                row = res.summary.filter(pl.col("outcome") == villain).row(0, named=True)
                rows.append(
                    {
                        "matchup": m,
                        "villain": villain,
                        "level": level,
                        "games": row["games"],
                        "rate": row["rate"],
                        "low": row["low"],
                        "high": row["high"],
                    }
                )
        if rungs is not None:
            rows += oriented(rungs, m).select(TRACE_COLUMNS).to_dicts()
    return pl.DataFrame(rows, schema_overrides={"games": pl.Int64})


def shipped_rules(settings: RunSettings) -> bool:
    """Whether ``settings`` play the game the shipped values were measured in: every rule at its default reading
    (a reading given at its default counts as the default), the default turn cap, no card or board edit."""
    import numpy as np

    from simlab.data.rules import rules_array

    return not settings.edits and np.array_equal(rules_array(settings.variant_dict, settings.max_turns), rules_array())


def shipped_rungs(settings: RunSettings, learning=None) -> Rungs | None:
    """The shipped learning run's generations (``learning``: another run's folder), when ``settings`` play the
    rules and cards it learned under; None otherwise or without a run."""
    from simlab.studies.generations import read_rungs

    if not shipped_rules(settings):
        return None
    return read_rungs(learning)


def top_rung_value(villains: tuple[str, str]) -> tuple[float, float, float, str, bool] | None:
    """The shipped learning run's top rung in a 2-player pairing, from the first villain's side: (rate, low, high,
    the rung and its word, settled), as the headline's top rung reads it; None without a run."""
    from simlab.studies.generations import oriented, read_rungs

    rungs = read_rungs()
    if rungs is None:
        return None
    got = oriented(rungs, "-vs-".join(villains)).filter(pl.col("level") == rungs.top_level)
    if got.height != 1:
        return None
    r = got.row(0, named=True)
    return r["rate"], r["low"], r["high"], f"{rungs.top_level}, {rungs.verdict}", rungs.settled


def headline(
    matchups: list[str] | None = None,
    band=DEFAULT_BAND,
    levels=TRACE_LEVELS,
    search_games: int = SEARCH_GAMES,
    *,
    settings: RunSettings | None = None,
    three_player: bool = False,
    learning: Path | str | bool | None = None,
    **given,
) -> HeadlineResult:
    """The headline table and the skill trace for ``matchups`` (default every pairing of two different villains),
    and with ``three_player`` the 3-player game's trace too. ``settings`` (and ``given``, its fields): the games
    per matchup and level, seed, rules, edits, threads; its level and strategies are not used (each row names its
    level). ``learning``: the learning run whose generations top the trace in place of the search level (True:
    the shipped one, where the rules are the shipped ones; default: the shipped one when ``levels`` hold the search
    level; False: none, the search level played instead)."""
    from simlab.data.cards import VILLAIN_KEYS
    from simlab.studies.equilibrium import pairings
    from simlab.studies.generations import top_word

    band = check_band(band)
    settings = settings_from(settings, "the headline", **given)
    matchups = list(matchups or pairings())
    traced = matchups + (["-vs-".join(VILLAIN_KEYS)] if three_player else [])
    wanted = learning is not False and (learning is not None or "search" in levels)
    rungs = shipped_rungs(settings, None if learning in (None, True) else learning) if wanted else None
    trace = skill_trace(traced, levels, search_games, settings=settings, rungs=rungs)
    top = f"{rungs.top_level}: {top_word(rungs, trace)}" if rungs is not None else None
    rows = []
    for m in matchups:
        villains = tuple(m.split("-vs-"))
        here = trace.filter(pl.col("matchup") == m)

        def at(level, here=here):
            got = here.filter(pl.col("level") == level)
            return got.row(0, named=True) if got.height else None

        strong, novice = at(GOOD_PLAY), at("novice")
        highest = at(rungs.top_level) if rungs is not None else None
        row = {"matchup": m, "villain": villains[0], "top_level": rungs.top_level if rungs is not None else None}
        for name, r in (("strong", strong), ("new_players", novice), ("top", highest)):
            row |= {
                f"{name}_rate": r["rate"] if r else None,
                f"{name}_low": r["low"] if r else None,
                f"{name}_high": r["high"] if r else None,
                f"{name}_verdict": verdict(villains, r["rate"], r["low"], r["high"], band) if r else "not measured",
            }
        row["exploitability"] = _shipped_exploitability(m, settings) if strong else None
        probe = _shipped_probe(m, settings) if strong else None
        row["search_gain"] = probe[0] if probe else None
        if probe and probe[1]:
            row["strong_verdict"] += "; not converged at search level"
        rows.append(row)
    numbers = [f"{n}_{k}" for n in ("strong", "new_players", "top") for k in ("rate", "low", "high")]
    numbers += ["exploitability", "search_gain"]
    table = pl.DataFrame(
        rows, schema_overrides=dict.fromkeys(numbers, pl.Float64) | {"top_level": pl.String}
    )  # blank, not of type Null
    return HeadlineResult(table, trace, band, tuple(levels), top, rungs is not None and rungs.settled)


def top_settled(res: HeadlineResult) -> bool:
    """Whether the trace's top rung is settled (the learning run's rule holds there)."""
    return bool(res.top) and res.settled


def strong_note(res: HeadlineResult) -> str:
    """One line on the strong-play columns: blank where no equilibrium is shipped (and how to make one), the
    exploitability blank where the rules or cards differ from those it was solved under."""
    missing = res.table.filter(pl.col("strong_rate").is_null())["matchup"].to_list()
    if missing and len(missing) == res.table.height:
        return (
            "No equilibrium is shipped here (configs/equilibrium/): the strong-play columns are blank; "
            "make them with simlab equilibrium --all."
        )
    if missing:
        return f"No equilibrium is shipped for {', '.join(missing)}: its strong-play columns are blank."
    if res.table["exploitability"].is_null().any():
        return "Exploitability blank: these rules or cards are not the ones the equilibrium was solved under."
    note = (
        "Exploitability: the shipped equilibrium's, each side's best-response gain at its last iteration (the "
        "tuner's or a library strategy's)."
    )
    if res.table["search_gain"].is_not_null().any():
        note += (
            " Search player's gain: the most the search player wins above its side's mixture (simlab "
            "equilibrium-probe); past epsilon the value is not converged at search level and the search level is "
            "stronger play."
        )
    return note


def headline_view(table: pl.DataFrame, settled: bool = False) -> pl.DataFrame:
    """The headline table as the report and the commands show it: every rate a percentage, one interval notation;
    the top rung's rate and verdict first once it is ``settled`` (the verdict a designer reads first is the one
    more skill no longer moves), else strong play's."""
    from simlab.runs.stats import interval_text

    def cell(r, name):
        rate = r[f"{name}_rate"]
        return "" if rate is None else interval_text(rate, r[f"{name}_low"], r[f"{name}_high"])

    def row(r) -> dict:
        top = r.get("top_level")
        out = {"matchup": r["matchup"], "villain": r["villain"], "at strong play [95%]": cell(r, "strong")}
        out |= {"at the top rung [95%]": cell(r, "top")} if top else {}
        out |= {
            "new players [95%]": cell(r, "new_players"),
            "exploitability": "" if r["exploitability"] is None else f"{r['exploitability']:.1%}",
            "search player's gain": "" if r["search_gain"] is None else f"{r['search_gain']:+.1%}",
            "at strong play": r["strong_verdict"] if r["strong_rate"] is not None else "",
        }
        out |= {"at the top rung": f"{r['top_verdict']} ({top})"} if top else {}
        return out | {"for new players": r["new_players_verdict"]}

    rows = [row(r) for r in table.iter_rows(named=True)]
    view = pl.DataFrame(rows)
    if not settled or "at the top rung" not in view.columns:
        return view
    first = ["matchup", "villain", "at the top rung [95%]", "at strong play [95%]"]
    verdicts = ["at the top rung", "at strong play"]
    rest = [c for c in view.columns if c not in first and c not in verdicts and c != "for new players"]
    return view.select(first + rest + verdicts + ["for new players"])


def shipped_value(villains: tuple[str, ...]) -> tuple[float, float, float, Path] | None:
    """The strong-play value of a 2-player pairing as its shipped mixture file's provenance records it, from the
    first villain's side: (rate, low, high, file); None when none is shipped (or it records no value)."""
    got = shipped_provenance(villains)
    if got is None:
        return None
    path, prov = got
    values = [prov.get(k) for k in ("value", "value_low", "value_high")]
    if not all(isinstance(x, int | float) for x in values):
        return None
    rate, low, high = (float(x) for x in values)
    return (rate, low, high, path) if path.stem == "-vs-".join(villains) else (1 - rate, 1 - high, 1 - low, path)


def level_line(villains: tuple[str, ...], level: str | None, strategies: dict | None = None) -> str:
    """One line for ``simlab run``: which level played (or which strategies) and, when an equilibrium of the
    pairing is shipped, where the strong-play value stands, beside the learning run's top rung (first once it is
    settled). The values are the shipped game's: a caller with other rules or edits says so instead."""
    from simlab.runs.levels import DEFAULT_LEVEL
    from simlab.runs.stats import interval_text

    named = {v: s for v, s in (strategies or {}).items() if v in villains}
    played = f"{level or DEFAULT_LEVEL} play"
    if named:
        played += " (" + ", ".join(f"{v}: {s}" for v, s in named.items()) + ")"
    if len(villains) != 2 or villains[0] == villains[1]:
        return played
    got = shipped_value(villains)
    if got is None:
        return f"{played}; no strong-play value is shipped for {'-vs-'.join(villains)} (simlab equilibrium makes one)"
    rate, low, high, path = got
    strong = f"{interval_text(rate, low, high)} at strong play (the equilibrium's own value games, {path.name})"
    top = top_rung_value(villains)
    if top is None:
        return f"{played}; against {villains[1]}, {villains[0]} wins {strong}"
    rate, low, high, word, settled = top
    said = f"{interval_text(rate, low, high)} at the top rung ({word})"
    both = f"{said} and {strong}" if settled else f"{strong} and {said}"  # the settled top rung's first
    return f"{played}; against {villains[1]}, {villains[0]} wins {both}"
