"""``expert``: plays its villain's plan and Fates knowing the target's plan."""

from strategies.heuristic import choose_nb as choose_nb
from strategies.plans import EXPERT, plans

NAME = "expert"
DESCRIPTION = f"Plays the villain's plan ({'; '.join(plans())}) and makes every Fate choice knowing the target's plan."
PARAMS: dict[str, float] = dict(EXPERT)
