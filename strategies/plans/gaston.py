"""Gaston's plan: remove all of his Obstacles."""

PLAN = "Gaston clears Belle and values removal per Power"
