"""The scripted heuristic every non-random strategy runs: score each legal option, take the best.

Scores are in Power-equivalents ("what is this option worth to the player deciding"); an option scoring
below zero is worse than passing. A strategy is this kernel plus a parameter vector (``strategies.plans.PARAM_NAMES``),
stored per seat in ``State.sparams``: ``novice``, ``expert`` and ``fate-heavy`` differ only in parameters,
so users can make variants from TOML files without touching code. Every weight the scoring uses is a
named parameter (``strategies.plans.PARAMS``: expert value, group, description, tuning range; this
module's own rows are :data:`CORE_PARAMS`).


Two switches select the skill level:

* ``plan`` (0 or 1): value cards by the villain's own plan (its plan's terms, ``strategies/plans/<folder>.py``,
  asked through :func:`ask_plan_nb`). With 0 every card is worth about its cost: the novice plays what it can
  afford.
* ``fate_smart`` (0 or 1): make every choice inside a Fate effect knowing the target villain's plan
  (which Hero hurts most, where it covers most, what never to give). With 0 those choices are random.

All values are read from the card tables by ability code, never by card name, so edited cards keep
working. This package holds the terms any villain's cards could have, named by what they do; what is one villain's
(its objective's progress, its cards' and its Fate cards' worth, its Heroes' harm) is that villain's plan's.

The package, in the order its modules import one another:

* :mod:`~strategies.heuristic.params`: the parameter registry (:class:`Param`, :func:`group`, :data:`CORE_PARAMS`)
  and the ``P_*`` index of each core weight, made from its rows;
* :mod:`~strategies.heuristic.questions`: what the core asks each villain's plan (the ``W_*`` codes) and the table it
  asks through;
* :mod:`~strategies.heuristic.position`: small readings of the position;
* :mod:`~strategies.heuristic.memo`: what one decision works out once (the ``M_*`` rows of ``State.memo``) and when
  a memo is kept for the next decision;
* :mod:`~strategies.heuristic.terms`: the scoring terms, in ``heroes`` (the harm Heroes do), ``cards`` (the
  villain's own cards), ``fate`` (the harm done to a Fate target) and ``mover`` (the Villain Mover's locations);
* :mod:`~strategies.heuristic.choose`: scoring one option and choosing, by decision kind;
* the largest kernels are parts (``@part``), compiled on their own and called through symbols as ``name.call``.

Every name of these modules is importable from ``strategies.heuristic`` itself, as when it was one module.
"""

from strategies.heuristic.choose import *  # noqa: F403
from strategies.heuristic.memo import *  # noqa: F403
from strategies.heuristic.params import *  # noqa: F403
from strategies.heuristic.position import *  # noqa: F403
from strategies.heuristic.questions import *  # noqa: F403
from strategies.heuristic.terms.cards import *  # noqa: F403
from strategies.heuristic.terms.fate import *  # noqa: F403
from strategies.heuristic.terms.heroes import *  # noqa: F403
from strategies.heuristic.terms.mover import *  # noqa: F403
