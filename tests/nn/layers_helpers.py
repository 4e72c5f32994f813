"""Comparing a mindtorch layer module with its PyTorch twin: same weights, same inputs,
outputs and gradients (of the inputs and of every parameter) compared."""
import numpy as np
import pytest

import mindtorch
from reference import assert_same, to_torch

torch = pytest.importorskip("torch")

TOL = {"float64": 1e-10, "float32": 1e-5, "float16": 4e-3, "bfloat16": 3e-2}


def close(mt, th, dtype):
    """Same dtype, shape and values within TOL, the absolute tolerance scaled by the largest
    reference value (a gradient summed over many terms is exact only to its scale)."""
    tol = TOL.get(dtype)
    if tol is None or not isinstance(th, torch.Tensor) or not th.dtype.is_floating_point:
        return assert_same(mt, th)
    scale = max(1.0, th.detach().abs().max().item()) if th.numel() else 1.0
    assert_same(mt, th, rtol=tol, atol=tol * scale)


def copy_params(th_mod, mt_mod):
    """mt_mod's parameters and buffers take th_mod's values (same names, shapes, dtypes)."""
    th_state = dict(th_mod.named_parameters())
    th_state.update(th_mod.named_buffers())
    mt_state = dict(mt_mod.named_parameters())
    mt_state.update(mt_mod.named_buffers())
    assert sorted(th_state) == sorted(mt_state)
    with mindtorch.no_grad():
        for name, p in mt_state.items():
            src = th_state[name].detach()
            assert tuple(p.shape) == tuple(src.shape), name
            wide = src.double() if src.dtype is torch.bfloat16 else src  # (numpy has no bf16)
            p.copy_(mindtorch.tensor(wide.numpy()))


def pair_modules(th_cls, mt_cls, *args, dtype="float64", **kwargs):
    """The torch module and the mindtorch one built with the same arguments and holding the
    torch module's parameters."""
    th_mod = th_cls(*args, **kwargs).to(getattr(torch, dtype))
    mt_mod = mt_cls(*args, **kwargs).to(getattr(mindtorch, dtype))
    copy_params(th_mod, mt_mod)
    return th_mod, mt_mod


def inputs(*shapes, dtype="float64", seed=0, noncontiguous=False):
    """Random inputs as (mindtorch, torch) pairs requiring grad; noncontiguous ones are
    transposed views of their last two dims (rank >= 2)."""
    rng = np.random.default_rng(seed)
    pairs = []
    for shape in shapes:
        if noncontiguous:
            data = rng.standard_normal((*shape[:-2], shape[-1], shape[-2]))
            mt = mindtorch.tensor(data).to(getattr(mindtorch, dtype)).transpose(-1, -2)
            th = torch.from_numpy(data).to(getattr(torch, dtype)).transpose(-1, -2)
            assert not mt.is_contiguous()
        else:
            data = rng.standard_normal(shape)
            mt = mindtorch.tensor(data).to(getattr(mindtorch, dtype))
            th = torch.from_numpy(data).to(getattr(torch, dtype))
        pairs.append((mt.requires_grad_(), th.requires_grad_()))
    return pairs


def _leaves(value):
    return list(value) if isinstance(value, (tuple, list)) else [value]


def check_module(th_mod, mt_mod, *args, dtype="float64", backward=True, seed=1):
    """Forward both modules on the (mindtorch, torch) argument pairs; compare outputs, then
    backpropagate the same random upstream gradient and compare every gradient."""
    mt_args = [a[0] if isinstance(a, tuple) else a for a in args]
    th_args = [a[1] if isinstance(a, tuple) else a for a in args]
    mt_out, th_out = _leaves(mt_mod(*mt_args)), _leaves(th_mod(*th_args))
    assert len(mt_out) == len(th_out)
    for m, t in zip(mt_out, th_out):
        close(m, t, dtype)
    if not backward:
        return mt_out, th_out
    rng = np.random.default_rng(seed)
    mt_loss, th_loss = 0, 0
    for m, t in zip(mt_out, th_out):
        if not t.dtype.is_floating_point:
            continue
        up = rng.standard_normal(tuple(t.shape))
        mt_loss = mt_loss + (m * mindtorch.tensor(up).to(m.dtype)).sum()
        th_loss = th_loss + (t * torch.from_numpy(up).to(t.dtype)).sum()
    mt_loss.backward()
    th_loss.backward()
    for m, t in zip(mt_args, th_args):
        if isinstance(t, torch.Tensor) and t.requires_grad:
            close(m.grad, t.grad, dtype)
    th_params = dict(th_mod.named_parameters())
    for name, p in mt_mod.named_parameters():
        if th_params[name].grad is None:
            assert p.grad is None, name
        else:
            close(p.grad, th_params[name].grad, dtype)
    return mt_out, th_out


def assert_same_repr(mt_mod, th_mod):
    assert repr(mt_mod) == repr(th_mod)


__all__ = ["TOL", "assert_same", "assert_same_repr", "check_module", "close", "copy_params",
           "inputs", "pair_modules", "to_torch", "torch"]
