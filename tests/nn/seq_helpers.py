"""Shared by the sequence-model tests (RNN, attention, Transformer): the same module and
inputs in mindtorch and PyTorch, compared forward and backward."""
import numpy as np
import pytest

import mindtorch
from reference import to_torch

torch = pytest.importorskip("torch")

TOL = {"float64": dict(rtol=1e-10, atol=1e-10), "float32": dict(rtol=1e-5, atol=1e-5)}


def to_mt(t, requires_grad=None):
    """A mindtorch copy of a torch tensor (requires_grad as t's unless given)."""
    m = mindtorch.tensor(t.detach().numpy())
    if requires_grad if requires_grad is not None else t.requires_grad:
        m.requires_grad_()
    return m


def pair_modules(mt_cls, th_cls, *args, dtype="float64", **kwargs):
    """The module built in both libraries, mindtorch's loaded with torch's state_dict (whose
    keys must be the same, in the same order)."""
    th = th_cls(*args, **kwargs).to(getattr(torch, dtype))
    mt = mt_cls(*args, **kwargs).to(getattr(mindtorch, dtype))
    assert list(mt.state_dict()) == list(th.state_dict())
    mt.load_state_dict({k: to_mt(v) for k, v in th.state_dict().items()})
    return mt, th


def randn(*shape, dtype="float64", requires_grad=True, seed=None):
    """A torch tensor and its mindtorch copy, both leaves."""
    rng = np.random.default_rng(seed if seed is not None else sum(shape) + len(shape))
    t = torch.tensor(rng.standard_normal(shape), dtype=getattr(torch, dtype))
    t.requires_grad_(requires_grad)
    return to_mt(t), t


def flat(outputs):
    """The tensors of a nested tuple/list output, in order."""
    if isinstance(outputs, (tuple, list)):
        return [t for o in outputs for t in flat(o)]
    return [] if outputs is None else [outputs]


def assert_close(mt_t, th_t, dtype="float64"):
    assert tuple(mt_t.shape) == tuple(th_t.shape), (mt_t.shape, th_t.shape)
    assert str(mt_t.dtype) == str(th_t.dtype)
    torch.testing.assert_close(to_torch(mt_t), th_t.detach(), equal_nan=True, **TOL[dtype])


def check_forward_backward(mt_mod, th_mod, mt_args, th_args, dtype="float64", mt_kwargs=None,
                           th_kwargs=None, **kwargs):
    """Same outputs; then the same gradients of inputs and parameters for a weighted sum of
    all outputs (fixed random weights, so every output element matters). kwargs go to both
    calls, mt_kwargs/th_kwargs (tensors) to one each."""
    mt_out = mt_mod(*mt_args, **kwargs, **(mt_kwargs or {}))
    th_out = th_mod(*th_args, **kwargs, **(th_kwargs or {}))
    mt_flat, th_flat = flat(mt_out), flat(th_out)
    assert len(mt_flat) == len(th_flat)
    for m, t in zip(mt_flat, th_flat):
        assert_close(m, t, dtype)
    rng = np.random.default_rng(0)
    mt_loss, th_loss = 0, 0
    for m, t in zip(mt_flat, th_flat):
        if t.requires_grad:
            w = torch.tensor(rng.standard_normal(tuple(t.shape)), dtype=t.dtype)
            th_loss = th_loss + (t * w).sum()
            mt_loss = mt_loss + (m * to_mt(w)).sum()
    th_loss.backward()
    mt_loss.backward()
    for m, t in zip(flat(mt_args), flat(th_args)):
        if isinstance(t, torch.Tensor) and t.requires_grad and t.is_leaf:
            assert_close(m.grad, t.grad, dtype)
    th_params = dict(th_mod.named_parameters())
    for name, p in mt_mod.named_parameters():
        tp = th_params[name]
        if tp.grad is None:
            assert p.grad is None or not p.grad.abs().sum().item(), name
        else:
            assert p.grad is not None, name
            assert_close(p.grad, tp.grad, dtype)
    return mt_out, th_out
