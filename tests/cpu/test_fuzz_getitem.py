"""Structural fuzz (see structural_fuzz.py): __getitem__ / __setitem__ with random index
tuples.
"""
import numpy as np
import pytest

from reference import torch
from structural_fuzz import (
    ALL, LAYOUTS, M, Raised, _call, compare, data, mk, pick, rand_shape, seeds,
)
pytestmark = pytest.mark.filterwarnings("ignore")


# -- __getitem__ / __setitem__ -------------------------------------------------------------

def _int_values(rng, size, shape, bad=0.04):
    """Indices into a dim of `size` (negative ones too; sometimes out of range)."""
    lo, hi = (-size, size) if size else (-1, 1)
    v = rng.integers(lo, hi, shape) if size or rng.random() < bad else \
        np.zeros(shape, np.int64)[...]
    if size == 0 and v.size:
        return v  # any index is out of range of an empty dim
    if rng.random() < bad and v.size:
        v.flat[int(rng.integers(v.size))] = pick(rng, [size, -size - 1, size + 3])
    return v


def _index(rng, shape):
    """(description, fn(L) -> index) of a random index for a tensor of `shape`."""
    nd = len(shape)
    items, descs = [], []
    dim = 0
    bshape = tuple(int(v) for v in rng.integers(1, 4, int(rng.integers(0, 3))))
    ellipsis = False
    for _ in range(int(rng.integers(0, nd + 2))):
        size = shape[dim] if dim < nd else 2
        kind = pick(rng, ["int", "int", "slice", "slice", "None", "Ellipsis", "bool", "list",
                          "tensor", "tensor", "mask", "tensor0", "bool0", "npint", "int32",
                          "nparray", "boollist", "tslice", "npmask"])
        if kind == "Ellipsis":
            if ellipsis:  # PyTorch's handling of several ellipses reads out of range dims
                continue
            ellipsis = True
            items.append(lambda L: Ellipsis)
            descs.append("...")
            dim = max(dim, nd - (len(items) - 1))
            continue
        if kind == "None":
            items.append(lambda L: None)
            descs.append("None")
            continue
        if kind in ("bool", "bool0"):
            b = bool(rng.random() < 0.5)
            items.append((lambda L, b=b: b) if kind == "bool" else
                         (lambda L, b=b: L.tensor(b)))
            descs.append(f"{b}" if kind == "bool" else f"tensor({b})")
            continue
        if kind in ("int", "npint", "tensor0"):
            i = int(_int_values(rng, size, ())[()])
            wrap = {"int": lambda L, i=i: i, "npint": lambda L, i=i: np.int64(i),
                    "tensor0": lambda L, i=i: L.tensor(i)}[kind]
            items.append(wrap)
            descs.append(f"{kind}({i})")
        elif kind == "tslice":  # slice bounds given as 0-dim tensors
            a, b = int(rng.integers(-size, size + 1)), int(rng.integers(-size, size + 2))
            items.append(lambda L, a=a, b=b: slice(L.tensor(a), L.tensor(b), L.tensor(1)))
            descs.append(f"tensor({a}):tensor({b})")
        elif kind == "slice":
            def bound():
                return None if rng.random() < 0.4 else int(rng.integers(-size - 2, size + 3))
            step = pick(rng, [None, None, 1, 2, 3]) if rng.random() > 0.03 else \
                pick(rng, [0, -1])
            sl = slice(bound(), bound(), step)
            items.append(lambda L, sl=sl: sl)
            descs.append(f"{sl.start}:{sl.stop}:{sl.step}")
        elif kind in ("list", "tensor", "int32"):
            shp = bshape if rng.random() < 0.9 else tuple(
                int(v) for v in rng.integers(1, 4, int(rng.integers(1, 3))))
            shp = tuple(1 if rng.random() < 0.3 else n for n in shp)  # broadcasting
            if kind == "list" and not shp:
                shp = (int(rng.integers(0, 3)),)
            v = _int_values(rng, size, shp)
            if kind == "list":
                lst = v.tolist()
                items.append(lambda L, lst=lst: lst)
                descs.append(f"{lst}")
            elif kind == "nparray":
                items.append(lambda L, v=v: v.copy())
                descs.append(f"np.array({v.tolist()})")
            else:
                dt = "int64" if kind == "tensor" else pick(rng, ["int32", "int64", "float32",
                                                                  "int16"])
                items.append(lambda L, v=v, dt=dt: L.tensor(v).to(getattr(L, dt)))
                descs.append(f"tensor({v.tolist()}, {dt})")
        elif kind in ("mask", "boollist", "npmask"):
            k = int(rng.integers(1, 3)) if kind == "mask" else 1
            mshape = tuple(shape[dim:dim + k]) if dim + k <= nd else (size,) * k
            if rng.random() < 0.05:
                mshape = tuple(n + 1 for n in mshape)
            v = rng.random(mshape) < 0.5
            dt = "bool" if rng.random() < 0.9 else "uint8"
            if kind == "boollist":
                items.append(lambda L, v=v: v.tolist())
                descs.append(f"{v.tolist()}")
            elif kind == "npmask":
                items.append(lambda L, v=v: v.copy())
                descs.append(f"np.array({v.tolist()})")
            else:
                items.append(lambda L, v=v, dt=dt: L.tensor(v).to(getattr(L, dt)))
                descs.append(f"mask({v.astype(int).tolist()}, {dt})")
            dim += k
            continue
        dim += 1
    r = rng.random()
    if len(items) == 1 and r < 0.5:
        return descs[0], items[0]
    if r < 0.07 and items:  # a list of index items: PyTorch takes it as a tuple
        return f"[{', '.join(descs)}]", lambda L: [f(L) for f in items]
    return f"({', '.join(descs)})", lambda L: tuple(f(L) for f in items)


