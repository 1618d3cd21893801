"""Per-game output: the per-game frame of a played chunk, the parquet writer and the card flags read back."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import numpy as np
import polars as pl

from simlab.data import durable
from simlab.kernels import const as K


def _frame(villains, job, res, seats) -> pl.DataFrame:
    """The per-game rows of a played chunk (``seats``: its :func:`seat_table`)."""
    first, n = job.first, job.n
    P = len(villains)
    winner_seat = res["winner_seat"].astype(np.int64)
    rows = np.arange(n)
    winner = np.where(winner_seat >= 0, seats[rows, np.maximum(winner_seat, 0)], -1)
    wturns = np.where(winner_seat >= 0, res["turns"][rows, np.maximum(winner_seat, 0)], -1)
    cols = {
        "game": pl.Series(np.arange(first, first + n), dtype=pl.Int64),
        "winner": pl.Series([villains[w] if w >= 0 else None for w in winner], dtype=pl.String),
        "winner_index": pl.Series(winner, dtype=pl.Int64),  # position in the matchup, -1 = none
        "winner_seat": pl.Series(winner_seat, dtype=pl.Int64),
        "end": pl.Series([K.END_REASONS[e] for e in res["end"]], dtype=pl.String),
        "rounds": pl.Series(res["rounds"], dtype=pl.Int64),
        "winner_turns": pl.Series(wturns, dtype=pl.Int64),  # the winner's own turns
    }
    for s in range(P):
        cols[f"seat{s}"] = pl.Series([villains[v] for v in seats[:, s]], dtype=pl.String)
    for s in range(P):
        cols[f"seat{s}_turns"] = pl.Series(res["turns"][:, s], dtype=pl.Int64)
    return pl.DataFrame(cols).with_columns(
        pl.when(pl.col("winner_turns") >= 0).then(pl.col("winner_turns")).otherwise(None).alias("winner_turns")
    )


class _ParquetOut:
    """Stream per-game rows to a parquet file; per seat, two 45-bit masks say which card instances were
    drawn and which played (bit k = instance k: 0-29 the Villain deck, 30-44 the Fate deck; the names are in
    the file's ``simlab.data.cards`` metadata)."""

    def __init__(self, path, villains, cards):
        import pyarrow as pa
        import pyarrow.parquet as pq

        self.path = Path(path)
        self.P = len(villains)
        names = {}
        for v in set(villains):
            vr = cards.villain(v).row
            t = cards.tables
            rows = list(t.v_deck[vr]) + list(t.v_fate[vr])
            out = t.v_out[vr]
            names[v] = [cards.cards[int(r)].name if not out[i] else "" for i, r in enumerate(rows)]
        fields = [
            ("game", pa.int64()),
            ("winner", pa.string()),
            ("winner_index", pa.int64()),
            ("winner_seat", pa.int64()),
            ("end", pa.string()),
            ("rounds", pa.int64()),
            ("winner_turns", pa.int64()),
        ]
        fields += [(f"seat{s}", pa.string()) for s in range(self.P)]
        fields += [(f"seat{s}_turns", pa.int64()) for s in range(self.P)]
        fields += [(f"seat{s}_{k}", pa.uint64()) for s in range(self.P) for k in ("drawn", "played")]
        self.schema = pa.schema(fields, metadata={"simlab.cards": json.dumps(names)})
        self.tmp = None  # the file written; renamed over ``path`` once complete (simlab.data.durable)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.tmp = durable.new_temp(self.path)
            self.writer = pq.ParquetWriter(str(self.tmp), self.schema)
        except OSError as exc:
            durable.discard(self.tmp)
            raise durable.write_error(exc, self.path, "--out") from None
        self._pa = pa
        self._bits = np.uint64(1) << np.arange(K.N_INST, dtype=np.uint64)
        self.written = 0  # games in the file so far
        self.error = ""  # why a write failed (the run goes on; nothing is left at ``path``)
        self.games = None  # the run's games, for the space a full disk would have needed

    def write(self, part: pl.DataFrame, flags: np.ndarray) -> None:
        if self.error:
            return
        try:
            self._write(part, flags)
        except OSError as exc:
            self._fail(exc)
            return
        self.written += part.height

    def _fail(self, exc: OSError) -> None:
        """Drop the file being written (a parquet file cut short cannot be opened) and say why, in one line."""
        size = self.tmp.stat().st_size if self.tmp is not None and self.tmp.exists() else 0
        total = self.games or self.written
        if self.written:
            needed = int(size / self.written * total)
        else:  # nothing written yet: the planned size (simlab.runs.sizes)
            from simlab.runs.sizes import PARQUET_BYTES_PER_GAME_SEAT

            needed = total * PARQUET_BYTES_PER_GAME_SEAT * self.P or None
        with contextlib.suppress(Exception):
            self.writer.close()
        durable.discard(self.tmp)
        self.tmp = None
        err = durable.write_error(exc, self.path, "--out", needed)
        self.error = f"{err}; nothing was written there (the summary above covers all the games played)"

    def _write(self, part: pl.DataFrame, flags: np.ndarray) -> None:
        extra = {}
        for s in range(self.P):
            f = flags[:, s, :]
            extra[f"seat{s}_drawn"] = ((f & K.FLAG_DRAWN) != 0).astype(np.uint64) @ self._bits
            extra[f"seat{s}_played"] = ((f & K.FLAG_PLAYED) != 0).astype(np.uint64) @ self._bits
        table = part.with_columns(**{k: pl.Series(v, dtype=pl.UInt64) for k, v in extra.items()}).to_arrow()
        self.writer.write_table(table.select(self.schema.names).cast(self.schema))

    def close(self) -> None:
        """Finish the file and rename it over ``path`` (an interrupted run's file holds the games played)."""
        if self.tmp is None:
            return
        try:
            self.writer.close()
            durable.commit(self.tmp, self.path)
            self.tmp = None
        except OSError as exc:
            self._fail(exc)


def card_flags(path: str | Path) -> pl.DataFrame:
    """Expand a run's parquet file to one row per (game, seat, card): whether it was drawn and played."""
    import pyarrow.parquet as pq

    meta = json.loads(pq.read_schema(str(path)).metadata[b"simlab.cards"])
    games = pl.read_parquet(path)
    P = sum(1 for c in games.columns if c.startswith("seat") and c[4:].isdigit())
    frames = []
    for s in range(P):
        for villain, names in meta.items():
            sub = games.filter(pl.col(f"seat{s}") == villain)
            if sub.height == 0:
                continue
            k = np.arange(len(names), dtype=np.uint64)
            drawn = (sub[f"seat{s}_drawn"].to_numpy()[:, None] >> k) & np.uint64(1)
            played = (sub[f"seat{s}_played"].to_numpy()[:, None] >> k) & np.uint64(1)
            frames.append(
                pl.DataFrame(
                    {
                        "game": np.repeat(sub["game"].to_numpy(), len(names)),
                        "seat": s,
                        "villain": villain,
                        "instance": np.tile(np.arange(len(names)), sub.height),
                        "card": np.tile(np.array(names), sub.height),
                        "drawn": drawn.ravel().astype(bool),
                        "played": played.ravel().astype(bool),
                    }
                )
            )
    return pl.concat(frames).filter(pl.col("card") != "")  # "": a slot a card edit left out of the game
