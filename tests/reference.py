"""Comparing mindtorch with PyTorch (the test-only reference)."""
import numpy as np
import pytest

import mindtorch

torch = pytest.importorskip("torch")

# The suite's reference is PyTorch's CPU build.  On a Python with no CPU wheel at hand (only
# PyPI's CUDA build: `hatch run py:run`), the answers of a CUDA-less build (torch.cuda,
# torch.accelerator, torch.version.cuda, pinning...) have nothing to be compared with.
cpu_build_only = pytest.mark.skipif(
    torch.version.cuda is not None,
    reason="compares with PyTorch's CPU build; the reference here is a CUDA build")

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
          "float32", "float64", "complex64", "complex128"]
FLOATS = ["float16", "bfloat16", "float32", "float64"]


def mt_dtype(name):
    return getattr(mindtorch, name)


def th_dtype(name):
    return getattr(torch, name)


def to_torch(t):
    """A torch tensor with t's values, dtype and shape (and, for views, strides)."""
    t = t.detach()
    if t.dtype is mindtorch.bfloat16:
        return torch.from_numpy(np.array(t.float().numpy())).to(torch.bfloat16)
    return torch.from_numpy(np.array(t.numpy()))


def pair(data_np, dtype="float32", requires_grad=False):
    """The same data (an array, or what np.asarray takes) as a mindtorch and a torch tensor
    of dtype name `dtype`, both leaves requiring grad if asked."""
    a = mindtorch.tensor(np.asarray(data_np)).to(mt_dtype(dtype))
    t = to_torch(a)
    if requires_grad:
        a.requires_grad_(True)
        t.requires_grad_(True)
    return a, t


def assert_same(mt_result, th_result, *, rtol=None, atol=None, check_stride=False):
    """Same dtype, shape and values (PyTorch's tolerances by dtype unless given)."""
    if isinstance(th_result, (tuple, list)):
        assert len(mt_result) == len(th_result)
        for m, t in zip(mt_result, th_result):
            assert_same(m, t, rtol=rtol, atol=atol, check_stride=check_stride)
        return
    if not isinstance(th_result, torch.Tensor):
        assert mt_result == th_result or (mt_result != mt_result and th_result != th_result)
        return
    assert isinstance(mt_result, mindtorch.Tensor), type(mt_result)
    assert str(mt_result.dtype) == str(th_result.dtype), (mt_result.dtype, th_result.dtype)
    assert tuple(mt_result.shape) == tuple(th_result.shape), (mt_result.shape, th_result.shape)
    if check_stride:
        assert mt_result.stride() == th_result.stride()
    torch.testing.assert_close(to_torch(mt_result), th_result.detach(), rtol=rtol, atol=atol,
                               equal_nan=True)


def same_error(mt_fn, th_fn):
    """Both raise, with the same exception class (or neither raises)."""
    try:
        th_fn()
    except Exception as e:
        expected = type(e)
    else:
        expected = None
    if expected is None:
        mt_fn()
        return
    # torch raises subclasses of the builtin types (e.g. torch.AcceleratorError)
    base = next(c for c in expected.__mro__ if c.__module__ == "builtins")
    with pytest.raises(base):
        mt_fn()


def outcome(fn):
    """fn()'s value, or (exception class name, message)."""
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return type(e).__name__, str(e)


def tagged_outcome(fn):
    """What fn() gives: ("ok", value) or (exception class name, message)."""
    try:
        return "ok", fn()
    except Exception as e:  # noqa: BLE001 - the class and the message are compared
        return type(e).__name__, str(e)


def same_errors(program):
    """program(mindtorch) and program(torch) as tagged outcomes, which must fail alike
    (class and message) if either fails; their values are the caller's to compare."""
    ours, theirs = tagged_outcome(lambda: program(mindtorch)), \
        tagged_outcome(lambda: program(torch))
    assert ours[0] == theirs[0], (ours, theirs)
    if ours[0] != "ok":
        assert ours[1] == theirs[1]
    return ours, theirs


def same_outcome(fn, quiet=False):
    """fn(mindtorch) and fn(torch) give the same value or the same error (class and
    message); returns it.  quiet: warnings ignored while they run."""
    import warnings
    with warnings.catch_warnings():
        if quiet:
            warnings.simplefilter("ignore")
        m, t = outcome(lambda: fn(mindtorch)), outcome(lambda: fn(torch))
    assert m == t
    return m


def layout_of(lib, t):
    """What users see of a tensor's layout: shape, strides and both contiguity answers."""
    cl = {4: lib.channels_last, 5: lib.channels_last_3d}.get(t.dim())
    return (tuple(t.shape), t.stride(), t.is_contiguous(),
            cl is not None and t.is_contiguous(memory_format=cl))


def same_layouts(program):
    """program(lib) -> tensors: the same layouts and (float64) values under mindtorch and
    torch."""
    ours, theirs = program(mindtorch), program(torch)
    for a, b in zip(ours, theirs, strict=True):
        assert layout_of(mindtorch, a) == layout_of(torch, b)
        np.testing.assert_allclose(np.asarray(a.detach().double().tolist()),
                                   b.detach().double().numpy(), rtol=1e-12, atol=1e-12)
