"""mindtorch.fft against torch.fft: values, dtypes and gradients of every transform (all
norm modes, padding and trimming by n / s, negative and non-contiguous dims, real and
complex inputs), the frequency and shift helpers, errors, and meta inference."""
import itertools

import numpy as np
import pytest

import mindtorch
from reference import assert_same, same_error, to_torch, torch

NORMS = [None, "backward", "forward", "ortho"]
TOL = {"float32": (1e-5, 1e-5), "complex64": (1e-5, 1e-5),
       "float64": (1e-12, 1e-12), "complex128": (1e-12, 1e-12)}
REAL = {"complex64": "float32", "complex128": "float64"}


def _data(shape, dtype, seed=0, transposed=False):
    rng = np.random.default_rng(seed)
    made = shape[::-1] if transposed else shape
    a = rng.standard_normal(made)
    if dtype.startswith("complex"):
        a = a + 1j * rng.standard_normal(made)
    if dtype.startswith(("int", "bool")):
        a = (a * 3).round()
    a = a.astype(dtype)
    m = mindtorch.tensor(a)
    if transposed:
        m = m.permute(tuple(range(len(shape)))[::-1])
    return m


def check(name, x, *args, grad=True, **kwargs):
    """Forward and backward of mindtorch.fft.<name> against torch.fft.<name> on x."""
    t = to_torch(x)
    dtype = str(x.dtype).split(".")[-1]
    rtol, atol = TOL.get(dtype, TOL["float32"])
    grad = grad and (x.dtype.is_floating_point or x.dtype.is_complex)
    if grad:
        x = x.detach().requires_grad_()
        t = t.detach().requires_grad_()
    got = getattr(mindtorch.fft, name)(x, *args, **kwargs)
    want = getattr(torch.fft, name)(t, *args, **kwargs)
    assert_same(got, want, rtol=rtol, atol=atol)
    if not grad:
        return got
    assert got.grad_fn.name() == want.grad_fn.name()
    # a random weighting of the outputs (both parts of complex ones)
    w = np.random.default_rng(1).standard_normal(tuple(want.shape) + (2,) * want.is_complex())
    w = w.astype(REAL.get(str(want.dtype).split(".")[-1], str(want.dtype).split(".")[-1]))
    real = lambda r, lib: lib.view_as_real(r.resolve_conj()) if r.is_complex() else r
    (real(got, mindtorch) * mindtorch.tensor(w)).sum().backward()
    (real(want, torch) * torch.from_numpy(w)).sum().backward()
    assert_same(x.grad, t.grad, rtol=rtol * 10, atol=atol * 10)
    return got


# -- one-dimensional transforms ---------------------------------------------------------------

C2C_R2C = ["fft", "ifft", "rfft", "ihfft", "irfft", "hfft"]


@pytest.mark.parametrize("name", C2C_R2C)
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_one_dim_norms_and_lengths(name, dtype):
    if name in ("rfft", "ihfft") and dtype.startswith("complex"):
        pytest.skip("refused: test_errors")
    for n, norm in itertools.product([None, 3, 5, 8], NORMS):
        check(name, _data((2, 5), dtype), n, -1, norm)
    for n, dim in ((None, 0), (4, -2), (1, 0)):
        check(name, _data((3, 2), dtype, transposed=True), n, dim, "ortho")


@pytest.mark.parametrize("name", C2C_R2C)
def test_one_dim_odd_and_even_outputs(name):
    # c2r outputs of odd and even lengths (the Nyquist term exists or not)
    dtype = "float64" if name in ("rfft", "ihfft") else "complex128"
    for n in (1, 2, 6, 7):
        check(name, _data((4,), dtype), n)
    check(name, _data((2, 3, 4), dtype), n=None, dim=1)


@pytest.mark.parametrize("shape, dims", [((4,), None), ((5,), None), ((3, 4), None),
                                         ((2, 3, 4), None), ((2, 3, 4), (0, 2)), ((4, 6), -1)])
