"""The fused multiply-adds addcmul and addcdiv (self + value * t1 * t2, self + value * t1 /
t2) as PyTorch's cpu kernels compute them: in the operands' common type (float32 for
16-bit floats), with `value` converted to that type rather than promoted with it; the
result laid out as their TensorIterator over (self, tensor1, tensor2) lays it out."""
from ... import _dtype
from ..._memory_format import iter_laid_out


def _cast(t, dtype):
    return t if t.dtype is dtype else t.to(dtype)


def _addcdiv(self, tensor1, tensor2, value=1):
    import mindtorch as M
    if not (tensor1.dtype.is_floating_point or tensor1.dtype.is_complex or
            tensor2.dtype.is_floating_point or tensor2.dtype.is_complex):
        raise RuntimeError("Integer division with addcdiv is no longer supported, and in a "
                           "future  release addcdiv will perform a true division of tensor1 "
                           "and tensor2. The historic addcdiv behavior can be implemented as "
                           "(input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) "
                           "for integer inputs and as (input + value * tensor1 / tensor2) for "
                           "float inputs. The future addcdiv behavior is just the latter "
                           "implementation: (input + value * tensor1 / tensor2), for all "
                           "dtypes.")
    value = _fused_value(self, tensor1, tensor2, value, "addcdiv_cpu_out")
    return iter_laid_out(_in_opmath(lambda s, t1, t2: M.add(s, value * t1 / t2), self,
                                    tensor1, tensor2), self, tensor1, tensor2)


def _fused_value(self, tensor1, tensor2, value, kernel):
    """value as PyTorch's fused kernels (addcmul, addcdiv) take it: not promoted with the
    tensors but converted, with c10's overflow check, to their common type (its float32
    compute type for 16-bit floats), so an integer computation truncates it."""
    from ..._promotion import result_type
    from ..._scalars import checked_scalar
    dt = result_type(self, tensor1, tensor2)
    if dt is _dtype.bool:
        raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')
    if not isinstance(value, (bool, int, float, complex)):
        return value
    checked_scalar(value, _dtype.float32 if dt.itemsize == 2 and dt.kind == "f" else dt)
    if dt.kind == "c":
        return value
    value = value.real if isinstance(value, complex) else value
    return int(value) if dt.kind in "ui" else float(value)


def _addcmul(self, tensor1, tensor2, value=1):
    return iter_laid_out(_addcmul_values(self, tensor1, tensor2, value), self, tensor1, tensor2)


def _addcmul_values(self, tensor1, tensor2, value):
    """self + value * t1 * t2 as PyTorch's cpu kernel, in the operands' common type: for
    float32 (and 16-bit floats, in float32) fma(value * t1, t2, self), one rounding of the
    product-sum, emulated in float64 where the float32 product is exact."""
    from ..._promotion import result_type
    value = _fused_value(self, tensor1, tensor2, value, "addcmul_cpu_out")
    dt = result_type(self, tensor1, tensor2)
    if dt not in (_dtype.float32, _dtype.float16, _dtype.bfloat16):
        return _cast(self, dt) + value * _cast(tensor1, dt) * _cast(tensor2, dt)
    f32, f64 = _dtype.float32, _dtype.float64
    # (each operand in the common type first, as TensorIterator casts a float32 0-dim
    # tensor2 to a 16-bit self's type, then in float32)
    scaled_t1 = (value * _cast(tensor1, dt).to(f32)).to(f64)
    return (self.to(f64) + scaled_t1 * _cast(tensor2, dt).to(f64)).to(f32).to(dt)


def _in_opmath(fn, *tensors):
    """fn of the tensors, computed in float32 and rounded once when the result is a 16-bit
    float, as PyTorch's fused cpu kernels (addcmul, addcdiv) do."""
    from ..._promotion import result_type
    dt = result_type(*tensors)
    if dt is not _dtype.float16 and dt is not _dtype.bfloat16:
        return fn(*(_cast(t, dt) for t in tensors))  # (each operand in the common type first)
    return fn(*(_cast(t, dt).to(_dtype.float32) for t in tensors)).to(dt)
