"""Tensor.apply_ / map_: a Python callable per element, as PyTorch (CPU)."""
import mindtorch
import pytest
from reference import assert_same, to_torch, torch


@pytest.mark.parametrize("make", [
    lambda L: L.arange(6).reshape(2, 3).t(),  # non-contiguous, int64
    lambda L: L.linspace(-1, 1, 5),
    lambda L: L.tensor(3.0),
    lambda L: L.zeros(0),
], ids=["int-strided", "float", "0-dim", "empty"])
def test_apply_(make):
    ours, theirs = make(mindtorch), make(torch)
    assert ours.apply_(lambda v: v * 2 + 0.7) is ours
    theirs.apply_(lambda v: v * 2 + 0.7)
    assert_same(ours, theirs)


def test_map_broadcasts_other():
    ours, theirs = mindtorch.ones(2, 3), torch.ones(2, 3)
    ours.map_(mindtorch.tensor([1.0, 2.0, 3.0]), lambda a, b: a * 10 + b)
    theirs.map_(torch.tensor([1.0, 2.0, 3.0]), lambda a, b: a * 10 + b)
    assert_same(ours, theirs)
    with pytest.raises(RuntimeError, match="expanded size"):
        mindtorch.ones(2).map_(mindtorch.ones(3), lambda a, b: a)


def test_refuses_tensor_requiring_grad():
    x = mindtorch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"Can't call apply_\(\) on Variable that requires"):
        x.apply_(float)
    with pytest.raises(RuntimeError, match=r"Can't call map_\(\)"):
        x.map_(x, max)


def test_conj_and_neg_bits_resolve_to_self():
    """conj() materialises in mindtorch: is_conj is False and resolve_* return self (for a
    tensor without the bit torch does the same)."""
    z = mindtorch.tensor([1 + 2j, 3j])
    for t in (z, z.conj(), mindtorch.ones(2)):
        assert not t.is_conj() and not mindtorch.is_conj(t) and not mindtorch.is_neg(t)
        assert t.resolve_conj() is t and mindtorch.resolve_neg(t) is t
        assert mindtorch.resolve_conj(t) is t
    assert_same(z.conj().resolve_conj(), torch.tensor([1 + 2j, 3j]).conj().resolve_conj())


@pytest.mark.parametrize("make", [
    lambda L: L.ones(2),  # size
    lambda L: L.ones(2, 3),
    lambda L: L.ones(3, dtype=L.float64),  # dtype
    lambda L: L.ones(3, dtype=L.int64),
    lambda L: L.ones(3, dtype=L.float16),
    lambda L: L.ones(3, device="meta"),  # device
], ids=["size", "rank", "double", "long", "half", "meta"])
def test_grad_assignment_errors_as_torch(make):
    ours, theirs = mindtorch.ones(3, requires_grad=True), torch.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError) as e_theirs:
        theirs.grad = make(torch)
    with pytest.raises(RuntimeError) as e_ours:
        ours.grad = make(mindtorch)
    assert str(e_ours.value) == str(e_theirs.value)


def test_sum_to_size_and_layout_flags():
    x = mindtorch.arange(6.0).reshape(2, 3)
    for size in ((1, 3), (3,), (2, 1), (1, 1), (2, 3)):
        assert_same(x.sum_to_size(*size), to_torch(x).sum_to_size(*size))
    assert x.sum_to_size((2, 3)) is x
    with pytest.raises(RuntimeError) as ours:
        x.sum_to_size(2, 2)
    with pytest.raises(RuntimeError) as theirs:
        to_torch(x).sum_to_size(2, 2)
    assert str(ours.value) == str(theirs.value)
    t = torch.ones(1)
    for flag in ("is_sparse", "is_sparse_csr", "is_quantized", "is_mkldnn", "is_nested",
                 "is_mps", "is_xpu"):
        assert getattr(mindtorch.ones(1), flag) is getattr(t, flag) is False
    assert x.const_data_ptr() == x.data_ptr()
    assert repr(x.layout) == repr(t.layout) == repr(mindtorch.strided) == "torch.strided"
    assert x.layout == mindtorch.strided and isinstance(x.layout, mindtorch.layout)


@pytest.mark.parametrize("make", [lambda L: L.zeros(2, 3), lambda L: L.zeros(2, 3).t(),
                                  lambda L: L.zeros(2, 1, 3), lambda L: L.zeros(()),
                                  lambda L: L.zeros(2, 3, 4, 5).permute(0, 2, 3, 1),
                                  lambda L: L.zeros(3, 1).expand(3, 4),
                                  lambda L: L.zeros(4, 1, 1).permute(2, 1, 0),
                                  lambda L: L.zeros(2, 3, 4)[:, :1].expand(2, 5, 4),
                                  lambda L: L.zeros(2, 1, 3, 3).permute(0, 2, 3, 1),
                                  lambda L: L.zeros(2, 3, 4, 5).permute(0, 2, 3, 1)[:, ::2],
                                  lambda L: L.zeros(2, 3, 1, 1).permute(0, 2, 3, 1),
                                  lambda L: L.zeros(3, 0, 2).transpose(0, 2),
                                  lambda L: L.zeros(2, 2, 2).as_strided((2, 2, 2), (1, 1, 1))])
def test_dim_order(make):
    assert make(mindtorch).dim_order() == make(torch).dim_order()


def test_resize_refuses_tensors_requiring_grad():
    for make in (lambda L: L.ones(3, requires_grad=True), lambda L: L.ones(3, requires_grad=True) * 1):
        for L in (mindtorch, torch):
            t = make(L)
            with pytest.raises(RuntimeError, match="cannot resize variables that require grad"):
                t.resize_(4)
            with L.no_grad(), pytest.raises(RuntimeError, match="cannot resize variables"):
                t.resize_(3)
    assert mindtorch.ones(2).resize_(2, 2).shape == (2, 2)


def test_resize_growing_keeps_data_and_offset_like_torch():
    def run(L):
        a = L.arange(6.0)[2:4]
        a.resize_(5)  # storage grows past its end: old bytes kept, offset kept
        b = L.arange(6, dtype=L.int16)
        b.resize_(2, 2)
        b.resize_(3, 3)
        return (a.storage_offset(), a[:4].tolist(), a.untyped_storage().nbytes(),
                b.reshape(-1)[:6].tolist(), b.untyped_storage().nbytes())
    assert run(mindtorch) == run(torch)
