"""QA round 9d (vision models): regressions, each compared with PyTorch."""
import pytest
from reference import same_errors


@pytest.mark.parametrize("n", [2, 3])
def test_fractional_max_pool_indices_plain_tuple(n):
    # F.fractional_max_pool{n}d(return_indices=True) is a plain tuple in PyTorch
    def program(lib):
        lib.manual_seed(0)
        x = lib.randn(1, 2, *(7,) * n, dtype=lib.float64)
        pool = getattr(lib.nn.functional, f"fractional_max_pool{n}d")
        r = pool(x, 2, output_size=3, return_indices=True)
        return type(r).__name__, [t.tolist() for t in r]
    ours, theirs = same_errors(program)
    assert ours == theirs
