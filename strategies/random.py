"""``random``: uniform over the legal options of every decision."""

from simlab.kernels.compile import kernel
from simlab.kernels.rng import randint_nb

NAME = "random"
DESCRIPTION = "Chooses uniformly at random among the legal options of every decision."
PARAMS: dict[str, float] = {}


@kernel
def choose_nb(st, tb, ru, realm, player, kind, ctx, n):
    return randint_nb(st.rng, n)
