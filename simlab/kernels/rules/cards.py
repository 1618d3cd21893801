"""Villain cards: where a card from hand can be played, and the Play a Card actions offered."""

from simlab.kernels import const as K
from simlab.kernels.bits import VILLAIN_BITS, lowest_nb
from simlab.kernels.compile import kernel
from simlab.kernels.query import can_enter_nb, play_cost_nb, realm_instance_nb, zone_bits_nb
from simlab.kernels.rules.abilities import ASK_NO_EFFECTS, ASK_PLAYABLE, own_ability_says_nb, realm_checks_nb
from simlab.kernels.rules.fate import effect_doable_nb
from simlab.kernels.rules.log import opt_add_nb


@kernel
def add_card_placements_nb(st, tb, ru, s, k):
    """Add (O_PLAY, k, loc, host) for each way seat ``s`` may play Ally or Item ``k`` (cost aside)."""
    c = st.inst[s, k, K.I_CARD]
    t = tb.card[c, K.CF_TYPE]
    n = 0
    if tb.card[c, K.CF_EXCLUSIVE] >= 0 and realm_instance_nb(st, s, tb.card[c, K.CF_EXCLUSIVE]) >= 0:
        return 0
    if t == K.T_ALLY:
        if own_ability_says_nb(st, tb, ru, ASK_PLAYABLE, s, c, -1) == 0:
            return 0
        if tb.card[c, K.CF_SWAP_FROM] >= 0:
            base = realm_instance_nb(st, s, tb.card[c, K.CF_SWAP_FROM])
            if base >= 0 and st.sv[s, K.SV_LOCK + st.inst[s, base, K.I_LOC]] == 0:
                opt_add_nb(st, K.O_PLAY, k, st.inst[s, base, K.I_LOC], base)
                n += 1
            return n
        for loc in range(K.N_LOC):
            if can_enter_nb(st, tb, s, c, loc):
                opt_add_nb(st, K.O_PLAY, k, loc, -1)
                n += 1
    elif t == K.T_ITEM:
        if tb.card[c, K.CF_ATTACH] == K.A_ALLY or tb.card[c, K.CF_ATTACH] == K.A_HERO:
            want = K.T_ALLY if tb.card[c, K.CF_ATTACH] == K.A_ALLY else K.T_HERO
            for j in range(K.N_INST):
                if (
                    st.inst[s, j, K.I_ZONE] == K.Z_REALM
                    and tb.card[st.inst[s, j, K.I_CARD], K.CF_TYPE] == want
                    and can_enter_nb(st, tb, s, c, st.inst[s, j, K.I_LOC])
                ):
                    opt_add_nb(st, K.O_PLAY, k, st.inst[s, j, K.I_LOC], j)
                    n += 1
        else:
            for loc in range(K.N_LOC):
                if not can_enter_nb(st, tb, s, c, loc):
                    continue
                if own_ability_says_nb(st, tb, ru, ASK_PLAYABLE, s, c, loc) == 0:
                    continue
                opt_add_nb(st, K.O_PLAY, k, loc, -1)
                n += 1
    return n


@kernel
def add_play_options_nb(st, tb, ru, s):
    """Add every card play seat ``s`` can make with a Play a Card action (one per distinct card)."""
    power = st.sv[s, K.SV_POWER]
    effects_barred = realm_checks_nb(st, tb, ru, ASK_NO_EFFECTS, s, -1, -1)
    hand = zone_bits_nb(st, s, K.Z_HAND) & VILLAIN_BITS
    m = hand
    while m != 0:
        k = lowest_nb(m)
        m &= m - 1
        c = st.inst[s, k, K.I_CARD]
        dup = False
        earlier = hand & ((1 << k) - 1)
        while earlier != 0:
            j = lowest_nb(earlier)
            earlier &= earlier - 1
            if st.inst[s, j, K.I_CARD] == c:
                dup = True
                break
        if dup:
            continue
        t = tb.card[c, K.CF_TYPE]
        cost = play_cost_nb(st, tb, s, c)
        if cost > power or t == K.T_CONDITION or tb.card[c, K.CF_BLOCKED] != 0:
            continue
        if t == K.T_EFFECT:
            if not effects_barred and effect_doable_nb(st, tb, ru, s, c, power - cost):
                opt_add_nb(st, K.O_PLAY, k, -1, -1)
        else:
            add_card_placements_nb(st, tb, ru, s, k)
