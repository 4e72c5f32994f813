"""Loss functions (torch.nn.functional's and torch.<loss>) against PyTorch: values and
dtypes for every reduction, half precision, non-contiguous, 0-dim, empty and K-dim inputs,
the legacy size_average/reduce arguments and their warnings, error classes and messages,
and the meta device's shapes and dtypes."""
import math
import warnings

import numpy as np
import pytest

import mindtorch
from reference import assert_same, to_torch, torch

from loss_helpers import (FLOATS, HALVES, IDX, MF, P, POS, REDUCTIONS, RNG, SIGN, W4, X,
                          _dt, _F, _tensor, check)
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


# (id, fn(lib, reduction, *tensors), tensor makers, dtypes)
CASES = [
    ("cross_entropy", lambda m, r, x, t: _F(m).cross_entropy(x, t, reduction=r),
     [X(3, 4), IDX([0, 1, 3])], FLOATS + HALVES),
    ("cross_entropy_weight_ignore", lambda m, r, x, t, w:
     _F(m).cross_entropy(x, t, weight=w, ignore_index=1, reduction=r),
     [X(3, 4), IDX([0, 1, 3]), W4], FLOATS + HALVES),
    ("cross_entropy_smoothing", lambda m, r, x, t, w:
     _F(m).cross_entropy(x, t, weight=w, label_smoothing=0.2, ignore_index=3, reduction=r),
     [X(3, 4), IDX([0, 1, 3]), W4], FLOATS),
    ("cross_entropy_probs", lambda m, r, x, t: _F(m).cross_entropy(x, t, reduction=r),
     [X(3, 4), P(3, 4)], FLOATS + HALVES),
    ("cross_entropy_probs_smoothing_weight", lambda m, r, x, t, w:
     _F(m).cross_entropy(x, t, weight=w, label_smoothing=0.3, reduction=r),
     [X(3, 4), P(3, 4), W4], FLOATS),
    ("cross_entropy_3d", lambda m, r, x, t: _F(m).cross_entropy(x, t, reduction=r),
     [X(2, 4, 3), IDX([[0, 1, 3], [2, 2, 0]])], FLOATS),
    ("cross_entropy_4d_smoothing", lambda m, r, x, t:
     _F(m).cross_entropy(x, t, label_smoothing=0.1, reduction=r),
     [X(2, 3, 2, 2), IDX([[[0, 1], [2, 2]], [[1, 0], [0, 2]]])], FLOATS),
    ("cross_entropy_5d", lambda m, r, x, t: _F(m).cross_entropy(x, t, reduction=r),
     [X(2, 3, 2, 1, 2), IDX(np.arange(8).reshape(2, 2, 1, 2) % 3)], FLOATS),
    ("cross_entropy_probs_3d", lambda m, r, x, t: _F(m).cross_entropy(x, t, reduction=r),
     [X(2, 4, 3), P(2, 4, 3)], FLOATS),
    ("cross_entropy_unbatched", lambda m, r, x, t: _F(m).cross_entropy(x, t, reduction=r),
     [X(5), IDX(3)], FLOATS),
    ("cross_entropy_unbatched_probs", lambda m, r, x, t: _F(m).cross_entropy(x, t, reduction=r),
     [X(5), P(5)], FLOATS),
    ("cross_entropy_uint8_target", lambda m, r, x, t: _F(m).cross_entropy(x, t, reduction=r),
     [X(3, 4), IDX([0, 1, 3], "uint8")], FLOATS),
    ("cross_entropy_empty", lambda m, r, x, t: _F(m).cross_entropy(x, t, reduction=r),
     [X(0, 4), IDX(np.zeros(0, np.int64))], FLOATS),
    ("nll_loss", lambda m, r, x, t: _F(m).nll_loss(x, t, reduction=r),
     [X(3, 4), IDX([0, 1, 3])], FLOATS + HALVES),
    ("nll_loss_weight_ignore", lambda m, r, x, t, w:
     _F(m).nll_loss(x, t, weight=w, ignore_index=-1, reduction=r),
     [X(4, 4), IDX([0, -1, 3, 2]), W4], FLOATS),
    ("nll_loss_all_ignored", lambda m, r, x, t: _F(m).nll_loss(x, t, reduction=r),
     [X(2, 4), IDX([-100, -100])], FLOATS),
    ("nll_loss_unbatched", lambda m, r, x, t: _F(m).nll_loss(x, t, reduction=r),
     [X(4), IDX(2)], FLOATS),
    ("nll_loss_unbatched_1", lambda m, r, x, t: _F(m).nll_loss(x, t, reduction=r),
     [X(4), IDX([2])], FLOATS),
    ("nll_loss_4d_weight", lambda m, r, x, t, w: _F(m).nll_loss(x, t, weight=w, reduction=r),
     [X(2, 4, 2, 3), IDX(np.arange(12).reshape(2, 2, 3) % 4), W4], FLOATS),
    ("nll_loss_3d_empty", lambda m, r, x, t: _F(m).nll_loss(x, t, reduction=r),
     [X(2, 4, 0), IDX(np.zeros((2, 0), np.int64))], FLOATS),
    ("nll_loss_empty_classes", lambda m, r, x, t: _F(m).nll_loss(x, t, reduction=r),
     [X(2, 0), IDX([-100, -100])], FLOATS),
    ("mse_loss", lambda m, r, x, y: _F(m).mse_loss(x, y, reduction=r),
     [X(3, 4), X(3, 4)], FLOATS + HALVES),
    ("mse_loss_broadcast", lambda m, r, x, y: _F(m).mse_loss(x, y, reduction=r),
     [X(3, 4), X(4)], FLOATS),
    ("mse_loss_weight", lambda m, r, x, y, w: _F(m).mse_loss(x, y, reduction=r, weight=w),
     [X(3, 4), X(3, 4), POS(3, 4)], FLOATS),
    ("mse_loss_0dim", lambda m, r, x, y: _F(m).mse_loss(x, y, reduction=r),
     [X(), X()], FLOATS),
    ("mse_loss_empty", lambda m, r, x, y: _F(m).mse_loss(x, y, reduction=r),
     [X(0, 3), X(0, 3)], FLOATS),
    ("l1_loss", lambda m, r, x, y: _F(m).l1_loss(x, y, reduction=r),
     [X(3, 4), X(3, 4)], FLOATS + HALVES),
    ("l1_loss_weight", lambda m, r, x, y, w: _F(m).l1_loss(x, y, reduction=r, weight=w),
     [X(3, 4), X(3, 4), POS(3, 4)], FLOATS),
    ("smooth_l1_loss", lambda m, r, x, y: _F(m).smooth_l1_loss(x, y, reduction=r, beta=0.7),
     [X(3, 4), X(3, 4)], FLOATS + HALVES),
    ("smooth_l1_loss_beta0", lambda m, r, x, y: _F(m).smooth_l1_loss(x, y, reduction=r,
                                                                       beta=0.0),
     [X(3, 4), X(3, 4)], FLOATS),
    ("huber_loss", lambda m, r, x, y: _F(m).huber_loss(x, y, reduction=r, delta=0.6),
     [X(3, 4), X(3, 4)], FLOATS + HALVES),
    ("huber_loss_weight", lambda m, r, x, y, w: _F(m).huber_loss(x, y, reduction=r, weight=w),
     [X(3, 4), X(3, 4), POS(3, 4)], FLOATS),
    ("binary_cross_entropy", lambda m, r, x, y: _F(m).binary_cross_entropy(x, y, reduction=r),
     [P(3, 4), P(3, 4)], FLOATS + HALVES),
    ("binary_cross_entropy_weight", lambda m, r, x, y, w:
     _F(m).binary_cross_entropy(x, y, weight=w, reduction=r), [P(3, 4), P(3, 4), W4], FLOATS),
    ("binary_cross_entropy_edges", lambda m, r, x, y:
     _F(m).binary_cross_entropy(x, y, reduction=r),
     [lambda d, nc=False: _tensor([0.0, 1.0, 0.0, 1.0, 0.5], _dt(d), nc),
      lambda d, nc=False: _tensor([0.0, 1.0, 1.0, 0.0, 0.3], _dt(d), nc)], FLOATS),
    ("bce_with_logits", lambda m, r, x, y:
     _F(m).binary_cross_entropy_with_logits(x, y, reduction=r),
     [X(3, 4), P(3, 4)], FLOATS + HALVES),
    ("bce_with_logits_weights", lambda m, r, x, y, w, pw:
     _F(m).binary_cross_entropy_with_logits(x, y, weight=w, pos_weight=pw, reduction=r),
     [X(3, 4), P(3, 4), POS(3, 1), W4], FLOATS),
    ("bce_with_logits_large", lambda m, r, x, y:
     _F(m).binary_cross_entropy_with_logits(x, y, reduction=r),
     [lambda d, nc=False: _tensor([-200.0, -30.0, 0.0, 30.0, 200.0], _dt(d), nc), P(5)],
     FLOATS),
    ("kl_div", lambda m, r, x, y: _F(m).kl_div(x, y, reduction=r),
     [X(3, 4), P(3, 4)], FLOATS + HALVES),
    ("kl_div_zero_target", lambda m, r, x, y: _F(m).kl_div(x, y, reduction=r),
     [X(3), lambda d, nc=False: _tensor([0.0, 0.5, 0.5], _dt(d), nc)], FLOATS),
    ("kl_div_batchmean_log_target", lambda m, r, x, y:
     _F(m).kl_div(x, y, reduction="batchmean", log_target=True), [X(3, 4), X(3, 4)], FLOATS),
    ("poisson_nll_loss", lambda m, r, x, y: _F(m).poisson_nll_loss(x, y, reduction=r),
     [X(3, 4), POS(3, 4)], FLOATS + HALVES),
    ("poisson_nll_loss_full", lambda m, r, x, y:
     _F(m).poisson_nll_loss(x, y, log_input=False, full=True, reduction=r),
     [POS(3, 4), POS(3, 4)], FLOATS),
    ("gaussian_nll_loss", lambda m, r, x, y, v: _F(m).gaussian_nll_loss(x, y, v, reduction=r),
     [X(3, 4), X(3, 4), POS(3, 4)], FLOATS + HALVES),
    ("gaussian_nll_loss_row_var", lambda m, r, x, y, v:
     _F(m).gaussian_nll_loss(x, y, v, full=True, reduction=r), [X(3, 4), X(3, 4), POS(3)],
     FLOATS),
    ("gaussian_nll_loss_one_var_dim", lambda m, r, x, y, v:
     _F(m).gaussian_nll_loss(x, y, v, eps=0.5, reduction=r), [X(3, 4), X(3, 4), POS(1, 4)],
     FLOATS),
    ("hinge_embedding_loss", lambda m, r, x, y:
     _F(m).hinge_embedding_loss(x, y, margin=0.5, reduction=r), [X(3, 4), SIGN(3, 4)],
     FLOATS + HALVES),
    ("margin_ranking_loss", lambda m, r, a, b, y:
     _F(m).margin_ranking_loss(a, b, y, margin=0.2, reduction=r), [X(5), X(5), SIGN(5)],
     FLOATS + HALVES),
    ("soft_margin_loss", lambda m, r, x, y: _F(m).soft_margin_loss(x, y, reduction=r),
     [X(3, 4), SIGN(3, 4)], FLOATS + HALVES),
    ("multilabel_soft_margin_loss", lambda m, r, x, y, w:
     _F(m).multilabel_soft_margin_loss(x, y, weight=w, reduction=r),
     [X(3, 4), P(3, 4), W4], FLOATS + HALVES),
    ("multilabel_margin_loss", lambda m, r, x, y:
     _F(m).multilabel_margin_loss(x, y, reduction=r),
     [X(3, 4), IDX([[3, 0, -1, 1], [1, 2, 3, 0], [-1, 1, 1, 1]])], FLOATS),
    ("multilabel_margin_loss_1d", lambda m, r, x, y:
     _F(m).multilabel_margin_loss(x, y, reduction=r), [X(4), IDX([2, 0, -1, 3])], FLOATS),
    ("multi_margin_loss", lambda m, r, x, y: _F(m).multi_margin_loss(x, y, reduction=r),
     [X(3, 4), IDX([0, 3, 1])], FLOATS),
    ("multi_margin_loss_p2_weight", lambda m, r, x, y, w:
     _F(m).multi_margin_loss(x, y, p=2, margin=0.5, weight=w, reduction=r),
     [X(3, 4), IDX([0, 3, 1]), W4], FLOATS),
    ("multi_margin_loss_1d", lambda m, r, x, y: _F(m).multi_margin_loss(x, y, reduction=r),
     [X(4), IDX([2])], FLOATS),
    ("cosine_embedding_loss", lambda m, r, a, b, y:
     _F(m).cosine_embedding_loss(a, b, y, margin=0.1, reduction=r),
     [X(3, 4), X(3, 4), IDX([1, -1, 1])], FLOATS + HALVES),
    ("cosine_embedding_loss_1d", lambda m, r, a, b, y:
     _F(m).cosine_embedding_loss(a, b, y, reduction=r),
     [X(4), X(4), lambda d, nc=False: mindtorch.tensor(-1.0)], FLOATS),
    ("triplet_margin_loss", lambda m, r, a, p, n:
     _F(m).triplet_margin_loss(a, p, n, reduction=r), [X(3, 4), X(3, 4), X(3, 4)],
     FLOATS + HALVES),
    ("triplet_margin_loss_swap_p1", lambda m, r, a, p, n:
     _F(m).triplet_margin_loss(a, p, n, margin=2.0, p=1, swap=True, reduction=r),
     [X(3, 4), X(3, 4), X(3, 4)], FLOATS),
    ("triplet_margin_loss_broadcast", lambda m, r, a, p, n:
     _F(m).triplet_margin_loss(a, p, n, reduction=r), [X(3, 4), X(1, 4), X(3, 4)], FLOATS),
    ("triplet_margin_with_distance_loss", lambda m, r, a, p, n:
     _F(m).triplet_margin_with_distance_loss(a, p, n, reduction=r, swap=True),
     [X(3, 4), X(3, 4), X(3, 4)], FLOATS),
    ("triplet_margin_with_distance_loss_fn", lambda m, r, a, p, n:
     _F(m).triplet_margin_with_distance_loss(
         a, p, n, distance_function=lambda u, v: (u - v).abs().sum(-1), margin=0.5,
         reduction=r), [X(3, 4), X(3, 4), X(3, 4)], FLOATS),
]
_IDS = [c[0] for c in CASES]


