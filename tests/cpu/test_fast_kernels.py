"""The compiled (numba) kernels - float32 GELU and its backward, SiLU and its backward, the
layer norm forward, float32 softmax over the last dim, float32 expm1 / log1p / exp /
sigmoid, the activations' backward ops (sigmoid, tanh, softplus, ELU, logsigmoid), batch
norm's per-channel passes and evaluation-mode backward - against PyTorch, forward and
backward: both dtypes where they apply, strided,
empty and 0-dim inputs, special values; the NumPy paths they replace (numba missing) give the
same results; and `import mindtorch` does not import numba."""
import subprocess
import sys

import mindtorch
import numpy as np
import pytest
from jit_paths import paths
from mindtorch._ops.registry import OPS
from mindtorch_cpu.kernels import _jit
from mindtorch_cpu.kernels._cpu_capability import onednn_avx512_core
from reference import assert_same, pair, to_torch, torch

RNG = np.random.default_rng(0)
F32_TOL = {"rtol": 1e-5, "atol": 2e-5}  # (normalized values: float32 statistics round)
SPECIAL = np.array([0, -0.0, 1e-30, -1e-30, 1e-8, -1e-45, 3.4e38, -3.4e38, np.inf, -np.inf,
                    np.nan, 5.9, -5.9, 17.5, -17.5, 40, -40, 1e4, -1e4])


path = paths("_compiled")  # each test on the compiled loops and on the NumPy paths



def check_grad(mt_fn, th_fn, m, t, rtol=None, atol=None):
    """Forward and the input's gradient (for a random upstream gradient) against PyTorch."""
    mo, to = mt_fn(m), th_fn(t)
    assert_same(mo, to, rtol=rtol, atol=atol)
    g = RNG.standard_normal(tuple(to.shape))
    mg, tg = pair(g, str(to.dtype).split(".")[1])
    (mgx,) = mindtorch.autograd.grad(mo, m, mg)
    (tgx,) = torch.autograd.grad(to, t, tg)
    assert_same(mgx, tgx, rtol=rtol, atol=atol)


# GELU ------------------------------------------------------------------------------------

# gelu(inf) and gelu(3.4e38): inf and 3.4e38, but NaN (0 * inf in its last polynomial) and
# inf (x (1 + erf) overflows before the halving) in oneDNN's avx512_core kernel, which
# PyTorch runs for contiguous float32 input on an AVX-512 CPU
_GELU_INF, _GELU_BIG = (np.nan, np.inf) if onednn_avx512_core() else (np.inf, np.float32(3.4e38))


def test_gelu_wide_range_and_special_values(path):
    x = np.concatenate([RNG.standard_normal(70_000) * 4, np.linspace(-20, 20, 40_001), SPECIAL])
    m, t = pair(x)
    out = mindtorch.nn.functional.gelu(m)
    ref = torch.nn.functional.gelu(t)
    assert_same(out, ref, rtol=1.3e-6, atol=5e-7)
    o, r = out.numpy(), ref.numpy()
    assert (o == r).mean() > 0.8  # PyTorch's erf, step by step: mostly bit-identical
    tail = o[-len(SPECIAL):]
    assert np.isnan(tail[[9, 10]]).all()  # gelu(-inf) is nan
    assert np.array_equal(tail[8], _GELU_INF, equal_nan=True)
    assert tail[6] == _GELU_BIG and tail[7] == 0 and tail[-1] == 0


@pytest.mark.parametrize("shape", [(), (0,), (0, 5), (1,), (4, 0, 3), (7, 33, 9)])
def test_gelu_shapes(path, shape):
    m, t = pair(RNG.standard_normal(shape) * 3)
    assert_same(mindtorch.nn.functional.gelu(m), torch.nn.functional.gelu(t))


def test_gelu_strided_and_broadcast_input(path):
    m, t = pair(RNG.standard_normal((6, 40, 9)) * 3)
    f, tf = mindtorch.nn.functional.gelu, torch.nn.functional.gelu
    assert_same(f(m[:, ::3].transpose(0, 2)), tf(t[:, ::3].transpose(0, 2)))
    assert_same(f(m[:1].expand(5, 40, 9)), tf(t[:1].expand(5, 40, 9)))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu_backward(path, dtype, approximate):
    m, t = pair(np.concatenate([RNG.standard_normal(500) * 3, [0, 6, -6, 12, -12]]), dtype, True)
    check_grad(lambda a: mindtorch.nn.functional.gelu(a, approximate=approximate),
               lambda a: torch.nn.functional.gelu(a, approximate=approximate), m, t)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_gelu_half_types_round_like_pytorch(path, dtype):
    m, t = pair(RNG.standard_normal(3000) * 3, dtype)
    out, ref = mindtorch.nn.functional.gelu(m), torch.nn.functional.gelu(t)
    assert_same(out, ref)
    assert (out.float().numpy() == ref.float().numpy()).mean() > 0.99  # (the tails' last bits)


