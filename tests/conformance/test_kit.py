"""The conformance kit's checks catch what they claim to: fake ops, each wrong in one way,
run through mindtorch.testing._kit, must fail that check (and correct ones pass)."""
import types

import pytest

import mindtorch
from mindtorch.testing import opdb
from mindtorch.testing import _kit as K
from mindtorch.testing.opdb import OpInfo
from mindtorch.testing.opdb._make import t
from reference import torch


class Fake(OpInfo):
    """An OpInfo whose op is a plain function (and whose facts are given)."""

    def __init__(self, binding, samples, reference=None, tags=(), autograd="formula",
                 inplace=None, out=False, mutates=False, numpy=None, results=1):
        returns = [types.SimpleNamespace(type="Tensor")] * results
        self.op = types.SimpleNamespace(binding=binding, mutates=mutates, options={},
                                        schema=types.SimpleNamespace(returns=returns))
        self.name, self.samples, self.tags = "fake", samples, frozenset(tags)
        self._ref, self._autograd, self._inplace, self._out = reference, autograd, inplace, out
        self._numpy = numpy

    autograd = property(lambda self: self._autograd)
    inplace = property(lambda self: self._inplace)
    supports_out = property(lambda self: self._out)

    def torch_reference(self, torch):
        return self._ref

    def numpy_reference(self):
        return self._numpy

    def domain(self):
        return None


UNARY = [lambda d: ((t(d, (3, 4)),), {}), lambda d: ((t(d, (2, 3), mindtorch.float64, True),), {}),
         lambda d: ((t(d, ()),), {})]
BINARY = [lambda d: ((t(d, (3, 1)), t(d, (1, 4))), {}),
          lambda d: ((t(d, (2, 3)), t(d, (4,))), {})]  # torch refuses this one


def verdict(check, info, device="cpu", **kw):
    return K.CHECK_FUNCTIONS[check](info, device, **kw).verdict()


def test_forward_passes_and_catches_values_dtypes_and_errors():
    assert verdict("forward", Fake(mindtorch.sin, UNARY, torch.sin))[0] == "pass"
    v, why = verdict("forward", Fake(lambda x: mindtorch.sin(x) + 1e-3, UNARY, torch.sin))
    assert v == "fail" and "Tensor-likes are not close" in why and "sample 0" in why
    v, why = verdict("forward", Fake(lambda x: mindtorch.sin(x).double(), UNARY, torch.sin))
    assert v == "fail" and "'dtype' do not match" in why
    assert verdict("forward", Fake(mindtorch.add, BINARY, torch.add))[0] == "pass"

    def wrong_error(a, b):
        if a.shape[-1] != b.shape[-1] and 1 not in (a.shape[-1], b.shape[-1]):
            raise ValueError("shapes")
        return mindtorch.add(a, b)
    v, why = verdict("forward", Fake(wrong_error, BINARY, torch.add))
    assert v == "fail" and "raised ValueError" in why and "RuntimeError" in why

    def accepts(a, b):
        return mindtorch.add(a[..., :1], b)
    v, why = verdict("forward", Fake(accepts, BINARY, torch.add))
    assert v == "fail" and "reference raised RuntimeError" in why


def test_forward_catches_writes_into_inputs_and_checks_in_place_results():
    v, why = verdict("forward", Fake(lambda x: x.mul_(1).add_(1) - 1, UNARY,
                                     lambda x: x.clone()))
    assert v == "fail" and "inputs after the call differ" in why
    ok = Fake(lambda x: x.add_(1), UNARY, lambda x: x.add_(1), mutates=True)
    assert verdict("forward", ok)[0] == "pass"


def test_forward_random_ops_compare_metadata_and_meta_has_no_values():
    rnd = Fake(mindtorch.randn_like, UNARY, torch.randn_like, tags=("random",))
    assert verdict("forward", rnd)[0] == "pass"
    assert verdict("forward", Fake(lambda x: mindtorch.sin(x) + 1, UNARY, torch.sin),
                   "meta")[0] == "pass"  # meta: shapes and dtypes only
    v, why = verdict("forward", Fake(lambda x: x.sum(), UNARY, torch.sin), "meta")
    assert v == "fail" and "'shape' do not match" in why


