"""The learned value model: the chance that a seat wins from a position, given its features.

A small neural network (scikit-learn's ``MLPClassifier``: one hidden layer of :data:`HIDDEN` rectified units, a
logistic output, on standardised inputs) over the features of :mod:`strategies.learned.features` and a few products
of them (:data:`PRODUCTS`: progress and Power by villain). Against a logistic regression over the same inputs it cut
the held-out log-loss from 0.606 to 0.576 (300 tuned games per seating to fit, 100 to test; the search player's
6-weight model: 0.596). It is fitted on positions of self-play games labelled by their result (a win 1, a loss 0, a
game stopped by the turn cap 1/2: two rows of weight 1/2), every game weighing the same, on one BLAS thread with a
fixed seed, so the same positions give the same model. The kernels evaluate it from one exported array
(:func:`value_nb`), as scikit-learn's ``predict_proba`` does (a test holds them to 1e-9). :func:`write` ships a model
as JSON with its provenance.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from simlab.data import durable
from simlab.kernels.compile import kernel
from strategies.learned.features import (
    ALL_FEATURE_NAMES,
    KEY_END,
    MY_VILLAIN,
    N_ALL_FEATURES,
    N_FEATURES,
    N_VILLAIN_ROWS,
    RIVAL,
    RIVAL_VILLAIN,
)

_PROGRESS, _PROGRESS4, _POWER = 0, 1, 2
# (a, b): feature a times feature b, appended after the features in this order
PRODUCTS = (
    tuple((_PROGRESS, MY_VILLAIN + v) for v in range(N_VILLAIN_ROWS))
    + tuple((_PROGRESS4, MY_VILLAIN + v) for v in range(N_VILLAIN_ROWS))
    + tuple((_POWER, MY_VILLAIN + v) for v in range(N_VILLAIN_ROWS))
    + tuple((RIVAL + _PROGRESS, RIVAL_VILLAIN + v) for v in range(N_VILLAIN_ROWS))
    + tuple((RIVAL + _PROGRESS4, RIVAL_VILLAIN + v) for v in range(N_VILLAIN_ROWS))
)
PRODUCT_A = np.array([a for a, _ in PRODUCTS], np.int64)
PRODUCT_B = np.array([b for _, b in PRODUCTS], np.int64)
N_PRODUCTS = len(PRODUCTS)
PRODUCT_NAMES = tuple(f"{ALL_FEATURE_NAMES[a]}*{ALL_FEATURE_NAMES[b]}" for a, b in PRODUCTS)
# A model reads the first features of ALL_FEATURE_NAMES, then the products: the base features (every model fitted
# before the key cards, generations 0 and 1 of the shipped run among them), those and the key cards, or all of them.
FEATURE_SETS = {"base": N_FEATURES, "key-cards": KEY_END, "board": N_ALL_FEATURES}
N_INPUTS = N_FEATURES + N_PRODUCTS
INPUT_NAMES = ALL_FEATURE_NAMES[:N_FEATURES] + PRODUCT_NAMES
HIDDEN = 32  # hidden units
ALPHA = 1e-3  # scikit-learn's L2 penalty
SEED = 0  # the network's initial weights and its early-stopping split
# The exported model, one float64 array: [inputs, hidden, mean (inputs), scale (inputs), first layer's weights
# (inputs x hidden, row by row), its biases (hidden), the output's weights (hidden), its bias]; layout_nb gives
# where each part starts for a model of any number of inputs, the constants below a base model's (N_INPUTS)
MEAN_AT = 2


@kernel
def layout_nb(inputs):
    """Where the scale, the first layer's weights and biases, the output's weights and its bias start in the
    exported array of a model of ``inputs`` inputs (the mean starts at MEAN_AT)."""
    scale_at = MEAN_AT + inputs
    w1_at = scale_at + inputs
    b1_at = w1_at + inputs * HIDDEN
    w2_at = b1_at + HIDDEN
    return scale_at, w1_at, b1_at, w2_at, w2_at + HIDDEN


_layout = getattr(layout_nb, "py_func", layout_nb)  # the same arithmetic in Python, compiling nothing


def model_width(inputs: int) -> int:
    """The exported array's length for a model of ``inputs`` inputs."""
    return _layout(inputs)[4] + 1


