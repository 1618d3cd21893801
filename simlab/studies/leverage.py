"""Leverage: how far each uncertain reading of the sources moves each matchup.

The rules and the board layouts are not all known for sure (``shared/reference``): every rule variant's
non-default value (read from :data:`simlab.data.rules.RULE_VARIANTS` when the study runs, so variants added to the
registry are measured without changing this module) and every plausible transcription error of the board
layouts (:func:`simlab.data.edits.plausible_board_errors`; the layouts come from one medium-low-trust source) is a
*perturbation*. Each is played on the same games as the shipped reading (same seed: game i draws the same
random stream and seats), and its effect on each villain's win rate in each matchup is the paired change with
Newcombe's 95% interval. The table is sorted largest effect first: the readings a balance verdict leans on.

Mirrors are left out by default: in a mirror both seats play the same board under the same rules, so a
reading can only move the seats' shares, not one villain against another.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from simlab.data.cards import VILLAIN_KEYS, prose_name
from simlab.data.edits import BoardEdit, normalise, parse_edit, plausible_board_errors
from simlab.data.inputs import agree
from simlab.data.rules import RULE_VARIANTS, rules_array
from simlab.errors import InputError, RuleError
from simlab.game.api import parse_matchup
from simlab.runs.settings import RunSettings, settings_from
from simlab.runs.sizes import plan_size

BOARD_CHOICES = ("catalogue", "none")
DEFAULT_GAMES = 1000  # per matchup and reading


@dataclass(frozen=True)
class Perturbation:
    """One reading other than the shipped one: rule variant values and/or edits (board or card)."""

    kind: str  # "rule", "board" or "edit" (a card edit a user asked for), "default" for the shipped reading
    setting: str  # "obstacles_cover_actions=yes", "board:The Woods:fate=top" (edits joined by " + ")
    description: str = ""
    variants: tuple[tuple[str, str], ...] = ()
    edits: tuple = ()
    villains: tuple[str, ...] = VILLAIN_KEYS  # the villains whose games it can change

    @property
    def is_default(self) -> bool:
        return not self.variants and not self.edits

    def affects(self, matchup: str) -> bool:
        return any(v in self.villains for v in parse_matchup(matchup))


DEFAULT_READING = Perturbation("default", "default", "the recommended readings and the shipped board layouts")


def rule_perturbations(base_variants: dict | None = None) -> list[Perturbation]:
    """Every value of every rule variant other than the one in force (``base_variants``, else the default)."""
    base = dict(base_variants or {})
    out = []
    for name, v in RULE_VARIANTS.items():
        current = str(base.get(name, v.default))
        for value in v.values:
            if value != current:
                out.append(Perturbation("rule", f"{name}={value}", v.description, ((name, value),)))
    return out


def board_perturbations(board="catalogue") -> list[Perturbation]:
    """``"catalogue"``: the plausible transcription errors of :func:`simlab.data.edits.plausible_board_errors`;
    ``"none"``: none; or a list of perturbation texts (see :func:`parse_perturbation`)."""
    if board is None or board == "none":
        return []
    if board == "catalogue":
        return [_from_edits(edits) for edits in plausible_board_errors()]
    if isinstance(board, str):
        raise InputError(
            f"board perturbations must be one of {', '.join(BOARD_CHOICES)} or a list of board edits, got {board!r}"
        )
    return [parse_perturbation(p) for p in board]


def _from_edits(edits, variants=()) -> Perturbation:
    edits = normalise(edits)
    board = all(isinstance(e, BoardEdit) for e in edits)
    villains = tuple(dict.fromkeys(e.villain for e in edits)) if board and edits else VILLAIN_KEYS
    parts = [f"{k}={v}" for k, v in variants] + [str(e) for e in edits]
    desc = [RULE_VARIANTS[k].description for k, _ in variants]
    desc += [e.describe() if isinstance(e, BoardEdit) else f"card edit {e}" for e in edits]
    if len(edits) > 1 and board and all(e.op == "flip" for e in edits) and len(villains) == 1:
        desc = [f"{prose_name(villains[0])}'s board: every location's top and bottom rows exchanged"]
    kind = "rule" if not edits else "board" if board and not variants else "edit"
    affected = villains if board and not variants else VILLAIN_KEYS  # a rule variant can change any game
    return Perturbation(kind, " + ".join(parts), "; ".join(desc), tuple(variants), edits, affected)


def parse_perturbation(text) -> Perturbation:
    """``"VARIANT=VALUE"`` (a rule variant), an edit as ``--edit`` takes it (``"board:The Woods:fate=top"``,
    ``"Get Out!:cost=4"``), or several of these joined by ``" + "`` (played together)."""
    if isinstance(text, Perturbation):
        return text
    parts = [p.strip() for p in str(text).split(" + ") if p.strip()]
    if not parts:
        raise InputError(f"empty perturbation {text!r}; give VARIANT=VALUE or an edit such as board:Morva:flip")
    variants, edits, given = {}, [], {}
    for p in parts:
        name, eq, value = p.partition("=")
        if eq and ":" not in name and name.strip() in RULE_VARIANTS:
            agree(given, name.strip(), p, value.strip(), "reading")
            variants[name.strip()] = value.strip()
        elif ":" in p:
            edits.append(parse_edit(p, "reading"))
            agree(given, edits[-1].key, p, str(edits[-1]), "reading")
        else:
            raise InputError(
                f"perturbation {p!r} is neither VARIANT=VALUE (variants: {', '.join(RULE_VARIANTS)}) nor an edit "
                "(board:LOCATION:OPERATION or CARD:ATTRIBUTE=VALUE)"
            )
    try:
        rules_array(variants)
    except RuleError as exc:
        raise InputError(str(exc)) from None
    return _from_edits(edits, tuple(sorted(variants.items())))


def leverage_matchups() -> list[str]:
    """Every 2-player pairing of different villains and the 3-player game."""
    return [f"{a}-vs-{b}" for a, b in itertools.combinations(VILLAIN_KEYS, 2)] + ["-vs-".join(VILLAIN_KEYS)]


def leverage_runs(rules=True, board="catalogue", perturbations=(), matchups=None, base_variants=None):
    """What :func:`leverage` plays: (matchups, perturbations, (perturbation, matchup) runs); each matchup is also
    played once at the base reading, so it plays ``(len(matchups) + len(runs))`` times its games."""
    matchups = list(matchups or leverage_matchups())
    for m in matchups:
        parse_matchup(m)
    todo = (rule_perturbations(base_variants or {}) if rules else []) + board_perturbations(board)
    todo += [parse_perturbation(p) for p in perturbations or ()]
    todo = list({p.setting: p for p in todo}.values())
    return matchups, todo, [(p, m) for p in todo for m in matchups if p.affects(m)]


@dataclass
class LeverageResult:
    table: pl.DataFrame  # one row per (perturbation, matchup, villain), largest |change| first
    settings: dict = field(default_factory=dict)

    def summary(self) -> pl.DataFrame:
        return leverage_summary(self.table)


def leverage(
    n_games: int | None = None,
    *,
    rules: bool = True,
    board="catalogue",
    perturbations=(),
    matchups=None,
    settings: RunSettings | None = None,
    **given,
) -> LeverageResult:
    """The effect of each perturbation on each villain's win rate in each matchup, on common seeds.

    rules: measure every non-default rule variant value; board: ``"catalogue"`` (the plausible board
    transcription errors), ``"none"`` or a list of perturbation texts; perturbations: more to measure (texts
    as :func:`parse_perturbation` takes them); matchups: default every pairing of different villains and the
    3-player game. ``settings`` (a :class:`simlab.runs.settings.RunSettings`) and ``given`` (its fields as
    keywords) say how: ``n_games`` per matchup and reading (default 1,000), every villain at the level
    (default expert) unless the strategies name another for it; the variants and edits are the base every
    perturbation starts from."""
    from simlab.runs.sim import entry_names
    from simlab.studies.whatif import paired_effect, winner_indices

    if n_games is not None and (not isinstance(n_games, int) or n_games < 1):
        raise InputError(f"games per matchup and setting must be a positive whole number, got {n_games!r}")
    if settings is None and n_games is None:
        n_games = DEFAULT_GAMES
    settings = settings_from(settings, n_games=n_games, **given)
    n_games, seed, level, progress = settings.games, settings.seed, settings.level_name or "expert", settings.progress
    base_variants, base_edits, max_turns = settings.variant_dict, settings.edits, settings.max_turns
    matchups, todo, runs = leverage_runs(rules, board, perturbations, matchups, base_variants)
    # every reading's games are paired with the shipped reading's: one winner byte a game per matchup is kept (and
    # two more for the reading played), so the size is planned before anything is allocated
    plan_size(
        "-n",
        n_games,
        games_each=len(matchups) + len(runs),
        kept_bytes_each=len(matchups) + 3,
        what="games per matchup and reading",
    )
    strategies = settings.strategies_for(VILLAIN_KEYS)
    total, done = (len(matchups) + len(runs)) * n_games, 0

    def play(matchup, var, ed):
        nonlocal done
        w = winner_indices(matchup, settings=settings.replace(variants=var, edits=ed))
        done += n_games
        if progress is not None:
            progress(done, total)
        return w

    base = {m: play(m, base_variants, base_edits) for m in matchups}
    rows = []
    for p, m in runs:
        w = play(m, {**base_variants, **dict(p.variants)}, normalise(base_edits + p.edits))
        for e, entry in enumerate(entry_names(parse_matchup(m))):
            eff = paired_effect((base[m] == e).astype(np.int8), (w == e).astype(np.int8))
            rows.append(
                {
                    "kind": p.kind,
                    "setting": p.setting,
                    "matchup": m,
                    "villain": entry,
                    **eff,
                    "significant": bool(eff["change_low"] > 0 or eff["change_high"] < 0),
                    "description": p.description,
                }
            )
    table = _sorted(pl.DataFrame(rows, schema=_SCHEMA) if rows else pl.DataFrame(schema=_SCHEMA))
    settings = {
        "games": n_games,
        "seed": seed,
        "level": level,
        "strategies": {v: str(s) for v, s in strategies.items()},
        "variants": base_variants,
        "edits": [str(e) for e in base_edits],
        "matchups": matchups,
        "perturbations": len(todo),
        "max_turns": max_turns,
    }
    return LeverageResult(table, settings)


_SCHEMA = {
    "kind": pl.String,
    "setting": pl.String,
    "matchup": pl.String,
    "villain": pl.String,
    "games": pl.Int64,
    "base_rate": pl.Float64,
    "rate": pl.Float64,
    "change": pl.Float64,
    "change_low": pl.Float64,
    "change_high": pl.Float64,
    "changed_games": pl.Int64,
    "significant": pl.Boolean,
    "description": pl.String,
}


def _sorted(table: pl.DataFrame) -> pl.DataFrame:
    """Largest |change| first; ties by setting, matchup and villain so the order is reproducible."""
    keys = [k for k in ("setting", "matchup", "largest_in", "villain") if k in table.columns]
    return (
        table.with_columns(pl.col("change").abs().alias("_abs"))
        .sort(["_abs", *keys], descending=[True] + [False] * len(keys))
        .drop("_abs")
    )


def leverage_summary(table: pl.DataFrame) -> pl.DataFrame:
    """One row per perturbation: its largest effect (matchup, villain, change and interval) and how many of
    the (matchup, villain) rows moved significantly; largest first."""
    if table.height == 0:
        return pl.DataFrame(
            schema={
                "kind": pl.String,
                "setting": pl.String,
                "largest_in": pl.String,
                "villain": pl.String,
                "base_rate": pl.Float64,
                "rate": pl.Float64,
                "change": pl.Float64,
                "change_low": pl.Float64,
                "change_high": pl.Float64,
                "significant_rows": pl.Int64,
                "rows": pl.Int64,
                "description": pl.String,
            }
        )
    top = _sorted(table).group_by("setting", maintain_order=True).first()
    counts = table.group_by("setting").agg(
        pl.col("significant").sum().cast(pl.Int64).alias("significant_rows"), pl.len().cast(pl.Int64).alias("rows")
    )
    return _sorted(
        top.join(counts, on="setting").select(
            "kind",
            "setting",
            pl.col("matchup").alias("largest_in"),
            "villain",
            "base_rate",
            "rate",
            "change",
            "change_low",
            "change_high",
            "significant_rows",
            "rows",
            "description",
        )
    )


def top_settings(table: pl.DataFrame, k: int, kinds=("rule", "board", "edit")) -> list[str]:
    """The ``k`` settings with the largest significant effect on any (matchup, villain), largest first."""
    sig = table.filter(pl.col("significant") & pl.col("kind").is_in(list(kinds)))
    return list(leverage_summary(sig)["setting"][:k])
