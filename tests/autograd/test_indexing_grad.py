"""Gradients of the indexing ops (gathers, scatters, masks, advanced indexing, reorderings)
and of the copies, fills and random samplers, against PyTorch's."""
import numpy as np
import pytest
import torch

import mindtorch
from gradutil import check_gradgrad, check_grads, const, nc, randn
from reference import assert_same


def I(*rows):  # noqa: E743 - an index tensor that does not require grad
    return const(np.array(rows[0] if len(rows) == 1 else rows))


def mask(*shape, seed=3):
    return const(np.random.default_rng(seed).standard_normal(shape) > 0)


SC_INDEX = I([0, 1, 2, 0], [2, 0, 1, 1])  # no repeats down a column: scatter is well defined
ADD_INDEX = I([0, 1, 2, 0], [0, 0, 1, 1])  # repeats: sums


def _setitem(index):
    def fn(m, x, w, *idx):
        y = x * 1
        y[index(*idx)] = w
        return y
    return fn


def _inplace(method, args=(), **kwargs):
    """The in-place method on a non-leaf copy of x; args: a tuple, or a function of the
    other tensors giving one."""
    def fn(m, x, *tensors):
        y = x * 1
        getattr(y, method)(*(args(*tensors) if callable(args) else args), **kwargs)
        return y
    return fn


