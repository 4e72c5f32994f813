"""Activation functions (_ops/decls/activation.py) against PyTorch: torch.nn.functional's
names with their arguments over all dtypes (values, result dtypes, the error class where
torch refuses), inplace=True writing into the input (also through a view), F.<name>_ and
torch.<name>_ forms, torch.<name> / Tensor.<name> where torch has them, non-contiguous,
0-dim and empty inputs, special values, argument checks, F.softmax's implicit dim; meta
shapes/dtypes equal cpu's."""
import math
import warnings

import pytest

import mindtorch
import mindtorch.nn.functional as MF
from reference import DTYPES, assert_same, same_error, torch
from test_pointwise import _tol, check_meta, compare, make, noncontig, th

M = mindtorch
TF = torch.nn.functional
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning", "ignore::RuntimeWarning")

# F name -> argument sets (positional, keyword) tried for it
CASES = {
    "relu": [((), {})], "relu6": [((), {})], "selu": [((), {})],
    "elu": [((), {}), ((0.5,), {}), ((), {"alpha": 2.0})],
    "celu": [((), {}), ((0.5,), {}), ((), {"alpha": 0.0})],
    "leaky_relu": [((), {}), ((0.2,), {}), ((), {"negative_slope": -0.3})],
    "hardtanh": [((), {}), ((-0.5, 2.0), {}), ((), {"min_val": 0.0, "max_val": 0.5}),
                 ((2.0, 1.0), {})],
    "hardsigmoid": [((), {})], "hardswish": [((), {})], "silu": [((), {})],
    "mish": [((), {})], "gelu": [((), {}), ((), {"approximate": "tanh"})],
    "logsigmoid": [((), {})],
    "softplus": [((), {}), ((2.0,), {}), ((), {"beta": 0.5, "threshold": 1.0}),
                 ((), {"beta": -1.0})],
    "softsign": [((), {})], "tanhshrink": [((), {})],
    "hardshrink": [((), {}), ((1.0,), {}), ((-1.0,), {})],
    "softshrink": [((), {}), ((1.0,), {}), ((-1.0,), {})],
    "threshold": [((0.5, -2.0), {}), ((-1.5, 5), {}), ((1, 300), {})],
    "rrelu": [((), {}), ((0.1, 0.3), {}), ((0.5, 0.2), {})],  # eval: deterministic
    "sigmoid": [((), {})], "tanh": [((), {})],
    "glu": [((), {}), ((0,), {}), ((), {"dim": 1})],
    "softmax": [((1,), {}), ((0,), {"dtype": torch.float64})],
    "log_softmax": [((-1,), {}), ((0,), {"dtype": torch.float64})],
    "softmin": [((1,), {}), ((0,), {"dtype": torch.float64})],
}
INPLACE = {"relu", "relu6", "elu", "selu", "celu", "leaky_relu", "hardtanh", "hardsigmoid",
           "hardswish", "silu", "mish", "threshold", "rrelu"}


def _mt_args(args, kwargs):
    """torch dtypes in the cases as mindtorch's."""
    conv = {torch.float64: M.float64}
    return args, {k: conv.get(v, v) for k, v in kwargs.items()}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(CASES))
def test_functional(name, dtype):
    x = noncontig((3, 4), dtype, low=-4, high=4)
    for targs, tkw in CASES[name]:
        margs, mkw = _mt_args(targs, tkw)
        got = compare(lambda: getattr(MF, name)(x, *margs, **mkw),
                      lambda: getattr(TF, name)(th(x), *targs, **tkw), **_tol(dtype))
        if got is None:
            continue
        check_meta([x], got, lambda t: getattr(MF, name)(t, *margs, **mkw))
        if name in INPLACE:  # inplace=True: the input itself (a transposed view) changes
            mx, tx = x.clone().t().contiguous().t(), th(x).clone()
            r = getattr(MF, name)(mx, *margs, inplace=True, **mkw)
            getattr(TF, name)(tx, *targs, inplace=True, **tkw)
            assert r is mx
            compare(lambda: mx, lambda: tx, **_tol(dtype))


