"""torch.backends.mps: no mindtorch backend provides Apple's Metal (mps) device."""


def is_available():
    return False


def is_built():
    return False
