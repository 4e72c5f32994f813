"""Joining tensors: cat (a kernel) and its aliases concat/concatenate, stack (a
decomposition into unsqueeze + cat).

The binding does not wrap `dim` for ops whose first argument is a Tensor[]; cat_plan
does it, against the first tensor that takes part.  cat_plan is the shared shape/dtype
rule that every backend's cat uses.
"""
from functools import reduce

from ..._dtype import scalar_type_name
from ..._promotion import promote_types
from .._argcheck import wrap_dim
from ..registry import OPS, define, overload


def _legacy_empty(t):
    # torch skips 1-D empty tensors in cat whatever the other tensors' shapes
    return t._shape == (0,)


def cat_plan(tensors, dim):
    """(result shape, result dtype, wrapped dim, the tensors that take part) of
    cat(tensors, dim); raises torch's errors."""
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for i, t in enumerate(tensors):
        if not t._shape:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be "
                               f"concatenated")
    # every tensor (skipped empties too) takes part in the result dtype
    dtype = reduce(promote_types, (t.dtype for t in tensors))
    parts = [(i, t) for i, t in enumerate(tensors) if not _legacy_empty(t)]
    if not parts:
        return (0,), dtype, 0, ()
    ref = parts[0][1]
    ndim = ref.ndim
    dim = wrap_dim(dim, ndim)
    size = 0
    for i, t in parts:
        if t.ndim != ndim:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {ndim} and "
                               f"{t.ndim}")
        for k in range(ndim):
            if k != dim and t._shape[k] != ref._shape[k]:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {dim}. "
                                   f"Expected size {ref._shape[k]} but got size {t._shape[k]} "
                                   f"for tensor number {i} in the list.")
        size += t._shape[dim]
    shape = ref._shape[:dim] + (size,) + ref._shape[dim + 1:]
    return shape, dtype, dim, tuple(t for _, t in parts)


def _stack(tensors, dim=0):
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    ref = tensors[0]
    dim = wrap_dim(dim, ref.ndim + 1)
    for i, t in enumerate(tensors):
        if t._shape != ref._shape:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                               f"{list(ref._shape)} at entry 0 and {list(t._shape)} at entry {i}")
    return OPS["cat"].binding([t.unsqueeze(dim) for t in tensors], dim)


def _hstack(tensors):
    tensors = [OPS["atleast_1d"].call(t) for t in tensors]
    return OPS["cat"].call(tensors, 0 if tensors[0].ndim == 1 else 1)


def _vstack(tensors):
    return OPS["cat"].call([OPS["atleast_2d"].call(t) for t in tensors], 0)


def _dstack(tensors):
    return OPS["cat"].call([OPS["atleast_3d"].call(t) for t in tensors], 2)


def _column_stack(tensors):
    # scalars and vectors become columns
    return OPS["cat"].call([t.reshape(t.numel(), 1) if t.ndim <= 1 else t for t in tensors], 1)


# name -> (decomposition, the name PyTorch's empty-list error gives)
_STACKS = {"hstack": (_hstack, "hstack"), "vstack": (_vstack, "vstack"),
           "row_stack": (_vstack, "vstack"), "dstack": (_dstack, "dstack"),
           "column_stack": (_column_stack, "column_stack")}


def _check_out_dtype(tensors, out):
    """torch.cat/stack refuse an out= tensor their result cannot be cast to (TypeError,
    unlike other ops' out=)."""
    from ..._promotion import can_cast
    from ..._tensor import Tensor
    if not isinstance(out, Tensor) or not all(isinstance(t, Tensor) for t in tensors):
        return
    dtype = reduce(promote_types, (t.dtype for t in tensors))
    if not can_cast(dtype, out.dtype):
        raise TypeError(f"torch.cat(): input types can't be cast to the desired output type "
                        f"{scalar_type_name(out.dtype)}")


def _empty_list_error(op, cls, message, takes_dim=True):
    """Make op's public binding raise torch's error for an empty list.  (The generated
    binding finds no device in an empty list and raises a TypeError before any kernel
    can object.)"""
    def make(generated):
        def join(tensors, dim=0, *, out=None):
            if isinstance(tensors, (list, tuple)):
                if not tensors:
                    raise cls(message)
                if out is not None:
                    _check_out_dtype(tensors, out)
            return generated(tensors, dim, out=out)

        def stack(tensors, *, out=None):
            if isinstance(tensors, (list, tuple)):
                if not tensors:
                    raise cls(message)
                if out is not None:
                    _check_out_dtype(tensors, out)
            return generated(tensors, out=out)
        return join if takes_dim else stack
    overload(op, make)


def _declare():
    cat = define("cat(Tensor[] tensors, int dim=0) -> Tensor", tags=("joining",), out=True,
                 method=False)
    for alias in ("concat", "concatenate"):
        define(f"{alias}(Tensor[] tensors, int dim=0) -> Tensor", tags=("joining",),
               out=True, method=False, decomposition=lambda tensors, dim: cat.call(tensors, dim))
    define("stack(Tensor[] tensors, int dim=0) -> Tensor", tags=("joining",), out=True,
           method=False, decomposition=_stack)
    for name in ("cat", "concat", "concatenate"):
        _empty_list_error(OPS[name], ValueError, "torch.cat(): expected a non-empty list of "
                                                 "Tensors")
    _empty_list_error(OPS["stack"], RuntimeError, "stack expects a non-empty TensorList")
    for name, (decomposition, shown) in _STACKS.items():
        op = define(f"{name}(Tensor[] tensors) -> Tensor", tags=("joining",), out=True,
                    method=False, decomposition=decomposition)
        _empty_list_error(op, RuntimeError, f"{shown} expects a non-empty TensorList",
                          takes_dim=False)


_declare()
