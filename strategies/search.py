"""``search``: decides by simulation instead of by hand-set weights (Monte Carlo over determinised worlds).

At each decision with more than one option the player samples up to ``samples`` worlds it cannot tell from
the real one, plays the options out in them and takes the option with the best mean result:

* **Determinisation** (:func:`determinise_nb`): what the deciding player cannot see is redrawn from the
  search's own stream; what it can see stays where it is. Each opponent's unseen Villain cards (hand and
  deck together) are shuffled and dealt back, as many to the hand as it holds; every deck's order is
  redrawn, the player's own included (its hand stays); the world's random stream (the future shuffles and
  every strategy's noise) is reseeded. The Realms, discard piles, revealed cards in limbo, Power, the
  pending decision and the routines under way are left alone. The redraw starts from the cards in a fixed
  order, so two positions that differ only in hidden cards give identical worlds.
* **Rollout**: every seat of the world plays the rollout policy (``rollout``: 2 = each villain's ``tuned``
  strategy where its file exists, else ``expert``; 1 = ``expert``; 0 = ``random``) to the end of the
  current turn and ``horizon`` more turns (-1: to the end of the game).
* **Score**: 1 for a win, 0 for a loss, 1/2 for a game stopped by the turn cap; a game still running at
  the horizon scores the value model's chance of a win (``value`` 1: :func:`model_value_nb`, weights fitted
  from simlab's own games by :mod:`simlab.studies.value`, shipped as ``strategies/search_value.toml``), or
  (``value`` 0) 1/2 + lead / 2, the lead being the player's progress minus that of the opponent
  furthest along (progress: the rollout policy's measure of how close a villain is to its objective,
  0 to 1, ``strategies.heuristic.progress_nb``) plus ``power_weight`` per Power more than that opponent.
* **Common random numbers**: every option is played out in the same worlds from the same stream, so the
  options are compared on the same deals; ties (and options no better in any world) go to the rollout
  policy's own choice.
* **Where the budget goes**: only the decision kinds in ``kinds`` (a sum of ``2**DK_*``) are searched; the
  others get the rollout policy's answer in one sampled world. With ``screen`` k > 0, an option that scored
  better than the policy's in none of the first k worlds is not played out in the rest (it would not pass
  the ``confidence`` test); when none is left the decision stops there, so the ``samples`` worlds are spent
  on the options that might beat the policy. With ``halving`` R > 0, successive halving: R rounds, the
  worlds doubling each round up to ``samples`` (32 in 3 rounds: 8, 16, 32), and after each round but the last
  the worse half of the options still played out (by their mean gain over the policy's choice) is dropped;
  the choice is among the survivors and the policy's own.

The search draws one number from the game's stream per decision (its own stream is seeded from it), so a
game with search players replays exactly and does not depend on threads, chunks or backend.

Parameters reach the kernel as ``State.sparams[player]``: the settings below first, then from
:data:`HEADER` one block of :data:`STRIDE` floats per villain row of the card tables, the rollout policy's
parameter vector for that villain (filled by :func:`vector` when the strategy is resolved). In a world,
every seat's ``sparams`` row is its villain's block, so the heuristic reads it as usual.

The workspace (three states and two scratch arrays) is allocated once per decision; nothing is allocated
per world or per rollout. The engine and the heuristic are called through their bound symbols
(``name.call``, :mod:`simlab.kernels.compile.link`), not linked in, so this kernel compiles in seconds.
"""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path

import numpy as np

from simlab.kernels import const as K
from simlab.kernels.bits import FATE_BITS, VILLAIN_BITS, count_nb
from simlab.kernels.compile import allocating_kernel, as_ptr, entry_kernel, kernel, ref
from simlab.kernels.rng import next_u64_nb, randint_nb
from simlab.kernels.rules import advance_by_ref_nb, apply_nb
from simlab.kernels.state import N_SPARAMS, new_state_nb, set_zone_nb
from simlab.villains import KEYS as VILLAIN_KEYS
from strategies.heuristic import choose_by_ref_nb as heuristic_choose_by_ref_nb
from strategies.heuristic import progress_nb
from strategies.learned import features as learned_features
from strategies.learned import value as learned_value

