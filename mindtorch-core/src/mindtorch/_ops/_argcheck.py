"""Argument converters used by generated bindings when the fast type test fails.

Each takes (op, position, value) and returns the normalised value or raises the
TypeError PyTorch's argument parser would, naming the op, argument and position.
"""
import numbers
import operator

from .._lazy import lazy
from .._tensor import Tensor, autograd_meta  # (_tensor imports this one in functions)

np = lazy("numpy", globals())  # imported with the first tensor (see _lazy.py)

_TYPE_NAMES = {"Tensor|Scalar": "Tensor or Number", "Scalar": "Number", "int[]": "tuple of ints",
               "int|int[]": "int or tuple of ints",
               "Tensor[]": "tuple of Tensors", "Tensor?[]": "tuple of Tensors",
               "ScalarType": "torch.dtype", "Device": "torch.device",
               "MemoryFormat": "torch.memory_format"}


# ops whose one overload takes numbers as tensors: PyTorch's parser names just Tensor
_TENSOR_ONLY = {"add", "sub", "mul", "div", "add_", "sub_", "mul_", "div_"}


# nn.functional's functions that PyTorch writes in Python: the method each first calls on
# its tensor arguments (by position), whose failure is the error a non-tensor meets there
# ("'list' object has no attribute 'size'"; a NumPy array's int .size: "not callable")
_PYTHON_FIRST_CALL = {
    **dict.fromkeys(["l1_loss", "mse_loss", "smooth_l1_loss", "huber_loss",
                     "binary_cross_entropy", "functional_binary_cross_entropy_with_logits"],
                    ("size", (0, 1))),
    "gaussian_nll_loss": ("size", (0, 1, 2)),
    **dict.fromkeys(["adaptive_avg_pool2d", "adaptive_avg_pool3d",
                     "adaptive_max_pool2d_with_indices", "nn_adaptive_max_pool3d",
                     "functional_fractional_max_pool3d", "nn_max_unpool1d", "nn_max_unpool2d",
                     "nn_max_unpool3d"], ("size", (0,))),
    **dict.fromkeys(["glu", "dropout1d", "dropout2d", "dropout3d", "interpolate",
                     "local_response_norm", "functional_group_norm",
                     "functional_fractional_max_pool2d", "functional_embedding_bag",
                     "functional_linear_cross_entropy"], ("dim", (0,))),
    "functional_margin_ranking_loss": ("dim", (0, 1, 2)),
    **dict.fromkeys(["lp_pool1d", "lp_pool2d", "lp_pool3d"], ("pow", (0,))),
    "functional_softmax": ("softmax", (0,)), "functional_log_softmax": ("log_softmax", (0,)),
    "functional_softsign": ("abs", (0,)), "functional_tanhshrink": ("tanh", (0,)),
    "functional_softmin": (lambda v: (-v).softmax(), (0,)),  # F.softmin: (-input).softmax
}


# F's functions calling a PyTorch op with their arguments in another order: the name and
# position PyTorch's parser reports for each (F.embedding(input, weight) calls
# torch.embedding(weight, indices))
_TORCH_ARGS = {"functional_embedding": {0: ("indices", 1), 1: ("weight", 0)}}


def _fail(op, pos, value, expected=None):
    arg = op.schema.args[pos]
    first_call = _PYTHON_FIRST_CALL.get(op.name)
    if first_call is not None and pos in first_call[1]:
        probe = first_call[0]  # (Python's own AttributeError / TypeError)
        if callable(probe):
            probe(value)
        else:
            getattr(value, probe)()
    renamed = _TORCH_ARGS.get(op.name, {}).get(pos)
    if renamed is not None:
        import dataclasses
        arg, pos = dataclasses.replace(arg, name=renamed[0]), renamed[1]
    expected = expected or ("Tensor" if arg.type == "Tensor|Scalar" and op.name in _TENSOR_ONLY
                            else _TYPE_NAMES.get(arg.type, arg.type))
    raise TypeError(f"{_shown(op)}(): argument {_named(arg, pos)} must be "
                    f"{expected}, not {_type_name(value)}")


# the ATen function F's Python function hands its arguments to, which PyTorch's errors name
_ATEN_NAMES = {"cross_entropy": "cross_entropy_loss", "nll_loss": "nll_loss_nd"}


def _shown(op):
    """The op's name as PyTorch's messages give it: without the prefix mindtorch declares
    nn.functional's own ops with (functional_elu is F.elu, nn_max_unpool2d F.max_unpool2d),
    or the ATen function F calls."""
    if op.name in _ATEN_NAMES:
        return _ATEN_NAMES[op.name]
    for prefix in ("functional_", "nn_"):
        if op.name.startswith(prefix):
            return op.name[len(prefix):]
    return op.name


