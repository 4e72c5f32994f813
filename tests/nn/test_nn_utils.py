"""nn.utils (clip_grad_*, get_total_norm, clip_grads_with_norm_, parameters_to_vector,
vector_to_parameters, skip_init) against PyTorch."""
import math
import warnings

import numpy as np
import pytest

import mindtorch as mt
from mindtorch import nn

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(0)
SHAPES = [(3, 4), (4,), (), (2, 1, 3)]


def params_pair(dtypes=("float64",) * 4, grads=True, scale=1.0):
    """The same parameters (and gradients) in mindtorch and torch."""
    ms, ts = [], []
    for shape, dt in zip(SHAPES, dtypes):
        data = RNG.standard_normal(shape)
        p = nn.Parameter(mt.tensor(data, dtype=getattr(mt, dt)))
        q = torch.nn.Parameter(torch.tensor(data, dtype=getattr(torch, dt)))
        if grads:
            g = RNG.standard_normal(shape) * scale
            p.grad = mt.tensor(g, dtype=getattr(mt, dt))
            q.grad = torch.tensor(g, dtype=getattr(torch, dt))
        ms.append(p)
        ts.append(q)
    return ms, ts


def check_grads(ms, ts, rtol=1e-12):
    for p, q in zip(ms, ts):
        if q.grad is None:
            assert p.grad is None
            continue
        assert str(p.grad.dtype) == str(q.grad.dtype)
        np.testing.assert_allclose(p.grad.numpy().astype(np.float64),
                                   q.grad.numpy().astype(np.float64), rtol=rtol, atol=1e-12)


@pytest.mark.parametrize("norm_type", [2.0, 1, 3.5, math.inf, -math.inf, 0.5, "inf"])
@pytest.mark.parametrize("max_norm", [0.5, 1e3])
def test_clip_grad_norm(norm_type, max_norm):
    ms, ts = params_pair()
    if norm_type == "inf":
        norm_type = float("inf")
    a = nn.utils.clip_grad_norm_(ms, max_norm, norm_type)
    b = torch.nn.utils.clip_grad_norm_(ts, max_norm, norm_type)
    assert type(a) is mt.Tensor and a.shape == () and str(a.dtype) == str(b.dtype)
    np.testing.assert_allclose(a.item(), b.item(), rtol=1e-12)
    check_grads(ms, ts)


def test_clip_grad_norm_mixed_dtypes_and_missing_grads():
    ms, ts = params_pair(("float32", "float64", "float32", "float16"))
    ms[1].grad = None
    ts[1].grad = None
    a = nn.utils.clip_grad_norm_(ms, 0.1)
    b = torch.nn.utils.clip_grad_norm_(ts, 0.1)
    assert str(a.dtype) == str(b.dtype)
    np.testing.assert_allclose(a.item(), b.item(), rtol=1e-6)
    check_grads(ms, ts, rtol=1e-3)


def test_clip_grad_norm_single_tensor_generator_and_empty():
    ms, ts = params_pair()
    a = nn.utils.clip_grad_norm_(ms[0], 0.2)
    b = torch.nn.utils.clip_grad_norm_(ts[0], 0.2)
    np.testing.assert_allclose(a.item(), b.item(), rtol=1e-12)
    check_grads(ms, ts)
    a = nn.utils.clip_grad_norm_((p for p in ms), 0.3, norm_type=1)
    b = torch.nn.utils.clip_grad_norm_((p for p in ts), 0.3, norm_type=1)
    np.testing.assert_allclose(a.item(), b.item(), rtol=1e-12)
    with pytest.warns(UserWarning, match="empty generator"):
        e = nn.utils.clip_grad_norm_((p for p in []), 1.0)
    assert e.item() == 0.0 and e.dtype is mt.float32
    no_grads, _ = params_pair(grads=False)
    assert nn.utils.clip_grad_norm_(no_grads, 1.0).item() == 0.0


def test_clip_grad_norm_nonfinite_and_foreach():
    ms, ts = params_pair()
    ms[0].grad[0, 0] = float("nan")
    ts[0].grad[0, 0] = float("nan")
    for utils, ps in ((nn.utils, ms), (torch.nn.utils, ts)):
        with pytest.raises(RuntimeError, match="non-finite"):
            utils.clip_grad_norm_(ps, 1.0, error_if_nonfinite=True)
    a = nn.utils.clip_grad_norm_(ms, 1.0, foreach=True)
    b = torch.nn.utils.clip_grad_norm_(ts, 1.0, foreach=True)
    assert math.isnan(a.item()) and math.isnan(b.item())
    check_grads(ms, ts)
    ms, ts = params_pair()
    ms[2].grad.fill_(float("inf"))
    ts[2].grad.fill_(float("inf"))
    a = nn.utils.clip_grad_norm_(ms, 1.0, norm_type=math.inf)
    b = torch.nn.utils.clip_grad_norm_(ts, 1.0, norm_type=math.inf)
    assert a.item() == b.item() == math.inf
    check_grads(ms, ts)


