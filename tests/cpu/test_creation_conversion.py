"""copy_ and .to() between every pair of dtypes (broadcasting, non-contiguous, overlapping
memory), fill_/zero_, clone/contiguous, the dtype helpers, .type() and the new_* methods,
against PyTorch."""
import warnings

import numpy as np
import pytest

from creation_helpers import M, _check, cases, compare, expr
from reference import DTYPES, mt_dtype, th_dtype, to_torch, torch

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning", "ignore::RuntimeWarning",
                                        "ignore::DeprecationWarning")


# -- copy_ and .to() between every pair of dtypes ---------------------------------------

SOURCE_VALUES = {
    "bool": [True, False],
    "uint8": [0, 1, 127, 128, 255],
    "int8": [-128, -1, 0, 1, 127],
    "int16": [-32768, -129, -1, 0, 255, 256, 32767],
    "int32": [-2**31, -70000, -1, 0, 65504, 70000, 2**24 + 1, 2**31 - 1],
    "int64": [-2**63, -2**31 - 1, -1, 0, 2**31, 2**53 + 1, 2**63 - 1],
    "float16": [-65504., -2.5, -1.5, -0.5, -0.0, 0.0, 0.5, 1.5, 2.5, 255., 65504.,
                float("inf"), float("-inf"), float("nan")],
    "bfloat16": [-3e38, -2.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3e38, float("inf"), float("nan")],
    "float32": [-3e38, -300., -129., -2.5, -1.7, -0.5, -0.0, 0.0, 0.1, 0.5, 1.5, 2.5, 127.9,
                255.5, 65519., 65520., 1e10, 3e38, float("inf"), float("-inf"), float("nan")],
    "float64": [-1e300, -2.5, -1.7, -0.5, 0.0, 1e-310, 0.1, 0.5, 1.5, 2.5, 255.9, 3.5e38,
                1e300, float("inf"), float("nan")],
    "complex64": [0j, 1.5 - 2.5j, -1.5 + 1j, 0.5j, 100.25 + 3j, complex("nan+1j"),
                  complex("inf-infj")],
    "complex128": [0j, 1.5 - 2.5j, -1.5 + 1j, 0.5j, 1e300 + 1e300j, complex("nan+1j")],
}


def _defined(value, src, dst):
    """Whether C++ defines converting `value` from src to dst: a float (or complex's real
    part) outside an integer dtype's range, nan or inf, is undefined behaviour and PyTorch's
    result depends on the platform, so such values are left out."""
    if dst == "bool" or not (mt_dtype(dst).kind in "ui" and mt_dtype(src).kind in "fc"):
        return True
    x = value.real if isinstance(value, complex) else value
    info = np.iinfo(dst)
    return x == x and abs(x) != float("inf") and info.min - 1 < x < info.max + 1


def _source(src, dst, layout):
    values = [v for v in SOURCE_VALUES[src] if _defined(v, src, dst)]
    m = M.tensor(values, dtype=mt_dtype(src))
    t = torch.tensor(values, dtype=th_dtype(src))
    if layout == "strided":  # a non-contiguous source of the same values
        m = M.stack([m, m], 1)[:, 1]
        t = torch.stack([t, t], 1)[:, 1]
        assert m.stride() == (2,)
    return m, t


@pytest.mark.parametrize("src", DTYPES)
def test_to_and_copy_every_dtype_pair(src):
    for dst in DTYPES:
        for layout in ("contiguous", "strided"):
            m, t = _source(src, dst, layout)
            want = t.to(th_dtype(dst))
            _check(m.to(mt_dtype(dst)), want)
            # copy_ into a contiguous and into a strided destination
            mdst = M.zeros(len(m), dtype=mt_dtype(dst))
            tdst = torch.zeros(len(t), dtype=th_dtype(dst))
            _check(mdst.copy_(m), tdst.copy_(t))
            mdst = M.zeros(len(m), 2, dtype=mt_dtype(dst))[:, 0]
            tdst = torch.zeros(len(t), 2, dtype=th_dtype(dst))[:, 0]
            _check(mdst.copy_(m), tdst.copy_(t))


