"""``expert``: plays its villain's plan and Fates knowing the target's plan."""

from strategies.heuristic import EXPERT
from strategies.heuristic import choose_nb as choose_nb

NAME = "expert"
DESCRIPTION = (
    "Plays the villain's plan (Gaston clears Belle and values removal per Power; Lady Tremaine builds the wedding "
    "step by step; the Horned King spreads Ancient Soldiers, claims and powers the Cauldron, swaps every turn) "
    "and makes every Fate choice knowing the target's plan."
)
PARAMS: dict[str, float] = dict(EXPERT)
