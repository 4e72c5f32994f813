"""mindtorch.autograd.gradcheck / gradgradcheck stay the functions whatever is imported
first (a first `import mindtorch.autograd.gradcheck`, or gradgradcheck used before
gradcheck, bound the package's `gradcheck` to the submodule: 'module' object is not
callable), as torch.autograd's."""
import subprocess
import sys

import pytest

ORDERS = [
    "import mindtorch.autograd.gradcheck",
    "from mindtorch.autograd.gradcheck import gradgradcheck",
    "import mindtorch; mindtorch.autograd.gradgradcheck",
    "import importlib; importlib.import_module('mindtorch.autograd.gradcheck')",
]


@pytest.mark.parametrize("first", ORDERS)
def test_gradcheck_is_the_function(first):
    code = (f"{first}\nimport mindtorch\n"
            "x = mindtorch.randn(3, dtype=mindtorch.float64, requires_grad=True)\n"
            "assert mindtorch.autograd.gradcheck(lambda t: t.sin(), (x,))\n"
            "assert mindtorch.autograd.gradgradcheck(lambda t: t.sin(), (x,))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
