"""A report table as the page shows it: every rate a percentage and every interval in the one notation
(:func:`simlab.runs.stats.interval_text`); the parquet and CSV files keep the numbers."""

from __future__ import annotations

import polars as pl

from simlab.runs.stats import interval_text

CHANGES = ("change", "impact", "advantage", "skill_gap", "fate_sensitivity", "gain")  # signed: +2.1% [+0.3, +3.9]
RATE_WORDS = ("rate", "observed", "predicted", "frequency", "probability", "share", "exploitability", "bin_", "weight")
OTHER_ENDS = {"advantage_observed": ("advantage_low", "advantage_high")}  # an interval not named after its estimate
TURNS = ("goldfish_turns",)  # measured in turns, not as a rate


def _ends(frame: pl.DataFrame, name: str) -> tuple[str, str] | None:
    """The columns of ``name``'s interval: ``name_low``/``name_high``, or ``low``/``high`` for rate and estimate."""
    cols = frame.columns
    if name in OTHER_ENDS and set(OTHER_ENDS[name]) <= set(cols):
        return OTHER_ENDS[name]
    if f"{name}_low" in cols and f"{name}_high" in cols:
        return f"{name}_low", f"{name}_high"
    if name in ("rate", "estimate") and "low" in cols and "high" in cols:
        return "low", "high"
    return None


def _is_rate(name: str) -> bool:
    return any(w in name for w in RATE_WORDS + CHANGES) and not name.endswith(("_z", "games", "turns"))


def display_table(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with each estimate and its interval as one text column ``NAME [95%]`` and every other rate a
    percentage; counts, z statistics, p-values and turns as they are."""
    out = frame
    for name in list(frame.columns):
        if name not in out.columns or frame.schema[name] not in (pl.Float64, pl.Float32):
            continue
        ends = _ends(frame, name)
        if ends is not None and ends[0] in out.columns:
            measure = frame["measure"] if name == "estimate" and "measure" in frame.columns else None
            texts = []
            for i, (x, lo, hi) in enumerate(zip(frame[name], frame[ends[0]], frame[ends[1]], strict=True)):
                what = measure[i] if measure is not None else name
                if what in TURNS:
                    texts.append(f"{x:g} [{lo:g}, {hi:g}] turns")
                else:
                    texts.append(interval_text(x, lo, hi, "+" if any(c in what for c in CHANGES) else ""))
            out = out.with_columns(pl.Series(name, texts, pl.String)).drop(*ends)
            out = out.rename({name: f"{name} [95%]"})
        elif _is_rate(name) or (name == "se" and "measure" in frame.columns):
            texts = ["" if x is None or x != x else f"{x:.1%}" for x in frame[name]]
            out = out.with_columns(pl.Series(name, texts, pl.String))
    return out
