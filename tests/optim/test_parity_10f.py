"""Regressions found by the float64 module x optimizer training-parity sweep (QA10f),
each compared with PyTorch."""
import numpy as np
import pytest

import mindtorch

from optim_helpers import to_mt

torch = pytest.importorskip("torch")


def _quadratic_step(lib, opt, p):
    def closure():
        opt.zero_grad()
        loss = (p * p).sum() + p.sum()
        loss.backward()
        return loss
    opt.step(closure)


@pytest.mark.parametrize("name", ["LBFGS", "SparseAdam", "Adam", "SGD", "Adafactor"])
def test_reloaded_state_keeps_group_keys(name):
    # loading a state twice must not give LBFGS / SparseAdam groups a "differentiable"
    # option their constructors do not take (the first load adds it to their defaults)
    opts = {}
    for lib in (torch, mindtorch):
        p = lib.ones(3, dtype=lib.float64, requires_grad=True)
        opts[lib] = getattr(lib.optim, name)([p])
        if name == "LBFGS":
            _quadratic_step(lib, opts[lib], p)
    for _ in range(2):
        opts[mindtorch].load_state_dict(to_mt(opts[torch].state_dict()))
        opts[torch].load_state_dict(opts[torch].state_dict())
    mine, ref = opts[mindtorch], opts[torch]
    assert sorted(mine.state_dict()["param_groups"][0]) == sorted(ref.state_dict()["param_groups"][0])
    assert sorted(mine.defaults) == sorted(ref.defaults)
