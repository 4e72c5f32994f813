"""The fast float32 reduction kernels (compiled loops of kernels/_reduce_loops.py, and the
NumPy paths used below _jit.MIN_SIZE or without numba) against PyTorch: sum, mean, prod,
norm over every dim form, keepdim, strided / empty / 0-dim inputs, special values; and
never less accurate than PyTorch against a float64 reference."""
import subprocess
import sys

import mindtorch
import numpy as np
import pytest
from jit_paths import paths
from mindtorch_cpu.kernels import _jit
from reference import assert_same, pair, torch

RNG = np.random.default_rng(0)
LOOPS = "_reduce_loops"


path = paths(LOOPS)  # each test on the compiled loops and on the NumPy paths


def same(fn, m, t, **tol):
    assert_same(fn(m), fn(t), **tol)


def op(x, name):
    """x's method `name` (norm: the vector 2-norm, whose dim may be any tuple)."""
    return (lambda **k: x.norm(2, **k)) if name == "norm" else getattr(x, name)


DIMS = [None, 0, 1, 2, -1, (0, 1), (1, 2), (0, 2), (0, 1, 2), ()]


@pytest.mark.parametrize("name", ["sum", "mean", "prod", "norm"])
@pytest.mark.parametrize("keepdim", [False, True])
def test_every_dim_form(path, name, keepdim):
    m, t = pair(RNG.standard_normal((6, 40, 9)) * (0.3 if name == "prod" else 1))
    for dim in DIMS:
        if dim is None:
            same(lambda x: op(x, name)(), m, t)
            continue
        if name == "prod" and not isinstance(dim, int):
            continue  # (prod takes one dim)
        same(lambda x, dim=dim: op(x, name)(dim=dim, keepdim=keepdim), m, t)


@pytest.mark.parametrize("name", ["sum", "mean", "prod", "norm"])
@pytest.mark.parametrize("shape", [(), (1,), (0,), (4, 0, 3), (3, 1), (1, 70), (5, 1, 7)])
def test_shapes(path, name, shape):
    m, t = pair(RNG.standard_normal(shape))
    same(lambda x: op(x, name)(), m, t)
    for d in range(len(shape)):
        same(lambda x, d=d: op(x, name)(dim=d), m, t)
        same(lambda x, d=d: op(x, name)(dim=d, keepdim=True), m, t)


@pytest.mark.parametrize("name", ["sum", "mean", "prod", "norm"])
def test_strided_inputs(path, name):
    m, t = pair(RNG.standard_normal((6, 40, 9)))
    for view in (lambda x: x.transpose(0, 2), lambda x: x[:, ::3], lambda x: x[:1].expand(5, 40, 9),
                 lambda x: x.permute(1, 2, 0)[2:]):
        for dim in (0, 1, (1, 2)):
            if name == "prod" and not isinstance(dim, int):
                continue
            same(lambda x, view=view, dim=dim: op(view(x), name)(dim=dim), m, t)


@pytest.mark.parametrize("name", ["sum", "mean", "prod", "norm"])
def test_special_values(path, name):
    x = RNG.standard_normal((8, 30))
    x[1, 3], x[2, 5], x[3, 7], x[4, 0], x[4, 9] = np.nan, np.inf, -np.inf, np.inf, -np.inf
    x[5, :] = 0
    x[6, 4] = -0.0
    m, t = pair(x)
    for dim in (None, 0, 1):
        same(lambda x, dim=dim: op(x, name)(dim=dim) if dim is not None else op(x, name)(), m, t)


def test_norm_overflows_as_pytorchs_float32(path):
    """PyTorch's float32 norm squares in float32: past ~1.8e19 the norm is inf."""
    m, t = pair([[1e20, 1.0], [1e18, 1e18], [3e19, 0]])
    for dim in (None, 0, 1):
        same(lambda x, dim=dim: x.norm() if dim is None else x.norm(dim=dim), m, t)