NAME = "search"
DESCRIPTION = (
    "Decides by simulation: at each decision it samples worlds consistent with what it can see (opponents' hands "
    "and every deck's order redrawn), plays the options out with the rollout policy (tuned where it exists, "
    "else expert) for the rest of the turn and 4 more, scores them by a value model fitted from simlab's games, "
    "drops the worse half of the options as the worlds double (successive halving), and takes the best."
)
BUDGET_VILLAINS = tuple(VILLAIN_KEYS)  # each villain may have a budget of its own (settings below)


def budget_keys(villain: str) -> tuple[str, str]:
    """The names of ``villain``'s own worlds and horizon settings (``samples_lady_tremaine``, ...)."""
    key = villain.replace("-", "_")
    return f"samples_{key}", f"horizon_{key}"


# The search player's settings: (name, default, low, high, whole number, description). A strategy file based
# on ``search`` sets any of them; ``simlab strategies search`` lists them.
SETTINGS = (
    ("samples", 32.0, 1, 256, True, "worlds sampled per decision (at most: see screen)"),
    ("horizon", 4.0, -1, 20, True, "turns played out after the current one (-1: to the end of the game)"),
    ("rollout", 2.0, 0, 2, True, "who plays the rollouts: 2 tuned where it exists, else expert; 1 expert; 0 random"),
    ("confidence", 1.5, 0, 4, False, "leave the rollout policy's choice only for an option better by this many SE"),
    ("power_weight", 0.0, 0, 0.2, False, "score at the horizon per Power over the opponent furthest along"),
    ("cheat", 0.0, 0, 1, True, "1: sample the true hidden cards (the control of the information test; not for play)"),
    (
        "kinds",
        4095.0,
        0,
        4095,
        True,
        "decision kinds searched, the sum of 2**kind (kinds: simlab.kernels.const DK_*; 4095 every kind); "
        "the others are answered by the rollout policy in one sampled world",
    ),
    (
        "screen",
        2.0,
        0,
        256,
        True,
        "worlds after which an option that has scored better than the rollout policy's in none of them is no "
        "longer played out (0: every option in every world)",
    ),
    (
        "halving",
        3.0,
        0,
        6,
        True,
        "rounds of successive halving: the worlds double and the worse half of the options is dropped each round, "
        "the survivors reaching samples (0: every option up to samples worlds, screened)",
    ),
    (
        "value",
        1.0,
        0,
        2,
        True,
        "score at the horizon: 2 a learned value model (value_model), 1 the 6-weight value model, 0 the progress lead",
    ),
    # a villain's own budget, where its seat needs another (simlab learn's climbs): unset, the common one
    *(
        (budget_keys(v)[0], 0.0, 0, 256, True, f"worlds sampled per decision in {v}'s seat (0: samples)")
        for v in BUDGET_VILLAINS
    ),
    *(
        (budget_keys(v)[1], -2.0, -2, 20, True, f"turns played out in {v}'s seat (-2: horizon)")
        for v in BUDGET_VILLAINS
    ),
)
PARAMS: dict[str, float] = {name: default for name, default, *_ in SETTINGS}
PARAM_NAMES = tuple(PARAMS)
CHOICES = {"rollout": (0, 1, 2), "cheat": (0, 1), "value": (0, 1, 2)}  # settings taking only these values
S_SAMPLES, S_HORIZON, S_ROLLOUT, S_CONFIDENCE, S_POWER_WEIGHT, S_CHEAT = range(6)
S_KINDS, S_SCREEN, S_HALVING, S_VALUE = range(6, 10)
ALL_KINDS = 4095  # 2**12 - 1: every decision kind (DK_MOVE 0 .. DK_PLACE 11)

HEADER = 48  # sparams[player, :HEADER]: the settings above, each villain row's budget, then the value model
# sparams[player, BUDGET_AT + 2 * row:][:2]: the worlds and the horizon of the seat of villain row ``row`` (its own
# setting where given, else the common one): the kernel reads its budget here. Fixed, not after the settings, whose
# number grows with the villains (a compiled kernel keeps the constants it was compiled with)
BUDGET_AT = 24
if len(SETTINGS) > BUDGET_AT:
    raise RuntimeError(f"{len(SETTINGS)} search settings; the header holds {BUDGET_AT} before the budgets")
