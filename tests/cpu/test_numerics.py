"""The numerics family and the creation additions against PyTorch: complex, polar, frexp,
cov, corrcoef, trapezoid, cumulative_trapezoid, renorm, unravel_index, vander,
fill_diagonal_, cumsum_/cumprod_, is_nonzero, is_same_size, logspace, tril/triu_indices and
the legacy tensor types; values, dtypes, error classes, and the meta device's shapes."""
import math

import numpy as np
import pytest

import mindtorch
from reference import assert_same, same_error, to_torch, torch
from test_reduction import check_meta, make

RNG = np.random.default_rng(7)


def both(fn, *mts, rtol=None, atol=None):
    """fn(lib, *tensors) agrees between mindtorch and torch (values or error class);
    on meta tensors it gives the cpu shapes and dtypes."""
    ths = [to_torch(m) for m in mts]
    try:
        expected = fn(torch, *ths)
    except Exception:  # noqa: BLE001 - compared by class below
        same_error(lambda: fn(mindtorch, *mts), lambda: fn(torch, *ths))
        return
    got = fn(mindtorch, *mts)
    if isinstance(expected, tuple):
        assert type(got).__name__ == type(expected).__name__
        got, expected = tuple(got), tuple(expected)
    assert_same(got, expected, rtol=rtol, atol=atol)
    check_meta(fn, *mts)


def transposed(shape, dtype):
    return make(shape[::-1], dtype).t()


# (float16 parts: torch makes complex32, a dtype mindtorch lacks; it raises instead)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
@pytest.mark.parametrize("shapes", [((3, 1), (4,)), ((), ()), ((0, 2), (2,))])
def test_complex_and_polar(dtype, shapes):
    re, im = make(shapes[0], dtype), make(shapes[1], dtype)
    both(lambda L, a, b: L.complex(a, b), re, im)
    both(lambda L, a, b: L.polar(a.abs(), b), re, im)


def test_complex_keeps_infinities_and_checks_dtypes():
    inf = mindtorch.tensor([float("inf"), float("nan")])
    both(lambda L, a, b: L.complex(a, b), inf, mindtorch.zeros(2))
    both(lambda L, a, b: L.complex(a, b), mindtorch.zeros(2), inf)
    both(lambda L, a, b: L.complex(a, b), mindtorch.zeros(2), mindtorch.zeros(2).double())


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "int32"])
def test_frexp(dtype):
    x = make((3, 4), dtype) * 7
    both(lambda L, a: L.frexp(a), x)
    both(lambda L, a: a.frexp(), x.t())
    special = mindtorch.tensor([0.0, -0.0, float("inf"), -float("inf"), 1e-40, 3.0])
    both(lambda L, a: L.frexp(a), special)


@pytest.mark.parametrize("kwargs", [{}, {"correction": 0}, {"correction": 3}])
@pytest.mark.parametrize("shape", [(3, 5), (5,), (1, 4), (2, 1)])
def test_cov_and_corrcoef(shape, kwargs):
    x = make(shape, "float64")
    both(lambda L, a: L.cov(a, **kwargs), x)
    both(lambda L, a: a.cov(**kwargs), make(shape, "int64"))
    both(lambda L, a: L.corrcoef(a), x)


def test_logspace_complex_end_into_a_real_dtype_refused():
    def run(L):
        return L.logspace(0, 1j, 3, dtype=L.float32)
    same_error(lambda: run(mindtorch), lambda: run(torch))
    with pytest.raises(RuntimeError, match="logspace.*passed dtype Float"):
        run(mindtorch)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_cov_and_corrcoef_complex(dtype):
    # off-diagonal entries keep their imaginary parts (only the diagonal is real)
    x = make((3, 5), dtype)
    both(lambda L, a: L.cov(a), x)
    both(lambda L, a, w: L.cov(a, correction=0, aweights=w), x, make((5,), "float64").abs())
    both(lambda L, a: L.corrcoef(a), x.t().contiguous().t())
    mt = mindtorch.cov(x)
    assert mt.diagonal().imag.eq(0).all() and mt.imag.abs().max() > 0.1


