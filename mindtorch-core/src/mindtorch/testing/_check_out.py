"""The out= check: the results land in the given tensors, which are returned.

Single results: out=<tensor> on the op's function.  Several results (sort, topk, max.dim,
aminmax, linalg.eigh ...): PyTorch takes out=(tensor, ...) on the public function and
returns a named tuple of those tensors (`<name>_out`); ops where PyTorch has no such out=
are skipped."""
import mindtorch
from mindtorch import Tensor

from ._comparison import assert_close
from ._sample_runs import NoKernel, Result, base_error, build, call, describe, has_data
from ._torch_bridge import _UNKNOWN, _torch_out_error


def several_results(info):
    """Whether the op returns several tensors (a tuple: not a Tensor[] list)."""
    schema = getattr(info.op, "schema", None)
    returns = schema.returns if schema is not None else ()
    return len(returns) > 1 and all(r.type == "Tensor" for r in returns)


def check_out(info, device):
    """out=: the result lands in the given tensor (resized from empty), which is returned,
    and equals the op's result."""
    r = Result()
    multi = several_results(info)
    if not info.supports_out and not multi:
        r.skipped.append((None, "no out="))
        return r
    fn = _public_function(info) if multi else info.op.binding
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
            if multi != isinstance(expected, tuple) or not all(
                    isinstance(t, Tensor) for t in (expected if multi else (expected,))):
                r.skipped.append((i, "results not tensors"))
                continue
            args, kwargs = build(sample, i, device)
            what = describe(args, kwargs)
            if multi:
                dtype = tuple(t.dtype for t in expected)
                out = tuple(mindtorch.empty(0, dtype=d, device=device) for d in dtype)
            else:
                dtype = expected.dtype
                out = mindtorch.empty(0, dtype=dtype, device=device)
            theirs = _torch_out_error(info, sample, i, dtype, has_data(device))
            if multi and _no_out_parameter(theirs):
                r.skipped.append((i, "PyTorch has no out= here"))
                continue
            r.ran += 1
            try:
                got = call(fn, args, {**kwargs, "out": out})
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
                if multi:
                    assert isinstance(got, tuple) and len(got) == len(out) and all(
                        g is o for g, o in zip(got, out)), "out= did not return the out tensors"
                    fields = _torch_out_fields(info, sample, i, dtype)
                    ours = getattr(got, "_fields", None)
                    assert fields is None or ours == fields, \
                        f"returned a tuple of fields {ours}, PyTorch {fields}"
                else:
                    assert got is out, "out= did not return the out tensor"
                if info.random or not has_data(device):
                    assert_close(_on_meta(out), _on_meta(expected), check_device=False)
                else:
                    assert_close(out, expected, equal_nan=True, check_device=False)
            except AssertionError as e:
                r.fail(i, f"{what}: {e}")
        except NoKernel as e:
            r.no_kernel.add(e.op)
            r.ran = ran
    return r


def _public_function(info):
    """The function users call with out=(...): mindtorch's counterpart of the op's PyTorch
    reference (torch.max for _max_dim), else the op's own."""
    try:
        fn = info.torch_reference(mindtorch)
    except Exception:
        fn = None
    mine = callable(fn) and (getattr(fn, "__module__", None) or "").startswith("mindtorch")
    return fn if mine else info.op.binding


def _no_out_parameter(error):
    """Whether PyTorch's error says its function takes no out= at all (an ATen operator
    reference, torch.ops.aten.x, has out= overloads of other keywords: none either)."""
    msg = str(error)
    return (isinstance(error, TypeError) and "out" in msg and (
        "unexpected keyword" in msg or "invalid combination" in msg)) or \
        "failed to match any schema" in msg


def _torch_out_fields(info, sample, i, dtype):
    """The field names of the named tuple PyTorch returns with out=, or None if unknown."""
    try:
        import torch
    except ImportError:
        return None
    from ._sample_runs import _quiet
    from ._torch_bridge import _empty_out, to_torch
    args, kwargs = to_torch(build(sample, i, "cpu"), torch)
    try:
        with _quiet():
            got = info.torch_reference(torch)(*args, **kwargs,
                                              out=_empty_out(dtype, "cpu", torch))
    except Exception:
        return None
    return getattr(type(got), "__match_args__", None)


def _on_meta(x):
    if isinstance(x, tuple):
        return tuple(t.to("meta") for t in x)
    return x.to("meta")