def test_real_input_mirrored_half_signs(shape, dims):
    # a real input's two-sided transform is its one-sided half, then the conjugate mirror
    # of it (PyTorch's fill): the mirrored half's zeros are negative ones (an impulse's)
    x = mindtorch.zeros(shape, dtype=mindtorch.float64)
    x.view(-1)[0] = 1.0
    got = mindtorch.fft.fftn(x, dim=dims)
    want = torch.fft.fftn(to_torch(x), dim=dims)
    assert_same(got, want)
    signs = lambda a: np.signbit(np.stack([a.real, a.imag]))
    assert (signs(got.numpy()) == signs(want.numpy())).all()


@pytest.mark.parametrize("dtype", ["int64", "int32", "bool", "uint8"])
def test_integer_and_bool_inputs_promote(dtype):
    for name in C2C_R2C:
        check(name, _data((6,), dtype), grad=False)
    check("fftn", _data((2, 3), dtype), grad=False)
    check("rfft2", _data((2, 3), dtype), grad=False)


def test_default_dtype_float64():
    old = mindtorch.get_default_dtype()
    mindtorch.set_default_dtype(mindtorch.float64)
    torch.set_default_dtype(torch.float64)
    try:
        check("fft", _data((5,), "int64"), grad=False)
        check("irfft", _data((5,), "int64"), grad=False)
        assert_same(mindtorch.fft.fftfreq(5), torch.fft.fftfreq(5))
    finally:
        mindtorch.set_default_dtype(old)
        torch.set_default_dtype(getattr(torch, str(old).split(".")[-1]))


# -- n-dimensional transforms -----------------------------------------------------------------

ND = ["fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn"]
ND_ARGS = [{}, {"s": (3, 4)}, {"s": (2, -1), "dim": (0, 2)}, {"dim": (-1, 0)},
           {"dim": 1}, {"s": 6}, {"s": (2, 3, 5)}, {"dim": (2, 0, 1), "s": (4, 1, 3)}]


@pytest.mark.parametrize("name", ND)
@pytest.mark.parametrize("dtype", ["float32", "complex128"])
def test_n_dim(name, dtype):
    if name in ("rfftn", "ihfftn") and dtype.startswith("complex"):
        dtype = "float64"
    for kwargs in ND_ARGS:
        check(name, _data((3, 2, 4), dtype), **kwargs)
    for norm in NORMS:
        check(name, _data((3, 4, 2), dtype, transposed=True), dim=(0, 2), norm=norm)


@pytest.mark.parametrize("name", ["fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2"])
def test_two_dim(name):
    dtype = "float64" if name in ("rfft2", "ihfft2") else "complex64"
    check(name, _data((2, 3, 4), dtype))
    check(name, _data((2, 3, 4), dtype), s=(5, 2), norm="forward")
    check(name, _data((2, 3, 4), dtype, transposed=True), dim=(0, -1), norm="ortho")
    check(name, _data((4, 3), "float32"), s=(2, 6), dim=(1, 0))


def test_zero_dim_and_empty_batches():
    check("fftn", _data((), "float32"))
    check("ifftn", _data((), "complex128"))
    # torch's CPU kernels (oneMKL) refuse empty batches
    for name in C2C_R2C:
        x = _data((0, 4), "complex64" if name in ("irfft", "hfft") else "float32")
        same_error(lambda n=name, x=x: getattr(mindtorch.fft, n)(x),
                   lambda n=name, x=x: getattr(torch.fft, n)(to_torch(x)))
    for name in ("rfftn", "irfftn", "fftn"):
        x = _data((2, 0, 3), "complex128" if name == "irfftn" else "float64")
        same_error(lambda n=name, x=x: getattr(mindtorch.fft, n)(x, dim=(0, 2)),
                   lambda n=name, x=x: getattr(torch.fft, n)(to_torch(x), dim=(0, 2)))
        assert getattr(mindtorch.fft, name)(x.to("meta"), dim=(0, 2)).shape == \
            getattr(torch.fft, name)(to_torch(x).to("meta"), dim=(0, 2)).shape


