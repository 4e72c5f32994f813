"""torch.backends.mkl: mindtorch's cpu kernels run on NumPy, not MKL."""
VERBOSE_OFF, VERBOSE_ON = 0, 1


def is_available():
    return False


class verbose:
    """Context manager for MKL's verbose output: nothing to switch here."""

    def __init__(self, enable):
        self.enable = enable

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
