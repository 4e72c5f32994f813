"""Loss modules (loss.py) against PyTorch: every loss class of torch.nn (CTCLoss's and
LinearCrossEntropyLoss's inputs are in test_ctc_loss.py / test_linear_cross_entropy.py),
signatures, repr, weight buffers
in the state_dict, forward and backward for every reduction, legacy size_average/reduce,
and constructor errors."""
import inspect
import warnings

import numpy as np
import pytest

import mindtorch
from mindtorch import nn
from layers_helpers import check_module, close, torch

tnn = torch.nn
DTYPES = ["float64", "float32"]
MISSING = set()
NAMES = [n for n in tnn.modules.loss.__all__ if n not in MISSING]
REDUCTIONS = ["mean", "sum", "none"]


def test_every_loss_is_exported():
    assert sorted(nn.modules.loss.__all__) == sorted(NAMES)
    for name in NAMES:
        assert getattr(nn, name).__name__ == name


def _parameters(cls):
    return [(p.name, p.kind, p.default) for p in inspect.signature(cls).parameters.values()]


@pytest.mark.parametrize("name", [n for n in NAMES if n != "NLLLoss2d"])
def test_signature(name):
    if name == "TripletMarginWithDistanceLoss":  # the default is a PairwiseDistance()
        assert list(inspect.signature(nn.TripletMarginWithDistanceLoss).parameters) == \
            ["distance_function", "margin", "swap", "reduction"]
        return
    assert _parameters(getattr(nn, name)) == _parameters(getattr(tnn, name))


def test_nll_loss_2d_is_deprecated():
    with pytest.warns(FutureWarning, match="NLLLoss2d"):
        m = nn.NLLLoss2d(ignore_index=3)
    assert isinstance(m, nn.NLLLoss) and m.ignore_index == 3


def _data(kind, shape, rng):
    if kind == "normal":
        return rng.standard_normal(shape)
    if kind == "prob":
        return rng.uniform(0.05, 0.95, shape)
    if kind == "positive":
        return rng.uniform(0.2, 2.0, shape)
    if kind == "logprob":
        x = rng.standard_normal(shape)
        return x - np.log(np.exp(x).sum(1, keepdims=True))
    if kind == "sign":
        return np.where(rng.random(shape) < 0.5, -1.0, 1.0)
    if kind == "binary":
        return (rng.random(shape) < 0.5).astype(np.float64)
    if kind == "count":
        return rng.integers(0, 5, shape).astype(np.float64)
    if kind.startswith("class"):  # "class<n>": class indices below n, some -100 if "class<n>i"
        n = int(kind[5:].rstrip("i"))
        target = rng.integers(0, n, shape)
        if kind.endswith("i"):
            target[0] = -100
        return target
    if kind == "multilabel":  # indices, then -1 ending each row's list
        target = np.full(shape, -1)
        for row in target.reshape(-1, shape[-1]):
            count = rng.integers(0, shape[-1])
            row[:count] = rng.permutation(shape[-1])[:count]
        return target
    raise ValueError(kind)


def make(specs, dtype, seed=0):
    """(mindtorch, torch) pairs from (kind, shape, requires_grad) specs."""
    rng = np.random.default_rng(seed)
    pairs = []
    for kind, shape, grad in specs:
        data = _data(kind, shape, rng)
        mt, th = mindtorch.tensor(data), torch.from_numpy(data)
        if data.dtype.kind == "f":
            mt, th = mt.to(getattr(mindtorch, dtype)), th.to(getattr(torch, dtype))
        if grad:
            mt.requires_grad_()
            th.requires_grad_()
        pairs.append((mt, th))
    return pairs


def weight(n, dtype, seed=3):
    data = np.random.default_rng(seed).uniform(0.5, 2.0, n)
    return (mindtorch.tensor(data).to(getattr(mindtorch, dtype)),
            torch.from_numpy(data).to(getattr(torch, dtype)))