@cases("T.zeros(2, 3).copy_(T.tensor([1., 2., 3.]))", "T.zeros(2, 3).copy_(T.tensor(5))",
       "T.zeros(2, 3).copy_(T.ones(3, 2).t())",
       "T.zeros(3, 2).t().copy_(T.arange(6.).reshape(2, 3))",
       "T.zeros(2, 3, dtype=T.int8).copy_(T.arange(3.).reshape(1, 3))",
       "T.zeros(1, 3).copy_(T.ones(1, 3))", "T.zeros(()).copy_(T.tensor(3))",
       "T.zeros(0, 3).copy_(T.ones(3))", "T.zeros(2).copy_(3)",
       "T.zeros(2, dtype=T.int32).copy_(3.7)",
       "T.zeros(2, dtype=T.uint8).copy_(-1)", "T.zeros(2).copy_(1 + 2j)", "T.zeros(2).copy_(True)",
       "T.zeros(2, device='meta').copy_(T.ones(2))", "T.zeros(2, device='meta').copy_(T.ones(1))",
       "T.zeros(3, 2).t().copy_(T.ones(3), non_blocking=True)",
       # errors
       "T.zeros(2, 3).copy_(T.ones(2, 2))", "T.zeros(3).copy_(T.ones(2, 3))",
       "T.zeros(1, 3).copy_(T.ones(2, 3))", "T.zeros(3).copy_(T.ones(1, 3))",
       "T.zeros(3).copy_(T.ones(1, 1, 3))", "T.zeros(()).copy_(T.ones(1))",
       "T.zeros(()).copy_(T.ones(2))", "T.zeros(0).copy_(T.ones(2))",
       "T.zeros(2).copy_(T.ones(2, device='meta'))",
       "T.zeros(2, device='meta').copy_(T.ones(3, device='meta'))",
       "T.zeros(3, device='meta').copy_(T.ones(1, 3, device='meta'))", "T.zeros(2).copy_([1, 2])")
def test_copy_(text):
    compare(expr(text))


# copies within one tensor's memory: torch refuses partial overlaps it can see (dense
# operands) and writes into expanded tensors; exact self-copies are no-ops
OVERLAPS = {
    "shift_right": lambda T, x: x[1:].copy_(x[:-1]),
    "shift_left": lambda T, x: x[:-1].copy_(x[1:]),
    "self": lambda T, x: x.copy_(x),
    "self_view": lambda T, x: x.view(6).copy_(x.view(6)),
    "disjoint_halves": lambda T, x: x[:3].copy_(x[3:]),
    "interleaved": lambda T, x: x[::2].copy_(x[1::2]),
    "transposed_onto_self": lambda T, x: x.view(2, 3).t().copy_(x.view(3, 2)),
    "self_transposed": lambda T, x: x.view(2, 3).copy_(x.view(3, 2).t()),
    "into_expanded": lambda T, x: x[:2].expand(3, 2).copy_(T.ones(3, 2)),
    "into_expanded_broadcast": lambda T, x: x[:3].expand(2, 3).copy_(T.ones(3)),
    "converted_overlap": lambda T, x: x[1:].copy_(x[:-1].to(T.int32)),
    "fill_from_own_element": lambda T, x: x.fill_(x[2]),
    "from_own_element": lambda T, x: x.copy_(x[2]),
    "element_from_self": lambda T, x: x[2].copy_(x),
    "element_from_same_element_1d": lambda T, x: x[2].copy_(x[2:3]),
    "element_from_same_element": lambda T, x: x[2].copy_(x[2]),
}


@pytest.mark.parametrize("case", OVERLAPS)
def test_copy_within_one_tensor(case):
    def run(T):
        x = T.arange(6.0)
        OVERLAPS[case](T, x)
        return x
    compare(run)


# -- fill_ / zero_ / fill --------------------------------------------------------------------

