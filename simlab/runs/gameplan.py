"""A run's games as a plan (:class:`GamePlan`): everything that decides them, cut into chunks any process can play."""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

import numba
import numpy as np

from simlab.data.cards import villain_hint
from simlab.data.edits import normalise
from simlab.data.rules import DEFAULT_MAX_TURNS
from simlab.errors import InputError
from simlab.kernels import const as K
from simlab.runs.output import _frame
from strategies.mixture import play_spec, slot_table

MAX_GAMES = 2**63 - 1  # game indices are 63-bit (int64 seat tables, uint64 streams)


def check_games(n_games) -> int:
    """``n_games`` if it is a whole number of games from 1 to :data:`MAX_GAMES`, else an InputError."""
    if not isinstance(n_games, int | np.integer) or isinstance(n_games, bool) or not 1 <= n_games <= MAX_GAMES:
        raise InputError(f"the number of games must be a whole number from 1 to 2**63 - 1, got {n_games!r}")
    return int(n_games)


def check_strategies(strategies, villains, where: str = "") -> dict[str, str]:
    """``strategies`` (villain -> strategy name or path) as a dict, if every villain is one of ``villains``
    and every strategy resolves; else an InputError naming the first bad one."""
    strategies = dict(strategies or {})
    for villain, name in strategies.items():
        if villain not in villains:
            raise InputError(
                f"--strategy names villain {villain!r}, which is not in {where or 'the game'}; "
                f"{villain_hint(villain)}choose from {', '.join(dict.fromkeys(villains))}"
            )
        play_spec(name)
    return strategies


DEFAULT_CHUNK = 4096


@dataclass(frozen=True)
class GamePlan:
    """Everything that decides a run's games, checked by the caller: game i of a plan is the same game on any
    backend, thread count or machine. :meth:`jobs` cuts it into chunks any process can play."""

    villains: tuple[str, ...]
    strategies: tuple[str, ...]  # per matchup entry: a strategy name or TOML path
    n_games: int
    seed: int = 0
    variants: tuple[tuple[str, str], ...] = ()  # (rule variant, value), sorted; given as a dict or pairs
    max_turns: int = DEFAULT_MAX_TURNS
    order: str = "rotate"  # seat order: rotate, random or a villain who always plays first
    edits: tuple = ()  # simlab.data.edits.CardEdit, normalised; given as edits or "CARD:ATTRIBUTE=VALUE" strings
    chunk: int = DEFAULT_CHUNK

    def __post_init__(self):
        set_ = object.__setattr__  # frozen: normalise the fields once, here
        set_(self, "villains", tuple(self.villains))
        set_(self, "strategies", tuple(self.strategies))
        set_(self, "variants", tuple(sorted((k, str(v)) for k, v in dict(self.variants or {}).items())))
        set_(self, "edits", normalise(self.edits))

    @functools.cached_property
    def _slots(self) -> tuple[tuple[int, ...], tuple[tuple[float, ...], ...], tuple]:
        """Kernel ids and parameter vectors per strategy slot, and each entry's draw over the slots when a mixture
        plays (:func:`strategies.mixture.slot_table`; without one, slot e is entry e). Resolved once, not per
        chunk."""
        specs, draws = slot_table([play_spec(s, self.villains) for s in self.strategies])
        kernels = tuple(int(s.kernel) for s in specs)
        return kernels, tuple(tuple(float(x) for x in s.vector()) for s in specs), draws

    @property
    def kernels(self) -> tuple[int, ...]:
        """The strategy kernel ids the seats play (those compiled on first use: :func:`simlab.game.warmup.ensure`)."""
        return tuple(self._slots[0])

    @property
    def needs_search(self) -> bool:
        """A seat plays the search player (compiled on first use: :func:`simlab.game.warmup.ensure`)."""
        from strategies import KERNELS

        return KERNELS["search"] in self._slots[0]

    def jobs(self, mode: str = "games", skip=()):
        """The chunks as :class:`simlab.runs.backend.ChunkJob` s, minus those starting at a game index in ``skip``."""
        for first in range(0, self.n_games, self.chunk):
            if first not in skip:
                yield self.job(first, min(self.chunk, self.n_games - first), mode)

    def job(self, first: int, n: int, mode: str = "games"):
        from simlab.runs.backend import ChunkJob, fingerprint

        fp = fingerprint()
        kernels, params, draws = self._slots
        return ChunkJob(
            self.villains,
            kernels,
            params,
            int(self.seed),
            first,
            n,
            self.variants,
            int(self.max_turns),
            self.order,
            self.edits,
            mode,
            (fp["version"], fp["rules_hash"]),
            draws,
        )

    def settings(self, matchup: str) -> dict:
        """The plan as JSON-able data with the install's fingerprint (checkpoints compare it)."""
        from simlab.runs.backend import fingerprint

        return {
            "matchup": matchup,
            "n_games": self.n_games,
            "seed": self.seed,
            "strategies": [str(s) for s in self.strategies],
            "strategy_vectors": [[k, *v] for k, v in zip(*self._slots[:2], strict=True)],
            **({"strategy_draws": [[list(p) for p in d] for d in self._slots[2]]} if self._slots[2] else {}),
            "variants": dict(self.variants),
            "max_turns": self.max_turns,
            "first": self.order,
            "edits": [str(e) for e in self.edits],
            "chunk": self.chunk,
            "simlab": fingerprint(),
        }


def _set_threads(threads) -> None:
    if threads is not None:
        if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
            raise InputError(f"threads must be between 1 and {numba.config.NUMBA_NUM_THREADS}, got {threads}")
        numba.set_num_threads(threads)


def _chunks(plan: GamePlan, threads=None, want_flags=False):
    """Yield (per-game frame, seats, raw arrays) chunk by chunk, played on the current backend."""
    from simlab.runs.backend import current, play_chunk

    _set_threads(threads)
    jobs, sent = itertools.tee(plan.jobs("flags" if want_flags else "games"))
    for job, res in zip(jobs, current().map(play_chunk, sent), strict=True):
        seats = job.seats()
        raw = {
            "winner_seat": res["winner_seat"].astype(np.int64),
            "rounds": res["rounds"].astype(np.int64),
            "turns": res["turns"].astype(np.int64),
            "flags": res.get("flags", np.zeros((0, len(plan.villains), K.N_INST), np.int8)),
        }
        yield _frame(plan.villains, job, res, seats), seats, raw
