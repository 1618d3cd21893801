"""Fate cards: where a revealed card can be played, and whether its Effect can do what it says."""

from simlab.kernels import const as K
from simlab.kernels.bits import lowest_nb
from simlab.kernels.compile import kernel
from simlab.kernels.query import can_enter_nb, realm_heroes_nb, realm_instance_nb
from simlab.kernels.rules.abilities import CHECK_EFFECT, _check
from simlab.kernels.rules.log import log_nb, opt_add_nb
from simlab.kernels.rules.realm import discard_nb


@kernel
def hero_placements_nb(st, tb, s, k, tag):
    """Add (O_FATE_PLAY, tag, loc, -1) for each location Hero ``k`` may be played to; return how many."""
    c = st.inst[s, k, K.I_CARD]
    if tb.card[c, K.CF_EXCLUSIVE] >= 0 and realm_instance_nb(st, s, tb.card[c, K.CF_EXCLUSIVE]) >= 0:
        return 0
    if realm_instance_nb(st, s, c) >= 0:
        return 0
    n = 0
    if tb.card[c, K.CF_SWAP_FROM] >= 0:
        base = realm_instance_nb(st, s, tb.card[c, K.CF_SWAP_FROM])
        if base >= 0:
            opt_add_nb(st, K.O_FATE_PLAY, tag, st.inst[s, base, K.I_LOC], -1)
            n += 1
        return n
    for loc in range(K.N_LOC):
        if can_enter_nb(st, tb, s, c, loc):
            opt_add_nb(st, K.O_FATE_PLAY, tag, loc, -1)
            n += 1
    return n


@kernel
def effect_doable_nb(st, tb, ru, s, c, budget):
    """Effect or Condition ``c`` (a Villain or a Fate card) can do what it says in seat ``s``'s Realm now;
    ``budget`` is the Power left after paying it. The villain whose cards print the ability checks it (its
    ``check_nb``, through the check table), but for the core's own code, a Hero played from the Fate discard pile."""
    ab = tb.card[c, K.CF_EFFECT]
    if ab == K.AB_PLAY_HERO_FROM_FATE_DISCARD:
        # Probe with the option list, then give it back as it was: the caller may be building it.
        n0 = st.g[K.G_NOPT]
        found = False
        for k in range(K.N_VCARDS, K.N_INST):
            if st.inst[s, k, K.I_ZONE] == K.Z_FDISCARD and tb.card[st.inst[s, k, K.I_CARD], K.CF_TYPE] == K.T_HERO:
                if hero_placements_nb(st, tb, s, k, k) > 0:
                    found = True
                    break
        st.g[K.G_NOPT] = n0
        return found
    return _check(ab, st, tb, ru, CHECK_EFFECT, s, c, budget) != 0  # NO_CHECK: it can


@kernel
def fate_placements_nb(st, tb, ru, s, k):
    """Add the ways revealed Fate card ``k`` can be played into seat ``s``'s Realm; return how many."""
    c = st.inst[s, k, K.I_CARD]
    t = tb.card[c, K.CF_TYPE]
    if tb.card[c, K.CF_BLOCKED] != 0:
        return 0
    if t == K.T_HERO:
        return hero_placements_nb(st, tb, s, k, k)
    if t == K.T_ITEM:
        n = 0
        if tb.card[c, K.CF_ATTACH] == K.A_HERO:
            mh = realm_heroes_nb(st, tb, s)
            while mh != 0:
                h = lowest_nb(mh)
                mh &= mh - 1
                if can_enter_nb(st, tb, s, c, st.inst[s, h, K.I_LOC]):
                    opt_add_nb(st, K.O_FATE_PLAY, k, st.inst[s, h, K.I_LOC], h)
                    n += 1
        elif tb.card[c, K.CF_LOCATION] >= 0:
            if can_enter_nb(st, tb, s, c, tb.card[c, K.CF_LOCATION]):
                opt_add_nb(st, K.O_FATE_PLAY, k, tb.card[c, K.CF_LOCATION], -1)
                n += 1
        return n
    if t == K.T_EFFECT:
        if effect_doable_nb(st, tb, ru, s, c, 0):
            opt_add_nb(st, K.O_FATE_PLAY, k, -1, -1)
            return 1
    return 0


@kernel
def discard_revealed_nb(st, s, k):
    if k >= 0 and st.inst[s, k, K.I_ZONE] == K.Z_LIMBO:
        discard_nb(st, s, k)
        log_nb(st, K.EV_FATE_DISCARD, s, k, 0, 0, 0)


@kernel
def played_when_revealed_nb(tb, c):
    """Card ``c`` is played at once to the location it names when revealed (its card type, declared by its villain's
    folder, says so; an ablated one is discarded)."""
    return tb.card[c, K.CF_WHEN_REVEALED] != 0 and tb.card[c, K.CF_BLOCKED] == 0
