# ruff: noqa: N999 (the module is named as PyTorch's)
"""torch._VF: the functions torch.<name> binds, as library code reaches them
(`_VF.lstm(...)`, `_VF.einsum(...)`): here mindtorch's public functions."""


def __getattr__(name):
    import mindtorch
    try:
        return getattr(mindtorch, name)
    except AttributeError:
        raise AttributeError(f"module 'torch._VF' has no attribute '{name}'") from None
