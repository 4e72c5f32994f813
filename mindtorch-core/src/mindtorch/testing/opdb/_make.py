"""Building blocks for samples: tensors made the same way on every device."""
import mindtorch

_i64 = mindtorch.int64


def t(device, shape, dtype=mindtorch.float32, transposed=False):
    """Random values of `dtype` (made on the host from the global generator, so a seed
    gives the same values on every device); transposed=True gives a non-contiguous
    tensor of the same shape (dims reversed in memory; 1-d: every other element)."""
    shape = tuple(shape)
    if transposed and len(shape) == 1:
        return t(device, (2 * shape[0],), dtype)[::2]
    made = shape[::-1] if transposed else shape
    if dtype.is_complex:  # both parts random (a real value cast would test only half)
        x = mindtorch.randn(made, dtype=mindtorch.complex128).to(dtype)
    elif dtype.is_floating_point:
        x = mindtorch.randn(made).to(dtype)
    elif dtype is mindtorch.bool:
        x = mindtorch.randn(made) > 0
    else:
        x = mindtorch.randint(-5, 6, made).to(dtype)
    if transposed and len(shape) > 1:
        x = x.permute(tuple(range(len(shape)))[::-1])
    return x.to(device)


def ix(d, values, dtype=_i64):
    """An index tensor with exactly these values."""
    return mindtorch.tensor(values, dtype=dtype).to(d)
