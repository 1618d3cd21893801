"""The learned value model: the chance that a seat wins from a position, given its features.

A logistic regression (scikit-learn's, on standardised features) over the features of
:mod:`strategies.learned.features` and a few products of them (:data:`PRODUCTS`: progress and Power by villain, so
each villain's progress counts for what it is worth to that villain). It is fitted on positions of self-play games
labelled by their result (a win 1, a loss 0, a game stopped by the turn cap 1/2: two rows of weight 1/2), every game
weighing the same. The kernels evaluate it from exported arrays (:func:`value_nb`), exactly as scikit-learn's
``predict_proba`` does (a test holds them to 1e-9). :func:`write` ships a model as JSON with its provenance.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from simlab.kernels.compile import kernel
from strategies.learned.features import (
    FEATURE_NAMES,
    MY_VILLAIN,
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
N_INPUTS = N_FEATURES + len(PRODUCTS)
INPUT_NAMES = FEATURE_NAMES + tuple(f"{FEATURE_NAMES[a]}*{FEATURE_NAMES[b]}" for a, b in PRODUCTS)
# The exported model, one float64 array: [intercept, mean (N_INPUTS), scale (N_INPUTS), coef (N_INPUTS)]
MEAN_AT = 1
SCALE_AT = MEAN_AT + N_INPUTS
COEF_AT = SCALE_AT + N_INPUTS
MODEL_WIDTH = COEF_AT + N_INPUTS
C = 1.0  # scikit-learn's inverse regularisation strength (L2)


def expand(features: np.ndarray) -> np.ndarray:
    """The model's inputs from rows of features (N, N_FEATURES): the features, then their :data:`PRODUCTS`."""
    features = np.asarray(features, np.float64)
    return np.concatenate([features, features[:, PRODUCT_A] * features[:, PRODUCT_B]], axis=1)


@dataclass
class ValueModel:
    """A fitted model: its exported array (:data:`MODEL_WIDTH`) and where it came from."""

    weights: np.ndarray
    provenance: dict = field(default_factory=dict)
    pipeline: object = None  # the scikit-learn pipeline it was exported from (None when read from a file)

    def predict(self, features: np.ndarray) -> np.ndarray:
        """P(win) for rows of features (N, N_FEATURES), as the kernel works it out."""
        w = self.weights
        z = (expand(features) - w[MEAN_AT:SCALE_AT]) / w[SCALE_AT:COEF_AT] @ w[COEF_AT:] + w[0]
        return 1.0 / (1.0 + np.exp(-z))


def fit(features: np.ndarray, result: np.ndarray, weight: np.ndarray | None = None, provenance=None) -> ValueModel:
    """Fit the model on positions: ``features`` (N, N_FEATURES), ``result`` (N,) 1 won, 0 lost, 0.5 the turn cap,
    ``weight`` (N,) each position's weight (default 1). Single-threaded, so the same data give the same model."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from threadpoolctl import threadpool_limits

    x = expand(features)
    result = np.asarray(result, np.float64)
    weight = np.ones(len(result)) if weight is None else np.asarray(weight, np.float64)
    # a result of 1/2 is a win and a loss, each of half the weight
    half = result == 0.5
    x_all = np.concatenate([x, x[half]])
    y_all = np.concatenate([np.where(half, 1, result), np.zeros(int(half.sum()))]).astype(np.int64)
    w_all = np.concatenate([np.where(half, 0.5, 1.0) * weight, 0.5 * weight[half]])
    pipeline = make_pipeline(StandardScaler(), LogisticRegression(C=C, max_iter=2000))
    with threadpool_limits(1):
        pipeline.fit(x_all, y_all, logisticregression__sample_weight=w_all)
    scaler, logistic = pipeline[0], pipeline[1]
    scale = np.where(scaler.scale_ > 0, scaler.scale_, 1.0)  # scikit-learn's own guard for a constant input
    weights = np.concatenate([[logistic.intercept_[0]], scaler.mean_, scale, logistic.coef_[0]])
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
        "kind": "logistic",
        "inputs": list(INPUT_NAMES),
        "weights": [float(x) for x in model.weights],
        "provenance": model.provenance,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    tmp.replace(path)


def read(path: Path) -> ValueModel:
    """The model shipped at ``path`` (refused if its inputs are not this version's)."""
    data = json.loads(Path(path).read_text())
    if data.get("inputs") != list(INPUT_NAMES):
        raise ValueError(f"{path}: the model's inputs are not this version's features; fit it again")
    weights = np.array(data["weights"], np.float64)
    if weights.shape != (MODEL_WIDTH,) or not all(math.isfinite(x) for x in weights):
        raise ValueError(f"{path}: expected {MODEL_WIDTH} finite weights")
    return ValueModel(weights, data.get("provenance", {}))


@kernel
def value_nb(x, w):
    """P(win) of the position whose features are ``x`` (float64 N_FEATURES), by the model ``w`` (float64
    MODEL_WIDTH, :class:`ValueModel`'s weights): what scikit-learn's ``predict_proba`` gives."""
    z = 0.0
    for i in range(N_FEATURES):
        z += (x[i] - w[MEAN_AT + i]) / w[SCALE_AT + i] * w[COEF_AT + i]
    for j in range(len(PRODUCT_A)):
        i = N_FEATURES + j
        z += (x[PRODUCT_A[j]] * x[PRODUCT_B[j]] - w[MEAN_AT + i]) / w[SCALE_AT + i] * w[COEF_AT + i]
    z += w[0]
    return 1.0 / (1.0 + np.exp(-z))
