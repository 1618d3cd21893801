"""The parts of the heuristic compiled on their own.

The largest scoring kernels are compiled once each and called through a process-wide symbol (simlab.kernels.link),
like the engine's routines: linked in, each would be optimised and generated again inside every kernel above it in
the call chain (choose_nb -> score_nb -> own_card_score_nb -> fate_card_harm_nb -> basic_fate_harm_nb ->
keep_value_nb -> card_value_nb -> effect_value_nb -> ...). They are also parts a cold start compiles in parallel.
_NAME is the symbol call of NAME; bind_parts() must run before a kernel calling one is loaded from the cache (the
driver does it when imported).

Each part's argument types are kept beside it, in the module that holds it (``HERO_PARTS``, ``CARD_PARTS``,
``FATE_PARTS``, ``MOVER_PARTS``, ``CHOOSE_PARTS``); this module lists them all, callees first, for :func:`bind_parts`.
"""

from simlab.kernels import link
from strategies.heuristic.choose import CHOOSE_PARTS
from strategies.heuristic.terms.cards import CARD_PARTS
from strategies.heuristic.terms.fate import FATE_PARTS
from strategies.heuristic.terms.heroes import HERO_PARTS
from strategies.heuristic.terms.mover import MOVER_PARTS

PART_TYPES = {**HERO_PARTS, **CARD_PARTS, **FATE_PARTS, **MOVER_PARTS, **CHOOSE_PARTS}  # callees first


def bind_parts() -> None:
    """Compile (or load from the cache) every part and register its symbol, callees first (the table of plans is
    filled by :func:`strategies.plans.bind_plans`)."""
    for part, argtypes in PART_TYPES.items():
        link.bind(part, argtypes)
