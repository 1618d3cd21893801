"""Side effects of a balance fix: what else it changes besides the matchups it was asked to balance.

For a fix (:mod:`simlab.studies.fix`) and every matchup (the pairings and the 3-player game, asked or not), on the
same games as the base game (common random numbers):

- each villain's win rate [Wilson 95%] before and after, and the paired change [Newcombe 95%], for the matchups the
  fix was not asked to balance;
- the share of unfinished games (the turn cap reached);
- the mean and the 90th-percentile game length, in rounds;
- the first-seat advantage: the share of games the first seat wins minus the fair share (1/players).

Each is given with its interval and its change from the base. A change is *flagged* when its interval excludes no
change, it goes the bad way and it is large enough to matter (:data:`FLAG_LIMITS`): an unasked matchup pushed out of
the band, unfinished games up, games longer, the first seat's advantage larger.
"""

from __future__ import annotations

import numpy as np

from simlab.game.api import parse_matchup
from simlab.runs.stats import interval_text, wilson
from simlab.runs.tally import entry_names
from simlab.studies.whatif import paired_effect

FLAG_LIMITS = {
    "band": 0.005,  # share points: an unasked villain's distance from the band grows by more than this
    "unfinished": 0.005,  # unfinished games up by more than half a point
    "length": 0.10,  # mean or 90th-percentile length up by more than a tenth
    "first_seat": 0.03,  # the first seat's advantage up by more than 3 points
}
BOOTSTRAP = 200  # paired resamples of the 90th-percentile length's interval
Z95 = 1.959964


def game_records(matchup: str, settings, strategies=None) -> dict[str, np.ndarray]:
    """Per game of ``matchup`` under ``settings``: ``winner`` (position in the matchup, -1 unfinished), ``seat``
    (the winner's seat, 0 first, -1 unfinished) and ``rounds`` played."""
    from simlab.runs.gameplan import _chunks

    plan = settings.plan(parse_matchup(matchup), None, None, strategies)
    out = {k: np.full(plan.n_games, -1, np.int64) for k in ("winner", "seat", "rounds")}
    for part, _, _ in _chunks(plan, settings.threads):
        rows = part["game"].to_numpy()
        out["winner"][rows] = part["winner_index"].to_numpy()
        out["seat"][rows] = part["winner_seat"].to_numpy()
        out["rounds"][rows] = part["rounds"].to_numpy()
    return out


def _mean_interval(x: np.ndarray) -> tuple[float, float, float]:
    m = float(np.mean(x))
    half = Z95 * float(np.std(x, ddof=1)) / np.sqrt(x.size) if x.size > 1 else float("nan")
    return m, m - half, m + half


def _p90_interval(before: np.ndarray, after: np.ndarray) -> tuple[tuple, tuple, tuple]:
    """The 90th percentile of each, and of the change, each with a paired bootstrap 95% interval (fixed seed)."""
    rng = np.random.default_rng(0)
    idx = rng.integers(0, before.size, (BOOTSTRAP, before.size))
    b, a = np.percentile(before[idx], 90, axis=1), np.percentile(after[idx], 90, axis=1)

    def summary(point, boot):
        lo, hi = np.percentile(boot, [2.5, 97.5])
        return float(point), float(lo), float(hi)

    p_b, p_a = np.percentile(before, 90), np.percentile(after, 90)
    return summary(p_b, b), summary(p_a, a), summary(p_a - p_b, a - b)


def _rate(won: np.ndarray) -> tuple[float, float, float]:
    lo, hi = (float(x) for x in wilson(int(won.sum()), won.size))
    return float(won.mean()), lo, hi


def _row(matchup, villain, metric, before, after, change, flag, unit="%") -> dict:
    def text(v, sign=""):
        if unit == "%":
            return interval_text(*v, sign)
        return f"{v[0]:{sign}.1f} [{v[1]:{sign}.1f}, {v[2]:{sign}.1f}]"

    return {
        "matchup": matchup,
        "villain": villain,
        "metric": metric,
        "before": before[0],
        "before_low": before[1],
        "before_high": before[2],
        "after": after[0],
        "after_low": after[1],
        "after_high": after[2],
        "change": change[0],
        "change_low": change[1],
        "change_high": change[2],
        "before_text": text(before),
        "after_text": text(after),
        "change_text": text(change, "+"),
        "flag": flag,
    }


def _paired(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    eff = paired_effect(a.astype(np.int8), b.astype(np.int8))
    return eff["change"], eff["change_low"], eff["change_high"]


def matchup_effects(matchup: str, before: dict, after: dict, band, asked: bool) -> list[dict]:
    """The side-effect rows of one matchup (``before``/``after``: :func:`game_records` on the same games); the win
    rates only for a matchup not ``asked``."""
    villains = parse_matchup(matchup)
    players = len(villains)
    rows = []
    if not asked:
        for e, name in enumerate(entry_names(villains)):
            b, a = before["winner"] == e, after["winner"] == e
            rb, ra = _rate(b), _rate(a)
            change = _paired(b, a)
            worse = band.distance(ra[0], players) - band.distance(rb[0], players)
            significant = change[1] > 0 or change[2] < 0
            flag = f"{name} further from the band in {matchup}" if worse > FLAG_LIMITS["band"] and significant else ""
            flag = "" if any(r["flag"] for r in rows) else flag  # a 2-player game: its other villain says it
            rows.append(_row(matchup, name, "win rate", rb, ra, change, flag))
    b, a = before["winner"] < 0, after["winner"] < 0
    rb, ra, change = _rate(b), _rate(a), _paired(b, a)
    flag = f"unfinished games up in {matchup}" if change[1] > 0 and change[0] > FLAG_LIMITS["unfinished"] else ""
    rows.append(_row(matchup, "", "unfinished", rb, ra, change, flag))
    lb, la = before["rounds"].astype(float), after["rounds"].astype(float)
    mb, ma, diff = _mean_interval(lb), _mean_interval(la), _mean_interval(la - lb)
    longer = diff[1] > 0 and diff[0] > FLAG_LIMITS["length"] * mb[0]
    rows.append(_row(matchup, "", "mean rounds", mb, ma, diff, f"games longer in {matchup}" if longer else "", "n"))
    pb, pa, pdiff = _p90_interval(lb, la)
    longer = pdiff[1] > 0 and pdiff[0] > FLAG_LIMITS["length"] * pb[0]
    flag = f"long games longer in {matchup}" if longer else ""
    rows.append(_row(matchup, "", "90th-percentile rounds", pb, pa, pdiff, flag, "n"))
    fair = 1 / players
    b, a = before["seat"] == 0, after["seat"] == 0
    rb, ra, change = _rate(b), _rate(a), _paired(b, a)
    shift = lambda v: (v[0] - fair, v[1] - fair, v[2] - fair)  # noqa: E731
    grew = abs(ra[0] - fair) - abs(rb[0] - fair) > FLAG_LIMITS["first_seat"] and (change[1] > 0 or change[2] < 0)
    flag = f"first seat's advantage larger in {matchup}" if grew else ""
    rows.append(_row(matchup, "", "first-seat advantage", shift(rb), shift(ra), change, flag))
    return rows


def flags(rows: list[dict]) -> list[str]:
    """The flags raised by side-effect rows, in order, each once."""
    return list(dict.fromkeys(r["flag"] for r in rows if r["flag"]))