# id -> (fn(module, *tensors), specs..., options for check_grads)
CASES = {
    # advanced indexing through Tensor.__getitem__ (the index op)
    "getitem_repeated": (lambda m, x, i: x[i], randn(3, 4), I([0, 2, 0])),
    "getitem_2d_index": (lambda m, x, i: x[:, i], nc(randn(3, 4)), I([1, 3], [0, 0])),
    "getitem_slice_index": (lambda m, x, i: x[1:3, i], randn(4, 4), I([1, 3, 1])),
    "getitem_apart": (lambda m, x, i, j: x[i, :, j], randn(3, 2, 4), I([0, 2]), I([1, 1])),
    "getitem_none": (lambda m, x, i: x[None, ..., i], randn(2, 3), I([2, 0])),
    "getitem_negative": (lambda m, x, i: x[i], randn(3), I([-1, 0, -1])),
    "getitem_empty": (lambda m, x, i: x[i], randn(3, 2), const(np.zeros(0, np.int64))),
    "getitem_mask": (lambda m, x, k: x[k], randn(3, 4), mask(3, 4), {"meta": False}),
    "getitem_mask_rows": (lambda m, x, k: x[k], randn(3, 4), mask(3), {"meta": False}),
    "getitem_int32": (lambda m, x, i: x[i], randn(3), const([2, 2], "int32")),
    "getitem_float32": (lambda m, x, i: x[i], randn(3, 2), I([1, 1]), {"dtype": "float32"}),
    # index_put: self's gradient is zero where values were written (unless accumulating)
    "index_put": (lambda m, x, v, i: x.index_put((i,), v), randn(3, 4), randn(4), I([2, 0])),
    "index_put_repeated": (lambda m, x, v, i: x.index_put((i,), v), randn(3), randn(2),
                           I([1, 1]), {"gradcheck": False}),  # (only one write survives)
    "index_put_accumulate": (lambda m, x, v, i: x.index_put((i,), v, accumulate=True),
                             randn(3, 4), nc(randn(3, 4)), I([0, 2, 0])),
    "index_put_2idx": (lambda m, x, v, i, j: x.index_put((i, j), v), randn(3, 4), randn(2),
                       I([0, 2]), I([3, 3])),
    "index_put_mask": (lambda m, x, v, k: x.index_put((k,), v), randn(3, 4), randn(),
                       mask(3, 4), {"meta": False}),
    "index_put_0dim": (lambda m, x, v, i: x.index_put((i,), v), randn(3), randn(), I(1)),
    "index_put__nonleaf": (_inplace("index_put_", lambda v, i: ((i,), v), accumulate=True),
                           randn(3, 2), randn(2, 2), I([1, 1])),
    # assignment into a non-leaf
    "setitem_int": (_setitem(lambda: 0), randn(3, 4), randn(4)),
    "setitem_slice": (_setitem(lambda: (slice(None), slice(1, 3))), randn(3, 4), randn(3, 1)),
    "setitem_index": (_setitem(lambda i: i), randn(3, 4), randn(4), I([2, 0])),
    "setitem_slice_index": (_setitem(lambda i: (slice(0, 2), i)), randn(3, 4), randn(2, 1),
                            I([3, 1])),
    "setitem_mask": (_setitem(lambda k: k), randn(3, 4), randn(), mask(3, 4),
                     {"meta": False}),
    # gathers
    "index_select": (lambda m, x, i: x.index_select(1, i), nc(randn(3, 4)), I([0, 3, 0])),
    "index_select_0dim": (lambda m, x, i: x.index_select(0, i), randn(), I([0])),
    "index_select_empty": (lambda m, x, i: x.index_select(0, i), randn(3, 2),
                           const(np.zeros(0, np.int64))),
    "gather": (lambda m, x, i: x.gather(1, i), nc(randn(3, 4)), I([0, 1, 1], [3, 2, 0])),
    "gather_dim0": (lambda m, x, i: x.gather(-2, i), randn(3, 4), I([[2, 2]])),
    "gather_0dim": (lambda m, x, i: x.gather(0, i), randn(), I(0)),
    "take": (lambda m, x, i: x.take(i), nc(randn(3, 4)), I([0, -1], [5, 0])),
    "take_along_dim": (lambda m, x, i: m.take_along_dim(x, i, 1), randn(3, 4),
                       I([[0], [3], [3]])),
    "take_along_dim_flat": (lambda m, x, i: m.take_along_dim(x, i), randn(2, 3), I([5, 0, 5])),
    "take_along_dim_bcast": (lambda m, x, i: m.take_along_dim(x, i, 0), randn(3, 1),
                             I([[2, 0, 0]])),
    # scatters
    "scatter_src": (lambda m, x, s, i: x.scatter(0, i, s), randn(3, 4), randn(2, 4), SC_INDEX),
    "scatter_value": (lambda m, x, i: x.scatter(0, i, 1.5), nc(randn(3, 4)), SC_INDEX),
    "scatter_dim1": (lambda m, x, s, i: x.scatter(1, i, s), randn(2, 3), randn(2, 2),
                     I([2, 0], [1, 2])),
    "scatter__nonleaf": (_inplace("scatter_", lambda s, i: (0, i, s)), randn(3, 4), randn(2, 4),
                         SC_INDEX),
    "scatter_add": (lambda m, x, s, i: x.scatter_add(0, i, s), randn(3, 4), nc(randn(2, 4)),
                    ADD_INDEX),
    "scatter_add_0dim": (lambda m, x, s, i: x.scatter_add(0, i, s), randn(), randn(), I(0)),
    "scatter_add__nonleaf": (_inplace("scatter_add_", lambda s, i: (0, i, s)), randn(3, 4),
                             randn(2, 4), ADD_INDEX),
    "put": (lambda m, x, s, i: x.put(i, s), randn(2, 3), randn(2), I([4, -6])),
    "put_accumulate": (lambda m, x, s, i: x.put(i, s, accumulate=True), nc(randn(2, 3)),
                       randn(3), I([4, 0, 4])),
    "index_fill": (lambda m, x, i: x.index_fill(1, i, -1.0), randn(3, 4), I([0, 2])),
    "index_fill_tensor": (lambda m, x, v, i: x.index_fill(0, i, v), randn(3, 4), randn(),
                          I([1])),
    "index_add": (lambda m, x, s, i: x.index_add(0, i, s), randn(3, 4), randn(2, 4), I([1, 1])),
    "index_add_alpha": (lambda m, x, s, i: x.index_add(1, i, s, alpha=2.5), nc(randn(3, 4)),
                        randn(3, 2), I([3, 0])),
    "index_add__nonleaf": (_inplace("index_add_", lambda s, i: (0, i, s)), randn(3, 4),
                           randn(2, 4), I([2, 2])),
    "index_copy": (lambda m, x, s, i: x.index_copy(0, i, s), randn(3, 4), randn(2, 4),
                   I([2, 0])),
    "index_copy_dim1": (lambda m, x, s, i: x.index_copy(1, i, s), randn(2, 3), nc(randn(2, 1)),
                        I([1])),
    "masked_scatter": (lambda m, x, s, k: x.masked_scatter(k, s), randn(3, 4), randn(14),
                       mask(3, 4), {"meta": False}),
    "masked_scatter_bcast": (lambda m, x, s, k: x.masked_scatter(k, s), randn(4), randn(3, 4),
                             mask(3, 4), {"meta": False}),
    "select_scatter": (lambda m, x, s: x.select_scatter(s, 1, -1), randn(3, 4), randn(3)),
    "slice_scatter": (lambda m, x, s: x.slice_scatter(s, 1, 1, None, 2), randn(3, 4),
                      randn(3, 2)),
    "slice_scatter_dim0": (lambda m, x, s: m.slice_scatter(x, s, end=2), nc(randn(3, 4)),
                           randn(2, 4)),
    "diagonal_scatter": (lambda m, x, s: x.diagonal_scatter(s, 1), randn(3, 4), randn(3)),
    "diagonal_scatter_dims": (lambda m, x, s: x.diagonal_scatter(s, -1, 2, 0),
                              randn(2, 3, 2), randn(3, 1)),
    "narrow_copy": (lambda m, x: x.narrow_copy(1, 1, 2), nc(randn(3, 4))),
    # masks
    "masked_fill_scalar": (lambda m, x, k: x.masked_fill(k, 2.0), randn(3, 4), mask(4)),
    "masked_fill_tensor": (lambda m, x, v, k: x.masked_fill(k, v), randn(3, 4), randn(),
                           mask(3, 4)),
    "masked_fill_bcast_self": (lambda m, x, v, k: x.masked_fill(k, v), randn(1, 4), randn(),
                               mask(3, 4)),
    "masked_fill_0dim": (lambda m, x, k: x.masked_fill(k, 0.5), randn(), const(True)),
    "masked_fill_empty": (lambda m, x, k: x.masked_fill(k, 0.5), randn(0, 3), mask(0, 3)),
    "masked_fill_float32": (lambda m, x, v, k: x.masked_fill(k, v), nc(randn(2, 3)), randn(),
                            mask(2, 3), {"dtype": "float32"}),
    "masked_fill__nonleaf": (_inplace("masked_fill_", lambda v, k: (k, v)), randn(3, 4),
                             randn(), mask(4)),
    "masked_select": (lambda m, x, k: x.masked_select(k), nc(randn(3, 4)), mask(3, 4),
                      {"meta": False}),
    "masked_select_bcast": (lambda m, x, k: m.masked_select(x, k), randn(1, 4), mask(3, 4),
                            {"meta": False}),
    # reorderings
    "flip": (lambda m, x: x.flip(0, -1), nc(randn(3, 4))),
    "flip_0dim": (lambda m, x: x.flip(()), randn()),
    "fliplr": (lambda m, x: x.fliplr(), randn(3, 2)),
    "flipud": (lambda m, x: m.flipud(x), randn(3, 2)),
    "roll": (lambda m, x: x.roll((1, -1), (0, 1)), randn(3, 4)),
    "roll_flat": (lambda m, x: x.roll(5), nc(randn(3, 4))),
    "roll_empty": (lambda m, x: x.roll(1, 0), randn(0, 2)),
    "rot90": (lambda m, x: x.rot90(), randn(3, 4)),
    "rot90_k2": (lambda m, x: m.rot90(x, 2, (1, 2)), randn(2, 3, 2)),
    "rot90_k3": (lambda m, x: x.rot90(-1, (1, 0)), nc(randn(3, 4))),
    # copies and fills (creation.py)
    "clone": (lambda m, x: x.clone(), nc(randn(3, 4))),
    "contiguous": (lambda m, x: x.t().contiguous(), randn(3, 4)),
    "fill": (lambda m, x, v: m.fill(x, v), randn(3, 4), randn()),
    "fill__tensor_nonleaf": (_inplace("fill_", lambda v: (v,)), randn(3, 2), randn()),
    "fill__scalar_nonleaf": (_inplace("fill_", (2.0,)), randn(3, 2)),
    "zero__nonleaf": (_inplace("zero_"), randn(3)),
    "copy__view": (lambda m, x, s: (lambda y: (y[1:].copy_(s), y)[1])(x * 1), randn(3, 2),
                   randn(2)),
}


