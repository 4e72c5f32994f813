"""Tensor API semantics as PyTorch users probe them (QA round 7a regressions): each case is
an expression run with mindtorch and with torch, giving the same value (as a list) or the
same error class and message."""
import math
import warnings

import mindtorch
import pytest
from reference import torch


def _nan_free(v):
    if isinstance(v, (list, tuple)):
        return [_nan_free(x) for x in v]
    return "nan" if isinstance(v, float) and math.isnan(v) else v


def _value(r):
    if hasattr(r, "tolist"):
        return str(r.dtype), tuple(r.shape), _nan_free(r.tolist())
    return r


CASES = [
    # error messages in PyTorch's words (and its order of the broadcast sizes)
    "T.zeros(3, 5).scatter_add(0, T.zeros(1, 1), T.zeros(3, 5))",
    "T.zeros(3, 5).scatter(0, T.zeros(1, 1), 1.0)",
    "T.zeros(3, 5).masked_select(T.ones(2, dtype=T.bool))",
    "T.zeros(2, 5).masked_select(T.ones(3, 1, dtype=T.bool))",
    "T.zeros(3, 5).masked_fill(T.ones(2, dtype=T.bool), 1)",
    "T.zeros(3, 5).masked_fill_(T.ones(2, dtype=T.bool), 1)",
    "T.zeros(3).masked_scatter(T.ones(3, dtype=T.bool), T.ones(3, dtype=T.long))",
    # the cpu kernel PyTorch's dtype errors name
    "T.floor_divide(T.ones(2, dtype=T.bool), T.ones(2, dtype=T.bool))",
    "T.div(T.ones(2, dtype=T.bool), T.ones(2, dtype=T.bool), rounding_mode='floor')",
    "T.div(T.ones(2, dtype=T.bool), T.ones(2, dtype=T.bool), rounding_mode='trunc')",
    "T.div(T.ones(2), T.ones(2, dtype=T.complex64), rounding_mode='floor')",
    "T.bitwise_left_shift(T.ones(2), T.ones(2, dtype=T.long))",
    "T.bitwise_right_shift(T.ones(2, dtype=T.bool), T.ones(2, dtype=T.bool))",
    # 16-bit floats: nextafter steps in the type; xlogy / xlog1py round the log first
    *[f"T.nextafter(T.tensor([0., 1, 3, -5, 7]).to(T.{dt}), T.tensor([2., 2, 1, 2, 7]).to(T.{dt}))"
      for dt in ("float16", "bfloat16")],
    *[f"T.{fn}(T.tensor([0., 1, 7, -5, 3, 0, 2]).to(T.{dt}), "
      f"T.tensor([2., 2, 3, 2, float('nan'), float('nan'), 0]).to(T.{dt}))"
      for fn in ("xlogy", "special.xlog1py") for dt in ("float16", "bfloat16", "float32")],
    "T.xlogy(T.tensor([7, -5]).to(T.bfloat16), 3.0)",
    # ldexp with a complex exponent: 2 ** other in complex
    "T.ldexp(T.tensor([2, 3]), T.tensor([1 + 1j, 2j]))",
    # reductions: nanmean's dtype=, nanmedian's empty-dim message, max/min/prod TypeErrors
    "T.nanmean(T.ones(2, 3), 1, dtype=T.int64)",
    "T.nanmean(T.ones(2, 3), 1, dtype=T.float64)",
    "T.nanmedian(T.empty(0, 3), 0)",
    "T.max(T.ones(2), dim=None)",
    "T.min(T.ones(2), dim=None, keepdim=True)",
    "T.max(T.ones(2), keepdim=True)",
    "T.prod(T.ones(2, 3), (0, 1))",
    "T.prod(T.ones(2, 3), [1])",
    # Python scalars of complex tensors: the real part only when the imaginary part is 0
    "float(T.tensor(1 + 2j))", "int(T.tensor(1 + 2j))", "float(T.tensor(1 + 0j))",
    "int(T.tensor(3 + 0j))", "bool(T.tensor(2j))", "complex(T.tensor(1 + 2j))",
    # a sequence of tensors holding something else
    "T.cat([T.ones(1), [1]])", "T.stack([T.ones(1), None])", "T.cat([[1], [2]])",
    "T.cat(T.ones(2))", "T.index_put(T.zeros(2), (T.tensor([0]), 'a'), T.ones(1))",
    # histogram: the bins' dtype is checked first (C++ type names); the kernel named
    "T.histogram(T.tensor([1, 2]), bins=2)", "T.histogram(T.tensor([1, 2]), bins=T.tensor([0, 1]))",
    "T.histogram(T.tensor([1, 2]), bins=T.tensor([0.0, 1]))",
    "T.histogram(T.tensor([1.0, 2]), bins=T.tensor([0.0, 1]).half())",
    # the argument parser's TypeErrors: numpy dtypes are not dtypes, add's other is a Tensor
    "T.ones(2, dtype=__import__('numpy').dtype('float64'))",
    "T.ones(1).to(__import__('numpy').dtype('float64'))",
    "T.ones(1).to(dtype=5, copy=1, non_blocking=2)", "T.ones(1).to('cpu', 5, copy=1)",
    "T.add(T.ones(1), 'a')", "T.mul(T.ones(1), [1])", "T.add('a', T.ones(1))",
    "T.add(T.ones(1), 1, alpha='a')",
    "T.sort(T.tensor([2, 1]), 0, stable=True)", "T.argsort(T.tensor([2, 1]), 0, stable=True)",
    # round: the kernel named depends on decimals
    "T.round(T.tensor([3]), decimals=0)", "T.round(T.tensor([3]), decimals=-1)",
    "T.round(T.tensor([True]))", "T.round(T.tensor([True]), decimals=1)",
    "T.round(T.tensor([1j]), decimals=0)", "T.round(T.tensor([15]))",
    # clamp with complex bounds; lerp's dtype errors in C++ type names
    "T.clamp(T.ones(2), T.tensor(1j))", "T.clamp(T.ones(2), max=T.tensor([1j, 1j]))",
    "T.clamp(T.ones(2), T.tensor(1j), T.tensor(2j))", "T.clamp(T.ones(2), 1j)",
    "T.clamp(T.ones(2, dtype=T.int32), 1j)", "T.clamp(T.ones(2).half(), 1 + 0j)",
    "T.lerp(T.ones(2, dtype=T.int32), T.ones(2).half(), 0.5)",
    "T.lerp(T.ones(2, dtype=T.uint8), T.ones(2, dtype=T.int8), 0.5)",
    "T.complex(T.tensor([1]), T.tensor([2]))",
]


