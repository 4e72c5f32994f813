"""Structural fuzz (see structural_fuzz.py): reorderings and repetitions, einsum, linalg
ops, and out= dtypes of the structural ops.
"""
import numpy as np
import pytest

from reference import torch
from structural_fuzz import (
    ALL, LAYOUTS, M, _call, compare, data, mk, pick, rand_shape, rdim, seeds,
)
from test_fuzz_index_ops import _call_form, _tensor_arg
from test_fuzz_random_ops import compare_random
pytestmark = pytest.mark.filterwarnings("ignore")


# -- reorderings and repetitions ---------------------------------------------------------------

def _reorder_case(rng):
    shape = rand_shape(rng, 3)
    nd = len(shape)
    dtype = pick(rng, ALL)
    xd, x = _tensor_arg(rng, shape, dtype, layouts=LAYOUTS)
    name = pick(rng, ["flip", "fliplr", "flipud", "roll", "roll_flat", "rot90", "repeat",
                      "tile", "repeat_interleave", "repeat_interleave_t"])
    if name == "flip":
        # (a repeated dim and an out-of-range one together: PyTorch reports whichever comes
        # first, mindtorch's shared wrap_dims the range; see the report)
        dims = tuple(rdim(rng, nd, bad=0) for _ in range(int(rng.integers(0, nd + 1))))
        if rng.random() < 0.1 and len(set(d % max(nd, 1) for d in dims)) == len(dims):
            dims = dims + (pick(rng, [nd, -nd - 1]),)
        return f"flip({xd}, {dims})", _call_form(rng, "flip", x, dims)
    if name in ("fliplr", "flipud"):
        return f"{name}({xd})", _call_form(rng, name, x)
    if name.startswith("roll"):
        k = int(rng.integers(1, max(nd, 1) + 1))
        shifts = tuple(int(v) for v in rng.integers(-5, 6, k))
        if name == "roll_flat":
            return f"roll({xd}, {shifts})", _call_form(rng, "roll", x, shifts)
        dims = tuple(rdim(rng, nd) for _ in range(k if rng.random() < 0.9 else k + 1))
        return f"roll({xd}, {shifts}, {dims})", _call_form(rng, "roll", x, shifts, dims)
    if name == "rot90":
        k = int(rng.integers(-5, 6))
        dims = pick(rng, [(0, 1), (1, 0), (-1, -2), (0, 2), (0,), (1, 1), (-1, 0)])
        return f"rot90({xd}, {k}, {dims})", _call_form(rng, "rot90", x, k, dims)
    if name in ("repeat", "tile"):
        reps = tuple(int(v) for v in rng.integers(0, 3, max(nd + int(rng.integers(-1, 2)), 0)))
        if rng.random() < 0.05 and reps:
            reps = (-1,) + reps[1:]
        if name == "repeat":
            return f"repeat({xd}, {reps})", lambda L: x(L).repeat(*reps) if reps else \
                x(L).repeat(reps)
        return f"tile({xd}, {reps})", _call_form(rng, "tile", x, reps)
    dim = None if rng.random() < 0.3 else rdim(rng, nd)
    if name == "repeat_interleave":
        r = int(rng.integers(-1, 4)) if rng.random() < 0.95 else 2.0
        return f"repeat_interleave({xd}, {r}, {dim})", \
            _call_form(rng, "repeat_interleave", x, r, dim)
    n = (shape[dim] if dim is not None and -nd <= dim < nd else int(np.prod(shape))) \
        if rng.random() < 0.9 else 2
    counts = rng.integers(0 if rng.random() < 0.95 else -1, 3, n)
    cd = pick(rng, ["int64", "int64", "int32", "float32"])
    return f"repeat_interleave({xd}, tensor({counts.tolist()}, {cd}), {dim})", \
        _call_form(rng, "repeat_interleave", x, lambda L: L.tensor(counts).to(getattr(L, cd)),
                   dim)


@pytest.mark.parametrize("seed", seeds(150))
def test_reorderings(seed):
    rng = np.random.default_rng(seed + 60_000)
    desc, run = _reorder_case(rng)
    # (the strides of an empty result are arbitrary)
    compare(_call(run, M), _call(run, torch), meta="nonempty", what=desc)


