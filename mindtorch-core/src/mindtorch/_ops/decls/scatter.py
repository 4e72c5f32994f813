"""gather and the scatter family: scatter, scatter_add, scatter_reduce (and their in-place
forms), with the shape and dtype checks every backend shares (the cpu kernels and the meta
rules call them, as for `indexing`) and their backward formulas.
"""
from ... import _dtype as D
from ..._warn_once import warn_once
from ..registry import OPS, define, derivative, overload
from ._helpers import inplace_via, no_derivative, refuse_complex_autograd, write_into
from .indexing import _index_int_dtype, type_name


# -- shared checks ---------------------------------------------------------------------

def _shape1(t):
    """Shape treating a 0-dim tensor as 1-dim (PyTorch's ensure_nonempty_size)."""
    return t._shape if t._shape else (1,)


def check_gather(self, dim, index):
    """gather's checks; the result shape is index's.  An empty index is not checked at
    all (PyTorch returns an empty result of its shape)."""
    if not index.numel():
        return
    _index_int_dtype("gather", index, "int32/int64")
    if max(index.ndim, 1) != max(self.ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as input "
                           "tensor")
    si, ss = _shape1(index), _shape1(self)
    if index.numel():
        for d in range(len(si)):
            if d != dim and si[d] > ss[d]:
                raise RuntimeError(f"Size does not match at dimension {d} expected index "
                                   f"{list(index._shape)} to be no larger than self "
                                   f"{list(self._shape)} apart from dimension {dim}")


def check_scatter(self, dim, index, src, op_name="scatter"):
    """scatter/scatter_add's checks (src: a tensor or a Python scalar)."""
    from ..._tensor import Tensor
    if index.numel():
        _index_int_dtype(op_name, index, "int32/int64")
    is_tensor = isinstance(src, Tensor)
    if is_tensor and src.dtype is not self.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if not index.numel():  # PyTorch checks no shapes for an empty index
        return
    if max(index.ndim, 1) != max(self.ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as self "
                           "tensor")
    # PyTorch's scatter_shape_check: index against self (but along dim), then against src
    # read with src.size(d) (an IndexError past src's rank); src's rank is checked before
    # a wrong size is reported
    si, ss = _shape1(index), _shape1(self)
    wrong = any(d != dim and si[d] > ss[d] for d in range(len(si)))
    if is_tensor and not wrong:
        for d in range(len(si)):
            if src.ndim and d >= src.ndim:
                raise IndexError(f"Dimension out of range (expected to be in range of "
                                 f"[{-src.ndim}, {src.ndim - 1}], but got {d})")
            if si[d] > (src._shape[d] if src.ndim else 1):
                wrong = True
                break
    if is_tensor and max(index.ndim, 1) != max(src.ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as src "
                           "tensor")
    if wrong:
        if not is_tensor:
            raise RuntimeError(f"Expected index {list(index._shape)} to be no larger than "
                               f"self {list(self._shape)} apart from dimension {dim}")
        raise RuntimeError(f"Expected index {list(index._shape)} to be no larger than self "
                           f"{list(self._shape)} apart from dimension {dim} and to be no "
                           f"larger size than src {list(src._shape)}")


def check_scatter_reduce(reduce, src):
    if reduce is None:
        return
    if reduce not in ("add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    from ..._tensor import Tensor
    if isinstance(src, Tensor):  # (PyTorch's TORCH_WARN_ONCE)
        warn_once("scatter_reduce_tensor_src", "The reduce argument of torch.scatter with "
                  "Tensor src is deprecated and will be removed in a future PyTorch release. "
                  "Use torch.scatter_reduce instead for more reduction options.")


SCATTER_REDUCTIONS = {"sum": "sum", "prod": "prod", "mean": "mean", "amax": "amax",
                      "amin": "amin", "max": "amax", "min": "amin"}


def check_scatter_reduce_name(reduce):
    """The reduction scatter_reduce applies (PyTorch also takes max/min for amax/amin)."""
    r = SCATTER_REDUCTIONS.get(reduce)
    if r is None:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got "
                           f"{reduce}")
    return r


def check_scatter_reduce_op(self, dim, index, src, reduce):
    """scatter_reduce's checks (name, shapes, dtype support); returns the reduction."""
    reduce = check_scatter_reduce_name(reduce)
    check_scatter(self, dim, index, src)
    if reduce == "mean" and self.dtype is D.bool and not index.numel():
        # (PyTorch skips the scatter, then fails dividing by the counts)
        raise NotImplementedError("\"div_floor_cpu\" not implemented for 'Bool'")
    if index.numel() and (reduce == "mean" and self.dtype is D.bool or
                          reduce in ("amax", "amin") and self.dtype.is_complex):
        raise NotImplementedError(f'"scatter_gather_tensor_cpu_reduce_{reduce}" not implemented '
                                  f"for '{type_name(self.dtype)}'")
    return reduce


# -- declarations ----------------------------------------------------------------------

