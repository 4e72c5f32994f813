"""View ops: computed in core from shape/stride/offset (invariant 4), shared by every
device.  Each returns a tensor sharing storage and version counter with its input.  The
splitting views (split, chunk, unbind, tensor_split, hsplit, ...) are in `splitting`."""
import warnings

from ..._dtype import scalar_type_name
from ..._shapes import numel as _numel
from ..._warn_once import _user_level, warn_once
from ..registry import OPS, define, derivative, nondifferentiable
from ._prechecks import _check_movedim, _check_narrow, _check_permute, _checked_first

VIEW = ("view",)


def infer_size(shape, numel):
    """Resolve a single -1 in a requested shape against numel."""
    shape = list(shape)
    neg = []
    for i, s in enumerate(shape):  # (PyTorch's checks, in its order)
        if s == -1:
            if neg:
                raise RuntimeError("only one dimension can be inferred")
            neg.append(i)
        elif s < -1:
            raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape {shape}")
    known = _numel(s for s in shape if s != -1)
    if neg:
        if known == 0 and numel == 0:
            raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {shape} because "
                               f"the unspecified dimension size -1 can be any value and is "
                               f"ambiguous")
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(_fmt(shape))}' is invalid for input of size {numel}")
        shape[neg[0]] = numel // known
    elif known != numel:
        raise RuntimeError(f"shape '{list(_fmt(shape))}' is invalid for input of size {numel}")
    return tuple(shape)


def _fmt(shape):
    return [s for s in shape]


def view_strides(old_shape, old_stride, new_shape):
    """Strides that let new_shape view memory laid out as (old_shape, old_stride), or None
    (PyTorch's computeStride: dims may only merge where they are contiguous together)."""
    if not old_shape:  # 0-dim: any 1-element shape, strides all 1 (as PyTorch)
        return (1,) * len(new_shape)
    if _numel(old_shape) == 0:  # empty: same shape keeps its strides, else resize's
        if tuple(old_shape) == tuple(new_shape):
            return tuple(old_stride)
        from ..._tensor import contiguous_strides
        return contiguous_strides(new_shape)
    new_stride = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base_stride = old_stride[-1] if old_stride else 1
    tensor_numel, view_numel = 1, 1
    for tensor_d in range(len(old_shape) - 1, -1, -1):
        tensor_numel *= old_shape[tensor_d]
        if tensor_d == 0 or (old_shape[tensor_d - 1] != 1 and
                             old_stride[tensor_d - 1] != tensor_numel * chunk_base_stride):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new_stride[view_d] = view_numel * chunk_base_stride
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base_stride = old_stride[tensor_d - 1]
                tensor_numel, view_numel = 1, 1
    if view_d != -1:
        return None
    return tuple(new_stride)


def view(self, size):
    shape = infer_size(size, self.numel())
    stride = view_strides(self._shape, self._stride, shape)
    if stride is None:
        raise RuntimeError("view size is not compatible with input tensor's size and stride (at "
                           "least one dimension spans across two contiguous subspaces). Use "
                           ".reshape(...) instead.")
    return self._view(shape, stride, self._offset)


def reshape(self, shape):
    shape = infer_size(shape, self.numel())
    stride = view_strides(self._shape, self._stride, shape)
    if stride is not None:
        return self._view(shape, stride, self._offset)
    return _unsafe_view(self.contiguous(), shape)  # a copy, no view (as PyTorch)


def as_strided(self, size, stride, storage_offset=None):
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in stride):
        raise RuntimeError("as_strided: Negative strides are not supported at the moment, got "
                           f"strides: {list(stride)}")
    if any(n < 0 for n in size):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and "
                           f"strides={list(stride)}")
    offset = self._offset if storage_offset is None else storage_offset
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    if _numel(size):
        last = offset + sum((n - 1) * s for n, s in zip(size, stride))
        if (last + 1) * self.dtype.itemsize > self._storage.nbytes():
            raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage "
                               f"offset {offset}, and itemsize {self.dtype.itemsize} requiring a "
                               f"storage size of {(last + 1) * self.dtype.itemsize} are out of "
                               f"bounds for storage of size {self._storage.nbytes()}")
    return self._view(size, stride, offset)