def _tols(dtype):
    return {"rtol": 2e-2, "atol": 2e-2} if dtype in HALVES else {}


@pytest.mark.parametrize("case", CASES, ids=_IDS)
def test_values(case):
    _, fn, makers, dtypes = case
    for dtype in dtypes:
        tensors = [mk(dtype) for mk in makers]
        for r in REDUCTIONS:
            check(lambda m, *ts: fn(m, r, *ts), *tensors, **_tols(dtype))


@pytest.mark.parametrize("case", [c for c in CASES if c[0] in (
    "cross_entropy", "cross_entropy_probs", "cross_entropy_3d", "nll_loss_4d_weight",
    "mse_loss_broadcast", "bce_with_logits_weights", "kl_div", "gaussian_nll_loss_row_var",
    "multilabel_margin_loss", "multi_margin_loss_p2_weight", "cosine_embedding_loss",
    "triplet_margin_loss", "soft_margin_loss", "huber_loss")], ids=lambda c: c[0])
def test_non_contiguous(case):
    _, fn, makers, _ = case
    tensors = [mk("float64", nc=True) for mk in makers]
    for r in REDUCTIONS:
        check(lambda m, *ts: fn(m, r, *ts), *tensors)


@pytest.mark.parametrize("case", CASES, ids=_IDS)
def test_meta_shapes(case):
    """The compositions run on the meta device with cpu's result shape and dtype."""
    _, fn, makers, dtypes = case
    tensors = [mk(dtypes[0]) for mk in makers]
    for r in REDUCTIONS:
        cpu = fn(mindtorch, r, *tensors)
        meta = fn(mindtorch, r, *(t.to("meta") for t in tensors))
        assert meta.device.type == "meta"
        assert (tuple(meta.shape), meta.dtype) == (tuple(cpu.shape), cpu.dtype)


