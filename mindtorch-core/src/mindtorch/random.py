"""torch.random: seeding and the default generators' state."""
from ._random import (  # noqa: F401
    Generator, default_generator, fork_rng, get_rng_state, initial_seed, manual_seed, seed,
    set_rng_state,
)


def thread_safe_generator():
    """The worker's own Generator inside a DataLoader thread worker; None elsewhere (the
    default generator is then used), as PyTorch's."""
    from .utils.data import get_worker_info
    info = get_worker_info()
    if info is not None and info.worker_method == "thread" and info.rng is not None:
        return info.rng.torch_generator
    return None
