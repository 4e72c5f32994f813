"""mindtorch.utils"""
from . import data  # noqa: F401


def __getattr__(name):
    if name == "checkpoint":  # imported on first use: it needs autograd, which imports utils
        import importlib
        return importlib.import_module(__name__ + ".checkpoint")
    if name == "swap_tensors":
        from ._swap import swap_tensors
        return swap_tensors
    raise AttributeError(f"module 'mindtorch.utils' has no attribute '{name}'")
