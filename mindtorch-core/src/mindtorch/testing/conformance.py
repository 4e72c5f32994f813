"""The conformance kit: device-generic tests of every op in the op database.

    pytest --pyargs mindtorch.testing.conformance --mindtorch-device=<name>

Per op (parametrized by op name) and check:
  forward   samples on the device against PyTorch's function of the same public name
            (run on the cpu; values at torch.testing's tolerances, exact for integers;
            metadata only on meta and for random ops; or the same exception class)
  backward  gradcheck of float64 versions of the samples on the device (gradient shapes
            and dtypes on meta)
  meta      the meta device infers the shapes and dtypes the device computes
  inplace   `<op>_` agrees with `<op>` (ops that have one)
  out       out= agrees with the result (ops that take it; out=(a, b) for several results)
Ops without a kernel on the device are skipped with "no kernel"; the plugin
(mindtorch.testing.pytest_plugin) prints a pass / skip / fail table at the end.
Known gaps are declared in mindtorch.testing.opdb._info (SKIPS, XFAILS).
"""
import pytest

from mindtorch.testing import opdb
from mindtorch.testing._check_out import several_results
from mindtorch.testing._kit import CHECK_FUNCTIONS

try:  # the references are tiny: torch's thread pool only slows them down
    import torch as _torch
    _torch.set_num_threads(1)
except ImportError:
    pass
import mindtorch as _mindtorch

_mindtorch.set_num_threads(1)  # (as torch: where a kernel's pieces end can round)

_DB = opdb.op_db()
OPS = sorted(_DB)
OPS_INPLACE = [n for n in OPS if _DB[n].inplace is not None]
# out=: declared, or a tuple of tensors for ops with several results (where PyTorch has it)
OPS_OUT = [n for n in OPS if _DB[n].supports_out or several_results(_DB[n])]


@pytest.fixture(scope="session")
def device(request):
    return request.config.getoption("mindtorch_device", default="cpu")


def _run(request, check, name, device):
    info = opdb.opinfo(name)
    known = info.skip_reason(check, device)
    if known:
        pytest.skip(f"known: {known}")
    if not info.samples:
        pytest.skip("no samples")
    xfail = info.xfail_reason(check, device)
    if xfail:
        request.applymarker(pytest.mark.xfail(reason=xfail, strict=False))
    kwargs = {}
    if check == "forward":
        kwargs["reference"] = request.config.getoption("mindtorch_reference", default="torch")
    verdict, why = CHECK_FUNCTIONS[check](info, device, **kwargs).verdict()
    if verdict == "skip":
        pytest.skip(why)
    if verdict == "fail":
        pytest.fail(f"{name} [{check}] on '{device}':\n{why}", pytrace=False)


@pytest.mark.parametrize("op", OPS)
def test_forward(request, op, device):
    _run(request, "forward", op, device)


@pytest.mark.parametrize("op", OPS)
def test_backward(request, op, device):
    _run(request, "backward", op, device)


@pytest.mark.parametrize("op", OPS)
def test_meta(request, op, device):
    _run(request, "meta", op, device)


@pytest.mark.parametrize("op", OPS_INPLACE)
def test_inplace(request, op, device):
    _run(request, "inplace", op, device)


@pytest.mark.parametrize("op", OPS_OUT)
def test_out(request, op, device):
    _run(request, "out", op, device)
