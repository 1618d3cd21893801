"""Calibrate against real play: compare simulated predictions with a log of real games.

A log has one row per real game: the villains (in seat order, or unordered with the first player named), the
winner, and optionally the rounds played and a group or event label. For every strategy level and rule
reading asked for (a *model*), simlab plays the log's matchups in the log's seat orders and predicts each
game's winner; the log then scores every model:

* per matchup and seat: the observed wins against the predicted probability, with an exact binomial p-value;
* the first player's advantage, observed and predicted (exact Poisson-binomial p-value);
* log-likelihood and Brier score, each against a coin flip (every seated villain equally likely);
* which level and which readings fit best: the likelihood ratio of the best model against the runner-up,
  called decided at 20 or more (Kass and Raftery's "strong" evidence), and otherwise the number of games a
  log would need for an 80% chance of reaching 20 if the best model were right;
* a calibration table (binned predicted probability against observed frequency, Wilson 95% intervals);
* when rounds are logged: each game's rounds against the simulated distribution for its seat order.

The models are fully specified (nothing is fitted to the log), so a likelihood ratio is read directly as
evidence. A simulated game that reaches the turn cap has no winner, while a real game always has one, so the
predictions are conditioned on a finished game: predicted probability = (wins + 1/2) / (finished games + P/2)
for P seats, which never reaches 0 or 1 (one surprising real game costs a finite log-likelihood).

``read_log`` reads a log, ``predict`` simulates the models, ``evaluate`` scores a log against predictions and
``calibrate`` does all three; every table is a polars frame.

The package: :mod:`.log` (reading a log), :mod:`.predictions` (the models and their simulated predictions) and
:mod:`.scoring` (scoring a log against them, and :func:`calibrate`). Every public name is importable from here.
"""

from simlab.studies.calibration.log import (
    COLUMN_NAMES,
    GAME_SCHEMA,
    LOG_COLUMNS,
    SKIP_SCHEMA,
    GameLog,
    LogLayout,
    calibration_log,
    compatible_orders,
    log_layout,
    read_log,
    seating_key,
)
from simlab.studies.calibration.predictions import (
    DEFAULT_GAMES,
    Predictions,
    model_name,
    predict,
    predict_runs,
    rule_settings,
    run_order,
    setting_label,
)
from simlab.studies.calibration.scoring import (
    CALIBRATION_BINS,
    DECISIVE_RATIO,
    POWER,
    Z_POWER,
    CalibrationResult,
    calibrate,
    evaluate,
    games_needed,
    ratio_text,
)

__all__ = [
    "DEFAULT_GAMES",
    "DECISIVE_RATIO",
    "POWER",
    "Z_POWER",
    "CALIBRATION_BINS",
    "LOG_COLUMNS",
    "GameLog",
    "compatible_orders",
    "seating_key",
    "GAME_SCHEMA",
    "SKIP_SCHEMA",
    "COLUMN_NAMES",
    "LogLayout",
    "log_layout",
    "read_log",
    "rule_settings",
    "setting_label",
    "model_name",
    "run_order",
    "Predictions",
    "predict_runs",
    "predict",
    "CalibrationResult",
    "ratio_text",
    "games_needed",
    "evaluate",
    "calibrate",
    "calibration_log",
]