# -- dtypes ---------------------------------------------------------------------------------

def _const(value, dtype):
    return lambda d, nc=False: _tensor(value, _dt(dtype), nc)


@pytest.mark.parametrize("name, fn, args", [
    ("mse", lambda m, a, b: _F(m).mse_loss(a, b), 2),
    ("l1", lambda m, a, b: _F(m).l1_loss(a, b, reduction="sum"), 2),
    ("smooth_l1", lambda m, a, b: _F(m).smooth_l1_loss(a, b), 2),
    ("huber", lambda m, a, b: _F(m).huber_loss(a, b), 2),
    ("bce", lambda m, a, b: _F(m).binary_cross_entropy(a.abs().clamp(max=1),
                                                        b.abs().clamp(max=1)), 2),
    ("bce_logits", lambda m, a, b: _F(m).binary_cross_entropy_with_logits(a, b), 2),
    ("kl_div", lambda m, a, b: _F(m).kl_div(a, b.abs(), reduction="sum"), 2),
    ("poisson", lambda m, a, b: _F(m).poisson_nll_loss(a, b), 2),
    ("gaussian", lambda m, a, b: _F(m).gaussian_nll_loss(a, b, 1.5), 2),
    ("hinge", lambda m, a, b: _F(m).hinge_embedding_loss(a, b.sign(), reduction="none"), 2),
    ("soft_margin", lambda m, a, b: _F(m).soft_margin_loss(a, b), 2),
    ("multilabel_soft", lambda m, a, b: _F(m).multilabel_soft_margin_loss(a, b), 2),
    ("ranking", lambda m, a, b: _F(m).margin_ranking_loss(a[:, 0], b[:, 0], b[:, 1].sign()),
     2),
    ("cosine", lambda m, a, b: _F(m).cosine_embedding_loss(a, b, a[:, 0].sign()), 2),
    ("triplet", lambda m, a, b: _F(m).triplet_margin_loss(a, b, b * 2), 2),
])
@pytest.mark.parametrize("dtypes", [("int64", "int64"), ("bool", "bool"),
                                    ("float32", "float64"), ("float64", "float32"),
                                    ("float32", "int64"), ("float16", "float32"),
                                    ("int64", "float32"), ("float32", "bool"),
                                    ("bool", "float32"), ("bfloat16", "uint8")],
                         ids="-".join)
