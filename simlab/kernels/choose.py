"""Dispatch a decision to the strategy kernel of the deciding seat (by integer strategy id)."""

from simlab.kernels.jit import kernel
from strategies.random import choose_nb as random_choose_nb


@kernel
def choose_nb(strategy_id, st, tb, ru, realm, player, kind, ctx, n):
    """Index in ``st.opts[:n]`` chosen by strategy ``strategy_id`` for ``player``."""
    if strategy_id == 0:
        return random_choose_nb(st, tb, ru, realm, player, kind, ctx, n)
    return random_choose_nb(st, tb, ru, realm, player, kind, ctx, n)
