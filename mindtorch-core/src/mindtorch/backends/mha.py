"""torch.backends.mha: whether MultiheadAttention and the Transformer encoder may take
PyTorch's inference fast path (its native kernels, whose mask handling mindtorch follows
there: nn/modules/attention.py, nn/modules/transformer.py)."""

_fastpath = [True]


def get_fastpath_enabled():
    """Whether the fast path may be taken (True unless turned off)."""
    return _fastpath[0]


def set_fastpath_enabled(value):
    """Allow (True) or forbid (False) the fast path."""
    _fastpath[0] = value  # (kept as given, as PyTorch)
