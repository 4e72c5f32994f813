"""Activation modules (activation.py) against PyTorch: every class of torch.nn's
activation family (but MultiheadAttention, tested with attention), its signature, repr,
forward and backward, in-place variants and bad input."""
import copy
import inspect
import pickle
import warnings

import numpy as np
import pytest

import mindtorch
from mindtorch import nn
from layers_helpers import check_module, close, inputs, pair_modules, torch

tnn = torch.nn
DTYPES = ["float64", "float32"]
NAMES = [n for n in tnn.modules.activation.__all__ if n != "MultiheadAttention"]


def test_every_activation_is_exported():
    assert sorted(nn.modules.activation.__all__) == sorted(NAMES)
    for name in NAMES:
        assert getattr(nn, name).__name__ == name
    # (re-exported, as PyTorch's, from attention.py; listed in nn.modules once)
    assert nn.modules.activation.MultiheadAttention is nn.MultiheadAttention


def _parameters(cls):
    sig = inspect.signature(cls)
    return [(p.name, p.kind, p.default) for p in sig.parameters.values()]


@pytest.mark.parametrize("name", NAMES)
def test_signature(name):
    assert _parameters(getattr(nn, name)) == _parameters(getattr(tnn, name))


CASES = [  # (name, constructor args, constructor kwargs, input shape)
    ("Threshold", (0.1, 20.0), {}, (3, 4)),
    ("Threshold", (-0.5, -3), {}, (5,)),
    ("ReLU", (), {}, (2, 3, 4)),
    ("RReLU", (0.1, 0.4), {}, (3, 4)),  # eval mode: the mean slope
    ("Hardtanh", (), {}, (3, 4)),
    ("Hardtanh", (-0.5, 0.8), {}, (3, 4)),
    ("ReLU6", (), {}, (3, 4)),
    ("Sigmoid", (), {}, (3, 4)),
    ("Hardsigmoid", (), {}, (3, 4)),
    ("Tanh", (), {}, (3, 4)),
    ("SiLU", (), {}, (3, 4)),
    ("Mish", (), {}, (3, 4)),
    ("Hardswish", (), {}, (3, 4)),
    ("ELU", (), {"alpha": 0.7}, (3, 4)),
    ("CELU", (1.3,), {}, (3, 4)),
    ("SELU", (), {}, (3, 4)),
    ("GLU", (), {}, (3, 4)),
    ("GLU", (1,), {}, (2, 4, 3)),
    ("GELU", (), {}, (3, 4)),
    ("GELU", ("tanh",), {}, (3, 4)),
    ("Hardshrink", (), {}, (3, 4)),
    ("Hardshrink", (0.3,), {}, (3, 4)),
    ("LeakyReLU", (), {}, (3, 4)),
    ("LeakyReLU", (0.2,), {}, (3, 4)),
    ("LogSigmoid", (), {}, (3, 4)),
    ("Softplus", (), {}, (3, 4)),
    ("Softplus", (2, 1.5), {}, (3, 4)),
    ("Softshrink", (), {"lambd": 0.4}, (3, 4)),
    ("PReLU", (), {}, (3, 4)),
    ("PReLU", (3,), {"init": 0.1}, (2, 3, 4)),
    ("Softsign", (), {}, (3, 4)),
    ("Tanhshrink", (), {}, (3, 4)),
    ("Softmin", (1,), {}, (3, 4)),
    ("Softmax", (-1,), {}, (2, 3, 4)),
    ("Softmax", (0,), {}, (3, 4)),
    ("Softmax2d", (), {}, (2, 3, 2, 2)),
    ("Softmax2d", (), {}, (3, 2, 2)),
    ("LogSoftmax", (1,), {}, (3, 4)),
]


# PyTorch's float64 backward of these rounds through float32 constants (hardsigmoid's 1/6,
# celu's 1/alpha): a relative error near 3e-8, which mindtorch (exact) does not share
ROUNDED_BACKWARD = {"Hardsigmoid", "CELU"}


