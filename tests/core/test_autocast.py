"""CPU autocast against PyTorch: which ops run in the autocast dtype or in float32, what is
never cast (float64, integers, other devices), nesting and disabling, decorators,
gradients flowing back in the inputs' dtypes, custom_fwd(cast_inputs=), state queries."""
import warnings

import numpy as np
import pytest

import mindtorch
from reference import outcome, same_outcome

torch = pytest.importorskip("torch")


both = same_outcome


def _data(seed, *shape):
    return np.random.default_rng(seed).standard_normal(shape)


LOWER = {  # name -> fn(lib, F, a, b) with a (4, 3, 8, 8) and b (3, 3, 3, 3) float32
    "matmul": lambda lib, F, a, b: a @ a,
    "mm": lambda lib, F, a, b: lib.mm(a[0, 0], a[0, 1]),
    "bmm": lambda lib, F, a, b: lib.bmm(a[0], a[1]),
    "addmm": lambda lib, F, a, b: lib.addmm(a[0, 0], a[0, 1], a[0, 2]),
    "baddbmm": lambda lib, F, a, b: lib.baddbmm(a[0], a[1], a[2]),
    "linear": lambda lib, F, a, b: F.linear(a, a[0, 0], a[0, 1, 0]),
    "conv2d": lambda lib, F, a, b: F.conv2d(a, b, padding=1),
    "conv1d": lambda lib, F, a, b: F.conv1d(a[:, :, 0], b[:, :, 0]),
    "conv_transpose2d": lambda lib, F, a, b: F.conv_transpose2d(a, b),
    "prelu": lambda lib, F, a, b: F.prelu(a, b[0, :, 0, 0]),
    "sdpa": lambda lib, F, a, b: F.scaled_dot_product_attention(a, a, a),
    "Linear module": lambda lib, F, a, b: _linear(lib)(a),
}


def _linear(lib):
    m = lib.nn.Linear(8, 2)
    with lib.no_grad():
        m.weight.copy_(lib.tensor(_data(3, 2, 8)))
        m.bias.copy_(lib.tensor(_data(4, 2)))
    return m
FP32 = {
    "mse_loss": lambda lib, F, a: F.mse_loss(a, a * 2),
    "l1_loss": lambda lib, F, a: F.l1_loss(a, a * 2),
    "cross_entropy": lambda lib, F, a: F.cross_entropy(a[:, :, 0, 0], lib.tensor([0, 1, 2, 0])),
    "nll_loss": lambda lib, F, a: F.nll_loss(a[:, :, 0, 0], lib.tensor([0, 1, 2, 0])),
    "bce_logits": lambda lib, F, a: F.binary_cross_entropy_with_logits(a, a.sigmoid()),
    "kl_div": lambda lib, F, a: F.kl_div(a, a.exp(), reduction="batchmean"),
    "prod": lambda lib, F, a: a.prod(),
    "smooth_l1": lambda lib, F, a: F.smooth_l1_loss(a, a * 2),
    "inverse": lambda lib, F, a: lib.linalg.inv(a[0, 0] + 8 * lib.eye(8, dtype=a.dtype)),
}
KEPT = {  # ops autocast leaves alone
    "add": lambda lib, F, a: a + 1, "relu": lambda lib, F, a: F.relu(a),
    "softmax": lambda lib, F, a: a.softmax(-1), "sum": lambda lib, F, a: a.sum(),
    "layer_norm": lambda lib, F, a: F.layer_norm(a, (8,)),
    "cat": lambda lib, F, a: lib.cat([a, a.to(lib.bfloat16)]),
}


def _run(lib, fn, dtype, *arrays, grad=True):
    lib.manual_seed(0)
    xs = [lib.tensor(x, dtype=lib.float32).requires_grad_(grad) for x in arrays]
    with lib.autocast("cpu", dtype=dtype):
        out = fn(lib, lib.nn.functional, *xs)
    if grad and out.requires_grad:
        out.float().sum().backward()
    return out, xs


@pytest.mark.parametrize("name", list(LOWER))
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_lower_precision_ops(name, dtype):
    a, b = _data(0, 4, 3, 8, 8), _data(1, 3, 3, 3, 3) * 0.3
    (om, xm), (ot, xt) = (_run(lib, LOWER[name], getattr(lib, dtype), a, b)
                          for lib in (mindtorch, torch))
    assert str(om.dtype) == str(ot.dtype) == f"torch.{dtype}"
    tol = 0.05 if dtype == "bfloat16" else 0.01
    np.testing.assert_allclose(om.float().detach().numpy(), ot.float().detach().numpy(),
                               rtol=tol, atol=tol * 4)
    for m, t in zip(xm, xt):  # gradients come back in the inputs' dtype
        assert (m.grad is None) == (t.grad is None)
        if m.grad is not None:
            assert m.grad.dtype is mindtorch.float32
            np.testing.assert_allclose(m.grad.numpy(), t.grad.numpy(), rtol=tol, atol=tol * 8)


