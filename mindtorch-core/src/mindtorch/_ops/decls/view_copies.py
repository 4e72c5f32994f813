"""The copying variants of the views: PyTorch's `*_copy` functions (what functionalization
turns views into: the view's values as a fresh contiguous tensor) and the unsafe splits
(pieces sharing the input's memory that autograd does not treat as views).

Every `*_copy` op is one row of `_COPIES`: it decomposes into its view + a contiguous
clone, and its backward is the view's own formula (the node named `<view node>_copy`, as
PyTorch's), so shapes, errors and gradients come from the view in one place."""
from ..._memory_format import contiguous_format
from ..._tensor import Tensor, contiguous_strides
from ...autograd.functional_helpers import view_scatter
from ..registry import OPS, define, derivative, nondifferentiable, overload
from ._helpers import NOT_IMPLEMENTED_NODE, no_derivative
from ._out_rules import exact_out
from ._prechecks import _check_permute, _checked_first
from .splitting import _check_chunk, _check_split, chunk, split

# (copy op, the view it copies, arguments after `self`, PyTorch's node name of the view or
# a function of the arguments giving it; `_copy` is appended)
_COPIES = [
    ("view_copy", "reshape", "int[] size", "ViewBackward0"),
    ("permute_copy", "permute", "int[] dims", "PermuteBackward0"),
    ("transpose_copy", "transpose", "int dim0, int dim1", "TransposeBackward0"),
    ("t_copy", "t", "", "TBackward0"),
    ("expand_copy", "expand", "int[] size, *, bool implicit=False", "ExpandBackward0"),
    ("squeeze_copy", "squeeze", "int|int[]? dim=None",
     lambda self, dim=None: f"SqueezeBackward{0 if dim is None else 1 if type(dim) is int else 2}"),
    ("unsqueeze_copy", "unsqueeze", "int dim", "UnsqueezeBackward0"),
    ("select_copy", "select", "int dim, int index", "SelectBackward0"),
    ("slice_copy", "slice", "int dim=0, int? start=None, int? end=None, int step=1",
     "SliceBackward0"),
    ("diagonal_copy", "diagonal", "int offset=0, int dim1=0, int dim2=1", "DiagonalBackward0"),
    ("as_strided_copy", "as_strided", "int[] size, int[] stride, int? storage_offset=None",
     "AsStridedBackward0"),
    ("unfold_copy", "unfold", "int dimension, int size, int step", "UnfoldBackward0"),
    ("alias_copy", "alias", "", "AliasBackward0"),
    ("view_as_real_copy", "view_as_real", "", "ViewAsRealBackward0"),
    ("view_as_complex_copy", "view_as_complex", "", "ViewAsComplexBackward0"),
    ("unbind_copy", "unbind", "int dim=0", "UnbindBackward0"),
    ("split_copy", "split", "int split_size, int dim=0", "SplitBackward0"),
    ("split_with_sizes_copy", "split_with_sizes", "int[] split_sizes, int dim=0",
     "SplitWithSizesBackward0"),
]
# PyTorch's names of the out= overloads, as its messages print them
_LISTS = {"unbind_copy": "unbind_copy_int_out", "split_copy": "split_copy_Tensor_out()",
          "split_with_sizes_copy": "split_with_sizes_copy_out"}
# PyTorch has no complex formula for these (its recording refuses a complex result)
_REAL_ONLY = {"select_copy", "slice_copy", "view_as_complex_copy"}
_PRECHECKS = {"permute_copy": _check_permute, "split_copy": _check_split,
              "split_with_sizes_copy": _check_split}


def _copying(view):
    """The decomposition: the view (its arguments only: expand_copy's `implicit` is not
    one), then a contiguous copy of each piece."""
    nargs = len(OPS[view].schema.args)

    def copy(self, *args):
        v = OPS[view].call(self, *args[:nargs - 1])
        clone = OPS["clone"].call
        if isinstance(v, Tensor):
            return clone(v, contiguous_format)
        return tuple(clone(p, contiguous_format) for p in v)
    return copy


# views whose formula reads the view's own geometry, which the copy does not have: their
# base's gradient written directly
def _as_strided_grad(grad, self_geometry, size, stride, storage_offset=None):
    offset = self_geometry[2] if storage_offset is None else storage_offset
    return view_scatter(grad, self_geometry, (tuple(size), tuple(stride), offset))


def _diagonal_grad(grad, self_geometry, offset=0, dim1=0, dim2=1):
    return grad.new_zeros(self_geometry[0]).diagonal_scatter(grad, offset, dim1, dim2)


def _unfold_grad(grad, self_geometry, dimension, size, step):
    import mindtorch
    shape = tuple(self_geometry[0])
    base = (shape, contiguous_strides(shape), 0)  # the view's geometry over a stand-in
    v = mindtorch.empty(shape, device="meta").unfold(dimension, size, step)
    return view_scatter(grad, base, (v._shape, v._stride, v._offset))


