"""Checking an op's gradients: against PyTorch's, against finite differences (gradcheck),
and on the meta device (shapes and dtypes of every gradient, no data).

    check_grads(lambda m, x, y: m.mul(x, y), randn(3, 1), randn(4))

`fn(module, *tensors)` is called once with mindtorch and once with torch.  Arguments:
a float numpy array becomes a leaf that requires grad (float64 unless `dtype=`);
`nc(array)` the same as a non-contiguous leaf; `const(value)` a tensor that does not
require grad (e.g. indices); anything else is passed through unchanged.
"""
import numpy as np
import torch

import mindtorch
from reference import assert_same

RNG = np.random.default_rng(0)


def leaf(module, data, dtype="float32"):
    """A tensor of `module` (mindtorch or torch) that requires grad."""
    return module.tensor(data, dtype=getattr(module, dtype), requires_grad=True)


def randn(*shape):
    return RNG.standard_normal(shape)


def rand(*shape, low=0.1, high=1.0):
    """Uniform in [low, high): for ops defined on positive inputs."""
    return RNG.uniform(low, high, shape)


class nc:
    """A non-contiguous leaf: every other element along the last dim of a wider tensor."""

    def __init__(self, array):
        self.array = np.asarray(array)


class const:
    """A tensor argument that does not require grad."""

    def __init__(self, array, dtype=None):
        self.array = np.asarray(array)
        self.dtype = dtype


def _leaf(module, spec, dtype, device):
    if isinstance(spec, const):
        t = module.tensor(spec.array, device=device)
        return t.to(getattr(module, spec.dtype)) if spec.dtype else t
    if isinstance(spec, nc):
        a = spec.array
        wide = np.zeros(a.shape[:-1] + (2 * a.shape[-1],)) if a.ndim else None
        if wide is None:
            return module.tensor(a, dtype=dtype, device=device).requires_grad_()
        wide[..., ::2] = a
        t = module.tensor(wide, dtype=dtype, device=device)[..., ::2].detach()
        assert a.ndim == 0 or a.shape[-1] <= 1 or not t.is_contiguous()
        return t.requires_grad_()
    if isinstance(spec, np.ndarray) and spec.dtype.kind == "f":
        return module.tensor(spec, dtype=dtype, device=device).requires_grad_()
    return spec


def _outputs(result):
    if isinstance(result, (tuple, list)):
        return [r for r in result if _is_float(r)]
    return [result] if _is_float(result) else []


def _is_float(r):
    return hasattr(r, "dtype") and (r.dtype.is_floating_point or r.dtype.is_complex) and \
        r.requires_grad


def _grads(module, fn, specs, dtype, device, seed):
    leaves = [_leaf(module, s, dtype, device) for s in specs]
    wrt = [t for t, s in zip(leaves, specs) if getattr(t, "requires_grad", False)]
    outs = _outputs(fn(module, *leaves))
    rng = np.random.default_rng(seed)
    gos = [module.tensor(rng.standard_normal(tuple(o.shape)), dtype=o.dtype, device=device)
           for o in outs]
    grads = module.autograd.grad(outs, wrt, gos, allow_unused=True) if outs else []
    return outs, grads, leaves, wrt


def check_grads(fn, *specs, dtype="float64", gradcheck=True, meta=True, rtol=None,
                atol=None, seed=1):
    """Forward results and gradients equal PyTorch's; gradcheck passes; on meta every
    gradient has the cpu gradient's shape and dtype.  Returns the mindtorch gradients."""
    m_outs, m_grads, _, m_wrt = _grads(mindtorch, fn, specs, getattr(mindtorch, dtype), "cpu",
                                       seed)
    t_outs, t_grads, _, _ = _grads(torch, fn, specs, getattr(torch, dtype), "cpu", seed)
    assert len(m_outs) == len(t_outs), "differentiable outputs differ from PyTorch's"
    assert_same(m_outs, t_outs, rtol=rtol, atol=atol)
    assert len(m_grads) == len(t_grads)
    for mg, tg in zip(m_grads, t_grads):
        assert (mg is None) == (tg is None), (mg, tg)
        if mg is not None:
            assert_same(mg, tg, rtol=rtol, atol=atol)
    if gradcheck and dtype == "float64":
        leaves = [_leaf(mindtorch, s, mindtorch.float64, "cpu") for s in specs]
        assert mindtorch.autograd.gradcheck(lambda *xs: fn(mindtorch, *xs), leaves,
                                            atol=1e-5, rtol=1e-3)
    if meta:
        check_meta(fn, specs, dtype, m_grads, m_wrt)
    return m_grads


def check_meta(fn, specs, dtype, cpu_grads, cpu_wrt):
    _, grads, _, wrt = _grads(mindtorch, fn, specs, getattr(mindtorch, dtype), "meta", 1)
    assert len(grads) == len(cpu_grads)
    for g, cg, leaf in zip(grads, cpu_grads, wrt):
        if cg is None:
            assert g is None
            continue
        assert g is not None and g.device.type == "meta"
        assert tuple(g.shape) == tuple(cg.shape) and g.dtype is cg.dtype


def check_gradgrad(fn, *specs):
    """Second derivatives (gradgradcheck) in float64."""
    leaves = [_leaf(mindtorch, s, mindtorch.float64, "cpu") for s in specs]
    assert mindtorch.autograd.gradgradcheck(lambda *xs: fn(mindtorch, *xs), leaves,
                                            atol=1e-5, rtol=1e-3)
