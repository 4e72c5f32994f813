"""torch.tensor(data) for Python data: PyTorch's rules for nested sequences (shape read
off the first elements, dtype inference, per-leaf reading and its errors), with a fast
path for the common nests (regular nests of Python numbers, of numpy scalars of one type,
or of 0-dim tensors).  Host data only: the result is a numpy array (or, for tensor
leaves, a stack of them through the op)."""
import numbers
import operator
from itertools import chain

from . import _dtype as D
from ._lazy import lazy
from ._promotion import promote_types, scalar_dtype
from ._storage import _spec
from ._tensor import Tensor
from ._warn_once import warn_once

np = lazy("numpy", globals())  # imported with the first tensor (see _lazy.py)
_chain = chain.from_iterable

_MAX_DIMS = 64
_WIDE = {"b": "bool", "u": "int64", "i": "int64", "f": "float64", "c": "complex128"}


def _is_sequence(x):
    """Python's sequence check as PyTorch applies it (tensors and numpy scalars are leaves;
    strings and 0-dim arrays count as sequences, and fail later as in PyTorch)."""
    if isinstance(x, (list, tuple, range, np.ndarray, str, bytes)):
        return True
    if isinstance(x, (Tensor, np.generic, dict, numbers.Number)):
        return False
    return hasattr(type(x), "__getitem__") and hasattr(type(x), "__len__")


def _sizes(data):
    """The shape read off the first elements (PyTorch's compute_sizes)."""
    sizes = []
    x = data
    while _is_sequence(x):
        if isinstance(x, np.ndarray) and x.ndim == 0:
            raise TypeError("len() of unsized object")
        n = len(x)
        sizes.append(n)
        if len(sizes) > _MAX_DIMS:
            raise ValueError(f"too many dimensions '{type(x).__name__}'")
        if n == 0:
            break
        x = x[0]
    return sizes


def _infer(x):
    """The dtype torch.tensor infers (PyTorch's infer_scalar_type): numpy leaves keep their
    dtype, Python numbers give bool / int64 / the default float or complex dtype, and
    sequences promote their items."""
    if isinstance(x, (np.ndarray, np.generic)):  # (byte order does not matter here)
        return D.from_numpy_dtype(x.dtype if x.dtype.isnative else x.dtype.newbyteorder("="))
    if isinstance(x, (bool, int, float, complex)):  # Python's numbers and their subclasses
        if isinstance(x, complex) and D.get_default_dtype() is D.bfloat16:
            raise RuntimeError("invalid default scalar type for complex")  # (as PyTorch)
        return scalar_dtype(x)
    if isinstance(x, Tensor):
        return x.dtype
    if isinstance(x, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(x).__name__}'")
    if _is_sequence(x):
        if len(x) == 0:
            return D.get_default_dtype()
        dtype = None
        for item in x:
            if item is x:
                raise TypeError("new(): self-referential lists are incompatible")
            d = _infer(item)
            dtype = d if dtype is None else promote_types(dtype, d)
            if dtype is D.complex128:
                break
        return dtype
    raise RuntimeError(f"Could not infer dtype of {_tp_name(type(x))}")


def _tp_name(cls):
    """The type's name as CPython's C API shows it (decimal.Decimal, but Fraction)."""
    # classes defined in Python are heap types (Py_TPFLAGS_HEAPTYPE) that are not immutable
    # (Py_TPFLAGS_IMMUTABLETYPE), unlike C heap types (decimal.Decimal on 3.13, re.Pattern)
    python_class = cls.__flags__ & (1 << 9) and not cls.__flags__ & (1 << 8)
    return cls.__name__ if python_class or cls.__module__ == "builtins" else \
        f"{cls.__module__}.{cls.__qualname__}"


def _read_leaf(x, dtype):
    """A leaf of no Python number type read as PyTorch reads it for dtype: through
    __index__ for integer and bool dtypes, __float__ (or __complex__) otherwise."""
    try:
        if isinstance(x, (str, bytes)):
            raise TypeError
        if dtype.kind in "uib":
            return operator.index(x)
        return complex(x) if dtype.kind == "c" else float(x)
    except TypeError:
        raise TypeError(f"'{_tp_name(type(x))}' object cannot be interpreted as an integer"
                        if dtype.kind in "uib" else
                        f"must be real number, not {_tp_name(type(x))}") from None


