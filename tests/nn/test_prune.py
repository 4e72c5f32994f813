"""nn.utils.prune against torch.nn.utils.prune: the same masks (deterministic methods),
counts and shapes (random ones), parameters/buffers/hooks, forward and gradients, remove,
and the errors."""
import mindtorch
import numpy as np
import pytest
from layers_helpers import close, pair_modules
from reference import assert_same, same_error, to_torch

torch = pytest.importorskip("torch")
import torch.nn.utils.prune as tprune

mprune = mindtorch.nn.utils.prune


def _tied(shape, seed=0):
    """Integer values with many ties (and signs): masks then depend on topk's choice."""
    return np.random.default_rng(seed).integers(-3, 4, shape).astype(np.float64)


def _pair(kind="linear", tied=False):
    if kind == "linear":
        th, mt = pair_modules(torch.nn.Linear, mindtorch.nn.Linear, 6, 5)
    else:
        th, mt = pair_modules(torch.nn.Conv2d, mindtorch.nn.Conv2d, 3, 4, 3)
    if tied:
        w = _tied(tuple(th.weight.shape))
        with torch.no_grad():
            th.weight.copy_(torch.from_numpy(w))
        with mindtorch.no_grad():
            mt.weight.copy_(mindtorch.tensor(w))
    return th, mt


def _same_pruned(mt, th, name="weight"):
    assert sorted(n for n, _ in mt.named_parameters()) == \
        sorted(n for n, _ in th.named_parameters())
    assert sorted(n for n, _ in mt.named_buffers()) == sorted(n for n, _ in th.named_buffers())
    assert_same(getattr(mt, name + "_mask"), getattr(th, name + "_mask"))
    close(getattr(mt, name), getattr(th, name), "float64")
    assert not isinstance(getattr(mt, name), mindtorch.nn.Parameter)
    assert mprune.is_pruned(mt) and tprune.is_pruned(th)


def _forward_backward(mt, th, shape):
    x = np.random.default_rng(1).standard_normal(shape)
    mo, to = mt(mindtorch.tensor(x)), th(torch.from_numpy(x))
    close(mo, to, "float64")
    mo.square().sum().backward()
    to.square().sum().backward()
    close(mt.weight_orig.grad, th.weight_orig.grad, "float64")
    assert_same(mt.weight_orig.grad == 0, th.weight_orig.grad == 0)


@pytest.mark.parametrize("amount", [0, 3, 0.5, 0.33, 1.0, 30])
@pytest.mark.parametrize("tied", [False, True])
def test_l1_unstructured(amount, tied):
    th, mt = _pair(tied=tied)
    assert mprune.l1_unstructured(mt, "weight", amount=amount) is mt
    tprune.l1_unstructured(th, "weight", amount=amount)
    _same_pruned(mt, th)
    assert int((mt.weight_mask == 0).sum()) == int((th.weight_mask == 0).sum())
    _forward_backward(mt, th, (2, 6))


def test_l1_unstructured_large_tied_and_importance_scores():
    w = _tied((40, 50), seed=3)
    th = torch.nn.Linear(50, 40).double()
    mt = mindtorch.nn.Linear(50, 40).double()
    with torch.no_grad():
        th.weight.copy_(torch.from_numpy(w))
    with mindtorch.no_grad():
        mt.weight.copy_(mindtorch.tensor(w))
    for amount in (0.3, 777):
        tprune.l1_unstructured(th, "weight", amount)
        mprune.l1_unstructured(mt, "weight", amount)
        _same_pruned(mt, th)
    th2, mt2 = _pair()
    s = _tied((5,), seed=5)
    tprune.l1_unstructured(th2, "bias", 2, importance_scores=torch.from_numpy(s))
    mprune.l1_unstructured(mt2, "bias", 2, importance_scores=mindtorch.tensor(s))
    _same_pruned(mt2, th2, "bias")
    with pytest.raises(AssertionError, match="importance_scores should have the same shape"):
        mprune.l1_unstructured(mt2, "weight", 2, importance_scores=mindtorch.ones(3))


@pytest.mark.parametrize("n", [1, 2, 3, float("inf"), float("-inf"), "fro"])
@pytest.mark.parametrize("dim", [0, 1, -1, 3])
@pytest.mark.parametrize("amount", [1, 0.5, 0])
def test_ln_structured_conv(n, dim, amount):
    th, mt = _pair("conv", tied=True)
    if n == "fro":  # torch.norm's 'fro' takes at most two dims: torch raises here
        th, mt = _pair("linear", tied=True)
        if dim == 3:
            return same_error(lambda: mprune.ln_structured(mt, "weight", amount, n, dim),
                              lambda: tprune.ln_structured(th, "weight", amount, n, dim))
    tprune.ln_structured(th, "weight", amount=amount, n=n, dim=dim)
    mprune.ln_structured(mt, "weight", amount=amount, n=n, dim=dim)
    _same_pruned(mt, th)
    _forward_backward(mt, th, (2, 6) if n == "fro" else (2, 3, 5, 5))