def transpose(self, dim0, dim1):
    shape, stride = list(self._shape), list(self._stride)
    if shape:
        shape[dim0], shape[dim1] = shape[dim1], shape[dim0]
        stride[dim0], stride[dim1] = stride[dim1], stride[dim0]
    return self._view(shape, stride, self._offset)


def _swapaxes(self, axis0, axis1):
    # (PyTorch names swapaxes' dims axis0/axis1, which the binding does not wrap)
    from .._argcheck import wrap_dim
    return transpose(self, wrap_dim(axis0, self.ndim), wrap_dim(axis1, self.ndim))


def t(self):
    shape, stride = self._shape, self._stride
    if len(shape) == 2:  # (a linear layer's weight: the common case, swapped inline)
        return self._view((shape[1], shape[0]), (stride[1], stride[0]), self._offset)
    if len(shape) > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is "
                           f"{len(shape)}D")
    return self._view(shape, stride, self._offset)


def permute(self, dims):
    if len(dims) != self.ndim:
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does "
                           f"not match the length of the desired ordering of dimensions i.e. "
                           f"input.dim() = {self.ndim} is not equal to len(dims) = {len(dims)}")
    return self._view([self._shape[d] for d in dims], [self._stride[d] for d in dims],
                      self._offset)


def expand(self, size):
    if len(size) < self.ndim:
        name = scalar_type_name(self.dtype)
        raise RuntimeError(f"expand(torch.{name}Tensor{{{list(self._shape)}}},"
                           f" size=[{', '.join(map(str, size))}]): the number of sizes provided "
                           f"({len(size)}) must be greater or equal to the number of dimensions "
                           f"in the tensor ({self.ndim})")
    lead = len(size) - self.ndim
    n = len(size)
    shape, stride = [0] * n, [0] * n
    # right to left, as PyTorch's inferExpandGeometry: a new leading dim of size 1 gets
    # the stride that steps over the dims to its right (0 next to a 0-dim input)
    for i in range(n - 1, -1, -1):
        s = size[i]
        if i < lead:
            if s < 0:
                raise RuntimeError(f"The expanded size of the tensor ({s}) isn't allowed in a "
                                   f"leading, non-existing dimension {i}")
            shape[i] = s
            stride[i] = shape[i + 1] * stride[i + 1] if s == 1 and i + 1 < n else 0
            continue
        cur, st = self._shape[i - lead], self._stride[i - lead]
        if s == -1:
            s = cur
        if cur == s:
            shape[i], stride[i] = s, st
        elif cur == 1:
            shape[i], stride[i] = s, 0
        else:
            raise RuntimeError(f"The expanded size of the tensor ({s}) must match the existing "
                               f"size ({cur}) at non-singleton dimension {i}.  Target sizes: "
                               f"{list(size)}.  Tensor sizes: {list(self._shape)}")
    return self._view(shape, stride, self._offset)


def expand_as(self, other):
    return expand(self, other._shape)


def squeeze(self, dim=None):
    # (dim stays an int or a tuple as given: PyTorch's node is numbered by the overload)
    from .._argcheck import wrap_dim, wrap_dims
    dims = range(self.ndim) if dim is None else (wrap_dim(dim, self.ndim),) \
        if type(dim) is int else wrap_dims(dim, self.ndim)
    keep = [i for i in range(self.ndim) if not (i in dims and self._shape[i] == 1)]
    return self._view([self._shape[i] for i in keep], [self._stride[i] for i in keep],
                      self._offset)


def unsqueeze(self, dim):
    shape, stride = list(self._shape), list(self._stride)
    new_stride = shape[dim] * stride[dim] if dim < len(shape) else 1
    shape.insert(dim, 1)
    stride.insert(dim, new_stride)
    return self._view(shape, stride, self._offset)


def flatten(self, start_dim=0, end_dim=-1):
    from .._argcheck import wrap_dim
    s, e = wrap_dim(start_dim, self.ndim), wrap_dim(end_dim, self.ndim)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if self.ndim == 0:
        return reshape(self, (1,))
    if s == e:  # PyTorch returns the tensor itself
        return self
    shape = self._shape[:s] + (_numel(self._shape[s:e + 1]),) + self._shape[e + 1:]
    return reshape(self, shape)