def _reductions():
    cases = {}
    src = randn(2, 4)
    src[0, 1] = 0.0  # a zero in a product
    for reduce in ("sum", "mean", "prod", "amax", "amin"):
        for include_self in (True, False):
            cases[f"scatter_reduce_{reduce}_{include_self}"] = (
                lambda m, x, s, i, r=reduce, k=include_self:
                x.scatter_reduce(0, i, s, r, include_self=k),
                randn(3, 4), src, ADD_INDEX)
        if reduce != "sum":
            cases[f"index_reduce_{reduce}"] = (
                lambda m, x, s, i, r=reduce: x.index_reduce(0, i, s, r), randn(3, 4), src,
                I([2, 2]))
            cases[f"index_reduce_{reduce}_excl"] = (
                lambda m, x, s, i, r=reduce: x.index_reduce(1, i, s, r, include_self=False),
                nc(randn(4, 3)), randn(4, 2), I([0, 0]))
    cases["scatter_reduce_mean_empty_row"] = (
        lambda m, x, s, i: x.scatter_reduce(1, i, s, "mean", include_self=False),
        randn(2, 3), randn(2, 1), I([[0], [2]]))
    cases["scatter_reduce__nonleaf"] = (
        _inplace("scatter_reduce_", lambda s, i: (0, i, s, "amax")), randn(3, 4), src,
        ADD_INDEX)
    return cases