@cases("T.zeros(2).fill_(3)", "T.zeros(2).fill_(T.tensor(3.5))",
       "T.zeros(2, dtype=T.int32).fill_(T.tensor(3.5))", "T.zeros(2, dtype=T.int32).fill_(3.5)",
       "T.zeros(2, dtype=T.uint8).fill_(-1)", "T.zeros(2, dtype=T.uint8).fill_(T.tensor(-1))",
       "T.zeros(2, dtype=T.uint8).fill_(T.tensor(300))",
       "T.zeros(2, dtype=T.float32).fill_(float('inf'))",
       "T.zeros(2, dtype=T.float32).fill_(1 + 0j)", "T.zeros(2, dtype=T.complex64).fill_(1 + 1j)",
       "T.zeros(2, dtype=T.bool).fill_(5)", "T.zeros(2, dtype=T.bool).fill_(0.0)",
       "T.zeros(2).fill_(True)", "T.zeros(2, dtype=T.bfloat16).fill_(0.1)",
       "T.zeros(3, 2).t().fill_(4)", "T.zeros(4)[::2].fill_(4)", "T.zeros(0, 2).fill_(1)",
       "T.zeros(()).fill_(2)", "T.zeros(2, device='meta').fill_(T.tensor(1.))",
       "T.fill_(T.zeros(2), 3)", "T.fill(T.ones(3, 2).t(), 3)",
       "T.fill(T.ones(2, dtype=T.int8), 3.5)",
       "T.zeros(2, dtype=T.int16).zero_()", "T.ones(2, dtype=T.bool).zero_()",
       "T.ones(2, dtype=T.complex64).zero_()", "T.ones(3, 2).t().zero_()", "T.zero_(T.ones(2))",
       "T.ones(2, device='meta').zero_()",
       # errors
       "T.zeros(2, dtype=T.int32).fill_(2**40)", "T.zeros(2, dtype=T.uint8).fill_(256)",
       "T.zeros(2, dtype=T.uint8).fill_(-1.0)", "T.zeros(2, dtype=T.int8).fill_(float('nan'))",
       "T.zeros(2, dtype=T.float16).fill_(1e6)", "T.zeros(2, dtype=T.float32).fill_(1e300)",
       "T.zeros(2, dtype=T.bfloat16).fill_(1e39)", "T.zeros(2, dtype=T.int32).fill_(1 + 1j)",
       "T.zeros(2, dtype=T.int64).fill_(2**63)", "T.zeros(2, dtype=T.int64).fill_(-2**63 - 1)",
       "T.zeros(2).fill_(T.tensor([1.]))", "T.zeros(2, device='meta').fill_(T.ones(2, "
       "device='meta'))", "T.zeros(2).fill_('a')", "T.zeros(2).fill_(None)")
def test_fill_and_zero(text):
    compare(expr(text))


def test_fill_and_copy_bump_the_version_factories_do_not():
    x = M.zeros(2, 3)
    assert x._version == 0 and M.full((2,), 3)._version == 0 and M.ones(2)._version == 0
    x.fill_(1)
    x.copy_(M.ones(3))
    x.zero_()
    assert x._version == 3
    for fresh in (x.clone(), x.t().contiguous(), M.tensor(x), M.zeros_like(x), M.as_tensor(
            x, dtype=M.int8), M.asarray(x, copy=True)):
        assert fresh._version == 0


def test_to_result_has_version_zero():
    x = M.zeros(3)
    assert x.to(M.float64)._version == 0 and x.double()._version == 0


# -- clone / contiguous / .to / helpers / .type / new_* ---------------------------------------

def test_clone_copies_data_and_contiguous_returns_self():
    x = M.arange(6.).reshape(2, 3)
    c = x.clone()
    c.fill_(0)
    assert x.sum().item() == 15 and c.data_ptr() != x.data_ptr()
    assert x.contiguous() is x
    assert x[:, :1].contiguous() is not x  # (2, 1) view with stride (3, 1) is not contiguous
    for view in (x[:1], x.t()[:, :1], x.reshape(3, 1, 2)[:, :, :]):
        assert (view.contiguous() is view) == view.is_contiguous()
    assert x.contiguous(memory_format=M.contiguous_format) is x
    assert M.clone(x.t(), memory_format=M.contiguous_format).is_contiguous()


