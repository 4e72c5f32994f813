"""Gradients of the view ops (and their in-place forms), and of every in-place variant
of a differentiable op applied to a non-leaf, against PyTorch."""
import numpy as np
import pytest
import torch

import mindtorch
from gradutil import check_gradgrad, check_grads, nc, randn
from mindtorch._ops import OPS
from mindtorch._ops.decls import pointwise
from reference import assert_same

VIEWS = {
    "view": (lambda m, x: x.view(3, 2), randn(2, 3)),
    "view_as": (lambda m, x: x.view_as(x.new_zeros(6)), randn(2, 3)),
    "reshape (copy)": (lambda m, x: x.t().reshape(6), randn(2, 3)),
    "reshape_as": (lambda m, x: x.reshape_as(x.new_zeros(3, 2)), nc(randn(2, 3))),
    "as_strided": (lambda m, x: x.as_strided((2, 2), (1, 2), 1), randn(6)),
    "as_strided overlapping": (lambda m, x: x.as_strided((3, 2), (1, 1)), randn(4)),
    "transpose": (lambda m, x: x.transpose(0, 2), randn(2, 3, 1)),
    "swapaxes": (lambda m, x: x.swapaxes(-1, 0), randn(2, 3)),
    "swapdims": (lambda m, x: x.swapdims(1, 0), nc(randn(2, 3))),
    "t": (lambda m, x: x.t(), randn(2, 3)),
    "t 1-d": (lambda m, x: x.t(), randn(3)),
    "permute": (lambda m, x: x.permute(2, 0, 1), randn(2, 3, 4)),
    "expand": (lambda m, x: x.expand(2, 3, 4), randn(3, 1)),
    "expand_as": (lambda m, x: x.expand_as(x.new_zeros(2, 3)), randn(1, 3)),
    "broadcast_to": (lambda m, x: m.broadcast_to(x, (4, 3)), randn(3)),
    "squeeze": (lambda m, x: x.squeeze(), randn(1, 3, 1)),
    "squeeze dim": (lambda m, x: x.squeeze(2), randn(1, 3, 1)),
    "unsqueeze": (lambda m, x: x.unsqueeze(-1), randn(2, 3)),
    "flatten": (lambda m, x: x.flatten(1), randn(2, 3, 2)),
    "unflatten": (lambda m, x: x.unflatten(1, (2, 2)), randn(3, 4)),
    "ravel": (lambda m, x: x.ravel(), nc(randn(2, 3))),
    "narrow": (lambda m, x: x.narrow(1, 1, 2), randn(2, 4)),
    "narrow negative start": (lambda m, x: m.narrow(x, 0, -2, 2), randn(4)),
    "select": (lambda m, x: x.select(1, -1), randn(2, 3)),
    "slice": (lambda m, x: x[:, 1::2], randn(2, 5)),
    "getitem mixed": (lambda m, x: x[1, None, ..., :2], randn(3, 2, 4)),
    "unbind": (lambda m, x: x.unbind(1), randn(2, 3)),
    "unbind one used": (lambda m, x: x.unbind(0)[1], randn(3, 2)),
    "split": (lambda m, x: x.split(2, 1), randn(2, 5)),
    "split_with_sizes": (lambda m, x: x.split_with_sizes([1, 3], 0), randn(4, 2)),
    "chunk": (lambda m, x: x.chunk(3, -1), randn(2, 5)),
    "tensor_split": (lambda m, x: m.tensor_split(x, [1, 3], 0), randn(5)),
    "hsplit": (lambda m, x: m.hsplit(x, 2), randn(2, 4)),
    "vsplit": (lambda m, x: m.vsplit(x, [1]), randn(3, 2)),
    "dsplit": (lambda m, x: m.dsplit(x, 2), randn(1, 2, 4)),
    "diagonal": (lambda m, x: x.diagonal(1, 0, 2), randn(3, 2, 4)),
    "movedim": (lambda m, x: m.movedim(x, (0, 1), (2, 0)), randn(2, 3, 4)),
    "moveaxis": (lambda m, x: m.moveaxis(x, 0, -1), randn(2, 3)),
    "unfold": (lambda m, x: x.unfold(1, 2, 1), randn(2, 4)),
    "alias (x[...])": (lambda m, x: x[...], randn(2)),
    "view_as_real": (lambda m, x: m.view_as_real(x.to(m.complex128)), randn(3)),
    "view_as_complex": (lambda m, x: m.view_as_complex(x).abs(), randn(3, 2)),
    "broadcast_tensors": (lambda m, x, y: m.broadcast_tensors(x, y), randn(3, 1), randn(4)),
    "meshgrid ij": (lambda m, x, y: m.meshgrid(x, y, indexing="ij"), randn(3), randn(2)),
    "meshgrid xy": (lambda m, x, y: m.meshgrid(x, y, indexing="xy"), randn(3), randn(2)),
    "adjoint": (lambda m, x: x.adjoint(), randn(2, 3)),
    "atleast_1d": (lambda m, x: m.atleast_1d(x), randn()),
    "atleast_2d": (lambda m, x: m.atleast_2d(x), randn(3)),
    "atleast_3d": (lambda m, x: m.atleast_3d(x), randn(2, 3)),
    "T": (lambda m, x: x.T, randn(2, 3)),
    "mT": (lambda m, x: x.mT, randn(4, 2, 3)),
    "mH": (lambda m, x: x.mH, randn(2, 3)),
    "H": (lambda m, x: x.H, randn(2, 3)),
    "empty": (lambda m, x: x.view(0, 3).t(), randn(0, 3)),
    "0-dim": (lambda m, x: x.view(1, 1).expand(2, 2), randn()),
}


