"""Layer primitives (linear, bilinear, embedding, embedding_bag, one_hot,
scaled_dot_product_attention, cosine_similarity, pairwise_distance, pdist) against PyTorch:
values, dtypes, broadcasting, non-contiguous and empty inputs, error classes, the meta
device's shapes/dtypes (dropout: test_dropout.py)."""
import math

import mindtorch
import numpy as np
import pytest
from reference import assert_same, to_torch, torch
from test_normalization import TOL, check, make, nc

F = lambda lib: lib.nn.functional


def ix(values, dtype="int64"):
    return mindtorch.tensor(values).to(getattr(mindtorch, dtype))


# -- linear, bilinear --------------------------------------------------------------------------

LINEAR = [((4, 5), (6, 5), (6,)), ((2, 3, 5), (6, 5), (6,)), ((5,), (6, 5), (6,)),
          ((2, 3, 5), (5,), None), ((2, 3, 5), (5,), ()), ((2, 2, 2, 5), (6, 5), (6,)),
          ((0, 5), (6, 5), (6,)), ((4, 0), (6, 0), (6,)), ((4, 5), (0, 5), (0,))]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "float16", "bfloat16"])
@pytest.mark.parametrize("shapes", LINEAR, ids=str)
def test_linear(shapes, dtype):
    xs, ws, bs = shapes
    x, w = make(xs, dtype), make(ws, dtype)
    b = None if bs is None else make(bs, dtype)
    tol = TOL.get(dtype, {})
    check(lambda L, x, w: F(L).linear(x, w), x, w, **tol)
    if b is not None:
        check(lambda L, x, w, b: F(L).linear(x, w, b), x, w, b, **tol)
        check(lambda L, x, w, b: F(L).linear(input=x, weight=w, bias=b), x, w, b, **tol)


def test_linear_layouts_and_errors():
    check(lambda L, x, w, b: F(L).linear(x, w, b), nc((3, 4, 5)), nc((6, 5)), make((6,)))
    check(lambda L, x, w, b: F(L).linear(x, w, b), nc((3, 5)), make((5, 6)).t(), make((6,)))
    bad = [(make(()), make((6, 5)), None), (make((3, 5)), make((6, 4)), None),
           (make((3, 5)), make((6, 5)), make((5,))), (make((3, 5)), make((6, 5)), make((3, 1))),
           (make((3, 5)), make((6, 5), "float64"), None),
           (make((2, 3, 5)), make((6, 5)), make((6,), "float64")),
           (make((3, 5), "int64"), make((6, 5), "int64"), make((6,))),
           (make((3, 5)), make((2, 6, 5)), None)]
    for x, w, b in bad:
        check(lambda L, x, w, b: F(L).linear(x, w, b), x, w, b)
    assert not hasattr(mindtorch, "linear")


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
@pytest.mark.parametrize("shapes", [((2, 3), (2, 4), (5, 3, 4), (5,)),
                                    ((7, 2, 3), (7, 2, 4), (5, 3, 4), None),
                                    ((3,), (4,), (5, 3, 4), (5,)),
                                    ((0, 3), (0, 4), (5, 3, 4), (5,))], ids=str)
def test_bilinear(shapes, dtype):
    ts = [make(s, dtype) for s in shapes if s is not None]
    fn = (lambda L, a, b, w: F(L).bilinear(a, b, w)) if len(ts) == 3 else \
        (lambda L, a, b, w, c: L.bilinear(a, b, w, c))
    check(fn, *ts, **TOL.get(dtype, {}))


def test_bilinear_layouts_and_errors():
    check(lambda L, a, b, w: F(L).bilinear(a, b, w), nc((2, 3)), nc((2, 4)), nc((5, 3, 4)))
    bad = [((2, 3), (2, 4), (5, 3, 3), None), ((2, 3), (3, 4), (5, 3, 4), None),
           ((2, 3), (2, 4), (5, 3, 4), (4,)), ((2, 3), (2, 2, 4), (5, 3, 4), None)]
    for shapes in bad:
        ts = [make(s) for s in shapes if s is not None]
        check(lambda L, *ts: F(L).bilinear(*ts), *ts)
    check(lambda L, a, b, w: F(L).bilinear(a, b, w), make((2, 3)), make((2, 4), "float64"),
          make((5, 3, 4)))


@pytest.mark.parametrize("shapes, dtypes", [
    (((2, 3), (2, 4), (5, 3, 4), (5,)), ("float32",) * 3 + ("float64",)),  # bias dtype
    (((2, 3), (2, 4), (5, 3, 4), (5,)), ("float32",) * 3 + ("int64",)),
    (((2, 3), (3, 4), (5, 3, 4), (5,)), ("float32",) * 3 + ("float64",)),  # dtype first
    (((2, 3), (2, 4), (3,), None), ("float32",) * 3),  # 1-d weight: IndexError
    (((2, 3), (2, 4), (3, 4), None), ("float32",) * 3),  # 2-d weight: sizes compared
    (((2, 3), (2, 4), (5, 3, 4, 1), None), ("float32",) * 3),  # 4-d weight
    (((), (), (5, 3, 4), None), ("float32",) * 3),  # 0-d inputs: IndexError
    (((2, 3), (2, 4), (5, 3, 4), ()), ("float32",) * 4),  # 0-d bias: IndexError
])
def test_bilinear_check_order(shapes, dtypes):
    """PyTorch's order: dtypes (bias included) first, then sizes read with dim wrapping."""
    ts = [make(s, d) for s, d in zip(shapes, dtypes) if s is not None]
    check(lambda L, *ts: F(L).bilinear(*ts), *ts)