if BUDGET_AT + 2 * 3 > HEADER - 3 * 6:
    raise RuntimeError("the search header holds no room for three villain rows' budgets before the value model")
# The value model (strategies/search_value.toml, fitted by simlab.studies.value): per villain row, one weight per
# feature of a seat (F_*) and a constant; a seat's score is their sum, P(seat wins) the softmax over the seats.
F_PROGRESS, F_POWER, F_HEROES, F_ALLIES, F_PROGRESS4 = range(5)
N_FEATURES = 5
VALUE_WIDTH = N_FEATURES + 1
VALUE_AT = HEADER - 3 * VALUE_WIDTH  # sparams[player, VALUE_AT + row * VALUE_WIDTH:]: villain row's weights
# the value's scratch: one seat's features, then every seat's score; or the learned model's features and hidden units
N_SCRATCH = max(N_FEATURES + 3, learned_features.N_ALL_FEATURES + learned_value.HIDDEN)
N_VILLAIN_ROWS = 3
STRIDE = 256  # sparams[player, HEADER + row * STRIDE:]: rollout parameters (every heuristic weight)
MODEL_AT = HEADER + N_VILLAIN_ROWS * STRIDE  # sparams[player, MODEL_AT:]: the learned value model (value 2)
if MODEL_AT + learned_value.MODEL_WIDTH > N_SPARAMS:
    raise RuntimeError(f"the learned value model needs {learned_value.MODEL_WIDTH} of State.sparams' {N_SPARAMS}")
ALL_STEPS = 1 << 62


def check_params(params: dict[str, float]) -> str | None:
    """What is wrong with a parameter set (one line), or None."""
    for name, values in CHOICES.items():
        if params[name] not in values:
            return f"params.{name} must be one of {', '.join(map(str, values))}, got {params[name]:g}"
    if params["samples"] < 1 or params["samples"] != int(params["samples"]):
        return f"params.samples must be a whole number of worlds, 1 or more, got {params['samples']:g}"
    if params["horizon"] < -1 or params["horizon"] != int(params["horizon"]):
        return f"params.horizon must be a whole number of turns, or -1 (to the end), got {params['horizon']:g}"
    for v in BUDGET_VILLAINS:
        own_samples, own_horizon = budget_keys(v)
        worlds, turns = params[own_samples], params[own_horizon]
        if worlds < 0 or worlds != int(worlds):
            why = "a whole number of worlds, 0 (the samples setting) or more"
            return f"params.{own_samples} must be {why}, got {worlds:g}"
        if turns < -2 or turns != int(turns):
            why = "a whole number of turns, -1 (to the end) or -2 (the horizon setting)"
            return f"params.{own_horizon} must be {why}, got {turns:g}"
    if not 0 <= params["kinds"] <= ALL_KINDS or params["kinds"] != int(params["kinds"]):
        return f"params.kinds must be a whole number from 0 to {ALL_KINDS} (a sum of 2**kind), got {params['kinds']:g}"
    if params["screen"] < 0 or params["screen"] != int(params["screen"]):
        return f"params.screen must be a whole number of worlds, 0 or more, got {params['screen']:g}"
    return None


def rollout_strategy(rollout: float, villain: str, resolve) -> str:
    """The strategy the rollouts play ``villain`` with: ``tuned-<villain>`` where ``resolve`` (the registry's,
    passed in: this module is part of it) finds it (rollout 2)."""
    if rollout == 0:
        return "random"
    if rollout == 2:
        try:
            resolve(f"tuned-{villain}")
            return f"tuned-{villain}"
        except ValueError:  # strategies.StrategyError: no tuned file for this villain
            pass
    return "expert"


VALUE_FILE = Path(__file__).with_name("search_value.toml")
FEATURE_NAMES = ("progress", "power", "heroes", "allies", "progress4")


