"""Pointwise fuzz (see pointwise_fuzz.py): unary and binary pointwise ops, clamp, where,
lerp.
"""
import warnings

import mindtorch as M
import numpy as np
import pytest
from mindtorch._ops.decls import pointwise as P
from reference import torch
from pointwise_fuzz import (
    broadcast_partner, CASES, Checker, COMPLEX, _complex_pow_of_nonfinite, diff, F, FLOATS,
    LAYOUTS, LOOSE, make_pair, _no_trap, _pick, rand_dtype, rand_scalar, rand_shape,
)


# -- pointwise: unary -------------------------------------------------------------------------

# huge float arguments: results depend on argument reduction details (no value to compare)
WILD = {"sin", "cos", "tan"}

UNARY = sorted(set(P.UNARY) | {"negative", "absolute"})


def _unary_fns(name, kwargs):
    if name in ("gelu", "silu"):
        return (lambda x, **kw: getattr(M, name)(x, **kwargs, **kw),
                lambda x, **kw: getattr(F, name)(x, **kwargs, **kw))
    return (lambda x, **kw: getattr(M, name)(x, **kwargs, **kw),
            lambda x, **kw: getattr(torch, name)(x, **kwargs, **kw))


def _variants(check, case, mfn, tfn, mk, name, kwargs, rng, result_dtype_hint=None):
    """Run op `name` as function, method, in-place and out= variants.  mk() gives fresh
    (mindtorch args, torch args) with a tensor first."""
    variant = _pick(rng, ("function", "function", "method", "inplace", "out"))
    loose = 2 if name == "pow" else name in LOOSE
    margs, targs = mk()
    if variant == "function":
        check(case, lambda: mfn(*margs), lambda: tfn(*targs), loose)
    elif variant == "method" and hasattr(torch.Tensor, name):
        check(case + " method", lambda: getattr(margs[0], name)(*margs[1:], **kwargs),
              lambda: getattr(targs[0], name)(*targs[1:], **kwargs), loose)
    elif variant == "inplace" and hasattr(torch.Tensor, name + "_"):
        def post(got, want):
            return None if got is margs[0] else "in-place result is not self"
        check(case + " in-place", lambda: getattr(margs[0], name + "_")(*margs[1:], **kwargs),
              lambda: getattr(targs[0], name + "_")(*targs[1:], **kwargs), loose, post)
        if check.last_ok:
            # the write went through to the (viewed) base (when both succeeded: torch may
            # have written part of the result before raising)
            d = diff(margs[0], targs[0], loose)
            if d:
                check.fail(case + " in-place self", d)
    elif variant == "out":
        odt = rand_dtype(rng)
        oshape = _pick(rng, ((0,), None))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                plain = tfn(*targs)
            shape, computed = tuple(plain.shape), plain.dtype
        except Exception:  # noqa: BLE001 - the function form is checked elsewhere
            shape, computed = (0,), None
        oshape = shape if oshape is None else oshape
        mo, to = M.empty(oshape, dtype=getattr(M, odt)), torch.empty(oshape,
                                                                      dtype=getattr(torch, odt))

        def post(got, want):
            return None if got is mo else "out= result is not out"
        check(f"{case} out={odt}{list(oshape)}", lambda: mfn(*margs, out=mo),
              lambda: tfn(*targs, out=to), loose, post, tol_dtype=computed)


def _unary_case(check, rng):
    name = _pick(rng, UNARY + ["gelu", "silu", "round"])
    dtype = rand_dtype(rng)
    shape = rand_shape(rng)
    kwargs = {}
    if name == "gelu":
        kwargs["approximate"] = _pick(rng, ("none", "tanh", "tanh", "none", "fast"))
    if name == "round" and rng.random() < 0.6:
        kwargs["decimals"] = int(rng.integers(-2, 4))
    special = 0.0 if name in WILD else 0.2
    layout = _pick(rng, LAYOUTS)
    seed = int(rng.integers(2 ** 31))
    case = f"{name}({dtype}{list(shape)}:{layout}, {kwargs}) seed={seed}"
    mfn, tfn = _unary_fns(name, kwargs)

    def mk():
        m, t, _ = make_pair(np.random.default_rng(seed), dtype, shape, layout, special=special)
        return (m,), (t,)
    _variants(check, case, mfn, tfn, mk, name, kwargs, rng)


