"""The splitting views: unbind, split, split_with_sizes, chunk, tensor_split and
hsplit / vsplit / dsplit.  Each piece is a view of the input (computed in core from
shape/stride/offset, like every op in `views`); their gradient is the pieces' gradients
concatenated back along the split dim."""
from ..._dtype import scalar_type_name
from ..registry import OPS, define, derivative
from ._prechecks import _arg, _checked_first
from .views import VIEW, select, slice_


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
        if step < 0:
            raise RuntimeError(f"split expects split_size be non-negative, but got "
                               f"split_size={step}")
        if step == 0 and size:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got "
                               f"dimension size of {size}")
        # an empty dim still gives one (empty) piece
        sections = [min(step, size - i) for i in range(0, size, step)] if step and size else [0]
    else:
        sections = list(split_size_or_sections)
        if any(n < 0 for n in sections):
            raise RuntimeError(f"split_with_sizes expects split_sizes have only non-negative "
                               f"entries, but got split_sizes={sections}")
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


def tensor_split(self, indices_or_sections, dim=0):
    """tensor_split(int sections) / tensor_split(int[] indices); the public wrapper turns
    a tensor argument into one of these (see _split_index_arg)."""
    if self.ndim == 0:
        raise RuntimeError(f"tensor_split expected at least a 1-dimensional tensor, but got a "
                           f"tensor with {self.ndim} dims")
    size = self._shape[dim]
    if isinstance(indices_or_sections, int):
        sections = indices_or_sections
        if sections <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
        small, extra = divmod(size, sections)
        bounds, start = [], 0
        for i in range(sections - 1):  # the first size % sections pieces are one longer
            start += small + (i < extra)
            bounds.append(start)
    else:
        bounds = list(indices_or_sections)
    out, start = [], 0
    for end in bounds + [size]:
        # at::slice's rules: negative bounds count from the end, then clamp; end >= start
        s = min(max(start + size if start < 0 else start, 0), size)
        e = max(min(max(end + size if end < 0 else end, 0), size), s)
        out.append(_narrowed(self, dim, s, e - s))
        start = end
    return tuple(out)


def _narrowed(self, dim, start, length):
    shape, stride = list(self._shape), self._stride
    shape[dim] = length
    return self._view(shape, stride, self._offset + start * stride[dim])


# the rank each of hsplit/vsplit/dsplit needs and the dim it splits
_NSPLITS = {"hsplit": (1, 1), "vsplit": (2, 0), "dsplit": (3, 2)}


def _nsplit(name):
    need, split_dim = _NSPLITS[name]

    def nsplit(self, indices_or_sections):
        if self.ndim < need:
            raise RuntimeError(f"torch.{name} requires a tensor with at least {need} "
                               f"dimension, but got a tensor with {self.ndim} dimensions!")
        dim = 0 if self.ndim == 1 else split_dim  # hsplit splits a 1-D tensor along 0
        k = indices_or_sections
        if isinstance(k, int) and (k == 0 or self._shape[dim] % k):
            raise RuntimeError(f"torch.{name} attempted to split along dimension {dim}, but the "
                               f"size of the dimension {self._shape[dim]} is not divisible by "
                               f"the split_size {k}!")
        return tensor_split(self, k, dim)
    return nsplit


_SPLITS = [
    ("unbind(Tensor(a) self, int dim=0) -> Tensor[]", unbind, {}),
    ("split(Tensor(a) self, int|int[] split_size_or_sections, int dim=0) -> Tensor[]", split, {}),
    ("split_with_sizes(Tensor(a) self, int[] split_sizes, int dim=0) -> Tensor[]",
     split_with_sizes, {}),
    ("chunk(Tensor(a) self, int chunks, int dim=0) -> Tensor[]", chunk, {}),
    ("tensor_split(Tensor(a) self, int|int[] indices_or_sections, int dim=0) -> Tensor[]",
     tensor_split, {}),
    ("hsplit(Tensor(a) self, int|int[] indices_or_sections) -> Tensor[]", _nsplit("hsplit"), {}),
    ("vsplit(Tensor(a) self, int|int[] indices_or_sections) -> Tensor[]", _nsplit("vsplit"), {}),
    ("dsplit(Tensor(a) self, int|int[] indices_or_sections) -> Tensor[]", _nsplit("dsplit"), {}),
]