_OWN_GRADS = {"as_strided_copy": _as_strided_grad, "diagonal_copy": _diagonal_grad,
              "unfold_copy": _unfold_grad}


def _list_out(name, out_name):
    """out= of the copies returning several tensors: a list of as many tensors, each
    written as copy_ writes (cast and broadcast, no resize), and None returned."""
    prev = OPS[name]._public

    def make(generated):
        inner = prev(generated) if prev is not None else generated

        def public(*args, out=None, **kwargs):
            r = inner(*args, **kwargs)
            if out is None:
                return r
            if len(out) != len(r):
                raise RuntimeError(f"{out_name} expected an out= argument of size {len(r)}, "
                                   f"got size {len(out)}")
            if any(p.requires_grad for p in r):
                raise RuntimeError(f"{name}(): functions with out=... arguments don't support "
                                   f"automatic differentiation, but one of the arguments "
                                   f"requires grad.")
            for o, p in zip(out, r):
                o.copy_(p)
        return public
    return make


def _declare_copies():
    for name, view, args, node in _COPIES:
        returns = "Tensor[]" if name in _LISTS else "Tensor"
        sep = ", " if args else ""
        op = define(f"{name}(Tensor self{sep}{args}) -> {returns}", decomposition=_copying(view),
                    out=name not in _LISTS, method=False,
                    complex_autograd=name not in _REAL_ONLY,
                    **{k: v for k, v in OPS[view].options.items() if k == "dim_extra"})
        formulas = {"self": _OWN_GRADS[name]} if name in _OWN_GRADS else OPS[view].formulas
        derivative(op, **formulas, name=(lambda *a, _f=node, **k: _f(*a, **k) + "_copy")
                   if callable(node) else node + "_copy")
        if name in _PRECHECKS:
            _checked_first(name, _PRECHECKS[name])
        if name in _LISTS:
            overload(op, _list_out(name, _LISTS[name]))
        else:
            exact_out(op, "copy")
    # detach_copy: recorded, with no backward (as PyTorch's NotImplemented node)
    derivative(define("detach_copy(Tensor self) -> Tensor", out=True, method=False,
                      decomposition=lambda self: OPS["clone"].call(self, contiguous_format)),
               self=no_derivative("detach_copy"), name=NOT_IMPLEMENTED_NODE)
    exact_out(OPS["detach_copy"], "copy")
    # view_copy(dtype): the bits reinterpreted, as view(dtype); not differentiable
    nondifferentiable(define(
        "_view_copy_dtype(Tensor self, ScalarType dtype) -> Tensor", out=True, function=False,
        method=False, decomposition=_copying("view_dtype")))
    exact_out(OPS["_view_copy_dtype"], "copy")


_declare_copies()


def _view_copy_public(binding):
    """view_copy(input, size) / view_copy(input, dtype)."""
    from ..._dtype import dtype as _dtype_t
    by_dtype = OPS["_view_copy_dtype"].binding

    def view_copy(self, *args, **kwargs):
        if "dtype" in kwargs or (args and type(args[0]) is _dtype_t):
            return by_dtype(self, *args, **kwargs)
        return binding(self, *args, **kwargs)
    return view_copy


_prev = OPS["view_copy"]._public
overload(OPS["view_copy"], lambda generated: _view_copy_public(_prev(generated)))


# -- the unsafe splits ----------------------------------------------------------------------
# PyTorch's split whose pieces are not views for autograd (UnsafeSplitBackward0 over all of
# them; an in-place write to one is not tracked through the input): each piece keeps the
# input's memory but has no base and a version counter of its own.

def _unsafe(pieces):
    return tuple(Tensor._make(p._storage, p._shape, p._stride, p._offset, p.dtype)
                 for p in pieces)


_UNSAFE = [
    ("unsafe_split(Tensor self, int split_size, int dim=0) -> Tensor[]",
     lambda self, split_size, dim=0: _unsafe(split(self, split_size, dim)), _check_split,
     "UnsafeSplitBackward0"),
    ("unsafe_split_with_sizes(Tensor self, int[] split_sizes, int dim=0) -> Tensor[]",
     lambda self, split_sizes, dim=0: _unsafe(split(self, tuple(split_sizes), dim)),
     _check_split, "UnsafeSplitWithSizesBackward0"),
    ("unsafe_chunk(Tensor self, int chunks, int dim=0) -> Tensor[]",
     lambda self, chunks, dim=0: _unsafe(chunk(self, chunks, dim)), _check_chunk,
     "UnsafeSplitBackward0"),
]
for _schema, _impl, _check, _node in _UNSAFE:
    _op = define(_schema, core_impl=_impl)
    derivative(_op, self=lambda grads, dim=0: __import__("mindtorch").cat(grads, dim),
               name=_node)
    _checked_first(_op.name, _check)