@pytest.mark.parametrize("seed", range(4))
def test_fuzz_unary(seed):
    check, rng = Checker(), np.random.default_rng(1000 + seed)
    for _ in range(CASES):
        _unary_case(check, rng)
    check.report()


# -- pointwise: binary ------------------------------------------------------------------------

BINARY = sorted(set(P.BINARY) | set(P.ALIASES) - {"negative", "absolute"})
DIVISIONS = {"div", "divide", "true_divide", "floor_divide", "remainder", "fmod"}


def _operand(rng, seed, kind, dtype, shape, layout, special, scalar_kinds):
    """('T', dtype, shape) -> tensor pair; ('S', ...) -> a Python scalar."""
    if kind == "S":
        s = rand_scalar(np.random.default_rng(seed), scalar_kinds)
        return s, s, repr(s)
    m, t, desc = make_pair(np.random.default_rng(seed), dtype, shape, layout, special=special)
    return m, t, desc


def _binary_case(check, rng):
    name = _pick(rng, BINARY)
    kinds = _pick(rng, ("TT", "TT", "TT", "TS", "TS", "ST", "SS"))
    da = rand_dtype(rng)
    db = da if rng.random() < 0.4 else rand_dtype(rng)
    sa = rand_shape(rng)
    sb = broadcast_partner(rng, sa) if rng.random() < 0.8 else rand_shape(rng)
    if rng.random() < 0.5:
        sa, sb = sb, sa
    la, lb = _pick(rng, LAYOUTS), _pick(rng, LAYOUTS)
    seeds = [int(rng.integers(2 ** 31)) for _ in range(3)]
    kwargs = {}
    if name in ("add", "sub", "subtract", "rsub") and rng.random() < 0.3:
        kwargs["alpha"] = rand_scalar(rng, small=True)
    if name in ("div", "divide") and rng.random() < 0.6:
        kwargs["rounding_mode"] = _pick(rng, ("trunc", "floor", "trunc", "floor", None, "x"))
    special = 0.2
    # INT_MIN / -1 traps (SIGFPE) in torch's integer division: keep the minimum out
    scalar_kinds = ("bool", "int", "float", "complex")
    case = f"{name}({kinds} {da}{list(sa)}:{la}, {db}{list(sb)}:{lb}, {kwargs}) seeds={seeds}"

    def mk():
        a = _operand(rng, seeds[0], kinds[0], da, sa, la, special, scalar_kinds)
        b = _operand(rng, seeds[1], kinds[1], db, sb, lb, special, scalar_kinds)
        if name in DIVISIONS:
            a, b = _no_trap(a), _no_trap(b)
        if name == "pow" and isinstance(b[1], float) and b[1] == 1e-300:
            # torch itself disagrees (a scalar exponent is a double in its scalar loop, a
            # float in its vectorized one); keep the exponent representable in float32
            b = (1e-3, 1e-3, b[2])
        return (a[0], b[0]), (a[1], b[1])
    mfn = lambda *a, **kw: getattr(M, name)(*a, **kwargs, **kw)
    tfn = lambda *a, **kw: getattr(torch, name)(*a, **kwargs, **kw)
    if name == "pow" and _complex_pow_of_nonfinite(*mk()[1]):
        return
    if kinds[0] == "S":
        check(case, lambda: mfn(*mk()[0]), lambda: tfn(*mk()[1]),
              2 if name == "pow" else name in LOOSE)
    else:
        _variants(check, case, mfn, tfn, mk, name, kwargs, rng)


