"""A kernel with compiled loops (mindtorch_cpu/kernels/_jit.py) has two paths that must give
the same results: the loops, and the NumPy steps run without numba.  `paths(module)` is a
pytest fixture running each test on both."""
import pytest
from mindtorch_cpu.kernels import _jit


def paths(module):
    """Fixture: "compiled" runs kernels.<module>'s loops at any size, "numpy" runs as if
    numba were missing."""
    @pytest.fixture(params=["compiled", "numpy"])
    def path(request, monkeypatch):
        if request.param == "numpy":
            monkeypatch.setitem(_jit._modules, module, False)
        else:
            monkeypatch.setattr(_jit, "MIN_SIZE", 0)
            assert _jit.compiled(module, 0) is not None, "numba is a dependency of mindtorch-cpu"
        return request.param
    return path
