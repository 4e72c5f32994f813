"""The in-place check: `<op>_` agrees with `<op>`."""
import mindtorch
from mindtorch import Tensor

from ._comparison import assert_close
from ._sample_runs import (
    NoKernel, Result, _tolerance, base_error, build, call, describe, has_data,
)
from ._torch_bridge import _UNKNOWN, _torch_error


def check_inplace(info, device):
    """The in-place variant `<op>_` agrees with the op: it returns its first argument,
    holding the op's result cast to its dtype; where the result cannot go there (another
    shape, a dtype it cannot be cast to) or the op fails, it raises."""
    r = Result()
    variant = info.inplace
    if variant is None:
        r.skipped.append((None, "no in-place variant"))
        return r
    inplace_view = "inplace_view" in variant.tags
    for i, sample in enumerate(info.samples):
        ran = r.ran
        try:
            args, kwargs = build(sample, i, device)
            if not args or not isinstance(args[0], Tensor):
                r.skipped.append((i, "first argument not a tensor"))
                continue
            try:
                expected, expected_exc = call(info.op.binding, args, kwargs), None
            except NoKernel:
                raise
            except Exception as e:
                expected_exc = e
            args, kwargs = build(sample, i, device)
            target = args[0]
            what = describe(args, kwargs)
            r.ran += 1
            must_raise = expected_exc is not None or not isinstance(expected, Tensor) or (
                not inplace_view and (expected.shape != target.shape or
                                      not mindtorch.can_cast(expected.dtype, target.dtype)))
            try:
                got = call(variant.binding, args, kwargs)
            except NoKernel:
                raise
            except Exception as e:
                if not must_raise:
                    theirs = _torch_error(variant, sample, i)  # PyTorch's own exceptions
                    if theirs is _UNKNOWN:
                        r.ran -= 1
                        r.skipped.append((i, f"{variant.name} refused (no torch to tell "
                                             f"whether PyTorch refuses it too)"))
                    elif theirs is None or not isinstance(e, base_error(theirs)):
                        r.fail(i, f"{what}: {variant.name} raised {type(e).__name__}: {e}; "
                                  f"{info.name} gave a {tuple(expected.shape)} "
                                  f"{expected.dtype}")
                continue
            if must_raise:
                why = f"{info.name} raised {type(expected_exc).__name__}" if expected_exc \
                    else f"{info.name} gives {tuple(expected.shape)} {expected.dtype}"
                theirs = _torch_error(variant, sample, i)
                if theirs is _UNKNOWN:
                    r.ran -= 1
                    r.skipped.append((i, f"{variant.name} succeeded though {why} (no torch "
                                         f"to tell whether PyTorch accepts it too)"))
                elif theirs is not False:
                    r.fail(i, f"{what}: {variant.name} succeeded though {why}")
                continue
            try:
                assert got is target, f"{variant.name} did not return its first argument"
                if info.random or not has_data(device):
                    assert tuple(target.shape) == tuple(expected.shape)
                else:
                    cast = expected.cpu().to(target.dtype)
                    assert_close(target, cast, check_device=False, equal_nan=True,
                                 check_stride=inplace_view, **_tolerance(info, target))
            except AssertionError as e:
                r.fail(i, f"{what}: {e}")
        except NoKernel as e:
            r.no_kernel.add(e.op)
            r.ran = ran
    return r
