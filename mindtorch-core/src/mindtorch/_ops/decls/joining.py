"""Joining tensors: cat (a kernel) and its aliases concat/concatenate, stack (a
decomposition into unsqueeze + cat).

The binding does not wrap `dim` for ops whose first argument is a Tensor[]; cat_plan
does it, against the first tensor that takes part.  cat_plan is the shared shape/dtype
rule that every backend's cat uses.
"""
from functools import reduce

from ... import _dtype as D
from ..._dtype import scalar_type_name
from ..._memory_format import contiguous_format
from ..._promotion import promote_types
from .._argcheck import wrap_dim
from ..registry import OPS, define, derivative, overload
from ._helpers import _type_name, has_data


def _legacy_empty(t):
    # torch skips 1-D empty tensors in cat whatever the other tensors' shapes
    return t._shape == (0,)


def cat_plan(tensors, dim):
    """(result shape, result dtype, wrapped dim, the tensors that take part) of
    cat(tensors, dim); raises torch's errors."""
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    shapes = [t._shape for t in tensors]
    if () in shapes:
        raise RuntimeError(f"zero-dimensional tensor (at position {shapes.index(())}) cannot "
                           f"be concatenated")
    dtype = tensors[0].dtype
    dtypes = [t.dtype for t in tensors]
    if dtypes.count(dtype) != len(dtypes):  # every tensor (skipped empties too) takes part
        dtype = reduce(promote_types, dtypes)
    parts = tensors if (0,) not in shapes else \
        [t for t in tensors if t._shape != (0,)]  # (see _legacy_empty)
    if not parts:
        return (0,), dtype, 0, ()
    ref = parts[0]._shape
    ndim = len(ref)
    dim = wrap_dim(dim, ndim)
    before, after = ref[:dim], ref[dim + 1:]
    if parts is tensors and shapes.count(ref) == len(shapes):  # the common case: all alike
        return before + (ref[dim] * len(shapes),) + after, dtype, dim, tuple(parts)
    size = 0
    for t in parts:
        s = t._shape
        if s != ref and (len(s) != ndim or s[:dim] != before or s[dim + 1:] != after):
            _cat_mismatch(tensors, ref, dim)
        size += s[dim]
    return before + (size,) + after, dtype, dim, tuple(parts)


def _cat_mismatch(tensors, ref, dim):
    """torch's error for the first tensor whose shape does not fit the first one's."""
    ndim = len(ref)
    for i, t in enumerate(tensors):
        if _legacy_empty(t):
            continue
        if t.ndim != ndim:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {ndim} and "
                               f"{t.ndim}")
        for k in range(ndim):
            if k != dim and t._shape[k] != ref[k]:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {dim}. "
                                   f"Expected size {ref[k]} but got size {t._shape[k]} "
                                   f"for tensor number {i} in the list.")


def stack_plan(tensors, dim):
    """(result shape, result dtype, wrapped dim) of stack(tensors, dim); raises torch's
    errors.  The shared rule of every backend's stack (and of the decomposition)."""
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    shape = tensors[0]._shape
    dim = wrap_dim(dim, len(shape) + 1)
    shapes = [t._shape for t in tensors]
    if shapes.count(shape) != len(shapes):
        i = next(i for i, s in enumerate(shapes) if s != shape)
        raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                           f"{list(shape)} at entry 0 and {list(shapes[i])} at entry {i}")
    dtype = tensors[0].dtype
    dtypes = [t.dtype for t in tensors]
    if dtypes.count(dtype) != len(dtypes):
        dtype = reduce(promote_types, dtypes)
    return shape[:dim] + (len(tensors),) + shape[dim:], dtype, dim


def _stack(tensors, dim=0):
    dim = stack_plan(tensors, dim)[2]
    unsqueeze = OPS["unsqueeze"].core_impl  # (views are metadata: no binding needed)
    return OPS["cat"].call([unsqueeze(t, dim) for t in tensors], dim)


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


# -- repetition ------------------------------------------------------------------------------

def _fresh_copy(r, self):
    """r, copied when it is still a view of self (PyTorch's repetitions never alias)."""
    return OPS["clone"].call(r, contiguous_format) if r._storage is self._storage else r


def _repeat(self, repeats):
    if len(repeats) < self.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    shape = (1,) * (len(repeats) - self.ndim) + self._shape
    out_shape = [r * n for r, n in zip(repeats, shape)]
    for v in out_shape:
        if v < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {v}: "
                               f"{out_shape}")
    # (1, n1, 1, n2, ...) expanded to (r1, n1, r2, n2, ...): each dim's copies side by side
    inter = [d for n in shape for d in (1, n)]
    spread = [d for r, n in zip(repeats, shape) for d in (r, n)]
    r = self.reshape(inter).expand(spread).reshape(out_shape)
    return _fresh_copy(r, self)


def _tile(self, reps):
    reps = tuple(reps)
    if len(reps) < self.ndim:
        reps = (1,) * (self.ndim - len(reps)) + reps
    return OPS["repeat"].call(self, reps)  # the op: its graph node is RepeatBackward0