@pytest.mark.parametrize("name", list(FP32) + list(KEPT))
def test_float32_and_untouched_ops(name):
    fn = {**FP32, **KEPT}[name]
    a = _data(2, 4, 3, 8, 8)
    res = []
    for lib in (mindtorch, torch):
        x = lib.tensor(a, dtype=lib.bfloat16)  # fp32 ops cast bfloat16 inputs up
        y = lib.tensor(a, dtype=lib.float32)
        with lib.autocast("cpu"):
            res.append((str(fn(lib, lib.nn.functional, x).dtype),
                        str(fn(lib, lib.nn.functional, y).dtype)))
    assert res[0] == res[1]


def test_what_is_never_cast():
    def f(lib):
        a, d = lib.ones(2, 2), lib.ones(2, 2, dtype=lib.float64)
        i = lib.ones(2, 2, dtype=lib.int64)
        m = lib.ones(2, 2, device="meta")
        with lib.autocast("cpu"):
            return [str((d @ d).dtype), str((i @ i).dtype), str((m @ m).dtype),
                    str((a @ a.double().float()).dtype), outcome(lambda: str((a @ d).dtype)),
                    str(lib.nn.functional.linear(a, d.float()).dtype)]
    both(f)


def test_nesting_disabling_and_state():
    def f(lib):
        a = lib.ones(2, 2)
        r = [lib.is_autocast_enabled("cpu"), lib.is_autocast_enabled(),
             str(lib.get_autocast_dtype("cpu")), str(lib.get_autocast_dtype("cuda"))]
        with lib.autocast("cpu"):
            r += [lib.is_autocast_enabled("cpu"), str((a @ a).dtype)]
            with lib.autocast("cpu", enabled=False):
                r += [lib.is_autocast_enabled("cpu"), str((a @ a).dtype)]
                with lib.autocast("cpu", dtype=lib.float16):
                    r.append(str((a @ a).dtype))
            with lib.autocast("cpu", dtype=lib.float16):
                r.append(str((a @ a).dtype))
            r.append(str((a @ a).dtype))
        r += [lib.is_autocast_enabled("cpu"), str((a @ a).dtype)]

        @lib.autocast("cpu")
        def g(x):
            return str((x @ x).dtype), lib.is_autocast_enabled("cpu")
        r += [g(a), lib.is_autocast_enabled("cpu")]
        with lib.amp.autocast("cpu", dtype=lib.bfloat16):
            r.append(str(lib.nn.Linear(2, 2)(a).dtype))
        return r
    both(f)


def test_unsupported_dtype_and_device_types():
    def f(lib):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            with lib.autocast("cpu", dtype=lib.float64):
                r = [str((lib.ones(2, 2) @ lib.ones(2, 2)).dtype), lib.is_autocast_enabled("cpu")]
            with lib.cpu.amp.autocast():
                r.append(str((lib.ones(2, 2) @ lib.ones(2, 2)).dtype))
            r.append([(c.category.__name__, str(c.message)) for c in w])
        r.append(outcome(lambda: lib.autocast("meta", dtype=lib.bfloat16)))
        r.append(outcome(lambda: lib.autocast(3)))
        r.append(lib.amp.is_autocast_available("cpu"))
        return r
    both(f)


def test_custom_fwd_cast_inputs():
    def f(lib):
        class Fn(lib.autograd.Function):
            @staticmethod
            @lib.amp.custom_fwd(device_type="cpu", cast_inputs=lib.float32)
            def forward(ctx, a):
                return a * 1, str(a.dtype), lib.is_autocast_enabled("cpu")

            @staticmethod
            @lib.amp.custom_bwd(device_type="cpu")
            def backward(ctx, g, *_):
                return g
        x = lib.ones(1, dtype=lib.bfloat16)
        with lib.autocast("cpu"):
            inside = Fn.apply(x)[1:]
        return inside, Fn.apply(x)[1:]
    both(f)


def test_program_qa_gap_autocast_cpu():
    def f(lib):
        lib.manual_seed(0)
        lin = lib.nn.Linear(3, 2)
        with lib.autocast("cpu", dtype=lib.bfloat16):
            return str(lin(lib.ones(1, 3)).dtype)
    assert both(f) == "torch.bfloat16"


def test_device_amp_spellings_import():
    def f(lib):
        import importlib
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ac = importlib.import_module(f"{lib.__name__}.cpu.amp").autocast
            with ac():
                return str((lib.ones(2, 2) @ lib.ones(2, 2)).dtype)
    assert both(f) == "torch.bfloat16"
