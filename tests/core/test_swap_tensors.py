"""torch.utils.swap_tensors against torch: contents, classes, attributes and autograd
state change places, identities stay."""
import weakref

import pytest
import torch

import mindtorch


def state(t, L):
    return (type(t).__name__, t.tolist(), tuple(t.shape), str(t.dtype), t.requires_grad,
            getattr(t, "tag", None))


def test_swap_contents_and_classes():
    out = []
    for L in (torch, mindtorch):
        a = L.nn.Parameter(L.arange(6.0).view(2, 3))
        b = L.tensor([1, 2], dtype=L.int64)
        b.tag = "b"
        ida, idb = id(a), id(b)
        L.utils.swap_tensors(a, b)
        assert (id(a), id(b)) == (ida, idb)
        out.append((state(a, L), state(b, L)))
        a.add_(1)  # a works as the tensor it now is
        out.append(a.tolist())
    assert out[:2] == out[2:]


def test_swap_views_keep_their_storage():
    for L in (torch, mindtorch):
        base = L.arange(4.0)
        v = base[1:3]
        other = L.zeros(5)
        L.utils.swap_tensors(v, other)
        other.fill_(7)  # `other` is the view now
        assert base.tolist() == [0.0, 7.0, 7.0, 3.0] and v.tolist() == [0.0] * 5


@pytest.mark.parametrize("lib", [torch, mindtorch])
def test_swap_refusals(lib):
    a, b = lib.ones(1), lib.ones(1)
    ref = weakref.ref(a)  # noqa: F841 - a weakref blocks the swap
    with pytest.raises(RuntimeError, match="Cannot swap t1 because it has weakref"):
        lib.utils.swap_tensors(a, b)