@pytest.mark.parametrize("name", sorted(CASES))
def test_zero_dim_empty_and_special_values(name):
    for shape in ((), (0,), (2, 0)):
        if name == "glu" and shape != (2, 0):
            continue
        x = make(shape, "float32")
        args, kw = CASES[name][0]
        margs, mkw = _mt_args(args, kw)
        if name in ("softmax", "log_softmax", "softmin") and shape == ():
            margs = args = (0,)
        got = compare(lambda: getattr(MF, name)(x, *margs, **mkw),
                      lambda: getattr(TF, name)(th(x), *args, **kw))
        if got is not None:
            check_meta([x], got, lambda t: getattr(MF, name)(t, *margs, **mkw))
    v = M.tensor([[math.nan, math.inf, -math.inf, 0.0], [-0.0, 50.0, -50.0, 1e-30]],
                 dtype=M.float64)
    for args, kw in CASES[name]:
        margs, mkw = _mt_args(args, kw)
        compare(lambda: getattr(MF, name)(v, *margs, **mkw),
                lambda: getattr(TF, name)(th(v), *args, **kw))


# torch.<name> / Tensor.<name> / F.<name>_ / torch.<name>_ forms (args after the input)
FORMS = {
    "torch.relu_": (), "F.relu_": (), "torch.selu": (), "torch.selu_": (), "F.selu_": (),
    "torch.celu": (0.5,), "torch.celu_": (0.5,), "F.celu_": (), "F.elu_": (1.5,),
    "F.leaky_relu_": (0.2,), "F.hardtanh_": (-0.5, 0.5), "torch.threshold": (0.5, -1.0),
    "torch.threshold_": (0.5, -1.0), "F.threshold_": (0.5, -1.0), "torch.rrelu": (),
    "torch.rrelu_": (0.1, 0.2), "F.rrelu_": (), "torch.hardshrink": (0.3,),
    "Tensor.hardshrink": (0.3,), "torch.sigmoid": (), "Tensor.relu": (), "Tensor.relu_": (),
}


def _resolve(mod, path):
    where, _, attr = path.partition(".")
    root = {"torch": mod, "Tensor": mod.Tensor,
            "F": MF if mod is M else TF}[where]
    return getattr(root, attr)


@pytest.mark.parametrize("dtype", ["int64", "float16", "float32", "float64"])
@pytest.mark.parametrize("form", sorted(FORMS))
def test_other_forms(form, dtype):
    x = noncontig((3, 4), dtype, low=-3, high=3)
    args = FORMS[form]
    mx, tx = x.clone(), th(x).clone()
    got = compare(lambda: _resolve(M, form)(mx, *args), lambda: _resolve(torch, form)(tx, *args),
                  **_tol(dtype))
    if got is not None and form.endswith("_"):
        assert got is mx
        compare(lambda: mx, lambda: tx, **_tol(dtype))


def test_rrelu_training_draws_slopes_in_range():
    x = M.tensor([[-1.0, 2.0, -3.0, 0.5]] * 50)
    y = MF.rrelu(x, 0.1, 0.3, training=True)
    slopes = (y / x)[x < 0]
    assert ((slopes >= 0.1) & (slopes <= 0.3)).all() and slopes.unique().numel() > 10
    assert (y[x > 0] == x[x > 0]).all()
    g = M.Generator().manual_seed(3)
    a = M.rrelu(x, 0.1, 0.3, True, g)
    b = M.rrelu(x, 0.1, 0.3, True, M.Generator().manual_seed(3))
    assert (a == b).all()
    # lower == upper: the slope is known
    compare(lambda: MF.rrelu(x, 0.2, 0.2, True), lambda: TF.rrelu(th(x), 0.2, 0.2, True))
    mx = x.clone()
    assert MF.rrelu(mx, 0.2, 0.2, True, inplace=True) is mx
    compare(lambda: mx, lambda: TF.rrelu(th(x), 0.2, 0.2, True))


