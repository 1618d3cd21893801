"""Floor 3, the game's data: card and board tables compiled from each villain's TOML (``cards``), the rule
variants (``rules``) and card and board edits (``edits``). Reads the kernels' constants and the villain registry."""
