"""``apprentice``: a cheap learned policy that plays as the search player would, without searching.

Expert iteration's apprentice (Anthony, Tian and Barber 2017): trained on the search player's own decisions to
pick the option it picks. At a decision with more than one option, the apprentice looks one step ahead in one
world it cannot tell from the real one:

* **Determinisation**: what the deciding player cannot see is redrawn (the search player's ``determinise_nb``),
  from a number drawn from the game's stream, so a look ahead never reads a hidden card.
* **Each option's outcome**: the option is taken in a copy of that world and its effects resolved up to the next
  decision or the end of the step (``advance`` with no new step); the result is described by the deciding seat's
  position features (:mod:`strategies.learned.features`), and by whether the option is the one its villain's
  tuned heuristic would take (in the same world).
* **Score**: a linear score of those features, one weight vector per villain, fitted by
  :func:`simlab.studies.learn.fit_apprentice` as a conditional (multinomial) logit of the search player's choices;
  the best-scoring option is taken, the lower index on a tie.

Parameters reach the kernel as ``State.sparams[player]``, laid out as the search player's: from
:data:`strategies.search.HEADER`, one block of ``STRIDE`` floats per villain row, the heuristic vector each seat's
progress is measured with (and the tuned choice made with); from :data:`POLICY_AT`, one block of
:data:`POLICY_WIDTH` weights per villain row. The weights are shipped as JSON (``strategies/learned/
apprentice.json``) with their provenance.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np

from simlab.data import durable
from simlab.kernels import const as K
from simlab.kernels.compile import allocating_kernel, as_ptr, kernel, ref
from simlab.kernels.rng import next_u64_nb
from simlab.kernels.rules import advance_by_ref_nb, apply_nb
from simlab.kernels.state import N_SPARAMS, new_state_nb
from strategies import search
from strategies.learned import features as learned_features

NAME = "apprentice"
DESCRIPTION = (
    "A policy learned from the search player's decisions: looks one step ahead at each option in one world "
    "consistent with what it can see, and takes the option a linear model fitted to the search's choices scores best."
)
PARAMS: dict[str, float] = {}
PARAM_NAMES: tuple[str, ...] = ()

PICK = learned_features.N_FEATURES  # the option is the tuned heuristic's own choice (1 or 0)
N_OPTION_FEATURES = PICK + 1
OPTION_FEATURE_NAMES = (*learned_features.FEATURE_NAMES, "tuned_pick")
POLICY_WIDTH = N_OPTION_FEATURES
POLICY_AT = search.HEADER + search.N_VILLAIN_ROWS * search.STRIDE
if POLICY_AT + search.N_VILLAIN_ROWS * POLICY_WIDTH > N_SPARAMS:
    raise RuntimeError(f"the apprentice's weights need more of State.sparams than its {N_SPARAMS}")
MODEL_FILE = Path(__file__).with_name("learned") / "apprentice.json"
FORMAT = 1


# ============================================================================ the model as data


def write(weights: dict[str, np.ndarray], path: Path, provenance: dict) -> None:
    """Write per-villain weights (villain key -> float64 (POLICY_WIDTH,)) and their provenance as JSON."""
    doc = {
        "format": FORMAT,
        "features": list(OPTION_FEATURE_NAMES),
        "weights": {v: [float(x) for x in w] for v, w in sorted(weights.items())},
        "provenance": provenance,
    }
    durable.write_text(path, json.dumps(doc, indent=1) + "\n", "the apprentice policy")


@functools.cache
def read(path: str) -> dict[str, np.ndarray]:
    """The weights in the file at ``path``: villain key -> float64 (POLICY_WIDTH,); a ValueError naming what is
    wrong with a file that is not one."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: not an apprentice model ({exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("features") != list(OPTION_FEATURE_NAMES):
        raise ValueError(f"{path}: an apprentice model for other features (refit it with simlab learn)")
    out = {}
    for villain, w in doc["weights"].items():
        w = np.asarray(w, np.float64)
        if w.shape != (POLICY_WIDTH,) or not np.all(np.isfinite(w)):
            raise ValueError(f"{path}: {villain}'s weights must be {POLICY_WIDTH} finite numbers")
        out[villain] = w
    return out


