"""Lady Tremaine's plan: Wedding Bells with the Prince and a Ball Gown daughter in The Ballroom."""

import numpy as np

from simlab.kernels import const as K
from simlab.kernels.bits import FATE_BITS, VILLAIN_BITS, lowest_nb
from simlab.kernels.compile import kernel
from simlab.kernels.query import (
    activation_cost_nb,
    can_move_card_nb,
    first_symbol_nb,
    passive_count_nb,
    play_cost_nb,
    realm_instance_nb,
    symbol_available_nb,
    zone_bits_nb,
)
from simlab.villains.lady_tremaine.codes import (
    AB_ACTIVATE_TO_WIN,
    AB_ALLIES_MOVED_ONLY_BY_FATE,
    AB_DEFEAT_ALL_HEROES_PLAY_SLIPPERS,
    AB_DEFEAT_NAMED_HERO,
    AB_DISCARD_GLASS_SLIPPER,
    AB_DISCARD_ITEM_HERE,
    AB_EFFECT_COST_PLUS,
    AB_EXTRA_MOVE_OR_ACTIVATE,
    AB_FIND_NAMED_HERO_PLAY,
    AB_GLASS_SLIPPER,
    AB_ITEM_COST_PLUS,
    AB_MOVE_HERO_HERE_TRAP,
    AB_MOVE_NAMED_HERE_TRAP,
    AB_MOVE_OPPONENT_ALLY,
    AB_NO_ALLIES_ENTER_BALLROOM,
    AB_PEEK_FATE_DISCARD_ONE,
    AB_PLAY_GLASS_SLIPPERS,
    AB_REFRESH_HAND,
    AB_RESHUFFLE_DISCARD_DRAW,
    AB_RESHUFFLE_FATE_ARRANGE,
    AB_TRAP_HERO,
    AB_TRAPS_HEROES_HERE,
    AB_UNLOCK_PLAY_NAMED,
    AB_UNTRAP_AND_MOVE,
    T_PRINCE,
)
from simlab.villains.lady_tremaine.queries import wedding_ready_nb
from strategies import heuristic
from strategies.heuristic import (
    BIG,
    P_DRAW_VALUE,
    P_PLAN,
    P_POWER_VALUE,
    W_ACTIVATE_WINS,
    W_ACTIVATION,
    W_ACTIVATION_IDLE,
    W_ALLY,
    W_CARD,
    W_DEFEAT_GAIN,
    W_EFFECT,
    W_FATE_CARD,
    W_HERO_HARM,
    W_HERO_ON_ENTER,
    W_HERO_ON_PLAY,
    W_KEEP,
    W_KEEP_ITEM,
    W_MOVE,
    W_OWN_CARD,
    W_POSITION,
    W_PROGRESS,
    W_READY,
    W_READY_AT,
    activate_in_realm_nb,
    best_activation_nb,
    best_move_nb,
    best_trap_nb,
    defeat_value_nb,
    earlier_copy_in_hand_nb,
    group,
    hero_threat_nb,
    keep_removal_nb,
)
from strategies.plans import slots

PLAN = "Lady Tremaine builds the wedding step by step"

