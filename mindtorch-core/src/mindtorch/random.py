"""torch.random: seeding and the default generators' state."""
from ._random import (  # noqa: F401
    Generator, default_generator, fork_rng, get_rng_state, initial_seed, manual_seed, seed,
    set_rng_state,
)