def _store(x, sizes, dim, dtype, out):
    """Append the leaves of x to out, checking the shape as PyTorch's recursive_store."""
    if dim == len(sizes):
        kind = dtype.kind  # PyTorch reads the leaf with __index__ for "uib"
        if isinstance(x, Tensor):
            if x.numel() != 1 or kind in "uib" and x.dtype.kind not in "uib":
                if kind in "uib":
                    raise TypeError("only integer tensors of a single element can be converted "
                                    "to an index")
                raise ValueError("only one element tensors can be converted to Python scalars")
            if not _spec(x._device).has_data:
                raise RuntimeError(f"Tensor.item() cannot be called on {x._device.type} "
                                   f"tensors")
            if x._requires_grad and kind in "fc":  # (read through float(), which warns)
                from ._tensor_conversion import _warn_scalar_of_grad
                _warn_scalar_of_grad()
            x = x.item()
            if kind == "f" and isinstance(x, complex):  # c10's checked conversion
                if x.imag:
                    raise RuntimeError("value cannot be converted to type double without "
                                       "overflow")
                x = x.real
        elif isinstance(x, np.ndarray) and x.ndim:  # (read by __index__ / __float__, as
            x = operator.index(x) if kind in "uib" else \
                complex(x) if kind == "c" else float(x)  # PyTorch does: numpy's errors)
        elif isinstance(x, (np.generic, np.ndarray)):
            if dtype is D.uint64 and isinstance(x, np.uint64):  # (PyTorch's store refuses)
                raise TypeError("an integer is required")
            _check_numpy_leaves(x.dtype, dtype)
            x = x.item()
            if kind == "f" and isinstance(x, complex):  # numpy's complex read as a real
                x = x.real
        elif not isinstance(x, (int, float, complex)):
            x = _read_leaf(x, dtype)
        out.append(x)
        return
    if isinstance(x, Tensor):  # (PyTorch's PySequence_Fast iterates a tensor met here)
        _store_tensor(x, sizes, dim, dtype, out)
        return
    if not _is_sequence(x):
        raise TypeError("not a sequence")
    n = len(x)
    if n != sizes[dim]:
        raise ValueError(f"expected sequence of length {sizes[dim]} at dim {dim} (got {n})")
    if isinstance(x, np.ndarray):
        if x.shape != tuple(sizes[dim:]):
            bad = next(i for i, (a, b) in enumerate(zip(x.shape, sizes[dim:])) if a != b)
            raise ValueError(f"expected sequence of length {sizes[dim + bad]} at dim "
                             f"{dim + bad} (got {x.shape[bad]})")
        if x.size:
            _check_numpy_leaves(x.dtype, dtype)
        if dtype.kind == "f" and x.dtype.kind == "c":
            x = x.real
        out.extend(x.ravel().tolist())
        return
    for item in x:
        _store(item, sizes, dim + 1, dtype, out)


def _store_tensor(x, sizes, dim, dtype, out):
    """A tensor above the leaves, read as its 0-dim items one by one (PyTorch iterates it);
    at once when its shape is the rest of the nest: the first item checks what they all
    share (dtype rules, a requires-grad warning), complex ones for imaginary parts."""
    if not x.dim():
        raise TypeError("not a sequence")
    if len(x) != sizes[dim]:
        raise ValueError(f"expected sequence of length {sizes[dim]} at dim {dim} (got {len(x)})")
    if tuple(x.shape) != tuple(sizes[dim:]) or not x.numel():
        for item in x:
            _store(item, sizes, dim + 1, dtype, out)
        return
    flat = x.detach().reshape(-1)
    _store(x.reshape(-1)[0], sizes, len(sizes), dtype, [])
    values = flat.tolist()
    if dtype.kind == "f" and x.dtype.is_complex:  # (each item's checked conversion)
        if any(v.imag for v in values):
            raise RuntimeError("value cannot be converted to type double without overflow")
        values = [v.real for v in values]
    out.extend(values)


def _check_numpy_leaves(np_dtype, dtype):
    """Refuse numpy values PyTorch cannot read into dtype: integer and bool dtypes read
    through __index__, which numpy's floats, complex and bools lack (its float64 and
    complex128 are Python floats and complex numbers, read directly; bools keep a
    deprecated __index__ up to numpy 2.2, the last for Python 3.10)."""
    k, kind = np_dtype.kind, dtype.kind
    refused = "fc" if hasattr(np.bool_, "__index__") else "fcb"
    if kind in "ui" and k in refused and np_dtype.char != "d" or \
            kind == "b" and k in "fc" and np_dtype.char not in "dD":
        raise TypeError(f"'numpy.{np_dtype.name}' object cannot be interpreted as an integer")


