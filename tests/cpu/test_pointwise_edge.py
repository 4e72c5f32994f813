"""Floating-point edge cases compute PyTorch's IEEE results without NumPy's warnings,
while NumPy's own warnings in user code are untouched.  Run in a fresh interpreter: the
test runner installs warning filters of its own; the error-filter cases run in process,
under filters of their own."""
import subprocess
import sys
import warnings

import mindtorch
import pytest
from reference import assert_same

PROGRAM = r"""
import numpy as np
import mindtorch
inf = float("inf")
r = [mindtorch.tensor([inf]) - mindtorch.tensor([inf]), mindtorch.tensor([0.0]) * inf,
     mindtorch.tensor([0.0, -1.0]).log(), mindtorch.tensor([1.0]) / 0]
x = mindtorch.tensor([0.0, 1.0], requires_grad=True)
x.sqrt().sum().backward()
print([t.isnan().any().item() for t in r])
import sys
sys.stdout.flush()
np.array([0.0]) * np.inf  # the user's own NumPy call still warns
"""


def test_no_numpy_warnings_from_kernels_but_users_keep_theirs():
    proc = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[True, True, True, False]"
    warnings = [ln for ln in proc.stderr.splitlines() if "RuntimeWarning" in ln]
    assert len(warnings) == 1 and "<string>" in warnings[0], proc.stderr


# Edge cases whose NumPy computation warns, including in-place ones (an exception half-way
# through `add_` would leave self updated and the call failed).
ERROR_FILTER_CASES = {
    "inf * 0": lambda L: L.tensor([0.0, float("inf")]) * 0,
    "inf - inf": lambda L: L.tensor([float("inf")]) - float("inf"),
    "log of negatives": lambda L: L.tensor([-1.0, 0.0, 2.0]).log(),
    "0 / 0": lambda L: L.zeros(2) / 0,
    "softmax of all -inf": lambda L: L.full((2, 3), float("-inf")).softmax(-1),
    "add_ overflowing float32": lambda L: L.tensor([3e38, 1.0]).add_(L.tensor([3e38, 1.0])),
    "mul_ overflowing, in place": lambda L: L.tensor([1e30]).mul_(1e30),
    "sqrt backward at 0": lambda L: _grad(L, lambda x: x.sqrt(), [0.0, 4.0]),
}


def _grad(L, fn, values):
    x = L.tensor(values, requires_grad=True)
    fn(x).sum().backward()
    return x.grad


@pytest.mark.parametrize("reset", [False, True], ids=["error-first", "after-resetwarnings"])
@pytest.mark.parametrize("case", list(ERROR_FILTER_CASES))
def test_edge_cases_silent_under_a_later_error_filter(case, reset):
    """A warnings filter the user (or pytest's `-W error`, `filterwarnings = error`) adds
    after import goes in front of the kernels' ignore filter: the kernels keep it first, so
    the results are PyTorch's and nothing raises, while the user's own NumPy warnings still
    follow the user's filter."""
    import numpy as np
    import torch
    fn = ERROR_FILTER_CASES[case]
    with warnings.catch_warnings():
        if reset:
            warnings.resetwarnings()
        warnings.simplefilter("error")
        got, expected = fn(mindtorch), fn(torch)
        assert_same(got, expected)
        with pytest.raises(RuntimeWarning):
            np.float64(0.0) / 0.0
