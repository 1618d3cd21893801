"""The heuristic's parameter registry: every weight the core's scoring reads, with its expert value, group,
description and tuning range (:class:`Param`, made in groups by :func:`group`; :data:`CORE_PARAMS`), and the
``P_*`` index the kernels read each as (``sp[P_X]``), made from the table (:func:`indices`).

The rows are data, not code, so that strategies are parameter vectors (TOML files, tuned vectors) and the
tables ``simlab strategies --params`` and the docs print are this registry. Each villain's plan adds its own rows
with :func:`group` (``strategies/plans/<folder>.py``); the whole table is ``strategies.plans.PARAMS``.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Param:
    """A named weight of the scoring kernel: its expert value, what it values, and the range tuning searches."""

    name: str
    expert: float  # the value ``expert`` plays with
    group: str  # what it values (see CORE_PARAMS)
    doc: str
    low: float  # the range ``simlab tune`` searches (inclusive)
    high: float
    integer: bool = False  # a count or threshold: tuned over whole numbers
    tunable: bool = True  # False for the skill switches and the novice's values (read only with plan 0)


# The weights the scoring divides by (kernels compile with numpy's error model: a division by zero gives inf or
# NaN instead of raising), so a strategy file must give each a positive value.
DIVISORS = frozenset({"surplus_scale", "power_glut_span"})


def group(group: str, *rows: tuple) -> tuple[Param, ...]:
    """Parameters valuing the same thing: rows of (name, expert, low, high, doc[, integer[, tunable]])."""
    return tuple(Param(r[0], float(r[1]), group, r[4], float(r[2]), float(r[3]), *r[5:]) for r in rows)


def indices(rows, first: int = 0) -> dict[str, int]:
    """``P_<NAME>`` -> the index in ``State.sparams`` of each parameter of ``rows``, laid out in order from
    ``first``."""
    return {f"P_{p.name.upper()}": first + i for i, p in enumerate(rows)}


# The core's weights of the scoring kernel, grouped by what they value. The whole table (strategies.plans.PARAMS) is
# these rows, in this order, which is the order ``simlab strategies --params`` lists them, then each villain's plan's
# rows (strategies/plans/<folder>.py: PARAMS, in the core's groups or in groups of their own), plan by plan in registry
# order. The kernel reads parameter ``x`` as ``sp[P_X]``: the core's ``P_*`` indices are made from this table below
# (:func:`indices`), each plan's by strategies.plans.slots (a test checks they all match the whole table). Groups:
# switches (skill level); economy (Power); cards (hand, drawing, discarding); allies; heroes (the harm a Hero does, what
# defeating it is worth); effects (other cards); choices (modes and picks inside card effects); fate (Fating an
# opponent: the harm of each Fate card); novice (read only with plan 0); the plans add progress (how far a plan is: what
# Fating it is worth) and one group a villain (its own plan). Numbers left in the code are not weights: 0.5 * BIG marks
# a winning move, 100 + Power takes the Gain Power action first, and the clamps of shares to [0, 1].

CORE_PARAMS: tuple[Param, ...] = (
    *group(
        "switches",
        ("plan", 1, 0, 1, "1: value cards by the villain's plan; 0: by cost (novice)", True, False),
        ("fate_smart", 1, 0, 1, "1: choices inside Fate effects know the target; 0: random", True, False),
    ),
    *group(
        "economy",
        ("power_value", 1.0, 0.2, 3.0, "worth of 1 Power"),
        ("spend_weight", 0.6, 0.0, 1.5, "how much of a card's cost counts against playing it"),
        ("noise", 0.05, 0.0, 0.5, "size of the random term added to every score"),
        ("power_target", 3.0, 0.0, 10.0, "Power beyond (the dearest card in hand + this) is worth less and less"),
        ("power_glut_span", 6.0, 1.0, 20.0, "... down to power_glut_floor this much beyond"),
        ("power_glut_floor", 0.1, 0.0, 1.0, "least share of power_value a surplus Power keeps"),
        ("surplus_scale", 8.0, 1.0, 20.0, "unspent Power surplus at which digging is at its most eager"),
        ("activation_lookahead", 3, 0, 6, "an Activate symbol is valued with the Power in hand plus this", True),
    ),
    *group(
        "cards",
        ("draw_value", 1.0, 0.0, 4.0, "worth of drawing a card"),
        ("dead_card", -1.0, -5.0, 0.0, "a card that does nothing now (below passing)"),
        ("condition_min", 0.1, -1.0, 2.0, "playing a Condition when its trigger comes: at least this"),
        ("discard_below", 1.5, -1.0, 6.0, "discard hand cards worth less than this (< 0: never by choice)"),
        ("dig_value", 3.0, 0.0, 8.0, "raise the discard threshold by this much while the plan is far from done"),
        ("dig_surplus_boost", 2.0, 0.0, 6.0, "digging is worth up to 1 + this times more while Power piles up"),
        ("discard_symbol_share", 0.7, 0.0, 1.5, "a Discard Cards symbol at a location: share of the worth of digging"),
        ("discard_action_share", 0.5, 0.0, 1.5, "taking the Discard Cards action: share of the worth of digging"),
        ("discard_action_cost", 0.01, 0.0, 1.0, "... less this (with nothing to dig, pass instead)"),
        ("keep_spend_share", 0.3, 0.0, 1.0, "keeping a card in hand: share of spend_weight counted against it"),
        ("second_copy_keep", 0.5, 0.0, 3.0, "keeping a second copy of a utility Effect or a Condition"),
        ("keep_condition_min", 1.0, 0.0, 3.0, "keeping a Condition: at least this"),
        ("keep_condition_max", 3.0, 1.0, 8.0, "... at most this"),
        ("keep_removal_min", 1.5, 0.0, 5.0, "keeping an Effect that defeats or traps Heroes: at least this"),
        ("keep_removal_share", 0.6, 0.0, 1.5, "... or this share of the worst Hero's defeat worth"),
        ("keep_removal_second", 1.0, 0.0, 4.0, "... a second copy of it"),
    ),
    *group(
        "allies",
        ("ally_value", 0.5, 0.0, 3.0, "worth of 1 Strength of Allies in play"),
        ("ally_enables_defeat", 0.6, 0.0, 1.5, "an Ally completing the Strength to defeat a Hero: share of its worth"),
        ("ally_near_hero_share", 0.3, 0.0, 1.5, "an Ally by a Hero it cannot beat yet: share of ally_value/Strength"),
        ("ally_near_hero", 0.5, 0.0, 2.0, "... plus this"),
        ("move_cost", 0.1, 0.0, 1.0, "cost of moving an Ally or Item (ties stay put)"),
        ("lose_free_ally", 10.0, 0.0, 20.0, "Allies given up in a Vanquish: those that come back first"),
        ("keep_activate_ally", 3.0, 0.0, 10.0, "... an Ally with an Activate ability last"),
        ("lose_exact", 5.0, 0.0, 10.0, "... an Ally whose Strength completes the Vanquish"),
        ("lose_overkill", 0.3, 0.0, 2.0, "... less this per Strength beyond what is needed"),
        ("lose_partial", 0.5, 0.0, 2.0, "... per Strength of an Ally that does not complete it"),
    ),
    *group(
        "heroes",
        ("vanquish_value", 1.5, 0.0, 8.0, "worth of defeating a Hero, on top of the harm it does"),
        ("threat_weight", 1.0, 0.0, 4.0, "multiplies the harm Heroes do"),
        ("cover_value", 1.5, 0.0, 6.0, "harm of one covered top-row action (scales the cover_* below)"),
        ("cover_gain", 0.8, 0.0, 2.5, "covered Gain Power symbol, per Power (at cover_value 1.5)"),
        ("cover_play", 1.5, 0.0, 4.0, "covered Play a Card or Activate symbol (at cover_value 1.5)"),
        ("cover_vanquish", 1.0, 0.0, 3.0, "covered Vanquish or Move an Item or Ally symbol (at cover_value 1.5)"),
        ("cover_fate", 0.8, 0.0, 3.0, "covered Fate symbol (at cover_value 1.5)"),
        ("cover_other", 0.4, 0.0, 2.0, "covered Discard Cards symbol (at cover_value 1.5)"),
        ("hero_strength_harm", 0.3, 0.0, 1.5, "harm per Strength of a Hero (the Allies it ties up)"),
        ("hero_company_harm", 0.5, 0.0, 2.0, "a Hero stronger beside other Heroes, per Hero in the Realm"),
    ),
    *group(
        "effects",
        ("activate_default", 0.5, 0.0, 3.0, "any other activated ability"),
        ("hijack_fate", 3.0, 0.0, 8.0, "taking over an opponent's Fate action"),
        ("effect_default", 0.5, 0.0, 3.0, "any other Effect"),
        ("item_default", 1.0, 0.0, 4.0, "any other Item"),
        ("card_default", 0.5, 0.0, 3.0, "any other card"),
    ),
    *group(
        "choices",
        ("mode_claim", 10.0, 0.0, 20.0, "a card's mode: claim the tile"),
        ("mode_find", 5.0, 0.0, 15.0, "... find (before the claim)"),
        ("mode_defeat", 1.0, 0.0, 5.0, "... defeat a Hero"),
        ("mode_gain_short", 2.0, 0.0, 6.0, "... gain Power, with little Power"),
        ("mode_gain", 0.5, 0.0, 4.0, "... gain Power otherwise"),
        ("mode_power_short", 4, 1, 8, "'little Power' is less than this (and 'enough to lose' at least it)", True),
        ("mode_draw", 1.0, 0.0, 4.0, "... draw"),
        ("mode_move_heroes", 0.5, 0.0, 3.0, "... move Heroes (harm to the Realm's owner)"),
        ("mode_lose_power", 2.0, 0.0, 6.0, "... make the Realm's owner with enough Power lose some"),
        ("mode_discard", 1.0, 0.0, 4.0, "... make the Realm's owner discard"),
        ("opponent_item", 1.0, 0.0, 4.0, "an opponent's Item to discard: what it keeps, plus this"),
    ),
    *group(
        "fate",
        ("fate_value", 2.0, 0.0, 20.0, "worth of a Fate action against an opponent with no progress"),
        ("fate_target_progress", 4.0, 0.0, 20.0, "weight of the target's progress in a Fate action's worth"),
        ("fate_defeat_share", 0.6, 0.0, 1.5, "a Hero the target will defeat at once: share of its defeat gain off"),
        ("fate_outmatched_share", 0.5, 0.0, 1.0, "a Hero the target's Allies already match: share of its harm off"),
        ("gather_ally_harm", 0.5, 0.0, 3.0, "a Hero gathering the target's Allies at its location: per Ally moved"),
        ("small_hero_harm", 0.5, 0.0, 3.0, "a Hero moving Heroes or Items: its extra"),
        ("replay_hero_harm", 3.0, 0.0, 8.0, "a Hero played again from the Fate discard"),
        ("fate_item_harm", 1.0, 0.0, 4.0, "any other Fate Item"),
        ("fate_effect_harm", 1.0, 0.0, 4.0, "any other Fate Effect"),
    ),
    *group(
        "novice",
        ("novice_base", 1.0, 0.0, 3.0, "(plan 0) worth of any card played", False, False),
        ("novice_strength", 0.5, 0.0, 2.0, "(plan 0) ... plus this per Strength of an Ally", False, False),
        ("novice_cost", 0.7, 0.0, 2.0, "(plan 0) ... plus this per Power a non-Ally costs", False, False),
        ("novice_activate", 1.0, 0.0, 3.0, "(plan 0) worth of any activation", False, False),
        ("novice_activate_cost", 0.5, 0.0, 2.0, "(plan 0) ... less this share of its cost", False, False),
        ("novice_keep", 1.0, 0.0, 3.0, "(plan 0) keeping a card in hand", False, False),
        ("novice_keep_cost", 0.2, 0.0, 1.0, "(plan 0) ... plus this per Power it costs", False, False),
    ),
)


# P_PLAN = 0, P_FATE_SMART = 1, P_POWER_VALUE = 2, ...: the index of each core weight, in the order of CORE_PARAMS
globals().update(indices(CORE_PARAMS))

BIG = 1000.0