def test_iterative_pruning_makes_a_container():
    th, mt = _pair("conv", tied=True)
    steps = [("l1_unstructured", {"amount": 0.2}),
             ("ln_structured", {"amount": 1, "n": 2, "dim": 0}),
             ("l1_unstructured", {"amount": 5}),
             ("ln_structured", {"amount": 0.4, "n": 1, "dim": -1}),
             ("custom_from_mask", {"mask": None}),
             ("identity", {})]
    mask = (np.arange(4 * 3 * 9).reshape(4, 3, 3, 3) % 5 != 0).astype(np.float64)
    for fname, kw in steps:
        tkw, mkw = dict(kw), dict(kw)
        if "mask" in kw:
            tkw["mask"], mkw["mask"] = torch.from_numpy(mask), mindtorch.tensor(mask)
        getattr(tprune, fname)(th, "weight", **tkw)
        getattr(mprune, fname)(mt, "weight", **mkw)
        _same_pruned(mt, th)
    hooks = [h for h in mt._forward_pre_hooks.values()]
    assert len(hooks) == 1 and isinstance(hooks[0], mprune.PruningContainer)
    assert [type(m).__name__ for m in hooks[0]] == \
        [type(m).__name__ for m in next(iter(th._forward_pre_hooks.values()))]
    assert len(hooks[0]) == len(steps) and hooks[0][0]._tensor_name == "weight"
    _forward_backward(mt, th, (1, 3, 4, 4))


def test_hook_recomputes_weight_and_remove():
    th, mt = _pair()
    tprune.l1_unstructured(th, "weight", 0.5)
    mprune.l1_unstructured(mt, "weight", 0.5)
    with torch.no_grad():
        th.weight_orig.mul_(3)
    with mindtorch.no_grad():
        mt.weight_orig.mul_(3)
    _forward_backward(mt, th, (3, 6))  # the pre-hook recomputed weight from weight_orig
    close(mt.weight, th.weight, "float64")
    assert mprune.remove(mt, "weight") is mt
    tprune.remove(th, "weight")
    assert sorted(n for n, _ in mt.named_parameters()) == ["bias", "weight"]
    assert list(dict(mt.named_buffers())) == [] and not mprune.is_pruned(mt)
    assert isinstance(mt.weight, mindtorch.nn.Parameter) and mt.weight.requires_grad
    close(mt.weight, th.weight, "float64")
    assert list(mt.state_dict()) == list(th.state_dict())
    same_error(lambda: mprune.remove(mt, "weight"), lambda: tprune.remove(th, "weight"))
    with pytest.raises(ValueError, match="Parameter 'weight' of module .* has to be pruned"):
        mprune.remove(mt, "weight")


def test_state_dict_of_pruned_module():
    th, mt = _pair()
    tprune.l1_unstructured(th, "weight", 7)
    mprune.l1_unstructured(mt, "weight", 7)
    assert list(mt.state_dict()) == list(th.state_dict())
    fresh = mindtorch.nn.Linear(6, 5).double()
    mprune.identity(fresh, "weight")
    fresh.load_state_dict(mt.state_dict())
    fresh(mindtorch.ones(1, 6, dtype=mindtorch.float64))  # the hook applies the loaded mask
    close(fresh.weight, th.weight, "float64")


@pytest.mark.parametrize("with_scores", [False, True])
def test_global_unstructured(with_scores):
    th1, mt1 = _pair(tied=True)
    th2, mt2 = _pair("conv", tied=True)
    tprune.l1_unstructured(th2, "weight", 0.1)  # an existing mask is respected
    mprune.l1_unstructured(mt2, "weight", 0.1)
    t_params = [(th1, "weight"), (th1, "bias"), (th2, "weight")]
    m_params = [(mt1, "weight"), (mt1, "bias"), (mt2, "weight")]
    t_scores = m_scores = None
    if with_scores:
        s = _tied((5, 6), seed=9)
        t_scores = {(th1, "weight"): torch.from_numpy(s)}
        m_scores = {(mt1, "weight"): mindtorch.tensor(s)}
    tprune.global_unstructured(t_params, tprune.L1Unstructured, importance_scores=t_scores,
                               amount=0.4)
    mprune.global_unstructured(iter(m_params), mprune.L1Unstructured,
                               importance_scores=m_scores, amount=0.4)
    for (t, name), (m, _) in zip(t_params, m_params):
        _same_pruned(m, t, name)


def test_global_unstructured_random_counts_and_errors():
    mods = [mindtorch.nn.Linear(10, 10), mindtorch.nn.Linear(10, 5)]
    mprune.global_unstructured([(m, "weight") for m in mods], mprune.RandomUnstructured,
                               amount=60)
    assert sum(int((m.weight_mask == 0).sum()) for m in mods) == 60
    t = torch.nn.Linear(3, 3)
    m = mindtorch.nn.Linear(3, 3)
    same_error(lambda: mprune.global_unstructured([(m, "weight")], mprune.RandomStructured,
                                                  amount=1),
               lambda: tprune.global_unstructured([(t, "weight")], tprune.RandomStructured,
                                                  amount=1))
    same_error(lambda: mprune.global_unstructured(m, mprune.L1Unstructured, amount=1),
               lambda: tprune.global_unstructured(t, tprune.L1Unstructured, amount=1))
    same_error(lambda: mprune.global_unstructured([(m, "weight")], mprune.L1Unstructured,
                                                  importance_scores=[1], amount=1),
               lambda: tprune.global_unstructured([(t, "weight")], tprune.L1Unstructured,
                                                  importance_scores=[1], amount=1))


