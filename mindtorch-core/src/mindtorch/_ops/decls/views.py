"""View ops: computed in core from shape/stride/offset (invariant 4), shared by every
device.  Each returns a tensor sharing storage and version counter with its input."""
from ..._dtype import scalar_type_name
from ..._shapes import numel as _numel
from ..registry import define

VIEW = ("view",)


def infer_size(shape, numel):
    """Resolve a single -1 in a requested shape against numel."""
    shape = list(shape)
    neg = [i for i, s in enumerate(shape) if s == -1]
    if len(neg) > 1:
        raise RuntimeError("only one dimension can be inferred")
    for s in shape:
        if s < -1:
            raise RuntimeError(f"invalid shape dimension {s}")
    known = _numel(s for s in shape if s != -1)
    if neg:
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
    if _numel(old_shape) == 0 or not old_shape:  # empty, or 0-dim (any 1-element shape)
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
    return view(self.contiguous(), shape)


def as_strided(self, size, stride, storage_offset=None):
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in stride):
        raise RuntimeError("as_strided: Negative strides are not supported at the moment, got "
                           f"strides: {list(stride)}")
    offset = self._offset if storage_offset is None else storage_offset
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


def t(self):
    if self.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {self.ndim}D")
    return transpose(self, 0, 1) if self.ndim == 2 else self._view(self._shape, self._stride,
                                                                      self._offset)


def permute(self, dims):
    if len(dims) != self.ndim:
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does "
                           f"not match the length of the desired ordering of dimensions i.e. "
                           f"input.dim() = {self.ndim} is not equal to len(dims) = {len(dims)}")
    return self._view([self._shape[d] for d in dims], [self._stride[d] for d in dims],
                      self._offset)


def expand(self, size):
    if len(size) < self.ndim:
        raise RuntimeError(f"expand(torch.{scalar_type_name(self.dtype)}Tensor{{{list(self._shape)}}},"
                           f" size=[{', '.join(map(str, size))}]): the number of sizes provided "
                           f"({len(size)}) must be greater or equal to the number of dimensions "
                           f"in the tensor ({self.ndim})")
    lead = len(size) - self.ndim
    shape, stride = [], []
    for i, s in enumerate(size):
        if i < lead:
            if s < 0:
                raise RuntimeError(f"The expanded size of the tensor ({s}) isn't allowed in a "
                                   f"leading, non-existing dimension {i}")
            shape.append(s)
            stride.append(0)
            continue
        cur, st = self._shape[i - lead], self._stride[i - lead]
        if s == -1:
            s = cur
        if cur == s:
            shape.append(s)
            stride.append(st)
        elif cur == 1:
            shape.append(s)
            stride.append(0)
        else:
            raise RuntimeError(f"The expanded size of the tensor ({s}) must match the existing "
                               f"size ({cur}) at non-singleton dimension {i}.  Target sizes: "
                               f"{list(size)}.  Tensor sizes: {list(self._shape)}")
    return self._view(shape, stride, self._offset)


def expand_as(self, other):
    return expand(self, other._shape)


def squeeze(self, dim=None):
    dims = range(self.ndim) if dim is None else dim
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
    if self.ndim == 0:
        return reshape(self, (1,))
    from .._argcheck import wrap_dim
    s, e = wrap_dim(start_dim, self.ndim), wrap_dim(end_dim, self.ndim)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return self._view(self._shape, self._stride, self._offset)
    shape = self._shape[:s] + (_numel(self._shape[s:e + 1]),) + self._shape[e + 1:]
    return reshape(self, shape)


def unflatten(self, dim, sizes):
    sizes = infer_size(sizes, self._shape[dim])
    return view(self, self._shape[:dim] + tuple(sizes) + self._shape[dim + 1:]) \
        if view_strides(self._shape, self._stride, self._shape[:dim] + tuple(sizes) +
                        self._shape[dim + 1:]) is not None else \
        reshape(self, self._shape[:dim] + tuple(sizes) + self._shape[dim + 1:])


def narrow(self, dim, start, length):
    if self.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    size = self._shape[dim]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], "
                         f"but got {start})")
    if start < 0:
        start += size
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size "
                           f"({size}).")
    return slice_(self, dim, start, start + length, 1)


def slice_(self, dim=0, start=None, end=None, step=1):
    """self[..., start:end:step, ...] along dim (Python slice semantics, step > 0)."""
    if step <= 0:
        raise ValueError("step must be greater than zero")
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
        raise IndexError(f"index {index} is out of bounds for dimension {dim} with size {size}")
    index %= size
    return self._view(self._shape[:dim] + self._shape[dim + 1:],
                      self._stride[:dim] + self._stride[dim + 1:],
                      self._offset + index * self._stride[dim])


