"""nn.Embedding and nn.EmbeddingBag against PyTorch."""
import numpy as np
import pytest

import mindtorch
import mindtorch.nn as mnn
from layers_helpers import (assert_same_repr, check_module, close, copy_params, pair_modules,
                            torch)

tnn = torch.nn


def index_pair(values, dtype="int64"):
    data = np.array(values)
    return (mindtorch.tensor(data).to(getattr(mindtorch, dtype)),
            torch.from_numpy(data).to(getattr(torch, dtype)))


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("kwargs", [{}, dict(padding_idx=2), dict(padding_idx=-1),
                                    dict(scale_grad_by_freq=True),
                                    dict(padding_idx=0, scale_grad_by_freq=True)])
@pytest.mark.parametrize("index", [[[1, 2, 4], [2, 2, 0]], [3, 0, 3, 3], 4, [[]]])
def test_embedding_matches_torch(kwargs, index, dtype):
    th, mt = pair_modules(tnn.Embedding, mnn.Embedding, 6, 3, dtype=dtype, **kwargs)
    assert_same_repr(mt, th)
    check_module(th, mt, index_pair(index), dtype=dtype)


def test_embedding_int32_and_noncontiguous_indices():
    th, mt = pair_modules(tnn.Embedding, mnn.Embedding, 6, 3)
    check_module(th, mt, index_pair([[1, 5], [0, 2]], "int32"))
    m_idx, t_idx = index_pair([[1, 5, 3], [0, 2, 2]])
    check_module(th, mt, (m_idx.t(), t_idx.t()))


@pytest.mark.parametrize("max_norm,norm_type", [(1.0, 2.0), (0.5, 1.0), (2.0, 3.5)])
def test_embedding_max_norm_renormalises_weight(max_norm, norm_type):
    th, mt = pair_modules(tnn.Embedding, mnn.Embedding, 6, 4, max_norm=max_norm,
                          norm_type=norm_type)
    assert_same_repr(mt, th)
    check_module(th, mt, index_pair([[1, 3], [3, 5]]))
    # the looked-up rows were renormalised in place, the others left alone
    close(mt.weight.detach(), th.weight.detach(), "float64")


def test_embedding_padding_row():
    mindtorch.manual_seed(0)
    m = mnn.Embedding(10, 4, padding_idx=-3)
    assert m.padding_idx == 7
    assert m.weight[7].abs().sum().item() == 0 and m.weight[6].abs().sum().item() > 0
    m(mindtorch.tensor([7, 7, 1])).sum().backward()
    assert m.weight.grad[7].abs().sum().item() == 0
    assert m.weight.grad[1].abs().sum().item() == 4


def test_embedding_default_init_distribution():
    mindtorch.manual_seed(0)
    w = mnn.Embedding(1000, 100).weight.detach()
    assert abs(w.mean().item()) < 0.01 and abs(w.std().item() - 1) < 0.01
    assert w.abs().max().item() > 3.5  # normal, not uniform


@pytest.mark.parametrize("cls", ["Embedding", "EmbeddingBag"])
def test_embedding_constructor_errors(cls):
    for idx in [5, 6, -6]:
        with pytest.raises(AssertionError, match="(P|p)adding_idx must be within "
                                                 "num_embeddings"):
            getattr(mnn, cls)(5, 2, padding_idx=idx)
        with pytest.raises(AssertionError):
            getattr(tnn, cls)(5, 2, padding_idx=idx)
    assert getattr(mnn, cls)(5, 2, padding_idx=-5).padding_idx == 0
    with pytest.raises(AssertionError, match="Shape of weight does not match"):
        getattr(mnn, cls)(5, 2, _weight=mindtorch.randn(5, 3))
    with pytest.raises(AssertionError, match="expected to be 2-dimensional"):
        getattr(mnn, cls).from_pretrained(mindtorch.randn(5))