@functools.cache
def value_model(path: str | None = None) -> dict[str, np.ndarray]:
    """The shipped value model (``strategies/search_value.toml``, or the file at ``path``): villain -> its
    weights in the order of :data:`FEATURE_NAMES`, then its constant. Without the file every seat scores 0 (each
    seat's chance 1 / seats)."""
    file = Path(path) if path else VALUE_FILE
    if not file.is_file():
        return {}
    doc = tomllib.loads(file.read_text(encoding="utf-8"))
    return {v: np.array([w[f] for f in FEATURE_NAMES] + [w["constant"]]) for v, w in doc["villains"].items()}


def vector(params: dict[str, float], resolve, rollouts: dict | None = None, model_file: str = "") -> np.ndarray:
    """The ``State.sparams`` row of a search player: its settings, then each villain's rollout parameters
    (``resolve``: the strategy registry's resolver; ``rollouts``: villain -> the heuristic strategy its rollouts
    play instead of the ``rollout`` setting's, e.g. an opponent's model), then the learned value model in the file
    ``model_file`` (read with ``value`` 2)."""
    from simlab.data.cards import load_cards

    out = np.zeros(N_SPARAMS, np.float64)
    for i, name in enumerate(PARAM_NAMES):
        out[i] = params[name]
    cards = load_cards()
    if len(cards.villains) > N_VILLAIN_ROWS:
        raise RuntimeError(f"{len(cards.villains)} villains; the search parameters hold {N_VILLAIN_ROWS}")
    model = value_model()
    for v in VILLAIN_KEYS:
        row = cards.villain(v).row
        worlds, turns = budget_of(params, v)
        out[BUDGET_AT + 2 * row], out[BUDGET_AT + 2 * row + 1] = worlds, turns
        if v in model:
            out[VALUE_AT + row * VALUE_WIDTH : VALUE_AT + (row + 1) * VALUE_WIDTH] = model[v]
        spec = (rollouts or {}).get(v) or resolve(rollout_strategy(params["rollout"], v, resolve))
        rollout = spec.vector()
        if np.any(rollout[STRIDE:]):
            raise RuntimeError(f"strategy {spec.name} has more parameters than the search holds ({STRIDE})")
        out[HEADER + row * STRIDE : HEADER + (row + 1) * STRIDE] = rollout[:STRIDE]
    if params["value"] == 2:
        weights = learned_model(model_file).weights
        out[MODEL_AT : MODEL_AT + len(weights)] = weights
    return out


def budget_of(params: dict[str, float], villain: str) -> tuple[float, float]:
    """The worlds and the horizon of ``villain``'s seat: its own settings where given, else the common ones."""
    own_samples, own_horizon = budget_keys(villain)
    worlds, turns = params.get(own_samples, 0.0), params.get(own_horizon, -2.0)
    return (worlds if worlds >= 1 else params["samples"]), (turns if turns >= -1 else params["horizon"])


@functools.cache
def learned_model(path: str):
    """The learned value model in the file at ``path`` (read once a process)."""
    if not path:
        raise ValueError("the search's value 2 needs a learned value model's file (value_model)")
    return learned_value.read(Path(path))


# ============================================================================ kernels


@kernel
def copy_state_nb(dst, src):
    """``dst`` becomes ``src`` (both of the same seat count) except ``log``, ``sparams`` and the scoring memo (``memo``,
    ``memo_ok``: cleared whenever a decision is scored): the same game."""
    P = src.g[K.G_NSEATS]
    for s in range(P):
        for k in range(K.N_INST):
            for j in range(K.N_I):
                dst.inst[s, k, j] = src.inst[s, k, j]
        for k in range(K.N_VCARDS):
            dst.vdeck[s, k] = src.vdeck[s, k]
        for k in range(K.N_FCARDS):
            dst.fdeck[s, k] = src.fdeck[s, k]
        for j in range(K.N_SV):
            dst.sv[s, j] = src.sv[s, j]
    for j in range(K.N_G):
        dst.g[j] = src.g[j]
    dst.g[K.G_MEMO_KEPT] = 0  # dst's memo is not src's
    dst.rng[0] = src.rng[0]
    for i in range(src.g[K.G_NOPT]):
        for j in range(4):
            dst.opts[i, j] = src.opts[i, j]
    for d in range(src.g[K.G_SP]):
        for j in range(K.N_FR):
            dst.fr[d, j] = src.fr[d, j]
    for k in range(K.N_INST):
        dst.tmp[k] = src.tmp[k]
        dst.mark[k] = src.mark[k]


