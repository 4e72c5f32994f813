import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

try:  # torch's thread pool makes tiny reference ops slow on a busy 2-core machine
    import torch

    torch.set_num_threads(1)
except ImportError:
    pass

import pytest  # noqa: E402

import mindtorch  # noqa: E402

# the same thread count as torch: kernels that split work among threads as ATen's
# parallel_for does (16-bit softmax along an inner dim) round where its pieces end
mindtorch.set_num_threads(1)


@pytest.fixture(autouse=True)
def _fixed_random_streams():
    """Each test starts from seed 0 in both frameworks: their default generators are
    seeded non-deterministically per process, and tests must not depend on the order
    they run in."""
    mindtorch.manual_seed(0)
    if "torch" in sys.modules:
        sys.modules["torch"].manual_seed(0)
    # torch.compile / cond / while_loop import dynamo, which turns torch.distributions'
    # argument validation off process-wide: every test starts with the default (on)
    for name in ("torch.distributions", "mindtorch.distributions"):
        if name in sys.modules:
            sys.modules[name].Distribution.set_default_validate_args(__debug__)


@pytest.fixture(params=["numpy", "compiled"])
def sum_path(request, monkeypatch):
    """cpu sums by their NumPy steps (the compiled loops taken as missing) or by the
    compiled loops at every size (numba): for tests of sums' order on both paths."""
    from mindtorch_cpu.kernels import _jit
    if request.param == "numpy":
        monkeypatch.setitem(_jit._modules, "_reduce_loops", False)
    else:
        pytest.importorskip("numba")
        monkeypatch.setattr(_jit, "EARLY_MIN_SIZE", 0)
        monkeypatch.setattr(_jit, "MIN_SIZE", 0)
    return request.param