def test_dtype_rules(name, fn, args, dtypes):
    """Result dtypes (or error classes) for mixed and integer inputs."""
    data = RNG.uniform(-2, 2, (3, 4))
    a, b = (_tensor(data * (i + 1), _dt(d), False) for i, d in enumerate(dtypes))
    check(fn, a, b, rtol=2e-2, atol=2e-2)


# -- the torch.<name> forms -----------------------------------------------------------------

@pytest.mark.parametrize("name, fn", [
    ("kl_div", lambda m, x, y, *r: m.kl_div(x, y.abs(), *r)),
    ("kl_div_log_target", lambda m, x, y, *r: m.kl_div(x, y, *r, log_target=True)),
    ("binary_cross_entropy_with_logits",
     lambda m, x, y, *r: m.binary_cross_entropy_with_logits(x, y.abs(), None, None, *r)),
    ("hinge_embedding_loss", lambda m, x, y, *r: m.hinge_embedding_loss(x, y.sign(), 0.5, *r)),
    ("margin_ranking_loss", lambda m, x, y, *r: m.margin_ranking_loss(x, y, y.sign(), 0.1, *r)),
    ("cosine_embedding_loss", lambda m, x, y, *r: m.cosine_embedding_loss(
        x, y, x[:, 0].sign(), 0.0, *r)),
    ("poisson_nll_loss", lambda m, x, y, *r: m.poisson_nll_loss(x, y.abs(), True, True, 1e-8,
                                                                *(r or (0,)))),
    ("triplet_margin_loss", lambda m, x, y, *r: m.triplet_margin_loss(
        x, y, x * 2, 1.0, 2, 1e-6, False, *r)),
])
def test_torch_namespace_forms(name, fn):
    """torch.<loss> takes ATen's int reduction, defaulting to 0 (no reduction) in torch's
    Python binding; any other value leaves the loss unreduced too."""
    a, b = X(3, 4)("float64"), X(3, 4)("float64")
    for r in ((), (0,), (1,), (2,), (5,)):
        check(lambda m, x, y: fn(m, x, y, *r), a, b)
    assert not hasattr(mindtorch.Tensor, name)


