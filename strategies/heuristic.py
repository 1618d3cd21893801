"""The scripted heuristic every non-random strategy runs: score each legal option, take the best.

Scores are in Power-equivalents ("what is this option worth to the player deciding"); an option scoring
below zero is worse than passing. A strategy is this kernel plus a parameter vector (``strategies.plans.PARAM_NAMES``),
stored per seat in ``State.sparams``: ``novice``, ``expert`` and ``fate-heavy`` differ only in parameters,
so users can make variants from TOML files without touching code. Every weight the scoring uses is a
named parameter (``strategies.plans.PARAMS``: expert value, group, description, tuning range; this
module's own rows are :data:`CORE_PARAMS`).


Two switches select the skill level:

* ``plan`` (0 or 1): value cards by the villain's own plan (its plan's terms, ``strategies/plans/<folder>.py``,
  asked through :func:`ask_plan_nb`). With 0 every card is worth about its cost: the novice plays what it can
  afford.
* ``fate_smart`` (0 or 1): make every choice inside a Fate effect knowing the target villain's plan
  (which Hero hurts most, where it covers most, what never to give). With 0 those choices are random.

All values are read from the card tables by ability code, never by card name, so edited cards keep
working. This module holds the terms any villain's cards could have, named by what they do; what is one villain's
(its objective's progress, its cards' and its Fate cards' worth, its Heroes' harm) is that villain's plan's.
"""

from dataclasses import dataclass

import numpy as np
from numba import types

from simlab.kernels import const as K
from simlab.kernels import link
from simlab.kernels.bits import VILLAIN_BITS, count_nb, lowest_nb
from simlab.kernels.jit import helper, kernel
from simlab.kernels.query import (
    activation_cost_nb,
    allies_strength_at_nb,
    available_symbols_nb,
    can_enter_nb,
    can_move_card_nb,
    can_vanquish_nb,
    covered_nb,
    dearest_in_hand_nb,
    flip_cost_nb,
    hero_count_nb,
    passive_count_nb,
    play_cost_nb,
    realm_heroes_nb,
    realm_instance_nb,
    strength_nb,
    symbol_kinds_nb,
    trappable_nb,
    vanquish_eligible_nb,
    wedding_ready_nb,
    zone_bits_nb,
)
from simlab.kernels.ref import ref
from simlab.kernels.rng import next_u64_nb

# ----------------------------------------------------------------------------- parameters (State.sparams[seat, P_*])


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
    slot: int | None = None  # its fixed place in State.sparams, if it has one (see strategies.plans.slots)


def group(group: str, *rows: tuple, at: int | None = None) -> tuple[Param, ...]:
    """Parameters valuing the same thing: rows of (name, expert, low, high, doc[, integer[, tunable]]); ``at``:
    the slot of the first (the others follow it), for rows whose place in ``State.sparams`` is fixed."""
    return tuple(
        Param(r[0], float(r[1]), group, r[4], float(r[2]), float(r[3]), *r[5:], slot=None if at is None else at + i)
        for i, r in enumerate(rows)
    )