def _cast_leaves(host, dtype):
    """Python numbers (a wide host array) written into `dtype` with PyTorch's checks: a
    complex into a real dtype and out-of-range values into an integer dtype raise."""
    if host.dtype == dtype.np:  # nothing to check or cast
        return host
    kind = dtype.kind
    if host.dtype.kind == "c" and kind in "uif" and host.size:
        raise TypeError("'complex' object cannot be interpreted as an integer" if kind != "f"
                        else "must be real number, not complex")
    if dtype is D.uint64 and host.dtype.kind == "f" and host.size:  # (read as unsigned)
        raise TypeError("an integer is required")
    if kind in "ui" and host.dtype.kind in "fi" and host.size:
        info = D.iinfo(dtype)
        if host.dtype.kind == "f":
            with np.errstate(invalid="ignore"):
                bad = ~np.isfinite(host) | (host < info.min) | (host > info.max)
        elif kind == "u":  # c10 lets negative ints wrap into unsigned types
            bad = (host < -info.max) | (host > info.max)
        else:
            bad = (host < info.min) | (host > info.max)
        if bad.any():
            raise RuntimeError(f"value cannot be converted to type {dtype.name} without "
                               f"overflow")
    if dtype._limited == D._FP8 and host.dtype != dtype.np:
        from . import _float8
        return _float8.cast(host, dtype)
    with np.errstate(all="ignore"):
        if dtype is D.float16 and host.dtype.itemsize > 4 and host.dtype.kind == "f":
            host = host.astype(np.float32)  # (c10::Half is built from a float: rounds twice)
        return host.astype(dtype.np, copy=False)


NEST = frozenset((list, tuple, range))
_PY_LEAVES = frozenset((bool, int, float))


def regular_nest(data):
    """(sizes, leaves in order, their set of types) when data is a non-empty, regular
    (not ragged) nest of lists and tuples whose leaves share one kind of type, else None.
    The fast path of tensor(): one pass per level, no per-leaf Python code."""
    sizes = [len(data)]
    flat = data
    while sizes[-1]:
        types = set(map(type, flat))
        if not types <= NEST:
            return sizes, flat, types
        if len(sizes) == _MAX_DIMS:
            return None
        lengths = set(map(len, flat))
        if len(lengths) != 1:
            return None
        sizes.append(lengths.pop())
        flat = list(_chain(flat))
    return None


def _fast_leaves(nest, dtype):
    """(sizes, leaves, inferred dtype, numpy dtype of the leaves or None) of
    torch.tensor(data, dtype=dtype) for the common nests: Python bools/ints/floats, or
    numpy scalars of one type, or numpy arrays of one shape and dtype (these two only with
    dtype None or theirs); None for anything else (mixtures with other leaves, ragged or
    empty nests), which the general path decides, errors included.  The inference is
    _infer's for these leaves."""
    sizes, flat, types = nest
    if types <= _PY_LEAVES:
        inferred = D.get_default_dtype() if float in types else \
            D.int64 if int in types else D.bool
        return sizes, flat, inferred, None
    if len(types) == 1:
        (leaf,) = types
        if issubclass(leaf, np.generic) and leaf.__module__ == "numpy" and leaf is not np.uint64:
            try:
                inferred = D.from_numpy_dtype(leaf)
            except TypeError:
                return None
            if dtype is None or dtype is inferred:
                return sizes, flat, inferred, leaf
        elif leaf is np.ndarray:
            shape, dt = flat[0].shape, flat[0].dtype
            if not shape or not dt.isnative or \
                    any(a.shape != shape or a.dtype != dt for a in flat):  # (0-dim: len() fails)
                return None
            try:
                inferred = D.from_numpy_dtype(dt)
            except TypeError:
                return None
            if dtype is None or dtype is inferred:
                return sizes + list(shape), flat, inferred, dt
    return None


def _warn_list_of_arrays(nest):
    """PyTorch's warning (once per process) for a nest holding a numpy array anywhere,
    given once its shape is known (a 0-d array where a size is read fails first)."""
    if nest is not None and np.ndarray in nest[2]:
        warn_once("list of arrays", "Creating a tensor from a list of numpy.ndarrays is "
                  "extremely slow. Please consider converting the list to a single "
                  "numpy.ndarray with numpy.array() before converting to a tensor.")


