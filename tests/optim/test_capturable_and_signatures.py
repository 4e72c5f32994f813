"""Optimizer constructors take PyTorch's parameters (names, order, kinds, defaults), and
capturable=True refuses host parameters at step() as PyTorch's optimizers do."""
import inspect
import warnings

import pytest

import mindtorch
from reference import torch

OPTIMIZERS = sorted(n for n in dir(torch.optim) if isinstance(getattr(torch.optim, n), type)
                    and issubclass(getattr(torch.optim, n), torch.optim.Optimizer)
                    and n != "Optimizer")
CAPTURABLE = [n for n in OPTIMIZERS
              if "capturable" in inspect.signature(getattr(torch.optim, n)).parameters]


def _params(cls):
    return [(p.name, p.kind, p.default)
            for p in inspect.signature(cls.__init__).parameters.values()]


@pytest.mark.parametrize("name", OPTIMIZERS)
def test_constructor_signature_is_torchs(name):
    assert _params(getattr(mindtorch.optim, name)) == _params(getattr(torch.optim, name))


def _step(T, name, **kwargs):
    p = T.nn.Parameter(T.ones(3))
    opt = getattr(T.optim, name)([p], **kwargs)
    p.grad = T.ones(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            opt.step()
        except Exception as e:  # noqa: BLE001 - the class and message are compared
            return type(e).__name__, str(e)
    return p.detach().tolist()


@pytest.mark.parametrize("foreach", [None, False, True])
@pytest.mark.parametrize("name", CAPTURABLE)
def test_capturable_on_cpu_raises_as_torch(name, foreach):
    got = _step(mindtorch, name, capturable=True, foreach=foreach)
    assert got == _step(torch, name, capturable=True, foreach=foreach)
    assert got[0] == "AssertionError"


def test_capturable_checks_only_parameters_with_gradients_and_not_fused():
    for T in (mindtorch, torch):
        p = T.nn.Parameter(T.ones(2))
        T.optim.Adam([p], capturable=True).step()  # no gradient: nothing checked
        for name in ("Adam", "AdamW"):
            assert _step(T, name, capturable=True, fused=True) == \
                _step(torch, name, capturable=True, fused=True)
    p = mindtorch.nn.Parameter(mindtorch.ones(2, device="meta"))
    p.grad = mindtorch.ones(2, device="meta")
    with pytest.raises(AssertionError, match="capturable=True"):
        mindtorch.optim.RMSprop([p], capturable=True).step()
