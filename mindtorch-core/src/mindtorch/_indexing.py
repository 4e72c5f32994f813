"""Tensor.__getitem__ / __setitem__, following PyTorch's indexing rules.

Basic indices are applied left to right as views (ints -> select, slices -> slice,
None -> unsqueeze, Ellipsis skips dims), so the result shares storage.  Tensor indices
(and lists, and Python bools) are recorded per dim of that view and applied last by the
`index` op (a copy), or by `index_put_` when assigning.  As in PyTorch, ints are applied
as selects *before* advanced indexing, so `x[:, idx, :, 0]` keeps idx's dims in place.
"""
import numbers
import operator
import warnings

from . import _dtype as D
from ._lazy import lazy
from ._ops import OPS
from ._ops._argcheck import no_grad_view
from ._ops.decls.indexing import checked_scalar, is_mask
from ._strides import check_no_internal_overlap, warn_expanded
from ._tensor import Tensor
from .overrides import handle_public, has_torch_function_unary
from ._warn_once import _user_level
from .autograd._record import forward as _fw
from .autograd.grad_mode import state as _grad

np = lazy("numpy", globals())  # imported with the first tensor (see _lazy.py)

# the ops indexing is built from, bound on first use (generating their bindings at import
# would cost ~5 ms of `import mindtorch`)
_select = _slice = _unsqueeze = _alias = _index = _index_put_ = None


def _bind():
    global _select, _slice, _unsqueeze, _alias, _index, _index_put_
    _slice = OPS["slice"].binding
    _unsqueeze = OPS["unsqueeze"].binding
    _alias = OPS["alias"].binding
    _index = OPS["index"].binding
    _index_put_ = OPS["index_put_"].call  # the op itself: its public function refuses None
    _select = OPS["select"].binding

_SEQUENCE_WARNING = (
    "Using a non-tuple sequence for multidimensional indexing is deprecated and will be "
    "changed in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will "
    "be interpreted as tensor index, x[torch.tensor(seq)], which will result either in an "
    "error or a different result")


# -- classifying index items ---------------------------------------------------------------

def _is_bool(x):
    return x is True or x is False or isinstance(x, np.bool_)


def _is_int(x):
    return type(x) is int or (isinstance(x, numbers.Integral) and not _is_bool(x)) or \
        isinstance(x, np.integer) or (  # any other object with __index__ counts as its int
            hasattr(type(x), "__index__") and not isinstance(x, Tensor) and not _is_bool(x)
            and not _is_sequence(x))


def _is_sequence(x):
    return isinstance(x, (list, tuple, np.ndarray, str, bytes)) or (
        hasattr(x, "__len__") and hasattr(x, "__getitem__") and not isinstance(x, Tensor)
        and not isinstance(x, dict))


def _as_tuple(index):
    """The index as a tuple of items (NumPy's heuristic, as PyTorch applies it: a short
    list holding slices, sequences, tensors, None or Ellipsis is a tuple in disguise)."""
    if isinstance(index, tuple):  # (torch.Size and namedtuples too, as PyTorch's PyTuple_Check)
        return tuple(index)
    # (a NumPy array is an index tensor, never a tuple in disguise)
    if isinstance(index, (Tensor, np.ndarray)) or not _is_sequence(index):
        return (index,)
    try:
        n = len(index)
    except TypeError:
        return (index,)
    if n >= 32:
        return (index,)
    for item in index:
        if isinstance(item, (Tensor, slice)) or item is None or item is Ellipsis or \
                _is_sequence(item):
            warnings.warn(_SEQUENCE_WARNING, UserWarning, stacklevel=_user_level())
            return tuple(index)
    return (index,)


def _sequence_to_tensor(seq, device):
    """A list index as a tensor: bool or uint8 (a mask) if its items are (a NumPy uint8
    array, say), else int64."""
    from ._creation import tensor
    t = tensor(seq, device=device)
    if t.dtype not in (D.bool, D.uint8, D.int64):
        t = tensor(seq, dtype=D.int64, device=device)
    return t


def _count_dims(items):
    n = 0
    for x in items:
        if x is None or x is Ellipsis or _is_bool(x):
            continue
        if isinstance(x, Tensor) and is_mask(x):
            n += x.ndim
        else:
            n += 1
    return n


def _bool_index(value, device):
    """The index tensor a Python/0-dim bool stands for on a new dim of size 1."""
    from ._creation import _empty
    t = _empty((1 if value else 0,), D.int64, device)
    return t.zero_() if value else t