PARAMS = (
    *group(
        "allies",
        ("lucifer_trap_share", 0.5, 0.0, 1.5, "an Ally that traps Heroes (Lucifer): share of the best trap"),
    ),
    *group(
        "heroes",
        ("cost_plus_harm", 1.0, 0.0, 3.0, "a Hero raising the cost of Effects or Items, per +1"),
    ),
    *group(
        "effects",
        ("trap_effect_share", 0.8, 0.0, 1.5, "an Effect trapping a Hero: share of its harm"),
        ("trap_activate_min", 0.5, 0.0, 3.0, "activating a move-and-trap ability with no Hero worth trapping"),
        ("key_trap_bonus", 1.0, 0.0, 4.0, "an Item trapping the Hero it names: on top of that Hero's defeat worth"),
        ("key_trap_absent", 1.5, 0.0, 5.0, "... with that Hero not in the Realm"),
        ("peek_fate_activate", 0.5, 0.0, 3.0, "activating an ability that looks at the Fate deck and discards one"),
        ("reshuffle_arrange", 1.0, 0.0, 4.0, "reshuffling and arranging the Fate deck"),
        ("refresh_hand", 1.0, 0.0, 4.0, "discarding the hand to draw afresh"),
    ),
    *group(
        "progress",
        ("progress_bride", 0.3, 0.0, 0.6, "Lady Tremaine: a Ball Gown daughter in her Realm"),
        ("progress_daughter", 0.15, 0.0, 0.4, "Lady Tremaine: an everyday daughter, while no bride is in play"),
        ("progress_ballroom", 0.15, 0.0, 0.4, "Lady Tremaine: The Ballroom unlocked"),
        ("progress_bride_in", 0.2, 0.0, 0.5, "Lady Tremaine: a bride in The Ballroom"),
        ("progress_prince", 0.1, 0.0, 0.4, "Lady Tremaine: the Prince in her Realm"),
        ("progress_bells", 0.15, 0.0, 0.4, "Lady Tremaine: Wedding Bells in her Realm"),
        ("progress_slipper", 0.1, 0.0, 0.4, "Lady Tremaine: less per Glass Slipper in her Realm"),
    ),
    *group(
        "fate",
        ("discard_item_harm", 3.0, 0.0, 8.0, "a Hero discarding an Item where it enters"),
        ("untrap_move_harm", 2.0, 0.0, 6.0, "a Fate Effect freeing a trapped Hero and moving it"),
        ("move_ally_harm", 1.0, 0.0, 4.0, "a Fate Effect moving the target's Ally"),
        ("fairy_godmother_harm", 0.3, 0.0, 1.5, "Fating Lady Tremaine: the Fairy Godmother's extra, in steps"),
        ("fate_slipper", 0.6, 0.0, 1.5, "Fating Lady Tremaine: a Glass Slipper, in steps"),
        ("fate_slipper_cane", 0.2, 0.0, 1.0, "... with her Cane in play, in steps"),
        ("nightingale_bride", 1.2, 0.0, 3.0, "Fating Lady Tremaine: Sweet Nightingale, bride in The Ballroom, steps"),
    ),
    *group(
        "lady-tremaine",
        ("wedding_value", 10.0, 0.0, 30.0, "each step of the wedding plan (a 'step' below)"),
        ("first_daughter", 0.6, 0.0, 1.5, "playing the first everyday daughter, in steps"),
        ("more_daughters", 0.3, 0.0, 3.0, "playing a later everyday daughter"),
        ("daughter_by_ballroom", 0.5, 0.0, 3.0, "an everyday daughter played next to The Ballroom"),
        ("second_bride", 1.0, 0.0, 5.0, "playing a second Ball Gown daughter"),
        ("daughter_step", 0.05, 0.0, 0.3, "an everyday daughter per location nearer The Ballroom, in steps"),
        ("bride_step", 0.1, 0.0, 0.5, "a bride per location nearer The Ballroom, in steps"),
        ("bride_step_ready", 0.5, 0.0, 1.5, "... once the Prince and Wedding Bells wait and no Slipper is left"),
        ("bride_in_ballroom", 1.2, 0.0, 3.0, "a bride in The Ballroom, in steps"),
        ("bride_early", 0.2, 0.0, 1.0, "moving a bride into The Ballroom before the Bells can ring, in steps"),
        ("invitation_locked", 0.8, 0.0, 2.0, "Invitation from the King while The Ballroom is locked, in steps"),
        ("invitation_bride", 0.3, 0.0, 1.0, "... plus this with a bride in play, in steps"),
        ("invitation_open", 0.5, 0.0, 3.0, "Invitation from the King once The Ballroom is open"),
        ("bells_open", 0.7, 0.0, 2.0, "Wedding Bells with The Ballroom open, in steps"),
        ("bells_locked", 0.3, 0.0, 1.5, "Wedding Bells with The Ballroom locked, in steps"),
        ("cane_slipper", 0.6, 0.0, 1.5, "the Cane (or its activation) with a Glass Slipper to discard, in steps"),
        ("cane_idle", 0.2, 0.0, 1.0, "the Cane with no Glass Slipper in play, in steps"),
        ("bells_keep", 1.0, 0.0, 2.0, "keeping the only Wedding Bells in reach (none in play), at least, in steps"),
        ("midnight_no_cane", 0.8, 0.0, 2.0, "Midnight without the Cane: cost in steps (it plays the Slippers)"),
        ("fate_moves_allies_harm", 0.8, 0.0, 2.0, "a Hero letting only Fate move Allies, bride not in, in steps"),
        ("ballroom_closed_harm", 0.5, 0.0, 2.0, "a Hero keeping Allies out of The Ballroom, bride not in, in steps"),
        ("slippers_defeat", 0.8, 0.0, 2.0, "defeating Ball Gown Cinderella (plays the Slippers), in steps lost"),
        ("slippers_defeat_cane", 0.2, 0.0, 1.0, "... with the Cane in play, in steps lost"),
    ),
)