def test_embedding_input_errors():
    m = mnn.Embedding(5, 2)
    with pytest.raises(IndexError):
        m(mindtorch.tensor([5]))
    with pytest.raises(RuntimeError):
        m(mindtorch.tensor([1.0]))


@pytest.mark.parametrize("freeze", [True, False])
def test_embedding_from_pretrained(freeze):
    data = np.arange(12.0).reshape(4, 3)
    weights = mindtorch.tensor(data)
    m = mnn.Embedding.from_pretrained(weights, freeze=freeze, padding_idx=1, max_norm=None)
    t = tnn.Embedding.from_pretrained(torch.from_numpy(data), freeze=freeze, padding_idx=1)
    assert_same_repr(m, t)
    assert m.weight.requires_grad is (not freeze)
    assert isinstance(m.weight, mnn.Parameter)
    # the weight is the given tensor's storage (and its padding row is not zeroed)
    assert m.weight[1].sum().item() == 12
    close(m(mindtorch.tensor([[0, 2]])), t(torch.tensor([[0, 2]])), None)
    with mindtorch.no_grad():
        weights[0, 0] = 100.0
    assert m.weight[0, 0].item() == 100.0


def test_embedding_sparse_flag():
    th, mt = pair_modules(tnn.Embedding, mnn.Embedding, 5, 3, sparse=True)
    assert_same_repr(mt, th)
    close(mt(mindtorch.tensor([1, 2])), th(torch.tensor([1, 2])), "float64")
    # weight's gradient is sparse COO, as PyTorch's (tests/sparse/ compares it further)
    mt(mindtorch.tensor([1, 2])).sum().backward()
    th(torch.tensor([1, 2])).sum().backward()
    assert mt.weight.grad.layout is mindtorch.sparse_coo
    close(mt.weight.grad.to_dense(), th.weight.grad.to_dense(), "float64")


def test_embedding_factory_kwargs_and_meta():
    m = mnn.Embedding(4, 3, dtype=mindtorch.float64, padding_idx=0)
    assert m.weight.dtype is mindtorch.float64 and m.weight[0].abs().sum().item() == 0
    with mindtorch.device("meta"):
        m = mnn.Embedding(4, 3, padding_idx=0)
        bag = mnn.EmbeddingBag(4, 3)
    assert m.weight.device.type == "meta" and bag.weight.device.type == "meta"
    out = m(mindtorch.empty(2, 5, dtype=mindtorch.int64, device="meta"))
    assert out.device.type == "meta" and tuple(out.shape) == (2, 5, 3)


BAG_CASES = [  # kwargs, input, offsets
    (dict(mode="sum"), [1, 2, 4, 5, 4, 3, 2, 0], [0, 3, 3, 6]),
    (dict(mode="mean"), [1, 2, 4, 5, 4, 3, 2, 0], [0, 2, 5]),
    (dict(mode="max"), [1, 2, 4, 5, 4, 3, 2, 0], [0, 4]),
    (dict(mode="mean"), [[1, 2, 4], [5, 4, 3]], None),
    (dict(mode="max"), [[1, 2, 4], [5, 0, 3]], None),
    (dict(mode="sum", include_last_offset=True), [1, 2, 4, 5, 4, 3, 2], [0, 3, 5, 7]),
    (dict(mode="mean", padding_idx=2), [1, 2, 4, 2, 2, 3], [0, 2, 3, 5]),
    (dict(mode="sum", padding_idx=0), [[0, 2, 2], [5, 0, 3]], None),
    (dict(mode="max", max_norm=1.0), [1, 2, 4, 5], [0, 1]),
]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("kwargs,index,offsets", BAG_CASES)
def test_embedding_bag_matches_torch(kwargs, index, offsets, dtype):
    th, mt = pair_modules(tnn.EmbeddingBag, mnn.EmbeddingBag, 6, 3, dtype=dtype, **kwargs)
    assert_same_repr(mt, th)
    args = [index_pair(index)] + ([] if offsets is None else [index_pair(offsets)])
    check_module(th, mt, *args, dtype=dtype)
    close(mt.weight.detach(), th.weight.detach(), dtype)