# -- embedding ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "int64"])
def test_embedding(dtype):
    w = make((10, 3), dtype)
    for idx in (ix([[1, 2], [3, 9]]), ix([4, 4, 0], "int32"), ix(7), ix([], "int64"),
                ix([[1, 2, 3], [4, 5, 6]]).t()):
        check(lambda L, i, w: F(L).embedding(i, w), idx, w)
        check(lambda L, i, w: F(L).embedding(i, w, padding_idx=-2), idx, w)
        check(lambda L, w, i: L.embedding(w, i), w, idx)
    check(lambda L, i, w: F(L).embedding(i, w), ix([1, 2]), nc((10, 3), dtype))


@pytest.mark.parametrize("norm_type", [2.0, 1.0, 3.5, float("inf")])
def test_embedding_max_norm_renormalizes_weight_in_place(norm_type):
    w = make((6, 4), high=3.0)
    idx = ix([[0, 2, 2], [5, 1, 0]])
    check(lambda L, i, w: F(L).embedding(i, w, max_norm=1.5, norm_type=norm_type), idx, w)
    check(lambda L, w, i: L.embedding_renorm_(w, i, 1.0, norm_type), w, idx)


@pytest.mark.parametrize("idx", [[-1, 0], [5], [-3, 5], [7, 5, 1], [-2, -1, 1]])
@pytest.mark.parametrize("dtype", ["int64", "int32"])
def test_embedding_renorm_indices(idx, dtype):
    """PyTorch's kernel selects each row (negative indices wrap); the smallest index out of
    range is an IndexError; an empty weight refuses any index."""
    check(lambda L, w, i: L.embedding_renorm_(w, i, 1.0, 2.0), make((2, 3), high=3.0),
          ix(idx, dtype), meta=False)
    check(lambda L, w, i: L.embedding_renorm_(w, i, 1.0, 2.0), make((0, 3)), ix(idx, dtype))


def test_embedding_errors():
    w = make((10, 3))
    for args in [(ix([10]), w), (ix([-1]), w), (ix([1.0], "float32"), w), (ix([1], "uint8"), w),
                 (ix([True], "bool"), w), (ix([1]), make((10,))), (ix([1]), make((10, 2, 2)))]:
        check(lambda L, i, w: F(L).embedding(i, w), *args, meta=False)  # (values: no meta)
    for pad in (10, -11):
        check(lambda L, i, w, pad=pad: F(L).embedding(i, w, padding_idx=pad), ix([1]), w)


@pytest.mark.parametrize("bag", [False, True])
def test_embedding_sparse_forward_as_torch_sparse_grad(bag):
    """sparse=True only makes weight's gradient sparse in PyTorch: the forward is the same,
    weight's gradient sparse COO; per_sample_weights' gradient (dense in PyTorch too) is
    computed."""
    w, i = make((6, 3)), ix([1, 2, 1, 5])
    off = ix([0, 1])
    fn = (lambda L, w, i: F(L).embedding_bag(i, w, off if L is mindtorch else to_torch(off),
                                             sparse=True)) if bag else \
        (lambda L, w, i: F(L).embedding(i, w, sparse=True))
    assert_same(fn(mindtorch, w, i), fn(torch, to_torch(w), to_torch(i)))
    wg = w.clone().requires_grad_()  # (the sparse gradient: tests/sparse/)
    fn(mindtorch, wg, i).sum().backward()
    assert wg.grad.layout is mindtorch.sparse_coo
    if bag:
        res = []
        for L in (mindtorch, torch):
            p = (L.arange(4.0) if L is mindtorch else torch.arange(4.0)).requires_grad_()
            ww, ii = (w, i) if L is mindtorch else (to_torch(w), to_torch(i))
            oo = off if L is mindtorch else to_torch(off)
            F(L).embedding_bag(ii, ww, oo, mode="sum", sparse=True,
                               per_sample_weights=p).sum().backward()
            res.append(p.grad)
        assert_same(*res)


def _bag_cases():
    cases = []
    offsets = {"two": ([0, 4], False), "empty_bags": ([0, 0, 4, 8], False),
               "last": ([0, 4, 8], True), "one": ([0], False)}
    for name, (off, last) in offsets.items():
        for mode in (0, 1, 2):
            for pad in (None, 4, -1):
                cases.append(pytest.param(off, last, mode, pad,
                                          id=f"{name}-mode{mode}-pad{pad}"))
    return cases


@pytest.mark.parametrize("off,last,mode,pad", _bag_cases())
def test_embedding_bag_torch(off, last, mode, pad):
    w = make((10, 3), "float64")
    idx = ix([1, 2, 4, 5, 4, 3, 9, 2])
    check(lambda L, w, i, o: L.embedding_bag(w, i, o, False, mode, False, None, last, pad),
          w, idx, ix(off))