def _einsum_case(rng):
    letters = "abcdeAB"
    sizes = {c: int(rng.integers(1, 4)) for c in letters}
    n_ops = int(rng.integers(1, 4))
    terms = []
    for _ in range(n_ops):
        k = int(rng.integers(0, 4))
        term = "".join(pick(rng, letters) for _ in range(k))
        terms.append(term)
    use_ell = rng.random() < 0.15
    ell = tuple(int(v) for v in rng.integers(1, 3, int(rng.integers(1, 3))))
    if use_ell:
        terms = ["..." + t if rng.random() < 0.7 else t for t in terms]
    seen = sorted(set("".join(terms).replace(".", "")))
    if rng.random() < 0.7:
        out = [c for c in seen if rng.random() < 0.5]
        rng.shuffle(out)
        rhs = ("..." if use_ell and any("..." in t for t in terms) else "") + "".join(out)
        eq = ",".join(terms) + "->" + rhs
    else:
        eq = ",".join(terms)
    dtype = pick(rng, ["float32", "float64", "int64", "float32"])
    operands = []
    for term in terms:
        shape = (ell if "..." in term else ()) + tuple(
            sizes[c] if rng.random() < 0.9 else 1 for c in term.replace(".", ""))
        operands.append(data(rng, shape, dtype))
    return f"einsum({eq!r}, {[o.shape for o in operands]}, {dtype})", \
        lambda L: L.einsum(eq, *[mk(L, o, dtype) for o in operands])


def _linalg_case(rng):
    name = pick(rng, ["tril", "triu", "diag", "diag_embed", "diagflat", "trace", "addmv",
                      "addr", "baddbmm", "addbmm", "tensordot", "kron", "cross",
                      "matrix_power", "einsum", "einsum"])
    dtype = pick(rng, ["float32", "float64", "int64", "int32", "bool", "float16",
                       "complex64"])
    if name == "einsum":
        return _einsum_case(rng)
    if name in ("tril", "triu", "diag", "diag_embed", "diagflat", "trace"):
        shape = rand_shape(rng, 4 if name in ("tril", "triu", "diag_embed") else 2)
        xd, x = _tensor_arg(rng, shape, dtype)
        k = int(rng.integers(-3, 4))
        if name == "diag_embed":
            nd = len(shape) + 1
            d1, d2 = rdim(rng, nd), rdim(rng, nd)
            return f"diag_embed({xd}, {k}, {d1}, {d2})", _call_form(rng, name, x, k, d1, d2)
        if name == "trace":
            return f"trace({xd})", _call_form(rng, name, x)
        return f"{name}({xd}, {k})", _call_form(rng, name, x, k)
    n, m, p, b = (int(rng.integers(0 if rng.random() < 0.1 else 1, 4)) for _ in range(4))
    coeffs = {}
    if rng.random() < 0.5:
        coeffs["beta"] = pick(rng, [0, 1, 2, 0.5, True])
    if rng.random() < 0.5:
        coeffs["alpha"] = pick(rng, [0, 1, 3, 0.5, False])
    if name in ("baddbmm", "addbmm", "tensordot") and dtype == "bool":
        dtype = "int64"  # (PyTorch's bool paths for empty products fail oddly)
    d2 = dtype if rng.random() < 0.9 else pick(rng, ALL)
    if name == "addmv":
        cs = pick(rng, [(n,), (), (1,), (n + 1,)])
        specs = [(cs, dtype), ((n, m), d2), ((m,), dtype)]
    elif name == "addr":
        specs = [(pick(rng, [(n, m), (m,), (), (1, m)]), d2), ((n,), dtype), ((m,), dtype)]
    elif name == "baddbmm":
        specs = [(pick(rng, [(b, n, p), (p,), (n, p), (b, 1, p)]), d2), ((b, n, m), dtype),
                 ((b, m, p), dtype)]
    elif name == "addbmm":
        specs = [(pick(rng, [(n, p), (p,), ()]), d2), ((b, n, m), dtype), ((b, m, p), dtype)]
    elif name == "tensordot":
        sa, sb = rand_shape(rng, 3), rand_shape(rng, 3)
        k = int(rng.integers(0, min(len(sa), len(sb)) + 1))
        sb = sa[len(sa) - k:] + sb if rng.random() < 0.9 else sb
        da, db_ = _tensor_arg(rng, sa, dtype), _tensor_arg(rng, sb, d2)
        dims = k if rng.random() < 0.6 else (list(range(len(sa) - k, len(sa))), list(range(k)))
        return f"tensordot({da[0]}, {db_[0]}, {dims})", \
            lambda L: L.tensordot(da[1](L), db_[1](L), dims)
    elif name == "kron":
        # (contiguous operands: PyTorch views its product, whose layout follows the
        # operands' there, and mindtorch's pointwise results are contiguous)
        sa, sb = rand_shape(rng, 3), rand_shape(rng, 3)
        da, db_ = _tensor_arg(rng, sa, dtype, ("contig",)), _tensor_arg(rng, sb, d2, ("contig",))
        return f"kron({da[0]}, {db_[0]})", _call_form(rng, "kron", da[1], db_[1])
    elif name == "cross":
        shape = tuple(pick(rng, [3, 3, 2, 1]) for _ in range(int(rng.integers(1, 4))))
        sa = shape if rng.random() < 0.8 else (1,) + shape[1:]
        da, db_ = _tensor_arg(rng, sa, dtype), _tensor_arg(rng, shape, d2)
        dim = rdim(rng, len(shape))
        return f"cross({da[0]}, {db_[0]}, dim={dim})", \
            lambda L: L.cross(da[1](L), db_[1](L), dim=dim)
    else:  # matrix_power
        s = int(rng.integers(0, 4))
        shape = (s, s) if rng.random() < 0.8 else pick(rng, [(2, s, s), (s, s + 1), (s,)])
        xd, x = _tensor_arg(rng, shape, dtype, layouts=("contig", "T"))
        k = int(rng.integers(0, 5))
        return f"matrix_power({xd}, {k})", _call_form(rng, name, x, k)
    args = [_tensor_arg(rng, s, d) for s, d in specs]
    descs = [a[0] for a in args]
    return f"{name}({', '.join(descs)}, {coeffs})", \
        lambda L: getattr(L, name)(*[a[1](L) for a in args], **coeffs)


