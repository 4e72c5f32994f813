"""Regression tests for QA round 11f (complex numbers forward and backward, mindtorch vs
torch: /work/scratch/qa11f/csweep.py), each against torch."""
import numpy as np
import pytest
from reference import same_outcome

torch = pytest.importorskip("torch")


def _complex_leaf(L, shape=(3, 4)):
    a = np.random.default_rng(0).standard_normal(shape + (2,)).view(np.complex128)[..., 0]
    return L.tensor(a).requires_grad_(True)


def _values(t):
    return np.round(np.asarray(t.detach().numpy()), 10).tolist()


# in-place writes through a view of another dtype: .real/.imag of a complex base, or
# view_as_complex of a real base (CopySlices indexed the base in the view's units)
_INPLACE_COMPONENT = {
    "real_mul": lambda L, c: c.real.mul_(3),
    "imag_fill": lambda L, c: c.imag.fill_(1),
    "imag_slice": lambda L, c: c.imag[1:, ::2].mul_(-2),
    "real_of_transposed": lambda L, c: c.t().real.add_(1),
    "view_as_real_slice": lambda L, c: L.view_as_real(c)[:, 1:3].mul_(3),
    "view_as_real_component": lambda L, c: L.view_as_real(c)[..., 1].zero_(),
}


@pytest.mark.parametrize("name", sorted(_INPLACE_COMPONENT))
@pytest.mark.parametrize("reuse_view", [False, True])
def test_inplace_on_real_view_of_complex(name, reuse_view):
    def run(L):
        a = _complex_leaf(L)
        c = a.clone()
        v = _INPLACE_COMPONENT[name](L, c)
        out = (v * v).sum() if reuse_view else (c * c.conj() + c * (1 - 2j)).real.sum()
        return _values(c), _values(L.autograd.grad(out, a)[0])
    same_outcome(run)


def test_inplace_on_complex_view_of_real():
    def run(L):
        a = L.tensor(np.random.default_rng(1).standard_normal((3, 4, 2)), requires_grad=True)
        c = a.clone()
        v = L.view_as_complex(c)
        v[1:].mul_(2j)
        g = L.tensor(np.random.default_rng(2).standard_normal((3, 4, 2)))
        return _values(c), _values(L.autograd.grad(c, a, g)[0])
    same_outcome(run)


@pytest.mark.parametrize("base", [-0.5, -2, 0.0, 3.0, -1 + 1j])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_pow_of_negative_scalar_base_gradient(base, dtype):
    # (-0.5) ** z: the exponent's gradient took the real log of the base (nan)
    def run(L):
        z = L.tensor([1 + 2j, -0.5j, 0j, 2], dtype=getattr(L, dtype), requires_grad=True)
        y = base ** z
        g = L.autograd.grad(y, z, L.full_like(y, 1 - 0.5j).detach())[0]
        # (as text: nan == nan in a list is False)
        return str(np.round(y.detach().numpy(), 5).tolist()), str(np.round(g.numpy(), 4).tolist())
    same_outcome(run)


@pytest.mark.parametrize("dim", [None, 1, (0, 1), (0, 1, 2)])
@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_norm_p_none_is_vector_2_norm(dim, dtype):
    # torch.norm(x, None) raised TypeError comparing None with 0
    def run(L):
        x = L.tensor(np.arange(24.).reshape(2, 3, 4) - 5, dtype=getattr(L, dtype),
                     requires_grad=True)
        y = L.norm(x, None, dim=dim)
        g = L.autograd.grad(y.sum(), x)[0]
        return np.round(y.detach().numpy(), 8).tolist(), np.round(g.numpy(), 8).tolist()
    same_outcome(run)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("exp_complex", [False, True])
