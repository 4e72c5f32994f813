import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
sys.path.insert(0, str(EXAMPLES))


@pytest.fixture(autouse=True)
def one_blas_thread():
    """Multi-threaded BLAS on a busy 2-core machine stalls small matmuls by tens of ms."""
    try:
        from threadpoolctl import threadpool_limits  # (comes with scikit-learn)
    except ImportError:
        yield
        return
    with threadpool_limits(1):
        yield
