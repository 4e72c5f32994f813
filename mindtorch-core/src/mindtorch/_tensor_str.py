"""Tensor repr."""


def tensor_repr(t):
    return f"tensor({t.tolist()})"