P = slots(__name__, PARAMS)
P_COST_PLUS_HARM = P["cost_plus_harm"]
P_TRAP_EFFECT_SHARE = P["trap_effect_share"]
P_TRAP_ACTIVATE_MIN = P["trap_activate_min"]
P_KEY_TRAP_BONUS = P["key_trap_bonus"]
P_KEY_TRAP_ABSENT = P["key_trap_absent"]
P_PEEK_FATE_ACTIVATE = P["peek_fate_activate"]
P_RESHUFFLE_ARRANGE = P["reshuffle_arrange"]
P_DISCARD_ITEM_HARM = P["discard_item_harm"]
P_UNTRAP_MOVE_HARM = P["untrap_move_harm"]
P_MOVE_ALLY_HARM = P["move_ally_harm"]
P_LUCIFER_TRAP_SHARE = P["lucifer_trap_share"]
P_REFRESH_HAND = P["refresh_hand"]
P_PROGRESS_BRIDE = P["progress_bride"]
P_PROGRESS_DAUGHTER = P["progress_daughter"]
P_PROGRESS_BALLROOM = P["progress_ballroom"]
P_PROGRESS_BRIDE_IN = P["progress_bride_in"]
P_PROGRESS_PRINCE = P["progress_prince"]
P_PROGRESS_BELLS = P["progress_bells"]
P_PROGRESS_SLIPPER = P["progress_slipper"]
P_FAIRY_GODMOTHER_HARM = P["fairy_godmother_harm"]
P_FATE_SLIPPER = P["fate_slipper"]
P_FATE_SLIPPER_CANE = P["fate_slipper_cane"]
P_NIGHTINGALE_BRIDE = P["nightingale_bride"]
P_WEDDING_VALUE = P["wedding_value"]
P_FIRST_DAUGHTER = P["first_daughter"]
P_MORE_DAUGHTERS = P["more_daughters"]
P_DAUGHTER_BY_BALLROOM = P["daughter_by_ballroom"]
P_SECOND_BRIDE = P["second_bride"]
P_DAUGHTER_STEP = P["daughter_step"]
P_BRIDE_STEP = P["bride_step"]
P_BRIDE_STEP_READY = P["bride_step_ready"]
P_BRIDE_IN_BALLROOM = P["bride_in_ballroom"]
P_BRIDE_EARLY = P["bride_early"]
P_INVITATION_LOCKED = P["invitation_locked"]
P_INVITATION_BRIDE = P["invitation_bride"]
P_INVITATION_OPEN = P["invitation_open"]
P_BELLS_OPEN = P["bells_open"]
P_BELLS_LOCKED = P["bells_locked"]
P_CANE_SLIPPER = P["cane_slipper"]
P_CANE_IDLE = P["cane_idle"]
P_BELLS_KEEP = P["bells_keep"]
P_MIDNIGHT_NO_CANE = P["midnight_no_cane"]
P_FATE_MOVES_ALLIES_HARM = P["fate_moves_allies_harm"]
P_BALLROOM_CLOSED_HARM = P["ballroom_closed_harm"]
P_SLIPPERS_DEFEAT = P["slippers_defeat"]
P_SLIPPERS_DEFEAT_CANE = P["slippers_defeat_cane"]


@kernel
def extra_activate_in_hand_nb(st, tb, s):
    """A card in hand that grants an Activate action and can be paid for now."""
    m = zone_bits_nb(st, s, K.Z_HAND) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        c = st.inst[s, k, K.I_CARD]
        if tb.card[c, K.CF_EFFECT] == AB_EXTRA_MOVE_OR_ACTIVATE and play_cost_nb(st, tb, s, c) <= st.sv[s, K.SV_POWER]:
            return True
    return False