@kernel
def redeal_nb(st, s, observer, fate, rng, scratch):
    """Redraw seat ``s``'s Fate deck order (``fate``), or its Villain deck order and, if ``s`` is not the
    observer, which of its unseen Villain cards are in hand. The cards are taken in instance order and
    shuffled, so the result depends on ``rng`` alone. ``scratch``: int64 (N_INST,)."""
    n = st.sv[s, K.SV_FDECK_N] if fate else st.sv[s, K.SV_VDECK_N]
    m = 0
    for k in range(K.N_INST):
        z = st.inst[s, k, K.I_ZONE]
        listed = z == K.Z_HAND and s != observer and not fate
        if z == (K.Z_FDECK if fate else K.Z_VDECK):
            # a card of the deck's zone may be out of the deck (taken to be arranged, say): it stays out
            for i in range(n):
                if (st.fdeck[s, i] if fate else st.vdeck[s, i]) == k:
                    listed = True
        if listed:
            scratch[m] = k
            m += 1
    for i in range(m - 1, 0, -1):
        j = randint_nb(rng, i + 1)
        t = scratch[i]
        scratch[i] = scratch[j]
        scratch[j] = t
    h = m - n  # cards dealt to the hand
    for i in range(h):
        set_zone_nb(st, s, scratch[i], K.Z_HAND)
    for i in range(n):
        k = scratch[h + i]
        if fate:
            st.fdeck[s, i] = k
        else:
            st.vdeck[s, i] = k
            set_zone_nb(st, s, k, K.Z_VDECK)


@kernel
def determinise_nb(st, observer, rng, scratch):
    """Redraw in place what seat ``observer`` cannot see, from ``rng`` (uint64[1]); ``scratch``: int64 (N_INST,).

    Every Fate deck and Villain deck is reordered; each opponent's hand and Villain deck are dealt again
    from their cards together (as many to the hand as it holds). Everything else stays: Realms, discard
    piles, cards in limbo, the observer's hand, counts, the decision waiting and the routines under way.
    """
    for s in range(st.g[K.G_NSEATS]):
        redeal_nb(st, s, observer, True, rng, scratch)
        redeal_nb(st, s, observer, False, rng, scratch)
    st.g[K.G_MEMO_KEPT] = 0  # a memo kept was worked out with the cards as they were


@kernel
def policy_nb(rws, rtb, ru, policy):
    """The rollout policy's answer to the decision waiting in the world ``rws`` refers to (1 heuristic, 0 random);
    ``rws``, ``rtb``: references to the world and the tables (simlab/kernels/compile/ref.py)."""
    n = rws.g[K.G_PEND_N]
    if policy == 0:
        return randint_nb(rws.rng, n)
    return heuristic_choose_by_ref_nb.call(
        rws, rtb, ru, rws.g[K.G_PEND_REALM], rws.g[K.G_PEND_PLAYER], rws.g[K.G_PEND_KIND], rws.g[K.G_PEND_CTX], n
    )


@kernel
def rollout_nb(ws, tb, ru, horizon, policy):
    """Play ``ws`` on, every seat answered by ``policy``, to the end of the current turn and ``horizon`` more
    turns (to the end of the game if ``horizon`` < 0)."""
    ends = 0
    steps = 1 if horizon >= 0 else ALL_STEPS
    rws = ref(ws)
    rtb = ref(tb)
    rru = as_ptr(ru)
    while True:
        if advance_by_ref_nb.call(rws, rtb, rru, steps):
            apply_nb.call(rws, policy_nb(rws, rtb, rru, policy))
        elif ws.g[K.G_PHASE] == K.PH_OVER:
            return
        elif ws.g[K.G_PHASE] == K.PH_START:
            ends += 1
            if ends > horizon:
                return