def test_cov_weights_and_errors():
    x = make((2, 4), "float32")
    fw, aw = mindtorch.tensor([1, 2, 1, 3]), mindtorch.tensor([0.5, 1.0, 2.0, 1.0])
    for kw in ({"fweights": fw}, {"aweights": aw}, {"fweights": fw, "aweights": aw},
               {"fweights": fw, "aweights": aw, "correction": 0}):
        both(lambda L, a, f, w: L.cov(a, **{k: (f if k == "fweights" else w if k ==
                                                "aweights" else v) for k, v in kw.items()}),
             x, fw, aw)
    both(lambda L, a: L.cov(a), make((2, 2, 2), "float32"))
    both(lambda L, a, f: L.cov(a, fweights=f), x, fw.float())
    both(lambda L, a, f: L.cov(a, aweights=f), x, fw)
    both(lambda L, a, f: L.cov(a, fweights=f), x, fw[:3])


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_trapezoid(dtype):
    y = make((3, 4), dtype)
    x = make((4,), "float64")
    for name in ("trapezoid", "cumulative_trapezoid", "trapz"):
        both(lambda L, a: getattr(L, name)(a), y)
        both(lambda L, a: getattr(L, name)(a, dx=0.5, dim=0), y)
        both(lambda L, a, b: getattr(L, name)(a, b), y, x)
        both(lambda L, a, b: getattr(L, name)(a, b, dim=0), y.t(), make((3, 4), "float32"))
        both(lambda L, a: getattr(L, name)(a), make((0,), dtype))
    same_error(lambda: mindtorch.trapezoid(y, 2), lambda: torch.trapezoid(to_torch(y), 2))


@pytest.mark.parametrize("p, dim, maxnorm", [(2, 0, 1.0), (1, 1, 5.0), (3, 2, 0.5),
                                             (0, 0, 1.0), (2, 0, -1.0)])
def test_renorm(p, dim, maxnorm):
    x = make((2, 3, 4), "float32")
    both(lambda L, a: L.renorm(a, p, dim, maxnorm), x)
    both(lambda L, a: a.clone().renorm_(p, dim % 2, maxnorm), x.transpose(0, 1))
    both(lambda L, a: L.renorm(a, 2, 0, 1), make((3, 3), "int64"))


@pytest.mark.parametrize("indices, shape", [([5, 7], (2, 4)), (3, (2, 4)), ([-1, 9], (2, 4)),
                                            ([[1, 2], [3, 0]], (4,)), ([0], (3, 0)),
                                            ([1.0], (2,)), ([1], (2, -4)), (0, ())])
def test_unravel_index(indices, shape):
    got = lambda L: L.unravel_index(L.tensor(indices), shape)  # noqa: E731
    same_error(lambda: got(mindtorch), lambda: got(torch))
    try:
        expected = got(torch)
    except Exception:  # noqa: BLE001 - compared above
        return
    assert_same(list(got(mindtorch)), list(expected))


@pytest.mark.parametrize("dtype", ["float32", "int32", "bool", "complex64"])
@pytest.mark.parametrize("N, increasing", [(None, False), (4, True), (0, False), (1, True)])
def test_vander(dtype, N, increasing):
    both(lambda L, a: L.vander(a, N, increasing), make((3,), dtype))
    both(lambda L, a: L.vander(a), make((2, 2), dtype))


@pytest.mark.parametrize("shape, wrap", [((3, 4), False), ((7, 3), True), ((7, 3), False),
                                         ((2, 2, 2), False), ((2, 3, 4), False), ((3,), False),
                                         ((4, 3), True)])
def test_fill_diagonal_(shape, wrap):
    both(lambda L, a: a.clone().fill_diagonal_(5, wrap=wrap), make(shape, "float32"))
    both(lambda L, a: a.clone().fill_diagonal_(True, wrap=wrap), make(shape, "int64"))
    if len(shape) == 2:
        x, tx = make(shape[::-1], "float32"), None
        a, tx = x.t(), to_torch(x).t()
        a.fill_diagonal_(-1.5, wrap)
        tx.fill_diagonal_(-1.5, wrap)
        assert_same(x, tx.t())  # written through the transposed view