# The core's weights of the scoring kernel, grouped by what they value. The whole table (strategies.plans.PARAMS)
# also holds each villain's plan's rows (strategies/plans/<folder>.py: PARAMS, in groups of their own or in the core's
# progress, fate and allies groups), at the slots they always had: the core's rows fill the others, in this order,
# which is the order ``simlab strategies --params`` lists them. The kernel reads parameter ``x`` as ``sp[P_X]``
# (the ``P_*`` indices below, and each plan's; a test checks they match the table). Groups: switches (skill
# level); economy (Power); cards (hand, drawing, discarding); allies; heroes (the harm a Hero does, what defeating
# it is worth); effects (other cards); choices (modes and picks inside card effects); fate (Fating an opponent:
# the harm of each Fate card); novice (read only with plan 0); the plans add progress (how far a plan is: what
# Fating it is worth) and one group a villain (its own plan). Numbers left in the code are not weights:
# 0.5 * BIG marks a winning move, 100 + Power takes the Gain Power action first, and the clamps of shares to
# [0, 1].

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
        ("attached_help_share", 0.5, 0.0, 1.5, "an Item adding Strength: share of the help its host gains"),
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
        ("cost_plus_harm", 1.0, 0.0, 3.0, "a Hero raising the cost of Effects or Items, per +1"),
        ("no_effects_harm", 3.0, 0.0, 8.0, "a Hero stopping Effects"),
        ("hero_company_harm", 0.5, 0.0, 2.0, "a Hero stronger beside other Heroes, per Hero in the Realm"),
    ),
    *group(
        "effects",
        ("trap_effect_share", 0.8, 0.0, 1.5, "an Effect trapping a Hero: share of its harm"),
        ("trap_activate_min", 0.5, 0.0, 3.0, "activating a move-and-trap ability with no Hero worth trapping"),
        ("key_trap_bonus", 1.0, 0.0, 4.0, "an Item trapping the Hero it names: on top of that Hero's defeat worth"),
        ("key_trap_absent", 1.5, 0.0, 5.0, "... with that Hero not in the Realm"),
        ("peek_fate_activate", 0.5, 0.0, 3.0, "activating an ability that looks at the Fate deck and discards one"),
        ("activate_default", 0.5, 0.0, 3.0, "any other activated ability"),
        ("reveal_ally_draws", 1.5, 0.0, 4.0, "revealing cards until an Ally, in draws"),
        ("reshuffle_arrange", 1.0, 0.0, 4.0, "reshuffling and arranging the Fate deck"),
        ("free_item", 2.0, 0.0, 6.0, "playing an Item for free"),
        ("refresh_hand", 1.0, 0.0, 4.0, "discarding the hand to draw afresh"),
        ("hijack_fate", 3.0, 0.0, 8.0, "taking over an opponent's Fate action"),
        ("effect_default", 0.5, 0.0, 3.0, "any other Effect"),
        ("item_default", 1.0, 0.0, 4.0, "any other Item"),
        ("card_default", 0.5, 0.0, 3.0, "any other card"),
    ),
    *group(
        "choices",
        ("mode_claim", 10.0, 0.0, 20.0, "a card's mode: claim the Cauldron"),
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
        ("witches_harm", 2.0, 0.0, 6.0, "a Hero making the target lose Power or discard cards"),
        ("move_hero_harm", 1.0, 0.0, 4.0, "a Hero moving a Hero or fetching an attachment"),
        ("small_hero_harm", 0.5, 0.0, 3.0, "a Hero moving Heroes or Items: its extra"),
        ("discard_item_harm", 3.0, 0.0, 8.0, "a Hero discarding an Item where it enters"),
        ("replay_hero_harm", 3.0, 0.0, 8.0, "a Hero played again from the Fate discard"),
        ("untrap_move_harm", 2.0, 0.0, 6.0, "a Fate Effect freeing a trapped Hero and moving it"),
        ("move_ally_harm", 1.0, 0.0, 4.0, "a Fate Effect moving the target's Ally"),
        ("discard_hand_share", 0.5, 0.0, 2.0, "a Fate Effect discarding the target's hand: share of its keep worth"),
        ("fresh_card_keep", 5.0, 0.0, 10.0, "... less this for each card it draws instead"),
        ("allies_minus_harm", 1.5, 0.0, 5.0, "an Item weakening Allies"),
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


P_PLAN = 0
P_FATE_SMART = 1
P_POWER_VALUE = 2
P_SPEND_WEIGHT = 3
P_NOISE = 4
P_POWER_TARGET = 5
P_POWER_GLUT_SPAN = 6
P_POWER_GLUT_FLOOR = 7
P_SURPLUS_SCALE = 8
P_ACTIVATION_LOOKAHEAD = 9
P_DRAW_VALUE = 10
P_DEAD_CARD = 11
P_CONDITION_MIN = 12
P_DISCARD_BELOW = 13
P_DIG_VALUE = 14
P_DIG_SURPLUS_BOOST = 15
P_DISCARD_SYMBOL_SHARE = 16
P_DISCARD_ACTION_SHARE = 17
P_DISCARD_ACTION_COST = 18
P_KEEP_SPEND_SHARE = 19
P_SECOND_COPY_KEEP = 20
P_KEEP_CONDITION_MIN = 21
P_KEEP_CONDITION_MAX = 22
P_KEEP_REMOVAL_MIN = 23
P_KEEP_REMOVAL_SHARE = 24
P_KEEP_REMOVAL_SECOND = 25
P_ALLY_VALUE = 26
P_ALLY_ENABLES_DEFEAT = 27
P_ALLY_NEAR_HERO_SHARE = 28
P_ALLY_NEAR_HERO = 29
P_MOVE_COST = 30
P_ATTACHED_HELP_SHARE = 31
P_LOSE_FREE_ALLY = 33
P_KEEP_ACTIVATE_ALLY = 34
P_LOSE_EXACT = 35
P_LOSE_OVERKILL = 36
P_LOSE_PARTIAL = 37
P_VANQUISH_VALUE = 38
P_THREAT_WEIGHT = 39
P_COVER_VALUE = 40
P_COVER_GAIN = 41
P_COVER_PLAY = 42
P_COVER_VANQUISH = 43
P_COVER_FATE = 44
P_COVER_OTHER = 45
P_HERO_STRENGTH_HARM = 46
P_COST_PLUS_HARM = 47
P_NO_EFFECTS_HARM = 48
P_HERO_COMPANY_HARM = 49
P_TRAP_EFFECT_SHARE = 50
P_TRAP_ACTIVATE_MIN = 51
P_KEY_TRAP_BONUS = 52
P_KEY_TRAP_ABSENT = 53
P_PEEK_FATE_ACTIVATE = 54
P_ACTIVATE_DEFAULT = 55
P_REVEAL_ALLY_DRAWS = 56
P_RESHUFFLE_ARRANGE = 57
P_FREE_ITEM = 58
P_REFRESH_HAND = 59
P_HIJACK_FATE = 60
P_EFFECT_DEFAULT = 61
P_ITEM_DEFAULT = 62
P_CARD_DEFAULT = 63
P_MODE_CLAIM = 64
P_MODE_FIND = 65
P_MODE_DEFEAT = 66
P_MODE_GAIN_SHORT = 67
P_MODE_GAIN = 68
P_MODE_POWER_SHORT = 69
P_MODE_DRAW = 70
P_MODE_MOVE_HEROES = 71
P_MODE_LOSE_POWER = 72
P_MODE_DISCARD = 73
P_OPPONENT_ITEM = 74
P_FATE_VALUE = 86
P_FATE_TARGET_PROGRESS = 87
P_FATE_DEFEAT_SHARE = 88
P_FATE_OUTMATCHED_SHARE = 89
P_GATHER_ALLY_HARM = 90
P_WITCHES_HARM = 92
P_MOVE_HERO_HARM = 93
P_SMALL_HERO_HARM = 94
P_DISCARD_ITEM_HARM = 95
P_REPLAY_HERO_HARM = 96
P_UNTRAP_MOVE_HARM = 98
P_MOVE_ALLY_HARM = 99
P_DISCARD_HAND_SHARE = 100
P_FRESH_CARD_KEEP = 101
P_ALLIES_MINUS_HARM = 103
P_FATE_ITEM_HARM = 104
P_FATE_EFFECT_HARM = 105
P_NOVICE_BASE = 176
P_NOVICE_STRENGTH = 177
P_NOVICE_COST = 178
P_NOVICE_ACTIVATE = 179
P_NOVICE_ACTIVATE_COST = 180
P_NOVICE_KEEP = 181
P_NOVICE_KEEP_COST = 182

BIG = 1000.0

# ============================================================================ each villain's plan

# A villain's own terms of the scoring are its plan's (strategies/plans/<folder>.py: plan_nb, compiled on its own),
# reached through a table of kernels indexed by the villain row of the seat they are about and filled from the
# registry by strategies.plans.bind_plans(): adding a villain adds an entry, not code here. ``what`` says what is
# asked, and what ``a``, ``b``, ``c`` and ``x`` are; the plan answers ``x`` when it has nothing to say. A term added
# to a running value gets that value as ``x`` and gives it back with its terms added, in the order they were always
# added.
W_PROGRESS = 0  # how far seat s is towards its objective, 0 to 1 (x: 0.0)
W_POSITION = 1  # its Ally or Item a standing at location b: what that is worth (x: 0.0)
W_ACTIVATION = 2  # activating its card instance a (-1: its tile), cost included (x: NaN, the core values it)
W_ACTIVATION_IDLE = 3  # 1.0 if activating its card instance a would do nothing now (x: 0.0)
W_MOVE = 4  # moving its Ally or Item a to location b (x: NaN, the core values it)
W_EFFECT = 5  # resolving its Effect or Condition card row a with b Power left after paying (x: NaN)
W_CARD = 6  # playing its Ally or Item a to location b (-1: wherever fits best) (x: NaN, the core values it)
W_ALLY = 7  # playing its Ally a to location b: x, the Ally's worth so far, with the plan's terms added
W_KEEPS_COPIES = 8  # 1.0 if a second copy of its Effect card row a is worth keeping like the first (x: 0.0)
W_KEEP = 9  # keeping its hand card a (x: NaN, the core values it)
W_KEEP_ITEM = 10  # keeping its hand Item a, worth x by what playing it is worth: x or more
W_READY = 11  # 1.0 if a Move and an Activate at one location can win this turn (x: 0.0)
W_READY_AT = 12  # the Villain Mover to location a when W_READY: x, the location's worth so far, plus
W_ACTIONS_AT = 13  # the Villain Mover to location a, gaining b Power with c Play symbols: x so far, plus
W_PLAY = 14  # playing its card a costing b Power: x, its worth so far, adjusted
W_SWAP = 15  # the tile's decision (DK_SWAP): the option at location a (x: 0.0)
W_LOCATION_PICK = 16  # location a picked for ability b in its Realm (c: 1 if by itself) (x: NaN, the core's)
W_OWN_CARD = 17  # its own card instance a picked for ability b (x: 0.0)
W_HERO_ON_PLAY = 18  # its Fate Hero card row a played to location b: x, its harm so far, plus its on-play's
W_ALLIES_GATHERED = 19  # every Ally of its Realm moved to location a: the harm besides the Allies moved (x: 0.0)
W_FATE_CARD = 20  # its revealed Fate Item or Effect a played to location b / host c: its harm (x: NaN, the core's)
W_REVEALED = 21  # its revealed Fate card a, b / c as above, knowing the other cards revealed (x: NaN: as W_FATE_CARD)
W_HERO_HARM = 22  # its Hero card row a at location b (c: its instance, -1 if not in play): x, its harm so far, plus
W_DEFEAT_GAIN = 23  # what it gains from its Hero card row a's "when defeated" ability (x: 0.0)
W_DEFEAT_VALUE = 24  # defeating its Hero instance a: x, the worth so far, adjusted

PLAN_TABLE = "simlab_strategies_plans"
N_PLAN_ROWS = 16  # villain rows the table has room for
_ST, _TB, _RU = link.ENGINE_REF_TYPES
_SP = types.Array(types.float64, 1, "C")  # st.sparams[player]
_I, _F = types.int64, types.float64
PLAN_TYPES = (_ST, _TB, _RU, _SP, _I, _I, _I, _I, _I, _F)  # (ref(st), ref(tb), ru, sp, what, s, a, b, c, x)
_plan = link.table_caller(PLAN_TABLE, N_PLAN_ROWS, PLAN_TYPES, _F)
# Bit ``what`` of entry ``v``: villain row v's plan answers ``what`` (strategies.plans.bind_plans reads which from
# its plan_nb). The others are not asked: the plan would give x back, and a call through the table costs about as
# much as a small term (about 5,000 questions a game, a third of them to a plan with nothing to say).
PLAN_ANSWERS_TABLE = "simlab_strategies_plan_answers"
_plan_answers = link.table_reader(PLAN_ANSWERS_TABLE, N_PLAN_ROWS)


@helper
def ask_plan_nb(st, tb, ru, sp, what, s, a, b, c, x):
    """Seat ``s``'s villain's plan's answer to ``what`` (see above)."""
    v = st.sv[s, K.SV_VILLAIN]
    if (_plan_answers(v) >> what) & 1 == 0:
        return x
    return _plan(v, st, tb, ru, sp, what, s, a, b, c, x)


@kernel
def no_plan_nb(st, tb, ru, sp, what, s, a, b, c, x):
    """The plan of a villain whose plan module has no ``plan_nb``: nothing to say."""
    return x


@kernel
def uniform_nb(rng):
    return np.float64(next_u64_nb(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


# ============================================================================ reading the position


@kernel
def objective_nb(st, tb, s):
    return tb.vil[st.sv[s, K.SV_VILLAIN], K.VF_OBJECTIVE]


@kernel
def realm_passive_at_nb(st, tb, s, passive, loc):
    """Cards with ongoing ability ``passive`` in seat ``s``'s Realm at ``loc`` (any location if loc < 0)."""
    n = 0
    m = zone_bits_nb(st, s, K.Z_REALM)
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if (loc < 0 or st.inst[s, k, K.I_LOC] == loc) and tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE] == passive:
            n += 1
    return n


@kernel
def activate_in_realm_nb(st, tb, s, ab):
    """Instance in seat ``s``'s Realm whose Activated Ability is ``ab``, or -1."""
    m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if tb.card[st.inst[s, k, K.I_CARD], K.CF_ACTIVATE] == ab:
            return k
    return -1


@kernel
def extra_activate_in_hand_nb(st, tb, s):
    """A card in hand that grants an Activate action and can be paid for now."""
    m = zone_bits_nb(st, s, K.Z_HAND) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        c = st.inst[s, k, K.I_CARD]
        if (
            tb.card[c, K.CF_EFFECT] == K.AB_EXTRA_MOVE_OR_ACTIVATE
            and play_cost_nb(st, tb, s, c) <= st.sv[s, K.SV_POWER]
        ):
            return True
    return False


# ============================================================================ what one decision works out once

# Rows of State.memo (and columns of State.memo_ok): values that scoring one decision asks for again and again
# (a Hero's defeat worth, for every Ally that could help beat it and every card that could remove it). They depend
# only on the position and on the deciding player's parameters, neither of which changes while a decision is
# scored (only the random stream does, and none of them reads it); choose_ref_nb clears them when it starts
# (except where the step after the decision before changes one known thing its values did not read:
# close_memo_nb) and reads none between decisions (G_SCORING). Outside a decision these kernels work them out
# afresh every time.
M_DEFEAT = 0  # by Hero instance: defeat_value_nb
M_VANQUISHABLE = 1  # by Hero instance: vanquishable_nb (1.0 or 0.0)
M_ALLIES_AT = 2  # by location: allies_at_nb
M_CARD = 3  # by hand instance: card_value_nb wherever it fits best (loc and host -1)
M_KEEP = 4  # by hand instance: keep_value_nb
M_STAYING = 5  # by Ally or Item instance: position_value_nb where it stands
M_SEAT = 6  # [0]: progress_nb; [1]: the dearest card in hand (dearest_in_hand_nb); [2]: heroes_nb
M_SYMBOLS = 7  # by location: the board symbols available there (available_symbols_nb)
M_TOP_ROW = 8  # by location: top_row_value_nb
M_HEROES_AT = 9  # by location: heroes_at_nb
M_STRENGTH = 10  # by Ally or Hero instance: strength_nb


@kernel
def open_memo_nb(st, kind):
    """Start scoring a decision of ``kind``: nothing kept yet, unless the last decision scored left its memo for
    this one (:func:`close_memo_nb`)."""
    keep = st.g[K.G_MEMO_KEPT] == st.g[K.G_STEPS] + 1 and st.g[K.G_MEMO_FOR] == kind
    st.g[K.G_MEMO_KEPT] = 0
    st.g[K.G_SCORING] = 1
    if keep:
        return
    st.g[K.G_MEMO_READS] = 0
    for s in range(st.g[K.G_NSEATS]):
        for m in range(K.N_MEMO):
            st.memo_ok[s, m] = 0


@kernel
def close_memo_nb(st, kind, code):
    """End scoring a decision of ``kind`` (``code``: the option chosen). Two decisions follow with only one thing
    changed between them, the same seat deciding with the same parameters, and keep the memo unless its values
    read that thing (``G_MEMO_READS``, marked by the queries that read it):
    - the Villain Mover decision, and the Action decision one step later: the mover has moved (no symbol is used
      yet this turn);
    - an Action decision that takes the Discard action, and the first discard it asks in the same step: the
      Discard symbol is used (nothing has left the hand yet)."""
    st.g[K.G_SCORING] = 0
    reads = st.g[K.G_MEMO_READS]
    if kind == K.DK_MOVE and reads & K.READ_MOVER == 0:
        st.g[K.G_MEMO_KEPT] = st.g[K.G_STEPS] + 2
        st.g[K.G_MEMO_FOR] = K.DK_ACTION
    elif kind == K.DK_ACTION and code == K.O_DISCARD and reads & K.READ_USED == 0:
        st.g[K.G_MEMO_KEPT] = st.g[K.G_STEPS] + 1
        st.g[K.G_MEMO_FOR] = K.DK_DISCARD


@kernel
def memo_has_nb(st, s, m, k):
    """``State.memo[s, m, k]`` holds this decision's value."""
    return st.g[K.G_SCORING] != 0 and (st.memo_ok[s, m] >> k) & 1 != 0


@kernel
def memo_put_nb(st, s, m, k, v):
    """``v``, kept as ``State.memo[s, m, k]`` while a decision is scored."""
    if st.g[K.G_SCORING] != 0:
        st.memo_ok[s, m] |= 1 << k
        st.memo[s, m, k] = v
    return v


@kernel
def vanquishable_nb(st, tb, s, h):
    """:func:`~simlab.kernels.query.can_vanquish_nb`, found once per decision."""
    if memo_has_nb(st, s, M_VANQUISHABLE, h):
        return st.memo[s, M_VANQUISHABLE, h] != 0.0
    yes = can_vanquish_nb(st, tb, s, h)
    memo_put_nb(st, s, M_VANQUISHABLE, h, 1.0 if yes else 0.0)
    return yes


@kernel
def instance_strength_nb(st, tb, s, k):
    """:func:`~simlab.kernels.query.strength_nb` of seat ``s``'s Ally or Hero ``k``, found once per decision."""
    if memo_has_nb(st, s, M_STRENGTH, k):
        return int(st.memo[s, M_STRENGTH, k])
    return int(memo_put_nb(st, s, M_STRENGTH, k, float(strength_nb(st, tb, s, k))))


@kernel
def allies_at_nb(st, tb, s, loc):
    """:func:`~simlab.kernels.query.allies_strength_at_nb` with none left out, found once per decision."""
    if memo_has_nb(st, s, M_ALLIES_AT, loc):
        return int(st.memo[s, M_ALLIES_AT, loc])
    return int(memo_put_nb(st, s, M_ALLIES_AT, loc, float(allies_strength_at_nb(st, tb, s, loc, -1))))


@kernel
def dearest_nb(st, tb, s):
    """:func:`~simlab.kernels.query.dearest_in_hand_nb`, found once per decision."""
    if memo_has_nb(st, s, M_SEAT, 1):
        return int(st.memo[s, M_SEAT, 1])
    return int(memo_put_nb(st, s, M_SEAT, 1, float(dearest_in_hand_nb(st, tb, s))))


@kernel
def symbols_at_nb(st, tb, ru, s, loc):
    """:func:`~simlab.kernels.query.available_symbols_nb`, found once per decision."""
    if memo_has_nb(st, s, M_SYMBOLS, loc):
        return int(st.memo[s, M_SYMBOLS, loc])
    return int(memo_put_nb(st, s, M_SYMBOLS, loc, float(available_symbols_nb(st, tb, ru, s, loc))))


@kernel
def progress_nb(st, tb, ru, sp, s):
    """How close seat ``s`` is to its objective, 0 (start) to 1 (won), as seen with parameters ``sp`` (found once
    per decision)."""
    if memo_has_nb(st, s, M_SEAT, 0):
        return st.memo[s, M_SEAT, 0]
    return memo_put_nb(st, s, M_SEAT, 0, ask_plan_nb(st, tb, ru, sp, W_PROGRESS, s, 0, 0, 0, 0.0))


# ============================================================================ Heroes: the harm they do


@kernel
def top_row_value_nb(st, tb, sp, s, loc):
    """Worth to seat ``s`` of the top-row actions of ``loc`` (what a Hero there covers; found once per decision)."""
    if memo_has_nb(st, s, M_TOP_ROW, loc):
        return st.memo[s, M_TOP_ROW, loc]
    return memo_put_nb(st, s, M_TOP_ROW, loc, top_row_worth_nb(st, tb, sp, s, loc))


@kernel
def top_row_worth_nb(st, tb, sp, s, loc):
    """:func:`top_row_value_nb` worked out."""
    v = st.sv[s, K.SV_VILLAIN]
    total = 0.0
    for j in range(tb.locs[v, loc, K.LC_NSYM]):
        if tb.syms[v, loc, j, K.SY_TOP] == 0:
            continue
        kind = tb.syms[v, loc, j, K.SY_KIND]
        if kind == K.S_GAIN:
            total += sp[P_COVER_GAIN] * tb.syms[v, loc, j, K.SY_VAL]
        elif kind == K.S_PLAY or kind == K.S_ACTIVATE:
            total += sp[P_COVER_PLAY]
        elif kind == K.S_VANQUISH or kind == K.S_MOVE:
            total += sp[P_COVER_VANQUISH]
        elif kind == K.S_FATE:
            total += sp[P_COVER_FATE]
        else:
            total += sp[P_COVER_OTHER]
    return total * sp[P_COVER_VALUE] / 1.5  # the cover_* weights are set for cover_value 1.5


@kernel
def heroes_at_nb(st, tb, s, loc):
    """Bitmask of the Heroes in seat ``s``'s Realm at ``loc`` (found once per decision)."""
    if memo_has_nb(st, s, M_HEROES_AT, loc):
        return int(st.memo[s, M_HEROES_AT, loc])
    here = 0
    m = heroes_nb(st, tb, s)
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if st.inst[s, k, K.I_LOC] == loc:
            here |= 1 << k
    return int(memo_put_nb(st, s, M_HEROES_AT, loc, float(here)))


@kernel
def heroes_nb(st, tb, s):
    """Bitmask of the Heroes in seat ``s``'s Realm (found once per decision)."""
    if memo_has_nb(st, s, M_SEAT, 2):
        return int(st.memo[s, M_SEAT, 2])
    return int(memo_put_nb(st, s, M_SEAT, 2, float(realm_heroes_nb(st, tb, s))))


@kernel
def hero_threat_nb(st, tb, ru, sp, s, c, loc, self_k):
    """Harm Hero card ``c`` at ``loc`` does seat ``s`` (``self_k``: its instance if already in play, else -1)."""
    others = heroes_at_nb(st, tb, s, loc)
    if self_k >= 0:
        others &= ~(1 << self_k)
    other_cover = others != 0
    h = 0.0
    if not other_cover:
        h += top_row_value_nb(st, tb, sp, s, loc)
    h += sp[P_HERO_STRENGTH_HARM] * tb.card[c, K.CF_STRENGTH]
    if self_k >= 0 and st.inst[s, self_k, K.I_TRAPPED] != 0:
        return h * sp[P_THREAT_WEIGHT]
    p = tb.card[c, K.CF_PASSIVE]
    n = tb.card[c, K.CF_N]
    if p == K.AB_EFFECT_COST_PLUS or p == K.AB_ITEM_COST_PLUS:
        h += sp[P_COST_PLUS_HARM] * n
    elif p == K.AB_NO_EFFECTS:
        h += sp[P_NO_EFFECTS_HARM]
    elif p == K.AB_OTHER_HEROES_HERE_PLUS or p == K.AB_OTHER_HEROES_PLUS or p == K.AB_PLUS_PER_OTHER_HERO_HERE:
        h += sp[P_HERO_COMPANY_HARM] * hero_count_nb(st, tb, s)
    elif p != K.AB_NONE:
        h = ask_plan_nb(st, tb, ru, sp, W_HERO_HARM, s, c, loc, self_k, h)
    return h * sp[P_THREAT_WEIGHT]


@kernel
def defeat_gain_nb(st, tb, ru, sp, s, c):
    """What seat ``s`` gains from Hero card ``c``'s "when defeated" ability (negative: it hurts)."""
    if tb.card[c, K.CF_ON_DEFEAT] == K.AB_NONE:
        return 0.0
    return ask_plan_nb(st, tb, ru, sp, W_DEFEAT_GAIN, s, c, 0, 0, 0.0)


@kernel
def defeat_value_nb(st, tb, ru, sp, s, h):
    """Worth to seat ``s`` of defeating its Hero instance ``h`` (found once per decision)."""
    if memo_has_nb(st, s, M_DEFEAT, h):
        return st.memo[s, M_DEFEAT, h]
    return memo_put_nb(st, s, M_DEFEAT, h, defeat_worth_nb(st, tb, ru, sp, s, h))


@kernel
def defeat_worth_nb(st, tb, ru, sp, s, h):
    """:func:`defeat_value_nb` worked out."""
    c = st.inst[s, h, K.I_CARD]
    v = hero_threat_nb(st, tb, ru, sp, s, c, st.inst[s, h, K.I_LOC], h) + defeat_gain_nb(st, tb, ru, sp, s, c)
    if tb.card[c, K.CF_PASSIVE] != K.AB_NONE:
        v = ask_plan_nb(st, tb, ru, sp, W_DEFEAT_VALUE, s, h, 0, 0, v)
    return v


@kernel
def vanquish_value_nb(st, tb, ru, sp, s, h):
    """Worth of a Vanquish of ``h``: the Hero's harm and defeat gain, less the Allies it costs."""
    here = st.inst[s, h, K.I_LOC]
    need = instance_strength_nb(st, tb, s, h)
    free = 0
    m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if vanquish_eligible_nb(st, tb, s, k, here):
            p = tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE]
            if p == K.AB_TILE_ALLY or p == K.AB_MOVES_TO_VILLAIN_AFTER_VANQUISH:
                free += instance_strength_nb(st, tb, s, k)
    lost = max(need - free, 0)
    return sp[P_VANQUISH_VALUE] + defeat_value_nb(st, tb, ru, sp, s, h) - sp[P_ALLY_VALUE] * lost


@kernel
def best_vanquish_nb(st, tb, ru, sp, s):
    best = -BIG
    mh = heroes_nb(st, tb, s)
    while mh != 0:
        h = lowest_nb(mh)
        mh &= mh - 1
        if vanquishable_nb(st, tb, s, h):
            best = max(best, vanquish_value_nb(st, tb, ru, sp, s, h))
    return best


@kernel
def best_defeat_nb(st, tb, ru, sp, s, max_strength):
    """Best worth of defeating one Hero of Strength <= max_strength (no Allies needed)."""
    best = -BIG
    mh = heroes_nb(st, tb, s)
    while mh != 0:
        h = lowest_nb(mh)
        mh &= mh - 1
        if instance_strength_nb(st, tb, s, h) <= max_strength:
            best = max(best, defeat_value_nb(st, tb, ru, sp, s, h))
    return best


@kernel
def best_trap_nb(st, tb, ru, sp, s):
    best = -BIG
    mh = heroes_nb(st, tb, s)
    while mh != 0:
        h = lowest_nb(mh)
        mh &= mh - 1
        if trappable_nb(st, tb, s, h):
            c = st.inst[s, h, K.I_CARD]
            best = max(best, hero_threat_nb(st, tb, ru, sp, s, c, st.inst[s, h, K.I_LOC], h))
    return best


# ============================================================================ the villain's own cards


@kernel
def position_value_nb(st, tb, ru, sp, s, k, loc):
    """Worth to seat ``s`` of its Ally or Item ``k`` standing at ``loc`` (what moving it changes; where it stands:
    found once per decision)."""
    if loc != st.inst[s, k, K.I_LOC]:
        return position_worth_nb(st, tb, ru, sp, s, k, loc)
    if memo_has_nb(st, s, M_STAYING, k):
        return st.memo[s, M_STAYING, k]
    return memo_put_nb(st, s, M_STAYING, k, position_worth_nb(st, tb, ru, sp, s, k, loc))


@kernel
def position_worth_nb(st, tb, ru, sp, s, k, loc):
    """:func:`position_value_nb` worked out."""
    c = st.inst[s, k, K.I_CARD]
    v = ask_plan_nb(st, tb, ru, sp, W_POSITION, s, k, loc, 0, 0.0)
    if tb.card[c, K.CF_TYPE] == K.T_ALLY:
        # Allies are worth more beside Heroes they help vanquish, most where they complete the Strength needed.
        mine = instance_strength_nb(st, tb, s, k)
        mh = heroes_at_nb(st, tb, s, loc)
        others = 0  # allies_strength_at_nb(loc, k): the Allies there, less this one if it is among them
        if mh != 0:
            among = (VILLAIN_BITS >> k) & 1 != 0 and vanquish_eligible_nb(st, tb, s, k, loc)
            others = allies_at_nb(st, tb, s, loc) - (mine if among else 0)
        while mh != 0:
            h = lowest_nb(mh)
            mh &= mh - 1
            need = instance_strength_nb(st, tb, s, h)
            if others < need <= others + mine:
                v += sp[P_ALLY_ENABLES_DEFEAT] * max(defeat_value_nb(st, tb, ru, sp, s, h), 0.0)
            else:
                v += sp[P_ALLY_NEAR_HERO_SHARE] * sp[P_ALLY_VALUE] * mine + sp[P_ALLY_NEAR_HERO]
    return v


@kernel
def ally_help_nb(st, tb, ru, sp, s, c, loc):
    """Worth of adding an Ally of card ``c`` at ``loc``: Heroes it would let a Vanquish reach."""
    mh = heroes_at_nb(st, tb, s, loc)
    if tb.card[c, K.CF_PASSIVE] == K.AB_VANQUISH_ADJACENT:
        if loc > 0:
            mh |= heroes_at_nb(st, tb, s, loc - 1)
        if loc < K.N_LOC - 1:
            mh |= heroes_at_nb(st, tb, s, loc + 1)
    best = 0.0
    while mh != 0:
        h = lowest_nb(mh)
        mh &= mh - 1
        if vanquishable_nb(st, tb, s, h):
            continue
        best = max(best, hero_help_nb(st, tb, ru, sp, s, c, h))
    return best


@kernel
def ally_help_anywhere_nb(st, tb, ru, sp, s, c):
    """The best :func:`ally_help_nb` over the locations an Ally of card ``c`` may enter, 0 if none: each Hero's
    worth found once, where the Hero is within reach of one of those locations (its worth does not depend on
    which)."""
    enter = 0
    for x in range(K.N_LOC):
        if can_enter_nb(st, tb, s, c, x):
            enter |= 1 << x
    adjacent = tb.card[c, K.CF_PASSIVE] == K.AB_VANQUISH_ADJACENT
    best = 0.0
    mh = heroes_nb(st, tb, s) if enter != 0 else 0
    while mh != 0:
        h = lowest_nb(mh)
        mh &= mh - 1
        hl = st.inst[s, h, K.I_LOC]
        reach = 1 << hl
        if adjacent:
            reach |= (1 << (hl + 1)) | ((1 << hl) >> 1)  # the neighbours; bits past the last location are not in enter
        if reach & enter == 0 or vanquishable_nb(st, tb, s, h):
            continue
        best = max(best, hero_help_nb(st, tb, ru, sp, s, c, h))
    return best


@kernel
def hero_help_nb(st, tb, ru, sp, s, c, h):
    """Worth of an Ally of card ``c`` joining the Allies that could vanquish Hero ``h`` (not yet defeatable)."""
    hl = st.inst[s, h, K.I_LOC]
    need = instance_strength_nb(st, tb, s, h) - allies_at_nb(st, tb, s, hl)
    add = tb.card[c, K.CF_STRENGTH]
    if tb.card[c, K.CF_PASSIVE] == K.AB_WOLF_PACK:
        # the new Wolf counts every Wolf in play, and each Wolf at the Hero's location grows by one
        m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
        while m != 0:
            k = lowest_nb(m)
            m &= m - 1
            if tb.card[st.inst[s, k, K.I_CARD], K.CF_PASSIVE] == K.AB_WOLF_PACK:
                add += 1 + (1 if st.inst[s, k, K.I_LOC] == hl else 0)
    if need <= add:
        return sp[P_ALLY_ENABLES_DEFEAT] * defeat_value_nb(st, tb, ru, sp, s, h)
    # a step towards a Hero too strong for one Ally (Beast): Allies gather at his location
    return sp[P_ALLY_ENABLES_DEFEAT] * defeat_value_nb(st, tb, ru, sp, s, h) * add / max(need, 1)


@kernel
def activation_value_nb(st, tb, ru, sp, s, k):
    """Worth of activating card ``k`` (-1: flipping the Black Cauldron to its Power side), cost included."""
    if k < 0:
        v = ask_plan_nb(st, tb, ru, sp, W_ACTIVATION, s, -1, 0, 0, np.nan)
        return v if not np.isnan(v) else sp[P_ACTIVATE_DEFAULT] - sp[P_POWER_VALUE] * flip_cost_nb(st, tb, ru, s)
    c = st.inst[s, k, K.I_CARD]
    ab = tb.card[c, K.CF_ACTIVATE]
    cost = sp[P_POWER_VALUE] * activation_cost_nb(tb, ru, c)
    if ab == K.AB_ACTIVATE_TO_WIN:
        return BIG
    if sp[P_PLAN] == 0:
        return sp[P_NOVICE_ACTIVATE] - sp[P_NOVICE_ACTIVATE_COST] * cost
    v = ask_plan_nb(st, tb, ru, sp, W_ACTIVATION, s, k, 0, 0, np.nan)
    if not np.isnan(v):
        return v
    if ab == K.AB_MOVE_HERO_HERE_TRAP:
        return max(best_trap_nb(st, tb, ru, sp, s), sp[P_TRAP_ACTIVATE_MIN]) - cost
    if ab == K.AB_PEEK_FATE_DISCARD_ONE:
        return sp[P_PEEK_FATE_ACTIVATE] - cost
    return sp[P_ACTIVATE_DEFAULT] - cost


@kernel
def best_activation_nb(st, tb, ru, sp, s, budget):
    """Best worth among activations seat ``s`` could afford with ``budget`` (-BIG if none)."""
    best = -BIG
    if st.sv[s, K.SV_CAULDRON] == 1 and budget >= flip_cost_nb(st, tb, ru, s):
        best = activation_value_nb(st, tb, ru, sp, s, -1)
    m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if st.sv[s, K.SV_LOCK + st.inst[s, k, K.I_LOC]] != 0:
            continue
        c = st.inst[s, k, K.I_CARD]
        ab = tb.card[c, K.CF_ACTIVATE]
        if ab == K.AB_NONE or activation_cost_nb(tb, ru, c) > budget:
            continue
        if ab == K.AB_ACTIVATE_TO_WIN:
            if wedding_ready_nb(st, tb, s, c):
                return BIG
            continue
        if ask_plan_nb(st, tb, ru, sp, W_ACTIVATION_IDLE, s, k, 0, 0, 0.0) != 0.0:
            continue
        best = max(best, activation_value_nb(st, tb, ru, sp, s, k))
    return best


@kernel
def move_value_nb(st, tb, ru, sp, s, k, dest):
    """Worth to seat ``s`` (the owner) of moving its Ally or Item ``k`` to ``dest``."""
    v = ask_plan_nb(st, tb, ru, sp, W_MOVE, s, k, dest, 0, np.nan)
    if not np.isnan(v):
        return v
    here = st.inst[s, k, K.I_LOC]
    gain = position_value_nb(st, tb, ru, sp, s, k, dest) - position_value_nb(st, tb, ru, sp, s, k, here)
    return gain - sp[P_MOVE_COST]


@kernel
def best_move_nb(st, tb, ru, sp, s):
    best = -BIG
    m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        for dest in range(K.N_LOC):
            if can_move_card_nb(st, tb, s, k, dest, 0):
                best = max(best, move_value_nb(st, tb, ru, sp, s, k, dest))
    return best


@kernel
def effect_value_nb(st, tb, ru, sp, s, c, budget):
    """Worth to seat ``s`` of resolving Effect (or Condition) card ``c``; ``budget``: Power left after paying."""
    ab = tb.card[c, K.CF_EFFECT]
    n = tb.card[c, K.CF_N]
    v = ask_plan_nb(st, tb, ru, sp, W_EFFECT, s, c, budget, 0, np.nan)
    if not np.isnan(v):
        return v
    if ab == K.AB_EXTRA_VANQUISH:
        return best_vanquish_nb(st, tb, ru, sp, s)
    if ab == K.AB_EXTRA_MOVE:
        return _best_move_nb(st, tb, ru, sp, s)
    if ab == K.AB_EXTRA_MOVE_OR_ACTIVATE:
        return max(_best_move_nb(st, tb, ru, sp, s), best_activation_nb(st, tb, ru, sp, s, budget))
    if ab == K.AB_DEFEAT_HERO_MAX_STRENGTH:
        return best_defeat_nb(st, tb, ru, sp, s, n)
    if ab == K.AB_REVEAL_UNTIL_ALLY:
        return sp[P_REVEAL_ALLY_DRAWS] * sp[P_DRAW_VALUE]
    if ab == K.AB_TRAP_HERO:
        return sp[P_TRAP_EFFECT_SHARE] * best_trap_nb(st, tb, ru, sp, s)
    if ab == K.AB_RESHUFFLE_DISCARD_DRAW or ab == K.AB_DRAW:
        return n * sp[P_DRAW_VALUE]
    if ab == K.AB_RESHUFFLE_FATE_ARRANGE:
        return sp[P_RESHUFFLE_ARRANGE]
    if ab == K.AB_DEFEAT_NAMED_HERO:
        best = -BIG
        for ref in (tb.card[c, K.CF_REF0], tb.card[c, K.CF_REF1]):
            h = realm_instance_nb(st, s, ref)
            if h >= 0:
                best = max(best, defeat_value_nb(st, tb, ru, sp, s, h))
        return best
    if ab == K.AB_POWER_PER_HERO:
        return hero_count_nb(st, tb, s) * sp[P_POWER_VALUE]
    if ab == K.AB_FREE_ITEM:
        return sp[P_FREE_ITEM]
    if ab == K.AB_REFRESH_HAND:
        return sp[P_REFRESH_HAND]
    if ab == K.AB_HIJACK_FATE:
        return sp[P_HIJACK_FATE]
    return sp[P_EFFECT_DEFAULT]


@kernel
def card_value_nb(st, tb, ru, sp, s, k, loc, host):
    """Worth to seat ``s`` of playing its card ``k`` to ``loc`` / ``host`` (loc < 0: wherever fits best, found
    once per decision)."""
    if loc >= 0 or host >= 0:
        return card_worth_nb(st, tb, ru, sp, s, k, loc, host)
    if memo_has_nb(st, s, M_CARD, k):
        return st.memo[s, M_CARD, k]
    return memo_put_nb(st, s, M_CARD, k, card_worth_nb(st, tb, ru, sp, s, k, loc, host))


@kernel
def card_worth_nb(st, tb, ru, sp, s, k, loc, host):
    """:func:`card_value_nb` worked out."""
    c = st.inst[s, k, K.I_CARD]
    t = tb.card[c, K.CF_TYPE]
    cost = play_cost_nb(st, tb, s, c)
    if sp[P_PLAN] == 0:
        if t == K.T_ALLY:
            return sp[P_NOVICE_BASE] + sp[P_NOVICE_STRENGTH] * tb.card[c, K.CF_STRENGTH]
        return sp[P_NOVICE_BASE] + sp[P_NOVICE_COST] * cost
    if t == K.T_EFFECT or t == K.T_CONDITION:
        return _effect_value_nb(st, tb, ru, sp, s, c, st.sv[s, K.SV_POWER] - cost)
    p = tb.card[c, K.CF_PASSIVE]
    if t == K.T_ALLY or t == K.T_ITEM:
        v = ask_plan_nb(st, tb, ru, sp, W_CARD, s, k, loc, 0, np.nan)
        if not np.isnan(v):
            return v
    if t == K.T_ALLY:
        v = sp[P_ALLY_VALUE] * tb.card[c, K.CF_STRENGTH]
        v = ask_plan_nb(st, tb, ru, sp, W_ALLY, s, k, loc, 0, v)
        if p == K.AB_WOLF_PACK:
            v += sp[P_ALLY_VALUE] * passive_count_nb(st, tb, s, K.AB_WOLF_PACK)
        if loc >= 0:
            v += ally_help_nb(st, tb, ru, sp, s, c, loc)
        else:
            v += ally_help_anywhere_nb(st, tb, ru, sp, s, c)
        return v
    if t == K.T_ITEM:
        if p == K.AB_ATTACHED_STRENGTH:
            v = sp[P_ALLY_VALUE] * tb.card[c, K.CF_N]
            if host >= 0:
                help_host = ally_help_nb(st, tb, ru, sp, s, st.inst[s, host, K.I_CARD], st.inst[s, host, K.I_LOC])
                v += help_host * sp[P_ATTACHED_HELP_SHARE]
            return v
        on_play = tb.card[c, K.CF_ON_PLAY]
        if on_play == K.AB_MOVE_NAMED_HERE_TRAP:
            h = realm_instance_nb(st, s, tb.card[c, K.CF_REF0])
            if h >= 0:
                return defeat_value_nb(st, tb, ru, sp, s, h) + sp[P_KEY_TRAP_BONUS]
            return sp[P_KEY_TRAP_ABSENT]
        return sp[P_ITEM_DEFAULT]
    return sp[P_CARD_DEFAULT]


@kernel
def keep_value_nb(st, tb, ru, sp, s, k):
    """Worth of keeping hand card ``k`` (what a discard gives up; found once per decision)."""
    if memo_has_nb(st, s, M_KEEP, k):
        return st.memo[s, M_KEEP, k]
    return memo_put_nb(st, s, M_KEEP, k, keep_worth_nb(st, tb, ru, sp, s, k))


@kernel
def keep_worth_nb(st, tb, ru, sp, s, k):
    """:func:`keep_value_nb` worked out."""
    c = st.inst[s, k, K.I_CARD]
    if sp[P_PLAN] == 0:
        return sp[P_NOVICE_KEEP] + sp[P_NOVICE_KEEP_COST] * tb.card[c, K.CF_COST]
    t = tb.card[c, K.CF_TYPE]
    if (
        t == K.T_EFFECT
        and earlier_copy_in_hand_nb(st, s, k)
        and ask_plan_nb(st, tb, ru, sp, W_KEEPS_COPIES, s, c, 0, 0, 0.0) == 0.0
    ):
        # a second copy of a utility Effect rarely earns its place in a 4-card hand
        return sp[P_SECOND_COPY_KEEP]
    v = ask_plan_nb(st, tb, ru, sp, W_KEEP, s, k, 0, 0, np.nan)
    if not np.isnan(v):
        return v
    if t == K.T_CONDITION:
        # a Condition waits for its trigger: one copy in hand is enough
        if earlier_copy_in_hand_nb(st, s, k):
            return sp[P_SECOND_COPY_KEEP]
        worth = _effect_value_nb(st, tb, ru, sp, s, c, st.sv[s, K.SV_POWER])
        return min(max(worth, sp[P_KEEP_CONDITION_MIN]), sp[P_KEEP_CONDITION_MAX])
    if t == K.T_EFFECT:
        ab = tb.card[c, K.CF_EFFECT]
        if ab == K.AB_EXTRA_VANQUISH or ab == K.AB_DEFEAT_HERO_MAX_STRENGTH or ab == K.AB_TRAP_HERO:
            # worth what the worst Hero in play costs us (it may be the one to remove next turn)
            if earlier_copy_in_hand_nb(st, s, k):
                return sp[P_KEEP_REMOVAL_SECOND]
            worst = 0.0
            mh = heroes_nb(st, tb, s)
            while mh != 0:
                h = lowest_nb(mh)
                mh &= mh - 1
                worst = max(worst, defeat_value_nb(st, tb, ru, sp, s, h))
            return max(sp[P_KEEP_REMOVAL_MIN], sp[P_KEEP_REMOVAL_SHARE] * worst)
    spend = sp[P_KEEP_SPEND_SHARE] * sp[P_SPEND_WEIGHT] * play_cost_nb(st, tb, s, c)
    worth = _card_value_nb(st, tb, ru, sp, s, k, -1, -1) - spend
    if t == K.T_ITEM:
        return ask_plan_nb(st, tb, ru, sp, W_KEEP_ITEM, s, k, 0, 0, worth)
    return worth


@kernel
def discard_threshold_nb(st, tb, ru, sp, s):
    """Hand cards worth less than this are discarded: more eagerly while the plan is far from done."""
    if sp[P_DISCARD_BELOW] < 0:
        return sp[P_DISCARD_BELOW]
    # Power piling up unspent means the hand holds the wrong cards.
    surplus = power_surplus_nb(st, tb, sp, s)
    return sp[P_DISCARD_BELOW] + sp[P_DIG_VALUE] * (
        1.0 - progress_nb(st, tb, ru, sp, s) + min(max(surplus, 0) / sp[P_SURPLUS_SCALE], 1.0)
    )


@kernel
def junk_count_nb(st, tb, ru, sp, s):
    n = 0
    limit = discard_threshold_nb(st, tb, ru, sp, s)
    m = zone_bits_nb(st, s, K.Z_HAND) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if _keep_value_nb(st, tb, ru, sp, s, k) < limit:
            n += 1
    return n


@kernel
def power_surplus_nb(st, tb, sp, s):
    """Power beyond what the dearest card in hand (plus ``power_target``) needs; negative while short."""
    return st.sv[s, K.SV_POWER] - (dearest_nb(st, tb, s) + sp[P_POWER_TARGET])


@kernel
def earlier_copy_in_hand_nb(st, s, k):
    """Another copy of hand card ``k``'s card sits in hand at a lower instance (``k`` is a second copy)."""
    m = zone_bits_nb(st, s, K.Z_HAND) & ((1 << k) - 1)
    while m != 0:
        j = lowest_nb(m)
        m &= m - 1
        if st.inst[s, j, K.I_CARD] == st.inst[s, k, K.I_CARD]:
            return True
    return False


@kernel
def dig_worth_nb(st, tb, ru, sp, s):
    """Worth of discarding the junk in hand to draw afresh: more while unspent Power piles up."""
    return sp[P_DRAW_VALUE] * junk_count_nb(st, tb, ru, sp, s) * dig_boost_nb(st, tb, sp, s)


@kernel
def dig_boost_nb(st, tb, sp, s):
    surplus = power_surplus_nb(st, tb, sp, s)
    return 1.0 + sp[P_DIG_SURPLUS_BOOST] * min(max(surplus, 0) / sp[P_SURPLUS_SCALE], 1.0)


@kernel
def discard_action_value_nb(sp, dig):
    """Score of taking the Discard action, whose draw is worth ``dig`` (dig_worth_nb)."""
    return sp[P_DISCARD_ACTION_SHARE] * dig - sp[P_DISCARD_ACTION_COST]


@kernel
def discard_action_ceiling_nb(st, tb, sp, s):
    """The most :func:`discard_action_value_nb` of :func:`dig_worth_nb` can be, whatever the cards in hand are
    worth: with none of them junk or every one (the worth is monotone in the count, and so is each rounding),
    without working out a keep value. NaN if that is not a number (then nothing is ruled out)."""
    boost = dig_boost_nb(st, tb, sp, s)
    none = discard_action_value_nb(sp, sp[P_DRAW_VALUE] * 0 * boost)
    every = discard_action_value_nb(
        sp, sp[P_DRAW_VALUE] * count_nb(zone_bits_nb(st, s, K.Z_HAND) & VILLAIN_BITS) * boost
    )
    if np.isnan(none) or np.isnan(every):
        return np.nan
    return max(none, every)


@kernel
def power_worth_nb(st, tb, sp, s, gain):
    """Worth of gaining ``gain`` Power: full up to what the hand can spend, then less and less."""
    over = power_surplus_nb(st, tb, sp, s)
    factor = 1.0 if over <= 0 else max(sp[P_POWER_GLUT_FLOOR], 1.0 - over / sp[P_POWER_GLUT_SPAN])
    return sp[P_POWER_VALUE] * gain * factor


# ============================================================================ Fate: harm done to a target


@kernel
def hero_fate_harm_nb(st, tb, ru, sp, s, c, loc):
    """Harm to seat ``s`` of Fate Hero card ``c`` played to ``loc``."""
    if loc < 0:
        loc = 0
    h = hero_threat_nb(st, tb, ru, sp, s, c, loc, -1)
    # a Hero the villain will defeat at once gives it the defeat bonus instead
    h -= sp[P_FATE_DEFEAT_SHARE] * defeat_gain_nb(st, tb, ru, sp, s, c)
    if allies_at_nb(st, tb, s, loc) >= tb.card[c, K.CF_STRENGTH]:
        h -= sp[P_FATE_OUTMATCHED_SHARE] * h if h > 0 else 0.0
    op = tb.card[c, K.CF_ON_PLAY]
    if op == K.AB_GATHER_ALLIES:
        h += gather_allies_harm_nb(st, tb, ru, sp, s, loc)
    elif op == K.AB_LOSE_POWER_OR_DISCARD:
        h += sp[P_WITCHES_HARM]
    elif op == K.AB_MAY_MOVE_ONE_HERO or op == K.AB_FETCH_ATTACHMENT_HERE:
        h += sp[P_MOVE_HERO_HARM]
    elif op == K.AB_MAY_MOVE_HEROES_OR_ITEMS or op == K.AB_MAY_MOVE_EACH_HERO:
        h += sp[P_SMALL_HERO_HARM]
    elif op != K.AB_NONE:
        h = ask_plan_nb(st, tb, ru, sp, W_HERO_ON_PLAY, s, c, loc, 0, h)
    if tb.card[c, K.CF_ON_ENTER] == K.AB_DISCARD_ITEM_HERE:
        mj = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
        while mj != 0:
            j = lowest_nb(mj)
            mj &= mj - 1
            if st.inst[s, j, K.I_LOC] == loc and tb.card[st.inst[s, j, K.I_CARD], K.CF_TYPE] == K.T_ITEM:
                h += sp[P_DISCARD_ITEM_HARM]
                break
    return h


@kernel
def gather_allies_harm_nb(st, tb, ru, sp, s, loc):
    """Harm to seat ``s`` of every Ally of its Realm moved to ``loc``: the Allies moved, and what its plan loses
    besides (``W_ALLIES_GATHERED``)."""
    moved = 0
    m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if st.inst[s, k, K.I_LOC] != loc and tb.card[st.inst[s, k, K.I_CARD], K.CF_TYPE] == K.T_ALLY:
            moved += 1
    return sp[P_GATHER_ALLY_HARM] * moved + ask_plan_nb(st, tb, ru, sp, W_ALLIES_GATHERED, s, loc, 0, 0, 0.0)


@kernel
def basic_fate_harm_nb(st, tb, ru, sp, s, k, loc, host):
    """Harm to seat ``s`` of its revealed Fate card ``k`` played to ``loc`` / ``host`` (loc < 0: best spot).

    A card whose harm depends on the other cards revealed is valued as if they were average;
    :func:`fate_card_harm_nb` knows better.
    """
    c = st.inst[s, k, K.I_CARD]
    t = tb.card[c, K.CF_TYPE]
    if t == K.T_HERO:
        if loc >= 0:
            return hero_fate_harm_nb(st, tb, ru, sp, s, c, loc)
        best = -BIG
        for x in range(K.N_LOC):
            if can_enter_nb(st, tb, s, c, x):
                best = max(best, hero_fate_harm_nb(st, tb, ru, sp, s, c, x))
        return best if best > -BIG else 0.0
    if t == K.T_ITEM or t == K.T_EFFECT:
        v = ask_plan_nb(st, tb, ru, sp, W_FATE_CARD, s, k, loc, host, np.nan)
        if not np.isnan(v):
            return v
    if t == K.T_ITEM:
        p = tb.card[c, K.CF_PASSIVE]
        if p == K.AB_ALLIES_HERE_MINUS:
            return sp[P_ALLIES_MINUS_HARM]
        return sp[P_FATE_ITEM_HARM]
    if t == K.T_EFFECT:
        ab = tb.card[c, K.CF_EFFECT]
        if ab == K.AB_PLAY_HERO_FROM_FATE_DISCARD:
            return sp[P_REPLAY_HERO_HARM]
        if ab == K.AB_UNTRAP_AND_MOVE:
            return sp[P_UNTRAP_MOVE_HARM]
        if ab == K.AB_MOVE_OPPONENT_ALLY:
            return sp[P_MOVE_ALLY_HARM]
        if ab == K.AB_DISCARD_HAND_DRAW:
            # what the hand is worth keeping, against the cards drawn instead
            kept = 0.0
            mj = zone_bits_nb(st, s, K.Z_HAND) & VILLAIN_BITS
            while mj != 0:
                j = lowest_nb(mj)
                mj &= mj - 1
                kept += _keep_value_nb(st, tb, ru, sp, s, j)
            return sp[P_DISCARD_HAND_SHARE] * (kept - tb.card[c, K.CF_N] * sp[P_FRESH_CARD_KEEP])
        return sp[P_FATE_EFFECT_HARM]
    return 0.0


@kernel
def fate_card_harm_nb(st, tb, ru, sp, s, k, loc, host):
    """Harm to seat ``s`` of its revealed Fate card ``k`` played to ``loc`` / ``host`` (loc < 0: best spot)."""
    v = ask_plan_nb(st, tb, ru, sp, W_REVEALED, s, k, loc, host, np.nan)
    if not np.isnan(v):
        return v
    return _basic_fate_harm_nb(st, tb, ru, sp, s, k, loc, host)


@kernel
def fate_action_value_nb(st, tb, ru, sp, target):
    return sp[P_FATE_VALUE] + sp[P_FATE_TARGET_PROGRESS] * progress_nb(st, tb, ru, sp, target)


# ============================================================================ the Villain Mover


@kernel
def symbols_offered_nb(st, tb, ru, s, n):
    """Bit ``kind`` set if a board symbol of that kind is available at the location of one of the ``n`` options of
    a DK_MOVE decision of seat ``s``."""
    v = st.sv[s, K.SV_VILLAIN]
    offered = 0
    for i in range(n):
        loc = st.opts[i, 1]
        offered |= symbol_kinds_nb(tb, v, loc, symbols_at_nb(st, tb, ru, s, loc))
    return offered


@kernel
def location_value_nb(st, tb, ru, sp, s, loc, move_worth, fate_worth, vanquish_worth, dig_worth, ready):
    """Worth to seat ``s`` of moving its Villain Mover to ``loc``: the actions it could take there.

    The worths that do not depend on the location are computed once per decision by the caller, and so is
    ``ready``: the plan's ``W_READY``.
    """
    v = st.sv[s, K.SV_VILLAIN]
    gains = 0
    plays = 0
    total = 0.0
    available = symbols_at_nb(st, tb, ru, s, loc)
    while available != 0:
        j = lowest_nb(available)
        available &= available - 1
        kind = tb.syms[v, loc, j, K.SY_KIND]
        if kind == K.S_GAIN:
            gains += tb.syms[v, loc, j, K.SY_VAL]
        elif kind == K.S_PLAY:
            plays += 1
        elif kind == K.S_ACTIVATE:
            lookahead = st.sv[s, K.SV_POWER] + sp[P_ACTIVATION_LOOKAHEAD]
            total += max(best_activation_nb(st, tb, ru, sp, s, lookahead), 0.0)
        elif kind == K.S_MOVE:
            total += move_worth
        elif kind == K.S_FATE:
            total += fate_worth
        elif kind == K.S_VANQUISH:
            total += vanquish_worth
        elif kind == K.S_DISCARD:
            total += sp[P_DISCARD_SYMBOL_SHARE] * dig_worth
    if realm_passive_at_nb(st, tb, s, K.AB_GRANTS_ACTIVATE, loc) > 0:
        total += max(best_activation_nb(st, tb, ru, sp, s, st.sv[s, K.SV_POWER] + gains), 0.0)
    if ready:
        total = ask_plan_nb(st, tb, ru, sp, W_READY_AT, s, loc, 0, 0, total)
    total += power_worth_nb(st, tb, sp, s, gains)
    if sp[P_PLAN] != 0 and (gains > 0 or plays > 0):
        total = ask_plan_nb(st, tb, ru, sp, W_ACTIONS_AT, s, loc, gains, plays, total)
    if plays > 0:
        # the best cards the Power here pays for, one per Play symbol
        budget = st.sv[s, K.SV_POWER] + gains
        used = 0  # bitmask of hand cards already counted
        for _ in range(plays):
            best = 0.0
            bk = -1
            m = zone_bits_nb(st, s, K.Z_HAND) & VILLAIN_BITS
            while m != 0:
                k = lowest_nb(m)
                m &= m - 1
                if (used >> k) & 1:
                    continue
                c = st.inst[s, k, K.I_CARD]
                t = tb.card[c, K.CF_TYPE]
                cost = play_cost_nb(st, tb, s, c)
                if t == K.T_CONDITION or cost > budget:
                    continue
                if tb.card[c, K.CF_PASSIVE] == K.AB_TILE_ALLY and (
                    ru[K.R_TILE_ALLY_PLAY_CARD] == 0 or st.sv[s, K.SV_CAULDRON] != 2
                ):
                    continue
                if tb.card[c, K.CF_SWAP_FROM] >= 0 and realm_instance_nb(st, s, tb.card[c, K.CF_SWAP_FROM]) < 0:
                    continue
                val = _card_value_nb(st, tb, ru, sp, s, k, -1, -1) - sp[P_SPEND_WEIGHT] * cost
                if val > best:
                    best = val
                    bk = k
            if bk < 0:
                break
            used |= 1 << bk
            budget -= play_cost_nb(st, tb, s, st.inst[s, bk, K.I_CARD])
            total += best
    return total


# ============================================================================ scoring one option


@kernel
def own_card_score_nb(st, tb, ru, sp, s, j, ctx):
    """Score of an O_CARD option naming instance ``j`` of seat ``s``, picked by ``s`` itself."""
    c = st.inst[s, j, K.I_CARD]
    if ctx == K.AB_PEEK_FATE_DISCARD_ONE:
        return _fate_card_harm_nb(st, tb, ru, sp, s, j, -1, -1)
    if tb.card[c, K.CF_TYPE] == K.T_HERO:
        if ctx == K.AB_TRAP_HERO or ctx == K.AB_TRAPS_HEROES_HERE or ctx == K.AB_MOVE_HERO_HERE_TRAP:
            return hero_threat_nb(st, tb, ru, sp, s, c, st.inst[s, j, K.I_LOC], j)
        return defeat_value_nb(st, tb, ru, sp, s, j)
    return ask_plan_nb(st, tb, ru, sp, W_OWN_CARD, s, j, ctx, 0, 0.0)


@kernel
def score_nb(st, tb, ru, sp, realm, player, kind, ctx, i):
    """Score of option ``i`` of the current decision for ``player``."""
    code = st.opts[i, 0]
    a = st.opts[i, 1]
    b = st.opts[i, 2]
    c3 = st.opts[i, 3]
    me = player
    mine = realm == player
    smart = sp[P_FATE_SMART] != 0
    if kind == K.DK_ACTION:
        if code == K.O_PASS:
            return 0.0
        if code == K.O_GAIN:
            return 100.0 + b
        if code == K.O_PLAY:
            cost = play_cost_nb(st, tb, me, st.inst[me, a, K.I_CARD])
            v = _card_value_nb(st, tb, ru, sp, me, a, b, c3) - sp[P_SPEND_WEIGHT] * cost
            if sp[P_PLAN] != 0:
                v = ask_plan_nb(st, tb, ru, sp, W_PLAY, me, a, cost, 0, v)
            return v
        if code == K.O_ACTIVATE:
            return activation_value_nb(st, tb, ru, sp, me, a)
        if code == K.O_MOVE:
            return move_value_nb(st, tb, ru, sp, me, a, b)
        if code == K.O_FATE:
            return fate_action_value_nb(st, tb, ru, sp, a)
        if code == K.O_VANQUISH:
            return vanquish_value_nb(st, tb, ru, sp, me, a)
        if code == K.O_DISCARD:
            return discard_action_value_nb(sp, dig_worth_nb(st, tb, ru, sp, me))
        return 0.0
    if kind == K.DK_SWAP:
        if code == K.O_PASS:
            return 0.0
        return ask_plan_nb(st, tb, ru, sp, W_SWAP, me, c3, 0, 0, 0.0)
    if kind == K.DK_VANQUISH_ALLY:
        if code == K.O_PASS:
            return BIG
        need = instance_strength_nb(st, tb, realm, ctx)
        total = 0
        for k in range(K.N_INST):
            if st.mark[k] != 0 and st.tmp[k] > 0:
                total += st.tmp[k]
        rest = need - total
        p = tb.card[st.inst[realm, a, K.I_CARD], K.CF_PASSIVE]
        sc = sp[P_LOSE_FREE_ALLY] if (p == K.AB_TILE_ALLY or p == K.AB_MOVES_TO_VILLAIN_AFTER_VANQUISH) else 0.0
        if tb.card[st.inst[realm, a, K.I_CARD], K.CF_ACTIVATE] != K.AB_NONE:
            sc -= sp[P_KEEP_ACTIVATE_ALLY]  # an Ally with an Activate ability (Monsieur D'Arque) goes last
        s_k = st.tmp[a]
        if s_k >= rest:
            return sc + sp[P_LOSE_EXACT] - sp[P_LOSE_OVERKILL] * (s_k - rest)
        return sc + sp[P_LOSE_PARTIAL] * s_k
    if kind == K.DK_DISCARD:
        if code == K.O_PASS:
            return 0.0
        return discard_threshold_nb(st, tb, ru, sp, realm) - _keep_value_nb(st, tb, ru, sp, realm, a)
    if kind == K.DK_CONDITION:
        if code == K.O_PASS:
            return 0.0
        if sp[P_PLAN] == 0:
            return sp[P_NOVICE_BASE]
        return max(_card_value_nb(st, tb, ru, sp, realm, a, -1, -1), sp[P_CONDITION_MIN])
    # ---------------------------------------------------------------- choices inside card effects
    if not mine and not smart:
        return uniform_nb(st.rng)
    sign = 1.0 if mine else -1.0  # harm to the Realm's owner is good for an opponent choosing
    if kind == K.DK_FATE_PICK or kind == K.DK_PLACE or kind == K.DK_ARRANGE:
        if code == K.O_PASS:
            return 0.0
        if code == K.O_PLAY:
            return _card_value_nb(st, tb, ru, sp, realm, a, b, c3)
        harm = _fate_card_harm_nb(st, tb, ru, sp, realm, a, b if kind != K.DK_ARRANGE else -1, c3)
        return -harm if mine else harm
    if kind == K.DK_MODE:
        if a == K.M_CLAIM:
            return sp[P_MODE_CLAIM]
        if a == K.M_FIND:
            return sp[P_MODE_FIND] if st.sv[realm, K.SV_CAULDRON] == 0 else 0.0
        if a == K.M_DEFEAT:
            return sp[P_MODE_DEFEAT]
        if a == K.M_GAIN:
            return sp[P_MODE_GAIN_SHORT] if st.sv[realm, K.SV_POWER] < sp[P_MODE_POWER_SHORT] else sp[P_MODE_GAIN]
        if a == K.M_DRAW:
            return sp[P_MODE_DRAW]
        if a == K.M_MOVE:
            return _best_move_nb(st, tb, ru, sp, realm)
        if a == K.M_ACTIVATE:
            return best_activation_nb(st, tb, ru, sp, realm, st.sv[realm, K.SV_POWER])
        if a == K.M_MOVE_HEROES:
            return sp[P_MODE_MOVE_HEROES] * -sign
        if a == K.M_LOSE_POWER:
            return (sp[P_MODE_LOSE_POWER] if st.sv[realm, K.SV_POWER] >= sp[P_MODE_POWER_SHORT] else 0.0) * -sign
        if a == K.M_DISCARD_CARDS:
            return sp[P_MODE_DISCARD] * -sign
        return 0.0
    if kind == K.DK_LOCATION:
        v = ask_plan_nb(st, tb, ru, sp, W_LOCATION_PICK, realm, a, ctx, 1 if mine else 0, np.nan)
        if not np.isnan(v):
            return v
        if ctx == K.AB_PUSH_ALLIES_OUT or ctx == K.AB_FIND_OR_DEFEAT_STRENGTH:
            # Allies pushed out / Hen Wen placed: near the owner's Allies helps the owner
            strength = 0
            m = zone_bits_nb(st, realm, K.Z_REALM) & VILLAIN_BITS
            while m != 0:
                k = lowest_nb(m)
                m &= m - 1
                if vanquish_eligible_nb(st, tb, realm, k, a):
                    strength += instance_strength_nb(st, tb, realm, k)
            return sign * strength
        # a Hero being placed or moved: harm is where it covers most
        v = top_row_value_nb(st, tb, sp, realm, a) if not covered_nb(st, tb, ru, realm, a) else 0.0
        return -sign * v
    if kind == K.DK_CARD:
        if code == K.O_PASS:
            return 0.0
        if code == K.O_VANQUISH:
            return vanquish_value_nb(st, tb, ru, sp, realm, a)
        if code == K.O_ACTIVATE:
            return activation_value_nb(st, tb, ru, sp, realm, a)
        if code == K.O_MOVE:
            c = st.inst[realm, a, K.I_CARD]
            if tb.card[c, K.CF_TYPE] == K.T_HERO:
                here = st.inst[realm, a, K.I_LOC]
                delta = hero_threat_nb(st, tb, ru, sp, realm, c, b, a) - hero_threat_nb(
                    st, tb, ru, sp, realm, c, here, a
                )
                return -sign * delta
            return sign * move_value_nb(st, tb, ru, sp, realm, a, b)
        if code == K.O_CARD:
            if mine:
                return own_card_score_nb(st, tb, ru, sp, realm, a, ctx)
            c = st.inst[realm, a, K.I_CARD]
            if tb.card[c, K.CF_TYPE] == K.T_ITEM:
                return _keep_value_nb(st, tb, ru, sp, realm, a) + sp[P_OPPONENT_ITEM]

            return instance_strength_nb(st, tb, realm, a) + 0.0
        return 0.0
    return 0.0


@kernel
def choose_nb(st, tb, ru, realm, player, kind, ctx, n):
    """Index of the best-scoring option (ties and near-ties broken by the ``noise`` term)."""
    # every scoring kernel below gets the state and the tables as one pointer each (simlab/kernels/ref.py)
    return _choose_by_ref_nb(ref(st), ref(tb), ru, realm, player, kind, ctx, n)


@kernel
def choose_by_ref_nb(st, tb, ru, realm, player, kind, ctx, n):
    """:func:`choose_nb` for the state and the tables passed as references: what the driver calls (a bound call
    passes a tuple's every array field, about 185 machine words; a reference is one)."""
    return choose_ref_nb(st, tb, ru, realm, player, kind, ctx, n)


@helper
def choose_ref_nb(st, tb, ru, realm, player, kind, ctx, n):
    open_memo_nb(st, kind)
    i = choose_scored_nb(st, tb, ru, realm, player, kind, ctx, n)
    close_memo_nb(st, kind, st.opts[i, 0])
    return i


@helper
def choose_scored_nb(st, tb, ru, realm, player, kind, ctx, n):
    sp = st.sparams[player]
    best = -np.inf
    best_i = 0
    if kind == K.DK_MOVE:
        # the worths that do not depend on the location, each only if some option's location offers its symbol
        # (they are pure: skipping an unused one changes nothing)
        offered = symbols_offered_nb(st, tb, ru, player, n)
        move_worth = max(_best_move_nb(st, tb, ru, sp, player), 0.0) if (offered >> K.S_MOVE) & 1 else 0.0
        vanquish_worth = 0.0
        if (offered >> K.S_VANQUISH) & 1:
            vanquish_worth = max(best_vanquish_nb(st, tb, ru, sp, player), 0.0)
        dig_worth = dig_worth_nb(st, tb, ru, sp, player) if (offered >> K.S_DISCARD) & 1 else 0.0
        fate_worth = 0.0
        if (offered >> K.S_FATE) & 1:
            for d in range(1, st.g[K.G_NSEATS]):
                fate_worth = max(fate_worth, fate_action_value_nb(st, tb, ru, sp, (player + d) % st.g[K.G_NSEATS]))
        ready = sp[P_PLAN] != 0 and ask_plan_nb(st, tb, ru, sp, W_READY, player, 0, 0, 0, 0.0) != 0.0
        for i in range(n):
            sc = _location_value_nb(
                st, tb, ru, sp, player, st.opts[i, 1], move_worth, fate_worth, vanquish_worth, dig_worth, ready
            )
            sc += sp[P_NOISE] * uniform_nb(st.rng)
            if sc > best:
                best = sc
                best_i = i
        return best_i
    if kind == K.DK_DISCARD:
        # score_nb's discard scores, with the threshold (the same for every option) computed once
        limit = discard_threshold_nb(st, tb, ru, sp, realm)
        for i in range(n):
            sc = 0.0 if st.opts[i, 0] == K.O_PASS else limit - _keep_value_nb(st, tb, ru, sp, realm, st.opts[i, 1])
            sc += sp[P_NOISE] * uniform_nb(st.rng)
            if sc > best:
                best = sc
                best_i = i
        return best_i
    # An Action decision's Discard action is the dearest option to score (the keep value of every card in hand)
    # and seldom the best: it is scored last, and only if its ceiling could beat the best of the others. Scoring
    # draws nothing from the random stream, so each option's noise is drawn in order as before, and a tie still
    # goes to the first option: the choice is the same.
    late = -1
    late_noise = 0.0
    for i in range(n):
        if late < 0 and kind == K.DK_ACTION and st.opts[i, 0] == K.O_DISCARD:
            late = i
            late_noise = sp[P_NOISE] * uniform_nb(st.rng)
            continue
        sc = _score_nb(st, tb, ru, sp, realm, player, kind, ctx, i) + sp[P_NOISE] * uniform_nb(st.rng)
        if sc > best:
            best = sc
            best_i = i
    if late >= 0 and not discard_action_ceiling_nb(st, tb, sp, player) + late_noise < best:
        sc = _score_nb(st, tb, ru, sp, realm, player, kind, ctx, late) + late_noise
        if sc > best or (sc == best and late < best_i):
            best_i = late
    return best_i


# ============================================================================ the parts compiled on their own

# The largest scoring kernels are compiled once each and called through a process-wide symbol
# (simlab.kernels.link), like the engine's routines: linked in, each would be optimised and generated again
# inside every kernel above it in the call chain (choose_nb -> score_nb -> own_card_score_nb ->
# fate_card_harm_nb -> basic_fate_harm_nb -> keep_value_nb -> card_value_nb -> effect_value_nb -> ...). They
# are also parts a cold start compiles in parallel. _NAME is the symbol call of NAME; bind_parts() must run
# before a kernel calling one is loaded from the cache (the driver does it when imported).
PART_TYPES = {
    best_move_nb: (_ST, _TB, _RU, _SP, _I),
    effect_value_nb: (_ST, _TB, _RU, _SP, _I, _I, _I),
    card_value_nb: (_ST, _TB, _RU, _SP, _I, _I, _I, _I),
    keep_value_nb: (_ST, _TB, _RU, _SP, _I, _I),
    basic_fate_harm_nb: (_ST, _TB, _RU, _SP, _I, _I, _I, _I),
    fate_card_harm_nb: (_ST, _TB, _RU, _SP, _I, _I, _I, _I),
    location_value_nb: (_ST, _TB, _RU, _SP, _I, _I, _F, _F, _F, _F, types.boolean),
    score_nb: (_ST, _TB, _RU, _SP, _I, _I, _I, _I, _I),
}
_best_move_nb = link.caller(best_move_nb, PART_TYPES[best_move_nb], _F)
_effect_value_nb = link.caller(effect_value_nb, PART_TYPES[effect_value_nb], _F)
_card_value_nb = link.caller(card_value_nb, PART_TYPES[card_value_nb], _F)
_keep_value_nb = link.caller(keep_value_nb, PART_TYPES[keep_value_nb], _F)
_basic_fate_harm_nb = link.caller(basic_fate_harm_nb, PART_TYPES[basic_fate_harm_nb], _F)
_fate_card_harm_nb = link.caller(fate_card_harm_nb, PART_TYPES[fate_card_harm_nb], _F)
_location_value_nb = link.caller(location_value_nb, PART_TYPES[location_value_nb], _F)
_score_nb = link.caller(score_nb, PART_TYPES[score_nb], _F)
CHOOSE_REF_TYPES = (_ST, _TB, _RU) + (_I,) * 5  # (ref(st), ref(tb), ru, realm, player, kind, ctx, n)
_choose_by_ref_nb = link.caller(choose_by_ref_nb, CHOOSE_REF_TYPES, _I)


def bind_parts() -> None:
    """Compile (or load from the cache) every part and register its symbol, callees first (the table of plans is
    filled by :func:`strategies.plans.bind_plans`)."""
    for part, argtypes in PART_TYPES.items():
        link.bind(part, argtypes)