@pytest.mark.parametrize("dtype", DTYPES)
def test_prelu(dtype):
    x = noncontig((2, 3), dtype, low=-2, high=2)
    for w in (make((3,), dtype, seed=3), make((1,), dtype, seed=4), make((), dtype, seed=5),
              make((2,), dtype, seed=6), make((3,), "float64", seed=7),
              make((3, 1), dtype, seed=8)):
        got = compare(lambda: MF.prelu(x, w), lambda: TF.prelu(th(x), th(w)), **_tol(dtype))
        if got is not None:
            check_meta([x, w], got, MF.prelu)
            compare(lambda: M.prelu(x, w), lambda: torch.prelu(th(x), th(w)), **_tol(dtype))
            compare(lambda: x.prelu(w), lambda: th(x).prelu(th(w)), **_tol(dtype))
    x4 = make((2, 3, 2, 2), "float32")
    w = make((3,), "float32", seed=9)
    compare(lambda: MF.prelu(x4, w), lambda: TF.prelu(th(x4), th(w)))
    for shape in ((), (4,), (0, 3), (2, 0)):
        y = make(shape, "float32")
        for w in (make((1,), "float32"), make((3,), "float32")):
            compare(lambda: MF.prelu(y, w), lambda: TF.prelu(th(y), th(w)))


def test_prelu_errors_exact():
    """PyTorch's checks in its order, exact class (NotImplementedError is a RuntimeError, so
    compare() would not tell a wrong one) and message."""
    cases = [(M.tensor([1, -2]), M.tensor([0.25])), (M.tensor([1, -2]), M.tensor([[1.0]])),
             (M.tensor([True]), M.tensor([1], dtype=M.int8)), (M.tensor(1.0), M.ones(2)),
             (M.ones(1, 2), M.ones(1, 2)), (M.ones(1, 3), M.ones(2)),
             (M.tensor([1, -2]), M.tensor([1])), (M.tensor([True]), M.tensor([True]))]
    for x, w in cases:
        with pytest.raises(Exception) as want:
            TF.prelu(th(x), th(w))
        with pytest.raises(Exception) as got:
            MF.prelu(x, w)
        assert type(got.value) is type(want.value) and str(got.value) == str(want.value)


def test_glu_errors():
    for shape, dim in (((3,), -1), ((), -1), ((4, 2), 2), ((4, 3), 1)):
        x = make(shape, "float32")
        compare(lambda: MF.glu(x, dim), lambda: TF.glu(th(x), dim))


@pytest.mark.parametrize("name", ["softplus", "elu", "celu", "selu", "silu", "gelu", "mish",
                                  "hardswish", "hardsigmoid", "logsigmoid", "softshrink",
                                  "hardshrink", "leaky_relu", "glu"])
@pytest.mark.parametrize("x", [[1, 2], [True], [3]])
def test_integer_refusal_names_pytorchs_kernel(name, x):
    # (glu checks the halving first: a size-1 dim is refused for its size)
    with pytest.raises(Exception) as want:
        getattr(TF, name)(torch.tensor(x))
    with pytest.raises(Exception) as got:
        getattr(MF, name)(M.tensor(x))
    assert type(got.value) is type(want.value) and str(got.value) == str(want.value)


