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

MF = mindtorch.nn.functional
RNG = np.random.default_rng(0)
REDUCTIONS = ("none", "mean", "sum")
FLOATS = ("float32", "float64")
HALVES = ("float16", "bfloat16")
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def _dt(name):
    return getattr(mindtorch, name)


def _tensor(data, dtype, nc):
    """data as a mindtorch tensor of `dtype`; nc: transposed storage (non-contiguous)."""
    data = np.asarray(data)
    if nc and data.ndim >= 2:
        t = mindtorch.tensor(np.ascontiguousarray(np.swapaxes(data, 0, -1))).transpose(0, -1)
        assert not t.is_contiguous() or 1 in data.shape
    else:
        t = mindtorch.tensor(data)
    return t.to(dtype)


def X(*shape):
    return lambda d, nc=False: _tensor(RNG.standard_normal(shape), _dt(d), nc)


def P(*shape):
    """Values in (0, 1): probabilities, BCE inputs and targets."""
    return lambda d, nc=False: _tensor(RNG.uniform(0.05, 0.95, shape), _dt(d), nc)


def POS(*shape):
    return lambda d, nc=False: _tensor(RNG.uniform(0.2, 3.0, shape), _dt(d), nc)


def SIGN(*shape):
    return lambda d, nc=False: _tensor(RNG.choice([-1.0, 1.0], shape), _dt(d), nc)


def IDX(values, dtype="int64"):
    """Class indices (kept integer whatever the case's dtype)."""
    return lambda d, nc=False: mindtorch.tensor(np.asarray(values)).to(_dt(dtype))


def _base_error(e):
    return next(c for c in type(e).__mro__ if c.__module__ == "builtins")


def check(fn, *mts, rtol=None, atol=None):
    """fn(lib, *tensors) agrees with PyTorch: same dtype, shape and values, or both raise
    errors of the same builtin class."""
    ths = [to_torch(m) for m in mts]
    try:
        expected = fn(torch, *ths)
    except Exception as e:  # noqa: BLE001 - torch's error class must be matched
        with pytest.raises(_base_error(e)):
            fn(mindtorch, *mts)
        return None
    got = fn(mindtorch, *mts)
    assert_same(got, expected, rtol=rtol, atol=atol)
    return got


def _F(lib):
    return lib.nn.functional


W4 = lambda d, nc=False: _tensor([0.5, 1.0, 2.0, 1.5], _dt(d), nc)  # noqa: E731

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


# -- errors ---------------------------------------------------------------------------------

def _x(*shape):
    return X(*shape)("float32")


def _i(values, dtype="int64"):
    return IDX(values, dtype)(None)


