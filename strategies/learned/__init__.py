"""Learned play: position features, the learned value model, and the apprentice policy (expert iteration)."""
