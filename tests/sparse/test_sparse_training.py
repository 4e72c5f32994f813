"""Sparse gradients in training against PyTorch: embedding(sparse=True), optimizers that
follow or refuse them, accumulation, clipping, zero_grad."""
import mindtorch
import numpy as np
import pytest
from reference import assert_same, torch
from sparse_helpers import assert_sparse_same

pytestmark = pytest.mark.filterwarnings("ignore:Sparse")
WEIGHT = np.arange(18.0).reshape(6, 3) / 7


def embedding(lib, **kw):
    e = lib.nn.Embedding(6, 3, sparse=True, **kw)
    with lib.no_grad():
        e.weight.copy_(lib.tensor(WEIGHT, dtype=lib.float32))
    return e


@pytest.mark.parametrize("padding_idx", [None, 1])
def test_embedding_sparse_grad(padding_idx):
    grads = []
    for lib in (mindtorch, torch):
        e = embedding(lib, padding_idx=padding_idx)
        x = lib.tensor([[1, 2, 1], [4, 1, 5]])
        w = lib.arange(18.0).reshape(2, 3, 3)
        (e(x) * w).sum().backward()
        first = e.weight.grad.clone()
        (e(x[0]) ** 2).sum().backward()  # accumulates: sparse + sparse
        grads.append((first, e.weight.grad))
    (first, total), (tfirst, ttotal) = grads
    assert first.layout is mindtorch.sparse_coo
    assert_sparse_same(first, tfirst)
    # (accumulating uncoalesced gradients, PyTorch merges them as if sorted: an entry order
    # not reproduced; the values are the same)
    assert_sparse_same(total, ttotal, exact_pattern=False)


def test_sparse_grad_accumulates_in_place():
    e = embedding(mindtorch)
    e(mindtorch.tensor([1, 2])).sum().backward()
    first = e.weight.grad
    e(mindtorch.tensor([2, 3])).sum().backward()
    assert e.weight.grad is first  # (as PyTorch's AccumulateGrad: grad += new)
    assert_same(first.to_dense(), torch.tensor(
        [[0, 0, 0], [1, 1, 1], [2, 2, 2], [1, 1, 1], [0, 0, 0], [0, 0, 0]],
        dtype=torch.float32))


def test_functional_embedding_and_scalar_index():
    wm = mindtorch.tensor(WEIGHT, requires_grad=True)
    wt = torch.tensor(WEIGHT, requires_grad=True)
    mindtorch.nn.functional.embedding(mindtorch.tensor(3), wm, sparse=True).sum().backward()
    torch.nn.functional.embedding(torch.tensor(3), wt, sparse=True).sum().backward()
    assert_sparse_same(wm.grad, wt.grad)
    for lib in (mindtorch, torch):
        e = lib.nn.Embedding(4, 2, sparse=True, scale_grad_by_freq=True)
        with pytest.raises(RuntimeError, match="scale_grad_by_freq not supported with sparse"):
            e(lib.tensor([1, 1])).sum().backward()


BAGS = [{"mode": "sum"}, {"mode": "sum", "padding_idx": 1}, {"mode": "mean"},
        {"mode": "mean", "padding_idx": 1}, {"mode": "sum", "psw": True},
        {"mode": "sum", "psw": True, "padding_idx": 1}, {"mode": "sum", "empty": True}]


@pytest.mark.parametrize("case", BAGS)
def test_embedding_bag_sparse_grad(case):
    case = dict(case)
    psw, empty = case.pop("psw", False), case.pop("empty", False)
    res = []
    for lib in (mindtorch, torch):
        w = lib.tensor(WEIGHT, requires_grad=True)
        i = lib.tensor([], dtype=lib.int64) if empty else lib.tensor([1, 2, 1, 5, 0])
        off = lib.tensor([0] if empty else [0, 2, 2])
        p = lib.arange(5.0, dtype=lib.float64, requires_grad=True) if psw else None
        out = lib.nn.functional.embedding_bag(i, w, off, sparse=True, per_sample_weights=p,
                                              **case)
        (out * lib.arange(out.numel(), dtype=lib.float64).reshape(out.shape)).sum().backward()
        res.append((w.grad, p.grad if psw else None))
    (wm, pm), (wt, pt) = res
    assert_sparse_same(wm, wt, rtol=1e-12, atol=1e-12)
    if psw:
        assert_same(pm, pt)
    for lib in (mindtorch, torch):
        with pytest.raises(RuntimeError, match="scale_grad_by_freq not supported with sparse"):
            lib.nn.functional.embedding_bag(lib.tensor([1, 2]), lib.ones(4, 2, requires_grad=True),
                                            lib.tensor([0]), sparse=True,
                                            scale_grad_by_freq=True).sum().backward()


def test_dense_and_sparse_grads_accumulate():
    """A weight read by a sparse embedding and a dense product: dense + sparse."""
    res = []
    for lib in (mindtorch, torch):
        e = embedding(lib)
        (e(lib.tensor([0, 3])).sum() + (e.weight * 2).sum()).backward()
        res.append(e.weight.grad)
    assert res[0].layout is mindtorch.strided
    assert_same(*res)