@kernel
def bride_at_nb(st, tb, s, loc):
    """A Ball Gown daughter (bride) in seat ``s``'s Realm, at ``loc`` (anywhere if loc < 0)."""
    m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if tb.card[st.inst[s, k, K.I_CARD], K.CF_MARKED] != 0 and (loc < 0 or st.inst[s, k, K.I_LOC] == loc):
            return True
    return False


@kernel
def admits_only_loc_nb(st, tb, s):
    """The location only admitted cards may enter (Lady Tremaine's Ballroom), or -1."""
    v = st.sv[s, K.SV_VILLAIN]
    for loc in range(K.N_LOC):
        if tb.locs[v, loc, K.LC_ADMITS_ONLY] != 0:
            return loc
    return -1


@kernel
def prince_in_realm_nb(st, tb, s):
    m = zone_bits_nb(st, s, K.Z_REALM) & FATE_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if tb.card[st.inst[s, k, K.I_CARD], K.CF_TYPE] == T_PRINCE:
            return True
    return False


@kernel
def wedding_after_bride_nb(st, tb, ru, s):
    """Lady Tremaine wins as soon as a Ball Gown daughter next to The Ballroom moves in and Wedding Bells rings."""
    ball = admits_only_loc_nb(st, tb, s)
    if ball < 0 or bride_at_nb(st, tb, s, ball) or passive_count_nb(st, tb, s, AB_GLASS_SLIPPER) > 0:
        return False
    if not prince_in_realm_nb(st, tb, s) or activate_in_realm_nb(st, tb, s, AB_ACTIVATE_TO_WIN) < 0:
        return False
    m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        if tb.card[st.inst[s, k, K.I_CARD], K.CF_MARKED] != 0 and can_move_card_nb(st, tb, s, k, ball, 0):
            return True
    return False


@kernel
def wedding_progress_nb(st, tb, sp, s):
    """The wedding's steps taken: a bride (or else a daughter), The Ballroom open, the bride in it, the Prince,
    Wedding Bells; less for each Glass Slipper."""
    ball = admits_only_loc_nb(st, tb, s)
    p = 0.0
    if bride_at_nb(st, tb, s, -1):
        p += sp[P_PROGRESS_BRIDE]
    else:
        m = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
        while m != 0:
            k = lowest_nb(m)
            m &= m - 1
            if tb.card[st.inst[s, k, K.I_CARD], K.CF_EXCLUSIVE] >= 0:
                p += sp[P_PROGRESS_DAUGHTER]
                break
    if ball >= 0:
        if st.sv[s, K.SV_LOCK + ball] == 0:
            p += sp[P_PROGRESS_BALLROOM]
        if bride_at_nb(st, tb, s, ball):
            p += sp[P_PROGRESS_BRIDE_IN]
    if prince_in_realm_nb(st, tb, s):
        p += sp[P_PROGRESS_PRINCE]
    if activate_in_realm_nb(st, tb, s, AB_ACTIVATE_TO_WIN) >= 0:
        p += sp[P_PROGRESS_BELLS]
    p -= sp[P_PROGRESS_SLIPPER] * passive_count_nb(st, tb, s, AB_GLASS_SLIPPER)
    return min(max(p, 0.0), 1.0)


@kernel
def position_value_nb(st, tb, sp, s, k, loc, v):
    """``v`` plus the worth of a bride or an everyday daughter ``k`` standing at ``loc``: nearer The Ballroom."""
    c = st.inst[s, k, K.I_CARD]
    ball = admits_only_loc_nb(st, tb, s)
    if ball >= 0 and sp[P_PLAN] != 0:
        if tb.card[c, K.CF_MARKED] != 0:
            # A bride walks towards The Ballroom one location at a time; once the Prince and Wedding Bells
            # wait and no Slipper is left, every step is most of what remains to do.
            step = sp[P_BRIDE_STEP]
            if (
                prince_in_realm_nb(st, tb, s)
                and activate_in_realm_nb(st, tb, s, AB_ACTIVATE_TO_WIN) >= 0
                and passive_count_nb(st, tb, s, AB_GLASS_SLIPPER) == 0
            ):
                step = sp[P_BRIDE_STEP_READY]
            if loc == ball:
                v += sp[P_BRIDE_IN_BALLROOM] * sp[P_WEDDING_VALUE]
            else:
                v += step * sp[P_WEDDING_VALUE] * (3 - abs(ball - loc))
        elif tb.card[c, K.CF_EXCLUSIVE] >= 0 and tb.card[tb.card[c, K.CF_EXCLUSIVE], K.CF_MARKED] != 0:
            v += sp[P_DAUGHTER_STEP] * sp[P_WEDDING_VALUE] * (3 - abs(ball - loc))
    return v


