"""The Horned King's plan: a Cauldron Born at every location."""

PLAN = "the Horned King spreads Ancient Soldiers, claims and powers the Cauldron, swaps every turn"