def test_forward_without_reference_skips_and_numpy_reference_runs():
    assert verdict("forward", Fake(mindtorch.sin, UNARY)) == \
        ("skip", "no reference (no torch function of this name)")
    import numpy as np
    assert verdict("forward", Fake(mindtorch.sin, UNARY, numpy=np.sin),
                   reference="numpy")[0] == "pass"
    v, _ = verdict("forward", Fake(mindtorch.cos, UNARY, numpy=np.sin), reference="numpy")
    assert v == "fail"


def test_missing_kernel_is_a_skip_naming_the_op():
    def missing(x):
        raise NotImplementedError("Could not run 'frobnicate' on the 'cpu' device: no plugin "
                                  "registered a kernel for it.")
    for check in ("forward", "backward", "meta"):
        assert verdict(check, Fake(missing, UNARY, torch.sin)) == \
            ("skip", "no kernel (frobnicate)")


class _WrongGrad(mindtorch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 3


def test_backward_runs_gradcheck():
    assert verdict("backward", Fake(mindtorch.sin, UNARY, torch.sin))[0] == "pass"
    v, why = verdict("backward", Fake(_WrongGrad.apply, UNARY, torch.sin))
    assert v == "fail" and "Jacobian mismatch" in why
    assert verdict("backward", Fake(mindtorch.sin, UNARY, autograd="nondifferentiable")) == \
        ("skip", "not differentiable")
    # on meta: gradient shapes and dtypes only (a wrong value passes, a wrong shape fails)
    assert verdict("backward", Fake(_WrongGrad.apply, UNARY), "meta")[0] == "pass"


class _WrongComplexGrad(mindtorch.autograd.Function):
    """z * (1+2j) with the gradient of PyTorch's convention unconjugated (wrong)."""
    @staticmethod
    def forward(ctx, z):
        return z * (1 + 2j)

    @staticmethod
    def backward(ctx, g):
        return g * (1 + 2j)


class _RightComplexGrad(_WrongComplexGrad):
    @staticmethod
    def backward(ctx, g):
        return g * (1 - 2j)


COMPLEX = [lambda d: ((t(d, (2, 3), mindtorch.complex64),), {}),
           lambda d: ((t(d, (3, 2), mindtorch.complex128, True),), {})]


def test_backward_checks_complex_inputs_through_their_real_view():
    assert verdict("backward", Fake(mindtorch.sin, COMPLEX, torch.sin))[0] == "pass"
    assert verdict("backward", Fake(_RightComplexGrad.apply, COMPLEX))[0] == "pass"
    v, why = verdict("backward", Fake(_WrongComplexGrad.apply, COMPLEX))
    assert v == "fail" and "Jacobian mismatch" in why and "sample 0" in why
    # mixed real and complex inputs, against PyTorch's gradients too
    mixed = [lambda d: ((t(d, (3,)), t(d, (3,), mindtorch.complex64)), {})]
    assert verdict("backward", Fake(mindtorch.mul, mixed, torch.mul))[0] == "pass"
    v, why = verdict("backward", Fake(lambda a, b: _WrongComplexGrad.apply(b) * a, mixed,
                                      lambda a, b: b * (1 + 2j) * a))
    assert v == "fail" and "the gradients differ from PyTorch's" in why


def test_meta_check_compares_meta_with_the_device():
    assert verdict("meta", Fake(mindtorch.sin, UNARY))[0] == "pass"
    v, why = verdict("meta", Fake(lambda x: x.sum() if x.device.type == "meta" else x.sin(),
                                  UNARY))
    assert v == "fail" and "'shape' do not match" in why


def test_inplace_check():
    variant = types.SimpleNamespace(name="sin_", binding=lambda x: x.sin_(), tags=frozenset())
    assert verdict("inplace", Fake(mindtorch.sin, UNARY, inplace=variant))[0] == "pass"
    fresh = types.SimpleNamespace(name="sin_", binding=lambda x: x.sin(), tags=frozenset())
    v, why = verdict("inplace", Fake(mindtorch.sin, UNARY, inplace=fresh))
    assert v == "fail" and "did not return its first argument" in why
    # add_ cannot broadcast self: a variant writing anyway must be caught
    sloppy = types.SimpleNamespace(name="add_", tags=frozenset(),
                                   binding=lambda a, b: a.copy_(mindtorch.add(a, b)[..., :1]))
    v, why = verdict("inplace", Fake(mindtorch.add, BINARY[:1], inplace=sloppy))
    assert v == "fail" and "add_ succeeded though fake gives (3, 4)" in why
    real = types.SimpleNamespace(name="add_", tags=frozenset(), binding=lambda a, b: a.add_(b))
    assert verdict("inplace", Fake(mindtorch.add, BINARY, inplace=real))[0] == "pass"


def test_out_check():
    assert verdict("out", Fake(mindtorch.sin, UNARY, torch.sin, out=True))[0] == "pass"

    def ignores_out(x, out=None):
        return mindtorch.sin(x)
    v, why = verdict("out", Fake(ignores_out, UNARY, torch.sin, out=True))
    assert v == "fail" and "did not return the out tensor" in why


SORTABLE = [lambda d: ((t(d, (3, 4)), 1), {}), lambda d: ((t(d, (5,), mindtorch.int32), 0), {})]


def test_out_check_of_several_results():
    # out=(values, indices): PyTorch's named tuple of the given tensors
    sort = Fake(mindtorch.sort, SORTABLE, torch.sort, results=2)
    assert verdict("out", sort) == ("pass", "")

    def new_tensors(x, dim, out=None):
        return mindtorch.sort(x, dim)
    v, why = verdict("out", Fake(new_tensors, SORTABLE, torch.sort, results=2))
    assert v == "fail" and "did not return the out tensors" in why

    def no_out(x, dim):
        return mindtorch.sort(x, dim)
    v, why = verdict("out", Fake(no_out, SORTABLE, torch.sort, results=2))
    assert v == "fail" and "out= raised TypeError" in why

    def plain_tuple(x, dim, out=None):
        return tuple(mindtorch.sort(x, dim, out=out))
    v, why = verdict("out", Fake(plain_tuple, SORTABLE, torch.sort, results=2))
    assert v == "fail" and "fields None, PyTorch ('values', 'indices')" in why
    # PyTorch has no out= for split-like results: skipped, not failed
    unbind2 = Fake(lambda x, dim: mindtorch.unbind(x[:2], dim), SORTABLE[:1],
                   lambda x, dim: torch.unbind(x[:2], dim), results=2)
    assert verdict("out", unbind2)[0] == "skip"


def test_opinfo_records():
    db = opdb.op_db()
    add = db["add"]
    assert add.inplace is mindtorch._OPS["add_"] and add.supports_out
    assert add.autograd == "formula" and add.supports_autograd
    assert "mindtorch.add" in add.public_names() and "Tensor.add" in add.public_names()
    assert add.torch_reference(torch) is torch.add
    assert db["_max_dim"].torch_reference(torch) is torch.max
    assert db["_max_dim"].public_names() == []
    assert db["randn"].random and db["randn"].autograd == ""
    assert mindtorch.float16 in db["sum"].dtypes()
    for info in db.values():
        assert info.autograd in ("formula", "decomposition", "nondifferentiable", "")
        if info.inplace is not None:
            assert info.inplace.mutates, info.name
    # every table entry names an op and a check that exist
    for table in (opdb.SKIPS, opdb.XFAILS):
        for key in table:
            assert key[0] in mindtorch._OPS and key[1] in opdb.CHECKS + ("*",), key
