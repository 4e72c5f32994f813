"""Structural fuzz (see structural_fuzz.py): joining (cat, stack ...) and matrix products.
"""
import numpy as np
import pytest

from reference import torch
from structural_fuzz import (
    ALL, M, Raised, _call, compare, data, mk, pick, rand_shape, rdim, seeds,
)
from test_fuzz_index_ops import _call_form, _tensor_arg
pytestmark = pytest.mark.filterwarnings("ignore")


# -- joining ---------------------------------------------------------------------------------

def _out_arg(rng, shape, dtype):
    """An out= tensor: usually of the result's shape and dtype, sometimes empty (resized),
    of another dtype or another shape."""
    r = rng.random()
    if r < 0.5:
        oshape, odtype = shape, dtype
    elif r < 0.7:
        oshape, odtype = (0,), dtype
    elif r < 0.85:
        oshape, odtype = shape, pick(rng, ALL)
    else:
        oshape, odtype = tuple(n + 1 for n in shape) or (2,), dtype
    values = data(rng, oshape, odtype)
    return f"out={odtype}{list(oshape)}", lambda L: mk(L, values, odtype)


@pytest.mark.parametrize("seed", seeds(150))
def test_joining(seed):
    rng = np.random.default_rng(seed + 30_000)
    name = pick(rng, ["cat", "concat", "concatenate", "stack", "cat_method"])
    shape = list(rand_shape(rng, 3, empty=0.1))
    n = int(rng.integers(0, 5)) if rng.random() < 0.95 else 0
    dim = rdim(rng, len(shape), extra=1 if name == "stack" else 0)
    d = dim % max(len(shape) + (name == "stack"), 1)
    args, descs = [], []
    base_dtype = pick(rng, ALL)
    for _ in range(n):
        s = list(shape)
        r = rng.random()
        if name != "stack" and s and d < len(s) and r < 0.6:
            s[d] = int(rng.integers(0, 4))
        elif r < 0.66:
            s = [0]  # the legacy empty tensor cat skips
        elif r < 0.7 and s:
            s[int(rng.integers(len(s)))] += 1
        elif r < 0.72:
            s = s + [1]
        dtype = base_dtype if rng.random() < 0.6 else pick(rng, ALL)
        desc, t = _tensor_arg(rng, tuple(s), dtype)
        args.append(t)
        descs.append(desc)
    container = list if rng.random() < 0.7 else tuple
    kwargs = {}
    if rng.random() < 0.3:
        kwargs["dim"] = dim
    elif rng.random() < 0.8:
        kwargs = None
    res = _call(lambda L: L.cat(container(a(L) for a in args), dim), torch) \
        if name != "stack" else _call(lambda L: L.stack([a(L) for a in args], dim), torch)
    out = None
    if rng.random() < 0.2 and not isinstance(res, Raised):
        odesc, out = _out_arg(rng, tuple(res.shape), str(res.dtype)[6:])
        descs.append(odesc)

    def run(L):
        ts = container(a(L) for a in args)
        kw = {} if kwargs is None else dict(kwargs)
        if out is not None:
            kw["out"] = out(L)
        if name == "cat_method":  # torch.Tensor has no cat: the function with keyword
            return L.cat(tensors=ts, **({"dim": dim} if kwargs is None else kw)) \
                if out is None else L.cat(ts, dim, out=kw["out"])
        fn = getattr(L, name)
        if kwargs is None:
            return fn(ts, dim, **kw)
        return fn(ts, **kw)
    compare(_call(run, M), _call(run, torch), meta=True,
            what=f"{name}([{', '.join(descs)}], dim={dim})")


@pytest.mark.parametrize("seed", seeds(60))
def test_stacks(seed):
    rng = np.random.default_rng(seed + 35_000)
    name = pick(rng, ["hstack", "vstack", "dstack", "column_stack", "row_stack", "atleast_1d",
                      "atleast_2d", "atleast_3d"])
    shape = rand_shape(rng, 3)
    args, descs = [], []
    for _ in range(int(rng.integers(0 if rng.random() < 0.05 else 1, 4))):
        s = shape if rng.random() < 0.7 else rand_shape(rng, 3)
        desc, t = _tensor_arg(rng, s, pick(rng, ALL) if rng.random() < 0.3 else "float32")
        args.append(t)
        descs.append(desc)
    if name.startswith("atleast"):
        form = rng.integers(3)
        run = (lambda L: getattr(L, name)(*[a(L) for a in args])) if form == 0 else \
            (lambda L: getattr(L, name)([a(L) for a in args]))
    else:
        run = (lambda L: getattr(L, name)([a(L) for a in args]))
    compare(_call(run, M), _call(run, torch), meta=name.startswith("atleast"),
            what=f"{name}({', '.join(descs)})")


