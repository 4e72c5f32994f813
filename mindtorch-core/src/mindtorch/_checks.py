"""torch._assert / torch._check* : the condition checks model code (timm, exported models) calls
in forward.  Python conditions only (no symbolic shapes here), with PyTorch's error classes."""
import builtins
import warnings

_DEFAULT = ("Expected cond to be True, but got False. (Could this error message be improved? "
            "If so, please report an enhancement request to PyTorch.)")


def _assert(condition, message):
    if not condition:
        raise AssertionError(message)


def _check_with(error_type, cond, message):
    from ._tensor import Tensor
    if not isinstance(cond, builtins.bool):
        if isinstance(cond, Tensor):
            raise TypeError("cond must be a bool, but got a Tensor. For tensor conditions, use "
                            "torch._check_tensor_all() to assert that all elements are true.")
        raise TypeError(f"cond must be a bool, but got {type(cond)}")
    if cond:
        return
    if not issubclass(error_type, Exception) or issubclass(error_type, Warning):
        raise AssertionError(
            f"error_type must be a subclass of Exception but not Warning, got {error_type}")
    if message is not None and not callable(message):
        raise TypeError("message must be a callable")
    raise error_type(_DEFAULT if message is None else str(message()))


def _checker(error_type):
    def check(cond, message=None):
        _check_with(error_type, cond, message)
    return check


_check = _checker(RuntimeError)
_check_index = _checker(IndexError)
_check_value = _checker(ValueError)
_check_type = _checker(TypeError)
_check_not_implemented = _checker(NotImplementedError)


def _check_is_size(i, message=None, *, max=None):  # noqa: A002 - torch's keyword
    warnings.warn("_check_is_size will be removed in a future PyTorch release along with "
                  "guard_size_oblivious.     Use _check(i >= 0) instead.", FutureWarning,
                  stacklevel=2)
    _check(i >= 0, message)
    if max is not None:
        _check(i <= max, message)


def _check_tensor_all_with(error_type, cond, message=None):
    from ._tensor import Tensor
    from ._dtype import bool as bool_
    if not isinstance(cond, Tensor):
        raise TypeError(f"cond must be a tensor, but got {type(cond)}")
    if cond.dtype != bool_:
        raise TypeError(f"cond tensor must have dtype torch.bool, but got {cond.dtype}")
    _check_with(error_type, builtins.bool(cond.all().item()), message)


def _check_tensor_all(cond, message=None):
    _check_tensor_all_with(RuntimeError, cond, message)


def _assert_async(input, assert_msg=None):  # noqa: A002 - torch's name
    if input.numel() == 1 and not builtins.bool(input.item()):
        raise RuntimeError("Expected Tensor with single nonzero value, but got zero")
    builtins.bool(input)  # empty / several values: the ambiguity error


FUNCTIONS = {name: fn for name, fn in globals().items()
             if name.startswith(("_check", "_assert")) and callable(fn)}
