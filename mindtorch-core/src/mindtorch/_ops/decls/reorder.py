"""Reorderings: flip / fliplr / flipud / roll / rot90.  Copies laid out like the input, as
in PyTorch, composed of indexing, cat and view ops (so every device runs them)."""
from ... import _dtype as D
from ..._memory_format import contiguous_format
from ..registry import OPS, define, derivative, overload


def _arange(n, device, start=0, step=1):
    return OPS["arange"].binding(start, start + n * step if step > 0 else start + n * step,
                                 step, dtype=D.int64, device=device)


def _like_input(self, r):
    """r (a fresh contiguous result) with self's strides, as PyTorch's empty_like(self) +
    kernel would lay it out."""
    if self.is_contiguous():
        return r
    from .creation import _empty_like
    return _empty_like(self).copy_(r)


def _flip(self, dims):
    if not self.ndim:
        return OPS["clone"].call(self, None)
    r = self
    for d in dims:
        n = self._shape[d]
        if n > 1:
            r = OPS["index_select"].call(r, d, _arange(n, self._device, n - 1, -1))
    return _like_input(self, r if r is not self else OPS["clone"].call(self, None))


def _fliplr(self):
    if self.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return OPS["flip"].call(self, (1,))  # the op: its graph node is FlipBackward0


def _flipud(self):
    if self.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return OPS["flip"].call(self, (0,))


def _roll_public(binding):
    """roll(input, shifts, dims=()): the op's argument is `axes`, wrapped here (the binding
    would refuse a repeated dim, which roll takes)."""
    def roll(input, shifts, dims=()):
        return binding(input, shifts, dims)
    return roll


def _roll(self, shifts, dims=()):
    """PyTorch's roll: dim by dim; an empty tensor is cloned without looking at dims."""
    from .._argcheck import wrap_dim
    if not shifts:
        raise RuntimeError("`shifts` required")
    if not dims:  # over the flattened tensor
        if len(shifts) != 1:
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, "
                               f"dims:0")
        return _roll(self.reshape(-1), shifts, (0,)).view(self._shape)
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, "
                           f"dims:{len(dims)}")
    r = self
    for shift, d in zip(shifts, dims):
        if not r.numel():
            break
        d = wrap_dim(d, r.ndim)
        n = r._shape[d]
        if n:
            s = shift % n
            if s:
                r = OPS["cat"].call((r.narrow(d, n - s, s), r.narrow(d, 0, n - s)), d)
    return r if r is not self else OPS["clone"].call(self, contiguous_format)


def _check_rot90(self, dims):
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if self.ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {self.ndim}")
    from .._argcheck import wrap_dim
    if all(isinstance(d, int) for d in dims) and \
            wrap_dim(dims[0], self.ndim) == wrap_dim(dims[1], self.ndim):
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {dims[0]} "
                           f"and dim1 = {dims[1]}")


def _rot90_public(binding):
    """rot90(input, k=1, dims=[0, 1]): the op's argument is `turns` (a schema argument
    named k would shadow the generated binding's kernel variable); the rank checks come
    before dims are wrapped, as in PyTorch."""
    def rot90(input, k=1, dims=(0, 1)):
        from ..._tensor import Tensor
        if isinstance(input, Tensor) and isinstance(dims, (list, tuple)):
            _check_rot90(input, dims)
        return binding(input, k, dims)
    return rot90


def _rot90(self, k=1, dims=(0, 1)):
    _check_rot90(self, dims)
    d0, d1 = dims
    k %= 4
    if k == 1:
        return _flip(self, (d1,)).transpose(d0, d1)
    if k == 2:
        return _flip(self, (d0, d1))
    if k == 3:
        return _flip(self, (d0,)).transpose(d0, d1)
    return OPS["clone"].call(self, contiguous_format)


def _declare():
    define("flip(Tensor self, int[] dims) -> Tensor", varargs="dims", decomposition=_flip)
    define("fliplr(Tensor self) -> Tensor", decomposition=_fliplr)
    define("flipud(Tensor self) -> Tensor", decomposition=_flipud)
    overload(define("roll(Tensor self, int[] shifts, int[] axes=()) -> Tensor",
                    decomposition=_roll), _roll_public)
    overload(define("rot90(Tensor self, int turns=1, int[] dims=(0, 1)) -> Tensor",
                    decomposition=_rot90), _rot90_public)


def _derivatives():
    derivative(OPS["flip"], self=lambda grad, dims: grad.flip(dims))
    derivative(OPS["roll"], self=lambda grad, shifts, axes:
               OPS["roll"].call(grad, [-s for s in shifts], axes))
    derivative(OPS["rot90"], self=lambda grad, turns, dims: OPS["rot90"].call(grad, -turns, dims))


_declare()
_derivatives()
