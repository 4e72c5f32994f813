"""Pointwise fuzz (see pointwise_fuzz.py): creation ops and conversions.
"""
import math

import mindtorch as M
import numpy as np
import pytest
from reference import DTYPES, torch
from pointwise_fuzz import (
    CASES, COMPLEX, Checker, FLOATS, INF, INTS, LAYOUTS, NAN, _pick, make_pair, rand_dtype,
    rand_scalar, rand_shape, rand_values,
)


# -- creation ops and conversions -------------------------------------------------------------

def _size_arg(rng, shape):
    """shape as torch accepts it: varargs, tuple, list or torch.Size (or a bad size)."""
    r = rng.random()
    if r < 0.05:
        return ("varargs", shape[:-1] + (-1,)) if shape else ("tuple", (-2,))
    if r < 0.08:
        return ("tuple", shape + (1.5,))
    return (_pick(rng, ("varargs", "tuple", "list", "size")), shape)


def _size(lib, form, shape):
    if form == "varargs":
        return tuple(shape)
    if form == "list":
        return (list(shape),)
    if form == "size":
        return (lib.Size(shape),)
    return (tuple(shape),)


RANGE_VALUES = [0, 1, -1, 3, 10, -7, 2.5, -0.5, 0.1, 1e-3, 100, 1e3, INF, NAN, True, 1 + 0j]


def _creation_case(check, rng):
    name = _pick(rng, ("zeros", "ones", "empty", "full", "arange", "arange", "linspace",
                       "linspace", "eye", "like", "like", "tensor", "tensor", "to", "to", "to"))
    dtype = None if rng.random() < 0.3 else rand_dtype(rng)
    kw = {} if dtype is None else {"dtype": dtype}

    def with_dtype(lib, **more):
        return dict({k: getattr(lib, v) for k, v in kw.items()}, **more)

    if name in ("zeros", "ones", "empty", "full"):
        form, shape = _size_arg(rng, rand_shape(rng))
        if name == "full":  # full takes no varargs size
            value = rand_scalar(rng)
            full_form = "tuple" if form == "varargs" else form
            args = lambda lib: (_size(lib, full_form, shape)[0], value)
            case = f"full({form} {shape}, {value!r}, {kw})"
        else:
            args = lambda lib: _size(lib, form, shape)
            case = f"{name}({form} {shape}, {kw})"
        check(case, lambda: _blank(name, getattr(M, name)(*args(M), **with_dtype(M))),
              lambda: _blank(name, getattr(torch, name)(*args(torch), **with_dtype(torch))),
              post=_same_strides)
    elif name == "arange":
        n = int(rng.integers(1, 4))
        values = [_pick(rng, RANGE_VALUES) for _ in range(n)]
        if rng.random() < 0.5:  # ordinary ranges most of the time
            values = sorted(rng.integers(-6, 7, n).tolist())
            if rng.random() < 0.3:
                values = [v + 0.5 for v in values]
            if n == 3:
                values[2] = _pick(rng, (1, 2, 0.5, -1, 0.3))
        check(f"arange({values}, {kw})", lambda: M.arange(*values, **with_dtype(M)),
              lambda: torch.arange(*values, **with_dtype(torch)))
    elif name == "linspace":
        start, end = _pick(rng, RANGE_VALUES), _pick(rng, RANGE_VALUES)
        if rng.random() < 0.6:
            start, end = (float(v) for v in rng.uniform(-10, 10, 2).round(2))
        steps = int(_pick(rng, (0, 1, 2, 5, 7, 10, -1, 40)))
        if (dtype in COMPLEX or complex in (type(start), type(end))) and \
                not all(math.isfinite(abs(v)) for v in (start, end)):
            return  # complex steps through inf: C library special values (not compared)
        check(f"linspace({start!r}, {end!r}, {steps}, {kw})",
              lambda: M.linspace(start, end, steps, **with_dtype(M)),
              lambda: torch.linspace(start, end, steps, **with_dtype(torch)))
    elif name == "eye":
        n = int(rng.integers(-1, 5))
        args = (n,) if rng.random() < 0.5 else (n, int(rng.integers(-1, 5)))
        check(f"eye({args}, {kw})", lambda: M.eye(*args, **with_dtype(M)),
              lambda: torch.eye(*args, **with_dtype(torch)))
    elif name == "like":
        which = _pick(rng, ("zeros_like", "ones_like", "empty_like", "full_like"))
        src = rand_dtype(rng)
        shape, layout = rand_shape(rng), _pick(rng, LAYOUTS)
        m, t, desc = make_pair(rng, src, shape, layout)
        extra = (rand_scalar(rng),) if which == "full_like" else ()
        check(f"{which}({desc}, {extra}, {kw})",
              lambda: _blank(which, getattr(M, which)(m, *extra, **with_dtype(M))),
              lambda: _blank(which, getattr(torch, which)(t, *extra, **with_dtype(torch))),
              post=_same_strides)
    elif name == "tensor":
        data = _rand_data(rng)
        check(f"tensor({data!r}, {kw})", lambda: M.tensor(data, **with_dtype(M)),
              lambda: torch.tensor(data, **with_dtype(torch)))
    else:
        _to_case(check, rng)


