"""The tables through which the engine reaches the villains' ability routines and checks."""

from numba import types

from simlab.kernels import compile
from simlab.kernels import const as K
from simlab.kernels.compile import kernel
from simlab.kernels.query import (  # noqa: F401  (the check table's names, for the engine and the folders)
    ASK_COVERS,
    ASKED_TABLE,
    CHECK_TABLE,
    CHECK_TYPES,
    N_ASKS,
    NO_CHECK,
    realm_checks_nb,
)
from simlab.kernels.rules.frame import A0, A1, A2, A3, ret_nb
from simlab.kernels.state import ENGINE_REF_TYPES

# The ability codes printed by one villain's cards are resolved by that villain's routine
# (simlab/villains/<folder>/abilities.py: ability_r, compiled on its own), reached through a table of
# routines indexed by ability code and filled from the registry when the driver is imported
# (simlab.villains.bind_abilities): adding a villain adds entries, not code here, so this module's cache stays
# valid. A villain routine runs on the frame of the engine routine that reached it (resolve_effect_r,
# on_play_r, on_enter_r, activate_r), as the branches it holds did when they were written here.
ABILITY_TABLE = "simlab_ability_routines"
N_ABILITY_CODES = K.N_ABILITY_CODES
ROUTINE_TYPES = ENGINE_REF_TYPES + (types.int64,)  # (ref(st), ref(tb), ru, frame): every routine's arguments
ADVANCE_REF_TYPES = ENGINE_REF_TYPES + (types.int64,)  # (ref(st), ref(tb), ru, steps): advance_by_ref_nb
ABILITY_TYPES = ROUTINE_TYPES
_ability_r = compile.table_caller(ABILITY_TABLE, N_ABILITY_CODES, ABILITY_TYPES, types.int64)

# Whether an ability printed by one villain's cards can do what it says (before an Effect or Condition is offered,
# before an Activated Ability is) is that villain's too: ``check_nb`` in its abilities.py, compiled on its own and
# reached through a second table indexed by ability code, filled with the first. It answers 1 (it can), 0 (it
# cannot) or NO_CHECK (its text leaves nothing to check: an Effect can be played, an Activated Ability cannot).
# CHECK_TABLE, CHECK_TYPES: (ref(st), ref(tb), ru, slot, seat, card row, budget): the Power left after paying the
# card (defined with the queries, which ask it too: simlab.kernels.query)
CHECK_EFFECT = 0  # an Effect or Condition, of a Villain or a Fate deck
CHECK_ACTIVATE = 1  # an Activated Ability in the Realm, at an unlocked location, its cost affordable
CHECK_TAKES_OVER_FATE_ACTION = 2  # a Fate Effect picked in a Fate action: 1 if it resolves the Fate action itself
CHECK_OBJECTIVE = 3  # the seat's objective (card row: the point asked at, K.OBJECTIVE_*): 1 if it holds
# The same table resolves the abilities that need no decision (the card row: the instance), answering 1 once done:
RESOLVE_ON_DEFEAT = 4  # a Hero's "when defeated" ability, the Hero just defeated
RESOLVE_DEFEATED_BY_VANQUISH = 5  # a Hero's ongoing ability, the Hero defeated by a Vanquish: 1 if it moved it
RESOLVE_REALM_CHANGED = 6  # an ongoing ability watching where cards stand (VF_WATCHING): a card entered or moved
# The questions the engine asks of an ongoing ability's villain where the rules leave a card's text to decide; a
# folder names the ongoing abilities its check_nb answers each for (ASKED in its abilities.py), the others are not
# asked (ASKED_TABLE):
ASK_PLAYABLE = 7  # card row c, from hand by a Play a Card action (its own ability), to location budget (-1: before
# a location is picked, an Ally): 0 if it may not be played (there)
ASK_NO_EFFECTS = 8  # (an ability in the seat's Realm) 1 if the seat may play no Effect
ASK_VANQUISH_RETURNS_ALLIES = 9  # (an ability in the seat's Realm) a Vanquish at location c: 1 if the Allies used
# in it go back to their owner's hand instead of the discard pile
RESOLVE_USED_IN_VANQUISH = 10  # (its own ability) Ally card row c, instance budget, used in a Vanquish: 1 once its
# ability dealt with it (kept or moved it), else the engine discards it (or returns it to hand)
# and one asked of the seat's villain itself (the entry of its objective, which every villain's folder handles):
ASK_PLAYED_INTO_LOCKED = 11  # card row c, played when revealed by a Fate action, to location budget, which is
# locked: 1 if it goes there all the same (else it is discarded)
# ASK_COVERS = 12 (the Realm's): 1 if a card at location c covers its top row (asked by query.covered_nb)
_check = compile.table_caller(CHECK_TABLE, N_ABILITY_CODES, CHECK_TYPES, types.int64)
# Entry ``ask`` of ASKED_TABLE (a question above): bit p - FIRST_PASSIVE set if the folder handling ongoing ability p
# answers it (simlab.villains.bind_abilities fills it from each folder's ASKED). A clear bit is not asked: a call
# through the table costs more than the bit test that saves it.
_asked = compile.table_reader(ASKED_TABLE, N_ASKS)