@pytest.mark.parametrize("target", ["uint8", "int64", "bool", "float64"])
@pytest.mark.parametrize("log_input", [True, False])
def test_poisson_nll_loss_full_keeps_loss_dtype(target, log_input):
    """full=True adds Stirling's term in place: the loss keeps its (bfloat16) dtype."""
    x = _tensor(RNG.uniform(0.1, 2, (3, 4)), mindtorch.bfloat16, False)
    t = _tensor(RNG.integers(0, 5, (3, 4)), _dt(target), False)
    check(lambda m, x, t: m.poisson_nll_loss(x, t, log_input, True, 1e-8, 0), x, t,
          rtol=2e-2, atol=2e-2)
    check(lambda m, x, t: _F(m).poisson_nll_loss(x, t, log_input, True), x, t, rtol=2e-2,
          atol=2e-2)


@pytest.mark.parametrize("x, t", [([0.5, 0.2], [1.5, 0.0]), ([0.5, 0.2], [math.nan, 0.0]),
                                  ([1.5, 0.2], [2.0, 0.0]), ([0.5, 1.2], [2.0, 0.0]),
                                  ([1.5, 0.2], [0.0, 3.0]), ([0.5, 0.2], [-0.1, 1.0])])
def test_binary_cross_entropy_target_range(x, t):
    """Input, then target, element by element: the first value outside [0, 1] (or NaN)
    names its tensor."""
    a, b = (mindtorch.tensor(v) for v in (x, t))
    check(lambda m, a, b: _F(m).binary_cross_entropy(a, b), a, b)
    with pytest.raises(RuntimeError, match="of (input|target) should be"):
        _F(mindtorch).binary_cross_entropy(a, b)