def host_from_sequence(data, dtype, nest=None):
    """(C-contiguous host array, dtype) of torch.tensor(data) for Python data; nest is
    regular_nest(data) when the caller has it."""
    if type(data) in NEST and nest is None:
        nest = regular_nest(data)
    fast = _fast_leaves(nest, dtype) if nest is not None else None
    if fast is not None:
        _warn_list_of_arrays(nest)
        sizes, flat, inferred, leaf = fast
        target = dtype or inferred
    else:
        if isinstance(data, (str, bytes)):
            raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
        sizes = _sizes(data)
        _warn_list_of_arrays(nest)
        try:
            inferred = _infer(data)
        except (RuntimeError, TypeError):  # (PyTorch infers nothing when given a dtype)
            if dtype is None:
                raise
            inferred = dtype
        target = dtype or inferred
        flat, leaf = [], None
        # PyTorch converts each leaf as it stores it: the first bad value, or a break in
        # the nest's shape after the good ones, is the error it reports
        if 0 not in sizes:  # PyTorch reads no element of an empty nest (nor its shape)
            try:
                _store(data, sizes, 0, target, flat)
            except (TypeError, ValueError):
                _raise_first_leaf_error(flat, target)
                raise
    try:
        if target.kind in "ui" and inferred.kind == "f":  # ints and floats into an int dtype
            return _mixed_into_integers(flat, target).reshape(sizes), target
        host = np.array(flat, dtype=leaf) if leaf is not None else \
            _wide_array(flat, inferred, target)
        return _cast_leaves(host.reshape(sizes), target), target
    except (TypeError, ValueError, RuntimeError):
        _raise_first_leaf_error(flat, target)
        raise


def _mixed_into_integers(flat, dtype):
    """Python ints and floats written into an integer dtype: each checked as its own type,
    as PyTorch reads each leaf (an int may wrap into an unsigned type, a float may not)."""
    integral = np.array([isinstance(x, numbers.Integral) for x in flat], dtype=bool)
    out = np.empty(len(flat), dtype.np)
    out[integral] = _cast_leaves(_wide_array([x for x, i in zip(flat, integral) if i],
                                             D.int64, dtype), dtype)
    out[~integral] = _cast_leaves(np.array([x for x, i in zip(flat, integral) if not i],
                                           dtype=np.float64), dtype)
    return out


def _raise_first_leaf_error(flat, dtype):
    """Raise the error of the first leaf PyTorch would refuse to write into dtype (checked
    one by one, in order: only on the error path)."""
    kind = dtype.kind
    if kind not in "uif":
        return
    for x in flat:
        if isinstance(x, (complex, np.complexfloating)):
            raise TypeError("'complex' object cannot be interpreted as an integer" if kind != "f"
                            else "must be real number, not complex")
        if kind == "f":
            continue
        if dtype is D.uint64 and isinstance(x, int):
            _check_unsigned64(x)
            continue
        if isinstance(x, (int, np.integer)) and not -2 ** 63 <= x < 2 ** 63:
            raise ValueError("Overflow when unpacking long long")
        try:
            _cast_leaves(np.array([x]), dtype)
        except OverflowError:
            raise ValueError("Overflow when unpacking long long") from None


def _check_unsigned64(x):
    """PyTorch's errors reading a Python int as uint64 (no wrapping, unlike a Scalar)."""
    if x < 0:
        raise OverflowError("can't convert negative int to unsigned")
    if x >= 2 ** 64:
        raise OverflowError("int too big to convert")


def _wide_array(flat, inferred, target):
    """The leaves in the widest dtype of their kind (Python ints bound for a floating
    dtype are read as floats: 2**64 fits a float32)."""
    if target.kind == "b":  # any number reads as its truth value (2**70 too)
        return np.array([bool(x) for x in flat], dtype=np.bool_)
    if target is D.uint64 and inferred.kind in "ui":  # read as unsigned 64-bit ints
        for x in flat:
            _check_unsigned64(x)
        return np.array(flat, dtype=np.uint64)
    kind = target.kind if inferred.kind in "ui" and target.kind in "fc" or \
        inferred.kind == "c" and target.kind == "f" else inferred.kind
    try:
        return np.array(flat, dtype=_WIDE[kind])
    except OverflowError:
        raise ValueError("Overflow when unpacking long long") from None