def _tile_public(binding):
    """tile(input, dims): the op's argument is `reps` (an int[] named dims would be
    wrapped as dimensions by the binding)."""
    def tile(input, *args, **kwargs):
        if "dims" in kwargs:
            kwargs["reps"] = kwargs.pop("dims")
        return binding(input, *args, **kwargs)
    return tile


# results past this many bytes are refused before allocating (PyTorch's allocator fails
# on them on any machine of this size; NumPy would take the machine's memory first)
_MAX_RESULT_BYTES = 2 ** 34


def _check_result_size(self, rows, n):
    """A repeat_interleave result of `rows` slices (of n along dim) as PyTorch's sizes
    allow: int64 overflow refused, as PyTorch's size arithmetic; too large an allocation
    refused as its allocator does."""
    from ._helpers import has_data as _has_data
    elements = rows * (self.numel() // n if n else 0)
    nbytes = max(elements * self.dtype.itemsize, rows * 8)
    if rows >= 2 ** 63 or elements >= 2 ** 63 or nbytes >= 2 ** 63:
        raise RuntimeError("numel: integer multiplication overflow")
    if nbytes > _MAX_RESULT_BYTES and _has_data(self):
        raise RuntimeError(f"DefaultCPUAllocator: can't allocate memory: you tried to "
                           f"allocate {nbytes} bytes.")


def _repeat_interleave_sized(self, dim, output_size):
    """repeat_interleave by counts a device without data (meta) cannot read: the result
    has output_size slices along dim, as PyTorch's meta kernel gives it."""
    if output_size is None:
        raise RuntimeError("cannot repeat_interleave a meta tensor without output_size")
    index = OPS["zeros"].binding(output_size, dtype=D.int64, device=self._device)
    return OPS["index_select"].call(self, dim, index)


def _repeat_interleave(self, repeats, dim=None, output_size=None):
    from ..._tensor import Tensor
    if not isinstance(repeats, Tensor) and repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    if dim is None:  # over the flattened tensor
        self, dim = self.reshape(-1), 0
    elif not self.ndim:  # PyTorch reads self.size(dim) first
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    n = self._shape[dim]
    if isinstance(repeats, Tensor):
        if repeats.ndim > 1:
            raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
        if repeats.dtype.name not in ("int64", "int32"):
            raise NotImplementedError(f"\"repeat_interleave_cpu\" not implemented for "
                                      f"'{_type_name(repeats.dtype)}'")
        if repeats.numel() != 1 and repeats.numel() != n:
            raise RuntimeError(f"repeats must have the same size as input along dim, but "
                               f"got repeats.size(0) = {repeats.numel()} and "
                               f"input.size({dim}) = {n}")
        if not has_data(repeats):  # (the counts are data: only output_size tells the size)
            return _repeat_interleave_sized(self, dim, output_size)
        if repeats.numel() == 1:
            repeats = int(repeats.item())
        else:
            counts = repeats.tolist()  # (the result's size depends on the data)
            if any(c < 0 for c in counts):
                raise RuntimeError("repeats can not be negative")
            total = sum(counts)
            if output_size is not None and output_size != total:
                raise RuntimeError("allocated size does not match required size")
            _check_result_size(self, total, n)
            # slice i is taken where arange(total) passes the running sum of the counts
            positions = OPS["arange"].binding(total, dtype=repeats.dtype, device=self._device)
            index = OPS["searchsorted"].call(repeats.cumsum(0), positions, False, True, None,
                                             None).to(repeats.dtype)
            return OPS["index_select"].call(self, dim, index)
    if repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    if output_size is not None and output_size != n * repeats:
        raise RuntimeError("allocated size does not match required size")
    _check_result_size(self, n * repeats, n)
    shape = list(self._shape)
    r = self.unsqueeze(dim + 1).expand(shape[:dim + 1] + [repeats] + shape[dim + 1:])
    shape[dim] *= repeats
    return _fresh_copy(r.reshape(shape), self)


def _repeat_interleave_public(binding):
    """repeat_interleave(input, repeats, dim=None, *, output_size=None), and
    repeat_interleave(repeats) giving the indices of a repeated arange."""
    from ..._tensor import Tensor

    def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
        if repeats is None:  # the one-tensor form
            if isinstance(input, Tensor) and input.ndim != 1:
                raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
            if isinstance(input, Tensor) and input.dtype.name not in ("int64", "int32"):
                raise NotImplementedError(f"\"repeat_interleave_cpu\" not implemented for "
                                          f"'{_type_name(input.dtype)}'")
            idx = OPS["arange"].binding(input.numel(), dtype=input.dtype, device=input.device)
            return binding(idx, input, 0, output_size=output_size)
        if not isinstance(repeats, Tensor) and type(repeats) is not int:
            raise TypeError(f"repeat_interleave() received an invalid combination of arguments "
                            f"- got ({type(repeats).__name__}), but expected one of: (Tensor "
                            f"repeats, int dim, *, int output_size), (int repeats, int dim, *, "
                            f"int output_size)")
        return binding(input, repeats, dim, output_size=output_size)
    return repeat_interleave


def _check_vectors(tensors):
    for t in tensors:
        if t.ndim != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t._shape)}")