@pytest.mark.parametrize("name", list(VIEWS))
def test_view_grads(name):
    fn, *specs = VIEWS[name]
    check_grads(fn, *specs)


IN_PLACE_VIEWS = {
    "t_": lambda m, x: (x * 1).t_(),
    "transpose_": lambda m, x: (x * 1).transpose_(0, 1),
    "swapaxes_": lambda m, x: (x * 1).swapaxes_(0, 1),
    "swapdims_": lambda m, x: (x * 1).swapdims_(1, 0),
    "unsqueeze_": lambda m, x: (x * 1).unsqueeze_(1),
    "squeeze_": lambda m, x: (x * 1).unsqueeze(0).squeeze_(0),
    "as_strided_": lambda m, x: (x * 1).as_strided_((3,), (2,)),
}


@pytest.mark.parametrize("name", list(IN_PLACE_VIEWS))
def test_in_place_view_grads(name):
    check_grads(IN_PLACE_VIEWS[name], randn(2, 3), gradcheck=False)


def test_view_second_derivatives():
    check_gradgrad(lambda m, x: (x.t()[1:] * x.t()[:-1]).unsqueeze(0).expand(2, 2, 2),
                   randn(2, 3))


# -- every in-place variant of a pointwise op, on a non-leaf --------------------------

# PyTorch raises at backward (floor_divide), needs bounds (clip_), or records a no-op node
# for real inputs (conj_physical_): covered in the pointwise tests
SWEEP_EXCLUDED = {"floor_divide_", "clip_", "conj_physical_"}


def _in_place_pointwise():
    cases = []
    for name in list(pointwise.UNARY) + list(pointwise.BINARY) + ["gelu", "silu", "round"]:
        if name + "_" not in OPS or not OPS[name].differentiable or \
                OPS[name].promotion == "always_bool":
            continue
        cases.append((name + "_", name in pointwise.BINARY))
    for alias, target in pointwise.ALIASES.items():
        if alias + "_" in OPS and OPS[target].promotion != "always_bool" and \
                hasattr(torch.Tensor, alias + "_"):
            cases.append((alias + "_", target in pointwise.BINARY))
    return [c for c in cases if c[0] not in SWEEP_EXCLUDED]


SAFE_DOMAIN = np.linspace(0.15, 0.85, 6).reshape(2, 3)  # inside every op's domain
OTHER = np.linspace(0.3, 0.6, 3)


@pytest.mark.parametrize("name, binary", _in_place_pointwise(),
                         ids=[n for n, _ in _in_place_pointwise()])
