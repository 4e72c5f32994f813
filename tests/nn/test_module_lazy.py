"""Uninitialized parameters/buffers and LazyModuleMixin against PyTorch (torch.nn.LazyLinear
vs a LazyLinear built here on mindtorch's mixin)."""
import copy
import warnings

import numpy as np
import pytest

import mindtorch as mt
from mindtorch import nn
from mindtorch.nn.modules.lazy import LazyModuleMixin
from mindtorch.nn.parameter import UninitializedBuffer, UninitializedParameter, is_lazy

torch = pytest.importorskip("torch")


class LazyLinear(LazyModuleMixin, nn.Linear):
    cls_to_become = nn.Linear

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        super().__init__(0, 0, False)
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if self.has_uninitialized_params():
            with mt.no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()


def pair(**kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return LazyLinear(3, **kw), torch.nn.LazyLinear(3, **kw)


def test_uninitialized_parameter_and_buffer():
    for lib, P, B in ((mt, UninitializedParameter, UninitializedBuffer),
                      (torch, torch.nn.UninitializedParameter, torch.nn.UninitializedBuffer)):
        p = P()
        assert repr(p) == "<UninitializedParameter>" and p.requires_grad
        with pytest.raises(RuntimeError, match="Can't access the shape of an uninitialized"):
            p.shape
        p.materialize((2, 3))
        assert type(p) is lib.nn.Parameter and tuple(p.shape) == (2, 3) and p.requires_grad
        b = B(dtype=lib.float64)
        assert repr(b) == "<UninitializedBuffer>" and not b.requires_grad
        assert isinstance(b, lib.nn.Buffer)
        b.materialize(4)
        assert type(b) is lib.Tensor and b.dtype == lib.float64 and tuple(b.shape) == (4,)
        q = P(dtype=lib.float64)
        c = copy.deepcopy(q)
        assert type(c) is P and c.dtype == lib.float64
    assert is_lazy(UninitializedParameter()) and not is_lazy(nn.Parameter(mt.ones(1)))


def test_lazy_module_forward_initializes():
    m, t = pair()
    assert repr(m) == repr(t)
    assert isinstance(m.weight, UninitializedParameter) and m.has_uninitialized_params()
    assert list(m.state_dict()) == list(t.state_dict())
    assert all(is_lazy(v) for v in m.state_dict().values())
    out = m(mt.ones(2, 5))
    t(torch.ones(2, 5))
    assert type(m) is nn.Linear and type(t) is torch.nn.Linear
    assert repr(m) == repr(t)
    assert out.shape == (2, 3) and m.weight.shape == (3, 5) and type(m.weight) is nn.Parameter
    assert not m._forward_pre_hooks and not m._load_state_dict_pre_hooks
    bound = 1 / np.sqrt(5)
    assert (m.weight.abs() <= bound).all()


def test_lazy_module_load_state_dict_materializes():
    m, t = pair(bias=False)
    src = torch.nn.Linear(4, 3, bias=False).state_dict()
    m.load_state_dict({k: mt.tensor(v.numpy()) for k, v in src.items()})
    t.load_state_dict(src)
    assert type(m.weight) is nn.Parameter and m.weight.shape == (3, 4)
    np.testing.assert_array_equal(m.weight.detach().numpy(), t.weight.detach().numpy())
    assert type(m).__name__ == type(t).__name__ == "LazyLinear"  # until the first forward
    m(mt.ones(1, 4))
    assert type(m) is nn.Linear


def test_lazy_module_conversions_and_errors():
    m, _ = pair()
    m.double()
    assert isinstance(m.weight, UninitializedParameter) and m.weight.dtype is mt.float64
    m(mt.ones(2, 4, dtype=mt.float64))
    assert m.weight.dtype is mt.float64

    class Broken(LazyModuleMixin, nn.Module):
        def __init__(self):
            super().__init__()
            self.w = UninitializedParameter()

        def initialize_parameters(self, x):
            pass

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        b = Broken()
    with pytest.raises(RuntimeError, match="module Broken has not been fully initialized"):
        b(mt.ones(1))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (PyTorch 2.13 no longer warns that they are new)
        LazyLinear(2)
