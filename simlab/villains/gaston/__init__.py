"""Gaston (Beauty and the Beast): his card and board data are ``cards.toml`` in this folder."""