def unbind(self, dim=0):
    if self.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    return tuple(select(self, dim, i) for i in range(self._shape[dim]))


def split(self, split_size_or_sections, dim=0):
    if self.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    size = self._shape[dim]
    if isinstance(split_size_or_sections, int):
        step = split_size_or_sections
        if step <= 0 and size:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got "
                               f"dimension size of {size}")
        # an empty dim still gives one (empty) piece
        sections = [min(step, size - i) for i in range(0, size, step)] if step and size else [0]
    else:
        sections = list(split_size_or_sections)
        if sum(sections) != size:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {size} "
                               f"(input tensor's size at dimension {dim}), but got split_sizes="
                               f"{sections}")
    out, start = [], 0
    for n in sections:
        out.append(slice_(self, dim, start, start + n))
        start += n
    return tuple(out)


def split_with_sizes(self, split_sizes, dim=0):
    return split(self, tuple(split_sizes), dim)


def chunk(self, chunks, dim=0):
    if self.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    size = self._shape[dim]
    step = (size + chunks - 1) // chunks
    if step == 0:
        return tuple(slice_(self, dim, 0, 0) for _ in range(max(1, chunks))) if size == 0 \
            else (self,)
    return split(self, step, dim)


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
    order = [None] * max(self.ndim, 1)  # a 0-dim tensor's only dim (0) may move onto itself
    for s, d in zip(source, destination):
        order[d] = s
    rest = iter(i for i in range(self.ndim) if i not in source)
    order = [o if o is not None else next(rest) for o in order]
    return permute(self, order[:self.ndim])


def unfold(self, dimension, size, step):
    n = self._shape[dimension] if self.ndim else 1
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
    ("swapaxes(Tensor(a) self, int dim0, int dim1) -> Tensor(a)", transpose, {}),
    ("swapdims(Tensor(a) self, int dim0, int dim1) -> Tensor(a)", transpose, {}),
    ("t(Tensor(a) self) -> Tensor(a)", t, {}),
    ("permute(Tensor(a) self, int[] dims) -> Tensor(a)", permute, {"varargs": "dims"}),
    ("expand(Tensor(a) self, int[] size) -> Tensor(a)", expand, {"varargs": "size",
                                                                  "function": False}),
    ("expand_as(Tensor(a) self, Tensor other) -> Tensor(a)", expand_as, {"function": False}),
    ("squeeze(Tensor(a) self, int[]? dim=None) -> Tensor(a)", squeeze, {}),
    ("unsqueeze(Tensor(a) self, int dim) -> Tensor(a)", unsqueeze, {"dim_extra": 1}),
    ("flatten(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)", flatten, {}),
    ("unflatten(Tensor(a) self, int dim, int[] sizes) -> Tensor(a)", unflatten, {}),
    ("narrow(Tensor(a) self, int dim, int start, int length) -> Tensor(a)", narrow, {}),
    ("slice(Tensor(a) self, int dim=0, int? start=None, int? end=None, int step=1) -> Tensor(a)",
     slice_, {"function": False, "method": False}),
    ("select(Tensor(a) self, int dim, int index) -> Tensor(a)", select, {}),
    ("unbind(Tensor(a) self, int dim=0) -> Tensor[]", unbind, {}),
    ("split(Tensor(a) self, int|int[] split_size_or_sections, int dim=0) -> Tensor[]", split, {}),
    ("split_with_sizes(Tensor(a) self, int[] split_sizes, int dim=0) -> Tensor[]",
     split_with_sizes, {}),
    ("chunk(Tensor(a) self, int chunks, int dim=0) -> Tensor[]", chunk, {}),
    ("diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)", diagonal, {}),
    ("movedim(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)", movedim, {}),
    ("moveaxis(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)", movedim, {}),
    ("unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)", unfold,
     {"function": False}),
    ("view_as(Tensor(a) self, Tensor other) -> Tensor(a)", view_as, {"function": False}),
    ("reshape_as(Tensor(a) self, Tensor other) -> Tensor(a)", reshape_as, {"function": False}),
    ("alias(Tensor(a) self) -> Tensor(a)", alias, {"function": False, "method": False}),
]

for _schema, _impl, _opts in _VIEWS:
    define(_schema, core_impl=_impl, tags=VIEW, **_opts)