# layer norm ------------------------------------------------------------------------------

def layer_norm_pair(shape, n_dims, dtype, weight=True, bias=True, offset=0.0):
    x = RNG.standard_normal(shape) * 3 + offset
    norm = shape[len(shape) - n_dims:]
    w = [pair(RNG.standard_normal(norm), dtype, True) if weight else (None, None)]
    b = [pair(RNG.standard_normal(norm), dtype, True) if bias else (None, None)]
    return pair(x, dtype, True), w[0], b[0], list(norm)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("affine", [(True, True), (True, False), (False, True), (False, False)])
def test_layer_norm_native_outputs(path, dtype, affine):
    (m, t), (mw, tw), (mb, tb), norm = layer_norm_pair((3, 17, 384), 1, dtype, *affine)
    got = mindtorch.native_layer_norm(m, norm, mw, mb, 1e-12)
    ref = torch.native_layer_norm(t, norm, tw, tb, 1e-12)
    for g, r in zip(got, ref):  # y, mean, rstd
        assert_same(g, r, **(F32_TOL if dtype == "float32" else {}))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("affine", [True, False])
def test_layer_norm_backward_all_inputs(path, dtype, affine):
    (m, t), (mw, tw), (mb, tb), norm = layer_norm_pair((4, 6, 5, 8), 2, dtype, affine, affine)
    mo = mindtorch.nn.functional.layer_norm(m, norm, mw, mb, 1e-5)
    to = torch.nn.functional.layer_norm(t, norm, tw, tb, 1e-5)
    tol = {"rtol": 1e-4, "atol": 1e-4} if dtype == "float32" else {}
    assert_same(mo, to, **tol)
    g = RNG.standard_normal(tuple(to.shape))
    mg, tg = pair(g, dtype)
    inputs = (m, mw, mb) if affine else (m,)
    assert_same(mindtorch.autograd.grad(mo, inputs, mg),
                torch.autograd.grad(to, (t, tw, tb) if affine else (t,), tg), **tol)


def test_layer_norm_large_mean_no_cancellation(path):
    """Rows far from 0 (mean 1e4, deviation 3): the two-pass variance keeps its digits."""
    (m, t), (mw, tw), (mb, tb), norm = layer_norm_pair((64, 96), 1, "float64", offset=1e4)
    assert_same(mindtorch.nn.functional.layer_norm(m, norm, mw, mb),
                torch.nn.functional.layer_norm(t, norm, tw, tb))
    x = m.detach().float()
    y = mindtorch.nn.functional.layer_norm(x, norm)
    assert_same(y, torch.nn.functional.layer_norm(to_torch(x), norm), rtol=1e-3, atol=1e-3)


def test_layer_norm_strided_empty_and_special_rows(path):
    f, tf = mindtorch.nn.functional.layer_norm, torch.nn.functional.layer_norm
    m, t = pair(RNG.standard_normal((8, 10, 12)))
    assert_same(f(m.transpose(0, 2), [8]), tf(t.transpose(0, 2), [8]), **F32_TOL)
    assert_same(f(m[:, ::2, :], [12]), tf(t[:, ::2, :], [12]), **F32_TOL)
    e, te = pair(np.zeros((0, 7)))
    assert_same(f(e, [7]), tf(te, [7]))
    z, tz = pair(np.zeros((3, 0)))
    assert_same(mindtorch.native_layer_norm(z, [0], None, None, 1e-5),
                torch.native_layer_norm(tz, [0], None, None, 1e-5))
    x = RNG.standard_normal((4, 6))
    x[1, 2], x[2, 0], x[3] = np.nan, np.inf, 5.0  # a NaN row, an inf row, a constant row
    s, ts = pair(x)
    assert_same(f(s, [6]), tf(ts, [6]), **F32_TOL)


# softmax ---------------------------------------------------------------------------------