@pytest.mark.parametrize("seed", seeds(200))
def test_linalg_ops(seed):
    rng = np.random.default_rng(seed + 70_000)
    desc, run = _linalg_case(rng)
    compare(_call(run, M), _call(run, torch), what=desc, exact=False)


# -- out=: the structural ops take an out tensor of their result's dtype only ------------------

_OUT_CASES = {
    "index_select": lambda L, o: L.index_select(L.ones(3, 4), 0, L.tensor([0, 2]), out=o),
    "gather": lambda L, o: L.gather(L.ones(3, 4), 1, L.tensor([[0], [1], [3]]), out=o),
    "scatter": lambda L, o: L.scatter(L.ones(3, 4), 0, L.tensor([[1]]), 2.0, out=o),
    "scatter_add": lambda L, o: L.scatter_add(L.ones(3, 4), 0, L.tensor([[1]]),
                                              L.ones(1, 1), out=o),
    "masked_select": lambda L, o: L.masked_select(L.ones(3, 4), L.ones(4) > 0, out=o),
    "nonzero": lambda L, o: L.nonzero(L.eye(3), out=o),
    "take": lambda L, o: L.take(L.ones(3, 4), L.tensor([0, 5]), out=o),
    "take_along_dim": lambda L, o: L.take_along_dim(L.ones(3, 4), L.tensor([[0]]), 1, out=o),
    "index_add": lambda L, o: L.index_add(L.ones(3), 0, L.tensor([1]), L.ones(1), out=o),
    "narrow_copy": lambda L, o: L.narrow_copy(L.ones(3, 4), 1, 1, 2, out=o),
    "cat": lambda L, o: L.cat([L.ones(2), L.ones(3)], out=o),
    "stack": lambda L, o: L.stack([L.ones(2), L.ones(2)], out=o),
    "hstack": lambda L, o: L.hstack([L.ones(2), L.ones(3)], out=o),
    "mm": lambda L, o: L.mm(L.ones(2, 3), L.ones(3, 4), out=o),
    "matmul": lambda L, o: L.matmul(L.ones(2, 3), L.ones(3), out=o),
    "dot": lambda L, o: L.dot(L.ones(3), L.ones(3), out=o),
    "addmm": lambda L, o: L.addmm(L.ones(4), L.ones(2, 3), L.ones(3, 4), out=o),
    "tril": lambda L, o: L.tril(L.ones(3, 3), out=o),
    "kron": lambda L, o: L.kron(L.ones(2, 2), L.ones(2), out=o),
    "tensordot": lambda L, o: L.tensordot(L.ones(2, 3), L.ones(3, 2), 1, out=o),
    "rand": lambda L, o: L.rand(2, 3, out=o),
    "randint": lambda L, o: L.randint(5, (2, 3), out=o),
    "randperm": lambda L, o: L.randperm(4, out=o),
}


@pytest.mark.parametrize("odtype", ["float32", "float64", "int64", "int32"])
@pytest.mark.parametrize("name", sorted(_OUT_CASES))
def test_out_dtypes(name, odtype):
    fn = _OUT_CASES[name]

    def run(L):
        return fn(L, L.empty(0, dtype=getattr(L, odtype)))
    m, t = _call(run, M), _call(run, torch)
    if name in ("rand", "randint", "randperm"):
        compare_random(m, t, name)
    else:
        compare(m, t, what=f"{name}(out={odtype})")


@pytest.mark.parametrize("dims", [[0, 0], [1, -1], [0, -2], [0, 2], [-1, -2], [0]])
def test_rot90_dims_errors(dims):
    # equal dims (after wrapping) are reported with the dims as given, before flip's check
    import mindtorch

    def run(lib):
        try:
            return tuple(lib.zeros(3, 4).rot90(1, dims).shape)
        except (RuntimeError, IndexError) as e:
            return type(e).__name__, str(e)
    assert run(mindtorch) == run(torch)
