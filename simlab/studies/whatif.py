"""What-if studies on paired seeds: sweep one card attribute or rule variant over a range of values.

Every value plays the same games (same seed, so game i draws the same random stream and seats), which makes
the change from the baseline (the shipped card value, or the variant's default) a paired comparison: its
interval is much narrower than comparing two independent runs would give.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import polars as pl

from simlab.data.edits import ATTRIBUTES, FLAGS, check_edit
from simlab.data.rules import RULE_VARIANTS, rules_array
from simlab.errors import InputError
from simlab.game.api import parse_matchup
from simlab.runs.settings import RunSettings, settings_from
from simlab.runs.sim import _chunks, entry_names
from simlab.runs.sizes import plan_size
from simlab.runs.stats import paired_difference, wilson

MAX_SWEEP_VALUES = 1000  # points of one sweep (its plot shows each)


def winner_indices(
    matchup: str,
    n_games: int | None = None,
    seed: int | None = None,
    strategies=None,
    *,
    settings: RunSettings | None = None,
    **given,
) -> np.ndarray:
    """int8 (n_games,): position in the matchup of game i's winner (seats rotated), -1 if unfinished.
    ``settings`` (a :class:`simlab.runs.settings.RunSettings`) and ``given`` (its fields as keywords) say how;
    ``strategies`` (villain -> strategy) overrides theirs for this matchup."""
    villains = parse_matchup(matchup)
    if settings is None:
        settings, n_games, seed = settings_from(None, n_games=n_games, seed=seed, **given), None, None
    else:  # n_games and seed given with settings are this plan's: the settings are not checked again
        settings = settings_from(settings, **given)
    plan = settings.plan(villains, n_games, seed, strategies)
    out = np.full(plan.n_games, -1, np.int8)
    for part, _, _ in _chunks(plan, settings.threads):
        out[part["game"].to_numpy()] = part["winner_index"].to_numpy()
    return out


def edit_change(res, settings: RunSettings, strategies=None) -> pl.DataFrame:
    """What a run's card edits change: the same games (seeds and seats) played without them, and per entry the
    win rate without and with the edits and the paired change [Newcombe 95%]. ``res``: the edited run, its
    per-game rows kept (:func:`simlab.runs.sim.run` with ``keep_games=True``); ``settings``: the run's."""
    edited = res.games.sort("game")["winner_index"].to_numpy()
    base = winner_indices(res.matchup, res.n_games, settings.seed, strategies, settings=settings.replace(edits=()))
    rows = []
    for e, name in enumerate(entry_names(res.villains)):
        without, with_ = (base == e).astype(np.int8), (edited == e).astype(np.int8)
        rows.append(
            {
                "entry": name,
                "games": int(base.size),
                "without_edits": float(without.mean()),
                "with_edits": float(with_.mean()),
                **paired_effect(without, with_),
            }
        )
    return pl.DataFrame(rows)


SAME_GAMES = {"change": 0.0, "change_low": 0.0, "change_high": 0.0, "changed_games": 0}  # identical games' effect


def paired_effect(base: np.ndarray, other: np.ndarray) -> dict:
    """Change in a 0/1 outcome from ``base`` to ``other`` (the same games) with Newcombe's paired interval."""
    both = int(np.sum((base == 1) & (other == 1)))
    only_other = int(np.sum((base == 0) & (other == 1)))
    only_base = int(np.sum((base == 1) & (other == 0)))
    neither = base.size - both - only_other - only_base
    diff, low, high = paired_difference(both, only_other, only_base, neither)
    return {
        "games": int(base.size),
        "base_rate": float(base.mean()),
        "rate": float(other.mean()),
        "change": diff,
        "change_low": low,
        "change_high": high,
        "changed_games": only_other + only_base,
    }


@dataclass
class SweepResult:
    matchup: str
    what: str  # 'Get Out! cost' or 'rule get_out'
    baseline: str  # the shipped value / the variant default
    table: pl.DataFrame  # one row per (value, entry)
    seed: int
    settings: dict = field(default_factory=dict)
    play: str = "expert play"  # the level and the strategies that differ from it (simlab.runs.levels.play_label)

    def to_pandas(self):
        return self.table.to_pandas()