def softmax_cases():
    x = RNG.standard_normal((5, 12, 37)).astype(np.float32) * 6
    x[..., 30:] = -np.inf  # masked keys
    x[0, 0] = -np.inf  # a fully masked row: NaN
    x[0, 1, 3], x[0, 2, 4], x[0, 3, 5] = np.nan, np.inf, 1e30
    x[1, 0, :2] = 100, -100  # exp underflows to 0
    return x


def test_softmax_last_dim_special_values(path):
    m, t = pair(softmax_cases())
    out, ref = m.softmax(-1), t.softmax(-1)
    assert_same(out, ref)
    assert np.isnan(out.numpy()[0, :3]).all() and (out.numpy()[..., 30:][1:] == 0).all()
    out = m.log_softmax(-1)
    assert_same(out, t.log_softmax(-1))
    assert np.isnan(out.numpy()[0, :3]).all() and (out.numpy()[..., 30:][1:] == -np.inf).all()


@pytest.mark.parametrize("shape", [(), (1,), (0,), (3, 0), (0, 4), (2, 1), (6, 300)])
def test_softmax_shapes(path, shape):
    m, t = pair(RNG.standard_normal(shape) * 4)
    assert_same(mindtorch.softmax(m, -1), torch.softmax(t, -1))
    assert_same(mindtorch.log_softmax(m, -1), torch.log_softmax(t, -1))


def test_softmax_strided_other_dims_and_dtypes(path):
    m, t = pair(softmax_cases()[1:] / 3)
    assert_same(m.transpose(1, 2).softmax(-1), t.transpose(1, 2).softmax(-1))
    assert_same(m[..., ::2].softmax(-1), t[..., ::2].softmax(-1))
    assert_same(m.softmax(1), t.softmax(1))
    for dtype in ("float16", "bfloat16", "float64"):
        a, ta = pair(RNG.standard_normal((9, 50)) * 4, dtype)
        assert_same(a.softmax(-1), ta.softmax(-1))
        assert_same(mindtorch.softmax(m, -1, dtype=getattr(mindtorch, dtype)),
                    torch.softmax(t, -1, dtype=getattr(torch, dtype)))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_backward(path, dtype, name):
    x = RNG.standard_normal((4, 7, 33)) * 3
    x[0, 0, :5] = -np.inf  # masked: zero gradients
    m, t = pair(x, dtype, True)
    check_grad(lambda a: getattr(a, name)(-1), lambda a: getattr(a, name)(-1), m, t)


def test_log_softmax_backward_data_any_output(path):
    """The backward op on outputs that log_softmax cannot give (> 0: the NumPy path)."""
    rng = np.random.default_rng(0)  # (its own draws: the shared RNG's depend on test order)
    for y in (rng.standard_normal((5, 9)) - 4, rng.standard_normal((5, 9)) * 5):
        (mg, tg), (my, ty) = pair(rng.standard_normal((5, 9))), pair(y)
        assert_same(OPS["_log_softmax_backward_data"].call(mg, my, 1, mindtorch.float32),
                    torch.ops.aten._log_softmax_backward_data(tg, ty, 1, torch.float32))


# SiLU, and the GELU / SiLU backward ops ------------------------------------------------------

ACTIVATIONS = {"gelu": {}, "silu": {}, "leaky_relu": {"negative_slope": 0.2},
               "leaky_relu, slope -1.5": {"negative_slope": -1.5}, "hardswish": {},
               "hardtanh": {"min_val": -0.5, "max_val": 2.0}, "relu6": {}}


@pytest.mark.parametrize("name", list(ACTIVATIONS))
def test_compiled_activations_wide_range(path, name):
    """Forward and input gradient over a wide range and the special values (NaN and inf
    through as PyTorch's), on both paths."""
    # (its own draws: the shared RNG's depend on which tests ran first in the worker)
    rng = np.random.default_rng(219)
    x = np.concatenate([rng.standard_normal(7_000) * 4, np.linspace(-30, 30, 6_001), SPECIAL,
                        [-3, 3, 6, -0.5, 2, -1, 1]])  # (the piecewise functions' knots)
    m, t = pair(x, requires_grad=True)
    fn, kw = name.split(",")[0], ACTIVATIONS[name]
    check_grad(lambda a: getattr(mindtorch.nn.functional, fn)(a, **kw),
               lambda a: getattr(torch.nn.functional, fn)(a, **kw), m, t, rtol=3e-6, atol=3e-7)


