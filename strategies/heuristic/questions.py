"""What the core asks each villain's plan, and the table it asks through.

A villain's own terms of the scoring are its plan's (strategies/plans/<folder>.py: plan_nb, compiled on its own),
reached through a table of kernels indexed by the villain row of the seat they are about and filled from the
registry by strategies.plans.bind_plans(): adding a villain adds an entry, not code here. ``what`` (a ``W_*``
code) says what is asked, and what ``a``, ``b``, ``c`` and ``x`` are; the plan answers ``x`` when it has nothing
to say. A term added to a running value gets that value as ``x`` and gives it back with its terms added, in the
order they were always added. This module also holds the argument types every separately compiled kernel of the
heuristic is bound for (``_ST`` ... ``_F``).
"""

from numba import types

from simlab.kernels import compile
from simlab.kernels import const as K
from simlab.kernels.compile import helper, kernel
from simlab.kernels.state import ENGINE_REF_TYPES

# The questions: what seat s's plan is asked, what a, b and c are, and the x it gives back when it has nothing
# to say.
W_PROGRESS = 0  # how far seat s is towards its objective, 0 to 1 (x: 0.0)
W_POSITION = 1  # its Ally or Item a standing at location b: what that is worth (x: 0.0)
W_ACTIVATION = 2  # activating its card instance a (-1: its tile), cost included (x: NaN, the core values it)
W_ACTIVATION_IDLE = 3  # 1.0 if activating its card instance a would do nothing now (x: 0.0)
W_MOVE = 4  # moving its Ally or Item a to location b (x: NaN, the core values it)
W_EFFECT = 5  # resolving its Effect or Condition card row a with b Power left after paying (x: NaN)
W_CARD = 6  # playing its Ally or Item a to location b (-1: wherever fits best) / host c (x: NaN, the core's)
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
W_OWN_CARD = 17  # its own card instance a picked for ability b (x: NaN: a Hero by its defeat's worth, else 0)
W_HERO_ON_PLAY = 18  # its Fate Hero card row a played to location b: x, its harm so far, plus its on-play's
W_ALLIES_GATHERED = 19  # every Ally of its Realm moved to location a: the harm besides the Allies moved (x: 0.0)
W_FATE_CARD = 20  # its revealed Fate Item or Effect a played to location b / host c: its harm (x: NaN, the core's)
W_REVEALED = 21  # its revealed Fate card a, b / c as above, knowing the other cards revealed (x: NaN: as W_FATE_CARD)
W_HERO_HARM = 22  # its Hero card row a at location b (c: its instance, -1 if not in play): x, its harm so far, plus
W_DEFEAT_GAIN = 23  # what it gains from its Hero card row a's "when defeated" ability (x: 0.0)
W_DEFEAT_VALUE = 24  # defeating its Hero instance a: x, the worth so far, adjusted
W_ACTIVATE_WINS = 25  # activating its card instance a: 1.0 if it wins now, -1.0 if it is to win but cannot (x: 0.0)
W_HERO_ON_ENTER = 26  # its Fate Hero card row a played to location b: x, its harm so far, plus its on-enter's
W_ALLY_KEPT = 27  # 1.0 if its Ally instance a, used in a Vanquish, is not discarded (x: 0.0)
W_GRANTED_AT = 28  # the Villain Mover to location a, gaining b Power: x so far, plus what its cards there grant
W_NOT_PLAYED_BY_SYMBOL = 29  # 1.0 if its hand card a may not be played with a Play symbol now (x: 0.0)
W_REACHES_NEIGHBOURS = 30  # 1.0 if an Ally of its card row a may Vanquish at the locations next to its own (x: 0.0)
W_STRENGTH_ADDED = 31  # its Ally card row a joining the Allies at location b: x, its printed Strength, adjusted

PLAN_TABLE = "simlab_strategies_plans"
N_PLAN_ROWS = 16  # villain rows the table has room for
_ST, _TB, _RU = ENGINE_REF_TYPES
_SP = types.CPointer(types.float64)  # st.sparams[player]: as_ptr(st.sparams[player])
_I, _F = types.int64, types.float64
PLAN_TYPES = (_ST, _TB, _RU, _SP, _I, _I, _I, _I, _I, _F)  # (ref(st), ref(tb), ru, sp, what, s, a, b, c, x)
_plan = compile.table_caller(PLAN_TABLE, N_PLAN_ROWS, PLAN_TYPES, _F)
# Bit ``what`` of entry ``v``: villain row v's plan answers ``what`` (strategies.plans.bind_plans reads which from
# its plan_nb). The others are not asked: the plan would give x back, and a call through the table costs about as
# much as a small term (about 5,000 questions a game, a third of them to a plan with nothing to say).
PLAN_ANSWERS_TABLE = "simlab_strategies_plan_answers"
_plan_answers = compile.table_reader(PLAN_ANSWERS_TABLE, N_PLAN_ROWS)


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