ERRORS = [
    # (id, fn(lib, *tensors), tensors, exact message (a regex) or None)
    ("nll_0dim", lambda m, x, t: _F(m).nll_loss(x, t), [_x(), _i(0)],
     r"Expected 1 or more dimensions \(got 0\)"),
    ("nll_batch", lambda m, x, t: _F(m).nll_loss(x, t), [_x(3, 4), _i([0, 1])],
     r"Expected input batch_size \(3\) to match target batch_size \(2\)\."),
    ("ce_batch", lambda m, x, t: _F(m).cross_entropy(x, t), [_x(3, 4), _i([0, 1])],
     r"Expected input batch_size \(3\) to match target batch_size \(2\)\."),
    ("nll_batch_0dim_target", lambda m, x, t: _F(m).nll_loss(x, t), [_x(3, 4), _i(1)],
     r"target batch_size \(0\)"),
    ("nll_out_of_bounds", lambda m, x, t: _F(m).nll_loss(x, t), [_x(3, 4), _i([0, 5, 1])],
     r"^Target 5 is out of bounds\.$"),
    ("nll_negative", lambda m, x, t: _F(m).nll_loss(x, t), [_x(3, 4), _i([0, -1, 1])],
     r"^Target -1 is out of bounds\.$"),
    ("ce_out_of_bounds_4d", lambda m, x, t: _F(m).cross_entropy(x, t),
     [_x(1, 3, 1, 2), _i([[[0, 7]]])], r"^Target 7 is out of bounds\.$"),
    ("nll_out_of_bounds_3d", lambda m, x, t: _F(m).nll_loss(x, t),
     [_x(1, 3, 2), _i([[0, 3]])], r"Target 3 is out of bounds"),
    ("nll_float_target", lambda m, x, t: _F(m).nll_loss(x, t), [_x(3, 4), _x(3)],
     "expected target dtype to be Long or Byte, but got Float"),
    ("ce_float_target", lambda m, x, t: _F(m).cross_entropy(x, t), [_x(3, 4), _x(3)],
     "expected target dtype to be Long or Byte, but got Float"),
    ("nll_int32_target", lambda m, x, t: _F(m).nll_loss(x, t), [_x(3, 4), _i([0, 1, 1],
                                                                            "int32")],
     "but got Int"),
    ("nll_bool_target", lambda m, x, t: _F(m).nll_loss(x, t), [_x(3, 4), _i([0, 1, 1],
                                                                           "bool")], None),
    ("nll_weight_size", lambda m, x, t, w: _F(m).nll_loss(x, t, w), [_x(3, 4), _i([0, 1, 1]),
                                                                     _x(3)],
     r"weight tensor should be defined either for all 4 classes or no classes but got "
     r"weight tensor of shape: \[3\]"),
    ("nll_weight_2d", lambda m, x, t, w: _F(m).nll_loss(x, t, w), [_x(3, 4), _i([0, 1, 1]),
                                                                   _x(1, 4)], None),
    ("nll_weight_4d", lambda m, x, t, w: _F(m).nll_loss(x, t, w),
     [_x(1, 4, 1, 2), _i([[[0, 1]]]), _x(3)],
     "weight tensor should be defined either for all or no classes"),
    ("nll_weight_dtype", lambda m, x, t, w: _F(m).nll_loss(x, t, w.double()),
     [_x(3, 4), _i([0, 1, 1]), _x(4)], "expected scalar type Float but found Double"),
    ("nll_int_input", lambda m, x, t: _F(m).nll_loss(x.long(), t), [_x(3, 4), _i([0, 1, 1])],
     "\"nll_loss_out_frame\" not implemented for 'Long'"),
    ("nll_int_input_3d", lambda m, x, t: _F(m).nll_loss(x.long(), t),
     [_x(2, 4, 3), _i(np.zeros((2, 3), np.int64))], None),
    ("ce_int_input", lambda m, x, t: _F(m).cross_entropy(x.long(), t),
     [_x(3, 4), _i([0, 1, 1])], None),
    ("nll_2d_target", lambda m, x, t: _F(m).nll_loss(x, t), [_x(3, 4), _i([[0], [1], [1]])],
     "0D or 1D target tensor expected, multi-target not supported"),
    ("nll_3d_target_size", lambda m, x, t: _F(m).nll_loss(x, t),
     [_x(2, 4, 5), _i(np.zeros((2, 6), np.int64))], r"Expected target size \[2, 5\], got "
                                                     r"\[2, 6\]"),
    ("nll_4d_target_size", lambda m, x, t: _F(m).nll_loss(x, t),
     [_x(2, 4, 5, 3), _i(np.zeros((2, 6, 3), np.int64))],
     r"size mismatch \(got input: \[2, 4, 5, 3\] , target: \[2, 6, 3\]"),
    ("nll_4d_target_dims", lambda m, x, t: _F(m).nll_loss(x, t),
     [_x(2, 4, 5, 3), _i(np.zeros((2, 5), np.int64))],
     "only batches of spatial targets supported"),
    ("nll_1d_target_2", lambda m, x, t: _F(m).nll_loss(x, t), [_x(4), _i([1, 2])],
     "For 1D input, 1D target must have size 1, but got target size: 2"),
    ("nll_bad_reduction", lambda m, x, t: _F(m).nll_loss(x, t, reduction="foo"),
     [_x(3, 4), _i([0, 1, 1])], "foo is not a valid value for reduction"),
    ("ce_probs_int_target", lambda m, x, t: _F(m).cross_entropy(x, t),
     [_x(3, 4), _i(np.zeros((3, 4), np.int64))],
     "Expected floating point type for target with class probabilities, got Long"),
    ("ce_probs_0dim", lambda m, x, t: _F(m).cross_entropy(x, t), [_x(), _x()], None),
    ("ce_probs_ignore_index", lambda m, x, t: _F(m).cross_entropy(x, t, ignore_index=1),
     [_x(3, 4), _x(3, 4)], "ignore_index is not supported for floating point target"),
    ("ce_probs_weight", lambda m, x, t, w: _F(m).cross_entropy(x, t, w),
     [_x(3, 4), _x(3, 4), _x(3)], "cross_entropy: weight tensor should be defined"),
    ("ce_smoothing", lambda m, x, t: _F(m).cross_entropy(x, t, label_smoothing=1.5),
     [_x(3, 4), _i([0, 1, 1])], "label_smoothing must be between 0.0 and 1.0. Got: 1.5"),
    ("ce_probs_smoothing", lambda m, x, t: _F(m).cross_entropy(x, t, label_smoothing=2.0),
     [_x(3, 4), _x(3, 4)], "label_smoothing must be between 0.0 and 1.0. Got: 2"),
    ("ce_half_weight_float", lambda m, x, t, w: _F(m).cross_entropy(x.half(), t, w),
     [_x(3, 4), _i([0, 1, 1]), _x(4)], None),
    ("mse_int", lambda m, x: _F(m).mse_loss(x.long(), x.long()), [_x(3)], None),
    ("mse_weight_size", lambda m, x, w: _F(m).mse_loss(x, x, weight=w), [_x(3, 4), _x(4)],
     "Weights and input must have the same size."),
    ("mse_weight_reduction", lambda m, x: _F(m).mse_loss(x, x, reduction="max", weight=x),
     [_x(3, 4)], "Invalid reduction mode: max"),
    ("mse_not_broadcastable", lambda m, x, y: _F(m).mse_loss(x, y), [_x(3, 4), _x(5)], None),
    ("smooth_l1_beta", lambda m, x: _F(m).smooth_l1_loss(x, x, beta=-1.0), [_x(3)],
     "smooth_l1_loss does not support negative values for beta."),
    ("huber_delta", lambda m, x: _F(m).huber_loss(x, x, delta=0.0), [_x(3)],
     "huber_loss does not support non-positive values for delta."),
    ("bce_range", lambda m, x: _F(m).binary_cross_entropy(x * 3, x.sigmoid()), [_x(3, 4)],
     "all elements of input should be between 0 and 1"),
    ("bce_nan", lambda m, x: _F(m).binary_cross_entropy(x * np.nan, x.sigmoid()), [_x(2)],
     None),
    ("bce_size", lambda m, x, y: _F(m).binary_cross_entropy(x.sigmoid(), y.sigmoid()),
     [_x(3, 4), _x(4)], r"Using a target size \(torch.Size\(\[4\]\)\) that is different to "
                        r"the input size \(torch.Size\(\[3, 4\]\)\) is deprecated"),
    ("bce_dtype", lambda m, x: _F(m).binary_cross_entropy(x.sigmoid(), x.sigmoid().double()),
     [_x(3)], "Found dtype Double but expected Float"),
    ("bce_int", lambda m, x: _F(m).binary_cross_entropy(x.long(), x.long()), [_x(3)], None),
    ("bce_weight_broadcast", lambda m, x, w: _F(m).binary_cross_entropy(
        x.sigmoid(), x.sigmoid(), w), [_x(3, 4), _x(2, 3, 4)],
     r"output with shape \[3, 4\] doesn't match the broadcast shape \[2, 3, 4\]"),
    ("bce_weight_not_broadcastable", lambda m, x, w: _F(m).binary_cross_entropy(
        x.sigmoid(), x.sigmoid(), w), [_x(3, 4), _x(5)], None),
    ("bce_logits_size", lambda m, x, y: _F(m).binary_cross_entropy_with_logits(x, y),
     [_x(3, 4), _x(4)], r"Target size \(torch.Size\(\[4\]\)\) must be the same as input size"),
    ("bce_logits_int_target", lambda m, x: _F(m).binary_cross_entropy_with_logits(
        x, x.long()), [_x(3)], "result type Float can't be cast to the desired output type "
                              "Long"),
    ("bce_logits_int_input", lambda m, x: _F(m).binary_cross_entropy_with_logits(
        x.long(), x), [_x(3)], None),
    ("bce_logits_pos_weight_shape", lambda m, x, w: _F(m).binary_cross_entropy_with_logits(
        x, x, pos_weight=w), [_x(3, 4), _x(2, 3, 4)], "doesn't match the broadcast shape"),
    ("kl_int", lambda m, x: _F(m).kl_div(x.long(), x, reduction="sum"), [_x(3)],
     "kl_div: Integral inputs not supported."),
    ("kl_reduction", lambda m, x: _F(m).kl_div(x, x, reduction="foo"), [_x(3)],
     "foo is not a valid value for reduction"),
    ("poisson_reduction", lambda m, x: _F(m).poisson_nll_loss(x, x, reduction="batchmean"),
     [_x(3)], "batchmean is not a valid value for reduction"),
    ("gaussian_negative", lambda m, x: _F(m).gaussian_nll_loss(x, x, -x.abs()), [_x(3)],
     "var has negative entry/entries"),
    ("gaussian_negative_number", lambda m, x: _F(m).gaussian_nll_loss(x, x, -1.0), [_x(3)],
     "var has negative entry/entries"),
    ("gaussian_var_size", lambda m, x, v: _F(m).gaussian_nll_loss(x, x, v),
     [_x(3, 4), _x(3, 5).abs()], "var is of incorrect size"),
    ("gaussian_var_size_two_dims", lambda m, x, v: _F(m).gaussian_nll_loss(x, x, v),
     [_x(3, 4), _x(1, 1).abs()], "var is of incorrect size"),
    ("gaussian_reduction", lambda m, x: _F(m).gaussian_nll_loss(x, x, x.abs(),
                                                                reduction="foo"),
     [_x(3)], "foo is not valid"),
    ("ranking_dims", lambda m, x, t: _F(m).margin_ranking_loss(x, x, t), [_x(3, 4), _x(4)],
     "margin_ranking_loss : All input tensors should have same dimension"),
    ("multilabel_soft_0dim", lambda m, x: _F(m).multilabel_soft_margin_loss(x, x), [_x()],
     None),
    ("multilabel_soft_reduction", lambda m, x: _F(m).multilabel_soft_margin_loss(
        x, x, reduction="foo"), [_x(3, 2)], "foo is not valid"),
    ("multilabel_margin_size", lambda m, x, t: _F(m).multilabel_margin_loss(x, t),
     [_x(3, 4), _i(np.zeros((2, 4), np.int64))],
     r"inconsistent target size: \[2, 4\] for input of size: \[3, 4\]"),
    ("multilabel_margin_range", lambda m, x, t: _F(m).multilabel_margin_loss(x, t),
     [_x(2, 3), _i([[0, 3, -1], [1, -1, 0]])], "argument #2 'target' is out of range"),
    ("multilabel_margin_below", lambda m, x, t: _F(m).multilabel_margin_loss(x, t),
     [_x(2, 3), _i([[0, -2, -1], [1, -1, 0]])], "out of range"),
    ("multilabel_margin_float_target", lambda m, x: _F(m).multilabel_margin_loss(x, x),
     [_x(2, 3)], "expected scalar type Long but found Float"),
    ("multilabel_margin_3d", lambda m, x, t: _F(m).multilabel_margin_loss(x, t),
     [_x(2, 3, 4), _i(np.zeros((2, 3, 4), np.int64))],
     r"Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
     r"\[2, 3, 4\]"),
    ("multilabel_margin_half", lambda m, x, t: _F(m).multilabel_margin_loss(x.half(), t),
     [_x(2, 3), _i([[0, 1, -1], [1, -1, 0]])], None),
    ("multi_margin_empty_classes", lambda m, x, t: _F(m).multi_margin_loss(x, t),
     [_x(2, 0), _i([0, 0])], "Expected non-empty vector or matrix"),
    ("multi_margin_range", lambda m, x, t: _F(m).multi_margin_loss(x, t),
     [_x(3, 4), _i([0, 4, 1])], "target out of range"),
    ("multi_margin_target_size", lambda m, x, t: _F(m).multi_margin_loss(x, t),
     [_x(3, 4), _i([0, 1])], r"Expected target size \[3\], but got \[2\]"),
    ("multi_margin_target_float", lambda m, x, t: _F(m).multi_margin_loss(x, t),
     [_x(3, 4), _x(3)], "expected scalar type Long but found Float"),
    ("multi_margin_weight_size", lambda m, x, t, w: _F(m).multi_margin_loss(x, t, weight=w),
     [_x(3, 4), _i([0, 1, 2]), _x(3)], r"inconsistent weight size, expected 4 but got \[3\]"),
    ("multi_margin_weight_2d", lambda m, x, t, w: _F(m).multi_margin_loss(x, t, weight=w),
     [_x(3, 4), _i([0, 1, 2]), _x(1, 4)], "weight must be one-dimensional"),
    ("multi_margin_p", lambda m, x, t: _F(m).multi_margin_loss(x, t, p=3),
     [_x(3, 4), _i([0, 1, 2])], "only p == 1 and p == 2 supported"),
    ("multi_margin_half", lambda m, x, t: _F(m).multi_margin_loss(x.half(), t),
     [_x(3, 4), _i([0, 1, 2])], None),
    ("cosine_target_2d", lambda m, x, t: _F(m).cosine_embedding_loss(x, x, t),
     [_x(3, 4), _x(3, 1)], "0D or 1D target tensor expected, multi-target not supported"),
    ("cosine_input_dims", lambda m, x, y, t: _F(m).cosine_embedding_loss(x, y, t),
     [_x(4), _x(3, 4), _x(3)], r"1D target tensor expects 2D input tensors, but found "
                               r"inputs with sizes \[4\] and \[3, 4\]\."),
    ("cosine_input2_dims", lambda m, x, y, t: _F(m).cosine_embedding_loss(x, y, t),
     [_x(3, 4), _x(3), _x(3)], None),
    ("cosine_0dim_target", lambda m, x, t: _F(m).cosine_embedding_loss(x, x, t),
     [_x(3, 4), _x()], "0D target tensor expects 1D input tensors"),
    ("triplet_dims", lambda m, a, n: _F(m).triplet_margin_loss(a, a, n), [_x(3, 4), _x(4)],
     "anchor 2D, positive 2D, and negative 1D inputs"),
    ("triplet_margin", lambda m, a: _F(m).triplet_margin_loss(a, a, a, margin=0), [_x(3, 4)],
     "margin must be greater than 0, got 0"),
    ("triplet_distance_dims", lambda m, a, n: _F(m).triplet_margin_with_distance_loss(
        a, a, n), [_x(3, 4), _x(4)], "anchor 2D, positive 2D, and negative 1D inputs"),
    ("triplet_distance_margin", lambda m, a: _F(m).triplet_margin_with_distance_loss(
        a, a, a, margin=-1.0), [_x(3, 4)], "margin must be greater than 0, got -1.0"),
    ("triplet_distance_reduction", lambda m, a: _F(m).triplet_margin_with_distance_loss(
        a, a, a, reduction="foo"), [_x(3, 4)], "foo is not a valid value for reduction"),
]