def _named(arg, pos):
    """'name' (position n), as PyTorch's parser names an argument: a keyword-only one
    without a position."""
    name = "input" if arg.name == "self" else arg.name  # (PyTorch's functions say input)
    return f"'{name}'" if arg.kwarg_only else f"'{name}' (position {pos + 1})"


def _type_name(value):
    """The type's name as PyTorch's parser prints it (numpy's types qualified: numpy.bool;
    torch's own value types too: torch.dtype)."""
    cls = type(value)
    if cls.__module__.startswith("numpy"):
        return f"{cls.__module__}.{cls.__name__}"
    if cls.__name__ in _TORCH_QUALIFIED and cls.__module__.startswith("mindtorch"):
        return f"torch.{cls.__name__}"
    return cls.__name__


_TORCH_QUALIFIED = {"dtype", "device", "Size", "memory_format", "layout"}


def _is_tensor(x):
    return isinstance(x, Tensor)


def tensor(op, pos, x):
    if _is_tensor(x):
        return x
    _fail(op, pos, x)


def _is_number(x):
    return isinstance(x, (numbers.Number, np.bool_)) and not isinstance(x, np.ndarray)


def _numpy_scalar(x):
    """A numpy scalar as torch's argument parser reads it: float64/complex128 are Python
    float/complex; integers read as int; bool_, the other floats and complex64 (its real
    part only, with NumPy's ComplexWarning) as a double."""
    if isinstance(x, np.integer):
        if x > 2 ** 63 - 1:  # (a uint64 past int64: THPUtils_unpackLong's refusal)
            raise TypeError("an integer is required")
        return int(x)
    if isinstance(x, np.complex128):
        return complex(x)
    return float(x)  # (complex64: NumPy's ComplexWarning, as in PyTorch)


def tensor_or_scalar(op, pos, x):
    if _is_tensor(x):
        return x
    if _is_number(x):
        return _numpy_scalar(x) if isinstance(x, np.generic) else x
    _fail(op, pos, x)


def number_tensor(op, x, y=None, rounding_mode=None):
    """A number given for both operands of add/mul/...: the first as a 0-dim tensor.
    PyTorch makes an int in [2**63, 2**64) a uint64 number, which promotes with no
    other number but a float or another uint64 (see _big_numbers)."""
    from .._creation import tensor
    if type(x) is int and not -2 ** 63 <= x < 2 ** 63 or \
            type(y) is int and not -2 ** 63 <= y < 2 ** 63:
        x = _big_numbers(op, x, y, rounding_mode)
        if type(x) is int and x >= 2 ** 63:  # two uint64 numbers (mul): uint64, as PyTorch
            from .._dtype import uint64
            return tensor(x, dtype=uint64)
    return tensor(x)


# PyTorch's cpu kernel named when two uint64 numbers meet (its NotImplementedError)
_UINT64_STUBS = {"add": "add_stub", "sub": "add_stub", "subtract": "add_stub",
                 "floor_divide": "div_floor_cpu", "floor": "div_floor_cpu",
                 "trunc": "div_trunc_cpu"}


def _big_numbers(op, x, y, rounding_mode):
    """torch.add(2**63, y) and friends, as PyTorch: returns the first number to use."""
    def kind(v):
        if type(v) is int and not -2 ** 63 <= v < 2 ** 63:
            if v >= 2 ** 64:
                raise OverflowError("int too big to convert")
            if v < 0:
                raise OverflowError("can't convert negative int to unsigned")
            return "UInt64"
        return ("Bool" if isinstance(v, bool) else "Long" if isinstance(v, int) else
                "Double" if isinstance(v, float) else "ComplexFloat")
    kx, ky = kind(x), kind(y)
    if "Bool" in (kx, ky) and op.name in ("sub", "subtract"):   # checked first
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not "
                           "supported. If you are trying to invert a mask, use the `~` or "
                           "`logical_not()` operator instead.")
    if "Double" in (kx, ky):        # a float wins: default-dtype floats, as PyTorch
        return float(x)
    if kx != ky:
        raise RuntimeError("Promotion for uint16, uint32, uint64 types is not supported, "
                           f"attempted to promote {kx} and {ky}")
    stub = _UINT64_STUBS.get(rounding_mode or op.name)
    if stub is not None:
        raise NotImplementedError(f"\"{stub}\" not implemented for 'UInt64'")
    if op.name in ("div", "divide", "true_divide"):   # true division: a float result
        return float(x)
    return x  # mul: computed in uint64


def scalar(op, pos, x):
    if isinstance(x, np.generic):
        return _numpy_scalar(x)
    if isinstance(x, (bool, complex)):
        return x
    if _is_number(x):
        return x
    if _is_tensor(x) and x.dim() == 0:  # (PyTorch's parser takes 0-dim tensors only)
        return x.item()
    _fail(op, pos, x)


