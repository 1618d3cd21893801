"""Counter-based seeding and a splitmix64 stream kept inside the game state.

Each game's stream is derived from (seed, game index) alone, so a game is the same whatever thread,
chunk or process plays it, and the stream lives in ``State.rng`` so a copied state replays exactly.
"""

import numpy as np

from simlab.kernels.compile import kernel

GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@kernel
def mix64_nb(z):
    """splitmix64's output function: a bijective avalanche of 64 bits."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@kernel
def seed_stream_nb(rng, seed, game_index):
    """Start ``rng`` (uint64[1]) at the stream of game ``game_index`` of run ``seed``."""
    a = mix64_nb(np.uint64(seed) + GOLDEN)
    rng[0] = mix64_nb(a ^ (np.uint64(game_index) * GOLDEN + np.uint64(0x632BE59BD9B4E019)))


@kernel
def next_u64_nb(rng):
    x = rng[0] + GOLDEN
    rng[0] = x
    return mix64_nb(x)


@kernel
def randint_nb(rng, n):
    """Uniform integer in [0, n) for n >= 1 (the modulo bias is below 2**-40 for n < 2**13)."""
    return np.int64((next_u64_nb(rng) >> np.uint64(11)) % np.uint64(n))


@kernel
def shuffle_nb(rng, a, n):
    """Fisher-Yates shuffle of a[:n] in place."""
    for i in range(n - 1, 0, -1):
        j = randint_nb(rng, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t