@pytest.mark.parametrize("dtype", ["float64", "float16", "bfloat16", "int32", "bool"])
def test_other_dtypes_keep_their_rules(path, dtype):
    m, t = pair(RNG.standard_normal((64, 33)) * 3, dtype)
    floating = dtype.startswith(("float", "bfloat"))
    small = pair(RNG.random((64, 33)) + 0.5, dtype)  # (products within range)
    same(lambda x: x.sum(), m, t)
    same(lambda x: x.mean(), m, t) if floating else None
    for dim in (0, 1):
        same(lambda x, dim=dim: x.sum(dim), m, t)
        # (16-bit products of 64 factors: a few ulps apart, as before these kernels)
        same(lambda x, dim=dim: x.prod(dim), *(small if floating else (m, t)),
             **({"rtol": 4e-2, "atol": 1e-2} if "16" in dtype else {}))
        if floating:
            same(lambda x, dim=dim: x.mean(dim), m, t)
            same(lambda x, dim=dim: x.norm(dim=dim), m, t)


def test_float32_with_dtype_argument(path):
    m, t = pair(RNG.standard_normal((64, 70)))
    for dim in (None, 0, 1):
        assert_same(m.sum(dim, dtype=mindtorch.float64), t.sum(dim, dtype=torch.float64))
        assert_same(m.mean(dim, dtype=mindtorch.float64), t.mean(dim, dtype=torch.float64))
        assert_same(m.sum(dim, dtype=mindtorch.float16), t.sum(dim, dtype=torch.float16))


def _rel_error(result, reference):
    return np.abs(np.asarray(result, np.float64) - reference).max() / np.abs(reference).max()


@pytest.mark.parametrize("shape, dim", [((1 << 16, 2), 0), ((1 << 14, 4), 0), ((300, 256), 0),
                                        ((256, 512), 1), ((1 << 17,), 0), ((64, 64, 16), 1),
                                        ((4, 1 << 15), None)])
@pytest.mark.parametrize("name", ["sum", "mean", "norm"])
def test_not_less_accurate_than_pytorch(path, shape, dim, name):
    """Against the float64 result of the same float32 numbers."""
    rng = np.random.default_rng(1)  # (positive: no cancellation to hide)
    x = (rng.random(shape) + 0.5).astype(np.float32)
    m, t = mindtorch.tensor(x), torch.from_numpy(x)

    def run(v):
        return (op(v, name)() if dim is None else op(v, name)(dim=dim)).numpy()
    reference = run(torch.from_numpy(x.astype(np.float64)))
    # (compiled: float64 sums, rounded once; NumPy's pairwise sums: within an ulp of that)
    ulp = 1e-9 if path == "compiled" else 2.0 ** -23
    assert _rel_error(run(m), reference) <= _rel_error(run(t), reference) + ulp