def test_clip_grad_norm_deprecated_alias():
    ms, _ = params_pair()
    with pytest.warns(FutureWarning):
        nn.utils.clip_grad_norm(ms, 1.0)


@pytest.mark.parametrize("norm_type", [2.0, 1.0, math.inf])
def test_get_total_norm_and_clip_grads_with_norm(norm_type):
    ms, ts = params_pair(scale=3.0)
    a = nn.utils.get_total_norm([p.grad for p in ms], norm_type)
    b = torch.nn.utils.get_total_norm([q.grad for q in ts], norm_type)
    np.testing.assert_allclose(a.item(), b.item(), rtol=1e-12)
    assert nn.utils.clip_grads_with_norm_(ms, 2.0, a) is None
    torch.nn.utils.clip_grads_with_norm_(ts, 2.0, b)
    check_grads(ms, ts)
    assert nn.utils.get_total_norm([]).item() == 0.0


def test_clip_grad_norm_no_autograd_record():
    p = nn.Parameter(mt.ones(3))
    p.grad = mt.ones(3, requires_grad=True) * 1  # a gradient with history (create_graph)
    total = nn.utils.clip_grad_norm_([p], 1.0)
    assert not total.requires_grad


@pytest.mark.parametrize("clip", [0.1, 1, 10.0])
def test_clip_grad_value(clip):
    ms, ts = params_pair(("float32", "float64", "float64", "float32"))
    ms[3].grad = None
    ts[3].grad = None
    assert nn.utils.clip_grad_value_(ms, clip) is None
    torch.nn.utils.clip_grad_value_(ts, clip)
    check_grads(ms, ts)
    nn.utils.clip_grad_value_(ms[0], clip / 2)
    torch.nn.utils.clip_grad_value_(ts[0], clip / 2)
    check_grads(ms, ts)
    nn.utils.clip_grad_value_(ms, clip / 4, foreach=True)
    torch.nn.utils.clip_grad_value_(ts, clip / 4, foreach=True)
    check_grads(ms, ts)


def test_clip_grad_value_without_grads():
    # PyTorch 2.13 refuses a list without gradients (an internal check of its grouping)
    for utils, lib in ((nn.utils, mt), (torch.nn.utils, torch)):
        with pytest.raises(RuntimeError, match="nested_tensorlist"):
            utils.clip_grad_value_([lib.nn.Parameter(lib.ones(2))], 1.0)
        with pytest.raises(RuntimeError, match="nested_tensorlist"):
            utils.clip_grad_value_([], 1.0)


def test_parameters_to_vector_roundtrip():
    ms, ts = params_pair(grads=False)
    v = nn.utils.parameters_to_vector(ms)
    w = torch.nn.utils.parameters_to_vector(ts)
    np.testing.assert_array_equal(v.detach().numpy(), w.detach().numpy())
    assert v.requires_grad and v.grad_fn is not None
    v.sum().backward()
    assert all(p.grad.tolist() == mt.ones_like(p).tolist() for p in ms)
    new = mt.arange(v.numel(), dtype=mt.float64)
    before = [p for p in ms]
    nn.utils.vector_to_parameters(new, ms)
    torch.nn.utils.vector_to_parameters(torch.arange(w.numel(), dtype=torch.float64), ts)
    for p, q in zip(ms, ts):
        assert p.shape == q.shape and type(p) is nn.Parameter
        np.testing.assert_array_equal(p.detach().numpy(), q.detach().numpy())
    assert [p for p in ms] == before
    new.fill_(-1)  # the parameters view the vector, as PyTorch's
    assert all((p == -1).all() for p in ms)
    with pytest.raises(TypeError, match="expected torch.Tensor, but got"):
        nn.utils.vector_to_parameters([1.0], ms)


def test_parameters_to_vector_devices():
    a = nn.Parameter(mt.ones(2))
    b = nn.Parameter(mt.ones(2, device="meta"))
    v = nn.utils.parameters_to_vector([b, b])
    assert v.is_meta and v.shape == (4,)
    with pytest.raises(RuntimeError):  # cat of cpu and meta (as torch: no device check here)
        nn.utils.parameters_to_vector([a, b])


def test_skip_init():
    class Lin(nn.Module):
        def __init__(self, n, device=None):
            super().__init__()
            self.weight = nn.Parameter(mt.ones(n, n, device=device))

        def forward(self, x):
            return x

    m = nn.utils.skip_init(Lin, 3)
    assert m.weight.device.type == "cpu" and m.weight.shape == (3, 3)
    m2 = nn.utils.skip_init(Lin, 2, device="meta")
    assert m2.weight.is_meta

    class NoDevice(nn.Module):
        def __init__(self, n):
            super().__init__()

    with pytest.raises(RuntimeError, match="must support a 'device' arg"):
        nn.utils.skip_init(NoDevice, 3)
    with pytest.raises(RuntimeError, match="Expected a Module"):
        nn.utils.skip_init(int, 3)


