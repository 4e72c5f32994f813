"""The cpu backend's fused kernels against PyTorch and against the core's decompositions
they replace: in-place arithmetic writing into self (kernels/inplace.py), nll_loss and its
backward (kernels/loss.py), threshold_backward (kernels/activation.py)."""
import numpy as np
import pytest
import torch

import mindtorch
from mindtorch._ops import OPS
from mindtorch._ops.dispatch import _decomposition
from reference import assert_same, to_torch

RNG = np.random.default_rng(7)
F = mindtorch.nn.functional

# (op, builder of its extra arguments from two tensors y, z of self's dtype, kwargs)
INPLACE = [
    ("add_", lambda y, z: (y,), {}), ("add_", lambda y, z: (y,), {"alpha": -0.37}),
    ("add_", lambda y, z: (2.5,), {"alpha": 3}), ("add_", lambda y, z: (y[:1],), {}),
    ("sub_", lambda y, z: (y,), {"alpha": 0.1}), ("sub_", lambda y, z: (-3,), {}),
    ("mul_", lambda y, z: (y,), {}), ("mul_", lambda y, z: (0.9,), {}),
    ("div_", lambda y, z: (y,), {}), ("div_", lambda y, z: (y,), {"rounding_mode": "floor"}),
    ("div_", lambda y, z: (2,), {}),
    ("addcmul_", lambda y, z: (y, z), {"value": 0.3}), ("addcmul_", lambda y, z: (y, z), {}),
    ("addcdiv_", lambda y, z: (y, z), {"value": -0.01}), ("addcdiv_", lambda y, z: (y, z), {}),
    ("lerp_", lambda y, z: (y, 0.1), {}), ("lerp_", lambda y, z: (y, 0.7), {}),
    ("lerp_", lambda y, z: (y, z), {}),
    ("sqrt_", lambda y, z: (), {}), ("neg_", lambda y, z: (), {}),
]


def _make(lib, a, transposed):
    t = lib.tensor(a.T.copy()).T if transposed else lib.tensor(a)
    return t


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64"])
@pytest.mark.parametrize("case", INPLACE, ids=lambda c: f"{c[0]}{c[2]}")
@pytest.mark.parametrize("transposed", [False, True])
def test_inplace_matches_torch_and_decomposition(case, dtype, transposed):
    name, extra, kwargs = case
    x, y, z = (RNG.standard_normal((4, 5)).astype(dtype) * 3 for _ in range(3))
    scalars = [v for v in (*extra(y, z), *kwargs.values()) if not isinstance(v, np.ndarray)]
    if dtype == "int64" and (name in ("sqrt_", "div_", "addcdiv_", "lerp_") or
                             any(isinstance(v, (float, str)) for v in scalars)):
        return  # PyTorch refuses (or promotes past) an integer self: the fallback's tests
    if name == "sqrt_":
        x = abs(x)
    if name == "addcdiv_" or name == "div_":
        y, z = y + 10, z + 10
    results = []
    for lib in (mindtorch, torch, "decomposition"):
        m = mindtorch if lib == "decomposition" else lib
        self = _make(m, x, transposed)
        args = [m.tensor(v) if isinstance(v, np.ndarray) else v for v in extra(y, z)]
        if lib == "decomposition":
            op = OPS[name]
            rest = [kwargs.get(a.name, a.default) for a in op.schema.args[1 + len(args):]]
            out = _decomposition(op)(self, *args, *rest)
        else:
            version = self._version if lib is torch else self._version
            out = getattr(self, name)(*args, **kwargs)
            assert self._version == version + 1
        assert out is self
        results.append(self)
    mt, th, decomposed = results
    assert_same(mt, th)
    np.testing.assert_array_equal(mt.numpy(), decomposed.numpy())  # the same arithmetic