def test_dof_warning_when_the_output_is_empty():
    for lib in (mindtorch, torch):
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            lib.std(lib.empty(0, 3), 1)   # input numel / max(output numel, 1) = 0
            lib.var(lib.ones(2, 3), 1)    # 3 - 1 > 0: no warning
        assert [str(w.message)[:31] for w in rec] == ["std(): degrees of freedom is <="]


def _outcome(T, text):
    """The value, or the error's class and first line (PyTorch lists its overloads after)."""
    try:
        return _value(eval(text, {"T": T}))
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return type(e).__name__, str(e).split("\n")[0]


@pytest.mark.parametrize("text", CASES)
def test_same_outcome(text):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _outcome(mindtorch, text) == _outcome(torch, text)


@pytest.mark.parametrize("text", [
    "T.nonzero(T.tensor([0., 1, 2]))", "T.argwhere(T.tensor([[0., 1, 2]]))",
    "T.nonzero(T.zeros(2, 3))", "T.nonzero(T.tensor(0.))", "T.nonzero(T.ones(2, 1, 3))",
    "T.unique(T.tensor([[1, 2, 1], [0, 1, 0]]), dim=1)",
    "T.unique_consecutive(T.tensor([[[1, 1, 2]], [[1, 1, 2]]]), dim=2)",
    "T.unique(T.tensor([[1, 2], [1, 2]]), dim=0)",
])
def test_result_layout(text):
    # PyTorch's result strides: nonzero is (n, ndim) with strides (1, n); unique over a
    # dim moves that dim back from the front of a contiguous result
    m, t = eval(text, {"T": mindtorch}), eval(text, {"T": torch})
    assert (m.shape, m.stride(), m.tolist()) == (t.shape, t.stride(), t.tolist())