def test_namespaces():
    for name in ("cross_entropy", "nll_loss", "mse_loss", "binary_cross_entropy",
                 "gaussian_nll_loss", "multilabel_margin_loss"):
        assert hasattr(MF, name) and not hasattr(mindtorch, name)
        assert not hasattr(mindtorch.Tensor, name)
    for name in ("kl_div", "hinge_embedding_loss", "triplet_margin_loss"):
        assert getattr(MF, name) is not getattr(mindtorch, name)
    assert callable(MF.triplet_margin_with_distance_loss)


# -- legacy arguments and warnings ----------------------------------------------------------

@pytest.mark.parametrize("size_average, reduce", [(None, False), (True, None), (False, True),
                                                  (False, False), (True, True)])
@pytest.mark.parametrize("name, fn", [
    ("nll_loss", lambda m, x, sa, rd: _F(m).nll_loss(x, m.tensor([0, 2, 1]), None, sa, -100,
                                                     rd)),
    ("cross_entropy", lambda m, x, sa, rd: _F(m).cross_entropy(x, m.tensor([0, 2, 1]),
                                                               size_average=sa, reduce=rd)),
    ("mse_loss", lambda m, x, sa, rd: _F(m).mse_loss(x, x * 2, sa, rd)),
    ("l1_loss", lambda m, x, sa, rd: _F(m).l1_loss(x, x * 2, sa, rd)),
    ("smooth_l1_loss", lambda m, x, sa, rd: _F(m).smooth_l1_loss(x, x * 2, sa, rd)),
    ("bce", lambda m, x, sa, rd: _F(m).binary_cross_entropy(x.sigmoid(), x.sigmoid() / 2,
                                                            None, sa, rd)),
    ("bce_logits", lambda m, x, sa, rd: _F(m).binary_cross_entropy_with_logits(
        x, x.sigmoid(), None, sa, rd)),
    ("kl_div", lambda m, x, sa, rd: _F(m).kl_div(x, x.sigmoid(), sa, rd, "batchmean")),
    ("poisson", lambda m, x, sa, rd: _F(m).poisson_nll_loss(x, x.abs(), True, False, sa,
                                                            1e-8, rd)),
    ("hinge", lambda m, x, sa, rd: _F(m).hinge_embedding_loss(x, x.sign(), 1.0, sa, rd)),
    ("ranking", lambda m, x, sa, rd: _F(m).margin_ranking_loss(x, x * 2, x.sign(), 0, sa, rd)),
    ("soft_margin", lambda m, x, sa, rd: _F(m).soft_margin_loss(x, x.sign(), sa, rd)),
    ("multilabel_soft", lambda m, x, sa, rd: _F(m).multilabel_soft_margin_loss(
        x, x.sigmoid(), None, sa, rd)),
    ("multilabel_margin", lambda m, x, sa, rd: _F(m).multilabel_margin_loss(
        x, m.tensor([[0, -1, 1], [2, 1, -1], [1, 0, 2]]), sa, rd)),
    ("multi_margin", lambda m, x, sa, rd: _F(m).multi_margin_loss(
        x, m.tensor([0, 2, 1]), 1, 1.0, None, sa, rd)),
    ("cosine", lambda m, x, sa, rd: _F(m).cosine_embedding_loss(x, x * 2 + 1,
                                                                m.tensor([1, -1, 1]), 0, sa,
                                                                rd)),
    ("triplet", lambda m, x, sa, rd: _F(m).triplet_margin_loss(x, x * 2, x + 1, 1.0, 2, 1e-6,
                                                               False, sa, rd)),
])
def test_legacy_reduction_arguments(name, fn, size_average, reduce):
    """size_average/reduce choose the reduction (overriding reduction=) with PyTorch's
    deprecation warning."""
    x = X(3, 3)("float64")
    with pytest.warns(UserWarning, match="size_average and reduce args will be deprecated"):
        got = fn(mindtorch, x, size_average, reduce)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = fn(torch, to_torch(x), size_average, reduce)
    assert_same(got, expected)