def test_inplace_scans():
    for name in ("cumsum_", "cumprod_"):
        both(lambda L, a: getattr(a.clone(), name)(1), make((3, 4), "float64"))
        both(lambda L, a: getattr(a.clone(), name)(0), make((3, 4), "int64"))
        both(lambda L, a: getattr(a.clone(), name)(0, dtype=L.float64), make((3,), "float32"))


def test_size_predicates():
    for data in ([0.0], [2], [], [1, 2], [[True]]):
        same_error(lambda: mindtorch.tensor(data).is_nonzero(),
                   lambda: torch.tensor(data).is_nonzero())
        if len(data) == 1:
            assert mindtorch.is_nonzero(mindtorch.tensor(data)) == \
                torch.is_nonzero(torch.tensor(data))
    assert mindtorch.is_same_size(mindtorch.ones(2, 3), mindtorch.ones(2, 3))
    assert not mindtorch.ones(2, 3).is_same_size(mindtorch.ones(3, 2))


@pytest.mark.parametrize("args, kwargs", [((0, 2, 3), {}), ((0, 1, 5), {"base": 2}),
                                          ((0, 2, 3), {"dtype": "int64"}),
                                          ((-2, 2, 7), {"dtype": "float64", "base": 3.0}),
                                          ((1, 0, 1), {}), ((0, 3, 0), {}),
                                          # complex ends: the default complex dtype
                                          ((0, 1 + 1j, 4), {}), ((1j, 2, 3), {"base": 2}),
                                          ((0, 2j, 3), {"dtype": "complex128"})])
def test_logspace(args, kwargs):
    def run(L):
        kw = {k: getattr(L, v) if k == "dtype" else v for k, v in kwargs.items()}
        return L.logspace(*args, **kw)
    assert_same(run(mindtorch), run(torch))
    meta = mindtorch.logspace(*args, device="meta", **{k: getattr(mindtorch, v) if k == "dtype"
                                                       else v for k, v in kwargs.items()})
    assert (meta.shape, meta.dtype, meta.device.type) == (run(mindtorch).shape,
                                                          run(mindtorch).dtype, "meta")


@pytest.mark.parametrize("row, col, offset", [(3, 4, 1), (4, 3, -1), (0, 3, 0), (3, 3, 5),
                                              (3, 3, -5), (1, 1, 0), (-1, 2, 0),
                                              (2, -3, 0)])
@pytest.mark.parametrize("name", ["tril_indices", "triu_indices"])
def test_triangle_indices(name, row, col, offset):
    same_error(lambda: getattr(mindtorch, name)(row, col, offset),
               lambda: getattr(torch, name)(row, col, offset))
    if min(row, col) < 0:  # PyTorch's message names the negative argument
        messages = []
        for lib in (mindtorch, torch):
            with pytest.raises(RuntimeError) as e:
                getattr(lib, name)(row, col, offset)
            messages.append(str(e.value))
        assert messages[0] == messages[1]
    else:
        assert_same(getattr(mindtorch, name)(row, col, offset),
                    getattr(torch, name)(row, col, offset))
        assert_same(getattr(mindtorch, name)(row, col, dtype=mindtorch.int32),
                    getattr(torch, name)(row, col, dtype=torch.int32))


@pytest.mark.parametrize("name", ["FloatTensor", "DoubleTensor", "HalfTensor", "BFloat16Tensor",
                                  "LongTensor", "IntTensor", "ShortTensor", "CharTensor",
                                  "ByteTensor", "BoolTensor"])
def test_legacy_tensor_types(name):
    M, T = getattr(mindtorch, name), getattr(torch, name)
    assert_same(M([1, 0]), T([1, 0]))
    assert_same(M([[1], [2]]), T([[1], [2]]))
    assert M(2, 3).shape == T(2, 3).shape and M().shape == T().shape
    assert M(mindtorch.Size([4])).shape == (4,)
    assert M(2, 3).dtype == getattr(mindtorch, str(T(1).dtype).split(".")[1])
    x = mindtorch.tensor([1.7, -2.2])
    assert_same(x.type(M), to_torch(x).type(T))
    assert x.type(M).type() == f"torch.{name}"
    assert isinstance(x.type(M), M) and not isinstance(x.to("meta").type(M.dtype), M)
    assert repr(M) == repr(T)
    for bad in ("a", mindtorch.ones(1, dtype=mindtorch.complex64)):
        with pytest.raises(TypeError):
            M(bad)
    with pytest.raises(TypeError):
        M([1], dtype=mindtorch.float64)


