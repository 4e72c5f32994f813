"""Gradients of the layer primitives against PyTorch (values and grads), finite differences
(gradcheck) and the meta device: linear, bilinear, embedding (EmbeddingBackward0: padding
row, scale_grad_by_freq, max_norm), embedding_bag (EmbeddingBagBackward0: sum/mean/max,
per_sample_weights, padding), scaled_dot_product_attention, cosine_similarity,
pairwise_distance, pdist (PdistBackward0); dropout's gradient is its mask, scaled."""
import math
import warnings

import mindtorch
import numpy as np
import pytest
import torch
from gradutil import check_gradgrad, check_grads, const, nc, rand, randn

M = mindtorch


def F(m):
    return m.nn.functional


IDX = const([[1, 3, 3], [0, 4, 1]])
BAG = const([1, 2, 4, 4, 3, 1, 0])
OFF = const([0, 3, 3, 5])
# rows with ties and repeated rows: pdist at distance 0, maxima shared
TIES = np.array([[1.0, 2.0, 0.5], [1.0, 2.0, 0.5], [0.0, -1.0, 3.0], [2.0, 2.0, -1.0]])

NO_FD = {"gradcheck": False}
CASES = [
    # (id, fn(module, *tensors), specs[, check_grads options])
    ("linear", lambda m, x, w, b: F(m).linear(x, w, b), [randn(3, 4), randn(5, 4), randn(5)]),
    ("linear_3d", lambda m, x, w, b: F(m).linear(x, w, b), [nc(randn(2, 3, 4)), randn(5, 4),
                                                            randn(5)]),
    ("linear_1d_input", lambda m, x, w: F(m).linear(x, w), [randn(4), nc(randn(5, 4))]),
    ("linear_1d_weight", lambda m, x, w, b: F(m).linear(x, w, b), [randn(2, 3, 4), randn(4),
                                                                   np.array(0.5)]),
    ("linear_empty", lambda m, x, w, b: F(m).linear(x, w, b), [randn(0, 4), randn(5, 4),
                                                               randn(5)]),
    ("bilinear", lambda m, a, b, w, c: F(m).bilinear(a, b, w, c),
     [randn(2, 3), randn(2, 4), randn(5, 3, 4), randn(5)]),
    ("bilinear_nd", lambda m, a, b, w: m.bilinear(a, b, w, None),
     [nc(randn(2, 2, 3)), randn(2, 2, 2), randn(3, 3, 2)]),
    ("embedding", lambda m, i, w: F(m).embedding(i, w), [IDX, randn(5, 3)]),
    # (the padding row is read but gets no gradient, scale_grad_by_freq rescales it: finite
    # differences disagree, as with torch)
    ("embedding_padding", lambda m, i, w: F(m).embedding(i, w, padding_idx=3), [IDX, randn(5, 3)],
     NO_FD),
    ("embedding_padding_neg", lambda m, i, w: F(m).embedding(i, w, padding_idx=-4),
     [IDX, nc(randn(5, 3))], NO_FD),
    ("embedding_freq", lambda m, i, w: F(m).embedding(i, w, scale_grad_by_freq=True),
     [IDX, randn(5, 3)], NO_FD),
    ("embedding_torch", lambda m, w, i: m.embedding(w, i, 1, True), [randn(5, 3), IDX], NO_FD),
    ("embedding_0dim_idx", lambda m, i, w: F(m).embedding(i, w), [const(2), randn(5, 3)]),
    ("embedding_max_norm", lambda m, i, w: F(m).embedding(i, w * 1, max_norm=0.5),
     [IDX, randn(5, 3)], NO_FD),  # (the renorm is not differentiated, as in torch)
    ("embedding_empty", lambda m, i, w: F(m).embedding(i, w), [const(np.zeros(0, np.int64)),
                                                               randn(5, 3)]),
]
for _mode in ("sum", "mean", "max"):
    CASES += [
        (f"embedding_bag_{_mode}", lambda m, i, w, o, mode=_mode: F(m).embedding_bag(
            i, w, o, mode=mode), [BAG, randn(5, 3), OFF], {"gradcheck": _mode != "max"}),
        (f"embedding_bag_{_mode}_2d", lambda m, i, w, mode=_mode: F(m).embedding_bag(
            i, w, mode=mode, padding_idx=1), [const([[1, 2], [4, 1]]), nc(randn(5, 3))]),
        (f"embedding_bag_{_mode}_last", lambda m, i, w, o, mode=_mode: F(m).embedding_bag(
            i, w, o, mode=mode, include_last_offset=True), [BAG, randn(5, 3), const([0, 2, 7])]),
    ]