@pytest.mark.parametrize("amount", [4, 0.25, 0])
def test_random_unstructured_counts(amount):
    mt = mindtorch.nn.Conv2d(2, 4, 3)
    th = torch.nn.Conv2d(2, 4, 3)
    mprune.random_unstructured(mt, "weight", amount=amount)
    tprune.random_unstructured(th, "weight", amount=amount)
    assert int((mt.weight_mask == 0).sum()) == int((th.weight_mask == 0).sum())
    assert mt.weight_mask.dtype == mindtorch.float32 and mt.weight_mask.shape == (4, 2, 3, 3)
    assert bool(((mt.weight == 0) | (mt.weight_mask == 1)).all())


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("amount", [1, 0.5, 0])
def test_random_structured_prunes_whole_channels(dim, amount):
    mt = mindtorch.nn.Conv2d(4, 6, 3)
    th = torch.nn.Conv2d(4, 6, 3)
    mprune.random_structured(mt, "weight", amount=amount, dim=dim)
    tprune.random_structured(th, "weight", amount=amount, dim=dim)
    other = tuple(d for d in range(4) if d != dim % 4)
    m_kept = (mt.weight_mask.sum(dim=other) != 0).numpy()
    t_kept = (th.weight_mask.sum(dim=other) != 0).numpy()
    assert m_kept.sum() == t_kept.sum() and m_kept.shape == t_kept.shape
    # a channel is all ones or all zeros
    per = mt.weight_mask.sum(dim=other).numpy()
    size = mt.weight.numel() // mt.weight.shape[dim]
    assert set(per.tolist()) <= {0.0, float(size)}


def test_methods_directly_and_prune():
    x = _tied((4, 5), seed=2)
    for mcls, tcls, args in [(mprune.L1Unstructured, tprune.L1Unstructured, (0.3,)),
                             (mprune.LnStructured, tprune.LnStructured, (2, 2, 0)),
                             (mprune.Identity, tprune.Identity, ())]:
        mm, tm = mcls(*args), tcls(*args)
        assert_same(mm.prune(mindtorch.tensor(x)), tm.prune(torch.from_numpy(x)))
        dm = (np.arange(20).reshape(4, 5) % 3 != 0).astype(np.float64)
        assert_same(mm.compute_mask(mindtorch.tensor(x), mindtorch.tensor(dm)),
                    tm.compute_mask(torch.from_numpy(x), torch.from_numpy(dm)))
    m = mprune.CustomFromMask(mindtorch.tensor([[1.0, 0.0], [0.0, 1.0]]))
    assert m.PRUNING_TYPE == "global" and mprune.L1Unstructured.PRUNING_TYPE == "unstructured"
    assert m.prune(mindtorch.full((2, 2), 5.0)).tolist() == [[5.0, 0.0], [0.0, 5.0]]
    assert issubclass(mprune.PruningContainer, mprune.BasePruningMethod)
    a = mprune.L1Unstructured(1)
    a._tensor_name = "weight"
    with pytest.raises(TypeError, match="is not a BasePruningMethod subclass"):
        mprune.PruningContainer(a).add_pruning_method(3)
    b = mprune.L1Unstructured(1)
    b._tensor_name = "bias"
    with pytest.raises(ValueError, match="Can only add pruning methods acting on the "
                                         "parameter named 'weight'"):
        mprune.PruningContainer(a).add_pruning_method(b)


@pytest.mark.parametrize("call", [
    lambda p, m: p.l1_unstructured(m, "weight", amount=-1),
    lambda p, m: p.l1_unstructured(m, "weight", amount=1.5),
    lambda p, m: p.l1_unstructured(m, "weight", amount="a"),
    lambda p, m: p.l1_unstructured(m, "weight", amount=31),
    lambda p, m: p.random_unstructured(m, "weight", amount=-0.1),
    lambda p, m: p.ln_structured(m, "bias", amount=1, n=2, dim=0),
    lambda p, m: p.ln_structured(m, "weight", amount=1, n=2, dim=2),
    lambda p, m: p.random_structured(m, "weight", amount=9, dim=0),
    lambda p, m: p.l1_unstructured(m, "nothing", amount=1),
])
def test_errors_like_torch(call):
    th, mt = _pair()
    same_error(lambda: call(mprune, mt), lambda: call(tprune, th))
    # a failed first pruning leaves the module as it was
    assert sorted(n for n, _ in mt.named_parameters()) == ["bias", "weight"]
    assert not mprune.is_pruned(mt)


def test_pruning_on_meta_device():
    with mindtorch.device("meta"):
        m = mindtorch.nn.Linear(4, 3)
    mprune.ln_structured(m, "weight", amount=1, n=1, dim=0)
    assert m.weight.device.type == "meta" and m.weight_mask.shape == (3, 4)
    assert to_torch is not None