@pytest.mark.parametrize("name", ["softmax", "log_softmax", "softmin"])
def test_softmax_implicit_dim(name):
    for shape in ((), (3,), (2, 3), (2, 3, 4), (2, 1, 3, 2)):
        x = make(shape, "float32")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = getattr(MF, name)(x)
        assert any("Implicit dimension choice" in str(w.message) for w in caught)
        assert caught[0].filename == __file__  # points at the caller, as torch's
        compare(lambda: got, lambda: getattr(TF, name)(th(x)))
    x = make((2, 3), "float32")
    compare(lambda: getattr(MF, name)(x, dim=0, _stacklevel=5),
            lambda: getattr(TF, name)(th(x), dim=0, _stacklevel=5))
    compare(lambda: getattr(MF, name)(input=x, dim=-1), lambda: getattr(TF, name)(input=th(x),
                                                                                dim=-1))


def test_keyword_names_and_errors():
    x = make((2, 3), "float32")
    compare(lambda: MF.elu(input=x, alpha=0.5, inplace=False),
            lambda: TF.elu(input=th(x), alpha=0.5, inplace=False))
    compare(lambda: MF.threshold(x, threshold=0.5, value=1.0),
            lambda: TF.threshold(th(x), threshold=0.5, value=1.0))
    compare(lambda: MF.elu(x, 1j), lambda: TF.elu(th(x), 1j))
    compare(lambda: MF.gelu(x, approximate="fast"), lambda: TF.gelu(th(x), approximate="fast"))
    compare(lambda: MF.softplus(x, beta=0), lambda: TF.softplus(th(x), beta=0))
    compare(lambda: MF.leaky_relu(x.half(), 1e6), lambda: TF.leaky_relu(th(x).half(), 1e6))


def test_exposure_matches_torch():
    for name in ("elu", "leaky_relu", "hardtanh", "hardsigmoid", "mish", "softplus", "glu",
                 "logsigmoid", "softshrink", "relu6"):
        assert hasattr(M, name) == hasattr(torch, name), name
        assert hasattr(M.Tensor, name) == hasattr(torch.Tensor, name), name
    for name in ("selu", "celu", "rrelu", "threshold", "relu_", "selu_", "celu_", "rrelu_",
                 "threshold_", "prelu", "hardshrink"):
        assert hasattr(M, name) and hasattr(torch, name), name
    for name in ("elu_", "leaky_relu_", "hardtanh_"):
        assert hasattr(MF, name) and not hasattr(M.Tensor, name)


def test_threshold_inplace_backward_uses_the_input_before_the_write():
    # the replacement value passes the threshold: the mask must come from the old input
    data = [0.1, 0.6, -1.0, 2.0]
    grads = []
    for lib in (M, torch):
        x = lib.tensor(data, requires_grad=True)
        y = x * 1
        lib.threshold_(y, 0.5, 10.0)
        assert type(y.grad_fn).__name__ == "ThresholdBackward1"
        y.sum().backward()
        grads.append(x.grad)
    assert grads[0].tolist() == grads[1].tolist() == [0.0, 1.0, 0.0, 1.0]


@pytest.mark.parametrize("call", [
    lambda L: L.nn.functional.rrelu(L.ones(3), -math.inf, 1.0),
    lambda L: L.nn.functional.rrelu(L.ones(3), 0.1, math.inf, training=True),
    lambda L: L.rrelu(L.ones(3, dtype=L.int64), 0.1, math.inf),
    lambda L: L.rrelu(L.ones(3), 0.1, math.nan), lambda L: L.rrelu(L.ones(3), 0.5, 0.1),
    # the in-place form only checks the order of the bounds
    lambda L: L.rrelu_(L.tensor([1.0, -1.0]), 0.1, math.nan),
    lambda L: L.rrelu_(L.tensor([1.0, -1.0]), 0.1, math.inf, True),
])
def test_rrelu_bounds(call):
    same_error(lambda: call(mindtorch), lambda: call(torch))


def test_rrelu_inplace_takes_an_infinite_bound():
    for f in (lambda L: L.rrelu_(L.tensor([1.0, -1.0]), 0.1, math.inf),
              lambda L: L.nn.functional.rrelu(L.tensor([1.0, -1.0]), 0.1, math.inf,
                                              inplace=True)):
        assert f(mindtorch).tolist() == f(torch).tolist() == [1.0, -math.inf]