def test_transpose_deprecations_warn_once_per_message():
    # PyTorch's TORCH_WARN_ONCE: x.T on 0-D and on n != 2 dims are two warnings, each once
    from mindtorch import _warn_once
    _warn_once._seen.difference_update({("Tensor.T", True), ("Tensor.T", False), "Tensor.mH"})
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        for _ in range(2):
            mindtorch.ones(3).T, mindtorch.ones(2, 3, 4).T, mindtorch.tensor(1.0).T
            mindtorch.tensor(1.0).mH
    assert [str(w.message)[:20] for w in rec] == [
        "The use of `x.T` on ", "Tensor.T is deprecat", "Tensor.mH is depreca"]
    assert {w.filename for w in rec} == {__file__}


EXPANDED_WRITES = [  # (PyTorch refuses these in-place writes into an expanded tensor ...)
    "e.scatter_(0, T.tensor([[0, 0, 0]]), 1.0)", "e.scatter_add_(0, T.tensor([[0, 0, 0]]), o)",
    "e.scatter_reduce_(0, T.tensor([[0, 0, 0]]), o, 'sum')",
    "e.index_add_(0, T.tensor([0]), o)", "e.index_copy_(0, T.tensor([0]), o)",
    "e.index_reduce_(0, T.tensor([0]), o, 'prod')",
    "e.masked_scatter_(T.ones(2, 3, dtype=T.bool), T.ones(6))",
    # (... and writes these with a deprecation warning)
    "e.index_put_((T.tensor([0]),), T.tensor(1.0))", "e.index_fill_(0, T.tensor([0]), 1.0)",
    "e.masked_fill_(T.ones(2, 3, dtype=T.bool), 1.0)", "e.__setitem__(T.tensor([0]), 1.0)",
    "e.__setitem__(T.ones(2, 3, dtype=T.bool), 1.0)",
]


@pytest.mark.parametrize("text", EXPANDED_WRITES)
def test_writes_into_an_expanded_tensor(text):
    def run(T):
        env = {"T": T, "e": T.zeros(1, 3).expand(2, 3), "o": T.ones(1, 3)}
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            outcome = _outcome_env(env, text)
        return outcome, [str(w.message)[:40] for w in rec if "beta" not in str(w.message)]
    assert run(mindtorch) == run(torch)


def _outcome_env(env, text):
    try:
        eval(text, env)
        return env["e"].tolist()
    except RuntimeError as e:
        return str(e)


OUT_CASES = [  # out= of factories (made in out's dtype) and of composite ops
    "T.zeros(3, out=T.empty(0, dtype=T.long))", "T.ones(2, 2, out=T.empty(5))",
    "T.arange(3.0, out=T.empty(0, dtype=T.long))", "T.arange(0, 1, 0.3, out=T.empty(0, dtype=T.long))",
    "T.full((2,), 1.5, out=T.empty(0, dtype=T.long))", "T.linspace(0, 1, 3, out=T.empty(0, dtype=T.long))",
    "T.eye(2, out=T.empty(0, dtype=T.long))", "T.logspace(0, 2, 3, out=T.empty(0, dtype=T.long))",
    "T.zeros(2, dtype=T.float64, out=T.empty(0))", "T.zeros(2, out=5)",
    "T.ones(2, out=T.empty(2, requires_grad=True))",
    "T.addcmul(T.ones(3), T.ones(3), T.ones(3), value=2, out=T.empty(0, dtype=T.float64))",
    "T.addcdiv(T.ones(3), T.ones(3), T.ones(3) * 2, out=T.empty(0))",
    "T.index_copy(T.zeros(3), 0, T.tensor([1]), T.ones(1), out=T.empty(0))",
    "T.diff(T.tensor([1.0, 4, 9]), out=T.empty(0))", "T.rad2deg(T.ones(2), out=T.empty(0))",
    "T.norm(T.ones(3), out=T.empty(0))", "T.norm(T.ones(2, 3), dim=0, out=T.empty(0))",
]