def test_leaky_relu_in_place_backward(path):
    """leaky_relu_'s backward from its result (PyTorch's error for a negative slope)."""
    for slope in (0.1, -0.5):
        outs = []
        for lib in (mindtorch, torch):
            x = lib.tensor(RNG.standard_normal(50) if lib is mindtorch else outs[0][0])
            leaf = x.clone().requires_grad_()
            y = lib.nn.functional.leaky_relu(leaf * 1, slope, inplace=True)
            try:
                y.backward(lib.ones(50, dtype=y.dtype))
                outs.append((x.numpy(), leaf.grad))
            except RuntimeError as e:
                outs.append((x.numpy(), str(e)))
        got, expected = outs[0][1], outs[1][1]
        if isinstance(expected, str):
            assert got == expected
        else:
            assert_same(got, expected)


@pytest.mark.parametrize("name", ["gelu", "silu"])
def test_gelu_silu_backward_strided_half_and_double_backward(path, name):
    fns = getattr(mindtorch.nn.functional, name), getattr(torch.nn.functional, name)
    m, t = pair(RNG.standard_normal((9, 12)), requires_grad=True)
    check_grad(lambda x: fns[0](x.T), lambda x: fns[1](x.T), m, t, rtol=3e-6, atol=3e-7)
    assert fns[0](m.T).stride() == fns[1](t.T).stride()  # (a transposed input's layout)
    for lib, x in ((mindtorch, m), (torch, t)):  # a sum's expanded gradient
        x.grad = None
        (fns[0] if lib is mindtorch else fns[1])(x[::2]).sum().backward()
    assert_same(m.grad, t.grad, rtol=3e-6, atol=3e-7)
    m16, t16 = pair(RNG.standard_normal(40), "bfloat16", requires_grad=True)
    check_grad(fns[0], fns[1], m16, t16)
    m64, t64 = pair(RNG.standard_normal(30), "float64", requires_grad=True)
    for lib, x in ((mindtorch, m64), (torch, t64)):  # create_graph: through the op's formula
        fn = fns[0] if lib is mindtorch else fns[1]
        (g,) = lib.autograd.grad(fn(x).sum(), x, create_graph=True)
        (gg,) = lib.autograd.grad((g * g).sum(), x)
        if lib is mindtorch:
            got = gg
    assert_same(got, gg)


# expm1 / log1p ---------------------------------------------------------------------------

def _ulps(a, b):
    """Distance in float32 ulps (NaN to NaN: 0; -0 to +0: 0)."""
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    ia, ib = (x.view(np.int32).astype(np.int64) for x in (a, b))
    ia, ib = (np.where(i < 0, -(i & 0x7FFFFFFF), i) for i in (ia, ib))
    return np.where(np.isnan(a) & np.isnan(b), 0, np.abs(ia - ib))


def _wide_float32(n):
    """Special values, every float32 binade (both signs), the neighbourhoods of 0 and -1
    and the overflow / underflow edges."""
    mags = (RNG.random(n) + 1) * 2.0 ** RNG.integers(-149, 128, n)
    edges = np.concatenate([np.linspace(-1.5, 1.5, 30_001), np.linspace(-110, 95, 20_001),
                            -1 + np.float32(2.0 ** -24) * np.arange(-50, 50), 88.72 + 1e-5 *
                            np.arange(-50, 50)])
    x = np.concatenate([SPECIAL, [-1, -1 - 2 ** -23, 2 ** -29, -(2 ** -29)], mags * RNG.choice(
        [-1, 1], n), edges])
    with np.errstate(over="ignore"):
        return x.astype(np.float32)


@pytest.mark.parametrize("name", ["expm1", "log1p"])
def test_expm1_log1p_float32_correctly_rounded(path, name):
    """The compiled loops round the exact value once (float64 libm as the reference), so
    they are within PyTorch's 1 ulp; the NumPy path is within 1 ulp too."""
    x = _wide_float32(100_000)
    got = getattr(mindtorch, name)(mindtorch.tensor(x)).numpy()
    with np.errstate(all="ignore"):
        exact = getattr(np, name)(x.astype(np.float64)).astype(np.float32)
    ulps = _ulps(got, exact)
    assert ulps.max() <= (0 if path == "compiled" else 1)
    assert (np.signbit(got) == np.signbit(exact))[~np.isnan(exact)].all()  # -0 kept
    assert _ulps(got, getattr(torch, name)(torch.from_numpy(x)).numpy()).max() <= 1


