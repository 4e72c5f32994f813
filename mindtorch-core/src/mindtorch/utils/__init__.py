"""mindtorch.utils"""
from . import data  # noqa: F401


def __getattr__(name):
    if name == "checkpoint":  # imported on first use: it needs autograd, which imports utils
        import importlib
        return importlib.import_module(__name__ + ".checkpoint")
    raise AttributeError(f"module 'mindtorch.utils' has no attribute '{name}'")
