"""``fate-heavy``: the expert, but it Fates whenever it can."""

from strategies.heuristic import choose_nb as choose_nb
from strategies.plans import EXPERT

NAME = "fate-heavy"
DESCRIPTION = "The expert, but it moves to a Fate action and takes it whenever it can (Fate pressure)."
PARAMS: dict[str, float] = dict(EXPERT, fate_value=40.0)
