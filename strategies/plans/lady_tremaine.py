"""Lady Tremaine's plan: Wedding Bells with the Prince and a Ball Gown daughter in The Ballroom."""

PLAN = "Lady Tremaine builds the wedding step by step"