def test_warnings():
    x, y = X(3, 4)("float32"), X(4)("float32")
    with pytest.warns(UserWarning, match=r"Using a target size \(torch.Size\(\[4\]\)\) that "
                                         r"is different to the input size"):
        MF.mse_loss(x, y)
    with pytest.warns(UserWarning, match="'batchmean' divides only by the batch size"):
        MF.kl_div(x, x.abs())
    with pytest.warns(UserWarning, match="elementwise_mean"):
        MF.l1_loss(x, x, reduction="elementwise_mean")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the default paths warn about nothing
        MF.mse_loss(x, x)
        MF.kl_div(x, x.abs(), reduction="batchmean")
        MF.cross_entropy(x, mindtorch.tensor([0, 1, 2]))


def test_warning_points_at_the_caller():
    with pytest.warns(UserWarning) as record:
        MF.nll_loss(X(3, 4)("float32"), mindtorch.tensor([0, 1, 2]), size_average=False)
    assert record[0].filename == __file__


# -- the op database's samples --------------------------------------------------------------

def _torch_function(name):
    """PyTorch's function for a loss op: F.<name>, torch.<name>, or torch._C._nn.<name>
    for the hidden ATen ops."""
    from mindtorch.testing.opdb._info import TORCH_REFERENCES
    ref = TORCH_REFERENCES.get(name)  # the op database's reference, where it declares one
    if callable(ref):
        return ref(torch)
    if ref is not None:
        fn = torch
        for part in ref.split("."):
            fn = getattr(fn, part)
        return fn
    if name.startswith("functional_"):
        return getattr(torch.nn.functional, name.removeprefix("functional_"))
    if name.startswith("_"):
        return getattr(torch._C._nn, name[1:])
    from mindtorch._ops import OPS
    if OPS[name].options.get("function", True):
        return getattr(torch, name)
    return getattr(torch.nn.functional, name)


