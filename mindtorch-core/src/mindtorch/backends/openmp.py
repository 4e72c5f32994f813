"""torch.backends.openmp: mindtorch's cpu kernels do not use OpenMP."""


def is_available():
    return False