# -- PyTorch's integration arithmetic and refusals (Integration.cpp) ----------------------

INF = math.inf


@pytest.mark.parametrize("name", ["trapezoid", "trapz", "cumulative_trapezoid"])
@pytest.mark.parametrize("data, dtype", [
    ([200, 250, 100, 7], "uint8"),                    # sums wrap in uint8
    ([2 ** 62, 2 ** 62, -2 ** 63, 5], "int64"),        # and in int64
    ([1.0, INF, -INF, 2.0], "float32"), ([INF, -INF], "float64"), ([1.0, 2.0, INF], "float16"),
    ([[1, 2, 3], [4, 5, 6]], "int32"), ([[1.5, -2.0], [0.5, 3.0]], "complex64"),
])
def test_integration_follows_pytorch_arithmetic(name, data, dtype):
    y = mindtorch.tensor(data).to(getattr(mindtorch, dtype))
    both(lambda L, t: getattr(L, name)(t), y)
    both(lambda L, t: getattr(L, name)(t, dx=2.5), y)
    x = mindtorch.tensor([0, 1, 3, 4][:y.shape[-1]], dtype=mindtorch.int8)
    both(lambda L, t, x: getattr(L, name)(t, x), y, x)


@pytest.mark.parametrize("name", ["trapezoid", "trapz", "cumulative_trapezoid"])
@pytest.mark.parametrize("call", [
    lambda L, f: f(L.ones(2, 3, dtype=L.bool)),
    lambda L, f: f(L.ones(2, 0, dtype=L.bool)),                # empty: trapezoid returns
    lambda L, f: f(L.ones(2, 3, dtype=L.bool), dim=5),         # cumulative: bool first
    lambda L, f: f(L.ones(3), L.ones(3, dtype=L.bool)),
    lambda L, f: f(L.ones(3), L.ones(2)),                      # one x per sample
    lambda L, f: f(L.ones(2, 3), dx=1j), lambda L, f: f(L.ones(2, 3), dx=True),
    lambda L, f: f(L.ones(2, 0, dtype=L.int32)),
])
def test_integration_checks(name, call):
    same_error(lambda: call(mindtorch, getattr(mindtorch, name)),
               lambda: call(torch, getattr(torch, name)))
    try:
        expected = call(torch, getattr(torch, name))
    except Exception:  # noqa: BLE001 - the class is compared above
        return
    assert_same(call(mindtorch, getattr(mindtorch, name)), expected)


@pytest.mark.parametrize("call", [
    lambda L: L.cov(L.ones(2, 3), aweights=L.tensor([1.0, -1.0, 1.0])),
    lambda L: L.cov(L.ones(2, 3), aweights=L.tensor([1.0, math.nan, 1.0])),
    lambda L: L.cov(L.ones(2, 3), fweights=L.tensor([1, -1, 1])),
    lambda L: L.cov(L.ones(2, 3), fweights=L.tensor([0, 0, 0])),    # weights sum to zero
    lambda L: L.cov(L.ones(2, 3, dtype=L.bool)),
    lambda L: L.corrcoef(L.ones(2, 3, dtype=L.bool)),
    lambda L: L.cov(L.ones(2, 3), aweights=L.ones(2, 3)),
    lambda L: L.cov(L.ones(2, 3), aweights=L.ones(4)),
])
def test_cov_checks(call):
    same_error(lambda: call(mindtorch), lambda: call(torch))


