"""Every nn module class shared with torch, driven by module_table.CASES: structure (repr,
parameters, buffers, state_dict keys) and forward/backward on valid and perturbed inputs.

A perturbation (empty batch, unbatched, wrong rank, wrong channels, wrong dtype, mismatched
target, other dtypes, non-contiguous) is judged by torch's own outcome: where torch raises,
mindtorch raises the same builtin exception class; where torch computes, mindtorch gives the
same values and gradients.
"""
import contextlib
import inspect
import warnings

import numpy as np
import pytest

import mindtorch
from module_table import CASES, EVAL, RANDOM
from reference import to_torch

torch = pytest.importorskip("torch")

PERTURBATIONS = ["plain", "eval", "inference", "float64", "float16", "bfloat16", "noncontig", "empty", "unbatched",
                 "rank+1", "rank-2", "channels+1", "wrong_dtype", "target_mismatch"]
TOL = {"float32": (1e-4, 1e-5), "float64": (1e-9, 1e-10), "float16": (2e-2, 2e-2),
       "bfloat16": (6e-2, 6e-2)}

# (class, case, perturbation) not compared, and why
KNOWN = {
    ("MultiMarginLoss", 0, "empty"): pytest.mark.skip(reason="torch returns uninitialised memory"),
    ("MultiMarginLoss", 1, "empty"): pytest.mark.skip(reason="torch returns uninitialised memory"),
}

IDS = [(name, i) for name, cases in CASES.items() for i in range(len(cases))]
FORWARD_IDS = [(n, i) for n, i in IDS if CASES[n][i][1] is not None]


def _shared_classes(L):
    return {n for n in dir(L.nn) if inspect.isclass(getattr(L.nn, n))
            and issubclass(getattr(L.nn, n), L.nn.Module)}


def test_every_shared_class_is_in_the_table():
    missing = (_shared_classes(torch) & _shared_classes(mindtorch)) - set(CASES)
    assert not missing


def _build(name, i):
    build, _ = CASES[name][i]
    torch.manual_seed(0)  # torch's initial weights are copied: the same ones every run
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return build(mindtorch), build(torch)


def _signature(named):
    def sig(v):
        if type(v).__name__.startswith("Uninitialized"):
            return type(v).__name__, v.requires_grad
        return tuple(v.shape), str(v.dtype).split(".")[-1], v.requires_grad, type(v).__name__
    return [(k,) + sig(v) for k, v in named]


@pytest.mark.parametrize("name,i", IDS, ids=[f"{n}-{i}" for n, i in IDS])
def test_structure(name, i):
    m, t = _build(name, i)
    assert repr(m) == repr(t)
    assert _signature(m.named_parameters()) == _signature(t.named_parameters())
    assert _signature(m.named_buffers()) == _signature(t.named_buffers())
    assert list(m.state_dict()) == list(t.state_dict())
    assert [k for k, _ in m.named_modules()] == [k for k, _ in t.named_modules()]
    assert m.training and t.training


# --------------------------------------------------------------------------- inputs

def _kind(spec):
    return "float" if isinstance(spec, tuple) and all(isinstance(d, int) for d in spec) else spec[0]


def _shape(spec):
    kind = _kind(spec)
    return spec if kind == "float" else (None if kind == "fn" else spec[1])


def _perturbed_shapes(specs, p):
    shapes = [_shape(s) for s in specs]
    first = shapes[0]
    if first is None:
        return shapes
    if p == "empty":
        return [None if s is None else (0,) + tuple(s[1:]) for s in shapes]
    if p == "unbatched":
        return [None if s is None or len(s) < 2 else tuple(s[1:]) for s in shapes]
    if p == "rank+1":
        return [(1,) + tuple(first)] + shapes[1:]
    if p == "rank-2":
        return [tuple(first[2:])] + shapes[1:]
    if p == "channels+1":
        d = 1 if len(first) > 1 else 0
        return [first[:d] + (first[d] + 1,) + first[d + 1:]] + shapes[1:]
    if p == "target_mismatch" and len(shapes) > 1 and shapes[1]:
        s = shapes[1]
        return shapes[:1] + [s[:-1] + (s[-1] + 1,)] + shapes[2:]
    return shapes


def _arrays(specs, shapes, rng):
    out = []
    for spec, shape in zip(specs, shapes):
        kind = _kind(spec)
        if kind == "fn":
            a = spec[1](rng)
        elif kind == "float":
            a = np.asarray(rng.standard_normal(shape)).astype(np.float32)
        elif kind == "idx":
            a = np.asarray(rng.integers(0, spec[2], size=shape)).astype(np.int64)
        elif kind == "prob":
            a = np.asarray(rng.uniform(0.05, 0.95, size=shape)).astype(np.float32)
        elif kind == "pos":
            a = np.asarray(rng.uniform(0.5, 2.0, size=shape)).astype(np.float32)
        elif kind == "sign":
            a = np.where(rng.random(shape) < 0.5, -1.0, 1.0).astype(np.float32)
        else:  # bin
            a = (rng.random(shape) < 0.5).astype(np.float32)
        out.append(np.asarray(a))
    return out


