"""Forward AD over the op database: for every differentiable op, the first samples with
their floating inputs made float64 dual tensors (random tangents), the results' tangents
against PyTorch's forward AD on the same inputs."""
import warnings

import mindtorch
import numpy as np
import pytest
import torch
from mindtorch.testing._sample_runs import _quiet, build, tensors
from mindtorch.testing._torch_bridge import to_torch
from mindtorch.testing.opdb._info import op_db

SAMPLES = 2

# {op: reason} where mindtorch's tangents knowingly differ from PyTorch's
DIFFERENT = {
    "_gru_cell_backward": "backward op: its double vjp differs from PyTorch's fused formula",
    "_lstm_cell_backward": "backward op: its double vjp differs from PyTorch's fused formula",
    "_layer_norm_backward": "backward op: PyTorch's second derivative of layer norm is off",
    "_batch_norm_backward": "backward op: PyTorch's derivative of it differentiates the batch "
                            "statistics through the input; this op takes them as given",
    "acosh": "at -1 PyTorch's tangent is inf, the formula's nan",
    "arccosh": "at -1 PyTorch's tangent is inf, the formula's nan",
    "ldexp": "PyTorch multiplies by 2 ** (integer exponent): 0 for negative exponents",
    "ldexp_": "PyTorch multiplies by 2 ** (integer exponent): 0 for negative exponents",
    "logcumsumexp": "-inf inputs: the formula's tangent is nan",
    "logical_not_": "PyTorch leaves the tangent of a tensor written by logical_not_ as it was",
    "cholesky_inverse": "a non-symmetric tangent: PyTorch reads one triangle only",
    "triangular_solve": "PyTorch's tangent reads one triangle of A only",
    "linalg_eig": "eigenvector tangents: PyTorch's gauge (normalization) differs",
    "linalg_eigh": "a non-symmetric tangent: PyTorch's formula assumes a symmetric one",
    "linalg_svd": "singular vector tangents: PyTorch's gauge differs",
    "svd": "singular vector tangents: PyTorch's gauge differs",
}


def _ops():
    return sorted(name for name, info in op_db().items()
                  if info.op.differentiable and not info.random and info.samples)


def _dual(x, lib, rng):
    fw = lib.autograd.forward_ad
    if isinstance(x, lib.Tensor) and x.dtype.is_floating_point:
        tangent = lib.tensor(rng.standard_normal(tuple(x.shape)), dtype=x.dtype)
        return fw.make_dual(x, tangent)
    if isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
        return type(x)(_dual(v, lib, rng) for v in x)
    return x


def _f64(x):
    if isinstance(x, mindtorch.Tensor) and x.dtype.is_floating_point:
        return x.double()
    if isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
        return type(x)(_f64(v) for v in x)
    return x


def _results(r, lib):
    if isinstance(r, lib.Tensor):
        return [r]
    if isinstance(r, (list, tuple)):
        return [o for v in r for o in _results(v, lib)]
    return []


def _run(lib, fn, args, kwargs, mutates, seed):
    fw = lib.autograd.forward_ad
    rng = np.random.default_rng(seed)
    with _quiet(), warnings.catch_warnings(), fw.dual_level():
        warnings.simplefilter("ignore")
        args = [_dual(a, lib, rng) for a in args]
        kwargs = {k: _dual(v, lib, rng) for k, v in kwargs.items()}
        if mutates and isinstance(args[0], lib.Tensor):
            args[0] = args[0].clone()
        return [fw.unpack_dual(o) for o in _results(fn(*args, **kwargs), lib)]


@pytest.mark.parametrize("name", _ops())
def test_tangents_match_torch_forward_ad(name):
    if name in DIFFERENT:
        pytest.skip(DIFFERENT[name])
    info = op_db()[name]
    ref = info.torch_reference(torch)
    if ref is None:
        pytest.skip("no PyTorch reference")
    for i, sample in enumerate(info.samples[:SAMPLES]):
        try:
            args, kwargs = build(sample, i, "cpu")
        except Exception:  # noqa: BLE001, S112 (samples of errors, missing kernels)
            continue
        args, kwargs = _f64(args), {k: _f64(v) for k, v in kwargs.items()}
        if not any(t.dtype.is_floating_point for t in tensors((args, kwargs))):
            continue
        try:
            theirs = _run(torch, ref, *to_torch((args, kwargs), torch), info.op.mutates, i)
        except Exception:  # noqa: BLE001, S112 (PyTorch refuses: nothing to compare with)
            continue
        ours = _run(mindtorch, info.op.binding, args, kwargs, info.op.mutates, i)
        assert len(ours) == len(theirs)
        for (p, t), (tp, tt) in zip(ours, theirs):
            if tt is None:
                continue
            assert t is not None or not tt.abs().sum(), f"sample {i}: no tangent"
            if t is None:
                continue
            assert tuple(t.shape) == tuple(tt.shape)
            expected = np.zeros(tuple(tt.shape)) if tt._is_zerotensor() else \
                tt.resolve_conj().numpy()
            np.testing.assert_allclose(t.numpy(), expected, rtol=1e-5, atol=1e-6,
                                       err_msg=f"sample {i}")