CASES = [("SGD", {}), ("SGD", {"momentum": 0.9}), ("SGD", {"momentum": 0.9, "nesterov": True}),
         ("SGD", {"maximize": True, "momentum": 0.5, "dampening": 0.1}),
         ("Adagrad", {}), ("Adagrad", {"lr_decay": 0.1, "maximize": True}),
         ("Adagrad", {"initial_accumulator_value": 0.3}),
         ("SparseAdam", {}), ("SparseAdam", {"maximize": True, "betas": (0.8, 0.9)}),
         ("LBFGS", {})]


@pytest.mark.parametrize("name,kw", CASES)
def test_optimizers_follow_sparse_grads(name, kw):
    results = []
    for lib in (mindtorch, torch):
        e = embedding(lib)
        lin = lib.nn.Linear(3, 2)  # (a dense parameter in the same optimizer)
        with lib.no_grad():
            lin.weight.copy_(lib.tensor([[0.1, -0.2, 0.3], [0.5, 0.4, -0.1]]))
            lin.bias.fill_(0.05)
        params = list(e.parameters()) + ([] if name == "SparseAdam" else list(lin.parameters()))
        opt = getattr(lib.optim, name)(params, lr=0.1, **kw)
        for it in range(3):
            x = lib.tensor([[1, 2, 1], [4, 1, 5]][it % 2])

            def loss(lin=lin, e=e, x=x):
                return (lin(e(x)) ** 2).sum()
            opt.zero_grad()
            loss().backward()
            opt.step(loss) if name == "LBFGS" else opt.step()
        results.append((e.weight.detach(), lin.weight.detach()))
    for m, t in zip(*results):
        assert_same(m, t, atol=1e-6, rtol=1e-5)


@pytest.mark.parametrize("name", ["Adam", "AdamW", "RMSprop", "Adadelta", "Adamax", "NAdam",
                                  "RAdam", "ASGD", "Rprop", "Adafactor"])
def test_optimizers_refuse_sparse_grads(name):
    messages = []
    for lib in (mindtorch, torch):
        e = embedding(lib)
        opt = getattr(lib.optim, name)(e.parameters(), lr=0.1)
        e(lib.tensor([1, 2])).sum().backward()
        with pytest.raises(RuntimeError) as info:
            opt.step()
        messages.append(str(info.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("name,kw", [("SGD", {"weight_decay": 0.1}),
                                     ("Adagrad", {"weight_decay": 0.1}), ("SparseAdam", {})])
def test_optimizer_errors(name, kw):
    messages = []
    for lib in (mindtorch, torch):
        e = lib.nn.Embedding(6, 3, sparse=name != "SparseAdam")
        opt = getattr(lib.optim, name)(e.parameters(), lr=0.1, **kw)
        e(lib.tensor([1, 2])).sum().backward()
        with pytest.raises(RuntimeError) as info:
            opt.step()
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_clipping_and_zero_grad():
    for lib in (mindtorch, torch):
        e = embedding(lib)
        e(lib.tensor([1, 2])).sum().backward()
        # (PyTorch 2.13's clip_grad_norm_ runs linalg.vector_norm, which has no sparse kernel)
        with pytest.raises(NotImplementedError, match="linalg_vector_norm"):
            lib.nn.utils.clip_grad_norm_(e.parameters(), 1.0)
        with pytest.raises(NotImplementedError, match="clamp"):
            lib.nn.utils.clip_grad_value_(e.parameters(), 0.1)
    grads = []
    for lib in (mindtorch, torch):
        e = embedding(lib)
        e(lib.tensor([1, 2, 1])).sum().backward()
        norm = e.weight.grad.norm()
        e.weight.grad.mul_(0.5)
        half = e.weight.grad.clone()
        e.zero_grad(set_to_none=False)
        grads.append((norm, half, e.weight.grad))
    for m, t in zip(*grads):
        if m.layout is mindtorch.strided:
            assert_same(m, t)
        else:
            assert_sparse_same(m, t)


def test_default_collate_refuses_sparse_and_modules_keep_sparse_buffers():
    import copy

    from mindtorch.utils.data import default_collate
    s = mindtorch.sparse_coo_tensor([[0, 1], [1, 0]], [1.0, 2.0], (2, 2))
    with pytest.raises(RuntimeError, match="Batches of sparse tensors are not currently"):
        default_collate([s, s])
    m = mindtorch.nn.Module()
    m.register_buffer("adj", s)
    assert m.state_dict()["adj"].layout is mindtorch.sparse_coo
    assert copy.deepcopy(m).adj.layout is mindtorch.sparse_coo
    m.double()
    assert m.adj.layout is mindtorch.sparse_coo and m.adj.dtype is mindtorch.float64


def test_sparse_parameter():
    res = []
    for lib in (mindtorch, torch):
        p = lib.nn.Parameter(lib.sparse_coo_tensor([[0, 1], [1, 0]], [1.0, 2.0], (2, 2)))
        m = lib.nn.Module()
        m.w = p
        assert isinstance(p, lib.nn.Parameter) and next(iter(m.parameters())) is p
        lib.sparse.mm(p, lib.ones(2, 2)).sum().backward()
        lib.optim.SGD(m.parameters(), lr=0.1).step()
        res.append((repr(p), p.grad.layout, p.to_dense()))
    assert res[0][0] == res[1][0] and str(res[0][1]) == str(res[1][1])
    assert_same(res[0][2], res[1][2])
