"""Gradients of reductions, scans, softmax and norms, against PyTorch (values and grads),
finite differences (gradcheck) and the meta device (grad shapes/dtypes)."""
import warnings

import numpy as np
import pytest
import torch

import mindtorch
from gradutil import check_gradgrad, check_grads, nc, rand, randn
from reference import assert_same

M = mindtorch
INF = float("inf")

# data with ties and zeros, where the subgradient conventions matter
TIES = np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]])
ZEROS = np.array([[1.5, 0.0, 2.0, -0.5], [0.0, 1.2, 0.0, 0.7], [0.9, 1.1, -1.3, 0.8]])


def _x(*shape):
    return randn(*shape)


NO_FD = {"gradcheck": False}  # at ties / kinks finite differences see no derivative

CASES = [
    # (id, fn(module, *tensors), specs[, check_grads options])
    ("sum_all", lambda m, x: x.sum(), [_x(2, 3)]),
    ("sum_dim", lambda m, x: x.sum(1), [_x(2, 3)]),
    ("sum_neg_tuple", lambda m, x: x.sum((-1, 0)), [_x(2, 3, 2)]),
    ("sum_keepdim", lambda m, x: x.sum((0, 2), keepdim=True), [nc(_x(2, 3, 2))]),
    ("sum_empty_dims", lambda m, x: x.sum(()), [_x(2, 3)]),
    ("sum_dtype", lambda m, x: m.sum(x, 0, dtype=m.float64), [_x(2, 3)]),
    ("sum_0dim", lambda m, x: x.sum(), [np.array(1.5)]),
    ("sum_0dim_dim", lambda m, x: x.sum(0, keepdim=True), [np.array(1.5)]),
    ("sum_empty", lambda m, x: x.sum(), [np.zeros((0, 3))]),
    ("sum_empty_dim", lambda m, x: x.sum(1), [np.zeros((0, 3))]),
    ("mean_all", lambda m, x: x.mean(), [nc(_x(2, 3))]),
    ("mean_dim", lambda m, x: x.mean(-1), [_x(2, 3)]),
    ("mean_tuple_keepdim", lambda m, x: x.mean((0, -1), keepdim=True), [_x(2, 3, 2)]),
    ("mean_0dim", lambda m, x: x.mean(), [np.array(-0.7)]),
    ("mean_0dim_dim", lambda m, x: x.mean(0), [np.array(-0.7)]),
    ("mean_empty", lambda m, x: x.mean(), [np.zeros((0, 3))]),
    ("mean_empty_dim0", lambda m, x: x.mean(0), [np.zeros((0, 3))]),
    ("mean_empty_dim1", lambda m, x: x.mean(1), [np.zeros((2, 0))]),
    ("prod_all", lambda m, x: x.prod(), [nc(rand(2, 3))]),
    ("prod_dim", lambda m, x: x.prod(1), [_x(3, 4)]),
    ("prod_keepdim", lambda m, x: x.prod(0, keepdim=True), [_x(3, 4)]),
    ("prod_zeros_dim", lambda m, x: x.prod(1), [ZEROS]),
    ("prod_zeros_dim0", lambda m, x: x.prod(0), [ZEROS]),
    ("prod_one_zero", lambda m, x: x.prod(), [np.array([1.5, 0.0, 2.0, -1.0])]),
    ("prod_two_zeros", lambda m, x: x.prod(), [np.array([1.5, 0.0, 2.0, 0.0])]),
    ("prod_0dim", lambda m, x: x.prod(), [np.array(2.5)]),
    ("prod_empty", lambda m, x: x.prod(1), [np.zeros((2, 0))]),
    ("prod_size1", lambda m, x: x.prod(1), [_x(3, 1)]),
    ("var_all", lambda m, x: x.var(), [_x(3, 4)]),
    ("var_dim", lambda m, x: x.var(1), [nc(_x(3, 4))]),
    ("var_tuple", lambda m, x: x.var((0, -1), keepdim=True), [_x(2, 3, 2)]),
    ("var_correction", lambda m, x: x.var(0, correction=0), [_x(3, 4)]),
    ("var_correction2", lambda m, x: x.var(dim=1, correction=2, keepdim=True), [_x(3, 4)]),
    ("var_unbiased_false", lambda m, x: x.var(False), [_x(3, 4)]),
    ("var_0dim", lambda m, x: x.var(correction=0), [np.array(0.3)]),
    ("std_all", lambda m, x: x.std(), [_x(3, 4)]),
    ("std_dim", lambda m, x: x.std(0, keepdim=True), [nc(_x(3, 4))]),
    ("std_correction", lambda m, x: x.std((0, 1), correction=0), [_x(3, 4)]),
    ("std_none_keepdim", lambda m, x: x.std(None, keepdim=True), [_x(3, 4)]),
    ("logsumexp", lambda m, x: x.logsumexp(1), [_x(3, 4)]),
    ("logsumexp_keepdim", lambda m, x: x.logsumexp((0, -1), keepdim=True), [nc(_x(2, 3, 2))]),
    ("logsumexp_0dim", lambda m, x: x.logsumexp(0), [np.array(0.4)]),
    ("amax", lambda m, x: x.amax(1), [_x(3, 4)]),
    ("amax_all", lambda m, x: x.amax(), [_x(3, 4)]),
    ("amax_ties", lambda m, x: x.amax(1), [TIES], NO_FD),
    ("amax_ties_all", lambda m, x: x.amax(), [TIES], NO_FD),
    ("amax_ties_keepdim", lambda m, x: x.amax((0,), keepdim=True), [TIES], NO_FD),
    ("amin_ties", lambda m, x: x.amin(-1), [TIES], NO_FD),
    ("amin_0dim", lambda m, x: x.amin(), [np.array(0.4)]),
    ("max_full", lambda m, x: x.max(), [nc(_x(3, 4))]),
    ("max_full_ties", lambda m, x: x.max(), [TIES], NO_FD),
    ("min_full_ties", lambda m, x: x.min(), [np.array([[1.0, 1.0], [2.0, 1.0]])], NO_FD),
    ("max_dim", lambda m, x: x.max(1).values, [_x(3, 4)]),
    ("max_dim_ties", lambda m, x: x.max(1), [TIES], NO_FD),
    ("max_dim_keepdim", lambda m, x: x.max(0, keepdim=True)[0], [nc(TIES)], NO_FD),
    ("min_dim_ties", lambda m, x: m.min(x, -1)[0], [TIES], NO_FD),
    ("max_dim_0dim", lambda m, x: x.max(0)[0], [np.array(0.4)]),
    ("cumsum", lambda m, x: x.cumsum(1), [nc(_x(3, 4))]),
    ("cumsum_dim0", lambda m, x: x.cumsum(-2), [_x(3, 4)]),
    ("cumsum_0dim", lambda m, x: x.cumsum(0), [np.array(0.4)]),
    ("cumsum_empty", lambda m, x: x.cumsum(1), [np.zeros((2, 0))]),
    ("cumsum_dtype", lambda m, x: x.cumsum(0, dtype=m.float64), [_x(3)]),
    ("cumprod", lambda m, x: x.cumprod(1), [nc(_x(3, 4))]),
    ("cumprod_zeros", lambda m, x: x.cumprod(1), [ZEROS]),
    ("cumprod_zeros_dim0", lambda m, x: x.cumprod(0), [ZEROS]),
    ("cumprod_two_zeros", lambda m, x: x.cumprod(0), [np.array([1.0, 0.0, 2.0, 0.0, 3.0])]),
    ("cumprod_0dim", lambda m, x: x.cumprod(0), [np.array(0.4)]),
    ("cumprod_empty", lambda m, x: x.cumprod(0), [np.zeros((0, 2))]),
    ("softmax", lambda m, x: x.softmax(1), [_x(3, 4)]),
    ("softmax_dim0", lambda m, x: m.softmax(x, 0), [nc(_x(3, 4))]),
    ("softmax_dtype", lambda m, x: x.softmax(-1, dtype=m.float64), [_x(2, 3)]),
    ("softmax_0dim", lambda m, x: x.softmax(0), [np.array(0.4)]),
    ("log_softmax", lambda m, x: x.log_softmax(1), [_x(3, 4)]),
    ("log_softmax_nc", lambda m, x: m.log_softmax(x, 0), [nc(_x(3, 4))]),
    ("norm_2", lambda m, x: x.norm(), [_x(3, 4)]),
    ("norm_2_dim", lambda m, x: x.norm(dim=1), [nc(_x(3, 4))]),
    ("norm_2_zero_row", lambda m, x: x.norm(dim=1), [np.array([[0.0, 0.0], [1.0, -2.0]])], NO_FD),
    ("norm_1", lambda m, x: x.norm(1, dim=0, keepdim=True), [_x(3, 4)]),
    ("norm_inf", lambda m, x: x.norm(INF, dim=1), [_x(3, 4)]),
    ("norm_inf_ties", lambda m, x: x.norm(INF), [np.array([[1.0, -3.0], [3.0, 2.0]])], NO_FD),
    ("norm_ninf", lambda m, x: x.norm(-INF, dim=1), [_x(3, 4)]),
    ("norm_fro", lambda m, x: x.norm("fro"), [_x(3, 4)]),
    ("norm_fro_dims", lambda m, x: x.norm("fro", dim=(0, 2)), [_x(2, 3, 2)]),
    ("norm_3", lambda m, x: x.norm(3, dim=-1), [_x(3, 4)]),
    ("norm_1_5", lambda m, x: x.norm(1.5), [_x(3, 4)]),
    ("norm_0_5", lambda m, x: x.norm(0.5, dim=1), [_x(3, 4)]),
    ("norm_dtype", lambda m, x: x.norm(dim=0, dtype=m.float64), [_x(3, 4)]),
    ("norm_0dim", lambda m, x: x.norm(), [np.array(-0.4)]),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_grads(case):
    _, fn, specs, *options = case
    check_grads(fn, *specs, **(options[0] if options else {}))


def test_norm_p0_has_no_gradient():
    for m in (M, torch):
        x = m.tensor([[1.0, 0.0], [2.0, 3.0]], requires_grad=True)
        x.norm(0).backward()
        assert x.grad is None


def test_norm_2_at_zero_is_zero():
    # torch: 0, not the NaN a sqrt(sum(x^2)) decomposition would give
    for m in (M, torch):
        x = m.zeros(3, requires_grad=True)
        x.norm().backward()
        assert x.grad.tolist() == [0.0, 0.0, 0.0]


@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")  # (0 * inf, on purpose)
def test_amax_with_nan_matches_torch():
    data = [[1.0, float("nan")], [2.0, 2.0]]
    got = []
    for m in (M, torch):
        x = m.tensor(data, requires_grad=True)
        x.amax(1).sum().backward()
        y = m.tensor(data, requires_grad=True)
        y.max().backward()
        got.append((x.grad, y.grad))
    assert_same(list(got[0]), list(got[1]))


@pytest.mark.parametrize("dim,correction", [((0, 1), 6), (None, 12), (1, 4), ((), 1)])
def test_var_degrees_of_freedom_le_0(dim, correction):
    """torch's var_backward gives inf (NaN where an element equals the mean); dim=()
    reduces every dim but its backward counts one element."""
    data = np.array([[1.0, 2.0, 3.0], [3.0, 2.0, 0.5]])
    grads = []
    for m in (M, torch):
        x = m.tensor(data, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (degrees of freedom <= 0)
            x.var(dim=dim, correction=correction).sum().backward()
        grads.append(x.grad)
    assert_same(*grads)


@pytest.mark.parametrize("dtype", ["float32"])
@pytest.mark.parametrize("name,fn,spec", [
    ("sum", lambda m, x: x.sum(0), _x(3, 4)),
    ("mean", lambda m, x: x.mean((0, 1)), _x(3, 4)),
    ("prod", lambda m, x: x.prod(1), rand(3, 4)),
    ("std", lambda m, x: x.std(1), _x(3, 4)),
    ("logsumexp", lambda m, x: x.logsumexp(0), _x(3, 4)),
    ("softmax", lambda m, x: x.softmax(0), _x(3, 4)),
    ("log_softmax", lambda m, x: x.log_softmax(1), _x(3, 4)),
    ("cumprod", lambda m, x: x.cumprod(1), rand(3, 4)),
    ("norm", lambda m, x: x.norm(dim=1), _x(3, 4)),
])
def test_float32(dtype, name, fn, spec):
    check_grads(fn, spec, dtype=dtype)


def test_inplace_on_nonleaf_then_reduce():
    def fn(m, x):
        y = x * 1
        y.mul_(2)
        return y.cumsum(0).prod()
    check_grads(fn, rand(4))


def test_int_and_bool_results_have_no_grad():
    x = M.randn(3, 4, requires_grad=True)
    for r in (x.argmax(), x.argmin(1), x.all(), x.any(0), M.count_nonzero(x),
              M.count_nonzero(x, 1), x.max(1).indices):
        assert not r.requires_grad and r.grad_fn is None


def test_count_nonzero_matches_torch():
    check_grads(lambda m, x: (m.count_nonzero(x, 0), x.sum()), _x(3, 4))


@pytest.mark.parametrize("fn,expected", [
    (lambda m, x: x.sum(), "SumBackward0"),
    (lambda m, x: x.mean(), "MeanBackward0"),
    (lambda m, x: x.prod(), "ProdBackward0"),
    (lambda m, x: x.var(), "VarBackward0"),
    (lambda m, x: x.std(0), "StdBackward0"),
    (lambda m, x: x.logsumexp(0), "LogsumexpBackward0"),
    (lambda m, x: x.amax(), "AmaxBackward0"),
    (lambda m, x: x.amin(0), "AminBackward0"),
    (lambda m, x: x.max(), "MaxBackward1"),
    (lambda m, x: x.min(), "MinBackward1"),
    (lambda m, x: x.max(0)[0], "MaxBackward0"),
    (lambda m, x: x.min(0).values, "MinBackward0"),
    (lambda m, x: x.cumsum(0), "CumsumBackward0"),
    (lambda m, x: x.cumprod(0), "CumprodBackward0"),
    (lambda m, x: x.softmax(0), "SoftmaxBackward0"),
    (lambda m, x: x.log_softmax(0), "LogSoftmaxBackward0"),
    (lambda m, x: x.norm(), "LinalgVectorNormBackward0"),
])
def test_node_names(fn, expected):
    for m in (M, torch):
        x = m.ones(2, 3, requires_grad=True)
        assert type(fn(m, x).grad_fn).__name__ == expected


GRADGRAD = [
    ("sum", lambda m, x: x.sum(1), [_x(2, 3)]),
    ("mean", lambda m, x: x.mean((0, 1), keepdim=True), [_x(2, 3)]),
    ("prod", lambda m, x: x.prod(1), [_x(2, 3)]),
    ("prod_zero", lambda m, x: x.prod(), [np.array([1.5, 0.0, 2.0])]),
    ("var", lambda m, x: x.var(1), [_x(2, 3)]),
    ("std", lambda m, x: x.std(), [_x(2, 3)]),
    ("logsumexp", lambda m, x: x.logsumexp(1), [_x(2, 3)]),
    ("amax", lambda m, x: x.amax(1), [_x(2, 3)]),
    ("max_dim", lambda m, x: x.max(0)[0], [_x(2, 3)]),
    ("cumsum", lambda m, x: x.cumsum(1), [_x(2, 3)]),
    ("cumprod", lambda m, x: x.cumprod(1), [_x(2, 3)]),
    ("cumprod_zero", lambda m, x: x.cumprod(0), [np.array([1.5, 0.0, 2.0, -1.0])]),
    ("softmax", lambda m, x: x.softmax(1), [_x(2, 3)]),
    ("log_softmax", lambda m, x: x.log_softmax(0), [_x(2, 3)]),
    ("norm_2", lambda m, x: x.norm(dim=1), [_x(2, 3)]),
    ("norm_3", lambda m, x: x.norm(3), [_x(2, 3)]),
]


@pytest.mark.parametrize("fn,specs", [c[1:] for c in GRADGRAD], ids=[c[0] for c in GRADGRAD])
def test_gradgrad(fn, specs):
    check_gradgrad(fn, *specs)


def test_cumprod_double_backward_with_zero_matches_torch():
    """create_graph switches cumprod's backward to the form differentiable at zeros."""
    data = np.array([2.0, 0.0, 3.0, 0.5])
    out = []
    for m in (M, torch):
        x = m.tensor(data, requires_grad=True)
        (g,) = m.autograd.grad(x.cumprod(0).sum(), x, create_graph=True)
        (gg,) = m.autograd.grad(g.sum(), x)
        out.append((g.detach(), gg))
    assert_same(list(out[0]), list(out[1]))
