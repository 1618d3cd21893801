"""The rules that wait for players' decisions: one routine a rule (see :mod:`simlab.kernels.rules.frame`)."""