def _select_checked(t, dim, index, real_dim):
    if not -2 ** 63 <= index < 2 ** 63:  # PyTorch unpacks the index as an int64 first
        raise ValueError("Overflow when unpacking long long")
    size = t._shape[dim]
    if index < -size or index >= size:
        raise IndexError(f"index {index} is out of bounds for dimension {real_dim} with size "
                         f"{size}")
    return _select(t, dim, index)


def _slice_bound(v):
    try:
        return operator.index(v)
    except TypeError:
        if isinstance(v, Tensor):
            raise  # (its own message)
        raise TypeError("slice indices must be integers or None or have an __index__ "
                        "method") from None


def _slice_item(t, dim, s):
    start = None if s.start is None else _slice_bound(s.start)
    stop = None if s.stop is None else _slice_bound(s.stop)
    step = 1 if s.step is None else _slice_bound(s.step)
    if step == 0:
        raise ValueError("slice step cannot be zero")
    if step < 0:
        raise ValueError("step must be greater than zero")
    if t.ndim == 0:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    if step == 1 and start in (None, 0) and (stop is None or stop >= t._shape[dim]):
        return t  # the whole dim: no new view needed
    return _slice(t, dim, start, stop, step)


def _zero_dim_int_error(i):
    """PyTorch's error for t[i] of a 0-dim t: i == 0 is told to use item(), any other i is
    out of bounds of a size-0 dim."""
    if i != 0:
        return IndexError(f"index {i} is out of bounds for dimension 0 with size 0")
    return IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                      "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")


