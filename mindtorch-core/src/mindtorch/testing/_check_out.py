"""The out= check: the result lands in the given tensors, which are returned."""
import mindtorch
from mindtorch import Tensor

from ._comparison import assert_close
from ._sample_runs import NoKernel, Result, base_error, build, call, describe, has_data
from ._torch_bridge import _UNKNOWN, _torch_out_error


def check_out(info, device):
    """out=: the result lands in the given tensor (resized from empty), which is returned,
    and equals the op's result."""
    r = Result()
    if not info.supports_out:
        r.skipped.append((None, "no out="))
        return r
    for i, sample in enumerate(info.samples):
        ran = r.ran
        try:
            args, kwargs = build(sample, i, device)
            if "out" in kwargs:
                continue
            try:
                expected = call(info.op.binding, args, kwargs)
            except NoKernel:
                raise
            except Exception:
                r.skipped.append((i, "rejected on the device"))
                continue
            if not isinstance(expected, Tensor):
                r.skipped.append((i, "several results"))
                continue
            args, kwargs = build(sample, i, device)
            what = describe(args, kwargs)
            out = mindtorch.empty(0, dtype=expected.dtype, device=device)
            r.ran += 1
            theirs = _torch_out_error(info, sample, i, expected.dtype, has_data(device))
            try:
                got = call(info.op.binding, args, {**kwargs, "out": out})
            except NoKernel:
                raise
            except Exception as e:
                if theirs is _UNKNOWN:
                    r.ran -= 1
                    r.skipped.append((i, "out= refused (no torch to tell whether PyTorch "
                                         "refuses it too)"))
                    continue
                if theirs is None or not isinstance(e, base_error(theirs)):
                    r.fail(i, f"{what}: out= raised {type(e).__name__}: {e}" +
                           (f"; PyTorch raised {type(theirs).__name__}: {theirs}" if theirs
                            else ""))
                continue
            try:
                assert theirs is None or theirs is _UNKNOWN, \
                    f"out= succeeded; PyTorch raised {type(theirs).__name__}: {theirs}"
                assert got is out, "out= did not return the out tensor"
                if info.random or not has_data(device):
                    assert_close(out.to("meta"), expected.to("meta"), check_device=False)
                else:
                    assert_close(out, expected, equal_nan=True, check_device=False)
            except AssertionError as e:
                r.fail(i, f"{what}: {e}")
        except NoKernel as e:
            r.no_kernel.add(e.op)
            r.ran = ran
    return r