SCALE_AT, W1_AT, B1_AT, W2_AT, B2_AT = _layout(N_INPUTS)
MODEL_WIDTH = model_width(N_ALL_FEATURES + N_PRODUCTS)  # the widest model: the room it takes in State.sparams


def input_names(features: int) -> tuple[str, ...]:
    """The names of the inputs of a model over the first ``features`` features."""
    return ALL_FEATURE_NAMES[:features] + PRODUCT_NAMES


def expand(features: np.ndarray) -> np.ndarray:
    """The model's inputs from rows of features (N, one of :data:`FEATURE_SETS`' widths): the features, then their
    :data:`PRODUCTS`."""
    features = np.asarray(features, np.float64)
    if features.shape[1] not in FEATURE_SETS.values():
        raise ValueError(f"{features.shape[1]} features; a model reads {' or '.join(map(str, FEATURE_SETS.values()))}")
    return np.concatenate([features, features[:, PRODUCT_A] * features[:, PRODUCT_B]], axis=1)


@dataclass
class ValueModel:
    """A fitted model: its exported array (:data:`MODEL_WIDTH`) and where it came from."""

    weights: np.ndarray
    provenance: dict = field(default_factory=dict)
    pipeline: object = None  # the scikit-learn pipeline it was exported from (None when read from a file)

    @property
    def features(self) -> int:
        """How many of :data:`ALL_FEATURE_NAMES` the model reads (the first ones)."""
        return int(self.weights[0]) - N_PRODUCTS

    def predict(self, features: np.ndarray) -> np.ndarray:
        """P(win) for rows of features (N, at least :attr:`features`; the first ones read), as the kernel works it
        out."""
        w = self.weights
        n = int(w[0])
        scale_at, w1_at, b1_at, w2_at, b2_at = _layout(n)
        x = (expand(np.asarray(features)[:, : self.features]) - w[MEAN_AT:scale_at]) / w[scale_at:w1_at]
        hidden = np.maximum(x @ w[w1_at:b1_at].reshape(n, HIDDEN) + w[b1_at:w2_at], 0.0)
        return 1.0 / (1.0 + np.exp(-(hidden @ w[w2_at:b2_at] + w[b2_at])))


