"""Invariant 7: for every op with a cpu and a meta kernel, and each of its samples, the
meta device infers exactly the shape and dtype the cpu computes."""
import pytest

import mindtorch
from mindtorch._ops import OPS

from mindtorch.testing.opdb import ops_with_kernels, samples_for

OPS_WITH_BOTH = ops_with_kernels("cpu", "meta")


def _shape_dtype(result):
    if isinstance(result, mindtorch.Tensor):
        return tuple(result.shape), result.dtype
    return tuple(_shape_dtype(r) for r in result)


@pytest.mark.parametrize("name", OPS_WITH_BOTH)
def test_meta_matches_cpu(name):
    op = OPS[name]
    samples = samples_for(op)
    assert samples, f"op '{name}' has cpu and meta kernels but no conformance samples"
    checked = 0
    for i, sample in enumerate(samples):
        mindtorch.manual_seed(i)
        args, kwargs = sample("cpu")
        try:
            expected = _shape_dtype(op.binding(*args, **kwargs))
        except (RuntimeError, TypeError, ValueError, IndexError, NotImplementedError):
            continue  # the op rejects this input on cpu; meta may be more permissive
        mindtorch.manual_seed(i)
        margs, mkwargs = sample("meta")
        if "dynamic_output_shape" in op.tags:  # e.g. nonzero: no data, no shape
            with pytest.raises(NotImplementedError):
                op.binding(*margs, **mkwargs)
            checked += 1
            continue
        result = op.binding(*margs, **mkwargs)
        assert _shape_dtype(result) == expected, f"sample {i}"
        for r in ([result] if isinstance(result, mindtorch.Tensor) else result):
            assert r.device.type == "meta"
        checked += 1
    assert checked, f"every sample of '{name}' was rejected on cpu"
