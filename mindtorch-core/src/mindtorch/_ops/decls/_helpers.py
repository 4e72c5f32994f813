"""Shared pieces of op declarations."""
from ..._dtype import scalar_type_name as _type_name
from ..registry import OPS, define


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
        result = op.call(self, *args)
        if not _promotion.can_cast(result.dtype, self.dtype):
            raise RuntimeError(f"result type {_type_name(result.dtype)} can't be cast to the "
                               f"desired output type {_type_name(self.dtype)}")
        if result._shape != self._shape:
            raise RuntimeError(f"output with shape {list(self._shape)} doesn't match the "
                               f"broadcast shape {list(result._shape)}")
        return self.copy_(result)

    return define(text, tags=op.tags | {"inplace"}, promotion=op.promotion,
                  decomposition=inplace, function=False)




__all__ = ["OPS", "define", "define_inplace"]