def test_embedding_bag_scale_grad_by_freq():
    # PyTorch's cpu embedding_bag backward divides the g-th distinct row's gradient by the
    # count of the g-th sorted index, not always by the row's own count (its
    # [[0, 2, 2], [2, 0, 3]] gives row 2 a gradient of 1.5): followed, as the reference
    index = [[0, 2, 2], [2, 0, 3], [5, 5, 1]]
    th, mt = pair_modules(tnn.EmbeddingBag, mnn.EmbeddingBag, 6, 3, scale_grad_by_freq=True,
                          padding_idx=0, mode="sum")
    check_module(th, mt, index_pair(index))


@pytest.mark.parametrize("include_last_offset", [False, True])
def test_embedding_bag_per_sample_weights(include_last_offset):
    th, mt = pair_modules(tnn.EmbeddingBag, mnn.EmbeddingBag, 6, 3, mode="sum",
                          include_last_offset=include_last_offset)
    psw = np.array([0.5, -1.0, 2.0, 1.5, 0.25])
    m_psw = mindtorch.tensor(psw).requires_grad_()
    t_psw = torch.from_numpy(psw).requires_grad_()
    check_module(th, mt, index_pair([1, 2, 4, 5, 0]), index_pair([0, 2, 5]), (m_psw, t_psw))
    with pytest.raises(NotImplementedError):  # per_sample_weights only for mode='sum'
        mnn.EmbeddingBag(6, 3)(mindtorch.tensor([1, 2]), mindtorch.tensor([0]), m_psw[:2])
    with pytest.raises(NotImplementedError):
        tnn.EmbeddingBag(6, 3)(torch.tensor([1, 2]), torch.tensor([0]), t_psw[:2])


def test_embedding_bag_errors_and_repr():
    for kwargs in [{}, dict(mode="sum", max_norm=2.0, norm_type=1.0, padding_idx=-1),
                   dict(scale_grad_by_freq=True, mode="max")]:
        assert_same_repr(mnn.EmbeddingBag(7, 2, **kwargs), tnn.EmbeddingBag(7, 2, **kwargs))
    m = mnn.EmbeddingBag(5, 2)
    with pytest.raises(ValueError):  # 1-d input needs offsets
        m(mindtorch.tensor([1, 2]))
    with pytest.raises(ValueError):  # 2-d input takes none
        m(mindtorch.tensor([[1, 2]]), mindtorch.tensor([0]))
    bad = mnn.EmbeddingBag(5, 2, mode="median")
    with pytest.raises(ValueError):
        bad(mindtorch.tensor([[1, 2]]))


def test_embedding_bag_from_pretrained():
    data = np.arange(10.0).reshape(5, 2)
    m = mnn.EmbeddingBag.from_pretrained(mindtorch.tensor(data), mode="sum")
    t = tnn.EmbeddingBag.from_pretrained(torch.from_numpy(data), mode="sum")
    assert_same_repr(m, t)
    assert not m.weight.requires_grad
    close(m(mindtorch.tensor([[0, 4], [1, 1]])), t(torch.tensor([[0, 4], [1, 1]])), None)
    m = mnn.EmbeddingBag.from_pretrained(mindtorch.tensor(data), freeze=False,
                                         include_last_offset=True, padding_idx=1)
    assert m.weight.requires_grad and m.include_last_offset and m.padding_idx == 1


def test_embedding_bag_copy_params_round_trip():
    th = tnn.EmbeddingBag(4, 2, mode="sum")
    mt = mnn.EmbeddingBag(4, 2, mode="sum")
    copy_params(th, mt)
    assert [n for n, _ in mt.named_parameters()] == ["weight"]