# -- frequencies and shifts -------------------------------------------------------------------

@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
def test_frequencies(name):
    m, t = getattr(mindtorch.fft, name), getattr(torch.fft, name)
    for n, d in itertools.product([0, 1, 2, 5, 8], [1.0, 0.3, -2.0]):
        assert_same(m(n, d), t(n, d), rtol=0, atol=0)
    assert_same(m(7, 0.1, dtype=mindtorch.float64), t(7, 0.1, dtype=torch.float64),
                rtol=0, atol=0)
    assert_same(m(6, d=0.5, dtype=mindtorch.float16), t(6, d=0.5, dtype=torch.float16))
    assert_same(m(4, 0.0), t(4, 0.0))  # 0 * inf: nan, as torch
    r = m(5, requires_grad=True)
    assert r.requires_grad and r.is_leaf
    assert m(3, device="meta").device.type == "meta"
    out = mindtorch.empty(0)
    assert m(4, out=out) is out and out.shape == (t(4).shape[0],)
    for bad in (lambda lib: getattr(lib.fft, name)(4, dtype=lib.int64),
                lambda lib: getattr(lib.fft, name)(-1)):
        same_error(lambda bad=bad: bad(mindtorch), lambda bad=bad: bad(torch))
    with pytest.raises(RuntimeError, match="fftfreq requires a floating point or complex"):
        m(4, dtype=mindtorch.int32)


@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
def test_shifts(name):
    for shape, dim in (((5,), None), ((4, 5), None), ((4, 5), 1), ((3, 4, 5), (0, -1)),
                       ((3, 4, 5), (-2,))):
        check(name, _data(shape, "float64"), dim=dim)
    check(name, _data((3, 4), "complex64", transposed=True), dim=0)
    check(name, _data((4, 5), "int64"), grad=False)
    x = _data((4, 6), "float32")
    inverse = {"fftshift": "ifftshift", "ifftshift": "fftshift"}[name]
    assert_same(getattr(mindtorch.fft, inverse)(getattr(mindtorch.fft, name)(x)), to_torch(x),
                rtol=0, atol=0)


# -- errors, out=, meta -----------------------------------------------------------------------