def test_embedding_bag_aux_outputs_float32():
    """offset2bag stays empty on PyTorch's fast sum path (float32, contiguous rows, no
    padding); bag_size counts for mean/max; max_indices the rows holding each maximum."""
    w = mindtorch.arange(30.0).reshape(10, 3)
    idx = ix([1, 2, 4, 5, 4, 3, 9, 2])
    for mode in (0, 1, 2):
        for pad in (None, 3):
            check(lambda L, w, i, o, mode=mode, pad=pad: L.embedding_bag(w, i, o, False, mode, False,
                                                                        None, False, pad),
                  w, idx, ix([0, 0, 4, 8]))
    check(lambda L, w, i, o: L.embedding_bag(w, i, o), nc((10, 3)), idx, ix([0, 3]))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag_functional(mode, dtype):
    w = make((10, 3), dtype)
    tol = TOL.get(dtype, {})
    idx = ix([1, 2, 4, 5, 4, 3, 9, 2])
    check(lambda L, i, w, o: F(L).embedding_bag(i, w, o, mode=mode), idx, w, ix([0, 3, 3]),
          **tol)
    check(lambda L, i, w: F(L).embedding_bag(i, w, mode=mode), idx.reshape(2, 4), w, **tol)
    check(lambda L, i, w, o: F(L).embedding_bag(i, w, o, mode=mode, include_last_offset=True),
          idx, w, ix([0, 3, 8], "int32"), **tol)
    check(lambda L, i, w, o: F(L).embedding_bag(i, w, o, mode=mode, padding_idx=2), idx, w,
          ix([0, 5]), **tol)
    if mode == "sum":
        check(lambda L, i, w, o, p: F(L).embedding_bag(i, w, o, mode="sum",
                                                       per_sample_weights=p),
              idx, w, ix([0, 2, 6]), make((8,), dtype), **tol)


def test_embedding_bag_max_norm_and_empty():
    check(lambda L, i, w, o: F(L).embedding_bag(i, w, o, max_norm=1.0), ix([1, 2, 1]),
          make((4, 3), high=3.0), ix([0, 1]))
    check(lambda L, i, w, o: F(L).embedding_bag(i, w, o), ix([], "int64"), make((4, 3)),
          ix([0, 0]))
    check(lambda L, i, w, o: F(L).embedding_bag(i, w, o, mode="max"), ix([], "int64"),
          make((4, 3)), ix([0]))


@pytest.mark.parametrize("kw", [
    {"offsets": None}, {"offsets": "2d"}, {"mode": "min"}, {"psw": "mean"},
    {"psw": "short"}, {"idx": [10]}, {"idx": [-1]}, {"offsets": [1, 4]},
    {"offsets": [0, 9]}, {"weight": "int"}, {"weight": "1d"}, {"idx": "float"},
    {"padding_idx": 10}, {"idx": "3d"}, {"mode": "max", "scale_grad_by_freq": True},
], ids=str)
def test_embedding_bag_errors(kw):
    kw = dict(kw)
    idx = kw.pop("idx", [1, 2, 4, 5])
    idx = make((2, 2, 2)).long() if idx == "3d" else ix([1.0], "float32") if idx == "float" \
        else ix(idx)
    offsets = kw.pop("offsets", [0, 2])
    offsets = ix([[0], [2]]) if offsets == "2d" else None if offsets is None else ix(offsets)
    w = {"int": make((10, 3), "int64"), "1d": make((10,))}.get(kw.pop("weight", ""),
                                                              make((10, 3)))
    psw = kw.pop("psw", None)
    if psw:
        kw["per_sample_weights"] = make((idx.numel() - (psw == "short"),))
        kw.setdefault("mode", psw if psw != "short" else "sum")

    def fn(L, i, w, o, *p):
        extra = {k: (to_torch(v) if L is torch and isinstance(v, mindtorch.Tensor) else v)
                 for k, v in kw.items()}
        return F(L).embedding_bag(i, w, o, **extra)
    check(fn, idx, w, offsets, meta=False)


def test_embedding_bag_padding_idx_keyword():
    """torch.embedding_bag takes padding_idx only in its overload without defaults: as a
    keyword it needs every argument before it (positional or keyword)."""
    w, idx, off = make((6, 3)), ix([0, 2, 5, 1]), ix([0, 2])
    for args, kw in [((), {"padding_idx": 1}), ((False, 1), {"padding_idx": 1}),
                     ((False, 1, False, None), {"padding_idx": 1}),
                     ((False, 1, False, None, False), {"padding_idx": 1}),
                     ((False, 1, False, None), {"include_last_offset": False,
                                                "padding_idx": 2}),
                     ((), {"scale_grad_by_freq": False, "mode": 0, "sparse": False,
                           "per_sample_weights": None, "include_last_offset": False,
                           "padding_idx": None}),
                     ((False, 2, False, None, False, 0), {})]:
        check(lambda L, w, i, o, args=args, kw=kw: L.embedding_bag(w, i, o, *args, **kw), w,
              idx, off)


@pytest.mark.parametrize("idt, odt", [("int32", "int32"), ("int32", "int64"),
                                      ("int64", "int32")])
@pytest.mark.parametrize("mode", [0, 1, 2])
def test_embedding_bag_index_dtypes(idt, odt, mode):
    """offset2bag, bag_size and max_indices have the promoted index dtype (int32 only when
    indices and offsets both are)."""
    check(lambda L, w, i, o: L.embedding_bag(w, i, o, False, mode, False, None, True),
          make((6, 3)), ix([0, 2, 5, 1], idt), ix([0, 1, 4], odt))


# -- one_hot -----------------------------------------------------------------------------------