def _not_int(x):
    """What PyTorch's parser refuses where it wants an int: floats, complex, bools (an int
    subclass it does not take as one) and tensors that are not 0-dim integers."""
    return isinstance(x, (float, complex, bool, np.bool_)) or \
        _is_tensor(x) and (x.dtype.kind not in "ui" or x.dim() != 0)


def dim_arg(method, dim):
    """Tensor.size(dim) / stride(dim): dim read as PyTorch's parser reads an int (ints,
    0-dim integer tensors; bools, floats and other tensors are TypeErrors)."""
    if _not_int(dim) or not hasattr(dim, "__index__"):
        raise TypeError(f"{method}(): argument 'dim' (position 1) must be int, not "
                        f"{_type_name(dim)}")
    return dim.__index__()


def int_(op, pos, x):
    if type(x) is int:  # (the common case, first)
        return x
    if _not_int(x):
        _fail(op, pos, x)
    try:
        return operator.index(x)
    except TypeError:
        _fail(op, pos, x)


def _not_list_int(x):
    """What PyTorch's int-list parser refuses as an element: _not_int's, but for integer
    tensors of one element (of any dims: size (tensor([2]), 3) is (2, 3))."""
    return _not_int(x) and not (_is_tensor(x) and x.dtype.kind in "uib" and x.numel() == 1)


def _tensor_int(t, sym):
    if sym and t.dtype.kind == "b":  # (taken by the parser's check, refused by SymInt's)
        raise RuntimeError("Expected scalar.isIntegral( false) to be true, but got false.  "
                           "(Could this error message be improved?  If so, please report an "
                           "enhancement request to PyTorch.)")
    return t.item()


def int_list(op, pos, x):
    if type(x) is int:  # (the common case, first: one dim)
        return (x,)
    if isinstance(x, (list, tuple)) or hasattr(x, "__iter__") and not _is_tensor(x):
        # PyTorch's parser looks at the first element's type only: (True, 2) is refused,
        # (2, True) is read as (2, 1)
        if isinstance(x, (list, tuple)) and x and _not_list_int(x[0]):
            arg = op.schema.args[pos]
            raise TypeError(f"{_shown(op)}(): argument {_named(arg, pos)} must be "
                            f"tuple of ints, but found element of type {_type_name(x[0])} "
                            f"at pos 0")
        try:
            sym = "dim" not in op.schema.args[pos].name  # (sizes are SymInt lists)
            return tuple(operator.index(v) if not _is_tensor(v) or _not_list_int(v) else
                         _tensor_int(v, sym) for v in x)
        except TypeError:
            k, bad = next(((k, v) for k, v in enumerate(x) if _not_list_int(v) or not
                           hasattr(v, "__index__")), (None, None))
            if k == 0:
                _fail(op, pos, bad)
            if k is not None:  # a later element: PyTorch's unpacking error
                raise TypeError(f"{_shown(op)}(): argument '{op.schema.args[pos].name}' failed "
                                f"to unpack the object at pos {k + 1} with error \"type must "
                                f"be tuple of ints,but got {_type_name(bad)}\"") from None
            _fail(op, pos, x)
    if _is_tensor(x) and x.numel() == 1 and x.dtype.kind in "ui":  # (as for int[1] dims)
        return (x.item(),)
    return (int_(op, pos, x),)


def int_or_list(op, pos, x):
    """An int stays an int; a sequence becomes a tuple of ints (split's two forms)."""
    if isinstance(x, (list, tuple)):
        return int_list(op, pos, x)
    return int_(op, pos, x)


def float_(op, pos, x):
    if isinstance(x, (numbers.Real, np.bool_)) and not isinstance(x, np.ndarray):
        return float(x)
    if _is_tensor(x) and x.dim() == 0:
        return float(x.item())
    _fail(op, pos, x)


def float_list(op, pos, x):
    """A sequence of real numbers, or one number standing for all of them."""
    if isinstance(x, (list, tuple)):
        return tuple(float_(op, pos, v) for v in x)
    return (float_(op, pos, x),)


# torch.nn.functional's Python-level flags, which PyTorch reads by truth value (`if inplace:`)
_TRUTHY = {"inplace", "size_average", "reduce"}


def bool_(op, pos, x):
    if isinstance(x, np.bool_) or op.schema.args[pos].name in _TRUTHY:
        return bool(x)  # (a tensor of several elements raises PyTorch's RuntimeError)
    _fail(op, pos, x)


def bool_list(op, pos, x):
    """A sequence of bools (ints read as bools, as aten's bool[] masks take them)."""
    if isinstance(x, (list, tuple)):
        try:
            return tuple(bool(operator.index(v)) for v in x)
        except TypeError:
            pass
    _fail(op, pos, x, "tuple of bools")