def _blank(name, t):
    """empty/empty_like hold arbitrary values: compare dtype, shape and strides only."""
    return t.fill_(False) if "empty" in name else t


def _same_strides(got, want):
    if want.numel() and got.stride() != want.stride():
        return f"strides {got.stride()} != torch's {want.stride()}"
    return None


def _rand_data(rng, depth=0):
    """Nested Python data for tensor(): lists/tuples of numbers of mixed kinds (mostly
    rectangular), numpy arrays or scalars."""
    r = rng.random()
    if depth == 0 and r < 0.2:
        # (not bfloat16: mindtorch takes ml_dtypes arrays, which torch refuses)
        dt = rand_dtype(rng, tuple(d for d in DTYPES if d != "bfloat16"))
        return rand_values(rng, dt, rand_shape(rng), special=0.1)
    if depth >= 2 or r < 0.25:
        kind = _pick(rng, ("int", "int", "float", "float", "bool", "complex"))
        return rand_scalar(rng, (kind,), small=rng.random() < 0.7)
    n = int(rng.integers(0, 4))
    kinds = [_pick(rng, ("int", "float", "bool", "complex")) for _ in range(1)]
    if rng.random() < 0.7:  # rectangular: every row alike
        row = _rand_data(rng, depth + 1) if depth < 1 else None
        items = [row if row is not None else rand_scalar(rng, tuple(kinds), small=True)
                 for _ in range(n)]
        if row is not None and isinstance(row, list):
            items = [[rand_scalar(rng, tuple(kinds), small=True) for _ in row] for _ in range(n)]
    else:
        items = [_rand_data(rng, depth + 1) for _ in range(n)]
    return items if rng.random() < 0.8 else tuple(items)


def _to_case(check, rng):
    src, dst = rand_dtype(rng), rand_dtype(rng)
    shape, layout = rand_shape(rng), _pick(rng, LAYOUTS)
    seed = int(rng.integers(2 ** 31))
    special = 0.1
    if dst in INTS or dst == "bool":
        # float -> int of nan/inf or of values out of the target's range is undefined in
        # C++ (torch's result varies by platform): only in-range values are compared
        special = 0.0
    m, t, desc = make_pair(np.random.default_rng(seed), src, shape, layout, special=special)
    if dst in INTS and src in FLOATS + COMPLEX:
        info = torch.iinfo(getattr(torch, dst))
        real = t.real if t.is_complex() else t
        if t.numel() and not bool(((real.double() > float(info.min) - 1) &
                                   (real.double() < float(info.max) + 1)).all()):
            return
    form = _pick(rng, ("to", "to", "method", "type", "copy"))
    mt_dt, th_dt = getattr(M, dst), getattr(torch, dst)
    if form == "to":
        mfn, tfn = (lambda: m.to(mt_dt)), (lambda: t.to(th_dt))
    elif form == "method":
        meth = {"float32": "float", "float64": "double", "float16": "half",
                "bfloat16": "bfloat16", "int64": "long", "int32": "int", "int16": "short",
                "int8": "char", "uint8": "byte", "bool": "bool", "complex64": "cfloat",
                "complex128": "cdouble"}[dst]
        mfn, tfn = (lambda: getattr(m, meth)()), (lambda: getattr(t, meth)())
    elif form == "type":
        mfn, tfn = (lambda: m.type(mt_dt)), (lambda: t.type(th_dt))
    else:
        mfn = lambda: M.empty(shape, dtype=mt_dt).copy_(m)
        tfn = lambda: torch.empty(shape, dtype=th_dt).copy_(t)

    def post(got, want):
        if (want is t) != (got is m):
            return "returned self" if got is m else "did not return self"
        return None if form == "copy" else _same_strides(got, want)
    check(f"{form}({desc} -> {dst}) seed={seed}", mfn, tfn, post=post)


@pytest.mark.parametrize("seed", range(4))
def test_fuzz_creation_and_conversion(seed):
    check, rng = Checker(), np.random.default_rng(6000 + seed)
    for _ in range(CASES):
        _creation_case(check, rng)
    check.report()