def training_rows(
    x: np.ndarray, result: np.ndarray, weight: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The classifier's rows, labels and weights for positions ``x`` whose ``result`` is a chance to win (1 won,
    0 lost, 1/2 the turn cap, or any soft label between): each position a win of weight ``result`` and a loss of
    weight 1 - ``result``, times its ``weight`` (default 1). First every position (a win unless it was lost), then a
    loss for each result strictly between 0 and 1; rows of no weight are left out."""
    result = np.asarray(result, np.float64)
    weight = np.ones(len(result)) if weight is None else np.asarray(weight, np.float64)
    won, part = result > 0, (result > 0) & (result < 1)
    rows = np.concatenate([x, x[part]])
    labels = np.concatenate([won.astype(np.int64), np.zeros(int(part.sum()), np.int64)])
    weights = np.concatenate([np.where(won, result, 1.0) * weight, (1 - result[part]) * weight[part]])
    return rows, labels, weights


def fit(
    features: np.ndarray, result: np.ndarray, weight: np.ndarray | None = None, provenance=None, alpha: float = ALPHA
) -> ValueModel:
    """Fit the model on positions: ``features`` (N, one of :data:`FEATURE_SETS`' widths), ``result`` (N,) 1 won, 0 lost,
    0.5 the turn cap, ``weight`` (N,) each position's weight (default 1). Single-threaded, so the same data give the
    same model. ``alpha``: the L2 penalty."""
    from sklearn.neural_network import MLPClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from threadpoolctl import threadpool_limits

    x_all, y_all, w_all = training_rows(expand(features), result, weight)
    network = MLPClassifier(
        hidden_layer_sizes=(HIDDEN,), alpha=alpha, max_iter=300, early_stopping=True, random_state=SEED
    )
    pipeline = make_pipeline(StandardScaler(), network)
    with threadpool_limits(1):
        pipeline.fit(x_all, y_all, mlpclassifier__sample_weight=w_all)
    scaler = pipeline[0]
    scale = np.where(scaler.scale_ > 0, scaler.scale_, 1.0)  # scikit-learn's own guard for a constant input
    (w1, w2), (b1, b2) = network.coefs_, network.intercepts_
    weights = np.concatenate([[x_all.shape[1], HIDDEN], scaler.mean_, scale, w1.ravel(), b1, w2.ravel(), b2])
    return ValueModel(weights, dict(provenance or {}), pipeline)


def log_loss(p: np.ndarray, result: np.ndarray) -> float:
    """Mean log-loss of predictions ``p`` against results (1/2 counts half a win and half a loss)."""
    p = np.clip(np.asarray(p, np.float64), 1e-12, 1 - 1e-12)
    r = np.asarray(result, np.float64)
    return float(-np.mean(r * np.log(p) + (1 - r) * np.log(1 - p)))


def brier(p: np.ndarray, result: np.ndarray) -> float:
    """Mean squared difference between predictions and results."""
    return float(np.mean((np.asarray(p, np.float64) - np.asarray(result, np.float64)) ** 2))


def write(model: ValueModel, path: Path) -> None:
    """Ship ``model`` as JSON: its inputs' names, its weights and its provenance."""
    data = {
        "kind": "mlp",
        "inputs": list(input_names(model.features)),
        "weights": [float(x) for x in model.weights],
        "provenance": model.provenance,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    durable.write_text(path, json.dumps(data, indent=1) + "\n", "the value model")


def read(path: Path) -> ValueModel:
    """The model shipped at ``path`` (refused if its inputs are not one of this version's feature sets)."""
    data = json.loads(Path(path).read_text())
    sets = {n: input_names(n) for n in FEATURE_SETS.values()}
    features = next((n for n, names in sets.items() if data.get("inputs") == list(names)), None)
    if features is None:
        known = ", ".join(f"{k} ({n + N_PRODUCTS} inputs)" for k, n in FEATURE_SETS.items())
        raise ValueError(f"{path}: the model's inputs are none of this version's feature sets ({known}); fit it again")
    width = model_width(features + N_PRODUCTS)
    weights = np.array(data["weights"], np.float64)
    if weights.shape != (width,) or weights[0] != features + N_PRODUCTS or weights[1] != HIDDEN:
        raise ValueError(f"{path}: expected {width} weights for {features + N_PRODUCTS} inputs and {HIDDEN} hidden")
    if not all(math.isfinite(x) for x in weights):
        raise ValueError(f"{path}: expected {width} finite weights")
    return ValueModel(weights, data.get("provenance", {}))


@kernel
def value_nb(x, w, h):
    """P(win) of the position whose features are ``x`` (float64, at least the model's features), by the model ``w``
    (float64, :class:`ValueModel`'s weights, its inputs in ``w[0]``): what scikit-learn's ``predict_proba`` gives.
    ``h``: float64 scratch of HIDDEN."""
    n = np.int64(w[0])
    plain = n - N_PRODUCTS
    scale_at, w1_at, b1_at, w2_at, b2_at = layout_nb(n)
    for j in range(HIDDEN):
        h[j] = w[b1_at + j]
    for i in range(n):
        if i < plain:
            v = x[i]
        else:
            v = x[PRODUCT_A[i - plain]] * x[PRODUCT_B[i - plain]]
        v = (v - w[MEAN_AT + i]) / w[scale_at + i]
        row = w1_at + i * HIDDEN
        for j in range(HIDDEN):
            h[j] += v * w[row + j]
    z = w[b2_at]
    for j in range(HIDDEN):
        if h[j] > 0.0:
            z += h[j] * w[w2_at + j]
    return 1.0 / (1.0 + np.exp(-z))