@cases("x.to(T.float32) is x", "x.to(T.float32, copy=True) is x", "x.to('cpu') is x",
       "x.cpu() is x", "x.float() is x", "x.type(T.float32) is x", "x.clone() is x",
       "x.to(T.float64).data_ptr() == x.data_ptr()", "x.to(T.float64)", "x.to('cpu', T.int16)",
       "x.to(device='cpu', dtype=T.int16)", "x.to(dtype=T.int16)", "x.to(T.device('cpu'))",
       "x.to(T.tensor([1], dtype=T.int8))", "x.to(T.float64, non_blocking=True)",
       "x.to(T.float64, copy=True, non_blocking=True)", "x.to(device=None, dtype=None)",
       "x.to(T.float64, memory_format=T.contiguous_format)", "x.to('meta')",
       "x.to('meta', T.int32)", "x.to('meta').to('cpu')", "x.to('foo')",
       "x.to('cpu', 'cpu')", "x.to(T.tensor([1]), T.float64)",
       "x.to(T.float64, T.contiguous_format)", "x.double()", "x.half()", "x.bfloat16()",
       "x.float()", "x.long()", "x.int()", "x.short()", "x.char()", "x.abs().byte()", "x.bool()",
       "x.cfloat()", "x.cdouble()", "x.type()", "x.type('torch.IntTensor')",
       "x.type('torch.DoubleTensor')", "x.type('torch.BoolTensor')", "x.type(dtype=T.int8)",
       "x.type('torch.FloatTensor') is x", "x.type('IntTensor')", "x.type('int')",
       "x.type('torch.int32')", "x.type('torch.meta.FloatTensor')",
       "x.to('meta').type()", "x.type_as(T.tensor([1], dtype=T.int8))")
def test_to_and_dtype_helpers(text):
    compare(lambda T: eval(text, {"T": T, "x": T.tensor([[1.5, -2.5, 0.0], [3.25, 7.0, -0.5]])}))


@cases("x.to(None)", "x.to(float)", "x.to(int)", "x.to(bool)", "x.to(dtype=float)",
       "x.to(T.float64, True)", "x.to(T.float64, False, True)",
       "x.to('cpu', T.float64, False, True)", "x.to(T.float64, T.int32)",
       "x.to('cpu', None)", "x.type('torch.cuda.FloatTensor')")
def test_to_overloads(text):
    compare(lambda T: eval(text, {"T": T, "x": T.tensor([[1.5, -2.5, 0.0], [3.25, 7.0, -0.5]])}))


@cases("x.t().to('meta')", "x.t().to('meta', T.int32)",
       "x.t().to(T.float64, memory_format=T.contiguous_format)",
       "x.type(T.float64, True)", "x.type('torch.FloatTensor', non_blocking=True)")
def test_to_overloads_pending_tensor_delegation(text):
    compare(lambda T: eval(text, {"T": T, "x": T.tensor([[1.5, -2.5, 0.0], [3.25, 7.0, -0.5]])}))


@pytest.mark.parametrize("text", [
    "x.t().to('meta')", "x.t().to('meta', T.int32)",
    "x.t().to(T.float64, memory_format=T.contiguous_format)", "x.to(None)", "x.to(float)",
    "x.to(int)", "x.to(bool)", "x.to(dtype=float)", "x.to(T.float64, True)",
    "x.to(T.float64, False, True)", "x.to('cpu', T.float64, False, True)",
    "x.to(T.float64, T.int32)", "x.to(T.float64, copy=True)", "x.to(T.tensor([1]))",
    "x.t().to(memory_format=T.contiguous_format)", "x.to('cpu', None)", "x.to(3)",
])
def test_creation_to_implements_torch_overloads(text):
    """_creation.to, which Tensor.to should delegate to, already follows torch."""
    from mindtorch._creation import to
    x = lambda T: T.tensor([[1.5, -2.5, 0.0], [3.25, 7.0, -0.5]])  # noqa: E731

    def run(T):
        env = {"T": T, "x": x(T)}
        if T is M:
            env["x"] = _ToProxy(env["x"], to)
        return eval(text, env)
    compare(run)


