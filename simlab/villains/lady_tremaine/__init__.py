"""Lady Tremaine (Cinderella): her card and board data are ``cards.toml`` in this folder."""