def test_ldexp_complex_gradient_is_conjugate(dtype, exp_complex):
    # the formula multiplied by 2**other and the result unconjugated
    def run(L):
        x = L.tensor([1 + 2j, 0.5 - 1j, -3j], dtype=getattr(L, dtype), requires_grad=True)
        y = L.tensor([2 + 1j, 1 - 1j, 0.5 + 0j] if exp_complex else [2 + 0j, -1, 0],
                     dtype=getattr(L, dtype), requires_grad=True)
        o = L.ldexp(x, y)
        gs = L.autograd.grad(o, (x, y), L.tensor([1 - 1j, 2 + 0.5j, -1j], dtype=o.dtype))
        return [np.round(t.detach().numpy(), 4).tolist() for t in (o,) + gs]
    same_outcome(run)


@pytest.mark.parametrize("op", ["adjoint", "mH", "H", "mT", "fn_adjoint"])
@pytest.mark.parametrize("dtype", ["complex128", "float64"])
def test_zero_dim_adjoint_conjugates(op, dtype):
    # a 0-D tensor's adjoint()/mH/H is x.conj() (the warning says so); was x, gradient too
    get = {"adjoint": lambda L, x: x.adjoint(), "mH": lambda L, x: x.mH,
           "H": lambda L, x: x.H, "mT": lambda L, x: x.mT,
           "fn_adjoint": lambda L, x: L.adjoint(x)}[op]

    def run(L):
        import warnings
        x = L.tensor(1 + 2j if dtype == "complex128" else 1.5, dtype=getattr(L, dtype),
                     requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y = get(L, x)
        g = L.autograd.grad(y, x, L.tensor(1 - 3j if dtype == "complex128" else 2.0,
                                           dtype=y.dtype))[0]
        return y.item(), g.item()
    same_outcome(run)


@pytest.mark.parametrize("op", ["adjoint", "fn_adjoint"])
def test_adjoint_of_vector_message(op):
    same_outcome(lambda L: L.tensor([1j]).adjoint() if op == "adjoint"
                 else L.adjoint(L.tensor([1j])))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_sgn_of_infinite_complex(dtype):
    # z / |z| divided the parts apart, as PyTorch: (inf+0j) -> nan+0j (was nan+nanj)
    def run(L):
        inf = float("inf")
        z = L.tensor([complex(inf, 0), complex(-inf, 0), complex(0, inf), complex(0, -inf),
                      complex(inf, inf), 0j, 3 + 4j, complex(float("nan"), 1)],
                     dtype=getattr(L, dtype))
        return str(L.sgn(z).tolist())
    same_outcome(run)


@pytest.mark.parametrize("dtype", ["float32", "complex64"])
@pytest.mark.parametrize("dims", [(0, 2), (0,), (1, 3), None])
def test_sum_of_expanded_single_precision_is_accurate(dtype, dims):
    # a stride-0 (expanded) axis was taken for memory's innermost one and summed naively
    # (repeat's backward of a sum: 55696 for PyTorch's 55740, 8e-4 relative)
    import mindtorch
    v = 0.3716 + (0.1j if dtype == "complex64" else 0)
    res = []
    for L in (mindtorch, torch):
        x = L.tensor(v, dtype=getattr(L, dtype)).expand(1500, 1200).reshape(500, 3, 300, 4)
        res.append(np.asarray((x.sum(dims) if dims else x.sum()).numpy()))
    np.testing.assert_allclose(res[0], res[1], rtol=2e-6)


def test_repeat_backward_single_precision_is_accurate():
    import mindtorch
    res = []
    for L in (mindtorch, torch):
        a = L.ones(3, 4, dtype=L.complex64, requires_grad=True)
        s = a.repeat(500, 300).sum()
        res.append(np.asarray(L.autograd.grad(s, a, L.tensor(0.3716 + 1.2345j))[0].numpy()))
    np.testing.assert_allclose(res[0], res[1], rtol=2e-6)


@pytest.mark.parametrize("op", ["complex", "polar", "polar_bcast", "polar_sq"])
def test_complex_and_polar_nodes(op):
    # one node each (was CloneBackward0, their decomposition's last op); polar's abs gets
    # PyTorch's gradient 0 where abs is 0 (sgn(result)), also in double backward
    fn = {"complex": lambda L, x, t: L.complex(x, t), "polar": lambda L, x, t: L.polar(x, t),
          "polar_bcast": lambda L, x, t: L.polar(x[:, None], t),
          "polar_sq": lambda L, x, t: L.polar(x, t) ** 2}[op]

    def run(L):
        x = L.tensor([1.5, 0.0, -0.5], dtype=L.float64, requires_grad=True)
        t = L.tensor([0.3, 2.0, -1.0], dtype=L.float64, requires_grad=True)
        y = fn(L, x, t)
        g = L.autograd.grad(y, (x, t), L.ones_like(y) * (1 - 2j), create_graph=True)
        gg = L.autograd.grad(g[0].sum() + g[1].sum(), (x, t), allow_unused=True)
        return (y.grad_fn.name(), [np.round(v.detach().numpy(), 8).tolist() for v in g],
                [None if v is None else np.round(v.numpy(), 8).tolist() for v in gg])
    same_outcome(run)


@pytest.mark.parametrize("how", ["method", "function", "fft_ihfft"])
def test_conj_records_conj_backward(how):
    # x.conj() recorded ConjPhysicalBackward0 (mindtorch's conj copies; the node is named
    # as PyTorch's); a real tensor's conj() is itself
    def run(L):
        x = L.tensor([1 + 2j, -0.5j], requires_grad=True)
        y = {"method": lambda: x.conj(), "function": lambda: L.conj(x),
             "fft_ihfft": lambda: L.fft.ihfft(x.real)}[how]()
        g = L.autograd.grad(y, x, L.tensor([1 - 1j, 2 + 0j], dtype=y.dtype))[0]
        r = L.tensor([1.0], requires_grad=True)
        return repr(y), g.tolist(), r.conj() is r, r.conj().grad_fn
    same_outcome(run)


@pytest.mark.parametrize("window", ["hann_window", "hamming_window", "blackman_window",
                                    "bartlett_window", "kaiser_window"])
@pytest.mark.parametrize("dtype", ["complex64", "complex128", "int64"])
@pytest.mark.parametrize("length", [0, 1, 4])
def test_window_of_complex_dtype(window, dtype, length):
    # complex dtypes are taken (ones for lengths 0 and 1) and fail building the ramp, as
    # PyTorch's NotImplementedError (was the floating-point RuntimeError)
    same_outcome(lambda L: repr(getattr(L, window)(length, dtype=getattr(L, dtype))))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("form", ["function", "inplace", "out"])
def test_exp2_of_complex_special_values(dtype, form):
    # exp2(z) is exp(z log 2) with the parts scaled apart (was pow(2., z): inf+nanj at inf)
    def run(L):
        inf, nan = float("inf"), float("nan")
        z = L.tensor([complex(inf, 0), complex(-inf, 0), complex(-inf, inf), complex(0, -0.0),
                      1 + 1j, complex(nan, 0), -3.5 + 2j], dtype=getattr(L, dtype))
        r = {"function": lambda: L.exp2(z), "inplace": lambda: z.clone().exp2_(),
             "out": lambda: L.exp2(z, out=L.empty(7, dtype=z.dtype))}[form]()
        return str(np.round(r.numpy(), 5).tolist())
    same_outcome(run)


_RNN_CONFIGS = {
    "RNN": {}, "RNN_bi_2layers": {"num_layers": 2, "bidirectional": True},
    "LSTM": {}, "LSTM_proj_bi": {"proj_size": 2, "bidirectional": True},
    "GRU": {}, "GRU_2layers": {"num_layers": 2},
}


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("config", sorted(_RNN_CONFIGS))
def test_complex_rnn_gradients(config, dtype):
    # the fused recurrence and the LSTM/GRU cells' backward multiplied the gradients by
    # unconjugated factors: every complex RNN/LSTM/GRU parameter gradient was wrong
    kw = _RNN_CONFIGS[config]

    def run(L):
        L.manual_seed(0)
        m = getattr(L.nn, config.split("_")[0])(3, 4, dtype=getattr(L, dtype), **kw)
        g = np.random.default_rng(3)
        x = L.tensor(g.standard_normal((3, 2, 3)) + 1j * g.standard_normal((3, 2, 3))).to(
            getattr(L, dtype)).requires_grad_()
        out = m(x)[0]  # (PyTorch refuses complex packed sequences in autograd)
        grads = L.autograd.grad((out.abs() ** 2).sum(), [x] + list(m.parameters()))
        return [np.asarray(t.detach().numpy()) for t in (out,) + grads]
    import mindtorch
    rt = 2e-3 if dtype == "complex64" else 1e-9  # (single precision, 2 layers: ~4e-4)
    for a, b in zip(run(mindtorch), run(torch)):
        np.testing.assert_allclose(a, b, rtol=rt, atol=rt)


@pytest.mark.parametrize("cls", ["LSTM", "GRU", "RNN"])
def test_complex_rnn_double_backward(cls):
    def run(L):
        L.manual_seed(0)
        m = getattr(L.nn, cls)(2, 3, dtype=L.complex128)
        g = np.random.default_rng(4)
        x = L.tensor(g.standard_normal((2, 1, 2)) + 1j * g.standard_normal((2, 1, 2)),
                     requires_grad=True)
        gx = L.autograd.grad((m(x)[0].abs() ** 2).sum(), x, create_graph=True)[0]
        return [np.asarray(t.detach().numpy()) for t in
                (gx, L.autograd.grad((gx.abs() ** 2).sum(), x)[0])]
    import mindtorch
    for a, b in zip(run(mindtorch), run(torch)):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("fn", ["abs", "norm1", "norm3", "l1_loss"])
def test_complex_abs_double_backward_at_zero(dtype, fn):
    # |z|'s derivative sgn(z) was where(|z| == 0, 0, z / |z|): its own gradient at 0 was
    # nan (0 * inf through where); the sgn op's backward is 0 there, as PyTorch's
    f = {"abs": lambda L, x: x.abs(), "norm1": lambda L, x: L.linalg.vector_norm(x, 1),
         "norm3": lambda L, x: L.linalg.vector_norm(x, 3),
         "l1_loss": lambda L, x: L.nn.functional.l1_loss(x, L.zeros_like(x))}[fn]

    def run(L):
        x = L.tensor([0j, 3 + 4j, -1e-3j, 2 - 1j], dtype=getattr(L, dtype), requires_grad=True)
        y = f(L, x)
        g = L.autograd.grad(y, x, L.ones_like(y), create_graph=True)[0]
        g2 = L.autograd.grad((g.abs() ** 2 + g.real).sum(), x)[0]
        return str(np.round(g.detach().numpy(), 4).tolist()), str(np.round(g2.numpy(), 3).tolist())
    same_outcome(run)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("form", ["function", "inplace", "strided"])
def test_log1p_of_small_complex_is_accurate(dtype, form):
    # NumPy's complex log1p is log(1 + z): its real part was 0 for log1p(1e-10+1e-10j) in
    # complex64 (PyTorch's: 1e-10); special values as PyTorch's too
    def run(L):
        inf, nan = float("inf"), float("nan")
        z = L.tensor([1e-10 + 1e-10j, 1e-20 + 1e-20j, -1e-8 + 1e-4j, 0.5 + 0.5j, -0.5 + 1j,
                      -1 + 0j, complex(-2, -0.0), complex(-0.0, -0.0), complex(inf, 0),
                      complex(nan, inf), complex(inf, nan), -0.75 + 0.1j],
                     dtype=getattr(L, dtype))
        r = {"function": lambda: L.log1p(z), "inplace": lambda: z.clone().log1p_(),
             "strided": lambda: L.log1p(L.stack([z, z], 1).t())[1]}[form]()
        return [f"{v.real:.6e} {v.imag:.6e}" for v in r.tolist()]
    same_outcome(run)