def unflatten(self, dim, sizes):
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    if self.ndim == 0:  # PyTorch wraps the IndexError of its size(dim) lookup
        raise RuntimeError("unflatten got an unexpected error:\nDimension specified as 0 but "
                           "tensor has no dimensions")
    n = self._shape[dim]
    if list(sizes).count(-1) > 1 or any(s < -1 for s in sizes):
        raise RuntimeError("unflatten got an unexpected error:\nonly one dimension can be "
                           "inferred")
    known = _numel(s for s in sizes if s != -1)
    if (known != n if -1 not in sizes else known == 0 or n % known):
        raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the "
                           f"size of dim {dim} ({n}) in the input tensor")
    return reshape(self, self._shape[:dim] + infer_size(sizes, n) + self._shape[dim + 1:])


def narrow(self, dim, start, length):
    if self.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    start = narrow_start(self._shape[dim], start, length)
    return slice_(self, dim, start, start + length, 1)


def narrow_start(size, start, length):
    """narrow's start, wrapped and checked (with length) against a dim of `size`."""
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], "
                         f"but got {start})")
    if start < 0:
        start += size
    if length < 0 or start > size - length:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size "
                           f"({size}).")
    return start


def slice_(self, dim=0, start=None, end=None, step=1):
    """self[..., start:end:step, ...] along dim (Python slice semantics, step > 0)."""
    if step <= 0:  # aten::slice's check (Tensor.__getitem__ raises Python's ValueError first)
        raise RuntimeError("slice step must be positive")
    size = self._shape[dim]
    start, end, _ = slice(start, end, step).indices(size)
    length = max(0, (end - start + step - 1) // step)
    shape, stride = list(self._shape), list(self._stride)
    shape[dim] = length
    stride[dim] = stride[dim] * step
    return self._view(shape, stride, self._offset + start * self._stride[dim])


def select(self, dim, index):
    if self.ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    size = self._shape[dim]
    if index < -size or index >= size:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(self._shape)} at dimension {dim}")
    index %= size
    return self._view(self._shape[:dim] + self._shape[dim + 1:],
                      self._stride[:dim] + self._stride[dim + 1:],
                      self._offset + index * self._stride[dim])


def _zero_dim_warning(what):
    warn_once(what, f"{what} is deprecated on 0-D tensors. Consider using x.conj().")


def _conj(t):
    return t.conj() if t.dtype.is_complex else t


def numpy_T(self):
    """Tensor.T: all dims reversed."""
    if self.ndim != 2:
        if self.ndim == 0:
            msg = ("Tensor.T is deprecated on 0-D tensors. This function is the identity in "
                   "these cases.")
        else:
            msg = ("The use of `x.T` on tensors of dimension other than 2 to reverse their "
                   "shape is deprecated and it will throw an error in a future release. "
                   "Consider `x.mT` to transpose batches of matrices or `x.permute(*torch."
                   "arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.")
        warn_once(("Tensor.T", self.ndim == 0), msg)  # (TORCH_WARN_ONCE, per message)
    return permute(self, tuple(range(self.ndim))[::-1])


def _matrix_op(what, conj, matrices_only=False):
    """mT / mH / adjoint() / H: the last two dims swapped (H: of a 2-D tensor only),
    conjugated for mH / adjoint / H; 0-D tensors are returned as they are, conjugated
    for those (with a deprecation warning)."""
    def op(self):
        nd = self.ndim
        if nd == 0:
            if what == "Tensor.mT":
                warn_once(what, "Tensor.mT is deprecated on 0-D tensors. This function is "
                                "the identity in these cases.")
            else:
                _zero_dim_warning(what)
            return _conj(self) if conj else self  # (PyTorch's x.conj(), as the warning says)
        if matrices_only and nd != 2:
            raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got "
                               f"{nd}-D tensor." + (" For batches of matrices, consider using "
                                                    "tensor.mH" if nd > 2 else ""))
        if nd < 2:
            name = "tensor." + what.replace("Tensor.", "")
            raise RuntimeError(f"{name} is only supported on matrices or batches of matrices. "
                               f"Got {nd}-D tensor.")
        r = transpose(self, nd - 2, nd - 1)
        return _conj(r) if conj else r
    return op


def _atleast(n):
    """atleast_1d/2d/3d: the tensor itself when it has n dims or more, else a view with
    size-1 dims added (PyTorch's placement: 1-D -> (1, k) -> (1, k, 1), 2-D -> (m, k, 1))."""
    def atleast(self):
        nd = self.ndim
        if nd >= n:
            return self
        if nd == 0:
            return view(self, (1,) * n)
        if nd == 1:
            t = unsqueeze(self, 0)
            return unsqueeze(t, 2) if n == 3 else t
        return unsqueeze(self, 2)
    return atleast


