"""Floating-point edge cases compute PyTorch's IEEE results without NumPy's warnings,
while NumPy's own warnings in user code are untouched.  Run in a fresh interpreter: the
test runner installs warning filters of its own."""
import subprocess
import sys

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