def test_large_inputs_take_the_compiled_loops():
    m, t = pair(RNG.standard_normal((_jit.MIN_SIZE // 64, 64)))
    for dim in (None, 0, 1):
        same(lambda x, dim=dim: x.sum(dim) if dim is not None else x.sum(), m, t)
    same(lambda x: x.norm(), m, t)
    assert _jit._modules[LOOPS]  # (loaded)


def test_numba_loaded_by_large_inputs_only():
    """Small reductions keep to NumPy (numba's ~120 MiB of LLVM is not loaded for them)."""
    code = ("import sys, mindtorch; x = mindtorch.ones(64, 10); x.sum(); x.sum(0); x.mean(1); "
            "x.norm(); x.prod(1); x.cumsum(1); x.var(1); x.logsumexp(1); x.topk(2, 1); "
            "assert 'numba' not in sys.modules; "
            "mindtorch.ones(1 << 16).sum(); assert 'numba' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_sum_mean_norm_backward(path):
    x = RNG.standard_normal((16, 70))
    m, t = pair(x)
    m.requires_grad_(True)
    t.requires_grad_(True)
    for fn in (lambda v: v.sum(0), lambda v: v.mean(1), lambda v: v.norm(dim=1), lambda v: v.norm()):
        mo, to = fn(m), fn(t)
        assert_same(mo, to)
        g = RNG.standard_normal(tuple(to.shape)).astype(np.float32)
        (mg,) = mindtorch.autograd.grad(mo, m, mindtorch.tensor(g))
        (tg,) = torch.autograd.grad(to, t, torch.from_numpy(g))
        assert_same(mg, tg)


def test_norm_other_orders_dtypes_and_errors(path):
    """What the 2-norm kernel leaves to the decomposition: other p, dtype=, complex; and
    the errors of integer input / an empty inf-norm."""
    # (its own draws: the shared RNG's depend on the worker's test order, and the p-norms'
    # float32 sums, in PyTorch's sum order, not its norm kernel's, can drift past rtol)
    rng = np.random.default_rng(164)
    m, t = pair(rng.standard_normal((16, 70)))
    for p in (1, 3, 0.5, 0, float("inf"), -float("inf")):
        for dim in (None, 1):
            assert_same(m.norm(p, dim), t.norm(p, dim))
    assert_same(m.norm(2, 1, dtype=mindtorch.float64), t.norm(2, 1, dtype=torch.float64))
    assert_same(mindtorch.linalg.vector_norm(m, 2, (0, 1), True),
                torch.linalg.vector_norm(t, 2, (0, 1), True))
    c = rng.standard_normal((8, 9)) + 1j * rng.standard_normal((8, 9))
    assert_same(mindtorch.tensor(c).norm(dim=1), torch.from_numpy(c).norm(dim=1))
    for bad in (lambda x: x.long().norm(), lambda x: x[:0].norm(float("inf"))):
        with pytest.raises(RuntimeError):
            bad(m)
        with pytest.raises(RuntimeError):
            bad(t)


# cumsum / cumprod -------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
def test_scans_are_pytorchs_to_the_bit(path, name):
    """float32 scans accumulate in double, each partial result rounded (PyTorch's)."""
    x = RNG.standard_normal((7, 40, 9)) * (1 if name == "cumsum" else 1.1)
    x[1, 3, 2], x[2, 5, 0], x[3, 7, 1], x[4, 0, 0], x[0, 0, 5] = np.nan, np.inf, -np.inf, -0.0, -0.0
    m, t = pair(x)
    for dim in (0, 1, 2, -1):
        assert_same(getattr(m, name)(dim), getattr(t, name)(dim), rtol=0, atol=0)
    big = pair([[3e38, 3e38, -3e38, -3e38, 1.0]] * 2)  # (partial sums past float32's range)
    assert_same(getattr(big[0], name)(1), getattr(big[1], name)(1), rtol=0, atol=0)


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
def test_scans_shapes_strides_and_dtypes(path, name):
    m, t = pair(RNG.standard_normal((6, 40, 9)))
    for view in (lambda x: x.transpose(0, 2), lambda x: x[:, ::3], lambda x: x[:1].expand(5, 40, 9)):
        assert_same(getattr(view(m), name)(1), getattr(view(t), name)(1), rtol=0, atol=0)
    for shape in ((), (0,), (4, 0, 3), (1,), (3, 1)):
        a, b = pair(RNG.standard_normal(shape))
        for dim in range(-len(shape), len(shape)) if shape else (0,):
            assert_same(getattr(a, name)(dim), getattr(b, name)(dim))
    assert_same(getattr(m, name)(1, dtype=mindtorch.float64), getattr(t, name)(1, dtype=torch.float64))
    for dtype in ("float64", "float16", "int32"):
        a, b = pair(RNG.standard_normal((8, 30)) * 2, dtype)
        assert_same(getattr(a, name)(1), getattr(b, name)(1))


# logsumexp --------------------------------------------------------------------------------

def test_logsumexp(path):
    x = RNG.standard_normal((9, 40, 30)) * 5
    x[0, 1, :] = -np.inf  # (all -inf: -inf)
    x[0, 2, 3], x[0, 3, 4], x[0, 4, 5], x[0, 5, :2] = np.inf, np.nan, -np.inf, np.inf
    x[1, 1, :] = 80  # (exp past float32's range without the shift)
    m, t = pair(x)
    for dim in ((-1,), (1, 2), (0, 1, 2), (0,), (1,), (0, 2)):
        for keepdim in (False, True):
            assert_same(m.logsumexp(dim, keepdim), t.logsumexp(dim, keepdim))
    assert_same(m.transpose(0, 2).logsumexp(-1), t.transpose(0, 2).logsumexp(-1))
    assert_same(m[:, ::2].logsumexp(-1), t[:, ::2].logsumexp(-1))
    rng = np.random.default_rng(2)
    y = (rng.standard_normal((256, 512)) * 3).astype(np.float32)
    reference = torch.from_numpy(y.astype(np.float64)).logsumexp(1).numpy()
    ulp = 2.0 ** -23
    assert _rel_error(mindtorch.tensor(y).logsumexp(1).numpy(), reference) <= (
        _rel_error(torch.from_numpy(y).logsumexp(1).numpy(), reference) + ulp)


# var / std --------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["var", "std"])
def test_var_std(path, name):
    x = RNG.standard_normal((6, 40, 9)) + 1e3  # (a large mean: no cancellation)
    x[0, 1, 2], x[1, 2, 3] = np.nan, np.inf
    m, t = pair(x)
    for dim in (None, 0, 1, 2, (0, 1), (1, 2), (0, 2)):
        for correction in (0, 1, 2):
            for keepdim in (False, True):
                assert_same(getattr(m, name)(dim, correction=correction, keepdim=keepdim),
                            getattr(t, name)(dim, correction=correction, keepdim=keepdim))
    assert_same(getattr(m.transpose(0, 2), name)(1), getattr(t.transpose(0, 2), name)(1))
    one = pair(RNG.standard_normal((5, 1)))
    assert_same(getattr(one[0], name)(1), getattr(one[1], name)(1))  # (n - correction = 0)
    assert_same(getattr(one[0], name)(1, correction=3), getattr(one[1], name)(1, correction=3))


# topk -------------------------------------------------------------------------------------

@pytest.mark.parametrize("largest", [True, False])
def test_topk_indices_and_ties_are_pytorchs(path, largest):
    """The compiled selection (k best in one pass) gives PyTorch's values and indices:
    NaN the largest, ties resolved as PyTorch's algorithm (rows replayed)."""
    x = RNG.standard_normal((40, 9, 70)).astype(np.float32)
    x[0, 0, 7], x[1, 1, :], x[2, 2, 30:] = np.nan, np.nan, np.nan
    x[3, 3] = np.round(x[3, 3])  # (many ties)
    x[4, 4, 10:20] = 9.0
    x[5, 5, :5] = -np.inf
    m, t = mindtorch.tensor(x), torch.from_numpy(x)
    for k in (1, 3, 17):
        for dim in (-1, 0, 1) if k < 9 else (-1, 0):
            got, want = m.topk(k, dim, largest), t.topk(k, dim, largest)
            assert_same(got.values, want.values, rtol=0, atol=0)
            assert_same(got.indices, want.indices)
    got, want = m[:, ::2].topk(4, -1, largest), t[:, ::2].topk(4, -1, largest)
    assert_same(got.indices, want.indices)


@pytest.mark.parametrize("view", ["t", "step"])
def test_strided_sums_not_less_accurate_than_pytorch(path, view):
    """A reduction along a strided axis (NumPy would add its rows one after another)."""
    rng = np.random.default_rng(3)
    x = (rng.random((4096, 6)) + 0.5).astype(np.float32)
    m, t = mindtorch.tensor(x), torch.from_numpy(x)
    pick = (lambda v: v.t()) if view == "t" else (lambda v: v[:, ::2])
    dim = 1 if view == "t" else 0
    reference = pick(torch.from_numpy(x.astype(np.float64))).sum(dim).numpy()
    assert _rel_error(pick(m).sum(dim).numpy(), reference) <= (
        _rel_error(pick(t).sum(dim).numpy(), reference) + 2.0 ** -23)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "float16", "bool"])
def test_amax_amin_short_rows(dtype):
    """Many short rows (reduced through a transposed copy): NaN propagates, keepdim, the
    last dims of 3-D tensors; the values of max / min with indices too."""
    x = RNG.standard_normal((300, 4, 7)) * 3
    x[3, 1, 2], x[5, :, :] = np.nan, -np.inf
    m, t = pair(x, dtype)
    for dim in (-1, (1, 2), 2):
        for keepdim in (False, True):
            assert_same(m.amax(dim, keepdim), t.amax(dim, keepdim))
            assert_same(m.amin(dim, keepdim), t.amin(dim, keepdim))
    assert_same(m.max(-1).values, t.max(-1).values)
    assert_same(m.min(2, keepdim=True).values, t.min(2, keepdim=True).values)