def diagonal(self, offset=0, dim1=0, dim2=1):
    if dim1 == dim2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    n1, n2 = self._shape[dim1], self._shape[dim2]
    if offset >= 0:
        length = max(0, min(n1, n2 - offset))
        start = offset * self._stride[dim2]
    else:
        length = max(0, min(n1 + offset, n2))
        start = -offset * self._stride[dim1]
    keep = [i for i in range(self.ndim) if i not in (dim1, dim2)]
    shape = [self._shape[i] for i in keep] + [length]
    stride = [self._stride[i] for i in keep] + [self._stride[dim1] + self._stride[dim2]]
    return self._view(shape, stride, self._offset + (start if length else 0))


def movedim(self, source, destination):
    if len(source) != len(destination):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({list(source)} "
                           f"dims) should contain the same number of dims as destination "
                           f"({list(destination)} dims)")
    if self.ndim == 0:  # its only dim (0) may move onto itself
        return permute(self, ())
    order = [None] * self.ndim
    for s, d in zip(source, destination):
        order[d] = s
    rest = iter(i for i in range(self.ndim) if i not in source)
    order = [o if o is not None else next(rest) for o in order]
    return permute(self, order)


def unfold(self, dimension, size, step):
    n = self._shape[dimension] if self.ndim else 1
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if size > n:
        raise RuntimeError(f"maximum size for tensor at dimension {dimension} is {n} but size is "
                           f"{size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    if self.ndim == 0:
        return self._view((size,), (1,), self._offset)
    count = (n - size) // step + 1
    shape = list(self._shape)
    stride = list(self._stride)
    shape[dimension] = count
    stride[dimension] = self._stride[dimension] * step
    return self._view(shape + [size], stride + [self._stride[dimension]], self._offset)


def _retyped(self, shape, stride, offset, dtype, tracked=True):
    """A view of self's storage as another dtype (shape/stride/offset in its units).
    Untracked views (Tensor.view(dtype)) share memory and version but have no _base."""
    from ..._tensor import Tensor
    return Tensor._make(self._storage, tuple(shape), tuple(stride), offset, dtype,
                        (self._base if self._base is not None else self) if tracked else None,
                        self._version_counter)


def view_dtype(self, dtype):
    """Tensor.view(dtype): the same bytes as another dtype (PyTorch's rules for element
    sizes that differ: the last dim is split or merged)."""
    # (PyTorch's dtype views are not tracked as views: no _base, even for the same dtype)
    old, new = self.dtype.itemsize, dtype.itemsize
    what = f"to view {scalar_type_name(self.dtype)} as {scalar_type_name(dtype)} (different " \
           f"element sizes)"
    if old == new:
        return _retyped(self, self._shape, self._stride, self._offset, dtype, False)
    if self.ndim == 0:
        raise RuntimeError(f"self.dim() cannot be 0 {what}")
    shape, stride = list(self._shape), list(self._stride)
    if old > new:
        r = old // new
        if stride[-1] != 1:
            raise RuntimeError(f"self.stride(-1) must be 1 {what}, but got {stride[-1]}")
        shape[-1] *= r
        stride = [st * r for st in stride[:-1]] + [1]
        return _retyped(self, shape, stride, self._offset * r, dtype, False)
    r = new // old
    if shape[-1] % r:
        raise RuntimeError(f"self.size(-1) must be divisible by {r} {what}, but got {shape[-1]}")
    if self._offset % r:
        raise RuntimeError(f"self.storage_offset() must be divisible by {r} {what}, but got "
                           f"{self._offset}")
    if stride[-1] != 1:
        raise RuntimeError(f"self.stride(-1) must be 1 {what}, but got {stride[-1]}")
    for i, st in enumerate(stride[:-1]):
        if st % r:
            raise RuntimeError(f"self.stride({i}) must be divisible by {r} {what}, but got {st}")
    shape[-1] //= r
    return _retyped(self, shape, [st // r for st in stride[:-1]] + [1], self._offset // r, dtype,
                    False)


def view_as_real(self):
    if not self.dtype.is_complex:
        raise RuntimeError("view_as_real is only supported for complex tensors")
    return _retyped(self, self._shape + (2,), tuple(st * 2 for st in self._stride) + (1,),
                    self._offset * 2, self.dtype.to_real())


def view_as_complex(self):
    from ... import _dtype as D
    if self.dtype is not D.float32 and self.dtype is not D.float64:
        if self.dtype is D.float16:
            raise RuntimeError("view_as_complex: complex32 (ComplexHalf) tensors are not "
                               "supported by mindtorch")
        raise RuntimeError(f"view_as_complex is only supported for half, float and double "
                           f"tensors, but got a tensor of scalar type: "
                           f"{scalar_type_name(self.dtype)}")
    if self.ndim == 0:
        raise RuntimeError("Input tensor must have one or more dimensions")
    if self._shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    if self._stride[-1] != 1:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if any(st % 2 for st in self._stride[:-1]):
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    if self._offset % 2:
        raise RuntimeError("Tensor must have a storage_offset divisible by 2")
    return _retyped(self, self._shape[:-1], tuple(st // 2 for st in self._stride[:-1]),
                    self._offset // 2, self.dtype.to_complex())


def broadcast_to(self, size):
    return expand(self, size)


def ravel(self):
    # PyTorch: contiguous().view(-1), i.e. a copy unless self is contiguous
    return view(self if self.is_contiguous() else self.contiguous(), (-1,))


def broadcast_tensors(tensors):
    from ..._shapes import broadcast_shapes
    shape = broadcast_shapes(*(t._shape for t in tensors))
    return tuple(expand(t, shape) for t in tensors)


def meshgrid(tensors, indexing=None):
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors:
        if t.ndim > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list "
                               f"but got: {t}")
    if any(t.dtype is not tensors[0].dtype for t in tensors):
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    if indexing is None:
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the "
                      "indexing argument.", UserWarning, stacklevel=_user_level())
        indexing = "ij"
    elif indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but '
                           f'received: {indexing}')
    swap = indexing == "xy" and len(tensors) > 1  # xy: the first two inputs trade places
    ts = list(tensors)
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = tuple(t.numel() for t in ts)
    n = len(ts)
    grids = [expand(view(t, (1,) * i + (-1,) + (1,) * (n - i - 1)), shape)
             for i, t in enumerate(ts)]
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


def view_as(self, other):
    return view(self, other._shape)


def reshape_as(self, other):
    return reshape(self, other._shape)


def alias(self):
    return self._view(self._shape, self._stride, self._offset)


_VIEWS = [
    ("view(Tensor(a) self, int[] size) -> Tensor(a)", view, {"varargs": "size"}),
    ("reshape(Tensor(a) self, int[] shape) -> Tensor(a)", reshape, {"varargs": "shape"}),
    ("as_strided(Tensor(a) self, int[] size, int[] stride, int? storage_offset=None) -> Tensor(a)",
     as_strided, {}),
    ("transpose(Tensor(a) self, int dim0, int dim1) -> Tensor(a)", transpose, {}),
    ("swapaxes(Tensor(a) self, int axis0, int axis1) -> Tensor(a)", _swapaxes, {}),
    ("swapdims(Tensor(a) self, int dim0, int dim1) -> Tensor(a)", transpose, {}),
    ("t(Tensor(a) self) -> Tensor(a)", t, {}),
    ("permute(Tensor(a) self, int[] dims) -> Tensor(a)", permute, {"varargs": "dims"}),
    ("expand(Tensor(a) self, int[] size) -> Tensor(a)", expand, {"varargs": "size",
                                                                  "function": False}),
    ("expand_as(Tensor(a) self, Tensor other) -> Tensor(a)", expand_as, {"function": False}),
    ("squeeze(Tensor(a) self, int|int[]? dim=None) -> Tensor(a)", squeeze, {}),
    ("unsqueeze(Tensor(a) self, int dim) -> Tensor(a)", unsqueeze, {"dim_extra": 1}),
    ("flatten(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)", flatten, {}),
    ("unflatten(Tensor(a) self, int dim, int[] sizes) -> Tensor(a)", unflatten, {}),
    ("narrow(Tensor(a) self, int dim, int start, int length) -> Tensor(a)", narrow, {}),
    ("slice(Tensor(a) self, int dim=0, int? start=None, int? end=None, int step=1) -> Tensor(a)",
     slice_, {"function": False, "method": False}),
    ("select(Tensor(a) self, int dim, int index) -> Tensor(a)", select, {}),
    ("diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)", diagonal, {}),
    ("movedim(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)", movedim, {}),
    ("moveaxis(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)", movedim, {}),
    ("unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)", unfold,
     {"function": False}),
    ("view_as(Tensor(a) self, Tensor other) -> Tensor(a)", view_as, {"function": False}),
    ("reshape_as(Tensor(a) self, Tensor other) -> Tensor(a)", reshape_as, {"function": False}),
    ("alias(Tensor(a) self) -> Tensor(a)", alias, {"function": False, "method": False}),
    ("view_dtype(Tensor(a) self, ScalarType dtype) -> Tensor(a)", view_dtype,
     {"function": False, "method": False}),
    # (a method too, which PyTorch has not: Tensor.real/imag in _tensor.py call it)
    ("view_as_real(Tensor(a) self) -> Tensor(a)", view_as_real, {}),
    ("view_as_complex(Tensor(a) self) -> Tensor(a)", view_as_complex, {"method": False}),
    ("broadcast_to(Tensor(a) self, int[] size) -> Tensor(a)", broadcast_to, {}),
    ("ravel(Tensor(a) self) -> Tensor(a)", ravel, {}),
    ("broadcast_tensors(Tensor[] tensors) -> Tensor[]", broadcast_tensors, {"method": False}),
    ("meshgrid(Tensor[] tensors, *, str? indexing=None) -> Tensor[]", meshgrid,
     {"method": False}),
    ("adjoint(Tensor(a) self) -> Tensor(a)", _matrix_op("adjoint()", conj=True), {}),
    ("atleast_1d(Tensor(a) self) -> Tensor(a)", _atleast(1), {"method": False}),
    ("atleast_2d(Tensor(a) self) -> Tensor(a)", _atleast(2), {"method": False}),
    ("atleast_3d(Tensor(a) self) -> Tensor(a)", _atleast(3), {"method": False}),
    # the Tensor properties T, mT, H, mH
    ("numpy_T(Tensor(a) self) -> Tensor(a)", numpy_T, {"function": False, "method": False}),
    ("mT(Tensor(a) self) -> Tensor(a)", _matrix_op("Tensor.mT", conj=False),
     {"function": False, "method": False}),
    ("mH(Tensor(a) self) -> Tensor(a)", _matrix_op("Tensor.mH", conj=True),
     {"function": False, "method": False}),
    ("matrix_H(Tensor(a) self) -> Tensor(a)", _matrix_op("Tensor.H", conj=True,
                                                         matrices_only=True),
     {"function": False, "method": False}),
]

for _schema, _impl, _opts in _VIEWS:
    define(_schema, core_impl=_impl, tags=VIEW, **_opts)


def _unsafe_view(self, size):
    """PyTorch's _unsafe_view: a contiguous tensor under a new shape, sharing its storage
    but not recorded as a view of it (matmul reshapes its mm/bmm result with it: the result
    is a tensor of its own for autograd, UnsafeViewBackward0, and in-place ops on it do
    not rewrite the mm's history)."""
    from ..._tensor import Tensor, contiguous_strides
    shape = infer_size(size, self.numel())
    return Tensor._make(self._storage, shape, contiguous_strides(shape), self._offset,
                        self.dtype, None, self._version_counter)


define("_unsafe_view(Tensor self, int[] size) -> Tensor", core_impl=_unsafe_view,
       function=False, method=False)


# -- in-place view ops: self takes the view's metadata (same storage; version bumped) ------

def _in_place(view_fn):
    def op(self, *args):
        v = view_fn(self, *args)
        self._shape, self._stride, self._offset = v._shape, v._stride, v._offset
        self._cache = None  # (a backend's cached host view of the old layout)
        return self
    return op


def _t_inplace(self):
    if self.ndim > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is "
                           f"{self.ndim}D")
    return t(self)