def _to_torch(a):
    return to_torch(a) if isinstance(a, mindtorch.Tensor) else a


def _loss_samples():
    from mindtorch.testing.opdb import loss
    return sorted(loss.SAMPLES.items())


@pytest.mark.parametrize("name, samples", _loss_samples(), ids=[n for n, _ in _loss_samples()])
def test_opdb_samples(name, samples):
    """Every sample agrees with PyTorch on cpu and has cpu's shape and dtype on meta."""
    from mindtorch._ops import OPS
    op = OPS[name]
    for i, sample in enumerate(samples):
        mindtorch.manual_seed(i)
        args, kwargs = sample("cpu")
        got = op.binding(*args, **kwargs)
        expected = _torch_function(name)(*map(_to_torch, args),
                                         **{k: _to_torch(v) for k, v in kwargs.items()})
        assert_same(got, expected, rtol=2e-2 if got.dtype.itemsize == 2 else None,
                    atol=2e-2 if got.dtype.itemsize == 2 else None)
        mindtorch.manual_seed(i)
        margs, mkwargs = sample("meta")
        meta = op.binding(*margs, **mkwargs)
        assert (tuple(meta.shape), meta.dtype, meta.device.type) == \
            (tuple(got.shape), got.dtype, "meta")


def test_binary_cross_entropy_weight_broadcast_message():
    # (F broadcasts the weight with torch.broadcast_shapes: its message, Size printed)
    def run(lib):
        return lib.nn.functional.binary_cross_entropy(lib.full((4, 5), 0.5), lib.ones(4, 5),
                                                      weight=lib.ones(3))
    with pytest.raises(RuntimeError) as want:
        run(torch)
    with pytest.raises(RuntimeError) as got:
        run(mindtorch)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_bce_with_logits_fused_edges(dtype):
    """The cpu kernel's path (no weights, one dtype and shape): infinite and zero logits,
    0-dim, empty and strided inputs, each reduction, and the gradients of both inputs."""
    x = np.array([[np.inf, -np.inf, 0.0, 30.0], [-30.0, 1.5, -2.5, 1e-3]])
    y = np.array([[0.0, 1.0, 0.5, 0.25], [0.75, 1.0, 0.0, 0.5]])
    for sl in (np.s_[:, :], np.s_[:, ::2], np.s_[0, 2], np.s_[:0]):
        for r in ("none", "mean", "sum"):
            a = mindtorch.tensor(x[sl]).to(getattr(mindtorch, dtype)).requires_grad_()
            b = mindtorch.tensor(y[sl]).to(getattr(mindtorch, dtype)).requires_grad_()
            got = mindtorch.nn.functional.binary_cross_entropy_with_logits(a, b, reduction=r)
            ta, tb = to_torch(a).requires_grad_(), to_torch(b).requires_grad_()
            want = torch.nn.functional.binary_cross_entropy_with_logits(ta, tb, reduction=r)
            assert_same(got, want)
            finite = np.isfinite(x[sl]).all()
            if got.numel() and finite:
                assert_same(mindtorch.autograd.grad(got.sum(), (a, b)),
                            torch.autograd.grad(want.sum(), (ta, tb)))