CASES.update(_reductions())


@pytest.mark.filterwarnings("ignore:index_reduce")
@pytest.mark.parametrize("name", list(CASES))
def test_grads(name):
    fn, *specs = CASES[name]
    options = specs.pop() if isinstance(specs[-1], dict) else {}
    check_grads(fn, *specs, **options)


GRADGRAD = ["getitem_repeated", "getitem_slice_index", "index_put", "index_put_accumulate",
            "index_select", "gather", "scatter_src", "scatter_add", "masked_fill_tensor",
            "take", "flip", "roll", "select_scatter", "slice_scatter", "setitem_index",
            "scatter_reduce_sum_False", "index_add"]


@pytest.mark.parametrize("name", GRADGRAD)
def test_gradgrad(name):
    fn, *specs = CASES[name]
    if isinstance(specs[-1], dict):
        specs.pop()
    check_gradgrad(fn, *specs)


def _node(module, fn, *arrays):
    x = module.tensor(np.asarray(arrays[0]), dtype=module.float64, requires_grad=True)
    rest = [module.tensor(np.asarray(a)) for a in arrays[1:]]
    return type(fn(module, x, *rest).grad_fn).__name__


NODES = {
    "index": (lambda m, x, i: x[i], randn(3), [0, 0]),
    "index_mask": (lambda m, x, k: x[k], randn(3), [True, False, True]),
    "index_put_": (lambda m, x, i: (x * 1).index_put_((i,), x[:1]), randn(3),
                   [2]),
    "setitem": (lambda m, x, i: (lambda y: (y.__setitem__(i, 1.0), y)[1])(x * 1), randn(3),
                [2]),
    "gather": (lambda m, x, i: x.gather(0, i), randn(3), [2]),
    "scatter": (lambda m, x, i: x.scatter(0, i, x[:1]), randn(3), [2]),
    "scatter_add": (lambda m, x, i: x.scatter_add(0, i, x[:1]), randn(3), [2]),
    "scatter_reduce_": (lambda m, x, i: (x * 1).scatter_reduce_(0, i, x[:1], "sum"),
                        randn(3), [2]),
    "index_select": (lambda m, x, i: x.index_select(0, i), randn(3), [2]),
    "masked_fill": (lambda m, x, k: x.masked_fill(k, 0.0), randn(3), [True, False, True]),
    "masked_fill_": (lambda m, x, k: (x * 1).masked_fill_(k, 0.0), randn(3),
                     [True, False, True]),
    "masked_select": (lambda m, x, k: x.masked_select(k), randn(3), [True, False, True]),
    "take": (lambda m, x, i: x.take(i), randn(3), [2]),
    "take_along_dim": (lambda m, x, i: m.take_along_dim(x, i, 0), randn(3), [2]),
    "flip": (lambda m, x: x.flip(0), randn(3)),
    "fliplr": (lambda m, x: x.fliplr(), randn(2, 2)),
    "roll": (lambda m, x: x.roll(1), randn(3)),
    "rot90": (lambda m, x: x.rot90(), randn(2, 2)),
    "select_scatter": (lambda m, x: x.select_scatter(x[0], 0, 1), randn(3)),
    "index_add": (lambda m, x, i: x.index_add(0, i, x[:1]), randn(3), [2]),
    "clone": (lambda m, x: x.clone(), randn(3)),
    "contiguous": (lambda m, x: x.expand(2, 3).contiguous(), randn(3)),
    "fill": (lambda m, x: m.fill(x, 2.0), randn(3)),
    "zero_": (lambda m, x: (x * 1).zero_(), randn(3)),
    "uniform_": (lambda m, x: (x * 1).uniform_(), randn(3)),
    "bernoulli": (lambda m, x: m.bernoulli(x.sigmoid()), randn(3)),
    "poisson": (lambda m, x: m.poisson(x.exp()), randn(3)),
}