class _ToProxy:
    """A tensor whose .to and .t() go through _creation.to (the proposed Tensor.to)."""

    def __init__(self, t, to):
        self._t, self._to = t, to

    def to(self, *args, **kwargs):
        return self._to(self._t, *args, **kwargs)

    def t(self):
        return _ToProxy(self._t.t(), self._to)


@pytest.mark.parametrize("text", [
    "x.type(T.float64, True)", "x.type('torch.FloatTensor', non_blocking=True)",
    "x.type('torch.cuda.FloatTensor')", "x.type(int)", "x.type('torch.IntTensor')", "x.type()",
    "x.type('torch.meta.FloatTensor')"])
def test_creation_type_implements_torch_overloads(text):
    from mindtorch._creation import type_

    class P:
        def __init__(self, t):
            self.t = t

        def type(self, *a, **k):
            return type_(self.t, *a, **k)

    def run(T):
        x = T.tensor([1.5, -2.5])
        return eval(text, {"T": T, "x": P(x) if T is M else x})
    compare(run)


@cases("x.new_empty(2, 3).shape", "x.new_empty((2, 3)).dtype", "x.new_zeros(2, 3)",
       "x.new_zeros((2, 3), dtype=T.int8)", "x.new_ones(2)", "x.new_full((2,), 3.7)",
       "x.new_full((2,), True)", "x.new_tensor([1.5, 2])", "x.new_tensor(np.array([1.5, 2]))",
       "x.new_tensor([1.5, 2], dtype=T.float64)", "x.new_tensor(3)",
       "x.new_zeros(3, device='meta')",
       "x.new_zeros(3, requires_grad=True)", "x.new_zeros(())", "x.new_zeros([])",
       "x.new_empty(-1)", "x.t().new_empty(3, 2).stride()", "x.t().new_zeros(3, 2).stride()",
       "x.new_full(2, 3)", "x.new_empty_strided((2, 3), (1, 2)).stride()",
       "x.float().new_zeros(3, requires_grad=True)", "x.new_full((2,), 300, dtype=T.uint8)",
       "x.to('meta').new_ones(3)", "x.to(T.float16).new_full((2,), 3)")
def test_new_methods(text):
    compare(lambda T: eval(text, {"T": T, "np": np, "x": T.tensor([[1, 2, 3], [4, 5, 6]])}))


@cases("x.new(2, 3).shape", "x.new(2).dtype", "x.new([1.7, 2])", "x.new((1, 2))", "x.new().shape",
       "x.new(T.Size([3])).shape", "x.new(x) is x", "x.new(x).data_ptr() == x.data_ptr()",
       "x.float().new(2).dtype", "x.to('meta').new(2)", "x.new(2, device='cpu').shape",
       "x.new(x.float())", "x.new('a')", "x.new(2, dtype=T.int32)")
def test_legacy_new_method(text):
    # x.new(...): the legacy constructor with x's dtype and device
    compare(lambda T: eval(text, {"T": T, "x": T.tensor([1, 2])}))


@cases("T.Tensor(2, 3).shape", "T.Tensor([1, 2])", "T.Tensor(2, 3).dtype")
def test_legacy_constructor_and_new_ones_keyword(text):
    compare(lambda T: eval(text, {"T": T, "x": T.tensor([1, 2])}))


@cases("T.Tensor()", "T.Tensor(T.Size([2, 3])).shape", "T.tensor([1, 2]).new_ones(size=(2,))",
       "T.tensor([1, 2]).new_zeros(size=(2,))")
def test_legacy_constructor_pending(text):
    compare(lambda T: eval(text, {"T": T}))