def _errors(lib):
    f = lib.fft
    x, c = lib.ones(3, 4), lib.ones(3, 4, dtype=lib.complex64)
    return [
        ("Unsupported dtype Half", lambda: f.fft(x.half())),
        ("Unsupported dtype BFloat16", lambda: f.rfft(x.bfloat16())),
        ("Unsupported dtype Half", lambda: f.fft(lib.ones(3).half(), dim=5)),
        ("Dimension out of range", lambda: f.fftn(lib.ones(3).half(), dim=5)),
        ("rfft expects a real input tensor, but got ComplexFloat", lambda: f.rfft(c)),
        ("ihfft expects a real input tensor, but got ComplexFloat", lambda: f.ihfft(c)),
        ("rfftn expects a real-valued input tensor", lambda: f.rfftn(c)),
        ("rfftn expects a real-valued input tensor", lambda: f.rfft2(c)),
        ("Only supports floating-point dtypes, but found: ComplexFloat", lambda: f.ihfftn(c)),
        ("Dimension out of range", lambda: f.fft(x, dim=2)),
        ("Dimension out of range", lambda: f.fft(x, n=0, dim=4)),
        ("Dimension out of range", lambda: f.fft2(lib.ones(3))),
        ("Dimension specified as -1 but tensor has no dimensions",
         lambda: f.fft(lib.tensor(1.0))),
        ("Invalid number of data points \\(0\\) specified", lambda: f.fft(x, n=0)),
        ("Invalid number of data points \\(-1\\) specified", lambda: f.ifft(c, n=-1)),
        ("Invalid number of data points \\(0\\) specified", lambda: f.fft(lib.zeros(0))),
        ("Invalid number of data points \\(0\\) specified", lambda: f.irfft(lib.ones(1))),
        ("Invalid number of data points \\(0\\) specified", lambda: f.irfftn(x, s=(2, 0))),
        ("Invalid number of data points \\(0\\) specified", lambda: f.irfftn(lib.ones(3, 1))),
        ("Invalid number of data points \\(0\\) specified", lambda: f.fftn(x, s=(2, 0))),
        ('Invalid normalization mode: "foo"', lambda: f.fft(x, norm="foo")),
        ('Invalid normalization mode: ""', lambda: f.irfft2(c, norm="")),
        ("dim and shape arguments must have the same length",
         lambda: f.fftn(x, s=(2,), dim=(0, 1))),
        ("Got shape with 3 values but input tensor only has 2 dimensions",
         lambda: f.fftn(x, s=(2, 3, 4))),
        ("FFT dims must be unique", lambda: f.fftn(x, dim=(0, -2))),
        ("rfftn must transform at least one axis", lambda: f.rfftn(lib.tensor(1.0))),
        ("irfftn must transform at least one axis", lambda: f.irfftn(lib.tensor(1.0))),
        ("`shifts` required", lambda: f.fftshift(lib.tensor(1.0))),
        ("`shifts` required", lambda: f.ifftshift(x, dim=())),
        ("Dimension out of range", lambda: f.ifftshift(x, dim=(2,))),
        ("must be int, not float", lambda: f.fft(x, n=2.0)),
        ("must be int, not tuple", lambda: f.fft(x, dim=(0,))),
    ]


def test_errors():
    for (msg, m), (_, t) in zip(_errors(mindtorch), _errors(torch)):
        same_error(m, t)
        with pytest.raises(Exception, match=msg):
            m()


def test_out():
    x = _data((3, 4), "float32")
    out = mindtorch.empty(3, 4, dtype=mindtorch.complex64)
    r = mindtorch.fft.fft(x, out=out)
    assert r is out
    assert_same(out, torch.fft.fft(to_torch(x)))
    out = mindtorch.empty(0, dtype=mindtorch.float64)
    mindtorch.fft.irfftn(_data((3, 4), "complex128"), out=out)
    assert_same(out, torch.fft.irfftn(to_torch(_data((3, 4), "complex128"))))


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2",
                                  "ifftn", "rfftn", "irfft2", "hfftn", "ihfft2", "fftfreq",
                                  "rfftfreq"])
def test_out_dtypes(name):
    # torch's out= rules: complex results want a complex out, real ones a floating out
    # (any width: the result is cast), a conjugated result (ifft / ihfft of real input) its
    # own dtype; fftfreq computes in out's dtype
    for inp, out in itertools.product(["float32", "complex128"], ["float32", "float64",
                                      "complex64", "complex128", "int64", "float16"]):
        results = []
        for lib in (mindtorch, torch):
            x = lib.arange(24.).reshape(4, 6).to(getattr(lib, inp))
            o = lib.empty(0, dtype=getattr(lib, out))
            fn = getattr(lib.fft, name)
            try:
                r = fn(5, 0.3, out=o) if "freq" in name else fn(x, out=o)
                assert r is o
                results.append(o)
            except Exception as e:
                results.append(e)
        got, want = results
        if isinstance(want, Exception):
            assert type(got) is type(want) and str(got) == str(want), (inp, out, got)
        else:
            assert_same(got, want, rtol=1e-3 if out == "float16" else 1e-5, atol=1e-3)


