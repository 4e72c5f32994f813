"""Every module of module_table built on the meta device (`with device("meta")`) against torch:
parameters and buffers on meta, shapes propagated through forward on meta inputs; then
to_empty(device="cpu") + load_state_dict gives torch's values."""
import warnings

import numpy as np
import pytest

import mindtorch
from module_table import CASES, EVAL, RANDOM
from test_module_table import FORWARD_IDS, IDS, _arrays, _assert_close, _ctc_fix, _flat, _shape

torch = pytest.importorskip("torch")


def _build_meta(L, name, i):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with L.device("meta"):
            return CASES[name][i][0](L)


def _meta_inputs(L, specs, arrays):
    out = []
    for a in arrays:
        t = L.tensor(a).to("meta")
        if t.is_floating_point():
            t.requires_grad_(True)
        out.append(t)
    return out


def _run(m, inputs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return m(*inputs)


@pytest.mark.parametrize("name,i", IDS, ids=[f"{n}-{i}" for n, i in IDS])
def test_built_on_meta(name, i):
    m, t = _build_meta(mindtorch, name, i), _build_meta(torch, name, i)
    for (km, vm), (kt, vt) in zip(list(m.named_parameters()) + list(m.named_buffers()),
                                  list(t.named_parameters()) + list(t.named_buffers())):
        assert km == kt
        if not type(vt).__name__.startswith("Uninitialized"):
            assert vm.device.type == vt.device.type == "meta", km
            assert tuple(vm.shape) == tuple(vt.shape) and str(vm.dtype) == str(vt.dtype)
    assert repr(m) == repr(t)


@pytest.mark.parametrize("name,i", FORWARD_IDS, ids=[f"{n}-{i}" for n, i in FORWARD_IDS])
def test_meta_forward_shapes(name, i):
    specs = CASES[name][i][1]
    arrays = _ctc_fix(name, _arrays(specs, [_shape(s) for s in specs], np.random.default_rng(0)))
    t = _build_meta(torch, name, i)
    try:
        t_out = _run(t, _meta_inputs(torch, specs, arrays))
    except (NotImplementedError, RuntimeError, ValueError, TypeError, IndexError):
        pytest.skip("torch cannot run it on meta")
    m = _build_meta(mindtorch, name, i)
    m_out = _run(m, _meta_inputs(mindtorch, specs, arrays))
    t_flat, m_flat = _flat(t_out), _flat(m_out)
    assert len(m_flat) == len(t_flat)
    for a, b in zip(m_flat, t_flat):
        if isinstance(b, torch.Tensor):
            assert a.device.type == "meta"
            assert tuple(a.shape) == tuple(b.shape) and str(a.dtype) == str(b.dtype), (a, b)
        else:
            assert a == b
    # backward on meta: gradients of meta parameters with their shapes
    grads = [a for a in m_flat if isinstance(a, mindtorch.Tensor) and a.requires_grad]
    if grads:
        mindtorch.autograd.backward([g.sum() for g in grads])
        for p in m.parameters():
            assert p.grad is None or (p.grad.device.type == "meta" and p.grad.shape == p.shape)


@pytest.mark.parametrize("name,i", FORWARD_IDS, ids=[f"{n}-{i}" for n, i in FORWARD_IDS])
def test_to_empty_then_load(name, i):
    if name.startswith("Lazy"):
        pytest.skip("lazy parameters are materialised by forward")
    specs = CASES[name][i][1]
    t = CASES[name][i][0](torch)
    m = _build_meta(mindtorch, name, i).to_empty(device="cpu")
    assert all(p.device.type == "cpu" for p in list(m.parameters()) + list(m.buffers()))
    m.load_state_dict({k: mindtorch.tensor(v.detach().numpy()) for k, v in t.state_dict().items()})
    if name in EVAL:
        m.eval()
        t.eval()
    arrays = _ctc_fix(name, _arrays(specs, [_shape(s) for s in specs], np.random.default_rng(0)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            t_out = t(*[torch.tensor(a) for a in arrays])
        except Exception:  # base classes without forward; inputs torch refuses
            pytest.skip("torch does not run it")
        m_out = m(*[mindtorch.tensor(a) for a in arrays])
    for a, b in zip(_flat(m_out), _flat(t_out)):
        if name in RANDOM:
            assert tuple(a.shape) == tuple(b.shape)
        else:
            _assert_close(a, b, "float32")


def test_device_argument_and_context_agree():
    for L in (mindtorch, torch):
        lin = L.nn.Linear(4, 3, device="meta")
        conv = L.nn.Conv2d(2, 3, 3, device="meta", dtype=L.float64)
        assert lin.weight.device.type == "meta" and conv.bias.dtype == L.float64
        with L.device("meta"):
            seq = L.nn.Sequential(L.nn.Linear(4, 8), L.nn.ReLU(), L.nn.LayerNorm(8))
        y = seq(L.randn(5, 4, device="meta"))
        assert y.device.type == "meta" and tuple(y.shape) == (5, 8)
        y.sum().backward()
        assert seq[0].weight.grad.device.type == "meta"
        assert tuple(seq[0].weight.grad.shape) == (8, 4)
