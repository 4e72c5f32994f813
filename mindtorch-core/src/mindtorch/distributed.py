"""torch.distributed: mindtorch has no process groups.  is_available() is False, so the
helpers scripts write (`if dist.is_available() and dist.is_initialized(): ...`) take
their single-process branch; querying a group raises PyTorch's error for a process that
never called init_process_group."""


def is_available():
    return False


def is_initialized():
    return False


def is_torchelastic_launched():
    """Started by torchrun (which sets TORCHELASTIC_RUN_ID): launchers' own question."""
    import os
    return os.getenv("TORCHELASTIC_RUN_ID") is not None


def _no_group(*args, **kwargs):
    raise ValueError("Default process group has not been initialized, please make sure to "
                     "call init_process_group.")


get_rank = get_world_size = get_backend = barrier = all_reduce = broadcast = all_gather = \
    reduce = destroy_process_group = new_group = _no_group


def init_process_group(*args, **kwargs):
    raise RuntimeError("mindtorch has no distributed backend: torch.distributed.is_available() "
                       "is False")
