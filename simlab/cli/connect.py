"""The options that say how a command reaches a Dask scheduler (beside ``--backend`` and ``--scheduler``): how long it
may take to answer, and whether to play on local threads when it cannot be used. Every command that takes
``--scheduler`` takes these too (tests/hostile checks it)."""

from __future__ import annotations

from typing import Annotated

import typer

from simlab.runs.backend import DEFAULT_CONNECT_TIMEOUT

ConnectTimeout = Annotated[
    float,
    typer.Option(
        "--connect-timeout", help="seconds a --scheduler has to answer in the Dask protocol before it is refused"
    ),
]
Fallback = Annotated[
    str | None,
    typer.Option("--fallback", help="when the --scheduler cannot be used: local (play on local threads) or none"),
]
DEFAULT_TIMEOUT = DEFAULT_CONNECT_TIMEOUT