# -- matrix products -------------------------------------------------------------------------

def _batch(rng, k):
    return tuple(int(rng.integers(0, 4)) if rng.random() < 0.1 else int(rng.integers(1, 4))
                 for _ in range(k))


def _operand_shapes(rng, ra, rb):
    """Shapes of ranks ra, rb for a product: inner sizes agree and batch dims broadcast
    (mostly)."""
    n, k, p = (int(rng.integers(0 if rng.random() < 0.1 else 1, 5)) for _ in range(3))
    ba, bb = _batch(rng, max(ra - 2, 0)), _batch(rng, max(rb - 2, 0))
    # let the batches broadcast: equal, 1, or (rarely) mismatched
    common = _batch(rng, max(len(ba), len(bb)))
    ba = tuple(pick(rng, [c, c, 1]) for c in common[len(common) - len(ba):])
    bb = tuple(pick(rng, [c, c, 1]) for c in common[len(common) - len(bb):])
    a = {0: (), 1: (k,), 2: (n, k)}.get(ra, ba + (n, k))
    b = {0: (), 1: (k,), 2: (k, p)}.get(rb, bb + (k, p))
    if rng.random() < 0.08 and b:  # inner sizes disagree
        b = (b[0] + 1,) + b[1:] if rb == 1 else b[:-2] + (b[-2] + 1, b[-1])
    if rng.random() < 0.05 and ra > 2:
        a = (a[0] + 2,) + a[1:]
    return a, b


_PRODUCT_DTYPES = ["float32", "float32", "float64", "int64", "int32", "float16", "bfloat16",
                   "complex64", "bool", "uint8", "int8", "int16", "complex128"]


@pytest.mark.parametrize("seed", seeds(250))
def test_products(seed):
    rng = np.random.default_rng(seed + 40_000)
    name = pick(rng, ["matmul", "matmul", "matmul_op", "matmul_method", "mm", "bmm", "mv",
                      "dot", "addmm", "vdot", "inner", "outer"])
    ranks = {"mm": (2, 2), "bmm": (3, 3), "mv": (2, 1), "dot": (1, 1), "addmm": (2, 2),
             "vdot": (1, 1), "inner": None, "outer": (1, 1)}.get(name)
    if ranks is None or rng.random() < 0.1:
        ranks = (int(rng.integers(0, 5)), int(rng.integers(0, 5)))
    sa, sb = _operand_shapes(rng, *ranks)
    da = pick(rng, _PRODUCT_DTYPES)
    db = da if rng.random() < 0.9 else pick(rng, _PRODUCT_DTYPES)
    ad, a = _tensor_arg(rng, sa, da)
    bd, b = _tensor_arg(rng, sb, db)
    kwargs, extra = {}, []
    if name == "addmm":
        rshape = (sa[0] if len(sa) == 2 else 2, sb[1] if len(sb) == 2 else 2)
        cshape = pick(rng, [rshape, rshape[1:], (1, rshape[1]), (), (rshape[0], 1), (3,)])
        cd, c = _tensor_arg(rng, cshape, da if rng.random() < 0.9 else pick(rng, ALL))
        extra.append(cd)
        if rng.random() < 0.5:
            kwargs["beta"] = pick(rng, [0, 1, 2, 0.5, -1])
        if rng.random() < 0.5:
            kwargs["alpha"] = pick(rng, [0, 1, 3, 0.5, -2])
        run = (lambda L: L.addmm(c(L), a(L), b(L), **kwargs)) if rng.random() < 0.5 else \
            (lambda L: c(L).addmm(a(L), b(L), **kwargs))
    elif name == "matmul_op":
        run = lambda L: a(L) @ b(L)  # noqa: E731
    elif name == "matmul_method":
        run = lambda L: a(L).matmul(b(L))  # noqa: E731
    else:
        run = _call_form(rng, name, a, b)
    res = _call(run, torch)
    if rng.random() < 0.15 and not isinstance(res, Raised) and name != "matmul_op":
        odesc, out = _out_arg(rng, tuple(res.shape), str(res.dtype)[6:])
        extra.append(odesc)
        inner = run
        if name == "addmm":
            run = lambda L: L.addmm(c(L), a(L), b(L), out=out(L), **kwargs)  # noqa: E731
        else:
            fn = "matmul" if name.startswith("matmul") else name
            run = lambda L: getattr(L, fn)(a(L), b(L), out=out(L))  # noqa: E731
        del inner
    where = f"{name}({ad}, {bd}, {', '.join(extra)}, {kwargs})"
    compare(_call(run, M), _call(run, torch), what=where, exact=False)
