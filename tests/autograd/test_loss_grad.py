"""Gradients of the loss functions against PyTorch (values and grads), finite differences
(gradcheck) and the meta device (grad shapes/dtypes); second derivatives; PyTorch's node
names."""
import warnings

import numpy as np
import pytest
import torch

import mindtorch
from gradutil import check_gradgrad, check_grads, const, nc, rand, randn
from mindtorch._ops import OPS

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def F(m):
    return m.nn.functional


def sign(*shape):
    return const(np.where(randn(*shape) > 0, 1.0, -1.0))


def idx(values):
    return const(np.asarray(values, dtype=np.int64))


T3 = idx([0, 3, 1])
W4 = const(np.array([0.5, 1.0, 2.0, 1.5]))
LABELS = idx([[3, 0, -1, 1], [1, 2, 3, 0], [-1, 1, 1, 1]])

CASES = [
    # (id, fn(module, *tensors), specs[, check_grads options])
    ("cross_entropy", lambda m, x, t: F(m).cross_entropy(x, t), [randn(3, 4), T3]),
    ("cross_entropy_none_weight_ignore", lambda m, x, t, w: F(m).cross_entropy(
        x, t, weight=w, ignore_index=1, reduction="none"), [nc(randn(4, 4)),
                                                              idx([0, 1, 3, 2]), W4]),
    ("cross_entropy_smoothing", lambda m, x, t, w: F(m).cross_entropy(
        x, t, weight=w, label_smoothing=0.2, ignore_index=0), [randn(3, 4), T3, W4]),
    ("cross_entropy_probs", lambda m, x, t: F(m).cross_entropy(x, t, label_smoothing=0.1),
     [randn(3, 4), rand(3, 4)]),
    ("cross_entropy_probs_sum_weight", lambda m, x, t, w: F(m).cross_entropy(
        x, t, weight=w, reduction="sum"), [randn(2, 4, 2), rand(2, 4, 2), W4]),
    ("cross_entropy_3d", lambda m, x, t: F(m).cross_entropy(x, t),
     [randn(2, 3, 2), idx([[0, 2], [1, 1]])]),
    ("cross_entropy_unbatched", lambda m, x, t: F(m).cross_entropy(x, t, reduction="sum"),
     [randn(4), idx(2)]),
    ("cross_entropy_empty", lambda m, x, t: F(m).cross_entropy(x, t, reduction="sum"),
     [np.zeros((0, 3)), idx(np.zeros(0))]),
    ("nll_loss", lambda m, x, t: F(m).nll_loss(x, t), [randn(3, 4), T3]),
    ("nll_loss_none_weight", lambda m, x, t, w: F(m).nll_loss(x, t, w, reduction="none"),
     [randn(3, 4), T3, W4]),
    ("nll_loss_4d", lambda m, x, t: F(m).nll_loss(x, t, ignore_index=2),
     [randn(2, 3, 2, 1), idx([[[0], [2]], [[1], [1]]])]),
    ("nll_loss_5d_none", lambda m, x, t: F(m).nll_loss(x, t, reduction="none"),
     [randn(1, 3, 2, 1, 2), idx([[[[0, 1]], [[2, 2]]]])]),
    ("nll_loss_unbatched_weight", lambda m, x, t, w: F(m).nll_loss(x, t, w),
     [randn(4), idx(1), W4]),
    ("mse_loss", lambda m, x, y: F(m).mse_loss(x, y), [randn(3, 4), nc(randn(3, 4))]),
    ("mse_loss_broadcast_none", lambda m, x, y: F(m).mse_loss(x, y, reduction="none"),
     [randn(3, 4), randn(4)]),
    ("mse_loss_weight", lambda m, x, y, w: F(m).mse_loss(x, y, weight=w),
     [randn(3, 2), randn(3, 2), const(rand(3, 2))]),
    ("mse_loss_0dim", lambda m, x, y: F(m).mse_loss(x, y), [np.array(0.3), np.array(-1.2)]),
    ("mse_loss_empty", lambda m, x, y: F(m).mse_loss(x, y, reduction="sum"),
     [np.zeros((0, 2)), np.zeros((0, 2))]),
    ("mse_loss_float32", lambda m, x, y: F(m).mse_loss(x, y), [randn(3, 4), randn(3, 4)],
     {"dtype": "float32"}),
    ("l1_loss", lambda m, x, y: F(m).l1_loss(x, y), [randn(3, 4), randn(3, 4)]),
    ("l1_loss_weight_sum", lambda m, x, y, w: F(m).l1_loss(x, y, reduction="sum", weight=w),
     [randn(3, 2), randn(3, 2), const(rand(3, 2))]),
    ("smooth_l1_loss", lambda m, x, y: F(m).smooth_l1_loss(x, y, beta=0.8),
     [randn(3, 4), randn(3, 4)]),
    ("smooth_l1_loss_beta0", lambda m, x, y: F(m).smooth_l1_loss(x, y, beta=0.0,
                                                                 reduction="none"),
     [randn(3, 4), randn(3, 4)]),
    ("huber_loss", lambda m, x, y: F(m).huber_loss(x, y, delta=0.7, reduction="sum"),
     [nc(randn(3, 4)), randn(3, 4)]),
    ("huber_loss_weight", lambda m, x, y, w: F(m).huber_loss(x, y, weight=w),
     [randn(3, 2), randn(3, 2), const(rand(3, 2))]),
    ("binary_cross_entropy", lambda m, x, y: F(m).binary_cross_entropy(x, y),
     [rand(3, 4), rand(3, 4)]),
    ("binary_cross_entropy_weight_none", lambda m, x, y, w: F(m).binary_cross_entropy(
        x, y, w, reduction="none"), [nc(rand(3, 4)), rand(3, 4), W4]),
    ("binary_cross_entropy_float32", lambda m, x, y: F(m).binary_cross_entropy(x, y),
     [rand(3, 4), rand(3, 4)], {"dtype": "float32"}),
    ("bce_with_logits", lambda m, x, y: F(m).binary_cross_entropy_with_logits(x, y),
     [randn(3, 4), rand(3, 4)]),
    ("bce_with_logits_weights_sum", lambda m, x, y, w, pw:
     F(m).binary_cross_entropy_with_logits(x, y, w, reduction="sum", pos_weight=pw),
     [randn(3, 4), rand(3, 4), const(rand(3, 1)), W4]),
    ("torch_bce_with_logits", lambda m, x, y: m.binary_cross_entropy_with_logits(x, y),
     [randn(3, 4), rand(3, 4)]),
    ("kl_div", lambda m, x, y: F(m).kl_div(x, y, reduction="batchmean"),
     [randn(3, 4), rand(3, 4)]),
    ("kl_div_log_target", lambda m, x, y: F(m).kl_div(x, y, log_target=True, reduction="sum"),
     [randn(3, 4), randn(3, 4)]),
    ("torch_kl_div", lambda m, x, y: m.kl_div(x, y, 1), [nc(randn(3, 4)), rand(3, 4)]),
    ("poisson_nll_loss", lambda m, x, y: F(m).poisson_nll_loss(x, y), [randn(3, 4),
                                                                       rand(3, 4)]),
    ("poisson_nll_loss_full", lambda m, x, y: F(m).poisson_nll_loss(
        x, y, log_input=False, full=True, reduction="none"), [rand(3, 4), rand(3, 4) * 4]),
    ("torch_poisson_nll_loss", lambda m, x, y: m.poisson_nll_loss(x, y, True, False, 1e-8, 2),
     [randn(3, 4), rand(3, 4)]),
    ("gaussian_nll_loss", lambda m, x, y, v: F(m).gaussian_nll_loss(x, y, v),
     [randn(3, 4), randn(3, 4), rand(3, 4)]),
    ("gaussian_nll_loss_row_var_full", lambda m, x, y, v: F(m).gaussian_nll_loss(
        x, y, v, full=True, reduction="none"), [randn(3, 4), randn(3, 4), rand(3)]),
    ("gaussian_nll_loss_float_var", lambda m, x, y: F(m).gaussian_nll_loss(x, y, 0.5),
     [randn(3, 4), randn(3, 4)]),
    ("hinge_embedding_loss", lambda m, x, y: F(m).hinge_embedding_loss(x, y, margin=0.5),
     [randn(3, 4), sign(3, 4)]),
    ("torch_hinge_embedding_loss", lambda m, x, y: m.hinge_embedding_loss(x, y),
     [randn(3, 4), sign(3, 4)]),
    ("margin_ranking_loss", lambda m, a, b, y: F(m).margin_ranking_loss(a, b, y, margin=0.1),
     [randn(5), randn(5), sign(5)]),
    ("torch_margin_ranking_loss", lambda m, a, b, y: m.margin_ranking_loss(a, b, y, 0.2, 2),
     [randn(5), randn(5), sign(5)]),
    ("soft_margin_loss", lambda m, x, y: F(m).soft_margin_loss(x, y), [randn(3, 4),
                                                                       sign(3, 4)]),
    ("soft_margin_loss_none", lambda m, x, y: F(m).soft_margin_loss(x, y, reduction="none"),
     [nc(randn(3, 4)), sign(3, 4)]),
    ("multilabel_soft_margin_loss", lambda m, x, y, w: F(m).multilabel_soft_margin_loss(
        x, y, w), [randn(3, 4), rand(3, 4), W4]),
    ("multilabel_soft_margin_loss_at_zero", lambda m, x, y:
     F(m).multilabel_soft_margin_loss(x, y, reduction="sum"),
     [np.array([[0.0, 1.0, -2.0]]), const(np.array([[1.0, 0.0, 1.0]]))]),
    ("multilabel_margin_loss", lambda m, x, y: F(m).multilabel_margin_loss(x, y),
     [randn(3, 4), LABELS]),
    ("multilabel_margin_loss_none_1d", lambda m, x, y: F(m).multilabel_margin_loss(
        x, y, reduction="none"), [randn(4), idx([2, 0, -1, 3])]),
    ("multi_margin_loss", lambda m, x, y: F(m).multi_margin_loss(x, y, margin=0.8),
     [randn(3, 4), T3]),
    ("multi_margin_loss_p2_weight_none", lambda m, x, y, w: F(m).multi_margin_loss(
        x, y, p=2, weight=w, reduction="none"), [nc(randn(3, 4)), T3, W4]),
    ("multi_margin_loss_1d_sum", lambda m, x, y: F(m).multi_margin_loss(x, y, reduction="sum"),
     [randn(4), idx(2)]),
    ("cosine_embedding_loss", lambda m, a, b, y: F(m).cosine_embedding_loss(a, b, y, 0.2),
     [randn(3, 4), randn(3, 4), idx([1, -1, -1])]),
    ("torch_cosine_embedding_loss", lambda m, a, b, y: m.cosine_embedding_loss(a, b, y),
     [randn(4), randn(4), const(np.array(1.0))]),
    ("triplet_margin_loss", lambda m, a, p, n: F(m).triplet_margin_loss(a, p, n, margin=2.0),
     [randn(3, 4), randn(3, 4), randn(3, 4)]),
    ("triplet_margin_loss_swap_p1", lambda m, a, p, n: F(m).triplet_margin_loss(
        a, p, n, margin=3.0, p=1, swap=True, reduction="none"),
     [randn(3, 4), nc(randn(3, 4)), randn(3, 4)]),
    ("torch_triplet_margin_loss", lambda m, a, p, n: m.triplet_margin_loss(a, p, n, 2.0),
     [randn(2, 3), randn(2, 3), randn(2, 3)]),
    ("triplet_margin_with_distance_loss", lambda m, a, p, n:
     F(m).triplet_margin_with_distance_loss(a, p, n, margin=2.0, swap=True),
     [randn(3, 4), randn(3, 4), randn(3, 4)]),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_grads(case):
    fn, specs = case[1], case[2]
    options = case[3] if len(case) > 3 else {}
    check_grads(fn, *specs, **options)


GRADGRAD = {"cross_entropy", "cross_entropy_probs", "nll_loss_none_weight", "mse_loss",
            "smooth_l1_loss", "huber_loss", "binary_cross_entropy", "bce_with_logits_weights_sum",
            "kl_div", "gaussian_nll_loss", "soft_margin_loss", "multilabel_soft_margin_loss",
            "multilabel_margin_loss", "multi_margin_loss_p2_weight_none",
            "cosine_embedding_loss", "triplet_margin_loss"}


@pytest.mark.parametrize("case", [c for c in CASES if c[0] in GRADGRAD], ids=lambda c: c[0])
def test_gradgrad(case):
    check_gradgrad(case[1], *case[2])


# the op behind each loss and the node PyTorch names its backward
NODES = [
    ("_nll_loss", lambda m, x: F(m).nll_loss(x, m.tensor([0, 1])), "NllLossBackward0"),
    ("_nll_loss", lambda m, x: F(m).cross_entropy(x, m.tensor([0, 1])), "NllLossBackward0"),
    ("_nll_loss", lambda m, x: F(m).nll_loss(x.reshape(2, 3, 1, 1), m.zeros(2, 1, 1).long()),
     "NllLoss2DBackward0"),
    ("_nll_loss", lambda m, x: F(m).cross_entropy(x.reshape(1, 3, 2), m.zeros(1, 2).long()),
     "NllLoss2DBackward0"),
    ("_mse_loss", lambda m, x: F(m).mse_loss(x, x * 2), "MseLossBackward0"),
    ("_smooth_l1_loss", lambda m, x: F(m).smooth_l1_loss(x, x * 2), "SmoothL1LossBackward0"),
    ("_huber_loss", lambda m, x: F(m).huber_loss(x, x * 2), "HuberLossBackward0"),
    ("_binary_cross_entropy", lambda m, x: F(m).binary_cross_entropy(x.sigmoid(), x.exp() /
                                                                     9),
     "BinaryCrossEntropyBackward0"),
    ("binary_cross_entropy_with_logits", lambda m, x: F(m).binary_cross_entropy_with_logits(
        x, x.exp() / 9), "BinaryCrossEntropyWithLogitsBackward0"),
    ("_soft_margin_loss", lambda m, x: F(m).soft_margin_loss(x, x.detach().sign()),
     "SoftMarginLossBackward0"),
    ("_multilabel_margin_loss", lambda m, x: F(m).multilabel_margin_loss(
        x, m.tensor([[0, -1, 1], [2, 1, 0]])), "MultilabelMarginLossBackward0"),
    ("_multi_margin_loss", lambda m, x: F(m).multi_margin_loss(x, m.tensor([0, 2])),
     "MultiMarginLossBackward0"),
    ("kl_div", lambda m, x: F(m).kl_div(x, x.exp(), reduction="none"), "SubBackward0"),
    ("poisson_nll_loss", lambda m, x: F(m).poisson_nll_loss(x, x.exp(), reduction="none"),
     "SubBackward0"),
    ("hinge_embedding_loss", lambda m, x: F(m).hinge_embedding_loss(x, x.sign(),
                                                                    reduction="none"),
     "AddBackward0"),
    ("margin_ranking_loss", lambda m, x: F(m).margin_ranking_loss(x, x * 2, x.sign(),
                                                                  reduction="none"),
     "ClampMinBackward0"),
    ("cosine_embedding_loss", lambda m, x: F(m).cosine_embedding_loss(
        x, x * 2, m.tensor([1, -1]), reduction="none"), "AddBackward0"),
    ("triplet_margin_loss", lambda m, x: F(m).triplet_margin_loss(x, x * 2, x + 1,
                                                                  reduction="none"),
     "ClampMinBackward0"),
    ("l1_loss", lambda m, x: F(m).l1_loss(x, x * 2), "MeanBackward0"),
    ("l1_loss", lambda m, x: F(m).smooth_l1_loss(x, x * 2, beta=0.0, reduction="sum"),
     "SumBackward0"),
    ("mse_loss", lambda m, x: F(m).mse_loss(x, x * 2, weight=x.detach().abs()),
     "DivBackward0"),
    ("huber_loss", lambda m, x: F(m).huber_loss(x, x * 2, weight=x.detach().abs()),
     "MeanBackward0"),
    ("cross_entropy", lambda m, x: F(m).cross_entropy(x, m.tensor([0, 1]),
                                                      label_smoothing=0.1), "AddBackward0"),
    ("gaussian_nll_loss", lambda m, x: F(m).gaussian_nll_loss(x, x * 2, x.detach().abs(),
                                                              reduction="none"),
     "MulBackward0"),
    ("multilabel_soft_margin_loss", lambda m, x: F(m).multilabel_soft_margin_loss(
        x, x.sigmoid(), reduction="none"), "DivBackward0"),
]


@pytest.mark.parametrize("op_name, fn, node", NODES, ids=[n[2] + "-" + n[0] for n in NODES])
def test_node_names(op_name, fn, node):
    assert op_name in OPS
    data = np.array([[0.3, -1.2, 0.8], [1.1, 0.4, -0.6]])
    for m in (mindtorch, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y = fn(m, m.tensor(data, requires_grad=True))
        assert y.grad_fn.name() == node


# nn.functional's losses that torch also has as torch.<name> (ATen's form, int reduction)
# are ops of their own: functional_<name>
FUNCTIONAL_TWINS = ["functional_binary_cross_entropy_with_logits", "functional_kl_div",
                    "functional_poisson_nll_loss", "functional_hinge_embedding_loss",
                    "functional_margin_ranking_loss", "functional_cosine_embedding_loss",
                    "functional_triplet_margin_loss"]


@pytest.mark.parametrize("op_name", FUNCTIONAL_TWINS)
def test_functional_twins(op_name):
    name = op_name.removeprefix("functional_")
    assert mindtorch.nn.functional.__getattr__(name)._op is OPS[op_name]
    assert getattr(mindtorch, name)._op is OPS[name]


@pytest.mark.parametrize("fn", [
    lambda m, x, w: F(m).nll_loss(x, m.tensor([0, 1]), w),
    lambda m, x, w: F(m).cross_entropy(x, m.tensor([0, 1]), w, label_smoothing=0.1),
    lambda m, x, w: F(m).binary_cross_entropy(x.sigmoid(), x.sigmoid().detach(), w),
    lambda m, x, w: F(m).binary_cross_entropy_with_logits(x, x.sigmoid(), pos_weight=w),
    lambda m, x, w: F(m).binary_cross_entropy_with_logits(x, x.sigmoid(), w),
    lambda m, x, w: F(m).soft_margin_loss(x, w.expand(2, 3)),
    lambda m, x, w: F(m).multi_margin_loss(x, m.tensor([0, 2]), weight=w),
])
def test_nondifferentiable_arguments(fn):
    """Weights (and soft_margin_loss's target) have no derivative in PyTorch's kernels:
    requiring grad for them is refused while recording, and accepted under no_grad."""
    def args(m):
        return (m.tensor([[0.3, -1.2, 0.8], [1.1, 0.4, -0.6]], requires_grad=True),
                m.tensor([0.5, 1.0, 2.0], requires_grad=True))
    with pytest.raises(RuntimeError) as expected:
        fn(torch, *args(torch))
    with pytest.raises(RuntimeError, match="is not differentiable with respect to argument"):
        fn(mindtorch, *args(mindtorch))
    assert str(expected.value).startswith("The function")
    with mindtorch.no_grad():
        fn(mindtorch, *args(mindtorch))


def test_target_and_variance_grads_flow_through():
    """Gradients reach targets where PyTorch's do (the composite losses and the formula
    ops with a target formula)."""
    x = mindtorch.tensor([[0.2, -0.4], [0.9, 0.1]], requires_grad=True)
    y = mindtorch.tensor([[0.7, 0.3], [0.5, 0.8]], requires_grad=True)
    v = mindtorch.tensor([[0.5, 1.5], [2.0, 0.3]], requires_grad=True)
    tx, ty, tv = (torch.tensor(t.detach().numpy(), requires_grad=True) for t in (x, y, v))
    for m, args in ((mindtorch, (x, y, v)), (torch, (tx, ty, tv))):
        a, b, c = args
        total = (F(m).gaussian_nll_loss(a, b, c) + F(m).binary_cross_entropy(a.sigmoid(), b) +
                 F(m).binary_cross_entropy_with_logits(a, b, pos_weight=c[0].detach()) +
                 F(m).kl_div(a, b, reduction="sum") + F(m).huber_loss(a, b) +
                 F(m).cross_entropy(a, b.softmax(1)))
        total.backward()
    for got, expected in ((x, tx), (y, ty), (v, tv)):
        np.testing.assert_allclose(got.grad.numpy(), expected.grad.numpy(), rtol=1e-6,
                                   atol=1e-6)