CASES += [
    ("embedding_bag_psw", lambda m, i, w, o, p: F(m).embedding_bag(
        i, w, o, mode="sum", per_sample_weights=p, padding_idx=4), [BAG, randn(5, 3), OFF,
                                                                    randn(7)]),
    ("embedding_bag_torch", lambda m, w, i, o, p: m.embedding_bag(w, i, o, False, 0, False, p),
     [randn(5, 3), BAG, OFF, randn(7)]),
    ("sdpa", lambda m, q, k, v: F(m).scaled_dot_product_attention(q, k, v),
     [randn(2, 3, 4), randn(2, 5, 4), randn(2, 5, 2)]),
    ("sdpa_causal_scale", lambda m, q, k, v: F(m).scaled_dot_product_attention(
        q, k, v, is_causal=True, scale=0.7), [nc(randn(1, 3, 2)), randn(1, 3, 2), randn(1, 3, 3)]),
    ("sdpa_bool_mask", lambda m, q, k, v, a: F(m).scaled_dot_product_attention(q, k, v, a),
     [randn(3, 2), randn(4, 2), randn(4, 2), const([[True, False, True, True],
                                                    [False, False, False, False],
                                                    [True, True, True, False]])]),
    ("sdpa_float_mask", lambda m, q, k, v, a: F(m).scaled_dot_product_attention(q, k, v, a),
     [randn(2, 3, 2), randn(2, 4, 2), randn(2, 4, 2), randn(3, 4)]),
    ("sdpa_gqa", lambda m, q, k, v: F(m).scaled_dot_product_attention(q, k, v, enable_gqa=True),
     [randn(4, 2, 2), randn(2, 3, 2), randn(2, 3, 2)]),
    ("cosine_similarity", lambda m, a, b: F(m).cosine_similarity(a, b), [randn(3, 4),
                                                                         randn(3, 4)]),
    ("cosine_similarity_bc", lambda m, a, b: m.cosine_similarity(a, b, -1, 0.1),
     [nc(randn(3, 1, 4)), randn(2, 4)]),
    ("cosine_similarity_zero", lambda m, a, b: F(m).cosine_similarity(a, b, 0),
     [np.zeros(3), randn(3)], {"gradcheck": False}),
    ("cosine_similarity_int", lambda m, a, b: F(m).cosine_similarity(a, b),
     [const([[1, 2], [3, 4]]), randn(2, 2)]),
]
for _p in (2.0, 1.0, 3.0, 0.5, math.inf, 0.0):
    CASES += [
        (f"pairwise_distance_p{_p}", lambda m, a, b, p=_p: F(m).pairwise_distance(a, b, p),
         [randn(3, 4), randn(3, 4)]),
    ] if _p else []
    CASES += [
        (f"pdist_p{_p}", lambda m, x, p=_p: F(m).pdist(x, p), [randn(4, 3)]),
        (f"pdist_ties_p{_p}", lambda m, x, p=_p: m.pdist(x, p), [TIES], {"gradcheck": False}),
    ]