@pytest.mark.parametrize("fw, aw", [(None, None), ([2], None), (None, [0.5]), ([1], [2.0])])
@pytest.mark.parametrize("dtype", ["float32", "int64", "complex64"])
def test_cov_one_observation_corner_cases(fw, aw, dtype):
    given = [(k, mindtorch.tensor(v)) for k, v in (("fweights", fw), ("aweights", aw))
             if v is not None]
    names = [k for k, _ in given]
    x = mindtorch.tensor([[1.5], [2.0]]).to(getattr(mindtorch, dtype))
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        both(lambda L, t, *w: L.cov(t, **dict(zip(names, w))), x, *(v for _, v in given))


@pytest.mark.parametrize("call", [
    lambda L: L.renorm(L.ones(3), 2, 5, 1.0),          # rank before dim
    lambda L: L.renorm(L.ones(2, 3), 2, 5, math.nan),  # maxnorm before dim
    lambda L: L.renorm(L.ones(2, 3), 0, 0, 1.0), lambda L: L.renorm(L.ones(2, 3), -1, 5, 1.0),
    lambda L: L.renorm(L.ones(2, 3), 1j, 0, 1.0), lambda L: L.renorm(L.ones(2, 3), 1, 0, 1j),
    lambda L: L.renorm(L.ones(2, 3), 2, 5, 1.0),
    lambda L: L.renorm(L.ones(2, 3, dtype=L.int64), 1, 0, 1.0),
    lambda L: L.ones(3).renorm_(2, 0, 1.0), lambda L: L.ones(2, 3).renorm_(2, 5, -1.0),
    lambda L: L.renorm(L.ones(2, 3), p=2, dim=5, maxnorm=-1.0, out=L.empty(2, 3)),
])
def test_renorm_checks_in_pytorch_order(call):
    same_error(lambda: call(mindtorch), lambda: call(torch))


@pytest.mark.parametrize("name", ["cumsum_", "cumprod_"])
@pytest.mark.parametrize("shape", [(3,), (1,), (0,), (), (2, 2)])
def test_inplace_scans_refuse_bool(name, shape):
    def call(L):
        return getattr(L.ones(shape, dtype=L.bool), name)(0)
    same_error(lambda: call(mindtorch), lambda: call(torch))


@pytest.mark.parametrize("out", [
    lambda L: (L.empty(3), L.empty(3, dtype=L.int32)),
    lambda L: (L.empty(3), L.empty(3)),                       # exponent must be int32
    lambda L: (L.empty(3, dtype=L.float64), L.empty(3, dtype=L.int32)),
    lambda L: L.empty(3),                                     # a tuple is required
])
def test_frexp_out_tuple(out):
    same_error(lambda: mindtorch.frexp(mindtorch.ones(3), out=out(mindtorch)),
               lambda: torch.frexp(torch.ones(3), out=out(torch)))
    m_out, t_out = out(mindtorch), out(torch)
    try:
        expected = torch.frexp(torch.tensor([3.0, 0.25, -5.0]), out=t_out)
    except (RuntimeError, TypeError):
        return
    got = mindtorch.frexp(mindtorch.tensor([3.0, 0.25, -5.0]), out=m_out)
    assert got.mantissa is m_out[0] and got.exponent is m_out[1]
    assert_same(tuple(got), tuple(expected))


def test_ieee_edge_cases_stay_silent_after_first_op_in_catch_warnings():
    """inf * 0, inf - inf, ... give nan silently (NumPy's RuntimeWarnings are filtered for
    the kernels), also when the kernels were first loaded inside warnings.catch_warnings()
    (whose exit restores the filters as they were)."""
    import subprocess
    import sys
    code = ("import warnings\nimport mindtorch as torch\n"
            "with warnings.catch_warnings():\n    warnings.simplefilter('ignore')\n"
            "    torch.ones(2) + 1\n"
            "x = torch.tensor([float('inf'), 0.0])\n"
            "print((x * 0).tolist(), (x - x).tolist(), torch.tensor([-1.0]).log().tolist())\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert r.stdout.strip() == "[nan, 0.0] [nan, 0.0] [nan]"


def test_combinations_negative_r_like_torch():
    messages = []
    for lib in (mindtorch, torch):
        with pytest.raises(RuntimeError) as e:
            lib.combinations(lib.tensor([1, 2, 3]), r=-1)
        messages.append(str(e.value))
    assert messages[0] == messages[1]