# The frame of an engine routine resolving a card's ability (resolve_effect_r, on_play_r, on_enter_r, activate_r),
# which the villain routine it reaches runs on: the slots from CARD_LOCALS on are that routine's own.
CARD_SEAT = A0  # whose Realm
CARD_INSTANCE = A1  # the card instance (activate_r: -1 for the villain's tile)
CARD_CHOOSER = A2  # who makes its choices (activate_r: a local)
CARD_HERE = A3  # on_play_r, on_enter_r: the card's location as it resolves
CARD_LOCALS = A3  # resolve_effect_r's first local (on_play_r's and on_enter_r's are the slots after CARD_HERE)


@kernel
def card_frame_nb(st, tb, f, col):
    """What a routine resolving card instance CARD_INSTANCE of seat CARD_SEAT (choices by CARD_CHOOSER) reads
    first: (seat, instance, chooser, resume point, card row, the card's code in column ``col``, the card's
    number)."""
    s = st.fr[f, CARD_SEAT]
    k = st.fr[f, CARD_INSTANCE]
    c = st.inst[s, k, K.I_CARD]
    return s, k, st.fr[f, CARD_CHOOSER], st.fr[f, K.FR_PC], c, tb.card[c, col], tb.card[c, K.CF_N]


@kernel
def objective_holds_nb(st, tb, ru, s, point):
    """Seat ``s``'s objective holds at ``point`` (K.OBJECTIVE_*), if its villain's folder has it checked there."""
    v = st.sv[s, K.SV_VILLAIN]
    if (tb.vil[v, K.VF_OBJECTIVE_POINTS] >> point) & 1 == 0:
        return False
    return _check(tb.vil[v, K.VF_OBJECTIVE], st, tb, ru, CHECK_OBJECTIVE, s, point, 0) == 1


@kernel
def objective_met_nb(st, tb, ru, s):
    """Seat ``s``'s objective holds in this state (an objective won by an Activate: it could be activated now)."""
    return (
        _check(tb.vil[st.sv[s, K.SV_VILLAIN], K.VF_OBJECTIVE], st, tb, ru, CHECK_OBJECTIVE, s, K.OBJECTIVE_MET, 0) == 1
    )


@kernel
def no_ability_r(st, tb, ru, f):
    """The table's entry for a code no villain's routine handles (or the core resolves elsewhere): nothing."""
    return ret_nb(st, f)


@kernel
def no_check_nb(st, tb, ru, slot, s, c, budget):
    """The check table's entry for a code no villain checks: NO_CHECK."""
    return NO_CHECK


@kernel
def own_ability_says_nb(st, tb, ru, ask, s, c, arg):
    """Card row ``c``'s own ongoing ability's answer to question ``ask`` (``arg``: the question's other argument), or
    NO_CHECK if it has none or its villain does not answer that question."""
    p = tb.card[c, K.CF_PASSIVE]
    if p < K.FIRST_PASSIVE or (_asked(ask) >> (p - K.FIRST_PASSIVE)) & 1 == 0:
        return NO_CHECK
    return _check(p, st, tb, ru, ask, s, c, arg)


@kernel
def villain_says_nb(st, tb, ru, ask, s, c, arg):
    """Seat ``s``'s villain's answer to question ``ask`` (through the entry of its objective's code)."""
    return _check(tb.vil[st.sv[s, K.SV_VILLAIN], K.VF_OBJECTIVE], st, tb, ru, ask, s, c, arg)
