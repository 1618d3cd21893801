"""Floor 5, one game at a time: the driver that steps the kernels and asks strategies for decisions (``driver``),
the compiled-kernel warmup (``warmup``), a matchup's tables and seats (``game``), positions set up by hand
(``scenario``), readable logs (``replay``) and the invariant checks (``invariants``)."""
