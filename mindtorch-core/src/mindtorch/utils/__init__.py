"""mindtorch.utils"""
from . import data  # noqa: F401


def __getattr__(name):
    if name in ("checkpoint", "serialization", "deterministic"):  # imported on first use
        # (checkpoint needs autograd, which imports utils; torch.load imports
        # torch.utils.serialization)
        import importlib
        return importlib.import_module(f"{__name__}.{name}")
    if name == "swap_tensors":
        from ._swap import swap_tensors
        return swap_tensors
    raise AttributeError(f"module 'mindtorch.utils' has no attribute '{name}'")