def vector(resolve, model_file: str = "") -> np.ndarray:
    """The ``State.sparams`` row of an apprentice: each villain's tuned heuristic vector (``resolve``: the
    strategy registry's resolver), then each villain's weights from ``model_file`` (default: the shipped model)."""
    from simlab.data.cards import VILLAIN_KEYS, load_cards

    path = model_file or str(MODEL_FILE)
    if not Path(path).is_file():
        raise ValueError(f"the apprentice needs its model {path}, which does not exist; make it with simlab learn")
    weights = read(path)
    out = np.zeros(N_SPARAMS, np.float64)
    cards = load_cards()
    for v in VILLAIN_KEYS:
        row = cards.villain(v).row
        heuristic = resolve(search.rollout_strategy(2, v, resolve)).vector()
        out[search.HEADER + row * search.STRIDE : search.HEADER + (row + 1) * search.STRIDE] = heuristic[
            : search.STRIDE
        ]
        if v in weights:
            out[POLICY_AT + row * POLICY_WIDTH : POLICY_AT + (row + 1) * POLICY_WIDTH] = weights[v]
    return out


# ============================================================================ kernels


@kernel
def option_features_nb(st, tb, ru, player, n, world, ws, local, scratch, out):
    """Each of the ``n`` options' features into ``out[i, :N_OPTION_FEATURES]``, as seat ``player`` sees them one
    step ahead in one world redrawn from the stream ``local`` (uint64[1]; see the module's docstring). ``world``,
    ``ws``: states of ``st``'s seat count whose ``sparams`` rows are the heuristic vectors progress is measured
    with (:func:`look_ahead_states_nb`); ``scratch``: int64 (N_INST,)."""
    search.copy_state_nb(world, st)
    search.determinise_nb(world, player, local, scratch)
    world.rng[0] = next_u64_nb(local)
    search.copy_state_nb(ws, world)
    pick = search.policy_nb(ref(ws), ref(tb), as_ptr(ru), 1)
    for i in range(n):
        search.copy_state_nb(ws, world)
        apply_nb.call(ref(ws), i)
        advance_by_ref_nb.call(ref(ws), ref(tb), as_ptr(ru), 0)
        learned_features.features_nb(ws, tb, ru, player, out[i])
        out[i, PICK] = 1.0 if i == pick else 0.0


@kernel
def best_option_nb(x, n, sp, at):
    """The option whose features ``x[i]`` score best by the weights ``sp[at:at + POLICY_WIDTH]`` (lower index on a
    tie)."""
    best = 0
    top = -1e300
    for i in range(n):
        z = 0.0
        for f in range(POLICY_WIDTH):
            z += sp[at + f] * x[i, f]
        if z > top:
            top = z
            best = i
    return best


@allocating_kernel
def look_ahead_states_nb(st, player):
    """Two states of ``st``'s seat count for looking ahead, every seat's ``sparams`` row its villain's heuristic
    vector from seat ``player``'s parameters."""
    P = st.g[K.G_NSEATS]
    world = new_state_nb(P, 0)
    ws = new_state_nb(P, 0)
    for s in range(P):
        base = search.HEADER + st.sv[s, K.SV_VILLAIN] * search.STRIDE
        for j in range(search.STRIDE):
            world.sparams[s, j] = st.sparams[player, base + j]
            ws.sparams[s, j] = st.sparams[player, base + j]
    return world, ws


@allocating_kernel
def choose_nb(st, tb, ru, realm, player, kind, ctx, n):
    """The apprentice's choice among ``st.opts[:n]`` (strategy kernel 3; same signature as every strategy)."""
    if n <= 1:
        return 0
    world, ws = look_ahead_states_nb(st, player)
    x = np.empty((n, N_OPTION_FEATURES), np.float64)
    scratch = np.empty(K.N_INST, np.int64)
    local = np.empty(1, np.uint64)
    local[0] = next_u64_nb(st.rng)
    option_features_nb(st, tb, ru, player, n, world, ws, local, scratch, x)
    return best_option_nb(x, n, st.sparams[player], POLICY_AT + st.sv[player, K.SV_VILLAIN] * POLICY_WIDTH)
