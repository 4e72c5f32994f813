"""Regression tests for the AVX-512 round (h): results that must follow PyTorch on AVX2 and
AVX-512 machines alike, each against torch."""
import pytest
from reference import same_errors

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "int64", "int8"])
@pytest.mark.parametrize("args", [(300, 1, 1, 10.0), (40, 1, 1, 10.0), (3, 1, 1, -2.0),
                                  (-3.5, 7.25, 13, -2.0), (0.1, 2.9, 257, 0.0),
                                  (-40.7, 34.0, 1000, 10.0)])
def test_logspace_c_pow(args, dtype):
    # C's pow of double exponents (NumPy's float64 power differs in the last bit on
    # AVX-512); one step fill_s the double power (overflow checks, inf for float16)
    def program(lib):
        return [str(v) for v in lib.logspace(*args, dtype=getattr(lib, dtype)).tolist()]
    ours, theirs = same_errors(program)
    assert ours == theirs