def test_one_hot():
    for t, n in [(ix([0, 2, 1]), -1), (ix([[0, 3], [1, 1]]), 5), (ix(2), -1),
                 (ix([], "int64"), 3), (ix([[0, 1, 2], [2, 1, 0]]).t(), -1)]:
        check(lambda L, t, n=n: F(L).one_hot(t, n), t, meta=n != -1)
    for t, n in [(ix([0, 1], "int32"), -1), (ix([0.0], "float32"), 2), (ix([0, -2]), 3),
                 (ix([0, 2]), 2), (ix([], "int64"), -1), (ix([0]), 0), (ix([0]), -2)]:
        check(lambda L, t, n=n: F(L).one_hot(t, n), t, meta=False)
    assert F(mindtorch).one_hot(ix([0, 1]).to("meta"), 3).shape == (2, 3)
    with pytest.raises(RuntimeError):
        F(mindtorch).one_hot(ix([0, 1]).to("meta"))


# -- scaled dot product attention --------------------------------------------------------------

def _qkv(b=(2, 3), L=4, S=6, E=5, Ev=7, dtype="float32"):
    return make(b + (L, E), dtype), make(b + (S, E), dtype), make(b + (S, Ev), dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("kw", [{}, {"is_causal": True}, {"scale": 0.3}, {"scale": -0.5},
                                {"mask": "bool"}, {"mask": "float"}, {"mask": "float32"},
                                {"mask": "bool_rows"},
                                {"mask": "inf_rows"}, {"mask": "broadcast"}], ids=str)
def test_sdpa(kw, dtype):
    kw = dict(kw)
    q, k, v = _qkv(dtype=dtype)
    mask = kw.pop("mask", None)
    if mask == "bool":
        m = make((4, 6)) > 0
    elif mask == "float":
        m = make((4, 6), dtype)
    elif mask == "float32":  # (also taken by queries of other dtypes)
        m = make((4, 6))
    elif mask == "bool_rows":  # rows masked everywhere give 0
        m = make((4, 6)) > 0
        m[1] = False
    elif mask == "inf_rows":
        m = make((4, 6), dtype)
        m[0] = -math.inf
    elif mask == "broadcast":
        m = make((3, 1, 6)) > -1
    tol = TOL.get(dtype, {})
    if mask is None:
        check(lambda L, q, k, v: F(L).scaled_dot_product_attention(q, k, v, **kw), q, k, v,
              **tol)
    else:
        check(lambda L, q, k, v, m: F(L).scaled_dot_product_attention(q, k, v, m, **kw),
              q, k, v, m, **tol)


def test_sdpa_shapes():
    sdpa = lambda L, *a, **k: F(L).scaled_dot_product_attention(*a, **k)
    q, k, v = _qkv()
    check(lambda L, q, k, v: sdpa(L, q, k, v), q[0], k[0], v[0])
    check(lambda L, q, k, v: sdpa(L, q, k, v), q[0, 0], k[0, 0], v[0, 0])
    check(lambda L, q, k, v: sdpa(L, q, k, v), q, k[:1], v[:1])  # batch broadcast
    check(lambda L, q, k, v: sdpa(L, q, k, v), nc((2, 4, 5)), nc((2, 6, 5)), nc((2, 6, 3)))
    check(lambda L, q, k, v: sdpa(L, q, k, v), q[:, :, :0], k, v)
    check(lambda L, q, k, v: sdpa(L, q, k, v), q, k[:, :, :0], v[:, :, :0])
    check(lambda L, q, k, v: sdpa(L, q, k, v, is_causal=True), make((1, 6, 5)),
          make((1, 4, 5)), make((1, 4, 5)))
    check(lambda L, q, k, v: sdpa(L, q, k, v, enable_gqa=True), make((2, 6, 4, 5)), k, v)
    check(lambda L, q, k, v: sdpa(L, q, k, v, dropout_p=1.0), q, k, v)
    check(lambda L, q, k, v: sdpa(L, q, k, v, dropout_p=-0.5), q, k, v)
    out = sdpa(mindtorch, q, k, v, dropout_p=0.5)
    assert out.shape == (2, 3, 4, 7)


@pytest.mark.parametrize("case", [
    "1d", "causal_and_mask", "bad_mask", "int_mask", "f64_mask", "mixed", "int",
    "bad_k", "bad_v", "gqa_off", "gqa_bad"])
def test_sdpa_errors(case):
    q, k, v = _qkv()
    m = None
    if case == "1d":
        q, k, v = q[0, 0, 0], k[0, 0, 0], v[0, 0, 0]
    elif case == "causal_and_mask":
        m = make((4, 6)) > 0
    elif case == "bad_mask":
        m = make((5, 6))
    elif case == "int_mask":
        m = make((4, 6), "int64")
    elif case == "f64_mask":
        m = make((4, 6), "float64")
    elif case == "mixed":
        k = k.double()
    elif case == "int":
        q, k, v = q.long(), k.long(), v.long()
    elif case == "bad_k":
        k = k[..., :4]
    elif case == "bad_v":
        v = v[..., :5, :]
    elif case in ("gqa_off", "gqa_bad"):
        q = make((2, 6 if case == "gqa_off" else 5, 4, 5))
    kw = {"is_causal": case == "causal_and_mask", "enable_gqa": case == "gqa_bad"}
    check(lambda L, q, k, v, m: F(L).scaled_dot_product_attention(q, k, v, m, **kw),
          q, k, v, m)


# -- distances ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_cosine_similarity(dtype):
    tol = TOL.get(dtype, {})
    a, b = make((4, 3, 5), dtype), make((4, 3, 5), dtype)
    for kw in ({}, {"dim": -1}, {"dim": 0, "eps": 0.5}):
        check(lambda L, a, b, kw=kw: F(L).cosine_similarity(a, b, **kw), a, b, **tol)
    check(lambda L, a, b: L.cosine_similarity(a, b, -1), make((4, 1, 5), dtype),
          make((3, 5), dtype), **tol)
    check(lambda L, a, b: L.cosine_similarity(a, b, 0), make((5,), dtype), make((5,), dtype),
          **tol)
    check(lambda L, a, b: L.cosine_similarity(a, b, 0), make((), dtype), make((), dtype), **tol)
    check(lambda L, a, b: F(L).cosine_similarity(a, b), nc((3, 4), dtype), make((3, 4), dtype),
          **tol)
    check(lambda L, a, b: F(L).cosine_similarity(a, b), make((0, 5), dtype),
          make((0, 5), dtype), **tol)
    check(lambda L, a, b: F(L).cosine_similarity(a, b), mindtorch.zeros(2, 3).to(a.dtype),
          make((2, 3), dtype), **tol)


def test_cosine_similarity_dtypes_and_errors():
    check(lambda L, a, b: F(L).cosine_similarity(a, b), make((3, 4), "int64"), make((3, 4)))
    check(lambda L, a, b: F(L).cosine_similarity(a, b), make((3, 4)), make((3, 4), "float64"))
    check(lambda L, a, b: F(L).cosine_similarity(a, b), make((3, 4), "int64"),
          make((3, 4), "int64"))
    check(lambda L, a, b: F(L).cosine_similarity(a, b), make((4, 5)), make((3, 5)))
    check(lambda L, a, b: F(L).cosine_similarity(a, b, 3), make((4, 5)), make((4, 5)))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "int64"])
