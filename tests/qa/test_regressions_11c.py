"""Regression tests for QA round 11c (default dtype, creation, conversion, promotion), each against torch."""
import mindtorch
import pytest
from reference import same_outcome

torch = pytest.importorskip("torch")


def _values(fn):
    """fn(L) for both libraries, as (dtype name, shape, tolist()) or the error."""
    def run(L):
        r = fn(L)
        return str(r.dtype).split(".")[1], tuple(r.shape), r.tolist()
    return same_outcome(run)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("n", [3, 7, 10])
def test_kaiser_window_16bit_computed_in_float32(dtype, n):
    # one rounding of a float32 value (a bfloat16 element was 0.5508 for torch's 0.5195)
    _values(lambda L: L.kaiser_window(n, dtype=getattr(L, dtype)))
    _values(lambda L: L.kaiser_window(n, periodic=False, beta=5.0, dtype=getattr(L, dtype)))