_INPLACE_VIEWS = [
    ("t_(Tensor(a!) self) -> Tensor(a!)", _t_inplace, {}),
    ("transpose_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)", transpose, {}),
    ("swapaxes_(Tensor(a!) self, int axis0, int axis1) -> Tensor(a!)", _swapaxes, {}),
    ("swapdims_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)", transpose, {}),
    ("unsqueeze_(Tensor(a!) self, int dim) -> Tensor(a!)", unsqueeze, {"dim_extra": 1}),
    ("squeeze_(Tensor(a!) self, int|int[]? dim=None) -> Tensor(a!)", squeeze, {}),
    ("as_strided_(Tensor(a!) self, int[] size, int[] stride, int? storage_offset=None) "
     "-> Tensor(a!)", as_strided, {"function": True}),
]

for _schema, _impl, _opts in _INPLACE_VIEWS:
    define(_schema, core_impl=_in_place(_impl), tags=("inplace", "inplace_view"),
           **{"function": False, **_opts})


def _resize_as_(self, the_template, memory_format=None):
    from ..._memory_format import suggest
    if memory_format == "preserve_format":
        memory_format = suggest(the_template)  # (the template's layout)
    return self.resize_(the_template._shape, memory_format=memory_format)


define("resize_as_(Tensor(a!) self, Tensor the_template, *, MemoryFormat? memory_format=None) "
       "-> Tensor(a!)", tags=("inplace",), decomposition=_resize_as_)