@pytest.mark.parametrize("view", ["permuted", "sliced", "expanded", "transposed-sliced"])
def test_expm1_log1p_strided_inputs_keep_pytorchs_layout(path, view):
    x = RNG.standard_normal((6, 8, 10)) * 3
    make = {"permuted": lambda t: t.permute(2, 0, 1), "sliced": lambda t: t[:, ::2],
            "expanded": lambda t: t[:1].expand(6, 8, 10),
            "transposed-sliced": lambda t: t.permute(1, 2, 0)[::3]}[view]
    m, t = pair(x)
    for name in ("expm1", "log1p"):
        assert_same(getattr(mindtorch, name)(make(m.abs())), getattr(torch, name)(make(t.abs())),
                    check_stride=True, rtol=1.2e-7, atol=0)


@pytest.mark.parametrize("name", ["elu", "selu", "celu", "softplus", "logsigmoid", "mish"])
def test_activations_through_expm1_log1p(path, name):
    """The activations decomposed through expm1 / log1p, forward and backward."""
    fn = getattr(mindtorch.nn.functional, name), getattr(torch.nn.functional, name)
    m, t = pair(RNG.standard_normal((50, 40)) * 6, requires_grad=True)
    check_grad(fn[0], fn[1], m, t, rtol=3e-6, atol=2e-7)


