"""Dropout's family (F.dropout, alpha/feature-alpha, dropout1d/2d/3d, torch.dropout and
feature_dropout): PyTorch's deterministic cases and errors, and, under a seed, its draws."""
import math
import warnings

import mindtorch
import numpy as np
import pytest
from reference import assert_same, to_torch, torch
from test_normalization import check, make


def F(lib):
    return lib.nn.functional


# -- dropout -----------------------------------------------------------------------------------

ALL_DROPOUT = [("F", "dropout"), ("F", "alpha_dropout"), ("F", "feature_alpha_dropout"),
               ("F", "dropout1d"), ("F", "dropout2d"), ("F", "dropout3d"),
               ("torch", "dropout"), ("torch", "alpha_dropout"),
               ("torch", "feature_alpha_dropout"), ("torch", "feature_dropout")]


def _dropout_fn(where, name, inplace=False):
    def fn(L, x, p=0.5, train=True):
        if where == "F":
            return getattr(F(L), name)(x, p, train, inplace)
        return getattr(L, name + ("_" if inplace else ""))(x, p, train)
    return fn


@pytest.mark.parametrize("where,name", ALL_DROPOUT, ids=lambda v: str(v))
def test_dropout_deterministic_cases(where, name):
    """p = 0, p = 1, training off, empty input, bad p and bad dtypes as PyTorch."""
    fn = _dropout_fn(where, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for shape in ((3, 4), (2, 3, 4), (4,), (), (0, 4)):
            x = make(shape)
            for p, train in ((0.0, True), (1.0, True), (0.5, False), (1.0, False)):
                check(lambda L, x, p=p, train=train: fn(L, x, p, train), x)
            check(lambda L, x: fn(L, x, 1.5, True), x)
            check(lambda L, x: fn(L, x, -0.1, False), x)
        for dt in ("int64", "bool", "complex64"):
            check(lambda L, x: fn(L, x, 0.5, True), make((3, 4)).to(getattr(mindtorch, dt)))


def _structure(y, x, p, feature, alpha):
    """y drawn by dropout from x: each element kept (x scaled) or dropped, whole channels at
    once for the feature forms; returns the kept mask."""
    y, x = y.double().numpy(), x.double().numpy()
    if alpha:
        a = 1.0 / math.sqrt((1.7580993408473766 ** 2 * p + 1) * (1 - p))
        kept_v, dropped_v = a * x + 1.7580993408473766 * a * p, \
            np.full_like(x, 1.7580993408473766 * a * (p - 1))
    else:
        kept_v, dropped_v = x / (1 - p), np.zeros_like(x)
    kept = np.isclose(y, kept_v, rtol=1e-5, atol=1e-6)
    dropped = np.isclose(y, dropped_v, rtol=1e-5, atol=1e-6)
    assert (kept | dropped).all()
    if feature:  # one draw per (sample, channel)
        flat = kept.reshape(x.shape[0], x.shape[1], -1)
        assert (flat.all(-1) | ~flat.any(-1)).all()
    return kept


@pytest.mark.filterwarnings("ignore:dropout")
@pytest.mark.parametrize("where,name", ALL_DROPOUT, ids=lambda v: str(v))
def test_dropout_draws(where, name):
    feature = "feature" in name or name[-2:] in ("1d", "2d", "3d")
    alpha = "alpha" in name
    fn = _dropout_fn(where, name)
    shape = (40, 50, 3) if feature else (40, 50)
    x = make(shape, low=0.5, high=1.5)
    for p in (0.2, 0.7):
        mindtorch.manual_seed(0)
        torch.manual_seed(0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y, expected = fn(mindtorch, x, p, True), fn(torch, to_torch(x), p, True)
        _structure(y, x, p, feature, alpha)
        assert_same(y, expected)  # PyTorch's draws: a seed gives its numbers
    y = fn(mindtorch, x.to(mindtorch.float16), 0.3, True)
    assert y.dtype is mindtorch.float16 and y.shape == x.shape
    assert fn(mindtorch, x.to("meta"), 0.3, True).shape == x.shape


@pytest.mark.filterwarnings("ignore:dropout")
def test_dropout_seeded_and_inplace():
    x = make((6, 5))
    mindtorch.manual_seed(3)
    a = F(mindtorch).dropout(x, 0.5)
    mindtorch.manual_seed(3)
    b = F(mindtorch).dropout(x, 0.5)
    assert_same(a, to_torch(b))
    for where, name in ALL_DROPOUT:
        y = make((4, 3, 2))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = _dropout_fn(where, name, inplace=True)(mindtorch, y, 0.4, True)
        assert r is y and y.shape == (4, 3, 2) and y._version > 0
        z = make((4, 3))
        assert _dropout_fn(where, name, inplace=True)(mindtorch, z, 0.4, False) is z
    x = make((3, 4))
    assert F(mindtorch).dropout1d(x, 0.5, True, True) is x  # unsqueeze_ / squeeze_ back


def test_dropout_nd_shapes_and_warnings():
    for name, shape in [("dropout1d", (3, 4)), ("dropout1d", (2, 3, 4)),
                        ("dropout2d", (2, 3, 4, 4)), ("dropout3d", (3, 2, 2, 2)),
                        ("dropout3d", (4,))]:
        check(lambda L, x, name=name: getattr(F(L), name)(x, 0.0), make(shape))
    with pytest.warns(UserWarning):
        F(mindtorch).dropout2d(make((2, 3)), 0.5)
    with pytest.warns(UserWarning):
        F(mindtorch).dropout2d(make((2, 3, 4)), 0.5)
    check(lambda L, x: F(L).dropout1d(x, 0.5), make((2, 3, 4, 5)))
    check(lambda L, x: F(L).dropout2d(x, 0.5), make((4,)))