def _ctc_fix(name, arrays):  # CTC wants log-probabilities over classes
    if name == "CTCLoss" and arrays[0].ndim == 3 and arrays[0].shape[-1]:
        x = arrays[0]
        arrays[0] = (x - np.log(np.exp(x).sum(-1, keepdims=True))).astype(x.dtype)
    return arrays


def _pair(L, arrays, p):
    """The inputs as tensors of library L, perturbed by p where it is about dtype/layout."""
    out = []
    for j, a in enumerate(arrays):
        if p == "noncontig" and a.dtype == np.float32 and a.ndim:
            wide = np.repeat(a, 2, axis=-1)
            x = L.tensor(wide)[..., ::2]
        else:
            x = L.tensor(a)
        if x.is_floating_point() and p in ("float64", "float16", "bfloat16"):
            x = x.to(getattr(L, p))
        if j == 0 and p == "wrong_dtype":
            x = x.long() if x.is_floating_point() else x.float()
        if x.is_floating_point():
            x.requires_grad_(True)
        out.append(x)
    return out


def _flat(out):
    if isinstance(out, (tuple, list)):
        return [y for x in out for y in _flat(x)]
    return [out]


def _run(module, inputs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return module(*inputs)


def _assert_close(m, t, dtype):
    assert m is None and t is None or (m is not None and t is not None), (m, t)
    if t is None:
        return
    if not isinstance(t, torch.Tensor):
        assert m == t
        return
    assert str(m.dtype) == str(t.dtype) and tuple(m.shape) == tuple(t.shape), (m.dtype, m.shape, t.dtype, t.shape)
    rtol, atol = TOL.get(dtype, TOL["float32"])
    torch.testing.assert_close(to_torch(m).double(), t.detach().double(), rtol=rtol, atol=atol,
                               equal_nan=True)


FORWARD = [pytest.param(n, i, p, id=f"{n}-{i}-{p}", marks=KNOWN.get((n, i, p), ()))
           for n, i in FORWARD_IDS for p in PERTURBATIONS]


@pytest.mark.parametrize("name,i,p", FORWARD)
def test_forward_backward(name, i, p):
    specs = CASES[name][i][1]
    if p == "target_mismatch" and len(specs) < 2:
        pytest.skip("one input")
    m, t = _build(name, i)
    rng = np.random.default_rng(0)
    if name.startswith("Lazy"):  # materialise the parameters first
        base = _ctc_fix(name, _arrays(specs, [_shape(s) for s in specs], rng))
        _run(m, _pair(mindtorch, base, "plain"))
        _run(t, _pair(torch, base, "plain"))
    m.load_state_dict({k: mindtorch.tensor(v.detach().numpy()) for k, v in t.state_dict().items()})
    if name in EVAL or p in ("eval", "inference"):
        m.eval()
        t.eval()
    dtype = p if p in ("float64", "float16", "bfloat16") else "float32"
    if dtype != "float32":
        m.to(getattr(mindtorch, dtype))
        t.to(getattr(torch, dtype))
    arrays = _ctc_fix(name, _arrays(specs, _perturbed_shapes(specs, p), rng))
    t_in, m_in = _pair(torch, arrays, p), _pair(mindtorch, arrays, p)
    if p == "noncontig" and any(x.dim() and x.is_floating_point() for x in m_in):
        assert not all(x.is_contiguous() for x in m_in)
    try:
        with torch.no_grad() if p == "inference" else contextlib.nullcontext():
            t_out = _run(t, t_in)  # (eval + no_grad: torch's fast paths for attention)
    except Exception as e:  # torch refuses: mindtorch refuses with the same builtin class
        base = next(c for c in type(e).__mro__ if c.__module__ == "builtins")
        with pytest.raises(base):
            _run(m, m_in)
        return
    with mindtorch.no_grad() if p == "inference" else contextlib.nullcontext():
        m_out = _run(m, m_in)
    t_flat, m_flat = _flat(t_out), _flat(m_out)
    assert len(t_flat) == len(m_flat)
    if name in RANDOM:
        for a, b in zip(m_flat, t_flat):
            assert str(a.dtype) == str(b.dtype) and tuple(a.shape) == tuple(b.shape)
        return
    for a, b in zip(m_flat, t_flat):
        _assert_close(a, b, dtype)
    # state after the forward (running statistics, max_norm renormalisation)
    for (k, a), (_, b) in zip(m.state_dict().items(), t.state_dict().items()):
        _assert_close(a, b, dtype)
    # backward with the same seed gradients
    pairs = [(a, b) for a, b in zip(m_flat, t_flat)
             if isinstance(b, torch.Tensor) and b.requires_grad and b.numel()]
    if not pairs or p == "inference":  # (no_grad views: see test_regressions' xfail)
        return
    seeds = [rng.standard_normal(tuple(b.shape)) for _, b in pairs]
    torch.autograd.backward([b for _, b in pairs],
                            [torch.tensor(s).to(b.dtype) for s, (_, b) in zip(seeds, pairs)])
    mindtorch.autograd.backward([a for a, _ in pairs],
                                [mindtorch.tensor(s).to(a.dtype) for s, (a, _) in zip(seeds, pairs)])
    for a, b in zip(m_in, t_in):
        _assert_close(a.grad, b.grad, dtype)
    for (k, a), (_, b) in zip(m.named_parameters(), t.named_parameters()):
        _assert_close(a.grad, b.grad, dtype)