def test_complex_to_real_copy_warns_like_torch():
    from mindtorch import _warn_once  # (TORCH_WARN_ONCE: once per process unless reset)
    _warn_once._seen.discard("copy_complex_to_real")
    with pytest.warns(UserWarning, match="discards the imaginary part"):
        M.zeros(2).copy_(M.tensor([1 + 1j, 2j]))
    _warn_once._seen.discard("copy_complex_to_real")
    with pytest.warns(UserWarning, match="discards the imaginary part"):
        M.tensor([1 + 1j]).to(M.int32)


def test_complex_tensor_fill_warns_once_like_torch():
    # fill_ (and x[i] = 0-dim complex tensor) warns as copy_; TORCH_WARN_ONCE: reset it
    from mindtorch import _warn_once
    _warn_once._seen.discard("copy_complex_to_real")
    with pytest.warns(UserWarning, match="discards the imaginary part") as rec:
        x = M.zeros(2, 3)
        x[0] = M.tensor(1 + 2j)
        x.fill_(M.tensor(3 + 2j))
    assert len(rec) == 1 and rec[0].filename == __file__
    assert x.tolist() == [[3.0] * 3] * 2
    with pytest.raises(RuntimeError, match="0-dimension value tensor"):
        M.zeros(2, device="meta").fill_(M.ones(2, device="meta"))


def test_to_torch_roundtrip_of_every_dtype():
    # the reference helper itself: values survive mindtorch -> torch for every dtype
    for dt in DTYPES:
        m = M.tensor([0, 1], dtype=mt_dtype(dt))
        assert str(to_torch(m).dtype) == str(m.dtype)


@pytest.mark.parametrize("call", [lambda L: L.tensor(L.ones(2)),
                                  lambda L: L.tensor([1.0]).new_tensor(L.ones(1)),
                                  lambda L: L.tensor([L.ones(1)]), lambda L: L.tensor([1.5]),
                                  lambda L: L.as_tensor(L.ones(1)), lambda L: L.Tensor(L.ones(1))])
def test_copy_construct_warning_like_torch(call):
    # torch.tensor(t) / t.new_tensor(t) advise detach().clone(), at the caller's line
    def run(L):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call(L)
        return [(str(w.message), w.filename) for w in caught]
    assert run(M) == run(torch)


def test_legacy_constructor_of_a_tensor_aliases_it():
    for dtype in ("float32", "int64"):
        for L in (M, torch):
            a = L.ones(2, dtype=getattr(L, dtype))
            b = L.Tensor(a)
            assert b.data_ptr() == a.data_ptr() and b.dtype == a.dtype


def test_narrowing_casts_keep_shown_warnings_shown_once():
    """Narrowing casts (copy_, setitem of a scalar, as_tensor with a dtype, a reduction's
    accumulator) must not use warnings.catch_warnings: it resets every module's record of
    warnings already shown, so a program's warning repeated on every training step."""
    import mindtorch
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("default")
        for i in range(4):  # (the first round imports the kernels, which add filters once)
            if i:
                warnings.warn("shown once", UserWarning)
            x = mindtorch.zeros(3, dtype=mindtorch.int8)
            x[0] = 1.5
            x.copy_(mindtorch.tensor([1.5, float("nan"), 1e10]))
            mindtorch.zeros(2).copy_(mindtorch.tensor([1 + 2j, 3j]))
            mindtorch.as_tensor(np.array([1.5, 2.5]), dtype=mindtorch.int32)
            mindtorch.as_tensor(np.array([[1 + 1j, 2], [3, 4]]).T, dtype=mindtorch.float64)
            x.sum(dtype=mindtorch.float16)
    assert [str(w.message) for w in rec].count("shown once") == 1
    z = mindtorch.as_tensor(np.array([[1 + 1j, 2j], [3, 0]]).T, dtype=mindtorch.float64)
    assert z.tolist() == [[1.0, 3.0], [0.0, 0.0]]
    assert mindtorch.zeros(2, dtype=mindtorch.bool).copy_(mindtorch.tensor([2j, 0])).tolist() \
        == [True, False]
