"""The compile seam: how a kernel is declared, compiled, cached and called. The one place to learn numba's plumbing.

Declare a kernel with a decorator of :mod:`~simlab.kernels.compile.flags`:

* ``@kernel`` (linked into its callers), ``@helper`` (inlined at numba-IR level), ``@entry_kernel`` (Python calls
  it), ``@allocating_kernel``, ``@allocating_entry_kernel``, ``@batch_kernel`` (plays games in parallel);
* ``@part(ST, TB, RU, SP, I, returns=F)``: a large kernel compiled once on its own for the declared argument types;
  other kernels call it through its symbol as ``name.call(...)``, so its code is not copied into theirs.

Each takes ``cache=`` (a tag naming the directory its kernels are cached in, :mod:`~simlab.kernels.compile.cache`).
Tables of kernels (the rules' routines, the villains' abilities, the plans) are filled by binders their owners
register (:func:`~simlab.kernels.compile.registry.add_binder`). :func:`~simlab.kernels.compile.link.bind_all` binds
every part, callees first, and fills every table: the driver calls it before the first game. ``ref``/``as_ptr``
(:mod:`~simlab.kernels.compile.ref`) pass the state and the tables as one pointer each. The patches of numba's
internals are in :mod:`~simlab.kernels.compile.patches`, applied when this package is imported.
"""

from simlab.kernels.compile import patches

patches.apply_all()

from simlab.kernels.compile.flags import (  # noqa: E402  (the patches apply before any kernel is declared)
    allocating_entry_kernel,
    allocating_kernel,
    batch_kernel,
    entry_kernel,
    helper,
    kernel,
    part,
)
from simlab.kernels.compile.link import (  # noqa: E402
    bind,
    bind_all,
    fill,
    filled,
    set_value,
    symbol_name,
    table_caller,
    table_reader,
)
from simlab.kernels.compile.ref import RefType, as_ptr, as_ref, ref  # noqa: E402
from simlab.kernels.compile.registry import add_binder  # noqa: E402

__all__ = [
    "RefType",
    "add_binder",
    "allocating_entry_kernel",
    "allocating_kernel",
    "as_ptr",
    "as_ref",
    "batch_kernel",
    "bind",
    "bind_all",
    "entry_kernel",
    "fill",
    "filled",
    "helper",
    "kernel",
    "part",
    "ref",
    "set_value",
    "symbol_name",
    "table_caller",
    "table_reader",
]