@kernel
def features_nb(ws, tb, ru, s, out):
    """Seat ``s``'s value features (``F_*``) into ``out`` (float64, N_FEATURES): its objective's progress as its
    rollout policy measures it (0 to 1), its Power / 10, the Heroes and the Villain cards in its Realm / 4, and the
    progress to the 4th power (a villain one step from its objective wins more often than a line says). Whose turn is
    next is left out: every option's rollouts stop before the same seat's turn."""
    p = progress_nb(ref(ws), ref(tb), as_ptr(ru), as_ptr(ws.sparams[s]), s)
    out[F_PROGRESS] = p
    out[F_PROGRESS4] = p * p * p * p
    out[F_POWER] = ws.sv[s, K.SV_POWER] / 10.0
    realm = ws.sv[s, K.SV_ZONE + K.Z_REALM]
    out[F_HEROES] = count_nb(realm & FATE_BITS) / 4.0
    out[F_ALLIES] = count_nb(realm & VILLAIN_BITS) / 4.0


@kernel
def model_value_nb(ws, tb, ru, player, sp, x):
    """The value model's probability that ``player`` wins ``ws`` (a position at the start of a turn): the softmax
    over the seats of each seat's score, its villain row's weights (``sp[VALUE_AT:]``) times its features.
    ``x``: float64 (N_SCRATCH,) scratch: a seat's features, then each seat's score."""
    P = ws.g[K.G_NSEATS]
    top = -1e300
    for s in range(P):
        features_nb(ws, tb, ru, s, x)
        w = VALUE_AT + ws.sv[s, K.SV_VILLAIN] * VALUE_WIDTH
        z = sp[w + N_FEATURES]
        for f in range(N_FEATURES):
            z += sp[w + f] * x[f]
        x[N_FEATURES + s] = z
        top = max(top, z)
    total = 0.0
    for s in range(P):
        total += np.exp(x[N_FEATURES + s] - top)
    return np.exp(x[N_FEATURES + player] - top) / total


@kernel
def learned_value_nb(ws, tb, ru, player, sp, x):
    """The learned value model's probability that ``player`` wins ``ws`` (``sp[MODEL_AT:]``, value 2): each seat's
    chance by the model, from its features as that seat sees them (progress measured with its rollout parameters),
    shared out so that the seats' chances add up to 1. ``x``: scratch for the features and the hidden units."""
    n = np.int64(sp[MODEL_AT]) - learned_value.N_PRODUCTS  # the features it reads: the base ones or all
    total = 0.0
    mine = 0.0
    for s in range(ws.g[K.G_NSEATS]):
        if n > learned_features.N_FEATURES:
            learned_features.all_features_nb(ws, tb, ru, s, x[:n])
        else:
            learned_features.features_nb(ws, tb, ru, s, x[:n])
        v = learned_value.value_nb(x[:n], sp[MODEL_AT:], x[n:])
        total += v
        if s == player:
            mine = v
    return mine / total


@kernel
def value_nb(ws, tb, ru, player, sp, x):
    """How good ``ws`` is for ``player``, 0 to 1: a finished game's result, else (``sp``: the search player's
    settings) the learned value model's probability of a win (``value`` 2), the 6-weight model's (``value`` 1), or
    its progress over the best opponent's (the rollout policy's measure) plus ``power_weight`` per Power over that
    opponent's. ``x``: float64 scratch
    (N_SCRATCH,)."""
    if ws.g[K.G_PHASE] == K.PH_OVER:
        w = ws.g[K.G_WINNER]
        return 1.0 if w == player else (0.5 if w < 0 else 0.0)
    if sp[S_VALUE] == 1:
        return model_value_nb(ws, tb, ru, player, sp, x)
    if sp[S_VALUE] == 2:
        return learned_value_nb(ws, tb, ru, player, sp, x)
    power_weight = sp[S_POWER_WEIGHT]
    best = -1.0
    rival = 0
    for d in range(1, ws.g[K.G_NSEATS]):
        q = (player + d) % ws.g[K.G_NSEATS]
        p = progress_nb(ref(ws), ref(tb), as_ptr(ru), as_ptr(ws.sparams[q]), q)
        if p > best:
            best = p
            rival = q
    lead = progress_nb(ref(ws), ref(tb), as_ptr(ru), as_ptr(ws.sparams[player]), player) - best
    lead += power_weight * (ws.sv[player, K.SV_POWER] - ws.sv[rival, K.SV_POWER])
    return 0.5 + 0.5 * min(max(lead, -0.999), 0.999)


