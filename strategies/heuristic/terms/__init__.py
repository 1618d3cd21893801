"""The scoring terms of the heuristic: what each kind of thing on the board is worth to the player deciding.

``heroes``: the harm a Hero does and what defeating one is worth; ``cards``: the villain's own cards (playing,
activating, moving, keeping and discarding them, and Power); ``fate``: the harm a Fate card does to its target;
``mover``: what each location offers the Villain Mover. Each imports only the ones before it in that order.
"""