REGRESSION = [("normal", (3, 4), True), ("normal", (3, 4), True)]
CASES = [  # (name, constructor kwargs, input specs); "W<n>"/"P<n>" kwargs become tensors
    ("L1Loss", {}, REGRESSION),
    ("MSELoss", {}, REGRESSION),
    ("MSELoss", {}, [("normal", (3, 4), True), ("normal", (4,), False)]),
    ("HuberLoss", {}, REGRESSION),
    ("HuberLoss", {"delta": 0.5}, REGRESSION),
    ("SmoothL1Loss", {"beta": 0.5}, REGRESSION),
    ("SmoothL1Loss", {}, REGRESSION),
    ("CrossEntropyLoss", {}, [("normal", (5, 4), True), ("class4", (5,), False)]),
    ("CrossEntropyLoss", {"weight": "W4", "ignore_index": 1},
     [("normal", (6, 4), True), ("class4", (6,), False)]),
    ("CrossEntropyLoss", {"label_smoothing": 0.2, "weight": "W4"},
     [("normal", (5, 4), True), ("class4i", (5,), False)]),
    ("CrossEntropyLoss", {"label_smoothing": 0.1},
     [("normal", (2, 3, 2, 2), True), ("class3", (2, 2, 2), False)]),
    ("CrossEntropyLoss", {}, [("normal", (4,), True), ("class4", (), False)]),
    ("CrossEntropyLoss", {"weight": "W4", "label_smoothing": 0.3},
     [("normal", (5, 4), True), ("prob", (5, 4), True)]),
    ("NLLLoss", {}, [("logprob", (5, 4), True), ("class4i", (5,), False)]),
    ("NLLLoss", {"weight": "W3", "ignore_index": 0},
     [("logprob", (2, 3, 4), True), ("class3", (2, 4), False)]),
    ("BCELoss", {}, [("prob", (3, 4), True), ("prob", (3, 4), False)]),
    ("BCELoss", {"weight": "W4"}, [("prob", (3, 4), True), ("binary", (3, 4), False)]),
    ("BCEWithLogitsLoss", {}, [("normal", (3, 4), True), ("prob", (3, 4), True)]),
    ("BCEWithLogitsLoss", {"weight": "W4", "pos_weight": "P4"},
     [("normal", (3, 4), True), ("binary", (3, 4), False)]),
    ("KLDivLoss", {}, [("logprob", (3, 4), True), ("prob", (3, 4), True)]),
    ("KLDivLoss", {"log_target": True}, [("logprob", (3, 4), True), ("logprob", (3, 4), True)]),
    ("PoissonNLLLoss", {}, [("normal", (3, 4), True), ("count", (3, 4), False)]),
    ("PoissonNLLLoss", {"log_input": False, "full": True, "eps": 1e-4},
     [("positive", (3, 4), True), ("count", (3, 4), False)]),
    ("GaussianNLLLoss", {}, [("normal", (3, 4), True), ("normal", (3, 4), True),
                             ("positive", (3, 4), True)]),
    ("GaussianNLLLoss", {"full": True, "eps": 1e-3},
     [("normal", (3, 4), True), ("normal", (3, 4), False), ("positive", (3, 1), True)]),
    ("HingeEmbeddingLoss", {}, [("normal", (3, 4), True), ("sign", (3, 4), False)]),
    ("HingeEmbeddingLoss", {"margin": 0.5}, [("normal", (5,), True), ("sign", (5,), False)]),
    ("MultiLabelMarginLoss", {}, [("normal", (3, 4), True), ("multilabel", (3, 4), False)]),
    ("MultiLabelMarginLoss", {}, [("normal", (5,), True), ("multilabel", (5,), False)]),
    ("SoftMarginLoss", {}, [("normal", (3, 4), True), ("sign", (3, 4), False)]),
    ("MultiLabelSoftMarginLoss", {}, [("normal", (3, 4), True), ("binary", (3, 4), False)]),
    ("MultiLabelSoftMarginLoss", {"weight": "W4"},
     [("normal", (3, 4), True), ("binary", (3, 4), False)]),
    ("CosineEmbeddingLoss", {}, [("normal", (4, 5), True), ("normal", (4, 5), True),
                                 ("sign", (4,), False)]),
    ("CosineEmbeddingLoss", {"margin": 0.3}, [("normal", (4, 5), True),
                                              ("normal", (4, 5), True), ("sign", (4,), False)]),
    ("MarginRankingLoss", {}, [("normal", (5,), True), ("normal", (5,), True),
                               ("sign", (5,), False)]),
    ("MarginRankingLoss", {"margin": 0.4}, [("normal", (5,), True), ("normal", (5,), True),
                                            ("sign", (5,), False)]),
    ("MultiMarginLoss", {}, [("normal", (5, 4), True), ("class4", (5,), False)]),
    ("MultiMarginLoss", {"p": 2, "margin": 0.7, "weight": "W4"},
     [("normal", (5, 4), True), ("class4", (5,), False)]),
    ("TripletMarginLoss", {}, [("normal", (4, 5), True)] * 3),
    ("TripletMarginLoss", {"margin": 2.0, "p": 1, "swap": True}, [("normal", (4, 5), True)] * 3),
    ("TripletMarginWithDistanceLoss", {}, [("normal", (4, 5), True)] * 3),
    ("TripletMarginWithDistanceLoss", {"margin": 0.5, "swap": True},
     [("normal", (4, 5), True)] * 3),
]