@pytest.mark.parametrize("text", OUT_CASES)
def test_out_arguments(text):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _outcome(mindtorch, text) == _outcome(torch, text)


@pytest.mark.parametrize("text", [
    "a.unique()", "a.unique(return_inverse=True)[0]", "T.unique(a.view(1, 3), dim=1)",
    "a.unique_consecutive()"])
def test_unique_backward_error_names_pytorchs_op(text):
    def run(T):
        a = T.tensor([1.0, 2, 2], requires_grad=True)
        with pytest.raises(NotImplementedError) as info:
            eval(text, {"T": T, "a": a}).sum().backward()
        return str(info.value)
    assert run(mindtorch) == run(torch)


@pytest.mark.parametrize("dtype", ["float64", "float32", "bfloat16", "float16"])
@pytest.mark.parametrize("args", [(-1, 1, 0.2), (1, 2.3, 0.1), (0, 1, 0.1), (-5, 5, 0.01),
                                  (-2.5, 7.1, 0.07), (0.1, 0.5, 0.1), (3.3, 100.0, 0.37)])
def test_float_arange_values_bit_for_bit(args, dtype):
    # PyTorch's kernel: fma(step, i, start) in the accumulation type, per AVX2 vector from
    # the vector's base (visible: arange(-1, 1, 0.2)[5] is 5.55e-17, not 0)
    m = mindtorch.arange(*args, dtype=getattr(mindtorch, dtype))
    t = torch.arange(*args, dtype=getattr(torch, dtype))
    assert m.float().tolist() == t.float().tolist()
    assert m.to(mindtorch.float64).tolist() == t.double().tolist()


def test_real_and_imag_assignment_writes_through():
    def run(T):
        z = T.tensor([1j, 2j])
        z.imag = 3
        z.real = T.tensor([5.0, 6.0])
        x = T.tensor([1.0, 2.0])
        x.real = 7
        with pytest.raises(RuntimeError) as info:
            x.imag = 1
        return z.tolist(), x.tolist(), str(info.value)
    assert run(mindtorch) == run(torch)


@pytest.mark.parametrize("text", [
    "c + y", "y + c", "c * y", "T.add(y, c)", "c + y[0]", "y[0] + c", "c - 1",
    "t + c", "c + t", "y + t", "t + y", "a + b", "b + a", "b + b", "T.maximum(b, a)",
    "T.where(c > 0, c, y)", "T.where(c > 0, y, c)", "T.where(y > 0, c, y)",
    "T.where(b > 0, a, 0.0)", "T.where((b > 0)[0], a, b)",
])
def test_binary_result_layout_follows_the_first_operand(text):
    # PyTorch's TensorIterator: the first operand whose strides decide the order wins
    def run(T):
        T.manual_seed(0)
        y = T.randn(2, 3, 4, 5)
        a = T.randn(3, 4)
        env = {"T": T, "y": y, "c": y.contiguous(memory_format=T.channels_last),
               "t": T.randn(2, 3, 5, 4).transpose(2, 3), "a": a, "b": a.t().contiguous().t()}
        r = eval(text, env)
        return r.stride(), r.tolist()
    assert run(mindtorch) == run(torch)
