"""Logged values (mindtorch tensors, NumPy arrays, Python numbers) as NumPy arrays."""
import mindtorch

from ..._lazy import lazy

np = lazy("numpy", globals())


def make_np(x):
    """`x` as a NumPy array: arrays as they are, a scalar as a 1-element array, a tensor
    through its public API (bfloat16 as float16, NumPy having no bfloat16, as PyTorch does)."""
    if isinstance(x, np.ndarray):
        return x
    if np.isscalar(x):
        return np.array([x])
    if isinstance(x, mindtorch.Tensor):
        if x.device.type == "meta":  # no data: PyTorch logs a random placeholder
            return np.random.randn(1)
        if x.dtype is mindtorch.bfloat16:
            x = x.to(mindtorch.float16)
        return x.detach().cpu().numpy()
    raise NotImplementedError(f"Got {type(x)}, but numpy array or torch tensor are expected.")