def _case_id(case):
    return f"{case[0]}-{'-'.join(f'{k}={v}' for k, v in case[1].items())}"


def build(name, kwargs, dtype, **extra):
    """The torch and mindtorch losses, tensor kwargs ("W4": a weight of 4) made per side."""
    th_kwargs, mt_kwargs = dict(kwargs, **extra), dict(kwargs, **extra)
    for key, value in kwargs.items():
        if isinstance(value, str) and value[0] in "WP" and value[1:].isdigit():
            mt_kwargs[key], th_kwargs[key] = weight(int(value[1:]), dtype, seed=ord(value[0]))
    return getattr(tnn, name)(**th_kwargs), getattr(nn, name)(**mt_kwargs)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_forward_backward(case, reduction, dtype):
    name, kwargs, specs = case
    th, mt = build(name, kwargs, dtype, reduction=reduction)
    assert repr(mt) == repr(th)
    check_module(th, mt, *make(specs, dtype), dtype=dtype)


@pytest.mark.parametrize("name,kwargs", [("KLDivLoss", {}), ("KLDivLoss", {"log_target": True})])
def test_kl_div_batchmean(name, kwargs):
    th, mt = build(name, kwargs, "float64", reduction="batchmean")
    check_module(th, mt, *make([("logprob", (3, 4), True), ("prob", (3, 4), True)], "float64"))


def test_noncontiguous_inputs():
    rng = np.random.default_rng(0)
    data, target = rng.standard_normal((4, 5)), rng.integers(0, 4, 5)
    x_mt = mindtorch.tensor(data).requires_grad_()
    x_th = torch.from_numpy(data).requires_grad_()
    th, mt = tnn.CrossEntropyLoss(label_smoothing=0.1), nn.CrossEntropyLoss(label_smoothing=0.1)
    loss_mt = mt(x_mt.t(), mindtorch.tensor(target))
    loss_th = th(x_th.t(), torch.from_numpy(target))
    close(loss_mt, loss_th, "float64")
    loss_mt.backward()
    loss_th.backward()
    close(x_mt.grad, x_th.grad, "float64")
    y = rng.standard_normal((5, 4))
    close(nn.MSELoss()(mindtorch.tensor(data).t(), mindtorch.tensor(y)),
          tnn.MSELoss()(torch.from_numpy(data).t(), torch.from_numpy(y)), "float64")


def test_tripletmarginwithdistance_custom_distance():
    (a, p, n) = make([("normal", (4, 5), True)] * 3, "float64")

    def cosine(f):
        return lambda x, y: 1.0 - f.cosine_similarity(x, y)

    th = tnn.TripletMarginWithDistanceLoss(distance_function=cosine(torch.nn.functional),
                                           margin=0.3)
    mt = nn.TripletMarginWithDistanceLoss(distance_function=cosine(mindtorch.nn.functional),
                                          margin=0.3)
    check_module(th, mt, a, p, n)


@pytest.mark.parametrize("name,kwargs,keys", [
    ("CrossEntropyLoss", {"weight": "W3"}, ["weight"]),
    ("NLLLoss", {"weight": "W3"}, ["weight"]),
    ("BCELoss", {"weight": "W3"}, ["weight"]),
    ("MultiMarginLoss", {"weight": "W3"}, ["weight"]),
    ("MultiLabelSoftMarginLoss", {"weight": "W3"}, ["weight"]),
    ("BCEWithLogitsLoss", {"weight": "W3", "pos_weight": "P3"}, ["weight", "pos_weight"]),
    ("BCEWithLogitsLoss", {"pos_weight": "P3"}, ["pos_weight"]),
    ("CrossEntropyLoss", {}, []),
    ("TripletMarginWithDistanceLoss", {}, []),
])
def test_weight_buffers(name, kwargs, keys):
    th, mt = build(name, kwargs, "float64")
    assert list(mt.state_dict()) == list(th.state_dict()) == keys
    assert [n for n, _ in mt.named_buffers()] == keys
    assert list(mt.parameters()) == []
    mt.to(mindtorch.float32)
    for key in keys:
        assert getattr(mt, key).dtype == mindtorch.float32