def _tolerance(name, dtype):
    """The dtype whose tolerance check_module applies."""
    return "float32" if name in ROUNDED_BACKWARD else dtype


def _case_id(case):
    return f"{case[0]}{case[1]}{case[2] or ''}"


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_repr(case):
    name, args, kwargs, _ = case
    assert repr(getattr(nn, name)(*args, **kwargs)) == repr(getattr(tnn, name)(*args, **kwargs))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_forward_backward(case, dtype):
    name, args, kwargs, shape = case
    th, mt = pair_modules(getattr(tnn, name), getattr(nn, name), *args, dtype=dtype, **kwargs)
    th.eval()
    mt.eval()
    for noncontiguous in (False, True):
        if noncontiguous and len(shape) < 2:
            continue
        (x,) = inputs(shape, dtype=dtype, noncontiguous=noncontiguous, seed=len(shape))
        check_module(th, mt, x, dtype=_tolerance(name, dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["Sigmoid", "Softplus", "SiLU", "ELU", "Hardtanh", "Mish"])
def test_wide_range_of_inputs(name, dtype):
    th, mt = pair_modules(getattr(tnn, name), getattr(nn, name), dtype=dtype)
    data = np.linspace(-30, 30, 41)
    x_mt = mindtorch.tensor(data).to(getattr(mindtorch, dtype)).requires_grad_()
    x_th = torch.from_numpy(data).to(getattr(torch, dtype)).requires_grad_()
    check_module(th, mt, (x_mt, x_th), dtype=dtype)


INPLACE = [("Threshold", (0.1, 20.0)), ("ReLU", ()), ("RReLU", ()), ("Hardtanh", ()),
           ("ReLU6", ()), ("Hardsigmoid", ()), ("SiLU", ()), ("Mish", ()), ("Hardswish", ()),
           ("ELU", ()), ("CELU", ()), ("SELU", ()), ("LeakyReLU", ())]


@pytest.mark.parametrize("name,args", INPLACE)
def test_inplace(name, args):
    th, mt = getattr(tnn, name)(*args, inplace=True), getattr(nn, name)(*args, inplace=True)
    th.eval()
    mt.eval()
    assert repr(mt) == repr(th)
    (a_mt, a_th), (g_mt, g_th) = inputs((3, 4), (3, 4))
    x_mt, x_th = a_mt * 2, a_th * 2  # non-leaf, so it may be written in place
    y_mt, y_th = mt(x_mt), th(x_th)
    assert y_mt is x_mt  # the module returned its input, modified
    close(x_mt, x_th, "float64")
    (y_mt * g_mt.detach()).sum().backward()
    (y_th * g_th.detach()).sum().backward()
    close(a_mt.grad, a_th.grad, _tolerance(name, "float64"))


def test_rrelu_training_slopes_are_random_within_bounds():
    mindtorch.manual_seed(0)
    m = nn.RReLU(0.1, 0.3)
    x = mindtorch.linspace(-3, 3, 200, dtype=mindtorch.float64)
    y = m(x)
    negative = x < 0
    slopes = (y[negative] / x[negative]).numpy()
    assert np.all(slopes >= 0.1) and np.all(slopes <= 0.3) and slopes.std() > 0.01
    assert np.array_equal(y[~negative].numpy(), x[~negative].numpy())
    m.eval()
    close(m(x), tnn.RReLU(0.1, 0.3).eval()(torch.from_numpy(x.numpy())), "float64")


def test_softmax_without_dim_warns_and_picks_pytorch_dim():
    data = np.random.default_rng(0).standard_normal((2, 3, 4))
    for name in ("Softmax", "Softmin", "LogSoftmax"):
        with pytest.warns(UserWarning, match="Implicit dimension choice"):
            out = getattr(nn, name)()(mindtorch.tensor(data))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = getattr(tnn, name)()(torch.from_numpy(data))
        close(out, expected, "float64")


@pytest.mark.parametrize("requires_grad", [False, True])
def test_deprecation_warnings_point_at_the_callers_line(requires_grad):
    """Implicit softmax dim warns at the user's line (nn.Softmax's too), dropout2d of 2-D
    input at F.dropout2d's caller (nn.Dropout2d's forward for the module, so one warning
    however many modules), as PyTorch's (autograd once made mindtorch's frames one deeper
    and the warnings named a binding)."""
    import inspect
    import mindtorch.nn.modules.dropout as dropout_module
    x = mindtorch.randn(4, 6, requires_grad=requires_grad)
    calls = [lambda: mindtorch.nn.functional.softmax(x), lambda: nn.Softmax()(x),
             lambda: mindtorch.nn.functional.dropout2d(x), lambda: nn.Dropout2d()(x)]
    for i, call in enumerate(calls):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            call()
        assert len(seen) == 1
        if i == 3:
            assert seen[0].filename == dropout_module.__file__
        else:
            assert seen[0].filename == __file__
            assert seen[0].lineno == inspect.getsourcelines(call)[1]


def test_softmax2d_rank_error():
    with pytest.raises(ValueError) as th_err:
        tnn.Softmax2d()(torch.zeros(2, 3))
    with pytest.raises(ValueError) as mt_err:
        nn.Softmax2d()(mindtorch.zeros(2, 3))
    assert str(mt_err.value) == str(th_err.value)


def test_hardtanh_arguments():
    with pytest.raises(AssertionError, match=r"max_val \(1\) must be greater than min_val \(1\)"):
        nn.Hardtanh(1, 1)
    with pytest.warns(FutureWarning, match="`min_value` is deprecated"):
        m = nn.Hardtanh(min_value=-2.0)
    assert (m.min_val, m.max_val) == (-2.0, 1.0)
    with pytest.warns(FutureWarning, match="`max_value` is deprecated"):
        assert nn.Hardtanh(max_value=3).max_val == 3


def test_constructor_argument_errors():
    with pytest.raises(TypeError):
        nn.Threshold()
    with pytest.raises(TypeError, match=r"^ReLU.__init__\(\) got an unexpected keyword "
                                        "argument 'bogus'$"):
        nn.ReLU(inplace=True, bogus=1)
    with pytest.raises(TypeError):
        nn.ELU(1.0, False, 3)
    m = nn.Threshold(value=2, threshold=1)
    assert (m.threshold, m.value, m.inplace) == (1, 2, False)


def test_glu_odd_dimension():
    with pytest.raises(RuntimeError):
        tnn.GLU()(torch.zeros(3, 5))
    with pytest.raises(RuntimeError):
        nn.GLU()(mindtorch.zeros(3, 5))


def test_prelu_parameter():
    m = nn.PReLU(4, init=0.1, dtype=mindtorch.float64)
    assert [n for n, _ in m.named_parameters()] == ["weight"]
    assert m.weight.shape == (4,) and m.weight.dtype == mindtorch.float64
    assert np.allclose(m.weight.detach().numpy(), 0.1) and m.init == 0.1
    with pytest.raises(RuntimeError):
        m(mindtorch.zeros(2, 3, dtype=mindtorch.float64))  # 3 channels, 4 slopes


def test_copy_and_pickle_keep_arguments():
    m = nn.LeakyReLU(0.3, inplace=True)
    for clone in (copy.deepcopy(m), pickle.loads(pickle.dumps(m))):
        assert type(clone) is nn.LeakyReLU and repr(clone) == repr(m)
        assert (clone.negative_slope, clone.inplace) == (0.3, True)


def test_meta_device():
    x = mindtorch.empty(2, 3, 4, device="meta")
    for m in (nn.ReLU(), nn.GELU(), nn.Softmax(1), nn.PReLU(3, device="meta"), nn.GLU()):
        y = m(x)
        assert y.device.type == "meta" and y.shape == (x.shape if not isinstance(m, nn.GLU)
                                                       else (2, 3, 2))