def str_(op, pos, x):
    if isinstance(x, str):  # a str subclass (numpy.str_), as PyTorch's parser takes it
        return str(x)
    _fail(op, pos, x)


_PY_DTYPES = {float: "float64", int: "int64", bool: "bool", complex: "complex128"}


def dtype_(op, pos, x):
    from .. import _dtype
    if isinstance(x, _dtype.dtype):
        return x
    py = _PY_DTYPES.get(x) if isinstance(x, type) else None  # (a numpy dtype == float too)
    if py is not None:
        return getattr(_dtype, py)
    _fail(op, pos, x)


def device_(op, pos, x):
    from .._device import device
    if isinstance(x, (str, int, device)):
        return device(x)
    _fail(op, pos, x)


def memory_format_(op, pos, x):
    """(only a torch.memory_format itself: its name as a str is refused too)"""
    _fail(op, pos, x)


def generator(op, pos, x):
    from .._random import Generator
    if isinstance(x, Generator):
        return x
    _fail(op, pos, x)


def _element_fail(pos, i, t):
    """PyTorch's error for a sequence argument holding something else than a tensor (its
    argument numbered from 0)."""
    raise TypeError(f"expected Tensor as element {i} in argument {pos}, but got "
                    f"{_type_name(t)}")


def tensor_list(op, pos, x):
    if isinstance(x, (list, tuple)):
        for i, t in enumerate(x):
            if type(t) is not Tensor and not isinstance(t, Tensor):
                _element_fail(pos, i, t)
        return tuple(x)
    _fail(op, pos, x)


def optional_tensor_list(op, pos, x):
    if isinstance(x, (list, tuple)):
        for i, t in enumerate(x):
            if t is not None and type(t) is not Tensor and not isinstance(t, Tensor):
                _element_fail(pos, i, t)
        return tuple(x)
    _fail(op, pos, x)


def wrap_dim(dim, ndim):
    n = ndim if ndim > 0 else 1
    if dim < -n or dim >= n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], "
                         f"but got {dim})")
    return dim + n if dim < 0 else dim


def wrap_dims(dims, ndim):
    """Wrapped dims, left to right: a repeated dim is reported before a later one that is
    out of range, as in PyTorch."""
    if len(dims) == 1:
        return (wrap_dim(dims[0], ndim),)
    out = []
    for d in dims:
        w = wrap_dim(d, ndim)
        if w in out:
            raise RuntimeError(f"dim {w} appears multiple times in the list of dims")
        out.append(w)
    return tuple(out)


def no_grad_view(base, result):
    """Views taken with grad mode off of a tensor that requires grad: they require grad too,
    as leaves without history that in-place writes under grad mode refuse (PyTorch's
    CreationMeta::NO_GRAD_MODE).  (Reached only when the binding did not record: grad mode
    off, since the base requires grad.)"""
    for v in result if isinstance(result, (tuple, list)) else (result,):
        if v is not base and v._storage is base._storage and not v._requires_grad:
            from ..autograd.grad_mode import state
            v._requires_grad = True
            autograd_meta(v)["no_grad_view"] = "inference" if state.inference else "no_grad"
    return result


def no_tensor(op):
    raise TypeError(f"{_shown(op)}(): expected at least one argument to be a Tensor")


def set_requires_grad(t):
    from .._dtype import DIFFERENTIABLE
    if t.dtype not in DIFFERENTIABLE:
        raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                           "gradients")
    t._requires_grad = True


def out_requires_grad(op):
    raise RuntimeError(f"{_shown(op)}(): functions with out=... arguments don't support automatic "
                       f"differentiation, but one of the arguments requires grad.")


def factory_layout(layout, pin_memory):
    """A factory's layout= and pin_memory=, as PyTorch accepts them (strided, unpinned
    tensors are what mindtorch makes; see decls/random.py's _factory_kwargs too)."""
    from .._layout import strided
    if layout is not None and layout is not strided:
        raise RuntimeError(f"unsupported layout {layout}: factories make strided tensors (sparse "
                           f"ones come from torch.sparse_coo_tensor, sparse_csr_tensor or "
                           f"Tensor.to_sparse)")
    if pin_memory:
        raise RuntimeError("pin_memory=True requires a CUDA or other accelerator backend; no "
                           "pinned memory allocator is available on this system.")


def out_of_memory(error):
    """A kernel's MemoryError as PyTorch's CPU allocator failure (RuntimeError), with the
    size NumPy could not allocate when it says."""
    shape, dt = getattr(error, "shape", None), getattr(error, "dtype", None)
    size = ""
    if shape is not None and dt is not None:
        n = dt.itemsize
        for s in shape:
            n *= s
        size = f" you tried to allocate {n} bytes."
    raise RuntimeError(f"DefaultCPUAllocator: can't allocate memory:{size}") from None