CASES += [
    ("pairwise_distance_keepdim", lambda m, a, b: m.pairwise_distance(a, b, 2.0, 1e-3, True),
     [nc(randn(3, 4)), randn(4)]),
    ("pairwise_distance_0dim", lambda m, a, b: F(m).pairwise_distance(a, b),
     [np.array(1.5), np.array(-0.5)]),
    ("pdist_nc", lambda m, x: F(m).pdist(x), [nc(randn(4, 3))]),
    ("pdist_one_row", lambda m, x: F(m).pdist(x), [randn(1, 3)]),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_grads(case):
    _, fn, specs, *options = case
    check_grads(fn, *specs, **(options[0] if options else {}))


@pytest.mark.parametrize("name,fn,specs", [
    ("linear", lambda m, x, w, b: F(m).linear(x, w, b), [randn(2, 3, 4), randn(5, 4),
                                                         randn(5)]),
    ("embedding_bag", lambda m, i, w, o: F(m).embedding_bag(i, w, o), [BAG, randn(5, 3), OFF]),
    ("sdpa", lambda m, q, k, v: F(m).scaled_dot_product_attention(q, k, v),
     [randn(2, 3, 4), randn(2, 5, 4), randn(2, 5, 2)]),
    ("pdist", lambda m, x: F(m).pdist(x), [randn(4, 3)]),
])
def test_float32(name, fn, specs):
    check_grads(fn, *specs, dtype="float32", atol=1e-4, rtol=1e-4)


GRADGRAD = [
    ("linear", lambda m, x, w, b: F(m).linear(x, w, b), [randn(2, 3), randn(2, 3), randn(2)]),
    ("bilinear", lambda m, a, b, w: F(m).bilinear(a, b, w), [randn(2, 2), randn(2, 3),
                                                             randn(2, 2, 3)]),
    ("embedding_padding_freq", lambda m, i, w: F(m).embedding(i, w, 3, None, 2.0, True),
     [IDX, randn(5, 3)]),
    ("embedding_bag_mean", lambda m, i, w, o: F(m).embedding_bag(i, w, o), [BAG, randn(5, 3),
                                                                           OFF]),
    ("embedding_bag_psw", lambda m, i, w, o, p: F(m).embedding_bag(
        i, w, o, mode="sum", per_sample_weights=p), [BAG, randn(5, 2), OFF, randn(7)]),
    ("sdpa", lambda m, q, k, v: F(m).scaled_dot_product_attention(q, k, v, is_causal=True),
     [randn(3, 2), randn(3, 2), randn(3, 2)]),
    ("cosine_similarity", lambda m, a, b: F(m).cosine_similarity(a, b), [randn(2, 3),
                                                                         randn(2, 3)]),
    ("pairwise_distance", lambda m, a, b: F(m).pairwise_distance(a, b), [randn(2, 3),
                                                                         randn(2, 3)]),
    ("pdist", lambda m, x: F(m).pdist(x, 3.0), [randn(3, 2)]),
]


@pytest.mark.parametrize("fn,specs", [c[1:] for c in GRADGRAD], ids=[c[0] for c in GRADGRAD])
def test_gradgrad(fn, specs):
    check_gradgrad(fn, *specs)


@pytest.mark.parametrize("fn,expected", [
    (lambda m, x: m.embedding(x, m.tensor([1, 0])), "EmbeddingBackward0"),
    (lambda m, x: F(m).embedding(m.tensor([1, 0]), x), "EmbeddingBackward0"),
    (lambda m, x: F(m).embedding_bag(m.tensor([1, 0]), x, m.tensor([0])),
     "EmbeddingBagBackward0"),
    (lambda m, x: m.embedding_bag(x, m.tensor([1, 0]), m.tensor([0]))[0],
     "EmbeddingBagBackward0"),
    (lambda m, x: F(m).pdist(x), "PdistBackward0"),
    (lambda m, x: F(m).dropout(x, 0.5), "MulBackward0"),
    (lambda m, x: F(m).alpha_dropout(x, 0.5, True), "AddBackward0"),
    (lambda m, x: F(m).bilinear(x, x, m.ones(2, 3, 3)), "ViewBackward0"),
])
def test_node_names(fn, expected):
    for m in (M, torch):
        x = m.ones(2, 3).add(m.arange(6.0).reshape(2, 3)).requires_grad_()
        assert type(fn(m, x).grad_fn).__name__ == expected


@pytest.mark.parametrize("mode", ["sum", "mean"])
def test_embedding_bag_scale_grad_by_freq(mode):
    """PyTorch 2.13's cpu embedding_bag backward divides the g-th distinct row's gradient
    by the count of the g-th sorted index (here row 3 by row 2's count 2, row 4 by row 3's
    count 1): reproduced, as the reference (F.embedding divides by each row's own count)."""
    i, o = [1, 2, 4, 4, 3, 1, 0], [0, 3, 3, 5]
    data = randn(5, 3)
    grads = []
    for m in (M, torch):
        w = m.tensor(data, requires_grad=True)
        F(m).embedding_bag(m.tensor(i), w, m.tensor(o), mode=mode, scale_grad_by_freq=True) \
            .pow(2).sum().backward()
        grads.append(w.grad.numpy())
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-12, atol=1e-12)


def test_pairwise_distance_p0_gradient_is_zero():
    """The 0-"norm" counts nonzeros: no gradient.  PyTorch's engine leaves the inputs' grads
    None through the subtraction; mindtorch's engine materialises zeros for the missing
    gradient there (a difference of the engine, not of this op)."""
    a, b = randn(3, 4), randn(3, 4)
    x = M.tensor(a, requires_grad=True)
    y = F(M).pairwise_distance(x, M.tensor(b), 0.0)
    np.testing.assert_array_equal(y.detach().numpy(), F(torch).pairwise_distance(
        torch.tensor(a), torch.tensor(b), 0.0).numpy())
    y.sum().backward()
    assert x.grad is None or not x.grad.any()


def test_embedding_renorm_not_differentiable():
    for m in (M, torch):
        y = m.randn(5, 3, requires_grad=True) * 1
        m.embedding_renorm_(y, m.tensor([0, 1]), 1.0, 2.0)
        assert type(y.grad_fn).__name__ == "EmbeddingRenormBackward0"
        with pytest.raises(NotImplementedError, match="embedding_renorm"):
            y.sum().backward()


