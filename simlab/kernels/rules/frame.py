"""The routine machine: frames, resume points, calls and decisions.

A rule that needs a player's choice is a routine: it runs from a frame of ``st.fr`` (its arguments and
locals in FR_A.., the point to resume at in FR_PC) and returns to :func:`advance_nb` whenever it needs a
decision (``ask_nb``: the options are in ``st.opts``) or a sub-routine (``call_nb``). The driver answers
the decision with :func:`apply_nb` and calls ``advance_nb`` again, which re-enters the routine on top of
the stack at its saved point, the chosen index in ``G_CHOICE``. Everything a game is lives in the state's
arrays, so a state copied at any decision continues exactly as the original would.
"""

from numba import types

from simlab.kernels import const as K
from simlab.kernels.compile import kernel, part
from simlab.kernels.rules.log import log_nb
from simlab.kernels.state import ENGINE_REF_TYPES

A0 = K.FR_A
A1 = K.FR_A + 1
A2 = K.FR_A + 2
A3 = K.FR_A + 3
A4 = K.FR_A + 4
A5 = K.FR_A + 5
A6 = K.FR_A + 6
A7 = K.FR_A + 7
A8 = K.FR_A + 8
A9 = K.FR_A + 9
A10 = K.FR_A + 10
A11 = K.FR_A + 11

START = 0  # the resume point every routine begins at (push_nb)

GO = 0  # the routine on top of the stack can run on
WAIT = 1  # a decision waits for a player

RT_STEP = 1
RT_TAKE_ACTION = 2
RT_AFTER_ACTION = 3
RT_CONDITION_WINDOW = 4
RT_REMOVE_OBSTACLES = 5
RT_REPLACE_OBSTACLES = 6
RT_PICK_LOCATION = 7
RT_PICK_HERO_TO_MOVE = 8
RT_PICK_MODE = 9
RT_ON_ENTER = 10
RT_MOVE_HERO = 11
RT_PLACE_HERO = 12
RT_ON_PLAY = 13
RT_PLAY_HERO = 14
RT_PLAY_FATE_CARD = 15
RT_PLAY_REVEALED = 16
RT_FATE_ACTION = 17
RT_VANQUISH = 18
RT_CHOOSE_VANQUISH = 19
RT_CHOOSE_MOVE = 20
RT_ACTIVATE = 21
RT_CHOOSE_ACTIVATE = 22
RT_PLAY_ITEM = 23
RT_PLAY_VILLAIN_CARD = 24
RT_DISCARD_PICKS = 25
RT_RESOLVE_EFFECT = 26
RT_TILE = 27  # a claimed tile's rule (tile_r): its villain's routine
RT_PASSIVE_PLAYED = 28  # an Ally's ongoing ability watching where cards stand, as it is played: its villain's routine

# an RT_TILE routine's frame
TILE_SEAT = A0  # whose tile
TILE_PHASE = A1  # the phase of the turn whose rule it resolves (PH_*)


@kernel
def push_nb(st, routine, a0, a1, a2, a3, a4, a5, a6):
    d = st.g[K.G_SP]
    if d >= K.MAX_DEPTH:
        raise IndexError("routine stack overflow")
    st.fr[d, K.FR_ROUTINE] = routine
    st.fr[d, K.FR_PC] = START
    st.fr[d, A0] = a0
    st.fr[d, A1] = a1
    st.fr[d, A2] = a2
    st.fr[d, A3] = a3
    st.fr[d, A4] = a4
    st.fr[d, A5] = a5
    st.fr[d, A6] = a6
    for j in range(A7, K.N_FR):
        st.fr[d, j] = 0
    st.g[K.G_SP] = d + 1


@kernel
def call_nb(st, f, pc, routine, a0, a1, a2, a3, a4, a5, a6):
    """Run ``routine`` now; the routine of frame ``f`` resumes at ``pc`` when it is done."""
    st.fr[f, K.FR_PC] = pc
    push_nb(st, routine, a0, a1, a2, a3, a4, a5, a6)
    return GO


@kernel
def tail_nb(st, f, routine, a0, a1, a2, a3, a4, a5, a6):
    """Finish the routine of frame ``f`` by running ``routine`` in its place."""
    st.g[K.G_SP] = f
    push_nb(st, routine, a0, a1, a2, a3, a4, a5, a6)
    return GO


@kernel
def ret_nb(st, f):
    """Finish the routine of frame ``f``."""
    st.g[K.G_SP] = f
    return GO


@kernel
def ask_nb(st, f, pc, realm, player, kind, ctx):
    """``player`` picks one of ``st.opts`` (about seat ``realm``'s Realm); frame ``f`` resumes at ``pc``.

    A forced choice (one option, or none) asks nobody: option 0 is taken at once.
    """
    st.fr[f, K.FR_PC] = pc
    n = st.g[K.G_NOPT]
    if n <= 1:
        st.g[K.G_CHOICE] = 0
        return GO
    st.g[K.G_PEND_N] = n
    st.g[K.G_PEND_KIND] = kind
    st.g[K.G_PEND_PLAYER] = player
    st.g[K.G_PEND_CTX] = ctx
    st.g[K.G_PEND_REALM] = realm
    st.g[K.G_ASK] = 1
    return WAIT


# the search player calls it through its symbol, on a reference to its world's state; bound on first use
@part(ENGINE_REF_TYPES[0], types.int64, returns=types.none, python=True, lazy=True)
def apply_nb(st, i):
    """Answer the waiting decision with option ``i`` (checked by the caller); ``advance_nb`` carries on."""
    st.g[K.G_ASK] = 0
    st.g[K.G_CHOICE] = i
    st.g[K.G_DECISIONS] += 1
    log_nb(st, K.EV_CHOICE, st.g[K.G_PEND_PLAYER], st.g[K.G_PEND_KIND], i, st.g[K.G_PEND_N], st.g[K.G_PEND_CTX])


@kernel
def chosen_nb(st, col):
    """Column ``col`` of the option chosen for the last decision."""
    return st.opts[st.g[K.G_CHOICE], col]
