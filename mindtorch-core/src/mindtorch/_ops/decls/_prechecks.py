"""Checks PyTorch makes before it wraps `dim`: the generated binding wraps dims before the
op runs, so where PyTorch rejects a 0-dim input, a bad size or a bad argument first, the
op's public function (views, splitting, indexing) checks that ahead of the binding."""
from ... import _dtype as D
from .._argcheck import wrap_dim
from ..registry import OPS, overload


def _arg(args, kwargs, pos, name):
    return args[pos] if len(args) > pos else kwargs.get(name)


def _checked_first(name, check, prepare=None):
    """The public function of op `name`: `prepare` (args, kwargs) -> (args, kwargs), then
    `check` (args, kwargs), then the generated binding (splitting uses it too)."""
    def make(generated):
        # (a missing argument is the binding's TypeError before any check, as in PyTorch)
        required = [a.name for a in OPS[name].schema.args if a.required]
        n_required = len(required)

        def public(*args, **kwargs):
            for key in ("input", "tensor"):  # PyTorch's names for the tensor argument
                if key in kwargs and not args:
                    args = (kwargs.pop(key),)
            if prepare is not None:
                args, kwargs = prepare(args, kwargs)
            if len(args) < n_required and any(n not in kwargs for n in required[len(args):]):
                return generated(*args, **kwargs)
            if check is not None:
                check(args, kwargs)
            return generated(*args, **kwargs)
        return public
    overload(OPS[name], make)


def _int_seq(x):
    """dims as PyTorch's parser takes them (an int is a list of one), or None."""
    if type(x) is int:
        return (x,)
    if isinstance(x, (list, tuple)) and all(type(d) is int for d in x):
        return tuple(x)
    return None


def _wrapped(dims, ndim):
    return [wrap_dim(d, ndim) for d in dims]


def _check_permute(args, kwargs):
    """PyTorch: the length first, then each dim wrapped and checked for repeats in turn."""
    self = _arg(args, kwargs, 0, "self")
    dims = kwargs.get("dims", args[1] if len(args) == 2 else args[1:])
    dims = _int_seq(dims)
    if not hasattr(self, "_shape") or dims is None:
        return
    if len(dims) != self.ndim:
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does "
                           f"not match the length of the desired ordering of dimensions i.e. "
                           f"input.dim() = {self.ndim} is not equal to len(dims) = {len(dims)}")
    seen = set()
    for d in dims:
        w = _wrapped((d,), self.ndim)[0]
        if w in seen:
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        seen.add(w)


def _check_movedim(args, kwargs):
    """PyTorch: the lengths, then every dim wrapped, then repeats in source, destination."""
    self = _arg(args, kwargs, 0, "self")
    source = _int_seq(_arg(args, kwargs, 1, "source"))
    destination = _int_seq(_arg(args, kwargs, 2, "destination"))
    if not hasattr(self, "_shape") or source is None or destination is None:
        return
    if len(source) != len(destination):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({list(source)} "
                           f"dims) should contain the same number of dims as destination "
                           f"({list(destination)} dims)")
    for what, dims in (("source", _wrapped(source, self.ndim)),
                       ("destination", _wrapped(destination, self.ndim))):
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"movedim: repeated dim in `{what}` ({list(dims)})")


def _check_index_fill_first(args, kwargs):
    """index_fill's checks PyTorch makes before it wraps dim: the value's rank, then the
    index dtype."""
    from ..._tensor import Tensor
    value, index = _arg(args, kwargs, 3, "value"), _arg(args, kwargs, 2, "index")
    if isinstance(value, Tensor) and value.ndim:
        raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got "
                           f"tensor with {value.ndim} dimension(s).")
    if isinstance(index, Tensor) and index.dtype is not D.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")


def _check_narrow_copy_first(args, kwargs):
    """PyTorch's narrow_copy refuses a 0-dim input, then a too large dim (RuntimeError;
    only a negative dim is wrapped, with IndexError)."""
    self, dim = _arg(args, kwargs, 0, "self"), _arg(args, kwargs, 1, "dim")
    if not hasattr(self, "_shape") or type(dim) is not int:
        return
    if not self.ndim:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if dim >= self.ndim:
        raise RuntimeError("Expected dim < static_cast<int64_t>(self_sizes.size()) to be true, "
                           "but got false.  (Could this error message be improved?  If so, "
                           "please report an enhancement request to PyTorch.)")


def _check_narrow(args, kwargs):
    self, length = _arg(args, kwargs, 0, "self"), _arg(args, kwargs, 3, "length")
    if getattr(self, "_shape", None) == ():
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if type(length) is int and length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