@pytest.mark.parametrize("p", [2.0, 1.0, 0.0, 3.0, float("inf"), -1.0])
def test_pairwise_distance(p, dtype):
    tol = TOL.get(dtype, {})
    a, b = make((4, 5), dtype), make((4, 5), dtype)
    check(lambda L, a, b: F(L).pairwise_distance(a, b, p), a, b, **tol)
    check(lambda L, a, b: L.pairwise_distance(a, b, p, 1e-3, True), a, make((5,), dtype), **tol)
    check(lambda L, a, b: F(L).pairwise_distance(a, b, p), make((5,), dtype), make((5,), dtype),
          **tol)
    check(lambda L, a, b: F(L).pairwise_distance(a, b, p), make((), dtype), make((), dtype),
          **tol)
    check(lambda L, a, b: F(L).pairwise_distance(a, b, p), nc((3, 4), dtype),
          make((3, 4), dtype), **tol)
    check(lambda L, a, b: F(L).pairwise_distance(a, b, p), make((0, 4), dtype),
          make((0, 4), dtype), **tol)


@pytest.mark.parametrize("p", [2.0, 1.0, 0.0, 0.5, 3.0, float("inf")])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pdist(p, dtype):
    check(lambda L, x: F(L).pdist(x, p), make((5, 3), dtype))
    check(lambda L, x: L.pdist(x, p), nc((4, 3), dtype))
    for shape in ((1, 3), (0, 3), (3, 0)):
        check(lambda L, x: F(L).pdist(x, p), make(shape, dtype))


def test_pdist_errors():
    for x, p in [(make((2, 3, 4)), 2.0), (make((3, 4), "int64"), 2.0), (make((3, 4)), -1.0),
                 (make((3, 4), "float16"), 2.0), (make((3, 4), "bfloat16"), 2.0),
                 (make((4,)), 2.0)]:
        check(lambda L, x, p=p: F(L).pdist(x, p), x)


@pytest.mark.parametrize("bias_dtype", ["int64", "float64", "float16", "bool", "complex64"])
@pytest.mark.parametrize("layout", ["contiguous", "permuted", "sliced", "bias2d", "2d", "1d"])
def test_linear_bias_dtype_by_path(bias_dtype, layout):
    """PyTorch's fused path (2-d input, or contiguous input with a 1-d bias) is addmm, which
    refuses a bias of another dtype; otherwise the bias is added in place into the matmul
    result (cast into it)."""
    x = {"contiguous": make((2, 3, 4)), "permuted": nc((2, 3, 4)),
         "sliced": make((2, 3, 8))[..., ::2], "bias2d": make((2, 3, 4)), "2d": make((3, 4)),
         "1d": make((4,))}[layout]
    b = make((3, 5) if layout == "bias2d" else (5,), bias_dtype)
    check(lambda L, x, w, b: F(L).linear(x, w, b), x, make((5, 4)), b)


@pytest.mark.parametrize("p", [0.0, 1.0, 2.0, 3.0, float("inf")])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pdist_special_values(p, dtype):
    """In the input's precision (1e30 squared overflows to inf in float32), NaN propagating
    for every p (also 0 and inf)."""
    x = mindtorch.tensor([[1e30, 1.0, 2.0], [0.5, float("nan"), 1.0], [float("inf"), 1.0, 0.0],
                          [1.0, 2.0, 3.0], [-1e30, 0.0, 65504.0]]).to(getattr(mindtorch, dtype))
    check(lambda L, x: F(L).pdist(x, p), x)


def test_embedding_bag_strided_per_sample_weights():
    """PyTorch's fast sum path (empty offset2bag) needs unit-stride per_sample_weights."""
    psw = mindtorch.zeros(6)[::2]
    psw.copy_(mindtorch.tensor([0.5, 2.0, -1.0]))
    check(lambda L, w, i, o, p: L.embedding_bag(w, i, o, False, 0, False, p), make((6, 3)),
          ix([0, 2, 5]), ix([0]), psw)