def test_embedding_bag_auxiliary_outputs_have_no_grad():
    w = M.randn(5, 3, requires_grad=True)
    out, offset2bag, bag_size, max_indices = M.embedding_bag(w, M.tensor([1, 2]), M.tensor([0]),
                                                            False, 2)
    assert out.requires_grad
    assert not any(t.requires_grad for t in (offset2bag, bag_size, max_indices))


def test_one_hot_has_no_grad():
    assert not F(M).one_hot(M.tensor([0, 2])).requires_grad


DROPOUTS = [
    ("functional_dropout", lambda m, x, p: F(m).dropout(x, p), False, False),
    ("functional_alpha_dropout", lambda m, x, p: F(m).alpha_dropout(x, p, True), False, True),
    ("functional_feature_alpha_dropout", lambda m, x, p: F(m).feature_alpha_dropout(x, p, True),
     True, True),
    ("dropout1d", lambda m, x, p: F(m).dropout1d(x, p), True, False),
    ("dropout2d", lambda m, x, p: F(m).dropout2d(x, p), True, False),
    ("dropout3d", lambda m, x, p: F(m).dropout3d(x, p), True, False),
    ("alpha_dropout", lambda m, x, p: m.alpha_dropout(x, p, True), False, True),
    ("feature_dropout", lambda m, x, p: m.feature_dropout(x, p, True), True, False),
    ("feature_alpha_dropout", lambda m, x, p: m.feature_alpha_dropout(x, p, True), True, True),
    ("dropout_", lambda m, x, p: m.dropout_(x * 1, p, True), False, False),
    ("alpha_dropout_", lambda m, x, p: m.alpha_dropout_(x * 1, p, True), False, True),
    ("feature_dropout_", lambda m, x, p: m.feature_dropout_(x * 1, p, True), True, False),
    ("feature_alpha_dropout_", lambda m, x, p: m.feature_alpha_dropout_(x * 1, p, True), True,
     True),
]


@pytest.mark.filterwarnings("ignore:dropout")
@pytest.mark.parametrize("name,fn,feature,alpha", DROPOUTS, ids=[d[0] for d in DROPOUTS])
def test_dropout_grad_is_scaled_mask(name, fn, feature, alpha):
    """The gradient is the draw's mask times 1 / (1 - p) (alpha forms: times a): where the
    output kept the input, and 0 elsewhere; p = 0 and training off pass it through, as in
    PyTorch (checked against it)."""
    p = 0.4
    x = M.tensor(rand(3, 4, 5, low=0.5, high=1.5), requires_grad=True)
    M.manual_seed(0)
    y = fn(M, x, p)
    (g,) = M.autograd.grad(y.sum(), x)
    scale = 1 / math.sqrt((1.7580993408473766 ** 2 * p + 1) * (1 - p)) if alpha else 1 / (1 - p)
    g = g.numpy()
    kept = ~np.isclose(g, 0)
    assert np.allclose(g[kept], scale)
    if not alpha:
        assert np.allclose(y.detach().numpy()[kept], x.detach().numpy()[kept] * scale)
    if feature:
        flat = kept.reshape(3, 4, -1)
        assert (flat.all(-1) | ~flat.any(-1)).all()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_grads(lambda m, x: fn(m, x, 0.0), randn(2, 3, 2))
        check_grads(lambda m, x: fn(m, x, 1.0), randn(2, 3, 2), gradcheck=False)


def test_dropout_eval_passes_gradient():
    for f in (lambda m, x: F(m).dropout(x, 0.5, False), lambda m, x: m.dropout(x, 0.3, False),
              lambda m, x: F(m).feature_alpha_dropout(x, 0.5), lambda m, x: m.dropout_(x * 1, 0.5,
                                                                                   False)):
        check_grads(f, randn(2, 3))


@pytest.mark.parametrize("public,op", [
    ("dropout", "functional_dropout"), ("alpha_dropout", "functional_alpha_dropout"),
    ("feature_alpha_dropout", "functional_feature_alpha_dropout"),
    ("embedding", "functional_embedding"), ("embedding_bag", "functional_embedding_bag"),
])
def test_functional_forms_are_their_own_ops(public, op):
    """nn.functional's arguments differ from torch.<name>'s: its own op, decomposing into
    torch.<name>'s (whose gradients the cases above check)."""
    assert getattr(F(M), public)._op.name == op
    assert getattr(M, public)._op.name == public
