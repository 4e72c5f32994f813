"""make_tensor: torch.testing.make_tensor for mindtorch.

Values are drawn on the host (cpu) from mindtorch's default generator and then moved to
`device`, so a device needs no random kernels of its own to be tested; the layout
(noncontiguous, memory_format) is made on the device."""
import collections.abc
import math
import warnings

import mindtorch

from .. import _dtype as D

_INTEGRAL = (D.uint8, D.int8, D.int16, D.int32, D.int64, D.uint16, D.uint32, D.uint64)
_FLOATING = (D.float16, D.bfloat16, D.float32, D.float64)
_COMPLEX = (D.complex64, D.complex128)


def make_tensor(*shape, dtype, device, low=None, high=None, requires_grad=False,
                noncontiguous=False, exclude_zero=False, memory_format=None):
    """A tensor of `shape`, `dtype` on `device` with values uniformly drawn from
    [low, high), as torch.testing.make_tensor: defaults bool [0, 2), unsigned [0, 10),
    signed [-9, 10), floating and complex [-9, 9); low/high clamped to the dtype's finite
    range; noncontiguous=True gives a non-contiguous view (when there are 2+ elements);
    exclude_zero replaces zeros by 1 (integers, bool) or the dtype's tiny."""
    if len(shape) == 1 and isinstance(shape[0], collections.abc.Sequence):
        shape = shape[0]
    shape = tuple(shape)
    if noncontiguous and memory_format is not None:
        raise ValueError(f"The parameters `noncontiguous` and `memory_format` are mutually "
                         f"exclusive, but got noncontiguous={noncontiguous} and "
                         f"memory_format={memory_format}")
    if requires_grad and (dtype is D.bool or dtype in _INTEGRAL):
        raise ValueError(f"`requires_grad=True` is not supported for boolean and integral "
                         f"dtypes, but got dtype={dtype}")
    noncontiguous = noncontiguous and math.prod(shape) > 1
    if noncontiguous:
        shape = (*shape[:-1], 2 * shape[-1])

    def bounds(lowest, highest, default_low, default_high):
        lo = default_low if low is None else low
        hi = default_high if high is None else high
        if any(isinstance(v, float) and math.isnan(v) for v in (lo, hi)):
            raise ValueError(f"`low` and `high` cannot be NaN, but got low={lo} and high={hi}")
        if lo == hi and dtype in _FLOATING + _COMPLEX:
            warnings.warn("Passing `low==high` to `torch.testing.make_tensor` for floating or "
                          "complex types is deprecated since 2.1 and will be removed in 2.3. "
                          "Use `torch.full(...)` instead.", FutureWarning, stacklevel=3)
        elif lo >= hi:
            raise ValueError(f"`low` must be less than `high`, but got {lo} >= {hi}")
        elif hi < lowest or lo >= highest:
            raise ValueError(f"The value interval specified by `low` and `high` is [{lo}, {hi}), "
                             f"but {dtype} only supports [{lowest}, {highest})")
        lo, hi = min(max(lo, lowest), highest), min(max(hi, lowest), highest)
        if dtype is D.bool or dtype in _INTEGRAL:
            return math.ceil(lo), math.ceil(hi)
        return lo, hi

    if dtype is D.bool:
        lo, hi = bounds(0, 2, 0, 2)
        result = mindtorch.randint(lo, hi, shape, dtype=D.bool)
    elif dtype in _INTEGRAL:
        info = D.iinfo(dtype)
        lo, hi = bounds(info.min, info.max + (dtype is not D.int64), -9, 10)
        result = mindtorch.randint(lo, hi, shape, dtype=dtype)
    elif dtype in D.FLOAT8 and dtype is not D.float8_e8m0fnu:  # (PyTorch refuses e8m0)
        # drawn as float32 within the dtype's range, then cast
        info = D.finfo(dtype)
        lo, hi = bounds(info.min, info.max, -9, 9)
        result = mindtorch.empty(shape, dtype=D.float32).uniform_(lo, hi).to(dtype)
    elif dtype in _FLOATING + _COMPLEX:
        info = D.finfo(dtype)
        lo, hi = bounds(info.min, info.max, -9, 9)
        result = mindtorch.empty(shape, dtype=dtype)
        real = mindtorch.view_as_real(result) if dtype in _COMPLEX else result
        if hi - lo >= info.max:  # the width would overflow: draw half of it, then double
            real.uniform_(lo / 2, hi / 2).mul_(2)
        else:
            real.uniform_(lo, hi)
    else:
        raise TypeError(f"The requested dtype '{dtype}' is not supported by "
                        f"torch.testing.make_tensor(). To request support, file an issue at: "
                        f"https://github.com/pytorch/pytorch/issues")
    if exclude_zero:
        result[result == 0] = 1 if dtype is D.bool or dtype in _INTEGRAL else \
            D.finfo(dtype).tiny
    result = result.to(device)
    if noncontiguous:
        result = result[..., 1::2]
    elif memory_format is not None:
        result = result.clone(memory_format=memory_format)
    if dtype in _FLOATING + _COMPLEX + D.FLOAT8:
        result.requires_grad = requires_grad
    return result
