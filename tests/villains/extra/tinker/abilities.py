"""The Tinker's ability routine and check: gain_two_draw_one (Clockwork Swoon: gain 2 Power, draw a card) and his
objective, power_hoard (12 Power at the start of his turn). His other cards print Gaston's abilities, which
Gaston's routines resolve."""

from simlab.kernels import const as K
from simlab.kernels.compile import kernel
from simlab.kernels.rules.abilities import CARD_SEAT, CHECK_OBJECTIVE, NO_CHECK
from simlab.kernels.rules.frame import ret_nb
from simlab.kernels.rules.log import gain_power_nb
from simlab.kernels.rules.piles import draw_n_nb
from simlab.villains import codes_for

CODES = codes_for(__name__)
AB_GAIN_TWO_DRAW_ONE = CODES["gain_two_draw_one"]
OBJECTIVE = CODES["power_hoard"]
HOARD = 12

HANDLES = (AB_GAIN_TWO_DRAW_ONE, OBJECTIVE)


@kernel
def check_nb(st, tb, ru, slot, s, c, budget):
    """His objective holds with HOARD Power (at the start of his turn, the point his folder names); his Effect can
    always be played."""
    if slot == CHECK_OBJECTIVE:
        return 1 if st.sv[s, K.SV_POWER] >= HOARD else 0
    return NO_CHECK


@kernel
def ability_r(st, tb, ru, f):
    """Clockwork Swoon, on resolve_effect_r's frame: gain 2 Power, draw a card."""
    s = st.fr[f, CARD_SEAT]
    gain_power_nb(st, s, 2)
    draw_n_nb(st, s, 1)
    return ret_nb(st, f)
