"""Gaston's queries: the answers of his ongoing abilities to the questions the queries ask
(:mod:`simlab.kernels.query`, ``Q_*``; reached through its table, filled by :func:`simlab.villains.bind_abilities`).
They read the state only (tests/test_layout.py)."""

from simlab.kernels import const as K
from simlab.kernels.jit import kernel
from simlab.kernels.query import NO_ANSWER, Q_OBSTACLE_REMOVAL_BLOCKED, passive_count_nb

# the questions answer_nb answers, and for which of his ongoing abilities
ANSWERS = {Q_OBSTACLE_REMOVAL_BLOCKED: (K.AB_BLOCKS_OBSTACLE_REMOVAL,)}


@kernel
def answer_nb(st, tb, q, p, s, a, b):
    """Ongoing ability ``p``'s answer to question ``q`` for seat ``s`` (``a``, ``b``: its arguments)."""
    if q == Q_OBSTACLE_REMOVAL_BLOCKED:  # an untrapped Hero of his blocks every removal
        return 1 if passive_count_nb(st, tb, s, p) > 0 else 0
    return NO_ANSWER