def test_meta_matches_cpu():
    for name in C2C_R2C + ND + ["fft2", "rfft2", "irfft2", "hfft2", "ihfft2"]:
        dtype = "float64" if name in ("rfft", "ihfft", "rfftn", "ihfftn", "rfft2",
                                      "ihfft2") else "complex64"
        x = _data((3, 2, 5), dtype)
        for args in ({}, {"dim": 0} if name[-1] not in "n2" else {"s": (4, 3)}):
            cpu = getattr(mindtorch.fft, name)(x, **args)
            meta = getattr(mindtorch.fft, name)(x.to("meta"), **args)
            assert meta.device.type == "meta"
            assert (meta.shape, meta.dtype) == (cpu.shape, cpu.dtype), name
    with pytest.raises(RuntimeError, match="Unsupported dtype Half"):
        mindtorch.fft.fft(mindtorch.ones(3, device="meta", dtype=mindtorch.float16))
    y = mindtorch.ones(4, 3, device="meta", requires_grad=True)
    mindtorch.fft.rfft2(y).abs().sum().backward()
    assert y.grad.shape == (4, 3) and y.grad.device.type == "meta"


def test_double_backward():
    x = _data((6,), "float64").requires_grad_()
    t = to_torch(x).requires_grad_()
    gm, = mindtorch.autograd.grad(mindtorch.fft.rfft(x).abs().pow(2).sum(), x,
                                  create_graph=True)
    gt, = torch.autograd.grad(torch.fft.rfft(t).abs().pow(2).sum(), t, create_graph=True)
    assert_same(gm, gt)
    assert_same(mindtorch.autograd.grad(gm.sin().sum(), x)[0],
                torch.autograd.grad(gt.sin().sum(), t)[0])


def test_public_names():
    names = {"fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2",
             "irfft2", "rfftn", "irfftn", "hfft", "ihfft", "hfft2", "ihfft2", "hfftn",
             "ihfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift"}
    assert names <= set(dir(mindtorch.fft))
    import torch.fft
    assert set(mindtorch.fft.__all__) == set(torch.fft.__all__)
    assert mindtorch.fft.Tensor is mindtorch.Tensor
    scope = {}
    exec("from mindtorch.fft import *", scope)
    assert set(torch.fft.__all__) <= set(scope)
    assert mindtorch.fft.fft.__name__ == "fft"
    with pytest.raises(AttributeError):
        mindtorch.fft.nonexistent  # noqa: B018


def test_c2r_of_a_full_length_input_has_a_gradient():
    # (torch's formula returns the onesided length there, which its engine refuses)
    re, im = (_data((2, 6), "float64", seed).requires_grad_() for seed in (1, 2))
    assert mindtorch.autograd.gradcheck(
        lambda a, b: mindtorch._fft_c2r(mindtorch.complex(a, b), [1], 1, 6), (re, im))


@pytest.mark.parametrize("name, kwargs", [
    ("fft", {"dim": 0}), ("rfft", {"dim": 1}), ("irfft", {"dim": 0}), ("hfft", {"dim": 2}),
    ("fftn", {"dim": (2, 0)}), ("rfftn", {"dim": (0, 3, 1)}), ("irfftn", {"dim": (0, 1, 3)}),
    ("ihfftn", {"dim": (1, 3, 0)}), ("fft2", {}), ("irfft2", {"s": (3, 4)})])
def test_result_layout(name, kwargs):
    # torch's CPU results: untransformed dims outermost in the input's stride order, then
    # the transformed ones (strides of size-1 dims not compared: conjugation relays them)
    for perm in ((0, 1, 2, 3), (3, 1, 0, 2), (2, 3, 0, 1)):
        for dtype in ("float32", "complex64"):
            if dtype == "complex64" and name in ("rfft", "rfftn", "ihfftn"):
                continue
            x = _data((3, 4, 5, 6), dtype).permute(perm)
            got = getattr(mindtorch.fft, name)(x, **kwargs)
            want = getattr(torch.fft, name)(to_torch(x), **kwargs)
            assert got.stride() == want.stride(), (perm, dtype)
