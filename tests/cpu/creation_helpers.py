"""What the creation and conversion tests share: expressions evaluated with T = torch and
T = mindtorch, compared by dtype, shape, strides, device, requires_grad and values (or the
same error class)."""
import warnings

import numpy as np
import pytest

import mindtorch
from reference import assert_same, torch

M = mindtorch


def _base_error(e):
    return next(c for c in type(e).__mro__ if c.__module__ == "builtins")


def _check(got, want, rtol=None, atol=None):
    """got (mindtorch) is like want (torch): dtype, shape, strides, device, requires_grad
    and (off meta) values; plain values compare equal."""
    if isinstance(want, torch.Tensor):
        assert isinstance(got, M.Tensor), type(got)
        assert (str(got.dtype), tuple(got.shape), got.stride(), got.device.type,
                got.requires_grad) == (str(want.dtype), tuple(want.shape), want.stride(),
                                       want.device.type, want.requires_grad)
        if want.device.type != "meta":
            assert_same(got.detach(), want.detach(), rtol=rtol, atol=atol)
    elif isinstance(want, (tuple, list)) and not isinstance(want, torch.Size):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _check(g, w, rtol, atol)
    elif isinstance(want, torch.dtype):
        assert str(got) == str(want)
    else:
        assert got == want, (got, want)


def compare(fn, rtol=None, atol=None):
    """fn(T) with T = torch and T = mindtorch agree (or raise the same error class)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            want = fn(torch)
        except Exception as e:  # noqa: BLE001 - whatever torch raises, mindtorch must too
            with pytest.raises(_base_error(e)):
                fn(M)
            return None
        got = fn(M)
    _check(got, want, rtol, atol)
    return got


def expr(text):
    return lambda T: eval(text, {"T": T, "np": np})


def cases(*texts):
    return pytest.mark.parametrize("text", texts)