@kernel
def move_value_nb(st, tb, ru, sp, s, k, dest):
    """Worth of moving a bride ``k`` into The Ballroom ``dest``, else NaN: go in only when Wedding Bells can ring
    this turn (Sweet Nightingale waits for her)."""
    if sp[P_PLAN] != 0 and tb.card[st.inst[s, k, K.I_CARD], K.CF_MARKED] != 0 and dest == admits_only_loc_nb(st, tb, s):
        if wedding_after_bride_nb(st, tb, ru, s) and (
            first_symbol_nb(st, tb, ru, s, K.S_ACTIVATE) >= 0 or extra_activate_in_hand_nb(st, tb, s)
        ):
            return 0.5 * BIG
        return sp[P_BRIDE_EARLY] * sp[P_WEDDING_VALUE]
    return np.nan


@kernel
def ally_value_nb(st, tb, ru, sp, s, k, loc, v):
    """``v`` plus the worth of playing a daughter (the first steps of the wedding) or an Ally that traps Heroes."""
    c = st.inst[s, k, K.I_CARD]
    wv = sp[P_WEDDING_VALUE]
    if tb.card[c, K.CF_MARKED] != 0:
        v += wv if not bride_at_nb(st, tb, s, -1) else sp[P_SECOND_BRIDE]
    elif tb.card[c, K.CF_EXCLUSIVE] >= 0 and tb.card[tb.card[c, K.CF_EXCLUSIVE], K.CF_MARKED] != 0:
        # an everyday daughter: the first step towards her Ball Gown
        daughters = 0
        mj = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
        while mj != 0:
            j = lowest_nb(mj)
            mj &= mj - 1
            cj = st.inst[s, j, K.I_CARD]
            if tb.card[cj, K.CF_MARKED] != 0 or (
                tb.card[cj, K.CF_EXCLUSIVE] >= 0 and tb.card[tb.card[cj, K.CF_EXCLUSIVE], K.CF_MARKED] != 0
            ):
                daughters += 1
        v += sp[P_FIRST_DAUGHTER] * wv if daughters == 0 else sp[P_MORE_DAUGHTERS]
        ball = admits_only_loc_nb(st, tb, s)
        if loc >= 0 and ball >= 0 and (loc == ball - 1 or loc == ball + 1):
            v += sp[P_DAUGHTER_BY_BALLROOM]
    if tb.card[c, K.CF_PASSIVE] == AB_TRAPS_HEROES_HERE:
        v += sp[P_LUCIFER_TRAP_SHARE] * best_trap_nb.call(st, tb, ru, sp, s, 0.0)
    return v


@kernel
def item_value_nb(st, tb, ru, sp, s, k):
    """Worth of playing the Invitation, Wedding Bells, the Cane or an Item trapping a named Hero ``k``, else
    NaN."""
    c = st.inst[s, k, K.I_CARD]
    if tb.card[c, K.CF_TYPE] != K.T_ITEM:
        return np.nan
    wv = sp[P_WEDDING_VALUE]
    on_play = tb.card[c, K.CF_ON_PLAY]
    act = tb.card[c, K.CF_ACTIVATE]
    where = tb.card[c, K.CF_LOCATION]
    if on_play == AB_UNLOCK_PLAY_NAMED:
        if st.sv[s, K.SV_LOCK + where] != 0:
            return sp[P_INVITATION_LOCKED] * wv + (sp[P_INVITATION_BRIDE] * wv if bride_at_nb(st, tb, s, -1) else 0.0)
        return sp[P_INVITATION_OPEN]
    if act == AB_ACTIVATE_TO_WIN:
        return sp[P_BELLS_OPEN] * wv if st.sv[s, K.SV_LOCK + where] == 0 else sp[P_BELLS_LOCKED] * wv
    if act == AB_DISCARD_GLASS_SLIPPER:
        return sp[P_CANE_SLIPPER] * wv if passive_count_nb(st, tb, s, AB_GLASS_SLIPPER) > 0 else sp[P_CANE_IDLE] * wv
    if on_play == AB_MOVE_NAMED_HERE_TRAP:
        # an Item trapping the Hero it names: by that Hero's defeat
        h = realm_instance_nb(st, s, tb.card[c, K.CF_REF0])
        if h >= 0:
            return defeat_value_nb(st, tb, ru, sp, s, h) + sp[P_KEY_TRAP_BONUS]
        return sp[P_KEY_TRAP_ABSENT]
    return np.nan


