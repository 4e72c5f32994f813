"""Building blocks for samples: tensors made the same way on every device."""
import mindtorch

_i64 = mindtorch.int64


def t(device, shape, dtype=mindtorch.float32, transposed=False):
    """Random values of `dtype` (made on the host from the global generator, so a seed
    gives the same values on every device); transposed=True gives a non-contiguous
    tensor of the same shape."""
    if dtype.is_floating_point or dtype.is_complex:
        t = mindtorch.randn(tuple(shape[::-1] if transposed else shape)).to(dtype)
    elif dtype is mindtorch.bool:
        t = mindtorch.randn(tuple(shape[::-1] if transposed else shape)) > 0
    else:
        t = mindtorch.randint(-5, 6, shape[::-1] if transposed else shape).to(dtype)
    t = t.t() if transposed else t
    return t.to(device)


def ix(d, values, dtype=_i64):
    """An index tensor with exactly these values."""
    return mindtorch.tensor(values, dtype=dtype).to(d)