def _check_resize_as(args, kwargs):  # (before the in-place checks, as resize_'s)
    if getattr(args[0] if args else kwargs.get("self"), "requires_grad", False):
        raise RuntimeError("cannot resize variables that require grad")


_checked_first("resize_as_", _check_resize_as)


def _view_or_copy(self, shape):
    """reshape's node as PyTorch names it: a view of a contiguous tensor, a _reshape_alias
    of a strided one, or the _unsafe_view of a copy when no strides express the shape."""
    if view_strides(self._shape, self._stride, tuple(shape)) is None:
        return "UnsafeViewBackward0"
    return "ViewBackward0" if self.is_contiguous() else "ReshapeAliasBackward0"


def _flatten_node(self, start_dim=0, end_dim=-1):
    shape, nd = self._shape, max(self.ndim, 1)
    s, e = start_dim % nd, end_dim % nd
    if not self.ndim or s >= e:
        return "ViewBackward0"
    return _view_or_copy(self, shape[:s] + (_numel(shape[s:e + 1]),) + shape[e + 1:])


def _squeeze_overload(dim):
    """PyTorch's squeeze overloads: no dim 0, an int 1, a sequence 2."""
    return 0 if dim is None else 1 if type(dim) is int else 2


# PyTorch's node names where a view is another's alias or numbered by overload
_VIEW_GRAD_NAMES = {
    **{name: "ViewBackward0" for name in ("unflatten", "view_as", "ravel")},
    "reshape": lambda self, shape: _view_or_copy(self, infer_size(shape, self.numel())),
    "reshape_as": lambda self, other: _view_or_copy(self, other._shape),
    "flatten": _flatten_node,
    **{name: "ExpandBackward0" for name in ("expand_as", "broadcast_to")},
    **{name: "TransposeBackward0" for name in ("swapaxes", "swapdims", "mT", "mH",
                                               "adjoint", "matrix_H")},
    **{name: "PermuteBackward0" for name in ("movedim", "moveaxis", "numpy_T")},
    "narrow": "SliceBackward0",
    "squeeze": lambda self, dim: f"SqueezeBackward{_squeeze_overload(dim)}",
    # the in-place view ops' nodes are PyTorch's next overloads
    "t_": "TBackward1", "unsqueeze_": "UnsqueezeBackward1", "as_strided_": "AsStridedBackward1",
    **{name: "TransposeBackward1" for name in ("transpose_", "swapaxes_", "swapdims_")},
    "squeeze_": lambda self, dim: f"SqueezeBackward{3 + _squeeze_overload(dim)}",
}
from .views_grads import _RESHAPE, _VIEW_GRADS  # noqa: E402 - (it reads _conj above)

for _name, _formulas in _VIEW_GRADS.items():
    derivative(OPS[_name], **_formulas, name=_VIEW_GRAD_NAMES.get(_name))
derivative(OPS["_unsafe_view"], **_RESHAPE)
nondifferentiable(OPS["view_dtype"], OPS["resize_"], OPS["resize_as_"])


# -- checks PyTorch makes before it wraps `dim` (see _prechecks) ---------------------------

_checked_first("narrow", _check_narrow)
_checked_first("permute", _check_permute)
_checked_first("movedim", _check_movedim)
_checked_first("moveaxis", _check_movedim)
