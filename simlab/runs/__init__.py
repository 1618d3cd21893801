"""Floor 6, many games: a run's settings, plan, seats and seeds, local and Dask backends, checkpoints, tallies and
their statistics, output files, the strategy levels and experiment files. ``sim.run`` is the entry point."""
