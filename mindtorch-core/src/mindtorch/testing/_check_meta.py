"""The meta check: the meta device infers the shapes and dtypes a device computes."""
from ._comparison import assert_close
from ._sample_runs import NoKernel, Result, build, call, describe, has_data, tensors


def check_meta(info, device):
    """Meta inference agrees with real results: for each sample, the meta device gives
    the shapes and dtypes `device` computes (the cpu's when testing meta itself), or
    refuses data-dependent output shapes with NotImplementedError."""
    r = Result()
    from mindtorch.plugins._registry import DEVICES
    if "meta" not in DEVICES:
        r.skipped.append((None, "the meta backend is not installed"))
        return r
    real = device if has_data(device) else "cpu"
    for i, sample in enumerate(info.samples):
        ran = r.ran
        try:
            args, kwargs = build(sample, i, real)
            try:
                expected = call(info.op.binding, args, kwargs)
            except NoKernel as e:
                if real == device:
                    raise
                r.skipped.append((i, f"no cpu kernel ({e.op})"))
                continue
            except Exception:
                r.skipped.append((i, "rejected on the device"))
                continue
            margs, mkwargs = build(sample, i, "meta")
            r.ran += 1
            what = describe(margs, mkwargs)
            if "dynamic_output_shape" in info.tags:
                try:
                    call(info.op.binding, margs, mkwargs)
                except NotImplementedError:
                    continue
                r.fail(i, f"{what}: meta inferred a data-dependent output shape")
                continue
            try:
                result = call(info.op.binding, margs, mkwargs)
            except NoKernel:
                raise
            except (NotImplementedError, RuntimeError) as e:
                # e.g. equal(), allclose(): a bool of the data, which a device without data
                # refuses as PyTorch's meta does (NotImplementedError, or .item()'s error)
                if info.data_dependent:
                    r.ran -= 1
                    r.skipped.append((i, "data-dependent result"))
                    continue
                r.fail(i, f"{what}: meta raised {type(e).__name__}: {e}")
                continue
            except Exception as e:
                r.fail(i, f"{what}: meta raised {type(e).__name__}: {e}")
                continue
            try:
                assert_close(result, expected, check_device=False)
                bad = [str(t.device) for t in tensors(result) if t.device.type != "meta"]
                assert not bad, f"results on {bad}, not meta"
            except AssertionError as e:
                r.fail(i, f"{what}: {e}")
        except NoKernel as e:
            r.no_kernel.add(e.op)
            r.ran = ran
    return r