LEGACY = [(None, None), (True, None), (False, None), (None, False), (True, False),
          (False, True), (False, False)]


@pytest.mark.parametrize("size_average,reduce", LEGACY)
@pytest.mark.parametrize("name", ["L1Loss", "MSELoss", "NLLLoss", "CrossEntropyLoss",
                                  "BCELoss", "KLDivLoss", "SmoothL1Loss", "PoissonNLLLoss",
                                  "HingeEmbeddingLoss", "MultiMarginLoss", "TripletMarginLoss",
                                  "CosineEmbeddingLoss", "MarginRankingLoss", "SoftMarginLoss",
                                  "MultiLabelMarginLoss", "MultiLabelSoftMarginLoss",
                                  "BCEWithLogitsLoss"])
def test_legacy_size_average_and_reduce(name, size_average, reduce):
    with warnings.catch_warnings(record=True) as th_warnings:
        warnings.simplefilter("always")
        th = getattr(tnn, name)(size_average=size_average, reduce=reduce, reduction="sum")
    with warnings.catch_warnings(record=True) as mt_warnings:
        warnings.simplefilter("always")
        mt = getattr(nn, name)(size_average=size_average, reduce=reduce, reduction="sum")
    assert mt.reduction == th.reduction
    assert [(w.category, str(w.message)) for w in mt_warnings] == \
        [(w.category, str(w.message)) for w in th_warnings]


def test_constructor_errors():
    with pytest.raises(ValueError, match="only p == 1 and p == 2 supported"):
        nn.MultiMarginLoss(p=3)
    with pytest.raises(ValueError, match="expected weight to be None or 1D tensor, got 2D"):
        nn.MultiMarginLoss(weight=mindtorch.ones(2, 2))
    for cls in (nn.TripletMarginLoss, nn.TripletMarginWithDistanceLoss):
        with pytest.raises(ValueError, match=f"{cls.__name__}: expected margin to be greater "
                                             "than 0, got 0 instead"):
            cls(margin=0)
    with pytest.raises(TypeError, match="delta must be a float or int"):
        nn.HuberLoss(delta="1")
    with pytest.raises(TypeError):
        nn.GaussianNLLLoss(True)  # keyword-only arguments
    with pytest.raises(TypeError):
        nn.TripletMarginWithDistanceLoss(None)


def test_invalid_reduction_fails_at_forward():
    mt = nn.MSELoss(reduction="bogus")  # accepted by the constructor, as PyTorch's
    with pytest.raises(ValueError, match="bogus is not a valid value for reduction"):
        mt(mindtorch.zeros(2), mindtorch.zeros(2))


@pytest.mark.filterwarnings("ignore:Using a target size")
@pytest.mark.parametrize("name,specs", [
    ("CrossEntropyLoss", [("normal", (3, 4), True), ("class9", (3,), False)]),
    ("NLLLoss", [("normal", (3, 4), True), ("class4", (2,), False)]),
    ("BCELoss", [("prob", (3, 4), True), ("prob", (4, 3), False)]),
    ("MSELoss", [("normal", (3, 4), True), ("normal", (2, 4), False)]),
])
def test_bad_input_same_error_class(name, specs):
    (x_mt, x_th), (t_mt, t_th) = make(specs, "float64")
    with pytest.raises(Exception) as th_err:
        getattr(tnn, name)()(x_th, t_th)
    base = next(c for c in type(th_err.value).__mro__ if c.__module__ == "builtins")
    with pytest.raises(base):
        getattr(nn, name)()(x_mt, t_mt)


def test_meta_device():
    x = mindtorch.empty(4, 5, device="meta")
    target = mindtorch.zeros(4, dtype=mindtorch.long, device="meta")
    assert nn.CrossEntropyLoss()(x, target).shape == ()
    assert nn.MSELoss(reduction="none")(x, x).shape == (4, 5)