@pytest.mark.parametrize("name", list(NODES))
def test_node_names(name):
    fn, *arrays = NODES[name]
    assert _node(mindtorch, fn, *arrays) == _node(torch, fn, *arrays)


# -- what does not differentiate -------------------------------------------------------------

def _leaf(m, *shape):
    return m.tensor(randn(*shape), requires_grad=True)


@pytest.mark.parametrize("fn", [
    lambda m, x: m.nonzero(x),
    lambda m, x: m.argwhere(x),
    lambda m, x: m.empty_like(x),
    lambda m, x: x.new_empty_strided((2,), (1,)),
    lambda m, x: m.zeros_like(x),
    lambda m, x: m.ones_like(x),
    lambda m, x: m.full_like(x, 2.0),
    lambda m, x: m.rand_like(x),
    lambda m, x: m.randn_like(x),
    lambda m, x: m.multinomial(x.detach().abs() + 0.1, 2),
])
def test_no_history(fn):
    for m in (mindtorch, torch):
        r = fn(m, _leaf(m, 3))
        assert not r.requires_grad and r.grad_fn is None


def test_empty_like_requires_grad_argument():
    r = mindtorch.empty_like(_leaf(mindtorch, 2), requires_grad=True)
    assert r.requires_grad and r.grad_fn is None


# -- random ops: zero gradients, as PyTorch gives them --------------------------------------