@pytest.mark.parametrize("dtype", ["float32", "int32", "float64"])
@pytest.mark.parametrize("name", ["neg_", "mul_", "add_", "sqrt_"])
@pytest.mark.parametrize("width", [4, 5])
def test_inplace_on_a_strided_column(name, dtype, width):
    """A (n, 1) column of a wider tensor written in place (numpy 2.4's 4-byte negative
    with out= reads such a column 16 bytes apart as contiguous: neg_ must not use it)."""
    results = []
    for lib in (mindtorch, torch):
        x = lib.arange(1, 4 * width + 1).reshape(4, width).to(getattr(lib, dtype))
        col = x[:, 1:2]
        if name == "sqrt_" and dtype == "int32":
            return
        getattr(col, name)(*(() if name in ("neg_", "sqrt_") else (3,)))
        results.append(x)
    assert_same(*results)


def test_inplace_errors_and_fallbacks_as_torch():
    cases = [
        lambda m: m.ones(3).add_(m.ones(2, 3)),                 # result shape differs
        lambda m: m.ones(3).expand(2, 3).add_(1),               # self overlaps itself
        lambda m: m.ones(3, dtype=m.int64).add_(1.5),           # float into int
        lambda m: m.ones(3).add_(1, alpha=True),                # bool alpha
        lambda m: m.ones(3, dtype=m.int64).add_(1, alpha=0.5),  # float alpha, int self
        lambda m: m.ones(3).lerp_(m.ones(3, dtype=m.float64), 0.5),
    ]
    for case in cases:
        with pytest.raises(Exception) as expected:
            case(torch)
        with pytest.raises(expected.type):
            case(mindtorch)


def test_inplace_promotion_and_aliasing():
    # another dtype operand: computed as the decomposition (promotion, then cast)
    for lib in (mindtorch, torch):
        a = lib.ones(3)
        a.add_(lib.tensor([0.1, 0.2, 0.3], dtype=lib.float64), alpha=2)
        a.mul_(lib.tensor([2, 3, 4]))
        if lib is torch:
            assert_same(mt, a)
        mt = a
    # an operand that is self, or an overlapping view of it
    for lib in (mindtorch, torch):
        b = lib.arange(6.0).reshape(2, 3)
        b.add_(b)
        b[1].add_(b[0])
        if lib is torch:
            assert_same(mb, b)
        mb = b
    # an operand partly overlapping self is refused, as by PyTorch
    for lib in (mindtorch, torch):
        c = lib.arange(6.0)
        with pytest.raises(RuntimeError, match="refer to a single memory location"):
            c[1:].mul_(c[:-1])


def test_inplace_under_autograd_records_as_decomposition():
    w = mindtorch.ones(3, requires_grad=True)
    x = w * 2
    x.add_(w, alpha=3)
    x.sum().backward()
    assert x.grad_fn.name() == "AddBackward0"
    assert w.grad.tolist() == [5.0, 5.0, 5.0]
    with mindtorch.no_grad():
        w.add_(w.grad, alpha=-0.1)  # a leaf that requires grad, under no_grad
    assert w.tolist() == [0.5, 0.5, 0.5]


# -- nll_loss ------------------------------------------------------------------------------

NLL = [
    ((3, 4), [0, 3, 1], {}),
    ((3, 4), [0, -100, 1], {"reduction": "sum"}),
    ((3, 4), [0, 2, 1], {"reduction": "none", "ignore_index": 2}),
    ((3, 4), [0, 3, 1], {"weight": [0.5, 1.0, 2.0, 1.5]}),
    ((3, 4), [0, 3, -100], {"weight": [0.5, 1.0, 2.0, 1.5], "reduction": "none"}),
    ((2, 3, 2, 2), [[[0, 1], [2, 2]], [[1, 0], [0, -100]]], {}),
    ((2, 3, 5), [[0, 1, 2, 2, 1], [1, 0, 0, 2, 2]], {"reduction": "sum"}),
    ((5,), 2, {}),
    ((5,), -100, {}),
    ((0, 4), [], {}),
    ((0, 4), [], {"reduction": "sum"}),
]


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("case", NLL, ids=str)
def test_nll_loss_and_cross_entropy_match_torch(case, dtype):
    shape, target, kwargs = case
    x = RNG.standard_normal(shape).astype(dtype)
    n = int(np.prod(np.shape(target))) if kwargs.get("reduction") == "none" else 1
    grads = [RNG.standard_normal(n).astype(dtype) for _ in range(2)]
    out = {}
    for lib in (mindtorch, torch):
        kw = dict(kwargs)
        if "weight" in kw:
            kw["weight"] = lib.tensor(np.asarray(kw["weight"], dtype))
        t = lib.tensor(np.asarray(target, np.int64))
        results = []
        for fn, g in zip((lib.nn.functional.nll_loss, lib.nn.functional.cross_entropy), grads):
            xl = lib.tensor(x, requires_grad=dtype != "float16")
            loss = fn(xl, t, **kw)
            results.append(loss)
            if dtype != "float16":
                loss.backward(lib.tensor(g.reshape(loss.shape)))
                results.append(xl.grad)
        out[lib] = results
    tol = {"rtol": 2e-3, "atol": 2e-3} if dtype == "float16" else {}
    for m, t in zip(out[mindtorch], out[torch]):
        assert_same(m.detach(), t.detach(), **tol)