@kernel
def midnight_value_nb(st, tb, ru, sp, s):
    """Worth of defeating every Hero in the Realm and playing the Glass Slippers: the Heroes' harm, less the
    Slippers' if the Cane is not there to discard them."""
    v = 0.0
    mh = zone_bits_nb(st, s, K.Z_REALM)
    while mh != 0:
        h = lowest_nb(mh)
        mh &= mh - 1
        if tb.card[st.inst[s, h, K.I_CARD], K.CF_TYPE] == K.T_HERO:
            v += hero_threat_nb(st, tb, ru, sp, s, st.inst[s, h, K.I_CARD], st.inst[s, h, K.I_LOC], h)
    if activate_in_realm_nb(st, tb, s, AB_DISCARD_GLASS_SLIPPER) < 0:
        v -= sp[P_MIDNIGHT_NO_CANE] * sp[P_WEDDING_VALUE]
    return v


@kernel
def effect_value_nb(st, tb, ru, sp, s, c, budget):
    """Worth of resolving Lady Tremaine's Effect card row ``c`` (``budget``: Power left after paying) if it is
    Midnight, gives her an extra Move or Activate, traps or defeats a Hero, draws, arranges her Fate deck or
    refreshes her hand, else NaN."""
    ab = tb.card[c, K.CF_EFFECT]
    n = tb.card[c, K.CF_N]
    if ab == AB_DEFEAT_ALL_HEROES_PLAY_SLIPPERS:
        return midnight_value_nb(st, tb, ru, sp, s)
    if ab == AB_EXTRA_MOVE_OR_ACTIVATE:
        return max(best_move_nb.call(st, tb, ru, sp, s), best_activation_nb.call(st, tb, ru, sp, s, budget))
    if ab == AB_TRAP_HERO:
        return sp[P_TRAP_EFFECT_SHARE] * best_trap_nb.call(st, tb, ru, sp, s, -BIG)
    if ab == AB_RESHUFFLE_DISCARD_DRAW:
        return n * sp[P_DRAW_VALUE]
    if ab == AB_RESHUFFLE_FATE_ARRANGE:
        return sp[P_RESHUFFLE_ARRANGE]
    if ab == AB_DEFEAT_NAMED_HERO:
        best = -BIG
        for ref in (tb.card[c, K.CF_REF0], tb.card[c, K.CF_REF1]):
            h = realm_instance_nb(st, s, ref)
            if h >= 0:
                best = max(best, defeat_value_nb(st, tb, ru, sp, s, h))
        return best
    if ab == AB_REFRESH_HAND:
        return sp[P_REFRESH_HAND]
    return np.nan


@kernel
def ready_at_nb(st, tb, ru, s, loc, total):
    """``total`` plus a win if the bride can walk in at ``loc`` and Wedding Bells ring in the same turn."""
    v = st.sv[s, K.SV_VILLAIN]
    moves = 0
    acts = 0
    for j in range(tb.locs[v, loc, K.LC_NSYM]):
        if symbol_available_nb(st, tb, ru, s, loc, j):
            moves += tb.syms[v, loc, j, K.SY_KIND] == K.S_MOVE
            acts += tb.syms[v, loc, j, K.SY_KIND] == K.S_ACTIVATE
    if moves > 0 and (acts > 0 or extra_activate_in_hand_nb(st, tb, s)):
        total += 0.5 * BIG
    return total