@pytest.mark.parametrize("name, fn, tensors, message", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors(name, fn, tensors, message):
    ths = [to_torch(t) for t in tensors]
    with pytest.raises(Exception) as expected:
        fn(torch, *ths)
    cls = _base_error(expected.value)
    with pytest.raises(cls) as got:
        fn(mindtorch, *tensors)
    if message is not None:
        import re
        assert re.search(message, str(expected.value)), expected.value  # the test's premise
        assert re.search(message, str(got.value)), got.value


def test_errors_on_meta():
    """Metadata checks raise on meta too; the data-dependent ones (target bounds, BCE
    input range, negative variances) do not, as the meta device has no values."""
    x = mindtorch.empty(3, 4, device="meta")
    with pytest.raises(ValueError, match="batch_size"):
        MF.nll_loss(x, mindtorch.zeros(2, dtype=mindtorch.int64, device="meta"))
    with pytest.raises(RuntimeError, match="Long or Byte"):
        MF.cross_entropy(x, mindtorch.empty(3, device="meta"))
    MF.nll_loss(x, mindtorch.full((3,), 9, device="meta"))
    MF.binary_cross_entropy(x, x)
    MF.gaussian_nll_loss(x, x, x)


# -- the op database's samples --------------------------------------------------------------

def _torch_function(name):
    """PyTorch's function for a loss op: F.<name>, torch.<name>, or torch._C._nn.<name>
    for the hidden ATen ops."""
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


@pytest.mark.parametrize("which", ["weight", "pos_weight"])
def test_bce_with_logits_torch_form_refuses_grad_weights_at_the_call(which):
    """torch.binary_cross_entropy_with_logits refuses a weight requiring grad when it
    records (not at backward); under no_grad it runs."""
    for lib in (mindtorch, torch):
        x = lib.randn(3, requires_grad=True)
        w = lib.rand(3, requires_grad=True)
        with pytest.raises(RuntimeError, match=f"with respect to argument '{which}'"):
            lib.binary_cross_entropy_with_logits(x, lib.rand(3), **{which: w})
        with lib.no_grad():
            assert lib.binary_cross_entropy_with_logits(x, lib.rand(3), **{which: w}).shape \
                == (3,)


@pytest.mark.parametrize("margin", [math.nan, math.inf, 1000.0, 2.7, -1.5])
def test_hinge_embedding_margin_into_integer_input(margin):
    """An integer input takes the margin as a tensor of its dtype: PyTorch's overflow check
    (RuntimeError) for NaN, inf and out-of-range margins."""
    x = mindtorch.tensor([1, -2, 3], dtype=mindtorch.int8)
    t = mindtorch.tensor([1.0, -1.0, -1.0], dtype=mindtorch.float64)
    check(lambda m, x, t: _F(m).hinge_embedding_loss(x, t, margin=margin), x, t)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_soft_margin_loss_refuses_complex_autograd(reduction):
    from test_indexing import _c, same_complex_autograd
    loss = lambda L, x, y: L.nn.functional.soft_margin_loss(x, y, reduction=reduction)  # noqa
    same_complex_autograd(loss, lambda L: (_c(L, 2, 3), _c(L, 2, 3, grad=False, seed=1)))
    same_complex_autograd(loss, lambda L: (_c(L, 2, 3), _c(L, 2, 3, seed=1)))  # target first
    same_complex_autograd(loss, lambda L: (_c(L, 2, 3).real, _c(L, 2, 3, grad=False, seed=1).real))


@pytest.mark.parametrize("dtype, tdtype, shape, weight", [
    ("float16", "int32", (3, 4), None), ("complex64", "int32", (3, 4), None),
    ("bfloat16", "int64", (3, 4), "float64"), ("float32", "int32", (3, 4), "float64"),
    ("float32", "int64", (3, 4), "float64"), ("float16", "int32", (0, 4), "float64"),
    ("int64", "int32", (0, 4), None), ("float32", "int32", (0, 4), None)])
def test_multi_margin_loss_checks_in_pytorchs_order(dtype, tdtype, shape, weight):
    # the kernel's dtype (NotImplementedError), then the target's (Long), then the weight's;
    # an empty input returns before all of them
    from reference import same_error
    x = mindtorch.ones(shape).to(getattr(mindtorch, dtype))
    t = mindtorch.zeros(shape[0], dtype=getattr(mindtorch, tdtype))
    w = None if weight is None else mindtorch.ones(4, dtype=getattr(mindtorch, weight))
    tw = None if w is None else to_torch(w)
    mt = lambda: mindtorch.nn.functional.multi_margin_loss(x, t, weight=w)  # noqa: E731
    th = lambda: torch.nn.functional.multi_margin_loss(to_torch(x), to_torch(t), weight=tw)  # noqa
    same_error(mt, th)
    if shape[0] == 0:
        got, expected = mt(), th()
        assert (got.dtype, got.shape) == (getattr(mindtorch, dtype), ()) and \
            str(expected.dtype) == str(got.dtype)


@pytest.mark.parametrize("device", ["cpu", "meta"])
def test_cosine_embedding_loss_complex_refused_before_target_size(device):
    # ATen clamps (refusing complex) before it compares the target with the inputs' rows
    from reference import same_error
    a = mindtorch.randn(3, 4, dtype=mindtorch.complex64, device=device)
    t = mindtorch.ones(2, device=device)
    for f, g in ((mindtorch.nn.functional.cosine_embedding_loss,
                  torch.nn.functional.cosine_embedding_loss),
                 (mindtorch.cosine_embedding_loss, torch.cosine_embedding_loss)):
        ta = torch.randn(3, 4, dtype=torch.complex64)
        same_error(lambda: f(a, a, t), lambda: g(ta, ta, torch.ones(2)))
    with pytest.raises(NotImplementedError, match="clamp is not supported for complex"):
        mindtorch.nn.functional.cosine_embedding_loss(a, a, t)


@pytest.mark.parametrize("name", ["huber_loss", "mse_loss", "l1_loss"])
@pytest.mark.parametrize("dtype", ["uint8", "bool", "float32"])
@pytest.mark.parametrize("tshape, wshape", [((3, 4), (5,)), ((3, 5), (3, 4)), ((3, 4), (3, 4)),
                                            ((4,), (3, 4))])
def test_weighted_loss_checks_weight_first(name, dtype, tshape, wshape):
    # PyTorch's Python checks the weight's size before it computes the loss (whose dtype
    # may be refused: huber_cpu of Byte, bool subtraction)
    from reference import same_error

    def run(lib):
        x = lib.ones(3, 4, dtype=getattr(lib, dtype))
        t = lib.ones(*tshape, dtype=getattr(lib, dtype))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return getattr(lib.nn.functional, name)(x, t, weight=lib.ones(*wshape))
    same_error(lambda: run(mindtorch), lambda: run(torch))


@pytest.mark.parametrize("name, kw", [("huber_loss", "delta"), ("smooth_l1_loss", "beta")])
@pytest.mark.parametrize("value", [math.nan, -1.0, 0.0, math.inf])
def test_loss_nan_delta_beta_refused(name, kw, value):
    # ATen's TORCH_CHECK(delta > 0) / (beta >= 0) refuse NaN as well
    from reference import same_error

    def run(lib):
        x = lib.ones(3, 4)
        return getattr(lib.nn.functional, name)(x, x * 2, **{kw: value})
    same_error(lambda: run(mindtorch), lambda: run(torch))