@pytest.mark.parametrize("call", [
    lambda L: L.nn.functional.hardtanh(L.ones(2, dtype=L.int64), -math.inf, 1),
    lambda L: L.nn.functional.hardtanh(L.ones(2, dtype=L.uint8), math.nan, 1),
    lambda L: L.nn.functional.hardtanh(L.ones(2, dtype=L.uint8), -1, 1),
    lambda L: L.nn.functional.hardtanh(L.ones(2, dtype=L.int8), -1000, 1000),
    lambda L: L.nn.functional.hardtanh_(L.ones(2, dtype=L.int8), 1, 1e30),
    lambda L: L.nn.functional.relu6(L.ones(2, dtype=L.int8)),
    lambda L: L.threshold(L.ones(2, dtype=L.int64), math.nan, 1),
    lambda L: L.threshold_(L.ones(2, dtype=L.int8), 1, math.inf),
])
def test_integer_bounds_convert_as_pytorch(call):
    same_error(lambda: call(mindtorch), lambda: call(torch))


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("shape, dim, dtype", [((2, 0), 1, "int64"), ((0, 3), 1, "bool"),
                                               ((2, 3), 0, "int64"), ((2, 3), 1, "int32"),
                                               ((), 0, "int64"), ((2, 0), 0, "float32")])
def test_softmax_dtype_refusal_names_pytorchs_kernel_and_skips_empty(name, shape, dim, dtype):
    m = mindtorch.ones(shape, dtype=getattr(mindtorch, dtype))
    same_error(lambda: getattr(mindtorch, name)(m, dim),
               lambda: getattr(torch, name)(torch.ones(shape, dtype=getattr(torch, dtype)), dim))
    if m.numel() == 0:
        assert_same(getattr(mindtorch, name)(m, dim),
                    getattr(torch, name)(torch.ones(shape, dtype=getattr(torch, dtype)), dim))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_silu_of_16_bit_floats_in_float32(dtype):
    x = M.linspace(-12, 12, 4001).to(getattr(M, dtype))[::2]
    assert_same(MF.silu(x), TF.silu(torch.linspace(-12, 12, 4001).to(getattr(torch, dtype))[::2]),
                rtol=1e-3, atol=0)


def test_rrelu_training_refuses_float16():
    same_error(lambda: M.rrelu(M.ones(2, dtype=M.float16), training=True),
               lambda: torch.rrelu(torch.ones(2, dtype=torch.float16), training=True))


@pytest.mark.parametrize("shapes", [((0,), (4,)), ((3,), (3, 1)), ((2, 3), (2, 3))])
def test_rrelu_with_noise_shape_check(shapes):
    s, n = shapes
    same_error(lambda: M.rrelu_with_noise(M.ones(s), M.ones(n), 0.1, 0.3, False)
               if hasattr(M, "rrelu_with_noise") else
               M._ops.OPS["rrelu_with_noise"].call(M.ones(s), M.ones(n), 0.1, 0.3, False, None),
               lambda: torch.ops.aten.rrelu_with_noise(torch.ones(s), torch.ones(n), 0.1, 0.3,
                                                       False))


