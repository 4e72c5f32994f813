"""Type promotion, following PyTorch's rules exactly.

promote_types is the pairwise lattice; result_type adds the category rule: dimensioned
tensors outrank zero-dim tensors, which outrank Python scalars, and a lower-priority
operand only matters when it belongs to a higher category (bool < int < float < complex).
"""
import builtins

from . import _dtype as D

_CATEGORY = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def promote_types(a, b):
    if a is b:
        return a
    if a._limited or b._limited:
        _check_limited(a, b)
    ka, kb = a.kind, b.kind
    if ka == "b":
        return b
    if kb == "b":
        return a
    if ka == "c" or kb == "c":
        ra = a.to_complex() if ka == "f" else a
        rb = b.to_complex() if kb == "f" else b
        # float64 + complex64 -> complex128: the real part keeps its width
        if ka == "f" and a is D.float64 or kb == "f" and b is D.float64:
            return D.complex128
        if ka != "c":
            return b if ka in "ui" else (rb if rb._rank >= ra._rank else ra)
        if kb != "c":
            return a if kb in "ui" else (ra if ra._rank >= rb._rank else rb)
        return a if a._rank >= b._rank else b
    if ka == "f" and kb == "f":
        if a._rank == b._rank:  # float16 with bfloat16
            return D.float32
        return a if a._rank > b._rank else b
    if ka == "f":
        return a
    if kb == "f":
        return b
    # both integral
    if ka == kb:
        return a if a._rank >= b._rank else b
    u, s = (a, b) if ka == "u" else (b, a)
    if s._rank > u._rank:
        return s
    return {1: D.int16, 2: D.int32, 3: D.int64, 4: D.int64}[u._rank]


def _check_limited(a, b):
    """PyTorch promotes float8 types with nothing else, and uint16/32/64 only with
    (non-float8) floating types."""
    group = D._FP8 if a._limited == D._FP8 or b._limited == D._FP8 else D._UINT
    if group == D._UINT and (a.kind == "f" or b.kind == "f"):
        return
    raise RuntimeError(f"Promotion for {group} is not supported, attempted to promote "
                       f"{D.scalar_type_name(a)} and {D.scalar_type_name(b)}")


def scalar_dtype(x):
    """The dtype a Python scalar takes on its own (the 'wrapped number' dtype)."""
    t = type(x)
    if t is builtins.bool:
        return D.bool
    if t is int:
        return D.int64
    if t is float:
        return D.get_default_dtype()
    if t is complex:
        return D.default_complex_dtype()
    if isinstance(x, builtins.bool):
        return D.bool
    if isinstance(x, int):
        return D.int64
    if isinstance(x, float):
        return D.get_default_dtype()
    if isinstance(x, complex):
        return D.default_complex_dtype()
    import numpy as np
    if isinstance(x, np.generic):
        return scalar_dtype(x.item())
    raise TypeError(f"expected a Tensor or a Python number, got {type(x).__name__}")


def _combine(higher, lower):
    if higher is None:
        return lower
    if lower is None:
        return higher
    if higher.kind == "c":
        return higher
    if lower.kind == "c":
        return higher.to_complex() if higher.kind == "f" else lower
    if higher.kind == "f":
        return higher
    if higher.kind == "b" or lower.kind == "f":
        return promote_types(higher, lower)
    return higher


def result_type(*args):
    """torch.result_type generalised to any number of tensors and scalars."""
    dim = zero = wrapped = None
    for x in args:
        dt = getattr(x, "dtype", None)
        if dt is not None and hasattr(x, "_shape"):
            if x._shape:
                dim = dt if dim is None else promote_types(dim, dt)
            else:
                zero = dt if zero is None else promote_types(zero, dt)
        elif x is not None:
            sd = scalar_dtype(x)
            wrapped = sd if wrapped is None else promote_types(wrapped, sd)
    return _combine(dim, _combine(zero, wrapped))


def can_cast(from_, to):
    """Whether an in-place/out= result of dtype from_ may be written to dtype to."""
    return _CATEGORY[from_.kind] <= _CATEGORY[to.kind]


# -- the public functions: PyTorch's argument checks on top of the rules above (which core
# code calls directly)

def _dtype_arg(fn, x, name, pos):
    if not isinstance(x, D.dtype):
        from ._ops._argcheck import _type_name
        raise TypeError(f"{fn}(): argument '{name}' (position {pos}) must be torch.dtype, not "
                        f"{_type_name(x)}")


def promote_types_public(type1, type2):
    _dtype_arg("promote_types", type1, "type1", 1)
    _dtype_arg("promote_types", type2, "type2", 2)
    return promote_types(type1, type2)


def can_cast_public(from_, to):
    _dtype_arg("can_cast", from_, "from_", 1)
    _dtype_arg("can_cast", to, "to", 2)
    return can_cast(from_, to)


def result_type_public(tensor, other):
    """torch.result_type of two operands (tensors or numbers; numpy scalars read as
    PyTorch's parser reads them: np.bool_ and float32 as a double...)."""
    from ._ops._argcheck import _numpy_scalar, np
    tensor, other = (_numpy_scalar(x) if isinstance(x, np.generic) else x
                     for x in (tensor, other))
    return result_type(tensor, other)


for _f, _name in ((promote_types_public, "promote_types"), (can_cast_public, "can_cast"),
                  (result_type_public, "result_type")):
    _f.__name__ = _f.__qualname__ = _name  # (as named in errors: result_type() missing ...)
