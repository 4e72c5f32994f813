"""mindtorch.cuda when no installed backend provides a `cuda` device: it answers the
questions scripts ask before choosing a device (`torch.cuda.is_available()`)."""


def is_available():
    return False


def device_count():
    return 0


def is_initialized():
    return False


def _unavailable(*args, **kwargs):
    raise RuntimeError("Torch not compiled with CUDA enabled: no installed mindtorch backend "
                       "provides the 'cuda' device (see `python -m mindtorch.backends`)")


current_device = set_device = synchronize = manual_seed = manual_seed_all = _unavailable