def test_nll_loss_errors_as_torch():
    cases = [
        lambda m: m.nn.functional.nll_loss(m.zeros(3, 4), m.tensor([0, 4, 1])),
        lambda m: m.nn.functional.nll_loss(m.zeros(3, 4), m.tensor([0, -1, 1])),
        lambda m: m.nn.functional.nll_loss(m.zeros(3, 4), m.tensor([0, 1])),
        lambda m: m.nn.functional.nll_loss(m.zeros(3, 4), m.tensor([0., 1, 1])),
        lambda m: m.nn.functional.nll_loss(m.zeros(3, 4), m.tensor([0, 1, 1]),
                                           weight=m.ones(3)),
    ]
    for case in cases:
        with pytest.raises(Exception) as expected:
            case(torch)
        with pytest.raises(expected.type) as got:
            case(mindtorch)
        assert str(got.value) == str(expected.value)


def test_threshold_backward_matches_torch():
    x = np.array([1.0, -1.0, np.nan, 0.0, 0.25, 0.5], np.float32)
    g = np.array([1.0, 2.0, 3.0, np.nan, 5.0, np.inf], np.float32)
    for th in (0, 0.25, -2):
        m = OPS["threshold_backward"].call(mindtorch.tensor(g), mindtorch.tensor(x), th)
        t = torch.ops.aten.threshold_backward(torch.tensor(g), torch.tensor(x), th)
        assert_same(m, t)
    # relu's backward goes through it (and keeps the gradient's NaN where the input is > 0)
    for lib in (mindtorch, torch):
        a = lib.tensor(x, requires_grad=True)
        lib.relu(a).backward(lib.tensor(g))
        if lib is torch:
            assert_same(ma, a.grad)
        ma = a.grad
    assert to_torch(ma).shape == (6,)


@pytest.mark.parametrize("name", ["_softmax_backward_data", "_log_softmax_backward_data"])
def test_softmax_backward_ops_checks_and_dtypes_as_torch(name):
    # (grad dtype, output dtype, input_dtype): PyTorch's cpu result is grad's dtype; output
    # of another dtype, the half-to-float case and non-floating grads are refused
    cases = [("float32", "float32", "float64"), ("float64", "float64", "float16"),
             ("float16", "float16", "float32"), ("float32", "complex128", "float32"),
             ("float32", "float64", "float32"), ("float32", "float32", "float16"),
             ("int64", "int64", "int64"), ("bool", "bool", "float32")]
    for g, y, i in cases:
        outcome = []
        for lib, fn in ((torch, getattr(torch.ops.aten, name)), (mindtorch, OPS[name].call),
                        (mindtorch, _decomposition(OPS[name]))):
            args = (lib.ones(3, 4, dtype=getattr(lib, g)), lib.ones(3, 4, dtype=getattr(lib, y)),
                    1, getattr(lib, i))
            try:
                outcome.append(str(fn(*args).dtype))
            except (RuntimeError, NotImplementedError) as e:
                outcome.append((type(e), str(e)))
        assert outcome[0] == outcome[1] == outcome[2], (g, y, i, outcome)