def test_all_names():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in ("clip_grad_norm", "clip_grad_norm_", "clip_grads_with_norm_",
                     "clip_grad_value_", "get_total_norm", "parameters_to_vector",
                     "vector_to_parameters", "skip_init", "rnn"):
            assert hasattr(nn.utils, name) and hasattr(torch.nn.utils, name)


def test_functional_call():
    from test_module import MT, TH, to_mt
    m, t = MT[3]().double(), TH[3]().double()
    x = torch.linspace(-1, 1, 8, dtype=torch.float64).reshape(2, 4)
    w = torch.linspace(0, 1, 24, dtype=torch.float64).reshape(6, 4).requires_grad_()
    rm = to_mt(torch.ones(6, dtype=torch.float64))
    wm = to_mt(w).requires_grad_()
    for tie in (True, False):
        with pytest.warns(FutureWarning, match="torch.func.functional_call"):
            out_m = nn.utils.stateless.functional_call(
                m, {"fc1.weight": wm, "body.2.running_mean": rm}, (to_mt(x),),
                tie_weights=tie)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out_t = torch.nn.utils.stateless.functional_call(
                t, {"fc1.weight": w, "body.2.running_mean": torch.ones(6, dtype=torch.float64)},
                x, tie_weights=tie)
        np.testing.assert_allclose(out_m.item(), out_t.item(), rtol=1e-12)
        out_m.backward()
        out_t.backward()
        np.testing.assert_allclose(wm.grad.numpy(), w.grad.numpy(), rtol=1e-10)
    # the module's own tensors are back
    assert m.fc1.weight is m.tied and type(m.fc1.weight) is nn.Parameter
    assert not m.body[2].running_mean.any()

    def errors(lib, mod, sd):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                lib.nn.utils.stateless.functional_call(mod, sd, lib.ones(2, 4,
                                                                         dtype=lib.float64),
                                                       strict=True)
            except Exception as e:
                return type(e), str(e)
    assert errors(mt, m, {"nope": mt.ones(1)}) == errors(torch, t, {"nope": torch.ones(1)})
    a, b = mt.ones(6, 4), mt.zeros(6, 4)
    with pytest.raises(ValueError, match="which are tied"):
        nn.utils.stateless._functional_call(m, {"fc1.weight": a, "tied": b}, mt.ones(2, 4))
    assert m.fc1.weight is m.tied


@pytest.mark.parametrize("kind", ["conv", "conv_t", "linear"])
def test_fusion(kind):
    def build(lib):
        lib.manual_seed(0)
        if kind == "conv":
            layer, bn = lib.nn.Conv2d(3, 4, 3), lib.nn.BatchNorm2d(4)
        elif kind == "conv_t":
            layer, bn = lib.nn.ConvTranspose2d(3, 4, 3, bias=False), lib.nn.BatchNorm2d(4)
        else:
            layer, bn = lib.nn.Linear(5, 4), lib.nn.BatchNorm1d(4)
        return layer.double().eval(), bn.double().eval()
    (lm, bm), (lt, bt) = build(mt), build(torch)
    lm.load_state_dict({k: mt.tensor(v.numpy()) for k, v in lt.state_dict().items()})
    for k, v in bt.state_dict().items():  # non-trivial statistics
        v.copy_(torch.linspace(0.5, 1.5, v.numel(), dtype=v.dtype).reshape(v.shape)
                if v.is_floating_point() else v)
    bm.load_state_dict({k: mt.tensor(v.numpy()) for k, v in bt.state_dict().items()})
    if kind == "linear":
        fm, ft = nn.utils.fuse_linear_bn_eval(lm, bm), torch.nn.utils.fuse_linear_bn_eval(lt, bt)
        x = torch.linspace(-1, 1, 10, dtype=torch.float64).reshape(2, 5)
    else:
        t = kind == "conv_t"
        fm = nn.utils.fuse_conv_bn_eval(lm, bm, transpose=t)
        ft = torch.nn.utils.fuse_conv_bn_eval(lt, bt, transpose=t)
        x = torch.linspace(-1, 1, 150, dtype=torch.float64).reshape(2, 3, 5, 5)
    assert fm is not lm and type(fm.weight) is nn.Parameter
    np.testing.assert_allclose(fm(mt.tensor(x.numpy())).detach().numpy(),
                               ft(x).detach().numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(fm(mt.tensor(x.numpy())).detach().numpy(),
                               bm(lm(mt.tensor(x.numpy()))).detach().numpy(), rtol=1e-10,
                               atol=1e-12)
    with pytest.raises(AssertionError, match="Fusion only for eval!"):
        nn.utils.fuse_linear_bn_eval(lm.train(), bm)