@pytest.mark.parametrize("reduction", ["none", "mean"])
def test_bce_with_logits_fused_kernel_log1p(path, reduction):
    """The fused binary_cross_entropy_with_logits kernel takes the same log1p."""
    m, t = pair(RNG.standard_normal((40, 30)) * 8, requires_grad=True)
    mt_, tt = pair((RNG.random((40, 30)) < 0.3).astype(float))
    check_grad(lambda x: mindtorch.nn.functional.binary_cross_entropy_with_logits(
        x, mt_, reduction=reduction), lambda x: torch.nn.functional.binary_cross_entropy_with_logits(
        x, tt, reduction=reduction), m, t, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_expm1_log1p_half_types(path, dtype):
    m, t = pair(RNG.standard_normal(300) * 4, dtype)
    for name in ("expm1", "log1p"):
        assert_same(getattr(mindtorch, name)(m), getattr(torch, name)(t))


# batch norm ------------------------------------------------------------------------------

BN_LAYOUTS = {
    "contiguous": lambda t: t,
    "channels_last": lambda t: t.contiguous(memory_format=(
        mindtorch if isinstance(t, mindtorch.Tensor) else torch).channels_last),
    "permuted": lambda t: t.permute(3, 1, 2, 0).contiguous().permute(3, 1, 2, 0),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("layout", list(BN_LAYOUTS))
@pytest.mark.parametrize("affine", [True, False])
def test_batch_norm_train_and_eval(path, dtype, layout, affine):
    """Output (and its layout), the input's and parameters' gradients and the running
    statistics of BatchNorm2d in training, then its evaluation output, against PyTorch."""
    x = RNG.standard_normal((6, 5, 4, 3)) * 3 + 2
    g = RNG.standard_normal(x.shape)
    w, b = RNG.standard_normal(5), RNG.standard_normal(5)
    outs = {}
    for lib in (mindtorch, torch):
        bn = lib.nn.BatchNorm2d(5, affine=affine).to(getattr(lib, dtype))
        if affine:
            with lib.no_grad():
                bn.weight.copy_(lib.tensor(w)), bn.bias.copy_(lib.tensor(b))
        xi = BN_LAYOUTS[layout](lib.tensor(x).to(getattr(lib, dtype))).requires_grad_()
        y = bn(xi)
        y.backward(lib.tensor(g).to(y.dtype))
        bn.eval()
        params = [p.grad for p in bn.parameters()]
        outs[lib] = [y, xi.grad, *params, bn.running_mean, bn.running_var, bn(xi.detach())]
    assert outs[mindtorch][0].stride() == outs[torch][0].stride()
    tol = {"rtol": 2e-5, "atol": 2e-5} if dtype == "float32" else {}
    for got, expected in zip(outs[mindtorch], outs[torch]):
        assert_same(got, expected, **tol)


@pytest.mark.parametrize("shape", [(40, 3), (8, 3, 7)])
def test_batch_norm_1d_and_no_grad(path, shape):
    m, t = pair(RNG.standard_normal(shape) * 2, requires_grad=True)
    check_grad(lambda x: mindtorch.nn.functional.batch_norm(x, None, None, training=True),
               lambda x: torch.nn.functional.batch_norm(x, None, None, training=True), m, t,
               rtol=2e-5, atol=2e-5)


def test_batch_norm_backward_op_matches_pytorchs():
    x, g = RNG.standard_normal((4, 3, 5)), RNG.standard_normal((4, 3, 5))
    (mx, tx), (mg, tg), (mw, tw) = pair(x), pair(g), pair(RNG.standard_normal(3))
    mean, invstd = mx.mean((0, 2)), (mx.var((0, 2), unbiased=False) + 1e-5).rsqrt()
    got = OPS["_batch_norm_backward"].call(mg, mx, mean, invstd, mw)
    expected = torch.ops.aten.native_batch_norm_backward(
        tg, tx, tw, None, None, to_torch(mean), to_torch(invstd), True, 1e-5, [True] * 3)
    for a, e in zip(got, expected):
        assert_same(a, e, rtol=1e-5, atol=1e-5)


# loading ---------------------------------------------------------------------------------

def test_numba_loaded_by_large_inputs_only():
    """numba (~120 MiB of LLVM) is not loaded by `import mindtorch`, nor by the kernels'
    small inputs, only by a large one."""
    code = ("import sys, mindtorch; F = mindtorch.nn.functional; x = mindtorch.ones(64, 10); "
            "F.gelu(x); F.layer_norm(x, [10]).log_softmax(-1); x.softmax(-1); "
            "assert 'numba' not in sys.modules; "
            "F.gelu(mindtorch.ones(1 << 16)); assert 'numba' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_large_inputs_take_the_compiled_loops():
    x = RNG.standard_normal((_jit.MIN_SIZE // 64, 64))
    m, t = pair(x)
    assert_same(m.softmax(-1), t.softmax(-1))
    assert_same(mindtorch.nn.functional.gelu(m), torch.nn.functional.gelu(t))
    assert_same(m.expm1(), t.expm1(), rtol=1.2e-7, atol=0)
    assert_same(mindtorch.nn.functional.layer_norm(m, [64]),
                torch.nn.functional.layer_norm(t, [64]), **F32_TOL)
    assert _jit._modules["_compiled"]  # (loaded)


# sigmoid, exp and their backward ops ------------------------------------------------------

def test_sigmoid_exp_float32_wide_range(path):
    """The compiled loops take PyTorch's exp (Sleef's expf): sigmoid bit-identical to
    PyTorch's, exp within an ulp of its (MKL's); the NumPy path (NumPy's float32 exp, within
    2 ulps of PyTorch's) within 4."""
    x = _wide_float32(100_000)
    t = torch.from_numpy(x)
    got = mindtorch.tensor(x).sigmoid().numpy()
    assert _ulps(got, t.sigmoid().numpy()).max() <= (0 if path == "compiled" else 4)
    got = mindtorch.tensor(x).exp().numpy()
    assert _ulps(got, t.exp().numpy()).max() <= (1 if path == "compiled" else 2)
    assert (got[np.isnan(x)] != got[np.isnan(x)]).all() and (got[x == -np.inf] == 0).all()


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("name", ["sigmoid", "tanh"])
def test_sigmoid_tanh_backward(path, name, dtype):
    """Forward and backward (the sigmoid_backward / tanh_backward ops) over the special
    values, strided; 16-bit floats computed in float32 and rounded once, as PyTorch's."""
    x = np.concatenate([RNG.standard_normal(200) * 5, SPECIAL])
    m, t = pair(x, dtype, requires_grad=True)
    # (NumPy's tanh is within an ulp of PyTorch's: 1 - y^2 by 2^-23 near y = 1)
    tol = {"rtol": 3e-6, "atol": 1e-6} if dtype == "float32" else {}
    check_grad(lambda a: getattr(a[::2], name)(), lambda a: getattr(a[::2], name)(), m, t,
               **tol)
    g, y = RNG.standard_normal((30, 20)), RNG.random((20, 30)) * 2 - 0.5
    (mg, tg), (my, ty) = pair(g, dtype), pair(y, dtype)
    got = OPS[f"{name}_backward"].call(mg, my.T)
    expected = getattr(torch.ops.aten, f"{name}_backward")(tg, ty.T)
    if dtype == "float32":
        tol = {"rtol": 0, "atol": 0}  # (PyTorch's steps; its tanh_backward fuses 1 - y^2)
    assert_same(got, expected, **tol)
    assert got.stride() == expected.stride()


def test_sigmoid_exp_large_half_inputs_round_once():
    """16-bit inputs take the compiled float32 loop, then one rounding: PyTorch's bits."""
    for dtype in ("float16", "bfloat16"):
        m, t = pair(RNG.standard_normal(_jit.MIN_SIZE) * 8, dtype)
        assert_same(m.sigmoid(), t.sigmoid(), rtol=0, atol=0)
        assert_same(m.exp(), t.exp())


# softplus, ELU / SELU / CELU and logsigmoid backward ops ------------------------------------

SELU = (1.6732632423543772, 1.0507009873554805, 1)
EXP_BACKWARDS = {  # name: (mindtorch's call, ATen's), on (grad, x)
    "softplus": lambda m, g, x: _aten(m, "softplus_backward")(g, x, 1.0, 20.0),
    "softplus(2, 5)": lambda m, g, x: _aten(m, "softplus_backward")(g, x, 2.0, 5.0),
    "elu": lambda m, g, x: _aten(m, "elu_backward")(g, 1.0, 1.0, 1.0, False, x),
    "selu": lambda m, g, x: _aten(m, "elu_backward")(g, *SELU, False, x),
    "celu(0.7)": lambda m, g, x: _aten(m, "elu_backward")(g, 0.7, 1, 1 / 0.7, False, x),
    "elu_ (result)": lambda m, g, x: _aten(m, "elu_backward")(g, 1.3, 1.0, 1.0, True, x),
    "logsigmoid": lambda m, g, x: _aten(m, "log_sigmoid_backward")(
        g, x, x.abs().neg().exp() if m is mindtorch else torch.ops.aten.log_sigmoid_forward(x)[1]),
}


def _aten(m, name):
    return OPS[name].binding if m is mindtorch else getattr(torch.ops.aten, name)


@pytest.mark.parametrize("name", list(EXP_BACKWARDS))
def test_exp_backward_ops_wide_range(path, name):
    """Special values, the thresholds and a wide range, with a reversed copy (each element
    also in PyTorch's vectorized loop, not only its scalar tail): the compiled loops take
    ATen's steps and exp, bit-identical; the NumPy path within float32 rounding."""
    x = np.concatenate([SPECIAL, [20, 20.0001, 19.9999, 88.7, -88.7, -104, -105, 1e-40],
                        RNG.standard_normal(3_000) * 8, RNG.standard_normal(3_000) * 40])
    x = np.concatenate([x, x[::-1]]).astype(np.float32)
    (mg, tg), (mx, tx) = pair(RNG.standard_normal(x.size)), pair(x)
    fn = EXP_BACKWARDS[name]
    tol = {"rtol": 0, "atol": 0} if path == "compiled" else {"rtol": 3e-6, "atol": 1e-38}
    assert_same(fn(mindtorch, mg, mx), fn(torch, tg, tx), **tol)


@pytest.mark.parametrize("dtype", ["float64", "float16", "bfloat16"])
@pytest.mark.parametrize("fn", ["softplus", "elu", "selu", "celu", "logsigmoid"])
def test_exp_activations_backward_dtypes_and_layouts(path, fn, dtype):
    """Through autograd: strided input, a sum's expanded gradient; 16-bit floats computed
    in float32 and rounded once."""
    f = getattr(mindtorch.nn.functional, fn), getattr(torch.nn.functional, fn)
    m, t = pair(RNG.standard_normal((12, 10)) * 4, dtype, requires_grad=True)
    check_grad(lambda a: f[0](a.T[::2]), lambda a: f[1](a.T[::2]), m, t)
    for lib, a in ((mindtorch, m), (torch, t)):
        a.grad = None
        (f[0] if lib is mindtorch else f[1])(a[:, 1:]).sum().backward()
    assert_same(m.grad, t.grad)


def test_elu_in_place_negative_alpha_backward_error():
    for lib in (mindtorch, torch):
        x = lib.ones(3, requires_grad=True)
        y = lib.nn.functional.elu(x * 1, -0.5, inplace=True)
        with pytest.raises(RuntimeError, match="In-place elu backward calculation is "
                                               "triggered with a negative slope"):
            y.sum().backward()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("layout", list(BN_LAYOUTS))
def test_batch_norm_eval_backward(path, dtype, layout):
    """Evaluation mode (fine-tuning with frozen statistics): the input's gradient in
    PyTorch's steps (grad * invstd * weight: bit-identical), the parameters' sums."""
    x = RNG.standard_normal((6, 5, 4, 3)) * 3 + 2
    g, w, b = RNG.standard_normal(x.shape), RNG.standard_normal(5), RNG.standard_normal(5)
    stats = RNG.standard_normal(5), RNG.random(5) + 0.5
    outs = {}
    for lib in (mindtorch, torch):
        bn = lib.nn.BatchNorm2d(5).to(getattr(lib, dtype)).eval()
        with lib.no_grad():
            for p, v in zip((bn.weight, bn.bias, bn.running_mean, bn.running_var), (w, b, *stats)):
                p.copy_(lib.tensor(v))
        xi = BN_LAYOUTS[layout](lib.tensor(x).to(getattr(lib, dtype))).requires_grad_()
        y = bn(xi)
        y.backward(BN_LAYOUTS[layout](lib.tensor(g).to(y.dtype)))
        outs[lib] = [y, xi.grad, bn.weight.grad, bn.bias.grad]
    assert outs[mindtorch][1].stride() == outs[torch][1].stride()
    assert_same(outs[mindtorch][1], outs[torch][1], rtol=0, atol=0)
    tol = {"rtol": 2e-5, "atol": 2e-5} if dtype == "float32" else {}
    for got, expected in zip(outs[mindtorch], outs[torch]):
        assert_same(got, expected, **tol)


def test_batch_norm_eval_backward_op_without_weight_and_half():
    x, g = RNG.standard_normal((4, 3, 5)), RNG.standard_normal((4, 3, 5))
    for dtype, weight in (("float32", None), ("float16", None), ("float32", True)):
        (mx, tx), (mg, tg) = pair(x, dtype), pair(g, dtype)
        (mm, tm), (mv, tv) = pair(RNG.standard_normal(3)), pair(RNG.random(3) + 0.5)
        mw, tw = pair(RNG.standard_normal(3)) if weight else (None, None)
        got = OPS["_batch_norm_inference_backward"].call(mg, mx, mw, mm, mv, 1e-5)
        expected = torch.ops.aten.native_batch_norm_backward(tg, tx, tw, tm, tv, None, None,
                                                             False, 1e-5, [True] * 3)
        for a, e in zip(got, expected):
            assert_same(a, e, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name, kw", [("softplus", {}), ("softplus", {"beta": 2, "threshold": 5}),
                                      ("elu", {}), ("elu", {"alpha": 0.5}), ("selu", {}),
                                      ("celu", {"alpha": 0.7}), ("logsigmoid", {})])
def test_exp_activations_forward_wide_range(path, name, kw):
    """The compiled forwards take PyTorch's exp and correctly rounded log1p / expm1: within
    2 ulps of PyTorch's (its Sleef log1p / expm1 are within an ulp), special values as
    PyTorch's; the NumPy path (NumPy's exp: 2 ulps) within 4."""
    x = np.concatenate([SPECIAL, [20, 20.0001, 19.9999, 88.7, -88.7, -104, -105, 1e-40],
                        RNG.standard_normal(3_000) * 8, RNG.standard_normal(3_000) * 40])
    x = np.concatenate([x, x[::-1]]).astype(np.float32)
    got = getattr(mindtorch.nn.functional, name)(mindtorch.tensor(x), **kw).numpy()
    expected = getattr(torch.nn.functional, name)(torch.from_numpy(x), **kw).numpy()
    assert _ulps(got, expected).max() <= (2 if path == "compiled" else 4)
    # (signed zeros as PyTorch's; its log1p takes the smallest subnormal to 0)
    compared = ~np.isnan(expected) & ~((expected == 0) & (np.abs(got) < 1e-44))
    assert (np.signbit(got) == np.signbit(expected))[compared].all()


def test_elu_forward_errors_and_arguments_as_pytorch():
    """The compiled path keeps the decomposition's checks (a slope past float32's range) and
    takes bool / int arguments as PyTorch does."""
    x = RNG.standard_normal(_jit.MIN_SIZE).astype(np.float32)
    m, t = pair(x)
    for kw in ({"alpha": 2}, {"alpha": True}):
        assert_same(mindtorch.nn.functional.elu(m, **kw), torch.nn.functional.elu(t, **kw))
    assert_same(mindtorch.nn.functional.softplus(m, 3, 4), torch.nn.functional.softplus(t, 3, 4))
    for lib, a in ((mindtorch, m), (torch, t)):
        with pytest.raises(RuntimeError, match="value cannot be converted to type float"):
            lib.nn.functional.elu(a, 1e300)