@pytest.mark.parametrize("seed", range(6))
def test_fuzz_binary(seed):
    check, rng = Checker(), np.random.default_rng(2000 + seed)
    for _ in range(CASES):
        _binary_case(check, rng)
    check.report()


# -- clamp, where, lerp -----------------------------------------------------------------------

def _ternary_case(check, rng):
    name = _pick(rng, ("clamp", "clamp", "where", "where", "lerp", "lerp"))
    shape = rand_shape(rng)
    dtype = rand_dtype(rng)
    seeds = [int(rng.integers(2 ** 31)) for _ in range(3)]
    layouts = [_pick(rng, LAYOUTS) for _ in range(3)]
    kinds = [_pick(rng, ("T", "T", "S", "N")) for _ in range(2)]
    dts = [dtype if rng.random() < 0.5 else rand_dtype(rng) for _ in range(2)]
    shapes = [broadcast_partner(rng, shape) for _ in range(2)]

    def operand(i, kind):
        if kind == "N":
            return None, None
        if kind == "S":
            s = rand_scalar(np.random.default_rng(seeds[i + 1]))
            return s, s
        m, t, _ = make_pair(np.random.default_rng(seeds[i + 1]), dts[i], shapes[i], layouts[i + 1])
        return m, t

    if name == "where":
        kinds = [k if k != "N" else "T" for k in kinds]
        cdt = "bool" if rng.random() < 0.8 else rand_dtype(rng)
        case = (f"where({cdt}{list(shape)}:{layouts[0]}, {kinds[0]} {dts[0]}{list(shapes[0])}, "
                f"{kinds[1]} {dts[1]}{list(shapes[1])}) seeds={seeds}")

        def mk():
            c = make_pair(np.random.default_rng(seeds[0]), cdt, shape, layouts[0])
            x, y = operand(0, kinds[0]), operand(1, kinds[1])
            return (c[0], x[0], y[0]), (c[1], x[1], y[1])
        variant = _pick(rng, ("function", "method", "out"))
        (mc, mx, my), (tc, tx, ty) = mk()
        if variant == "method" and isinstance(tx, torch.Tensor):
            check(case + " method", lambda: mx.where(mc, my), lambda: tx.where(tc, ty))
        elif variant == "out":
            odt = rand_dtype(rng)
            mo, to = M.empty(0, dtype=getattr(M, odt)), torch.empty(0, dtype=getattr(torch, odt))
            check(f"{case} out={odt}", lambda: M.where(mc, mx, my, out=mo),
                  lambda: torch.where(tc, tx, ty, out=to))
        else:
            check(case, lambda: M.where(mc, mx, my), lambda: torch.where(tc, tx, ty))
        return
    if name == "lerp":
        # lerp needs floating self and end of one dtype; other dtypes check the errors
        dtype = _pick(rng, FLOATS + COMPLEX) if rng.random() < 0.85 else dtype
        dts[0] = dtype if rng.random() < 0.9 else dts[0]
        kinds = ["T", _pick(rng, ("T", "S"))]
        if rng.random() < 0.8:
            dts[1] = dtype
    case = (f"{name}({dtype}{list(shape)}:{layouts[0]}, {kinds[0]} {dts[0]}{list(shapes[0])}:"
            f"{layouts[1]}, {kinds[1]} {dts[1]}{list(shapes[1])}:{layouts[2]}) seeds={seeds}")

    def mk():
        x = make_pair(np.random.default_rng(seeds[0]), dtype, shape, layouts[0])
        a, b = operand(0, kinds[0]), operand(1, kinds[1])
        return (x[0], a[0], b[0]), (x[1], a[1], b[1])
    mfn = getattr(M, name)
    tfn = getattr(torch, name)
    _variants(check, case, mfn, tfn, mk, name, {}, rng)


@pytest.mark.parametrize("seed", range(3))
def test_fuzz_clamp_where_lerp(seed):
    check, rng = Checker(), np.random.default_rng(3000 + seed)
    for _ in range(CASES):
        _ternary_case(check, rng)
    check.report()