@kernel
def fate_card_harm_nb(st, tb, sp, s, k):
    """Harm to Lady Tremaine of her revealed Fate card ``k`` if it is a Glass Slipper, moves one of her Allies (her
    bride out of The Ballroom) or frees and moves a Hero, else NaN."""
    c = st.inst[s, k, K.I_CARD]
    t = tb.card[c, K.CF_TYPE]
    if t == K.T_ITEM and tb.card[c, K.CF_PASSIVE] == AB_GLASS_SLIPPER:
        if activate_in_realm_nb(st, tb, s, AB_DISCARD_GLASS_SLIPPER) >= 0:
            return sp[P_FATE_SLIPPER_CANE] * sp[P_WEDDING_VALUE]
        return sp[P_FATE_SLIPPER] * sp[P_WEDDING_VALUE]
    if t == K.T_EFFECT and tb.card[c, K.CF_EFFECT] == AB_MOVE_OPPONENT_ALLY:
        ball = admits_only_loc_nb(st, tb, s)
        if ball >= 0 and bride_at_nb(st, tb, s, ball):
            return sp[P_NIGHTINGALE_BRIDE] * sp[P_WEDDING_VALUE]
        return sp[P_MOVE_ALLY_HARM]
    if t == K.T_EFFECT and tb.card[c, K.CF_EFFECT] == AB_UNTRAP_AND_MOVE:
        return sp[P_UNTRAP_MOVE_HARM]
    return np.nan


