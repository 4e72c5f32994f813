"""The forward check: an op's samples on a device against PyTorch (or NumPy)."""
import mindtorch
from mindtorch import Tensor

from ._comparison import assert_close
from ._sample_runs import (
    NoKernel, Result, _metadata, _quiet, _tolerance, build, call, describe, base_error, has_data,
    tensors, _map,
)
from ._torch_bridge import _torch_meta, _torch_tensors, from_torch, to_torch


def check_forward(info, device, reference="torch"):
    """Every sample on `device` against the reference (PyTorch's function of the same
    public name, run on the cpu): the same values (assert_close at PyTorch's tolerances;
    metadata only on meta and for random ops), dtypes, shapes, the same values left in
    the input tensors (in-place ops), or an exception of the same builtin class."""
    r = Result()
    torch = None
    if reference == "torch":
        try:
            import torch
        except ImportError:
            r.skipped.append((None, "no reference (torch is not installed)"))
            return r
        ref = info.torch_reference(torch)
        if ref is None:
            r.skipped.append((None, "no reference (no torch function of this name)"))
            return r
    else:
        ref = info.numpy_reference()
        if ref is None:
            r.skipped.append((None, "no reference (no NumPy reference)"))
            return r
    if not has_data(device) and "dynamic_output_shape" in info.tags:
        r.skipped.append((None, "data-dependent output shape"))
        return r
    nodata = not has_data(device) and info.data_dependent
    values = has_data(device) and not info.random
    for i, sample in enumerate(info.samples):
        try:
            args, kwargs = build(sample, i, device)
            actual, actual_exc = call(info.op.binding, args, kwargs), None
            if values:
                actual = info.invariant(actual)
        except NoKernel as e:
            r.no_kernel.add(e.op)
            continue
        except (NotImplementedError, RuntimeError) as e:
            if nodata:  # (refused as PyTorch's meta does: see opdb's DATA_DEPENDENT)
                r.skipped.append((i, "data-dependent result"))
                continue
            actual_exc = e
        except Exception as e:
            actual_exc = e
        margs, mkwargs = build(sample, i, "cpu")
        what = describe(margs, mkwargs)
        try:
            if torch is not None:
                targs = to_torch((margs, mkwargs), torch)
                with _quiet():
                    texpected = ref(*targs[0], **targs[1])
                expected = from_torch(info.invariant(texpected) if values else texpected,
                                      torch)
            else:
                expected = _numpy_call(ref, margs, mkwargs)
            expected_exc = None
        except Exception as e:
            expected_exc = e
        r.ran += 1
        if actual_exc is None and expected_exc is not None and torch is not None and \
                not has_data(device):
            # PyTorch's cpu refuses (often a dtype its cpu kernel lacks): a device without
            # data may accept it where PyTorch's own meta device does, with its result
            texpected = _torch_meta(ref, sample, i, torch)
            if texpected is not None:
                expected, expected_exc = from_torch(texpected, torch), None
        if actual_exc is not None or expected_exc is not None:
            if actual_exc is None:
                r.fail(i, f"{what}: reference raised {type(expected_exc).__name__}: "
                          f"{expected_exc}; mindtorch returned a result")
            elif expected_exc is None:
                r.fail(i, f"{what}: raised {type(actual_exc).__name__}: {actual_exc}; the "
                          f"reference returned a result")
            elif torch is not None and not isinstance(actual_exc, base_error(expected_exc)):
                r.fail(i, f"{what}: raised {type(actual_exc).__name__} ({actual_exc}); the "
                          f"reference raised {type(expected_exc).__name__} ({expected_exc})")
            continue
        try:
            if torch is None:
                _compare_numpy(actual, expected)
            elif not values:
                if info.random:
                    assert _metadata(actual) == _metadata(expected), \
                        f"{_metadata(actual)} != {_metadata(expected)}"
                else:
                    assert_close(actual, expected, check_device=False)
            else:
                tol = _tolerance(info, actual)
                assert_close(actual, expected, check_device=False, equal_nan=True, **tol)
                if "view" in info.tags:  # views: PyTorch's geometry (inputs have its too)
                    got = [t.stride() for t in tensors(actual)]
                    want = [tuple(t.stride()) for t in _torch_tensors(texpected, torch)]
                    assert got == want, f"strides {got} != PyTorch's {want}"
                # inputs: in-place results, and no stray writes into the others
                assert_close(list(tensors((args, kwargs))),
                             from_torch(list(_torch_tensors(targs, torch)), torch),
                             check_device=False, equal_nan=True, **tol,
                             msg=lambda m: "inputs after the call differ: " + m)
        except AssertionError as e:
            r.fail(i, f"{what}: {e}")
    return r


def _numpy_call(ref, args, kwargs):
    host = _map((args, kwargs), lambda v: v.detach()._host().copy()
                if isinstance(v, Tensor) else v)
    return ref(*host[0], **host[1])


def _compare_numpy(actual, expected):
    import numpy as np
    actual_host = np.asarray(actual.detach()._host()) if isinstance(actual, Tensor) else actual
    expected = np.asarray(expected).astype(np.asarray(actual_host).dtype)
    assert_close(actual, mindtorch.from_numpy(np.array(expected, order="C")),
                 check_device=False, equal_nan=True)
