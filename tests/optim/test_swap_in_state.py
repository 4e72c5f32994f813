"""optim.swap_in_optimizer_params_and_state against torch: a step inside the block acts
on the swapped-in parameters and state (in-place updates reach the caller's state), and
the live optimizer is untouched afterwards."""
import numpy as np
import pytest
import torch

import mindtorch


def run(L):
    L.manual_seed(0)
    model = L.nn.Linear(3, 2)
    opt = L.optim.Adam(model.parameters(), lr=0.1)
    model(L.ones(4, 3)).sum().backward()
    opt.step()
    live = [p.detach().clone() for p in model.parameters()]
    live_state = {k: v.clone() for k, v in opt.state[model.weight].items()}
    other = {n: p.detach().clone().requires_grad_() for n, p in model.named_parameters()}
    osd = opt.state_dict()
    osd = {"state": {i: {k: v.clone() for k, v in s.items()} for i, s in osd["state"].items()},
           "param_groups": [dict(g, lr=0.5) for g in osd["param_groups"]]}
    with L.optim.swap_in_optimizer_params_and_state(opt, other, osd):
        assert opt.param_groups[0]["lr"] == 0.5
        assert opt.param_groups[0]["params"][0] is other["weight"]
        for p in other.values():
            p.grad = L.ones_like(p)
        opt.step()
    assert opt.param_groups[0]["lr"] == 0.1
    assert all(L.equal(a, b) for a, b in zip(live, model.parameters()))
    assert all(L.equal(v, opt.state[model.weight][k]) for k, v in live_state.items())
    return ([p.tolist() for p in other.values()],
            {i: {k: v.tolist() for k, v in s.items()} for i, s in osd["state"].items()})


def test_swap_in_matches_torch():
    want, got = run(torch), run(mindtorch)
    np.testing.assert_allclose(np.array(got[0][0]), np.array(want[0][0]), rtol=1e-6)
    np.testing.assert_allclose(np.array(got[0][1]), np.array(want[0][1]), rtol=1e-6)
    assert got[1].keys() == want[1].keys()
    for i in want[1]:
        for k in want[1][i]:
            np.testing.assert_allclose(np.array(got[1][i][k]), np.array(want[1][i][k]),
                                       rtol=1e-6)


@pytest.mark.parametrize("lib", [torch, mindtorch])
def test_swap_in_needs_initialized_state(lib):
    model = lib.nn.Linear(2, 1)
    opt = lib.optim.SGD(model.parameters(), lr=0.1)
    with pytest.raises(RuntimeError, match="requires initialized optimizer state"):
        with lib.optim.swap_in_optimizer_params_and_state(opt, {}, opt.state_dict()):
            pass
