"""What one decision works out once: the rows of ``State.memo`` and the contract of keeping them.

Scoring one decision asks for some values again and again (a Hero's defeat worth, for every Ally that could help
beat it and every card that could remove it). They depend only on the position and on the deciding player's
parameters, neither of which changes while a decision is scored (only the random stream does, and none of them
reads it); ``choose_ref_nb`` clears them when it starts (except where the step after the decision before changes
one known thing its values did not read: :func:`close_memo_nb`) and reads none between decisions
(``G_SCORING``). Outside a decision these kernels work them out afresh every time. The memoised readings that
need no weights are here (Strength, Allies at a location, symbols available, progress); the terms memoise their
own values through :func:`memo_has_nb` and :func:`memo_put_nb`.
"""

from simlab.kernels import const as K
from simlab.kernels.compile import kernel
from simlab.kernels.query import (
    allies_strength_at_nb,
    available_symbols_nb,
    can_vanquish_nb,
    dearest_in_hand_nb,
    strength_nb,
)
from strategies.heuristic.questions import W_PROGRESS, ask_plan_nb

# Rows of State.memo (and columns of State.memo_ok), each by what it is indexed with:
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
