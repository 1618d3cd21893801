"""The shipped leverage ranking: which uncertain readings a robust verdict tests, chosen once for every command.

A robust verdict (:mod:`simlab.studies.robust`) is measured under the default reading and the readings with the
largest significant effect in a leverage screen (:mod:`simlab.studies.leverage`). Screening again in each command
makes the verdict depend on that command's level, size and villains: ``difficulty`` and ``report`` would test
other readings and could give other answers to one question. So the ranking is made once, from a leverage table
of known size, and shipped with its provenance (command, commit, seed, games) in ``configs/leverage/ranking.toml``;
``difficulty`` and ``report`` take their readings from it unless asked to re-screen (``--rescreen``,
``[report] rescreen = true``), and say which they tested.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from simlab.errors import InputError
from simlab.runs.experiment import CONFIG_DIR

RANKING_FILE = CONFIG_DIR / "leverage" / "ranking.toml"
PROVENANCE_KEYS = ("command", "commit", "seed", "games", "level", "board", "source", "created")
_ROW_KEYS = ("setting", "kind", "largest_in", "villain", "change", "change_low", "change_high", "significant_rows")


@dataclass(frozen=True)
class Ranking:
    """The readings ranked largest significant effect first, each with where its largest effect was, and how the
    ranking was made (:data:`PROVENANCE_KEYS`)."""

    rows: tuple[dict, ...]
    provenance: dict = field(default_factory=dict)
    path: Path | None = None

    @property
    def readings(self) -> list[str]:
        return [r["setting"] for r in self.rows]

    def top(self, k: int) -> list[str]:
        """The ``k`` readings with the largest significant effect, largest first."""
        return self.readings[:k]

    def why(self, setting: str) -> str:
        """Why ``setting`` is tested: its rank and largest effect in the shipped ranking."""
        i = self.readings.index(setting)
        r = self.rows[i]
        return (
            f"shipped leverage ranking #{i + 1}: largest effect {r['villain']} in {r['largest_in']} {r['change']:+.1%}"
        )

    def source_line(self) -> str:
        """One line naming the file and how it was made."""
        p = self.provenance
        where = _shown(self.path) if self.path else "the leverage ranking"
        return (
            f"{where} (from {p.get('source', '?')} of `{p.get('command', '?')}`, "
            f"commit {str(p.get('commit', '?'))[:10]}, "
            f"seed {p.get('seed', '?')}, {p.get('games', '?')} games per matchup and reading at {p.get('level', '?')} "
            "play)"
        )


def _shown(path: Path) -> str:
    try:
        return path.resolve().relative_to(CONFIG_DIR.parent).as_posix()
    except ValueError:
        return str(path)


def ranking_from_table(table: pl.DataFrame) -> list[dict]:
    """The significant readings of a leverage table (:func:`simlab.studies.leverage.leverage`'s), largest effect
    first, in the order :func:`simlab.studies.leverage.top_settings` picks them."""
    from simlab.studies.leverage import leverage_summary

    sig = table.filter(pl.col("significant") & pl.col("kind").is_in(["rule", "board", "edit"]))
    summary = leverage_summary(sig)
    return [{k: r[k] for k in _ROW_KEYS} for r in summary.iter_rows(named=True)]


def write_ranking(table: pl.DataFrame, provenance: dict, path: str | Path = RANKING_FILE) -> Path:
    """Write the ranking of ``table`` with ``provenance`` (every key of :data:`PROVENANCE_KEYS`) to ``path``."""
    import tomli_w

    missing = [k for k in PROVENANCE_KEYS if k not in provenance]
    if missing:
        raise ValueError(f"ranking provenance lacks {', '.join(missing)}")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {"provenance": {k: provenance[k] for k in PROVENANCE_KEYS}, "reading": ranking_from_table(table)}
    head = (
        "# The shipped leverage ranking: the readings robust verdicts test by default (simlab.studies.ranking).\n"
        "# Generated; do not edit by hand. Largest significant effect first.\n"
    )
    path.write_text(head + tomli_w.dumps(doc), encoding="utf-8")
    return path


def read_ranking(path: str | Path = RANKING_FILE) -> Ranking:
    """The ranking at ``path``; an InputError naming the file when it is missing or malformed."""
    import tomllib

    path = Path(path)
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(
            f"no leverage ranking at {path}; make one with simlab leverage --save-ranking {path}, or re-screen "
            "with --rescreen"
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: not a leverage ranking ({exc})") from None
    rows = doc.get("reading", [])
    bad = [r for r in rows if not isinstance(r, dict) or any(k not in r for k in _ROW_KEYS)]
    provenance = doc.get("provenance", {})
    lacking = [k for k in PROVENANCE_KEYS if k not in provenance]
    if bad or lacking:
        raise InputError(
            f"{path}: a leverage ranking needs [provenance] ({', '.join(PROVENANCE_KEYS)}) and [[reading]] rows "
            f"with {', '.join(_ROW_KEYS)}"
        )
    return Ranking(tuple(rows), provenance, path)


def ranking_from_report(directory: str | Path, path: str | Path = RANKING_FILE) -> Path:
    """Write the ranking of a report's leverage table (``leverage_all.parquet`` in ``directory``, made by that
    report's settings) with its provenance: the shipped ranking is the shipped report's (``python -c "from
    simlab.studies.ranking import ranking_from_report as r; r('reports/balance-report')"``)."""
    import json
    import subprocess

    directory = Path(directory)
    settings = json.loads((directory / "settings.json").read_text(encoding="utf-8"))
    table = pl.read_parquet(directory / "leverage_all.parquet")
    source = (directory / "leverage_all.parquet").resolve()
    try:
        commit = subprocess.run(
            ["git", "-C", str(source.parent), "log", "-1", "--format=%H", "--", source.name],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    provenance = {
        "command": settings["regenerate"],
        "commit": commit or "unknown",
        "seed": settings["seed"],
        "games": settings["leverage_games"],
        "level": settings["studies_level"],
        "board": settings["leverage_board"],
        "source": _shown(source),  # the commit: the one that shipped it
        "created": settings["created"],
    }
    return write_ranking(table, provenance, path)