def _cartesian_prod(tensors):
    _check_vectors(tensors)
    if len(tensors) == 1:
        return tensors[0]
    grids = OPS["meshgrid"].call(tuple(tensors), "ij")
    return OPS["stack"].call([g.reshape(-1) for g in grids], 1)


def _block_diag(tensors):
    from ..._promotion import result_type
    mats = []
    for i, t in enumerate(tensors):
        if t.ndim > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer "
                               f"dimensions. Input {i} has {t.ndim} dimensions")
        mats.append(t.reshape(1, -1) if t.ndim == 1 else t.reshape(1, 1) if t.ndim == 0 else t)
    dtype = result_type(*tensors)  # (a 0-dim input promotes as a scalar would)
    rows, cols = sum(m._shape[0] for m in mats), sum(m._shape[1] for m in mats)
    out = OPS["zeros"].binding((rows, cols), dtype=dtype, device=mats[0]._device)
    r = c = 0
    for m in mats:
        out.narrow(0, r, m._shape[0]).narrow(1, c, m._shape[1]).copy_(m)
        r, c = r + m._shape[0], c + m._shape[1]
    out._version_counter[0] = 0
    return out


def _combinations(self, r=2, with_replacement=False):
    import itertools
    _check_vectors([self])
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return OPS["empty"].binding((0,), dtype=self.dtype, device=self._device)
    pick = itertools.combinations_with_replacement if with_replacement else \
        itertools.combinations
    combos = list(pick(range(self._shape[0]), r))
    from ..._creation import tensor
    index = tensor(combos, dtype=D.int64, device=self._device).reshape(len(combos), r)
    return OPS["index_select"].call(self, 0, index.reshape(-1)).reshape(len(combos), r)


def _tensors_varargs(empty):
    """f(*tensors) for an op over a Tensor[]; `empty()` answers a call with none."""
    def make(binding):
        def public(*tensors):
            if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
                tensors = tensors[0]
            if not tensors:
                return empty()
            return binding(list(tensors))
        return public
    return make


def _no_meshgrid():
    raise RuntimeError("meshgrid expects a non-empty TensorList")


def _empty_block_diag():
    return OPS["empty"].binding((1, 0))


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
        def join(tensors, dim=0, *, out=None, axis=None):
            if axis is not None:  # NumPy's name, which PyTorch takes too
                dim = axis
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
    define("repeat(Tensor self, int[] repeats) -> Tensor", varargs="repeats", function=False,
           decomposition=_repeat)
    overload(define("tile(Tensor self, int[] reps) -> Tensor", varargs="reps",
                    decomposition=_tile), _tile_public)
    overload(define("repeat_interleave(Tensor self, Tensor|Scalar repeats, int? dim=None, *, "
                    "int? output_size=None) -> Tensor", decomposition=_repeat_interleave),
             _repeat_interleave_public)
    overload(define("cartesian_prod(Tensor[] tensors) -> Tensor", method=False,
                    decomposition=_cartesian_prod), _tensors_varargs(_no_meshgrid))
    overload(define("block_diag(Tensor[] tensors) -> Tensor", method=False,
                    decomposition=_block_diag), _tensors_varargs(_empty_block_diag))
    define("combinations(Tensor self, int r=2, bool with_replacement=False) -> Tensor",
           method=False, decomposition=_combinations)
    for name, (decomposition, shown) in _STACKS.items():
        op = define(f"{name}(Tensor[] tensors) -> Tensor", tags=("joining",), out=True,
                    method=False, decomposition=decomposition)
        _empty_list_error(op, RuntimeError, f"{shown} expects a non-empty TensorList",
                          takes_dim=False)



# -- backward formulas (see registry.derivative) --------------------------------------------

def _cat_grad(grad, tensors_geometry, dim):
    """grad cut into the inputs' pieces along dim (from their shapes: the tensors are not
    kept); a skipped 1-D empty input gets an empty gradient."""
    grads, start = [], 0
    d = dim % grad.ndim if grad.ndim else 0
    for shape, _, _ in tensors_geometry:
        if shape == (0,):  # (see _legacy_empty)
            grads.append(grad.new_zeros((0,)))
            continue
        n = shape[d]
        grads.append(grad.narrow(d, start, n))
        start += n
    return grads


def _repeat_grad(grad, self_geometry, repeats):
    """The sum of the gradient over every copy: grad viewed as (r1, n1, r2, n2, ...) summed
    over the r dims."""
    shape = self_geometry[0]
    full = (1,) * (len(repeats) - len(shape)) + tuple(shape)
    if not full:
        return grad
    split = [d for r, n in zip(repeats, full) for d in (r, n)]
    return grad.reshape(split).sum(list(range(0, len(split), 2))).reshape(shape)


def _derivatives():
    derivative(OPS["cat"], tensors=_cat_grad)
    derivative(OPS["stack"], tensors=lambda grad, dim: list(grad.unbind(dim % grad.ndim)))
    derivative(OPS["repeat"], self=_repeat_grad)


_declare()
_derivatives()
