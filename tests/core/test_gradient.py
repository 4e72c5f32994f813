"""torch.gradient against torch: uniform and coordinate spacings, edge orders, dims,
integer inputs, errors and autograd through it."""
import mindtorch
import pytest
from reference import assert_same, to_torch, torch

V = [1.0, 4.0, 9.5, 16.0, 25.0, 30.0]
COORDS = [0.0, 1.0, 3.0, 4.0, 7.0, 7.5]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kwargs", [
    {}, {"spacing": 2.0}, {"edge_order": 2}, {"spacing": [0.5], "edge_order": 2},
    {"coords": True}, {"coords": True, "edge_order": 2},
], ids=str)
def test_gradient_1d(kwargs, dtype):
    kwargs = dict(kwargs)
    m = mindtorch.tensor(V, dtype=getattr(mindtorch, dtype))
    t = to_torch(m)
    mk, tk = dict(kwargs), dict(kwargs)
    if kwargs.pop("coords", False):
        mk.pop("coords"), tk.pop("coords")
        mk["spacing"] = (mindtorch.tensor(COORDS, dtype=m.dtype),)
        tk["spacing"] = (torch.tensor(COORDS, dtype=t.dtype),)
    assert_same(mindtorch.gradient(m, **mk), torch.gradient(t, **tk))


def test_gradient_nd_ints_and_errors():
    m = mindtorch.arange(20.0).reshape(4, 5) ** 2
    t = to_torch(m)
    for kw in ({}, {"dim": 1}, {"dim": -1, "edge_order": 2}, {"spacing": [1.0, 2.0]},
               {"dim": [1], "spacing": [3.0]}):
        assert_same(mindtorch.gradient(m, **kw), torch.gradient(t, **kw))
    assert_same(mindtorch.gradient(mindtorch.tensor([1, 4, 9])),
                torch.gradient(torch.tensor([1, 4, 9])))
    assert mindtorch.gradient(mindtorch.tensor(3.0)) == ()
    for bad in (lambda L: L.gradient(L.ones(1)), lambda L: L.gradient(L.ones(2), edge_order=2),
                lambda L: L.gradient(L.ones(3, 3), spacing=[1.0, 2.0, 3.0]),
                lambda L: L.gradient(L.ones(3), edge_order=3),
                lambda L: L.gradient(L.ones(3, 3), dim=0, spacing=[1.0, 2.0])):
        with pytest.raises(RuntimeError) as theirs:
            bad(torch)
        with pytest.raises(RuntimeError) as ours:
            bad(mindtorch)
        assert str(ours.value) == str(theirs.value)


def test_gradient_backward():
    def run(L):
        x = L.tensor([0.5, 1.5, 2.0, 4.0], dtype=L.float64, requires_grad=True)
        L.gradient(x ** 2, edge_order=2)[0].sum().backward()
        return x.grad
    assert_same(run(mindtorch), run(torch))