for _schema, _impl, _opts in _SPLITS:
    define(_schema, core_impl=_impl, tags=VIEW, **_opts)


# -- backward formulas --------------------------------------------------------------------

def _pieces_grad(dim_of):
    """split-like ops: the pieces lie one after another along a dim (dim_of(ndim, args))."""
    def grad_fn(grads, dim=0):
        return _cat_grads(grads, dim)

    def grad_fn_n(grads, self_geometry):
        return _cat_grads(grads, dim_of(len(self_geometry[0])))
    return grad_fn if dim_of is None else grad_fn_n


def _cat_grads(grads, dim):
    import mindtorch
    return mindtorch.cat(grads, dim)


_SPLIT_GRADS = {
    "unbind": lambda grads, dim: __import__("mindtorch").stack(grads, dim),
    "split": _pieces_grad(None),
    "split_with_sizes": _pieces_grad(None),
    "chunk": _pieces_grad(None),
    "tensor_split": _pieces_grad(None),
    "vsplit": _pieces_grad(lambda nd: 0),
    "hsplit": _pieces_grad(lambda nd: 1 if nd > 1 else 0),
    "dsplit": _pieces_grad(lambda nd: 2),
}
_SPLIT_NAMES = {  # PyTorch's nodes: chunk is a split, split by sizes SplitWithSizes,
    # tensor_split and h/v/dsplit pieces are slices
    "chunk": "SplitBackward0", "tensor_split": "SliceBackward0", "hsplit": "SliceBackward0",
    "vsplit": "SliceBackward0", "dsplit": "SliceBackward0",
    "split": lambda self, split_size_or_sections, dim=0: "SplitBackward0"
    if isinstance(split_size_or_sections, int) else "SplitWithSizesBackward0",
}
for _name, _formula in _SPLIT_GRADS.items():
    derivative(OPS[_name], self=_formula, name=_SPLIT_NAMES.get(_name))


# -- checks PyTorch makes before it wraps `dim` (see views) -------------------------------

def _check_split(args, kwargs):
    self, size = _arg(args, kwargs, 0, "self"), _arg(args, kwargs, 1, "split_size_or_sections")
    if getattr(self, "_shape", None) == ():
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    if type(size) is int and size < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got "
                           f"split_size={size}")


def _check_chunk(args, kwargs):
    self, chunks = _arg(args, kwargs, 0, "self"), _arg(args, kwargs, 1, "chunks")
    if getattr(self, "_shape", None) == ():
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if type(chunks) is int and chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")


def _check_tensor_split(args, kwargs):
    self = _arg(args, kwargs, 0, "self")
    if getattr(self, "_shape", None) == ():
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a "
                           "tensor with 0 dims")


def _split_index_arg(args, kwargs, name):
    """tensor_split's Tensor overload: a 0-dim long tensor is a number of sections, a 1-D
    one a list of indices; also PyTorch's keyword names of its three overloads."""
    from ..._tensor import Tensor
    for key in ("sections", "indices", "tensor_indices_or_sections", "split_size"):
        if key in kwargs:
            kwargs = dict(kwargs)
            kwargs[name] = kwargs.pop(key)
    k = _arg(args, kwargs, 1, name)
    if isinstance(k, Tensor):
        if k.dtype.name != "int64":
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to have dtype "
                               f"of long, but got {scalar_type_name(k.dtype)}")
        if k.ndim > 1:
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to be a "
                               f"zero-dimensional or one-dimensional tensor, but got a tensor "
                               f"with {k.ndim} dims")
        k = k.tolist()
        if len(args) > 1:
            args = args[:1] + (k,) + args[2:]
        else:
            kwargs = dict(kwargs)
            kwargs[name] = k
    return args, kwargs


for _name, _check, _argname in (
        ("split", _check_split, "split_size_or_sections"), ("split_with_sizes", _check_split, None),
        ("chunk", _check_chunk, None), ("tensor_split", _check_tensor_split, "indices_or_sections"),
        ("hsplit", None, "indices_or_sections"), ("vsplit", None, "indices_or_sections"),
        ("dsplit", None, "indices_or_sections")):
    _checked_first(_name, _check, None if _argname is None else
                   lambda args, kwargs, name=_argname: _split_index_arg(args, kwargs, name))
