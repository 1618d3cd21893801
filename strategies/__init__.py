"""Scripted strategies, one per module, registered by name.

Every strategy module exports ``NAME``, ``DESCRIPTION``, ``PARAMS`` (name -> default) and a kernel
``choose_nb(st, tb, ru, realm, player, kind, ctx, n) -> int`` that picks an index into ``st.opts[:n]``:
``player`` decides, ``realm`` is the seat whose Realm the options concern, ``kind`` is a ``DK_*`` code and
``ctx`` the ability (``AB_*``) or trigger being resolved.
The integer id of a strategy is its position in :data:`STRATEGIES`; the engine's dispatcher
(``simlab/kernels/choose.py``) maps ids to kernels.
"""

from dataclasses import dataclass, field

from strategies import random as _random


@dataclass(frozen=True)
class StrategySpec:
    id: int
    name: str
    description: str
    params: dict[str, float] = field(default_factory=dict)


STRATEGIES: dict[str, StrategySpec] = {
    m.NAME: StrategySpec(i, m.NAME, m.DESCRIPTION, dict(m.PARAMS)) for i, m in enumerate((_random,))
}
