"""torch.autograd.forward_ad: forward-mode AD with dual tensors.

Inside a dual level, `make_dual(x, t)` gives a view of x carrying the tangent t; every op
on dual tensors gives its results the tangents J t (autograd/_forward.py, rules in
_jvp_rules.py), in any grad mode, as PyTorch's; `unpack_dual` reads them back.  One level
at a time (PyTorch refuses nesting too); leaving it drops every tangent made in it."""
import collections

from .._tensor import Tensor
from . import _forward
from ._forward import set_tangent, tangent_of
from ._record import forward
from .grad_mode import state

__all__ = ["UnpackedDualTensor", "dual_level", "enter_dual_level", "exit_dual_level",
           "make_dual", "unpack_dual"]

_current_level = -1


class UnpackedDualTensor(collections.namedtuple("UnpackedDualTensor", ["primal", "tangent"])):
    """The primal (a view of the dual tensor without its tangent) and the tangent (None
    when it has none)."""
    __slots__ = ()


def enter_dual_level():
    """Enter a new forward grad level (returns its index); nesting is not supported."""
    global _current_level
    if _current_level >= 0:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _current_level = 0
    for name in ("wrap", "snapshot", "adopt", "save", "restore", "custom_tangents",
                 "custom_jvp", "check_out"):
        setattr(forward, name, getattr(_forward, name))
    _forward.generation[0] += 1
    forward.on = _enabled[0]
    return _current_level


def exit_dual_level(*, level=None):
    """Leave the level: every tangent made in it is dropped."""
    global _current_level
    if level is None:
        level = _current_level
    if level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    if level != _current_level:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that "
                           "was created. This is not supported.")
    forward.on = False
    _forward.clear_tangents()
    _current_level = -1


def make_dual(tensor, tangent, *, level=None):
    """A view of tensor whose tangent (forward gradient) is `tangent` at the level."""
    if level is None:
        level = _current_level
    if level < 0:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, "
                           "make sure to enter_dual_level() first.")
    for what, t in (("primal", tensor), ("tangent", tangent)):
        if not isinstance(t, Tensor):  # (PyTorch's error)
            raise AttributeError(  # noqa: TRY004
                f"'{type(t).__name__}' object has no attribute 'is_floating_point'")
        if not (t.is_floating_point() or t.is_complex()):
            raise ValueError(f"Expected {what} to be floating point or complex, but got: "
                             f"{t.dtype}")
    if level != _current_level:
        raise RuntimeError("Invalid level given to _make_dual")
    if tangent_of(tensor) is not None:
        raise RuntimeError(f"Making a dual Tensor based on a Tensor that already has a forward "
                           f"gradient at the same level {level} is not supported.")
    _forward.check_tangent_size(tensor, tangent)
    prev, forward.on = forward.on, False
    try:
        dual = tensor.view(tensor.shape)  # a view (with ViewBackward0 when recording)
        if tangent.stride() != tensor.stride() and tensor.numel() > 1:
            tangent = _forward._conform(tangent, dual, always=True)  # laid out as the primal, as PyTorch's
    finally:
        forward.on = prev
    if not state.inference:  # (inference mode turns forward AD off, as in PyTorch)
        set_tangent(dual, tangent)
    return dual


def unpack_dual(tensor, *, level=None):
    """(primal, tangent) of tensor at the level: the primal is a view without the tangent;
    outside any level, the tensor itself and None."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"_unpack_dual(): argument 'dual' (position 1) must be Tensor, not "
                        f"{type(tensor).__name__}")
    if level is None:
        level = _current_level
    if level < 0:
        return UnpackedDualTensor(tensor, None)
    tangent = tangent_of(tensor) if level == _current_level else None
    prev, forward.on = forward.on, False
    try:
        primal = tensor.alias() if hasattr(tensor, "alias") else tensor.view(tensor.shape)
    finally:
        forward.on = prev
    set_tangent(primal, None)  # (its views do not see the base's tangent either)
    return UnpackedDualTensor(primal, tangent)


class dual_level:
    """Context manager of a forward AD level: `with dual_level(): ...` enters one and
    leaves it (dropping its tangents) on exit; `as` gives the level's index."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()
        return False

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__():
                return fn(*args, **kwargs)
        return wrapper


def _is_fwd_grad_enabled():
    return _enabled[0]


def _set_fwd_grad_enabled(mode):
    _enabled[0] = bool(mode)
    forward.on = _enabled[0] and _current_level >= 0


_enabled = [True]