def _invalid(x):
    cls = type(x)  # named by its C tp_name: a class defined in Python by its bare name
    name = cls.__name__ if cls.__flags__ & (1 << 9) else _qualname(x)  # (Py_TPFLAGS_HEAPTYPE)
    return IndexError(f"only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                      f"Variables are valid indices (got {name})")


def _apply(t, items):
    """Apply the basic indices of `items` to t as views.  Returns the view and the list of
    tensor indices per dim of it (None entries are full slices), or None if there are none.
    Masks stay masks (covering their ndim dims)."""
    ndim = t.ndim
    # lists become index tensors first: a nested bool list is a mask over several dims
    items = [_sequence_to_tensor(x, t._device) if not isinstance(x, (Tensor, slice)) and
             x is not None and x is not Ellipsis and _is_sequence(x) else x for x in items]
    specified = _count_dims(items)
    if specified > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    result, dim = t, 0
    adv, covered = None, 0  # adv covers result dims [0, covered)

    def record(index, width):
        nonlocal adv, covered
        if adv is None:
            adv = []
        while covered < dim:
            adv.append(None)
            covered += 1
        adv.append(index)
        covered += width

    for real_dim, x in enumerate(items):
        if _is_int(x):
            if result.ndim == 0:
                raise IndexError(f"too many indices for tensor of dimension {ndim}")
            result = _select_checked(result, dim, operator.index(x), real_dim)
        elif isinstance(x, slice):
            result = _slice_item(result, dim, x)
            dim += 1
        elif x is None:
            result = _unsqueeze(result, dim)
            dim += 1
        elif x is Ellipsis:
            dim += ndim - specified
        elif x is True or x is False:  # (NumPy's bool_ is refused, as in PyTorch)
            result = _unsqueeze(result, dim)
            record(_bool_index(x, t._device), 1)
            dim += 1
        else:
            if not isinstance(x, Tensor):
                raise _invalid(x)
            if x.ndim == 0 and x.dtype.kind in "uib":
                if is_mask(x):  # a 0-dim mask: a new dim of size 1 or 0
                    result = _unsqueeze(result, dim)
                    record(_bool_index(bool(x.item()), t._device), 1)
                    dim += 1
                else:
                    result = _select_checked(result, dim, int(x.item()), real_dim)
                continue
            width = x.ndim if is_mask(x) else 1  # (its dtype is checked by the index op)
            if x._device is not t._device:
                if is_mask(x):  # expand on the mask's own device (it has the data)
                    for i in x.nonzero().unbind(1):
                        record(i.to(t._device), 1)
                        dim += 1
                    continue
                x = x.to(t._device)
            record(x, width)
            dim += width
    return result, adv


def _basic_view(t, items):
    """t[items] for the common case of items holding only ints, slices with int (or None)
    bounds and positive steps, None and one Ellipsis, all valid: the view's metadata in
    one pass (as the chain of select/slice/unsqueeze views would give it).  None when
    anything else is there: the general path handles it (and raises the errors)."""
    shape, stride = t._shape, t._stride
    ndim = len(shape)
    specified = 0
    ellipsis = False
    for x in items:
        tx = type(x)
        if tx is int or tx is slice:
            specified += 1
        elif x is Ellipsis:
            if ellipsis:
                return None
            ellipsis = True
        elif x is not None:
            return None
    if specified > ndim:
        return None
    new_shape, new_stride = [], []
    offset = t._offset
    d = 0
    for x in items:
        tx = type(x)
        if tx is int:
            n = shape[d]
            if x < 0:
                x += n
                if x < 0:
                    return None
            elif x >= n:
                return None
            offset += x * stride[d]
            d += 1
        elif tx is slice:
            step = x.step
            if step is None:
                step = 1
            elif type(step) is not int or step <= 0:
                return None
            if (x.start is not None and type(x.start) is not int) or \
                    (x.stop is not None and type(x.stop) is not int):
                return None
            start, stop, _ = x.indices(shape[d])
            new_shape.append((stop - start + step - 1) // step if stop > start else 0)
            new_stride.append(stride[d] * step)
            offset += start * stride[d]
            d += 1
        elif x is None:  # unsqueeze's stride, from the dim that follows
            new_shape.append(1)
            new_stride.append(shape[d] * stride[d] if d < ndim else 1)
        else:
            k = ndim - specified
            new_shape.extend(shape[d:d + k])
            new_stride.extend(stride[d:d + k])
            d += k
    new_shape.extend(shape[d:])
    new_stride.extend(stride[d:])
    return t._view(tuple(new_shape), tuple(new_stride), offset)


def getitem(t, index):
    if _select is None:
        _bind()
    if t._requires_grad or _fw.on:  # (forward AD: the view ops give tangents)
        if _grad.enabled or _fw.on:  # through the view ops, which record history
            return _getitem_general(t, index)
        return no_grad_view(t, _getitem_plain(t, index))
    return _getitem_plain(t, index)


def _getitem_plain(t, index):
    """t[index] without recording: basic indexing as views, the rest through the ops."""
    tp = type(index)
    if tp is int or tp is slice:
        r = _basic_view(t, (index,))
        if r is not None:
            return r
        if tp is int:
            if t.ndim == 0:
                raise _zero_dim_int_error(index)
            return _select_checked(t, 0, index, 0)
        r = _slice_item(t, 0, index)
        return _alias(t) if r is t else r
    if tp is tuple:
        r = _basic_view(t, index)
        if r is not None:
            return r
    elif tp is Tensor:  # one integer index tensor on the same device: the index op
        dt = index.dtype
        if (dt is D.int64 or dt is D.int32) and index._shape and t._shape and \
                index._device is t._device:
            return _index(t, (index,))
    elif index is None:
        return _unsqueeze(t, 0)
    elif index is Ellipsis:
        return _alias(t)
    return _getitem_general(t, index)


def _overriding(index, value=None):
    """Whether a tensor-like in the index (or the assigned value) takes t[index] over
    through its __torch_function__, as PyTorch's indexing checks.  (t itself: its
    subclass's routed __getitem__; plain t and plain indices: the callers' fast paths.)"""
    items = index if type(index) is tuple else (index,)
    for x in (*items, value):
        tp = type(x)
        if tp is int or tp is slice or tp is Tensor or x is None or x is Ellipsis:
            continue
        if tp is list and any(map(has_torch_function_unary, x)) or \
                has_torch_function_unary(x):
            return True
    return False


def _getitem_general(t, index):
    if type(index) is not slice and _overriding(index):
        return handle_public(Tensor.__getitem__, (t, index), None)
    if t.ndim == 0 and type(index) in (int, slice):  # (raises PyTorch's 0-dim messages)
        return _getitem_plain(t, index)
    result, adv = _apply(t, _as_tuple(index))
    if adv is None:
        return _alias(t) if result is t else result
    return _index(result, adv)


# -- assignment ----------------------------------------------------------------------------

def _type_name(t):
    from ._creation import parse_type_name
    return parse_type_name(t)


def _value(t, value):
    """The assigned value: a tensor, or a Python scalar checked against t's dtype the way
    PyTorch's setitem converts it (a Python int must fit int64; half types take
    out-of-range floats as inf; negative ints wrap into unsigned types)."""
    if isinstance(value, Tensor):
        return value
    if isinstance(value, np.generic):
        # PyTorch takes NumPy integers and the scalar types that subclass Python's
        # (float64, complex128), not float32/float16/complex64/bool_
        if not isinstance(value, (np.integer, float, complex)):
            raise TypeError(f"can't assign a {_qualname(value)} to a {_type_name(t)}")
        value = value.item()
    if not isinstance(value, (bool, int, float, complex)):
        raise TypeError(f"can't assign a {_qualname(value)} to a {_type_name(t)}")
    dtype = t.dtype
    if type(value) is int and not -2 ** 63 <= value < 2 ** 63:
        raise ValueError("Overflow when unpacking long long")
    if dtype is D.float16 or dtype is D.bfloat16 or dtype._limited == D._FP8:
        if isinstance(value, complex):
            checked_scalar(value, D.float64)  # raises unless the imaginary part is 0
            value = value.real
        if dtype._limited == D._FP8:  # (converted as a double tensor: no overflow check)
            from ._float8 import cast
            return float(cast(np.asarray(value, np.float64), dtype))
        with np.errstate(over="ignore"):  # out of range becomes inf here, unlike fill_
            # (through float32, as c10 builds a Half from a float)
            return float(np.asarray(value, np.float64).astype(np.float32).astype(dtype.np))
    checked_scalar(value, dtype)
    if dtype.kind == "u" and type(value) is int and value < 0:
        value %= 1 << (8 * dtype.itemsize)
    return value


def _qualname(value):
    cls = type(value)
    return cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__name__}"


def _strip_leading_ones(v):
    """A value tensor without its leading size-1 dims (PyTorch lets `x[i] = v` take a v
    with extra leading ones)."""
    k = 0
    while k < v.ndim and v._shape[k] == 1:
        k += 1
    return v if k == 0 else v.reshape(v._shape[k:])


def _copy_to(dst, value):
    if not isinstance(value, Tensor):
        check_no_internal_overlap(dst._shape, dst._stride)
        dst.fill_(value)
    elif dst._shape == value._shape:
        dst.copy_(value)
    elif value.ndim == 0 and value._device.type == "cpu":
        check_no_internal_overlap(dst._shape, dst._stride)
        dst.fill_(value)
    else:
        dst.copy_(_strip_leading_ones(value).expand(dst._shape))


def _scalar_tensor(t, value):
    """A number to write into t as a 0-dim tensor of t's dtype and device."""
    from ._creation import _empty
    return _empty((), t.dtype, t._device).fill_(value)


def setitem(t, index, value):
    if _select is None:
        _bind()
    if (type(value) is not Tensor and isinstance(value, Tensor) or
            type(index) is not int and type(index) is not slice) and _overriding(index, value):
        return handle_public(Tensor.__setitem__, (t, index, value), None)
    value = _value(t, value)
    tp = type(index)
    # (a tensor with history is written through recorded views, so that the write
    # rewrites its history: the fast path's views record nothing)
    recording = t._requires_grad and _grad.enabled or _fw.on
    if (tp is int or tp is slice or tp is tuple) and not recording:
        view = _basic_view(t, index if tp is tuple else (index,))
        if view is not None:
            _copy_to(view, value)
            return
    if recording and not isinstance(value, Tensor):  # (PyTorch writes a number as a
        value = _scalar_tensor(t, value)              # tensor: its node has two inputs)
    if tp is bool:  # PyTorch: x[False] = v does nothing, x[True] = v copies into x[None]
        if index:
            _copy_to(_unsqueeze(t, 0), value)
        return
    if tp is int:
        if t.ndim == 0:
            raise _zero_dim_int_error(index)
        _copy_to(_select_checked(t, 0, index, 0), value)
        return
    if tp is slice:
        _copy_to(_slice_item(t, 0, index), value)
        return
    if index is None or index is Ellipsis:
        _copy_to(t, value)
        return
    view, adv = _apply(t, _as_tuple(index))
    if adv is None:
        _copy_to(view, value)
        return
    if not isinstance(value, Tensor):
        value = _scalar_tensor(t, value)
    elif value._device is not t._device and value.ndim == 0:
        value = value.to(t._device)
    warn_expanded(view, "index_put_", "tensor[indices] = tensor")
    _index_put_(view, adv, _strip_leading_ones(value), False)
