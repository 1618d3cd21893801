"""The Horned King (The Black Cauldron): his card and board data, with the Black Cauldron tile, are
``cards.toml`` in this folder."""