def test_in_place_pointwise_on_non_leaf(name, binary):
    results = []
    for m in (mindtorch, torch):
        x = m.tensor(SAFE_DOMAIN, dtype=m.float64, requires_grad=True)
        w = m.tensor(OTHER, dtype=m.float64, requires_grad=True)
        y = x * 1
        args = (w,) if binary else ()
        if hasattr(y, name):
            out = getattr(y, name)(*args)
        else:  # mindtorch has more in-place variants than PyTorch: its op, then copy_
            fn = getattr(m, name[:-1], None) or getattr(torch.nn.functional, name[:-1])
            out = y.copy_(fn(y.clone(), *args))
        assert out is y
        (y * m.tensor(SAFE_DOMAIN + 1, dtype=m.float64)).sum().backward()
        results.append((y, x.grad, w.grad, y.grad_fn.name()))
    (my, mx, mw, mname), (ty, tx, tw, tname) = results
    assert_same(my, ty)
    assert_same(mx, tx)
    assert (mw is None) == (tw is None)
    if tw is not None:
        assert_same(mw, tw)
    assert mname == tname or not hasattr(torch.Tensor, name)


OTHER_IN_PLACE = {
    # a fixed mask of 3 ones: x > 0 could ask the 3-element source for more (torch raises)
    "masked_scatter_": lambda m, x, y: x.masked_scatter_(
        m.tensor([[True, False, True], [False, True, False]]), y),
    "put_": lambda m, x, y: x.put_(m.tensor([0, 4]), y[:2]),
    "index_fill_": lambda m, x, y: x.index_fill_(1, m.tensor([0, 2]), 0.5),
    "index_copy_": lambda m, x, y: x.index_copy_(0, m.tensor([1]), y.reshape(1, 3)),
    "index_reduce_": lambda m, x, y: x.index_reduce_(0, m.tensor([1, 1]), y.expand(2, 3),
                                                     "prod"),
    "addmv_": lambda m, x, y: x[0].addmv_(m.eye(3, dtype=m.float64), y),
    "addr_": lambda m, x, y: x.addr_(y[:2], y),
    "baddbmm_": lambda m, x, y: x.unsqueeze(0).baddbmm_(
        y.reshape(1, 1, 3).expand(1, 2, 3) * 1, m.eye(3, dtype=m.float64).unsqueeze(0) * y),
    "addbmm_": lambda m, x, y: x.addbmm_(y.reshape(1, 1, 3).expand(1, 2, 3) * 1,
                                         (m.eye(3, dtype=m.float64) * y).unsqueeze(0)),
    "triu_": lambda m, x, y: x.triu_(1),
    "tril_": lambda m, x, y: x.tril_(),
    "clamp_": lambda m, x, y: x.clamp_(y[0] * 0.5, y[1]),
    "lerp_": lambda m, x, y: x.lerp_(y, 0.3),
}


@pytest.mark.parametrize("name", list(OTHER_IN_PLACE))
def test_other_in_place_on_non_leaf(name):
    def fn(m, x, y):
        out = OTHER_IN_PLACE[name](m, x * 1, y)
        return out * 2
    check_grads(fn, randn(2, 3), randn(3), gradcheck=False, meta=False)


# an argument without a formula (view_as's `other`, where's condition) does not make the
# result require grad, as in PyTorch (prune.global_unstructured's masks got a history)
NON_DIFFERENTIABLE_ARGS = {
    "view_as": lambda m, x, p: x.view_as(p),
    "reshape_as": lambda m, x, p: x.reshape_as(p),
    "expand_as": lambda m, x, p: x[:1].expand_as(p),
    "where": lambda m, x, p: m.where(p > 0, x, x * 2),
    "masked_fill": lambda m, x, p: x.masked_fill(p > 0, 1.0),
}


@pytest.mark.parametrize("name", list(NON_DIFFERENTIABLE_ARGS))
def test_argument_without_formula_records_nothing(name):
    fn = NON_DIFFERENTIABLE_ARGS[name]
    for lib in (torch, mindtorch):
        x = lib.arange(6.0).reshape(2, 3)
        p = lib.ones(2, 3).requires_grad_()
        out = fn(lib, x, p)
        assert not out.requires_grad and out.grad_fn is None
        x.requires_grad_()
        assert fn(lib, x, p).requires_grad
