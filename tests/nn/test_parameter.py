"""nn.Parameter and nn.Buffer against PyTorch."""
import copy
import pickle

import numpy as np
import pytest

import mindtorch as mt
from mindtorch import nn

torch = pytest.importorskip("torch")


def both(fn):
    """fn(lib) for mindtorch and torch."""
    return fn(mt), fn(torch)


@pytest.mark.parametrize("make", [
    lambda lib: lib.nn.Parameter(lib.ones(2, 3)),
    lambda lib: lib.nn.Parameter(lib.arange(6.0).reshape(2, 3), requires_grad=False),
    lambda lib: lib.nn.Parameter(lib.ones(2, dtype=lib.float64)),
    lambda lib: lib.nn.Parameter(lib.ones(2, dtype=lib.int64), requires_grad=False),
    lambda lib: lib.nn.Parameter(),
    lambda lib: lib.nn.Parameter(lib.tensor(3.5)),
])
def test_repr_and_flags(make):
    p, q = both(make)
    assert repr(p) == repr(q)
    assert str(p) == str(q)
    assert p.requires_grad == q.requires_grad and p.is_leaf and q.is_leaf
    assert isinstance(p, nn.Parameter) and isinstance(p, mt.Tensor)
    assert type(p) is nn.Parameter


def test_meta_repr():
    def make(lib):
        with lib.device("meta"):
            return lib.nn.Parameter(lib.empty(2, 3))
    p, q = both(make)
    assert repr(p) == repr(q)
    assert p.is_meta


def test_shares_storage_and_version():
    t = mt.zeros(3)
    p = nn.Parameter(t)
    t.add_(1)
    assert p.tolist() == [1.0, 1.0, 1.0]
    assert p._version == t._version
    with mt.no_grad():
        p.mul_(2)
    assert t.tolist() == [2.0, 2.0, 2.0]


def test_from_parameter_and_requires_grad_tensor():
    t = mt.ones(2, requires_grad=True)
    p = nn.Parameter(t)
    assert p.is_leaf and p.grad_fn is None
    p2 = nn.Parameter(p, requires_grad=False)
    assert type(p2) is nn.Parameter and not p2.requires_grad and p.requires_grad
    # a non-leaf source gives a leaf parameter
    p3 = nn.Parameter(t * 2)
    assert p3.is_leaf


def test_ops_give_plain_tensors():
    p = nn.Parameter(mt.ones(2, 3))
    q = torch.nn.Parameter(torch.ones(2, 3))
    for f in (lambda x: x * 2, lambda x: x + x, lambda x: x.detach(), lambda x: x.data,
              lambda x: x.clone(), lambda x: x[0], lambda x: x.t(), lambda x: x.sum(),
              lambda x: x.view(6), lambda x: x.to(mt.float64 if isinstance(x, mt.Tensor)
                                                  else torch.float64)):
        r, s = f(p), f(q)
        assert (type(r) is mt.Tensor) == (type(s) is torch.Tensor), f
    assert type(p.to(mt.float32)) is nn.Parameter  # a no-op conversion returns self


def test_nonfloat_requires_grad_error():
    msg = "Only Tensors of floating point and complex dtype can require gradients"
    with pytest.raises(RuntimeError, match=msg):
        nn.Parameter(mt.ones(2, dtype=mt.int64))
    with pytest.raises(RuntimeError, match=msg):
        torch.nn.Parameter(torch.ones(2, dtype=torch.int64))
    assert nn.Parameter(mt.ones(2, dtype=mt.complex64)).requires_grad
    with pytest.raises(AttributeError):  # as PyTorch (data.detach() on a list)
        nn.Parameter([1.0, 2.0])
    with pytest.raises(AttributeError):
        torch.nn.Parameter([1.0, 2.0])


def test_backward_accumulates_on_parameter():
    p = nn.Parameter(mt.tensor([1.0, 2.0]))
    (p * p).sum().backward()
    (p * 3).sum().backward()
    assert p.grad.tolist() == [5.0, 7.0]
    assert type(p.grad) is mt.Tensor


def test_deepcopy():
    p = nn.Parameter(mt.tensor([1.0, 2.0]), requires_grad=False)
    c = copy.deepcopy(p)
    assert type(c) is nn.Parameter and not c.requires_grad and c.tolist() == [1.0, 2.0]
    with mt.no_grad():
        c.add_(1)
    assert p.tolist() == [1.0, 2.0]
    # memo: the same parameter twice stays one object
    a, b = copy.deepcopy([p, p])
    assert a is b
    q = nn.Parameter(mt.ones(2))
    assert copy.deepcopy(q).requires_grad


def test_pickle():
    p = nn.Parameter(mt.tensor([[1.0, 2.0]], dtype=mt.float64))
    r = pickle.loads(pickle.dumps(p))
    assert type(r) is nn.Parameter and r.requires_grad and r.dtype is mt.float64
    assert r.tolist() == [[1.0, 2.0]]
    r2 = pickle.loads(pickle.dumps(nn.Parameter(mt.ones(1), requires_grad=False)))
    assert not r2.requires_grad


def test_no_grad_does_not_affect_creation():
    with mt.no_grad():
        p = nn.Parameter(mt.ones(2))
    assert p.requires_grad


def test_buffer():
    t = mt.ones(2, requires_grad=True)
    b = nn.Buffer(t)
    tb = torch.nn.Buffer(torch.ones(2, requires_grad=True))
    assert type(b) is mt.Tensor and type(tb) is torch.Tensor
    assert isinstance(b, nn.Buffer) and isinstance(tb, torch.nn.Buffer)
    assert not isinstance(mt.ones(2), nn.Buffer) and not isinstance(torch.ones(2), torch.nn.Buffer)
    assert b.requires_grad == tb.requires_grad and b.is_leaf
    assert b.persistent and tb.persistent
    nb = nn.Buffer(mt.zeros(1), persistent=False)
    assert nb.persistent is False
    assert repr(nn.Buffer(mt.arange(3))) == repr(torch.nn.Buffer(torch.arange(3)))
    assert nn.Buffer().shape == (0,)
    b.data.fill_(3)
    assert np.array_equal(t.detach().numpy(), [3.0, 3.0])  # shares the data


def test_parameters_in_op_fast_paths():
    # parameters take the bindings' and kernels' tensor fast paths (isinstance after the
    # exact type test): same results as plain tensors, in every operand position
    p = nn.Parameter(mt.tensor([1.0, 2.0]))
    t = mt.tensor([1.0, 2.0])
    for f in (lambda a: 2.0 * a, lambda a: a * 3, lambda a: a + a, lambda a: mt.add(1, a),
              lambda a: mt.where(a > 1, a, 0.0), lambda a: a.view(2, 1).mm(a.view(1, 2)),
              lambda a: mt.cat([a, a])):
        r = f(p)
        assert type(r) is mt.Tensor and r.tolist() == f(t).tolist()
        assert r.requires_grad
    with pytest.raises(TypeError):
        mt.add(p, "x")


def test_parameter_as_inplace_operand():
    # a parameter as the other operand of an in-place op takes the kernel's fast path too
    p = nn.Parameter(mt.tensor([1.0, 2.0]))
    g = mt.tensor([0.5, 0.5])
    with mt.no_grad():
        g.add_(p, alpha=2.0).addcmul_(p, p, value=0.5).lerp_(p, 0.25)
    q = torch.tensor([1.0, 2.0])
    h = torch.tensor([0.5, 0.5]).add_(q, alpha=2.0).addcmul_(q, q, value=0.5).lerp_(q, 0.25)
    assert g.tolist() == h.tolist()
