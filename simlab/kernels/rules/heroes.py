"""Heroes defeated, and what their defeat sets off (their villain's routine resolves it)."""

from simlab.kernels import const as K
from simlab.kernels.compile import kernel
from simlab.kernels.rules.abilities import RESOLVE_DEFEATED_BY_VANQUISH, RESOLVE_ON_DEFEAT, _check
from simlab.kernels.rules.log import log_nb
from simlab.kernels.rules.realm import discard_nb


@kernel
def defeat_hero_nb(st, tb, ru, s, h, by_vanquish, chooser):
    """Defeat Hero ``h``: it goes to the Fate discard pile (or, defeated by a Vanquish, where its ongoing ability
    sends it: its villain's routine), then its "when defeated" ability resolves (its villain's routine)."""
    c = st.inst[s, h, K.I_CARD]
    ignored = st.inst[s, h, K.I_TRAPPED] != 0
    log_nb(st, K.EV_DEFEAT, s, h, 0, 0, 0)
    p = tb.card[c, K.CF_PASSIVE]
    if not (
        by_vanquish
        and not ignored
        and p != K.AB_NONE
        and _check(p, st, tb, ru, RESOLVE_DEFEATED_BY_VANQUISH, s, h, 0) == 1
    ):
        discard_nb(st, s, h)
    if ignored:
        return
    ab = tb.card[c, K.CF_ON_DEFEAT]
    if ab != K.AB_NONE:
        _check(ab, st, tb, ru, RESOLVE_ON_DEFEAT, s, h, 0)
