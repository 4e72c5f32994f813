"""Shared pieces of op declarations."""
from ..._dtype import scalar_type_name as _type_name
from ..registry import OPS, define, derivative, nondifferentiable


def define_inplace(op):
    """Declare `op.name + '_'`, writing op's result into self.  Decomposes into the
    out-of-place op plus copy_, with PyTorch's checks on dtype and shape; a backend may
    register a fused kernel instead."""
    from ... import _promotion
    args = op.text[op.text.index("(") + 1:op.text.rindex(") ->")]
    first, _, rest = args.partition(",")
    first = first.replace("Tensor|Scalar self", "Tensor(a!) self").replace(
        "Tensor self", "Tensor(a!) self")
    text = f"{op.name}_({first}{',' + rest if rest else ''}) -> Tensor(a!)"

    def inplace(self, *args):
        from ...autograd import _record
        recording = _record.recording(self, *args)
        # a formula that reads self needs the value from before the write
        src = self.clone() if recording and _record.reads_self(op) else self
        result = op.call(src, *args)
        if not _promotion.can_cast(result.dtype, self.dtype):
            raise RuntimeError(f"result type {_type_name(result.dtype)} can't be cast to the "
                               f"desired output type {_type_name(self.dtype)}")
        if result._shape != self._shape:
            raise RuntimeError(f"output with shape {list(self._shape)} doesn't match the "
                               f"broadcast shape {list(result._shape)}")
        if recording and result._grad_fn is not None and self._base is None and \
                result.dtype is self.dtype:
            from ...autograd.grad_mode import no_grad
            with no_grad():
                self.copy_(result)
            _record.adopt_history(self, result)  # the graph names the op, not a copy
            return self
        return self.copy_(result)

    return define(text, tags=op.tags | {"inplace"}, promotion=op.promotion,
                  decomposition=inplace, function=False)




__all__ = ["OPS", "define", "define_inplace", "derivative", "nondifferentiable"]