@kernel
def round_end_nb(samples, rounds, r):
    """The number of worlds round ``r`` of ``rounds`` of successive halving ends at: the worlds double each round,
    the last ending at ``samples`` (at least one world a round)."""
    return max(samples >> (rounds - 1 - r), 1)


@kernel
def halve_nb(stats, n, pick):
    """Drop the worse half of the options still played out (``stats[4] == 1``; the rollout policy's ``pick`` is
    the reference, never among them): ranked by their mean gain over ``pick`` (``stats[0] / stats[2]``), the
    lower index first on a tie, the first ceil(m / 2) of m stay. Returns how many stay."""
    m = 0
    for i in range(n):
        if i != pick and stats[4, i] == 1.0:
            m += 1
    keep = (m + 1) // 2
    for i in range(n):
        if i == pick or stats[4, i] != 1.0:
            continue
        gain = stats[0, i] / max(stats[2, i], 1.0)
        better = 0  # options ranked above i
        for k in range(n):
            if k == pick or k == i or stats[4, k] != 1.0:
                continue
            g = stats[0, k] / max(stats[2, k], 1.0)
            if g > gain or (g == gain and k < i):
                better += 1
        if better >= keep:
            stats[5, i] = 1.0  # marked first, dropped below, so every rank is taken on the same alive set
    for i in range(n):
        if stats[5, i] == 1.0:
            stats[4, i] = 0.0
            stats[5, i] = 0.0
    return keep


# the rows of the search's statistics of each option (flat_nb's ``stats``)
N_STATS = 8


@kernel
def flat_nb(st, tb, ru, player, n, root, world, ws, stats, scratch, local, x):
    """Monte Carlo over determinised worlds (see the module's docstring): the option to take.

    ``stats``: float64 (N_STATS, n) scratch: per option, the sum over the worlds it was played in of its score minus
    the rollout policy's option's score in the same world, the sum of its square, the number of those worlds,
    how many of them it scored better in, whether it is still played out, and a mark for the halving; then the sum
    of its own score over the worlds it was scored in and their number (the rollout policy's option: its score in
    every world), what the search estimates the option is worth, read by a recorder, never by the choice.
    ``x``: float64 (N_SCRATCH,) scratch for the value."""
    sp = st.sparams[player]
    row = st.sv[player, K.SV_VILLAIN]
    samples = max(np.int64(sp[BUDGET_AT + 2 * row]), 1)
    horizon = np.int64(sp[BUDGET_AT + 2 * row + 1])
    policy = 0 if sp[S_ROLLOUT] == 0 else 1
    screen = np.int64(sp[S_SCREEN])
    rounds = np.int64(sp[S_HALVING])
    searched = (np.int64(sp[S_KINDS]) >> st.g[K.G_PEND_KIND]) & 1 == 1
    for i in range(n):
        for r in range(N_STATS):
            stats[r, i] = 0.0
        stats[4, i] = 1.0
    r = 0  # the halving round under way
    pick = 0
    for j in range(samples):
        copy_state_nb(world, root)
        if sp[S_CHEAT] == 0:
            determinise_nb(world, player, local, scratch)
        world.rng[0] = next_u64_nb(local)
        if j == 0:
            copy_state_nb(ws, world)
            pick = policy_nb(ref(ws), ref(tb), as_ptr(ru), policy)
            stats[4, pick] = 0.0
            if not searched:  # a kind left to the rollout policy: its answer in this world
                return pick
        if rounds > 0 and r < rounds - 1 and j == round_end_nb(samples, rounds, r):
            halve_nb(stats, n, pick)
            r += 1
        # screening: from world ``screen`` on, only the options that scored better than the policy's somewhere
        alive = 0
        for i in range(n):
            if stats[4, i] == 1.0 and screen > 0 and j >= screen and stats[3, i] == 0:
                stats[4, i] = 0.0
            if stats[4, i] == 1.0:
                alive += 1
        if alive == 0:
            break
        copy_state_nb(ws, world)
        apply_nb.call(ref(ws), pick)
        rollout_nb(ws, tb, ru, horizon, policy)
        base = value_nb(ws, tb, ru, player, sp, x)
        stats[6, pick] += base
        stats[7, pick] += 1.0
        for i in range(n):
            if stats[4, i] != 1.0:
                continue
            copy_state_nb(ws, world)
            apply_nb.call(ref(ws), i)
            rollout_nb(ws, tb, ru, horizon, policy)
            v = value_nb(ws, tb, ru, player, sp, x)
            stats[6, i] += v
            stats[7, i] += 1.0
            d = v - base
            stats[0, i] += d
            stats[1, i] += d * d
            stats[2, i] += 1.0
            if d > 0:
                stats[3, i] += 1.0
    # Leave the policy's option only for one still played out (every option, without halving or screening) better
    # by ``confidence`` standard errors of the paired difference.
    best = pick
    best_gain = 0.0
    for i in range(n):
        m = stats[2, i]
        if m == 0 or (rounds > 0 and stats[4, i] != 1.0):
            continue
        mean = stats[0, i] / m
        se = 0.0
        if m > 1:
            se = np.sqrt(max(stats[1, i] - m * mean * mean, 0.0) / (m - 1) / m)
        if mean > 1e-9 and mean > sp[S_CONFIDENCE] * se and mean > best_gain:
            best = i
            best_gain = mean
    return best


