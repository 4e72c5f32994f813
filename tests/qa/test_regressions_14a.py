"""Regression tests for QA round 14a (the memory_format= argument and result strides of
memory formats), each against torch."""
import mindtorch
import numpy as np
import pytest
from reference import same_errors

torch = pytest.importorskip("torch")


def _rand(L, *shape, fmt=None, seed=0):
    t = L.tensor(np.random.default_rng(seed).standard_normal(shape), dtype=L.float64)
    return t.contiguous(memory_format=getattr(L, fmt)) if fmt else t


def _layout(L, t):
    cl = {4: L.channels_last, 5: L.channels_last_3d}.get(t.dim())
    return (tuple(t.shape), t.stride(), t.is_contiguous(),
            cl is not None and t.is_contiguous(memory_format=cl))


def _same_layouts(program):
    """program(L) -> tensors: the same layouts and values under mindtorch and torch."""
    ours, theirs = program(mindtorch), program(torch)
    for a, b in zip(ours, theirs, strict=True):
        assert _layout(mindtorch, a) == _layout(torch, b)
        np.testing.assert_allclose(np.asarray(a.detach().double().tolist()),
                                   b.detach().double().numpy(), rtol=1e-12, atol=1e-12)


# -- memory_format= refuses a format's name as a str (and other non-formats) ---------------

_TAKING_FORMAT = {
    "contiguous": lambda L, x, f: x.contiguous(memory_format=f),
    "clone": lambda L, x, f: x.clone(memory_format=f),
    "torch.clone": lambda L, x, f: L.clone(x, memory_format=f),
    "empty_like": lambda L, x, f: L.empty_like(x, memory_format=f),
    "zeros_like": lambda L, x, f: L.zeros_like(x, memory_format=f),
    "ones_like": lambda L, x, f: L.ones_like(x, memory_format=f),
    "full_like": lambda L, x, f: L.full_like(x, 2.0, memory_format=f),
    "empty": lambda L, x, f: L.empty(2, 3, 4, 5, memory_format=f),
    "is_contiguous": lambda L, x, f: x.is_contiguous(memory_format=f),
    "to": lambda L, x, f: x.to(memory_format=f),
    "to_dtype": lambda L, x, f: x.to(L.float32, memory_format=f),
    "float": lambda L, x, f: x.float(memory_format=f),
    "double": lambda L, x, f: x.double(memory_format=f),
    "half": lambda L, x, f: x.half(memory_format=f),
    "long": lambda L, x, f: x.long(memory_format=f),
    "bool": lambda L, x, f: x.bool(memory_format=f),
    "cpu": lambda L, x, f: x.cpu(memory_format=f),
    "resize_": lambda L, x, f: L.empty(0).resize_(2, 3, 4, 5, memory_format=f),
    "resize_as_": lambda L, x, f: L.empty(0).resize_as_(x, memory_format=f),
    "module.to": lambda L, x, f: L.nn.Conv2d(3, 3, 1).to(memory_format=f).weight,
}

_NOT_FORMATS = {"channels_last": "channels_last", "contiguous_format": "contiguous_format",
                "preserve_format": "preserve_format", "int": 1, "dtype": "float32"}


def _value(L, name):
    v = _NOT_FORMATS[name]
    return getattr(L, v) if name == "dtype" else v


@pytest.mark.parametrize("value", sorted(_NOT_FORMATS))
@pytest.mark.parametrize("name", sorted(_TAKING_FORMAT))
def test_memory_format_argument_refuses_names_and_other_types(name, value):
    # (formats are str subclasses in mindtorch: their names used to pass as formats)
    same_errors(lambda L: _TAKING_FORMAT[name](L, _rand(L, 2, 3, 4, 5), _value(L, value)))


@pytest.mark.parametrize("fn", ["rand_like", "randn_like"])
def test_random_like_refuses_a_format_name(fn):
    for L in (mindtorch, torch):
        with pytest.raises(TypeError):
            getattr(L, fn)(_rand(L, 2, 3, 4, 5), memory_format="channels_last")


@pytest.mark.parametrize("fmt", ["channels_last", "contiguous_format", "preserve_format"])
@pytest.mark.parametrize("name", sorted(_TAKING_FORMAT))
def test_memory_format_objects_are_taken(name, fmt):
    def program(L):
        r = _TAKING_FORMAT[name](L, _rand(L, 2, 3, 4, 5), getattr(L, fmt))
        return _layout(L, r) if isinstance(r, L.Tensor) else r
    ours, theirs = same_errors(program)
    assert ours == theirs


@pytest.mark.parametrize("call", [
    lambda L, x: x.contiguous(memory_format=None),
    lambda L, x: x.is_contiguous(memory_format=None),
    lambda L, x: x.float(memory_format=1),
    lambda L, x: x.new_empty((2,), memory_format=L.channels_last),
    lambda L, x: x.new_zeros((2,), memory_format=L.contiguous_format),
    lambda L, x: x.new_ones((2,), foo=1),
    lambda L, x: x.new_empty((2,), layout=L.strided, pin_memory=False).shape,
    lambda L, x: x.new_zeros(size=(2,)).shape,
])
def test_none_and_unexpected_keywords(call):
    # contiguous / is_contiguous take no None (their default is contiguous_format); the
    # new_* factories no memory_format=
    ours, theirs = same_errors(lambda L: call(L, _rand(L, 2, 3, 4, 5)))
    assert ours == theirs