def _rrelu_with_noise(L):
    return torch.ops.aten.rrelu_with_noise if L is torch else \
        mindtorch._ops.registry.OPS["rrelu_with_noise"].binding


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
def test_rrelu_with_noise_training_writes_the_noise(dtype):
    # PyTorch draws U(lower, upper) where self <= 0 (1 elsewhere) into `noise`, and its
    # backward multiplies by the noise as written
    out = {}
    for L in (mindtorch, torch):
        x = L.tensor([[-1.0, 0.0, 2.0], [-3.0, float("nan"), 0.5]],
                     dtype=getattr(L, dtype)).requires_grad_()
        noise = L.full((2, 3), 7.0, dtype=getattr(L, dtype))
        y = _rrelu_with_noise(L)(x, noise, 0.1, 0.3, True)
        y.sum().backward()
        out[L] = (x, noise, y)
        assert type(y.grad_fn).__name__ == "RreluWithNoiseBackward0"
        n = noise.float()
        assert (n[x.detach() > 0] == 1).all() and bool((n[1, 1] == 1))  # (NaN: not <= 0)
        drawn = n[x.detach() <= 0]
        assert ((drawn >= 0.099) & (drawn <= 0.301)).all()
        ref = (x.detach().float() * n)  # (PyTorch rounds input * slope once, in float)
        ok = ~ref.isnan()
        assert ((y.detach().float()[ok] - ref[ok]).abs() <= 0.01 * ref[ok].abs()).all()
        assert (x.grad == noise).all()
    x, noise, y = out[mindtorch]
    assert_same(y, out[torch][2], atol=1, rtol=1)  # (dtype and shape: values are random)


@pytest.mark.parametrize("self_dtype, noise_dtype, shape, training, lower, upper", [
    ("float16", "float16", (3,), True, 0.1, 0.3), ("int64", "int64", (3,), True, 0.1, 0.3),
    ("float32", "float64", (3,), True, 0.1, 0.3), ("float32", "float64", (3,), False, 0.1, 0.3),
    ("float32", "float32", (2,), False, 0.1, 0.3), ("float32", "float32", (3,), True, 0.3, 0.1),
    ("float32", "float32", (0,), True, 0.3, 0.1), ("float32", "float32", (3,), True,
                                                    math.inf, math.inf),
    ("float32", "float32", (3,), True, math.nan, 0.3)])
@pytest.mark.parametrize("positive", [False, True])
def test_rrelu_with_noise_errors(self_dtype, noise_dtype, shape, training, lower, upper,
                                 positive):
    # bounds are checked only when an element draws (as PyTorch's distribution is made)
    def run(L):
        x = L.full(shape, 1.0 if positive else -1.0).to(getattr(L, self_dtype))
        noise = L.zeros(3, dtype=getattr(L, noise_dtype))
        return _rrelu_with_noise(L)(x, noise, lower, upper, training)
    same_error(lambda: run(mindtorch), lambda: run(torch))


def test_rrelu_keeps_drawing_through_rrelu_with_noise():
    x = mindtorch.tensor([-1.0, 2.0, -3.0], requires_grad=True)
    y = MF.rrelu(x, 0.1, 0.3, training=True)
    assert type(y.grad_fn).__name__ == "RreluWithNoiseBackward0"
    y.sum().backward()
    slope = y.detach() / x.detach()  # the drawn slopes, up to float32 rounding of x * slope
    assert mindtorch.allclose(x.grad, slope, rtol=1e-6, atol=0) and x.grad[1] == 1
    m = mindtorch.rrelu(mindtorch.tensor([-1.0], device="meta"), training=True)
    assert (m.shape, m.dtype, m.device.type) == ((1,), mindtorch.float32, "meta")


_SPECIALS = [-math.inf, -1e30, -2.5, -0.0, 0.0, 1e-30, 0.5, 70000.0, math.inf, math.nan]


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("fn, alpha", [("celu", math.inf), ("celu", -math.inf),
                                       ("celu", math.nan), ("celu", 1e-30), ("elu", math.inf),
                                       ("elu", math.nan)])
def test_elu_celu_special_alpha(dtype, fn, alpha):
    # ATen takes x >= 0 as the positive branch: 0 (and -0) stay, not 0 * inf = NaN
    def run(lib):
        x = lib.tensor(_SPECIALS, dtype=getattr(lib, dtype))
        f = getattr(lib.nn.functional, fn)
        return f(x, alpha), f(x.flip(0)[::2], alpha)
    assert_same(run(mindtorch), run(torch))
