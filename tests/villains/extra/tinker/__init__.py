"""The Tinker, a villain for the tests only: ``cards.toml`` (Gaston's decks and board under new names, a new
ability and a new objective) and ``abilities.py`` (their routine and check). It is registered as a folder would be,
with no file of simlab/ or strategies/ changed (tests/villains/test_registry.py)."""