@kernel
def plan_nb(st, tb, ru, sp, what, s, a, b, c, x):
    """Lady Tremaine's terms of the heuristic's scoring (``what``: the ``W_*`` codes of
    :mod:`strategies.heuristic`)."""
    if what == W_PROGRESS:
        return wedding_progress_nb(st, tb, sp, s)
    if what == W_POSITION:
        return position_value_nb(st, tb, sp, s, a, b, x)
    if what == W_MOVE:
        return move_value_nb(st, tb, ru, sp, s, a, b)
    if what == W_CARD:
        return item_value_nb(st, tb, ru, sp, s, a)
    if what == W_ALLY:
        return ally_value_nb(st, tb, ru, sp, s, a, b, x)
    if what == W_EFFECT:
        return effect_value_nb(st, tb, ru, sp, s, a, b)
    if what == W_KEEP:
        # an Effect that traps Heroes, kept by the worst Hero in play
        card = st.inst[s, a, K.I_CARD]
        if tb.card[card, K.CF_TYPE] == K.T_EFFECT and tb.card[card, K.CF_EFFECT] == AB_TRAP_HERO:
            return keep_removal_nb.call(st, tb, ru, sp, s, a)
        return x
    if what == W_ACTIVATION:
        if a >= 0:
            card = st.inst[s, a, K.I_CARD]
            ab = tb.card[card, K.CF_ACTIVATE]
            cost = sp[P_POWER_VALUE] * activation_cost_nb(tb, ru, card)
            if ab == AB_DISCARD_GLASS_SLIPPER:
                return sp[P_CANE_SLIPPER] * sp[P_WEDDING_VALUE] - cost
            if ab == AB_MOVE_HERO_HERE_TRAP:
                return best_trap_nb.call(st, tb, ru, sp, s, sp[P_TRAP_ACTIVATE_MIN]) - cost
            if ab == AB_PEEK_FATE_DISCARD_ONE:
                return sp[P_PEEK_FATE_ACTIVATE] - cost
        return x
    if what == W_ACTIVATE_WINS:
        card = st.inst[s, a, K.I_CARD]
        if tb.card[card, K.CF_ACTIVATE] == AB_ACTIVATE_TO_WIN:  # Wedding Bells
            return 1.0 if wedding_ready_nb(st, tb, s, card) else -1.0
        return x
    if what == W_ACTIVATION_IDLE:
        # the Cane with no Glass Slipper to discard
        ab = tb.card[st.inst[s, a, K.I_CARD], K.CF_ACTIVATE]
        return 1.0 if ab == AB_DISCARD_GLASS_SLIPPER and passive_count_nb(st, tb, s, AB_GLASS_SLIPPER) == 0 else x
    if what == W_KEEP_ITEM:
        card = st.inst[s, a, K.I_CARD]
        if (
            tb.card[card, K.CF_ACTIVATE] == AB_ACTIVATE_TO_WIN
            and activate_in_realm_nb(st, tb, s, AB_ACTIVATE_TO_WIN) < 0
            and not earlier_copy_in_hand_nb(st, s, a)
        ):
            # the only Wedding Bells in reach: the plan cannot finish without it, whatever The Ballroom's lock
            return max(x, sp[P_BELLS_KEEP] * sp[P_WEDDING_VALUE])
        return x
    if what == W_READY:
        return 1.0 if wedding_after_bride_nb(st, tb, ru, s) else x
    if what == W_READY_AT:
        return ready_at_nb(st, tb, ru, s, a, x)
    if what == W_FATE_CARD:
        return fate_card_harm_nb(st, tb, sp, s, a)
    if what == W_HERO_ON_PLAY:
        # the Fairy Godmother brings Ball Gown Cinderella with her
        if tb.card[a, K.CF_ON_PLAY] == AB_FIND_NAMED_HERO_PLAY:
            x += sp[P_FAIRY_GODMOTHER_HARM] * sp[P_WEDDING_VALUE]
        return x
    if what == W_HERO_ON_ENTER:
        # a Hero discarding an Item where it enters
        if tb.card[a, K.CF_ON_ENTER] == AB_DISCARD_ITEM_HERE:
            mj = zone_bits_nb(st, s, K.Z_REALM) & VILLAIN_BITS
            while mj != 0:
                j = lowest_nb(mj)
                mj &= mj - 1
                if st.inst[s, j, K.I_LOC] == b and tb.card[st.inst[s, j, K.I_CARD], K.CF_TYPE] == K.T_ITEM:
                    x += sp[P_DISCARD_ITEM_HARM]
                    break
        return x
    if what == W_HERO_HARM:
        p = tb.card[a, K.CF_PASSIVE]
        if p == AB_ALLIES_MOVED_ONLY_BY_FATE:
            # a Hero keeping the bride's Allies from The Ballroom, while she is not in
            ball = admits_only_loc_nb(st, tb, s)
            if ball >= 0 and not bride_at_nb(st, tb, s, ball):
                x += sp[P_FATE_MOVES_ALLIES_HARM] * sp[P_WEDDING_VALUE]
        elif p == AB_NO_ALLIES_ENTER_BALLROOM:
            ball = admits_only_loc_nb(st, tb, s)
            if ball >= 0 and not bride_at_nb(st, tb, s, ball):
                x += sp[P_BALLROOM_CLOSED_HARM] * sp[P_WEDDING_VALUE]
        elif p == AB_EFFECT_COST_PLUS or p == AB_ITEM_COST_PLUS:
            # a Hero raising the cost of her Effects or Items
            x += sp[P_COST_PLUS_HARM] * tb.card[a, K.CF_N]
        return x
    if what == W_OWN_CARD:
        if b == AB_PEEK_FATE_DISCARD_ONE:
            # the Fate card to discard: the one that would hurt her most
            return heuristic.fate_card_harm_nb.call(st, tb, ru, sp, s, a, -1, -1)
        card = st.inst[s, a, K.I_CARD]
        if tb.card[card, K.CF_TYPE] == K.T_HERO and (
            b == AB_TRAP_HERO or b == AB_TRAPS_HEROES_HERE or b == AB_MOVE_HERO_HERE_TRAP
        ):
            # the Hero to trap: the one doing most harm where it stands
            return hero_threat_nb(st, tb, ru, sp, s, card, st.inst[s, a, K.I_LOC], a)
        return x
    if what == W_DEFEAT_GAIN:
        # a Hero who, defeated, plays the Glass Slippers
        if tb.card[a, K.CF_ON_DEFEAT] == AB_PLAY_GLASS_SLIPPERS:
            if activate_in_realm_nb(st, tb, s, AB_DISCARD_GLASS_SLIPPER) >= 0:
                return -sp[P_SLIPPERS_DEFEAT_CANE] * sp[P_WEDDING_VALUE]
            return -sp[P_SLIPPERS_DEFEAT] * sp[P_WEDDING_VALUE]
        return x
    return x