@allocating_kernel
def choose_nb(st, tb, ru, realm, player, kind, ctx, n):
    """The search player's choice among ``st.opts[:n]`` (strategy kernel 2; same signature as every strategy)."""
    stats = np.empty((N_STATS, n), np.float64)
    return choose_with_stats_nb(st, tb, ru, player, n, stats)


@allocating_kernel
def choose_with_stats_nb(st, tb, ru, player, n, stats):
    """:func:`choose_nb`, leaving in ``stats`` (float64 (N_STATS, at least n)) what it measured of each option
    (:func:`flat_nb`): what a recorder of the search's games keeps for learning (the same choice, the same stream)."""
    P = st.g[K.G_NSEATS]
    root = new_state_nb(P, 0)
    world = new_state_nb(P, 0)
    ws = new_state_nb(P, 0)
    copy_state_nb(root, st)
    policy = 0 if st.sparams[player, S_ROLLOUT] == 0 else 1
    for s in range(P):
        root.sv[s, K.SV_STRATEGY] = policy
        base = HEADER + st.sv[s, K.SV_VILLAIN] * STRIDE
        for j in range(STRIDE):
            x = st.sparams[player, base + j]
            root.sparams[s, j] = x
            world.sparams[s, j] = x
            ws.sparams[s, j] = x
    local = np.empty(1, np.uint64)
    local[0] = next_u64_nb(st.rng)
    scratch = np.empty(K.N_INST, np.int64)
    x = np.empty(N_SCRATCH, np.float64)
    return flat_nb(st, tb, ru, player, n, root, world, ws, stats, scratch, local, x)


@entry_kernel
def turn_positions_nb(st, tb, ru, out):
    """Play ``st`` (every seat's strategy a heuristic one, its parameters in ``st.sparams``) to the end, writing each
    seat's value features at the start of every turn into ``out[t, seat]`` (float64 (turns, seats, N_FEATURES));
    returns the number of turns written (at most ``out``'s length; later turns are played but not written)."""
    t = 0
    while st.g[K.G_PHASE] != K.PH_OVER:
        if st.g[K.G_PHASE] == K.PH_START and t < out.shape[0]:
            for s in range(st.g[K.G_NSEATS]):
                features_nb(st, tb, ru, s, out[t, s])
            t += 1
        rollout_nb(st, tb, ru, 0, 1)
    return t