SAMPLERS = {
    "uniform_": lambda y: y.uniform_(-1, 1),
    "normal_": lambda y: y.normal_(),
    "random_": lambda y: y.random_(0, 5),
    "bernoulli_": lambda y: y.bernoulli_(0.3),
    "cauchy_": lambda y: y.cauchy_(),
    "exponential_": lambda y: y.exponential_(),
    "geometric_": lambda y: y.geometric_(0.5),
    "log_normal_": lambda y: y.log_normal_(),
}


@pytest.mark.parametrize("name", list(SAMPLERS))
def test_inplace_sampler_gives_zero_grad(name):
    x = _leaf(mindtorch, 2, 3)
    y = x * 2
    SAMPLERS[name](y[0])  # a view: its base's history is rewritten
    assert y.requires_grad
    (g,) = mindtorch.autograd.grad(y, x, mindtorch.ones(2, 3))
    assert_same(g, torch.tensor([[0.0] * 3, [2.0] * 3], dtype=torch.float64))


@pytest.mark.parametrize("fn", [
    lambda m, x, p: m.normal(x, 1.0),
    lambda m, x, p: m.normal(0.0, x.exp()),
    lambda m, x, p: m.normal(x, p.exp()),
    lambda m, x, p: m.poisson(x.exp()),
    lambda m, x, p: m.bernoulli(x.sigmoid()),
    lambda m, x, p: m.empty(2, 3, dtype=m.float64).bernoulli_(p.sigmoid()),
])
def test_sampling_parameters_get_zero_grad(fn):
    grads = []
    for m in (mindtorch, torch):
        x, p = _leaf(m, 2, 3), _leaf(m, 3)
        r = fn(m, x, p)
        assert r.requires_grad
        gx, gp = m.autograd.grad(r, (x, p), m.ones(2, 3, dtype=m.float64), allow_unused=True)
        grads.append((gx, gp))
    for mg, tg in zip(*grads):
        assert (mg is None) == (tg is None)
        if mg is not None:
            assert_same(mg, tg)


def test_bernoulli_float_p_has_no_derivative():
    x = _leaf(mindtorch, 3)
    r = mindtorch.bernoulli(x, 0.5)
    assert r.requires_grad
    with pytest.raises(NotImplementedError):
        r.backward(mindtorch.ones(3))


def test_scatter_reduce_argument_has_no_derivative():
    # (PyTorch has no formula for scatter(..., reduce=) either: its NotImplemented node)
    x = _leaf(mindtorch, 3)
    r = x.scatter(0, mindtorch.tensor([1]), 2.0, reduce="add")
    with pytest.raises(RuntimeError, match="derivative for aten::scatter is not implemented"):
        r.backward(mindtorch.ones(3))


@pytest.mark.parametrize("p", [0.0, 0.4, 1.0])
def test_dropout_grad_zero_where_dropped_and_scaled(p):
    x = _leaf(mindtorch, 4, 5)
    y = mindtorch.dropout(x, p)
    go = randn(4, 5)
    (g,) = mindtorch.autograd.grad(y, x, mindtorch.tensor(go))
    kept = y.detach().numpy() != 0
    scale = 0.0 if p == 1 else 1 / (1 - p)
    np.testing.assert_allclose(y.detach().numpy(), np.where(kept, x.detach().numpy() * scale, 0))
    np.testing.assert_allclose(g.numpy(), np.where(kept, go * scale, 0))
    if p == 0.4:
        assert 0 < kept.sum() < 20


def test_inplace_op_reads_self_before_the_write():
    # scatter_reduce_'s formula needs self's old value: the op must not save the tensor
    # it then overwrites
    grads = []
    for m in (mindtorch, torch):
        x = m.tensor([[1.0, 5.0], [3.0, 2.0]], dtype=m.float64, requires_grad=True)
        y = x * 1
        y.scatter_reduce_(0, m.tensor([[1, 1]]), m.tensor([[4.0, 4.0]], dtype=m.float64),
                          "amax")
        (g,) = m.autograd.grad(y, x, m.ones(2, 2, dtype=m.float64))
        grads.append(g)
    assert_same(*grads)
