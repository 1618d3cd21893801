"""The rules: kernels that change a game state, and the routines that wait for players' decisions.

The engine never asks a strategy. :func:`advance_nb` plays on until a player must choose, leaves the
decision in the state (the legal options in ``st.opts``: ``O_*`` rows, a "pass/done" option first when
there is one; who decides and why in ``G_PEND_*``) and returns; whoever drives the game (the batch driver,
the scenario API, a search player) answers with :func:`apply_nb` and calls ``advance_nb`` again.
Names follow the game: ``s`` is the seat whose Realm is affected, ``chooser`` the seat deciding.

The modules, lowest first: the changes every rule makes (:mod:`.log`, :mod:`.piles`, :mod:`.realm`,
:mod:`.obstacles`, :mod:`.heroes`), what can be played or done (:mod:`.fate`, :mod:`.vanquish`, :mod:`.moving`,
:mod:`.cards`, :mod:`.turn`), the routine machine (:mod:`.frame`) and the villains' tables (:mod:`.abilities`), the
routines (:mod:`.routines`), and :mod:`.drive`, which runs them.
"""

from simlab.kernels.rules.abilities import (
    ABILITY_TABLE,
    ABILITY_TYPES,
    ADVANCE_REF_TYPES,
    ASKED_TABLE,
    CHECK_TABLE,
    CHECK_TYPES,
    N_ABILITY_CODES,
    N_ASKS,
    ROUTINE_TYPES,
    no_ability_r,
    no_check_nb,
)
from simlab.kernels.rules.drive import ROUTINES, advance_by_ref_nb, advance_nb, bind_routines, finished_nb, setup_nb
from simlab.kernels.rules.frame import apply_nb
from simlab.kernels.rules.piles import put_on_fate_deck_nb, take_from_deck_nb
from simlab.kernels.rules.realm import find_nb, put_in_realm_nb

__all__ = [
    "ABILITY_TABLE",
    "ABILITY_TYPES",
    "ADVANCE_REF_TYPES",
    "ASKED_TABLE",
    "CHECK_TABLE",
    "CHECK_TYPES",
    "N_ABILITY_CODES",
    "N_ASKS",
    "ROUTINES",
    "ROUTINE_TYPES",
    "advance_by_ref_nb",
    "advance_nb",
    "apply_nb",
    "bind_routines",
    "find_nb",
    "finished_nb",
    "no_ability_r",
    "no_check_nb",
    "put_in_realm_nb",
    "put_on_fate_deck_nb",
    "setup_nb",
    "take_from_deck_nb",
]