def test_embedding_refuses_complex_autograd():
    from test_indexing import _c, same_complex_autograd
    F = lambda L: L.nn.functional  # noqa: E731
    same_complex_autograd(lambda L, i, w: F(L).embedding(i, w),
                          lambda L: (L.tensor([[1, 0], [4, 4]]), _c(L, 5, 3)))
    same_complex_autograd(lambda L, i, w: F(L).embedding(i, w, max_norm=1.0),
                          lambda L: (L.tensor([1, 2]), _c(L, 5, 3)))
    same_complex_autograd(lambda L, i, w: L.embedding(w, i),
                          lambda L: (L.tensor([1, 2]), _c(L, 5, 3)))
    same_complex_autograd(lambda L, i, w: F(L).embedding(i, w),
                          lambda L: (L.tensor([1, 2]), _c(L, 5, 3, grad=False)))
    same_complex_autograd(lambda L, i, w: F(L).embedding(i, w),
                          lambda L: (L.tensor([1, 2]), _c(L, 5, 3).real))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape", [(1, 4), (0, 3), (3, 0), (2, 0), (1, 0), (2, 2)])
@pytest.mark.parametrize("device", ["cpu", "meta"])
def test_pdist_half_only_refused_when_its_kernel_runs(dtype, shape, device):
    # PyTorch computes no distance (and so checks no dtype) for < 2 rows or 0 columns
    from reference import same_error
    x = mindtorch.ones(shape, dtype=getattr(mindtorch, dtype), device=device)
    same_error(lambda: mindtorch.pdist(x), lambda: torch.pdist(torch.ones(shape).to(
        getattr(torch, dtype))))
    if shape != (2, 2):
        got = mindtorch.pdist(x)
        expected = torch.pdist(torch.ones(shape).to(getattr(torch, dtype)))
        if device == "cpu":
            assert_same(got, expected)
        else:
            assert (tuple(got.shape), str(got.dtype)) == (tuple(expected.shape),
                                                         str(expected.dtype))


def _special_qkv(seed, lead, L, S, E, dtype):
    rng = np.random.default_rng(seed)
    arrs = [rng.standard_normal(lead + s).astype(dtype) for s in [(L, E), (S, E), (S, E)]]
    for a in arrs:
        for _ in range(rng.integers(0, 3)):
            a[tuple(rng.integers(0, d) for d in a.shape)] = rng.choice([np.inf, -np.inf, np.nan])
    return [mindtorch.tensor(a) for a in arrs], rng


@pytest.mark.parametrize("seed", range(24))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("lead", [(2,), (2, 2)], ids=["math", "flash"])
def test_sdpa_nonfinite_as_torch(seed, dtype, lead):
    """NaN/inf inputs put NaN where PyTorch does: its math path (3-D here) adds a bool mask
    or is_causal as 0 / -inf (a NaN or +inf score stays NaN); its cpu flash kernel (4-D)
    fills the causal part with -inf and its row maximum skips NaN in the scalar tail."""
    rng = np.random.default_rng(seed)
    L, S = int(rng.integers(1, 11)), int(rng.integers(1, 11))
    (q, k, v), rng = _special_qkv(seed, lead, L, S, 3, dtype)
    kind = seed % 4
    kw, m = {}, None
    if kind == 1:
        kw["is_causal"] = True
    elif kind == 2:
        m = mindtorch.tensor(rng.random((L, S)) < 0.5)
    elif kind == 3:
        a = rng.standard_normal((L, S)).astype(dtype)
        a[rng.random((L, S)) < 0.3] = -np.inf
        m = mindtorch.tensor(a)
    check(lambda L_, q, k, v, m: F(L_).scaled_dot_product_attention(q, k, v, m, **kw),
          q, k, v, m, meta=False)