def _is_view_of(t, root):
    return t._base is root or t is root


@pytest.mark.parametrize("seed", seeds(250))
def test_getitem(seed):
    rng = np.random.default_rng(seed)
    dtype = pick(rng, ["float32", "int64", "bool", "complex64", "float16", "uint8"])
    shape = rand_shape(rng)
    layout = pick(rng, LAYOUTS)
    values = data(rng, shape, dtype)
    desc, index = _index(rng, shape)
    where = f"{layout} {shape} {dtype} x[{desc}]"
    base = {L: mk(L, values, dtype, layout) for L in (M, torch)}
    m, t = check_getitem(base, index, where)
    if not isinstance(t, Raised):
        root = {L: b if b._base is None else b._base for L, b in base.items()}
        view = _is_view_of(t, root[torch])
        assert _is_view_of(m, root[M]) == view, where
        if view:  # basic indexing: the same view
            compare(m, t, meta=True, what=where)


def check_getitem(base, index, where):
    t = _call(lambda L: base[L][index(L)], torch)
    m = _call(lambda L: base[L][index(L)], M)
    compare(m, t, what=where)
    return m, t


def _value(rng, shape, dtype):
    """(description, fn(L) -> value) to assign into a result of `shape`."""
    kind = pick(rng, ["scalar", "scalar", "tensor0", "same", "broadcast", "other_dtype",
                      "wrong", "lead1", "npscalar", "sequence"])
    if kind == "scalar":
        v = data(rng, (), pick(rng, [dtype, "int64", "float64", "bool"])).item()
        if rng.random() < 0.05:
            v = pick(rng, [2 ** 63, -2 ** 64, 300, -129, 1e300, float("nan"), float("inf"),
                           1 + 2j])
        return repr(v), lambda L: v
    if kind == "npscalar":
        v = pick(rng, [np.float32(1.5), np.float64(-2.5), np.int8(3), np.int64(-1),
                       np.uint8(7), np.bool_(True), np.complex64(1j), np.float16(2)])
        return f"np.{type(v).__name__}({v})", lambda L: v
    if kind == "sequence":
        v = data(rng, shape, dtype).tolist()
        return f"{v}", lambda L: v
    vdtype = dtype if kind != "other_dtype" and rng.random() < 0.7 else pick(rng, ALL)
    if kind == "tensor0":
        vshape = ()
    elif kind == "same":
        vshape = shape
    elif kind == "lead1":
        vshape = (1,) * int(rng.integers(1, 3)) + tuple(shape)
    elif kind == "wrong":
        vshape = tuple(int(v) for v in rng.integers(0, 4, int(rng.integers(1, 3))))
    else:
        k = int(rng.integers(0, len(shape) + 1))
        vshape = tuple(1 if rng.random() < 0.3 else n for n in shape[k:])
    v = data(rng, vshape, vdtype)
    return f"tensor({vshape}, {vdtype})", lambda L: mk(L, v, vdtype)


def _targets_unique(shape, index):
    """Whether torch's x[index] names each element at most once (else assignment order
    between duplicates is unspecified)."""
    pos = torch.arange(int(np.prod(shape)) if shape else 1).reshape(shape)[index(torch)]
    return pos.numel() == pos.unique().numel()


@pytest.mark.parametrize("seed", seeds(250))
def test_setitem(seed):
    rng = np.random.default_rng(seed + 10_000)
    dtype = pick(rng, ["float32", "int64", "bool", "complex64", "bfloat16", "uint8", "int8"])
    shape = rand_shape(rng)
    layout = pick(rng, LAYOUTS)
    values = data(rng, shape, dtype)
    desc, index = _index(rng, shape)
    base = {L: mk(L, values, dtype, layout) for L in (M, torch)}
    res = _call(lambda L: base[L][index(L)], torch)
    target = res.shape if not isinstance(res, Raised) else (int(rng.integers(0, 3)),)
    vdesc, value = _value(rng, tuple(target), dtype)
    where = f"{layout} {shape} {dtype} x[{desc}] = {vdesc}"
    unique = isinstance(res, Raised) or _call(lambda L: _targets_unique(shape, index), torch)
    if unique is not True:  # duplicates: PyTorch leaves the winner unspecified
        v = _call(value, torch)
        if not (isinstance(v, Raised) or not isinstance(v, torch.Tensor) or
                v.numel() <= 1):
            return

    def assign(L):
        base[L][index(L)] = value(L)
        return base[L]
    compare(_call(assign, M), _call(assign, torch), meta=True, what=where)
    assert base[M]._version == base[torch]._version, where
