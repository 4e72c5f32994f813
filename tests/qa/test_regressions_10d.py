"""QA round 10d (differential sweep over the function surface, /work/scratch/qa10d):
regressions, each compared with PyTorch (result dtype and values, or the error class)."""
import numpy as np
import pytest

import mindtorch
from reference import torch

INTS = ["uint8", "int8", "int16", "int32", "int64"]


def outcome(program, lib):
    """("ok", value) or the error's class name (messages are not compared here)."""
    try:
        return "ok", program(lib)
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return type(e).__name__


def same_class(program):
    ours, theirs = outcome(program, mindtorch), outcome(program, torch)
    assert (ours if isinstance(ours, str) else ours[0]) == \
        (theirs if isinstance(theirs, str) else theirs[0]), (ours, theirs)
    return ours, theirs


def x23(lib, dtype="float32"):
    return lib.tensor(np.array([[0.5, -1.5, 2.0], [3.0, 0.0, -0.25]])).to(getattr(lib, dtype))


@pytest.mark.parametrize("dtype", INTS)
@pytest.mark.parametrize("indices", [4, [0, 5, 3]])
def test_unravel_index_answers_int64(dtype, indices):
    def program(lib):
        r = lib.unravel_index(lib.tensor(indices, dtype=getattr(lib, dtype)), (2, 3))
        return [(str(t.dtype), t.tolist()) for t in r]
    ours, theirs = same_class(program)
    assert ours == theirs


@pytest.mark.parametrize("shape", ["tensor", 2.5, (2.0, 3), "tensors", (True, 3), 6, "size"])
def test_unravel_index_shape_types(shape):
    def program(lib):
        s = {"tensor": lib.tensor([2, 3]), "tensors": [lib.tensor(2), 3],
             "size": lib.Size([2, 3])}.get(shape, shape) if isinstance(shape, str) else shape
        return [t.tolist() for t in lib.unravel_index(lib.tensor([1, 5]), s)]
    ours, theirs = same_class(program)
    assert ours == theirs


@pytest.mark.parametrize("name", ["float", "double", "half", "bfloat16", "long", "int", "short",
                                  "char", "byte", "bool", "cfloat", "cdouble", "cpu",
                                  "is_contiguous"])
def test_conversion_methods_take_memory_format_by_keyword_only(name):
    # x.float(channels_last) is a TypeError in PyTorch (memory_format= is keyword-only)
    def positional(lib):
        return getattr(x23(lib), name)(lib.contiguous_format)

    def keyword(lib):
        r = getattr(x23(lib), name)(memory_format=lib.contiguous_format)
        return r if isinstance(r, bool) else (str(r.dtype), r.stride())
    assert outcome(positional, mindtorch) == outcome(positional, torch) == "TypeError"
    ours, theirs = same_class(keyword)
    assert ours == theirs
