"""Gradients of the sorting family (sort, topk, kthvalue, median, mode, cummax/cummin,
logcumsumexp, quantile, std_mean/var_mean, nansum/nanmean, aminmax) against PyTorch
(values and grads), finite differences (gradcheck) and the meta device (grad
shapes/dtypes); torch's node names; the ops torch records but cannot differentiate."""
import mindtorch
import numpy as np
import pytest
import torch
from gradutil import check_gradgrad, check_grads, const, nc, randn
from reference import assert_same

M = mindtorch
NAN = float("nan")
NO_FD = {"gradcheck": False}  # at ties finite differences see no derivative

# Ops reached here under their public names: "_median_dim" and "_nanmedian_dim" through
# median(t, dim) / nanmedian(t, dim).
TIES = np.array([[1.0, 3.0, 3.0, 0.5], [2.0, 2.0, 2.0, 1.0], [0.0, 1.0, 0.0, 1.0]])
WITH_NAN = np.array([[1.0, NAN, 3.0, 0.5], [NAN, NAN, NAN, NAN], [0.0, 2.0, NAN, -1.0]])


def _x(*shape):
    return randn(*shape)


CASES = [
    # (id, fn(module, *tensors), specs[, check_grads options])
    ("sort", lambda m, x: x.sort(1), [nc(_x(3, 4))]),
    ("sort_desc_dim0", lambda m, x: m.sort(x, 0, True), [_x(3, 4)]),
    ("sort_stable", lambda m, x: x.sort(dim=-1, stable=True), [_x(2, 5)]),
    ("sort_ties", lambda m, x: x.sort(dim=1, stable=True), [TIES], NO_FD),
    ("sort_0dim", lambda m, x: x.sort(), [np.array(0.3)]),
    ("sort_empty", lambda m, x: x.sort(0), [np.zeros((0, 3))]),
    ("msort", lambda m, x: m.msort(x), [nc(_x(4, 3))]),
    ("topk", lambda m, x: x.topk(2), [nc(_x(3, 5))]),
    ("topk_smallest_dim0", lambda m, x: m.topk(x, 3, 0, largest=False), [_x(4, 3)]),
    ("topk_unsorted", lambda m, x: x.topk(2, sorted=False).values.sort().values, [_x(6)]),
    ("topk_0dim", lambda m, x: x.topk(1), [np.array(1.5)]),
    ("topk_k0", lambda m, x: x.topk(0, 1), [_x(2, 3)]),
    ("kthvalue", lambda m, x: x.kthvalue(2, 1), [nc(_x(3, 5))]),
    ("kthvalue_keepdim", lambda m, x: m.kthvalue(x, 3, 0, True), [_x(4, 3)]),
    ("kthvalue_ties", lambda m, x: x.kthvalue(2, 1), [TIES], NO_FD),
    ("kthvalue_0dim", lambda m, x: x.kthvalue(1), [np.array(0.7)]),
    ("median_all", lambda m, x: x.median(), [nc(_x(3, 5))]),
    ("median_all_ties", lambda m, x: x.median(), [TIES], NO_FD),
    ("median_dim", lambda m, x: x.median(1), [_x(3, 4)]),
    ("median_dim_keepdim", lambda m, x: m.median(x, 0, keepdim=True), [nc(_x(5, 3))]),
    ("median_dim_ties", lambda m, x: x.median(dim=1), [TIES], NO_FD),
    ("median_dim_0dim", lambda m, x: x.median(0), [np.array(0.7)]),
    ("median_nan", lambda m, x: x.median(1), [WITH_NAN], NO_FD),
    ("nanmedian_all", lambda m, x: x.nanmedian(), [_x(2, 5)]),
    ("nanmedian_all_nan", lambda m, x: m.nanmedian(x), [WITH_NAN], NO_FD),
    ("nanmedian_dim", lambda m, x: x.nanmedian(1), [WITH_NAN], NO_FD),
    ("nanmedian_dim_keepdim", lambda m, x: x.nanmedian(0, True), [_x(3, 4)]),
    ("mode", lambda m, x: x.mode(1), [_x(3, 4)]),
    ("mode_ties", lambda m, x: m.mode(x, 0, True), [TIES], NO_FD),
    ("mode_0dim", lambda m, x: x.mode(), [np.array(-0.2)]),
    ("cummax", lambda m, x: x.cummax(1), [nc(_x(3, 5))]),
    ("cummax_ties", lambda m, x: m.cummax(x, 1), [TIES], NO_FD),
    ("cummin", lambda m, x: m.cummin(x, 0), [_x(4, 3)]),
    ("cummin_ties", lambda m, x: x.cummin(1), [TIES], NO_FD),
    ("cummax_0dim", lambda m, x: x.cummax(0), [np.array(0.5)]),
    ("cummin_empty", lambda m, x: x.cummin(1), [np.zeros((2, 0))]),
    ("logcumsumexp", lambda m, x: x.logcumsumexp(1), [nc(_x(3, 4))]),
    ("logcumsumexp_dim0", lambda m, x: m.logcumsumexp(x, 0), [_x(4, 2)]),
    ("logcumsumexp_large", lambda m, x: x.logcumsumexp(0),
     [np.array([800.0, -700.0, 801.0, 5.0])]),
    ("logcumsumexp_0dim", lambda m, x: x.logcumsumexp(0), [np.array(0.3)]),
    ("logcumsumexp_empty", lambda m, x: x.logcumsumexp(1), [np.zeros((2, 0))]),
    ("quantile", lambda m, x: m.quantile(x, 0.3), [_x(3, 4)]),
    ("quantile_dim", lambda m, x: x.quantile(0.6, 1, True), [nc(_x(3, 5))]),
    ("quantile_q_tensor", lambda m, x, q: m.quantile(x, q, 0), [_x(4, 3),
                                                                np.array([0.2, 0.5, 0.9])]),
    ("quantile_q_0dim", lambda m, x, q: m.quantile(x, q), [_x(5), np.array(0.35)]),
    ("quantile_midpoint", lambda m, x: x.quantile(0.3, 0, interpolation="midpoint"),
     [_x(4, 2)]),
    ("quantile_lower", lambda m, x, q: x.quantile(q, interpolation="lower"),
     [_x(6), np.array([0.3, 0.7])]),
    ("quantile_nearest", lambda m, x: x.quantile(0.6, 1, interpolation="nearest"),
     [_x(2, 5)]),
    ("quantile_0dim", lambda m, x: x.quantile(0.5), [np.array(0.25)]),
    ("nanquantile", lambda m, x: m.nanquantile(x, 0.4, 1), [WITH_NAN], NO_FD),
    ("nanquantile_plain", lambda m, x, q: x.nanquantile(q, 0), [_x(4, 2), np.array([0.1, 0.8])]),
    ("std_mean", lambda m, x: m.std_mean(x), [_x(3, 4)]),
    ("std_mean_dim", lambda m, x: m.std_mean(x, 1, True, True), [nc(_x(3, 4))]),
    ("std_mean_correction", lambda m, x: m.std_mean(x, dim=(0, 1), correction=0), [_x(2, 3)]),
    ("var_mean", lambda m, x: m.var_mean(x, 0), [_x(3, 4)]),
    ("var_mean_unbiased", lambda m, x: m.var_mean(x, False), [nc(_x(2, 3))]),
    ("var_mean_only_mean", lambda m, x: m.var_mean(x, 1)[1], [_x(2, 3)]),
    ("nansum", lambda m, x: x.nansum(), [WITH_NAN]),
    ("nansum_dim", lambda m, x: m.nansum(x, 1, keepdim=True), [nc(_x(3, 4))]),
    ("nansum_dtype", lambda m, x: x.nansum(0, dtype=m.float64), [WITH_NAN]),
    ("nansum_0dim", lambda m, x: x.nansum(), [np.array(0.3)]),
    ("nansum_empty", lambda m, x: x.nansum(0), [np.zeros((0, 3))]),
    ("nanmean", lambda m, x: x.nanmean(1), [WITH_NAN[[0, 2]]]),
    ("nanmean_all", lambda m, x: m.nanmean(x), [nc(_x(3, 4))]),
    ("aminmax", lambda m, x: m.aminmax(x), [_x(3, 4)]),
    ("aminmax_dim", lambda m, x: x.aminmax(dim=1, keepdim=True), [nc(_x(3, 4))]),
    ("aminmax_ties", lambda m, x: m.aminmax(x, dim=0), [TIES], NO_FD),
    ("aminmax_ties_all", lambda m, x: x.aminmax(), [TIES], NO_FD),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_grads(case):
    _, fn, specs, *options = case
    check_grads(fn, *specs, **(options[0] if options else {}))


@pytest.mark.parametrize("name,fn,specs", [
    ("sort", lambda m, x: x.sort(1)[0] ** 2, [_x(2, 3)]),
    ("topk", lambda m, x: x.topk(2)[0].exp(), [_x(2, 4)]),
    ("kthvalue", lambda m, x: x.kthvalue(2, 0)[0] ** 2, [_x(3, 2)]),
    ("median", lambda m, x: x.median() ** 2, [_x(5)]),
    ("cummax", lambda m, x: x.cummax(0)[0] ** 2, [_x(4)]),
    ("logcumsumexp", lambda m, x: x.logcumsumexp(1), [_x(2, 3)]),
    ("quantile", lambda m, x: (x ** 2).quantile(0.3, 1), [_x(2, 4)]),
    ("std_mean", lambda m, x: m.std_mean(x, 1)[0] * m.std_mean(x, 1)[1], [_x(2, 3)]),
    ("var_mean", lambda m, x: m.var_mean(x)[0], [_x(2, 3)]),
    ("nansum", lambda m, x: (x ** 3).nansum(0), [_x(2, 3)]),
    ("aminmax", lambda m, x: (x ** 2).aminmax(dim=0)[1], [_x(3, 2)]),
])
def test_gradgrad(name, fn, specs):
    check_gradgrad(fn, *specs)


@pytest.mark.parametrize("name,fn,spec", [
    ("sort", lambda m, x: x.sort(0), _x(4, 3)),
    ("logcumsumexp", lambda m, x: x.logcumsumexp(1), _x(3, 4)),
    ("quantile", lambda m, x: x.quantile(0.25, 1), _x(3, 4)),
    ("nanmean", lambda m, x: x.nanmean(0), WITH_NAN),
    ("std_mean", lambda m, x: m.std_mean(x, 0), _x(3, 4)),
])
def test_float32(name, fn, spec):
    check_grads(fn, spec, dtype="float32")


def test_complex_logcumsumexp():
    data = randn(2, 3) + 1j * randn(2, 3)
    grads = []
    for m in (M, torch):
        x = m.tensor(data, requires_grad=True)
        y = x.logcumsumexp(1)
        y.backward(m.tensor(np.full((2, 3), 0.5 - 0.25j)))
        grads.append(x.grad)
    assert_same(*grads)


@pytest.mark.parametrize("fn,node", [
    (lambda m, x: x.sort(0)[0], "SortBackward0"),
    (lambda m, x: x.sort(dim=0, stable=True)[0], "SortBackward1"),
    (lambda m, x: x.msort(), "SortBackward0"),
    (lambda m, x: x.topk(1)[0], "TopkBackward0"),
    (lambda m, x: x.kthvalue(1)[0], "KthvalueBackward0"),
    (lambda m, x: x.median(), "MedianBackward0"),
    (lambda m, x: x.median(0)[0], "MedianBackward1"),
    (lambda m, x: x.nanmedian(), "NanmedianBackward0"),
    (lambda m, x: x.nanmedian(0)[0], "NanmedianBackward1"),
    (lambda m, x: x.mode(0)[0], "ModeBackward0"),
    (lambda m, x: x.cummax(0)[0], "CummaxBackward0"),
    (lambda m, x: x.cummin(0)[0], "CumminBackward0"),
    (lambda m, x: x.logcumsumexp(0), "LogcumsumexpBackward0"),
    (lambda m, x: x.nansum(), "NansumBackward0"),
    (lambda m, x: x.nanmean(), "DivBackward0"),
    (lambda m, x: m.std_mean(x)[0], "StdMeanBackward0"),
    (lambda m, x: m.var_mean(x)[1], "VarMeanBackward0"),
    (lambda m, x: x.aminmax()[0], "AminmaxBackward0"),
])
def test_node_names(fn, node):
    for m in (M, torch):
        assert fn(m, m.randn(4, requires_grad=True)).grad_fn.name() == node


@pytest.mark.parametrize("fn", [
    lambda m, x: m.unique(x),
    lambda m, x: m.unique(x, dim=0),
    lambda m, x: x.unique_consecutive(return_counts=True)[0],
    lambda m, x: m.bincount(m.tensor([0, 1, 1]), x[0]),
    lambda m, x: m.histogram(x, 3)[0],
    lambda m, x: m.histogram(x.detach(), 3, weight=x)[0],
])
def test_recorded_but_not_differentiable(fn):
    """torch records these ops and fails when backward reaches them (same error class)."""
    errors = []
    for m in (M, torch):
        x = m.tensor([[1.0, 2.0, 0.5], [1.0, 2.0, 0.5], [3.0, 0.0, 1.0]], requires_grad=True)
        y = fn(m, x)
        assert y.requires_grad
        with pytest.raises((RuntimeError, NotImplementedError)) as info:
            y.sum().backward()
        errors.append(info.type)
    assert errors[0] is errors[1]


def test_integer_results_have_no_grad():
    x = M.randn(3, 4, requires_grad=True)
    b = M.tensor([-1.0, 0.0, 1.0])
    for r in (x.argsort(1), x.sort(1).indices, x.topk(2).indices, M.searchsorted(b, x),
              M.bucketize(x, b), M.histc(x, 4), M.isin(x, b), x.median(0).indices,
              x.cummax(1).indices):
        assert not r.requires_grad and r.grad_fn is None


def test_quantile_q_without_grad():
    check_grads(lambda m, x, q: m.quantile(x, q, 1), _x(3, 4),
                const(np.array([0.25, 0.75])))
