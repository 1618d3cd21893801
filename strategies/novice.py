"""``novice``: a sensible beginner with no villain-specific plan."""

from strategies.heuristic import choose_nb as choose_nb
from strategies.plans import EXPERT

NAME = "novice"
DESCRIPTION = (
    "A sensible beginner: moves where it can gain Power or play, plays what it can afford, vanquishes when it "
    "can, Fates at random; no villain-specific plan."
)
PARAMS: dict[str, float] = dict(
    EXPERT, plan=0.0, fate_smart=0.0, fate_value=1.0, fate_target_progress=0.0, discard_below=-1.0, noise=0.5
)
