"""Floor 7, questions answered by many runs: the matchup matrix, skill ladder, card impact, what-ifs and sweeps,
difficulty, robust verdicts, leverage, calibration against real play and tuning. Each returns frames; none draws."""