def sweep_steps(values: list, card: str | None, attribute: str | None, rule: str | None, settings: RunSettings):
    """A sweep's steps, every input checked (a command calls it before its plan: no game is played to refuse
    one): (what is varied, the shipped value, each value's (label, edits, variants), the shipped value's)."""
    base_edits, variants, max_turns = settings.edits, settings.variant_dict, settings.max_turns
    if (card is None) == (rule is None):
        raise InputError("a sweep varies either a card attribute (--card and --attribute) or a rule (--rule)")
    if not values:
        raise InputError("a sweep needs at least one value (--values)")
    if len(values) > MAX_SWEEP_VALUES:
        raise InputError(f"a sweep takes at most {MAX_SWEEP_VALUES:,} values (--values), got {len(values):,}")
    if card is not None:
        if attribute not in ATTRIBUTES or attribute in FLAGS:
            raise InputError(
                f"--attribute must be one of {', '.join(a for a in ATTRIBUTES if a not in FLAGS)}, got {attribute!r}"
            )
        from simlab.data.cards import load_cards

        check_edit(card, attribute, 0, "--card")
        shipped = getattr(load_cards().card(card), attribute)
        points = [check_edit(card, attribute, v, "--values") for v in values]
        baseline = str(shipped)
        what = f"{card} {attribute}"
        steps = [(str(p.value), base_edits + (p,), variants) for p in points]
        base_step = (baseline, base_edits, variants)
    else:
        if rule not in RULE_VARIANTS:
            raise InputError(f"unknown rule variant {rule!r}; choose from {', '.join(RULE_VARIANTS)}")
        for v in values:
            rules_array({**variants, rule: str(v)}, max_turns)
        baseline = variants.get(rule, RULE_VARIANTS[rule].default)
        what = f"rule {rule}"
        steps = [(str(v), base_edits, {**variants, rule: str(v)}) for v in values]
        base_step = (baseline, base_edits, {**variants, rule: baseline})
    return what, baseline, steps, base_step


def sweep(
    matchup: str,
    n_games: int | None,
    values: list,
    card: str | None = None,
    attribute: str | None = None,
    rule: str | None = None,
    *,
    settings: RunSettings | None = None,
    **given,
) -> SweepResult:
    """Play ``n_games`` of ``matchup`` at each value of a card attribute (``card`` + ``attribute``) or of a
    rule variant (``rule``), on the same seeds; per value and entry: win rate [Wilson 95%] and the paired
    change from the baseline [Newcombe 95%]. ``settings`` (a :class:`simlab.runs.settings.RunSettings`) and
    ``given`` (its fields as keywords) say how; their edits and variants hold for every value."""
    villains = parse_matchup(matchup)
    settings = settings_from(settings, n_games=n_games, **given)
    n_games, seed, progress, max_turns = settings.games, settings.seed, settings.progress, settings.max_turns
    variants = settings.variant_dict
    what, baseline, steps, base_step = sweep_steps(values, card, attribute, rule, settings)
    total = len(steps) + (0 if any(s[0] == baseline for s in steps) else 1)
    # every value's games are kept (one winner byte a game) to pair with the baseline's: planned before any is played
    plan_size("-n", n_games, games_each=total, kept_bytes_each=total, what=f"games at each of {total:,} values")
    done = 0

    def play(step):
        nonlocal done
        w = winner_indices(matchup, settings=settings.replace(edits=step[1], variants=step[2]))
        done += 1
        if progress is not None:
            progress(done * n_games, total * n_games)
        return w

    results = {}
    base = play(base_step)
    results[baseline] = base
    rows = []
    names = entry_names(villains)
    for label, edits_v, variants_v in steps:
        w = results.get(label)
        if w is None:
            w = results[label] = play((label, edits_v, variants_v))
        for e, name in enumerate(names):
            won = (w == e).astype(np.int8)
            low, high = (float(x) for x in wilson(int(won.sum()), won.size))
            # the shipped value's own row is the same games: its change is exactly 0, not an interval around it
            eff = SAME_GAMES if w is base else paired_effect((base == e).astype(np.int8), won)
            rows.append(
                {
                    "value": label,
                    "entry": name,
                    "games": won.size,
                    "rate": float(won.mean()),
                    "low": low,
                    "high": high,
                    "change": eff["change"],
                    "change_low": eff["change_low"],
                    "change_high": eff["change_high"],
                    "changed_games": eff["changed_games"],
                    "unfinished": float(np.mean(w < 0)),
                }
            )
    table = pl.DataFrame(rows)
    return SweepResult(
        matchup,
        what,
        baseline,
        table,
        seed,
        {
            "games": n_games,
            "level": settings.level_name,
            "strategies": dict(settings.strategies),
            "variants": variants,
            "max_turns": max_turns,
        },
        settings.play_label(villains),
    )
