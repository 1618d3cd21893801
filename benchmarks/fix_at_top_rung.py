"""Does the best balance fix hold at the top rung? The fix `simlab fix` ranks first was found and measured at strong
play (the shipped equilibrium mixtures, re-tuned by the adaptation check); this plays the fixed game with the
learning run's top generation on every seat (the ``learned`` level) and reads each matchup against the band.

Usage:

    python benchmarks/fix_at_top_rung.py [--fix-dir reports/fix] [--games 400] [--seed 43] [--threads 2]
                                         [--out reports/fix/top-rung.json]

Each matchup the fix was measured in (every pairing and the 3-player game), ``--games`` games with the seats
rotated, beside the same matchup at the top rung before the fix (the learning run's own self-play values, the
headline's top rung) and at strong play before and after (``fix_matchups.csv``). The top generation's value model
was learned on the shipped cards, so on the fixed game it is a strong player that has not learned the new cards:
what a designer would see first from players who know the game well, before they adapt to the change. A long run
stopped part way keeps the matchups it finished. Not a test: a measurement.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from provenance import add_arguments, started, write  # noqa: E402


def band_verdict(low: float, high: float, band_low: float, band_high: float) -> str:
    """An interval against the band: wholly inside it, reaching into it (consistent with balance, not shown), or
    wholly outside it."""
    if band_low <= low and high <= band_high:
        return "in the band"
    if high < band_low or low > band_high:
        return "outside the band"
    return "reaches into the band"


def mid(row: dict) -> float:
    """The middle of a row's band: the share a balanced game gives."""
    return (row["band_low"] + row["band_high"]) / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fix-dir", type=Path, default=Path("reports/fix"), help="a simlab fix report folder")
    parser.add_argument("--games", type=int, default=400, help="games per matchup, seats rotated")
    parser.add_argument("--seed", type=int, default=43)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--level", default="learned", help="the level on every seat (default the top rung's)")
    add_arguments(parser)
    args = parser.parse_args()
    run_info = started(args.smoke)
    games = 12 if args.smoke else args.games

    import polars as pl

    from simlab.runs.settings import RunSettings
    from simlab.runs.sim import run
    from simlab.studies.generations import oriented, read_rungs

    best = pl.read_csv(args.fix_dir / "fix_best.csv").filter(pl.col("rank") == 1).row(0, named=True)
    edits = [e for flag, e in zip(*[iter(shlex.split(best["options"]))] * 2, strict=True) if flag == "--edit"]
    measured = pl.read_csv(args.fix_dir / "fix_matchups.csv").filter(pl.col("rank") == 1)
    rungs = read_rungs()
    if rungs is None:
        raise SystemExit("no shipped learning run (reports/learning): no top rung to compare with")
    matchups = list(dict.fromkeys(measured["matchup"]))
    rows = []
    for matchup in matchups:
        villains = matchup.split("-vs-")
        before = oriented(rungs, matchup).filter(pl.col("level") == rungs.top_level)
        t = time.process_time()
        res = run(matchup, RunSettings(games, args.seed, level=args.level, threads=args.threads, edits=edits))
        cpu = (time.process_time() - t) / games
        summary = {r["outcome"]: r for r in res.summary.to_dicts()}
        for r in measured.filter(pl.col("matchup") == matchup).iter_rows(named=True):
            v = r["villain"]
            if len(villains) == 2 and v != villains[0]:
                continue  # a pairing is read from its first villain's side, as the headline reads it
            top = before.filter(pl.col("villain") == v).row(0, named=True)
            now = summary[v]
            rows.append(
                {
                    "matchup": matchup,
                    "villain": v,
                    "band_low": r["band_low"],
                    "band_high": r["band_high"],
                    "strong_before": r["before"],
                    "strong_after": r["after"],
                    "strong_after_low": r["after_low"],
                    "strong_after_high": r["after_high"],
                    "top_before": top["rate"],
                    "top_before_low": top["low"],
                    "top_before_high": top["high"],
                    "top_before_verdict": band_verdict(top["low"], top["high"], r["band_low"], r["band_high"]),
                    "top_after": now["rate"],
                    "top_after_low": now["low"],
                    "top_after_high": now["high"],
                    "games": now["games"],
                    "verdict": band_verdict(now["low"], now["high"], r["band_low"], r["band_high"]),
                    "cpu_per_game": round(cpu, 4),
                }
            )
            print(rows[-1], flush=True)
        write(
            args.out,
            run_info
            | {
                "fix": best["fix"],
                "edits": edits,
                "fix_verdict_at_strong_play": best["verdict"],
                "level": args.level,
                "top_rung": f"{rungs.top_level}, {rungs.verdict}",
                "games": games,
                "seed": args.seed,
                "complete": matchup == matchups[-1],
                "readings": len(rows),
                **{
                    key: sum(r["verdict"] == word for r in rows)
                    for key, word in (
                        ("in_band", "in the band"),
                        ("reaching", "reaches into the band"),
                        ("outside", "outside the band"),
                    )
                },
                "closer": sum(abs(r["top_after"] - mid(r)) < abs(r["top_before"] - mid(r)) for r in rows),
                "rows": rows,
            },
        )


if __name__ == "__main__":
    main()