def _scatter_(self, dim, index, src, reduce=None):
    check_scatter(self, dim, index, src)
    return write_into(self, OPS["scatter"], (dim, index, src, reduce))


def _scatter_public(binding):
    """scatter(input, dim, index, src) / scatter(input, dim, index, value): PyTorch's
    keyword for a scalar is `value`."""
    def scatter(*args, **kwargs):
        if "value" in kwargs:
            kwargs["src"] = kwargs.pop("value")
        return binding(*args, **kwargs)
    return scatter


def _declare():
    define("gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor",
           out=True)
    overload(define("scatter(Tensor self, int dim, Tensor index, Tensor|Scalar src, *, "
                    "str? reduce=None) -> Tensor", out=True), _scatter_public)
    overload(define("scatter_(Tensor(a!) self, int dim, Tensor index, Tensor|Scalar src, *, "
                    "str? reduce=None) -> Tensor(a!)", tags=("inplace",), function=False,
                    decomposition=_scatter_), _scatter_public)
    define("scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", out=True)
    define("scatter_add_(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)",
           tags=("inplace",), function=False, decomposition=inplace_via("scatter_add"))
    define("scatter_reduce(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, "
           "bool include_self=True) -> Tensor", out=True)
    define("scatter_reduce_(Tensor(a!) self, int dim, Tensor index, Tensor src, str reduce, *, "
           "bool include_self=True) -> Tensor(a!)", tags=("inplace",), function=False,
           decomposition=inplace_via("scatter_reduce"))


_declare()


# -- backward formulas (see registry.derivative): PyTorch's, from derivatives.yaml ----------

def _no_reduce(reduce):
    if reduce is not None:  # PyTorch records a NotImplemented node for these overloads
        no_derivative("scatter")()


def _scatter_self(grad, dim, index, reduce):
    _no_reduce(reduce)
    return grad.scatter(dim, index, 0)


def _scatter_src(grad, dim, index, reduce):
    _no_reduce(reduce)
    return grad.gather(dim, index)


def _scatter_reduce_grad(grad, self, dim, index, src, reduce, include_self, result):
    """PyTorch's scatter_reduce_backward, including its conventions: amax/amin share a
    gradient evenly among the elements equal to the result (self counted even when
    include_self=False), and a zero in a product gets the product of the others."""
    import mindtorch as M
    reduce = SCATTER_REDUCTIONS[reduce]
    if reduce == "sum":
        g_self, g_src = grad, grad.gather(dim, index)
    elif reduce == "mean":
        n = (M.ones_like(grad) if include_self else M.zeros_like(grad)).scatter_add(
            dim, index, M.ones_like(src))
        n = n.masked_fill(n == 0, 1)
        g_self, g_src = grad / n, grad.gather(dim, index) / n.gather(dim, index)
    elif reduce == "prod":
        masked_self = self.masked_fill(self == 0, 1)
        g_self = grad * masked_self.scatter_reduce(dim, index, src, "prod",
                                                   include_self=include_self) / masked_self
        src_zero = src == 0
        zeros_there = M.zeros_like(self).scatter_add(dim, index, src_zero.to(self.dtype)).gather(
            dim, index)
        single_zero = src_zero & (zeros_there == 1)
        others = self.scatter_reduce(dim, index, src.masked_fill(single_zero, 1), "prod",
                                     include_self=include_self)
        g_src = M.where(single_zero, (grad * others).gather(dim, index),
                        (grad * result).gather(dim, index) / src.masked_fill(src_zero, 1))
    else:  # amax / amin
        value = result.gather(dim, index)
        self_is = (self == result).to(self.dtype)
        src_is = (src == value).to(self.dtype)
        share = grad / self_is.scatter_add(dim, index, src_is)
        g_self, g_src = self_is * share, src_is * share.gather(dim, index)
    if not include_self:
        g_self = g_self.scatter(dim, index, 0)
    return g_self, g_src


def _derivatives():
    derivative(OPS["gather"], self=lambda grad, self_geometry, dim, index:
               grad.new_zeros(self_geometry[0]).scatter_add(dim, index, grad))
    derivative(OPS["scatter"], self=_scatter_self, src=_scatter_src,
               name=lambda self, dim, index, src, reduce:
               f"ScatterBackward{int(not isinstance(src, type(self)))}")
    derivative(OPS["scatter_add"], self=lambda grad: grad,
               src=lambda grad, dim, index: grad.gather(dim, index))
    derivative(OPS["scatter_reduce"], {"self, src": _scatter_reduce_grad})
    refuse_complex_autograd("scatter_reduce")  # (PyTorch has no complex formula)


_derivatives()


def _exact_outs():
    """out= of these ops takes only the result's dtype, as in PyTorch."""
    from ._out_rules import exact_out
    for name in ("gather", "scatter", "scatter_add", "scatter_reduce"):
        exact_out(OPS[name], "mm")


_exact_outs()