@pytest.mark.parametrize("S,pos,nan", [(3, 0, True), (8, 0, True), (9, 8, True), (9, 3, True),
                                       (5, 4, False)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sdpa_flash_row_of_nan_and_minus_inf(S, pos, nan, dtype):
    """A row of -inf scores but one NaN (or +inf): PyTorch's flash kernel gives 0 when the
    NaN sits in its scalar tail, NaN when in its vectorized part; +inf gives NaN."""
    q = mindtorch.ones(1, 1, 1, 2, dtype=getattr(mindtorch, dtype))
    k = mindtorch.ones(1, 1, S, 2, dtype=q.dtype)
    k[0, 0, :, 0] = -math.inf
    k[0, 0, pos, 0] = math.nan if nan else math.inf
    check(lambda L_, q, k, v: F(L_).scaled_dot_product_attention(q, k, v), q, k, mindtorch.ones_like(k),
          meta=False)


def test_sdpa_mask_must_not_grow_the_scores():
    """PyTorch's math path adds the mask in place: a mask broadcasting the scores to a
    larger shape is its RuntimeError."""
    check(lambda L_, q, k, v, m: F(L_).scaled_dot_product_attention(q, k, v, m, scale=0.5),
          make((4, 1, 5)), make((6, 5)), make((6, 3)), make((4, 6)) > 0)



@pytest.mark.parametrize("mask", [(4, 6), (2, 1, 4, 6), (1, 1, 1, 6), "bool", "3d"], ids=str)
def test_sdpa_causal_with_mask_where_flash_applies(mask):
    """Where PyTorch's cpu takes its flash kernel (4-D, one head size, a 2-D or 4-D mask)
    is_causal and attn_mask are merged; elsewhere (a 3-D mask here) it refuses both."""
    m = make((4, 6)) > 0 if mask == "bool" else make((1, 4, 6)) if mask == "3d" else make(mask)
    check(lambda L_, q, k, v, m: F(L_).scaled_dot_product_attention(q, k, v, m, is_causal=True),
          *_qkv(Ev=5), m)

@pytest.mark.parametrize("dtypes", [("int16", "int32"), ("int16", "int64"), ("uint8", "int32"),
                                    ("bool", "int32"), ("int32", "int16"), ("int16", "int16"),
                                    ("float32", "int64"), ("int32", "int32"), ("bool", "bool")])
@pytest.mark.parametrize("weight", ["float32", "int64"])
def test_embedding_bag_promotes_indices_and_offsets(dtypes, weight):
    """PyTorch promotes indices and offsets to one dtype (checked Long or Int before the
    weight's dtype); the index outputs have that dtype."""
    w = make((6, 3), weight)
    i, o = ix([0, 1, 1, 5], dtypes[0]), ix([0, 1, 3], dtypes[1])
    check(lambda L, w, i, o: L.embedding_bag(w, i, o, False, 1, False, None, False), w, i, o)


@pytest.mark.parametrize("idx", [[5, 1], [1, 5], [-6, 1], [], [0]])
@pytest.mark.parametrize("dtype", ["int64", "bool", "float32"])
def test_embedding_renorm_integer_weight(idx, dtype):
    """An integer weight: norm()'s dtype error unless the smallest index is out of range."""
    check(lambda L, w, i: L.embedding_renorm_(w, i, 1.0, 2.0), make((5, 3), dtype),
          ix(idx), meta=False)


@pytest.mark.parametrize("idx", [[0, 1, 2, 3], [1, 0, 3, 2], [2, 0, 0, 2], [3, 2, 1, 0]])
@pytest.mark.parametrize("pad", [None, 2])
def test_embedding_bag_max_nan_as_torch(idx, pad):
    """mode='max' keeps a NaN only when it is the bag's first row (PyTorch's loop compares
    later rows with '>'), and max_indices follows."""
    w = mindtorch.tensor([[1., math.nan, 3.], [2., 0., math.inf], [math.nan, 5., -math.inf],
                          [0., 1., 2.]])
    check(lambda L, w, i, o: L.embedding_bag(w, i, o, False, 2, False, None, False, pad),
          w, ix(idx), ix([0, 2]), meta=False)


@pytest.mark.parametrize("case", ["batch", "heads", "seq", "bad_mask", "causal_mask", "inf_q"])
def test_sdpa_empty_value_gives_zeros(case):
    """An empty value: PyTorch returns zeros of query's rows by value's head size before
    its other checks (NaN everywhere when query or key holds inf or NaN)."""
    q, k = make((2, 3, 4, 5)), make((2, 3, 6, 5))
    v = make({"batch": (0, 3, 6, 7), "heads": (2, 0, 6, 7)}.get(case, (2, 3, 0, 7)))
    m = {"bad_mask": make((9, 9)), "causal_mask": make((4, 6)) > 0}.get(case)
    if case == "inf_q":
        q[0, 0, 0, 0] = math.inf
    check(lambda L_, q, k, v, m: F(L_).scaled_dot_product_attention(
        q, k, v, m, is_causal=case == "causal_mask"), q, k, v, m)


@pytest.mark.parametrize("off", [[0, 2 ** 63 - 1, 2], [0, 2, -1], [0, 5, 2], [0, -1, 2],
                                 [0, 1, 2 ** 63 - 1]])
@pytest.mark.parametrize("mode,pad,dtype", [(0, None, "float32"), (0, 2, "float32"),
                                            (1, None, "float32"), (2, 2, "float32"),
                                            (0, None, "float64")])
def test_embedding_bag_offsets_out_of_range(off, mode, pad, dtype):
    """Offsets outside [0, len(input)]: PyTorch's IndexError off its fast sum path (its
    index_add_ into offset2bag), a RuntimeError on it."""
    check(lambda L, w, i, o: L.embedding_bag(w, i, o, False, mode, False, None, False, pad),
          make((6, 3), dtype), ix([0, 1, 2, 3]), ix(off), meta=False)


@pytest.mark.parametrize("dtype", ["complex64", "complex128", "int64"])
@pytest.mark.parametrize("shape, kw", [((2, 3, 4), {}), ((1, 2, 3, 4), {"is_causal": True}),
                                       ((2, 3, 4), {"mask": True, "is_causal": True}),
                                       ((2, 3, 4), {"mask": True}), ((2, 3, 4), {"empty": True})])
def test_sdpa_refuses_complex_like_torch(dtype, shape, kw):
    # complex: the math path's softmax refuses it (NotImplementedError), after the
    # mask/is_causal check and not for an empty value (PyTorch's early return)
    from reference import same_error

    def run(lib):
        q = lib.ones(*shape, dtype=getattr(lib, dtype))
        v = q[..., :0] if kw.get("empty") else q
        mask = lib.ones(3, 3, dtype=lib.bool) if kw.get("mask") else None
        return lib.nn.functional.scaled_dot_product_attention(
            q, q, v, attn_mask=mask, is_causal=kw.get("is_causal", False))
    same_error(lambda: run(mindtorch), lambda: run(torch))
    if kw.get("empty"):
        assert_same(run(mindtorch), run(torch))


def test_embedding_renorm_scale_in_double():
    """PyTorch takes each row's norm as a double and scales by max_norm / (norm + 1e-7)
    in double (1e-7 vanishes next to a float32 norm): the rows equal PyTorch's bit for bit."""
    rows = [[5.234435081481934, -2.283620595932007], [2.7047722339630127, 1.5074830055236816],
            [-0.36867067217826843, -2.8073081970214844], [-2.074982166290283, -1.1902605295181274]]
    w, ref = mindtorch.tensor(rows), torch.tensor(rows)
    mindtorch.embedding_renorm_(w, ix([0, 1, 2, 3]), 1.0, 2.0)
    torch.embedding_renorm_(ref, torch.tensor([0, 1, 2, 3]), 1.0, 2.0)
    assert w.tolist() == ref.tolist()


@pytest.mark.parametrize("shape", [(5,), (4, 5), (2, 3, 5), (2, 2, 3, 5), (0, 3, 5)], ids=str)
@pytest.mark.parametrize("bias_shape", [(3,), (1,), ()], ids=str)
def test_linear_graph_node_as_torch(shape, bias_shape):
    """A contiguous input with a 1-D bias folds into one addmm viewed back (PyTorch's
    ViewBackward0 / AddmmBackward0, which printed outputs show); other biases add."""
    names = []
    for L in (torch, mindtorch):
        x = L.arange(float(math.prod(shape))).reshape(shape).requires_grad_()
        out = L.nn.functional.linear(x, L.ones(3, 5), L.ones(bias_shape))
        names.append(out.grad_fn.name())
    assert names[1] == names[0]


@pytest.mark.parametrize("shape", [(3,), (2, 3), (2, 2, 3)], ids=str)
@pytest.mark.parametrize("dtypes", [("float64", "float32", "float32"), ("float32", "float64", "float64"),
                                    ("float32", "float32", "float64"), ("float32", "float64", "float32")],
                         ids=str)
@pytest.mark.parametrize("bias_shape", [(2,), (1, 2), (1, 1, 2)], ids=str)
def test_linear_dtype_errors_as_torch(shape, dtypes, bias_shape):
    """A float64 input to a float32 Linear: addmm's messages in its order (self/mat2, then
    mat1/mat2), on every rank through the fused path; 1-D-once-squeezed biases fuse."""
    errors = []
    for L in (torch, mindtorch):
        di, dw, db = (getattr(L, d) for d in dtypes)
        with pytest.raises(RuntimeError) as e:
            L.nn.functional.linear(L.ones(shape, dtype=di), L.ones(2, 3, dtype=dw),
                                   L.ones(bias_shape, dtype=db))
        errors.append(str(e.value))
    assert errors[1] == errors[0]


MESSAGES = [  # (F's function, arguments built by lib): PyTorch's exact error message
    ("bilinear", lambda L: (L.ones(2, 3), L.ones(3, 4), L.ones(5, 3, 4))),
    ("pdist", lambda L: (L.ones(3, 4), float("nan"))),
    ("scaled_dot_product_attention", lambda L: (L.ones(2, 3, 4, 5), L.ones(2, 2, 4, 5),
                                                L.ones(2, 2, 4, 5), None, 0.0, False, None,
                                                True)),
    ("softshrink", lambda L: (L.ones(2), -1.0)),
    ("local_response_norm", lambda L: (L.ones(2, 3, 4), 0)),
    ("local_response_norm", lambda L: (L.ones(2, 3, 4, 5), -1)),
    ("adaptive_max_pool2d", lambda L: (L.ones(2, 3, 4, 5), (2, 2, 2))),
    ("adaptive_max_pool3d", lambda L: (L.ones(2, 3, 4, 5, 2), (2, 2))),
    ("adaptive_avg_pool2d", lambda L: (L.ones(2, 3, 4, 5), (2, 2, 2))),
    ("max_unpool2d", lambda L: (L.ones(2, 3, 2, 2), L.full((2, 3, 2, 2), 99), 2)),
    ("grid_sample", lambda L: (L.ones(2, 3, 4, 5), L.ones(2, 2, 2, 2, 2), "bilinear", "zeros",
                               False)),
    ("grid_sample", lambda L: (L.ones(3, 4, 5), L.ones(3, 2, 2), "bilinear", "zeros", False)),
    ("grid_sample", lambda L: (L.ones(3, 4, 5), L.ones(3, 2, 1), "bilinear", "zeros", False)),
    ("affine_grid", lambda L: (L.ones(2, 2, 3), (3, 1, 4, 4), False)),
    ("conv_transpose1d", lambda L: (L.ones(2, 3, 5), L.ones(3, 4, 2), None, 1, 0, 2)),
    ("conv_transpose1d", lambda L: (L.ones(1, 3, 5, dtype=L.float64),
                                    L.ones(3, 4, 2, dtype=L.float64), None, 1, 0, 0, 1, 0)),
    ("conv_transpose2d", lambda L: (L.ones(1, 3, 5, 5, dtype=L.float64),
                                    L.ones(3, 4, 2, 2, dtype=L.float64), None, 1, 0, 0, 1, 0)),
]


@pytest.mark.parametrize("name,args", MESSAGES)
def test_error_messages(name, args):
    with pytest.raises(Exception) as want:
        getattr(torch.nn.functional, name)(*args(torch))
    with pytest.raises(Exception) as got:
        getattr(mindtorch.nn.functional, name)(*args(mindtorch))
    assert type(got.value).__name__ == type(want.value).__name__
    assert str(got.value) == str(want.value)
