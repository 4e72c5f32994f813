"""Regression tests for QA round 11a (GNN, RL, recommender and tabular programs), each against torch."""
import mindtorch
import numpy as np
import pytest

torch = pytest.importorskip("torch")


def _both(fn, *arrays):
    """fn(mindtorch, *tensors) and fn(torch, *tensors) on the same NumPy data."""
    return (fn(mindtorch, *(mindtorch.from_numpy(a.copy()) for a in arrays)),
            fn(torch, *(torch.from_numpy(a.copy()) for a in arrays)))


# -- sort / argsort without stable=: libstdc++'s std::sort order of equal values ---------------

@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16, np.int64, np.int8, np.bool_])
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("n", [16, 17, 40, 300])
def test_unstable_sort_ties_follow_std_sort(dtype, descending, n):
    rng = np.random.default_rng(n)
    a = rng.integers(0, 4, (3, n)).astype(dtype)
    if dtype == np.float64:
        a[:, ::7] = np.nan
        a[:, 1::5] = -0.0
    for dim, data in ((1, a), (0, np.ascontiguousarray(a.T)), (0, a.T)):
        m, t = _both(lambda L, x: L.sort(x, dim=dim, descending=descending), data)
        np.testing.assert_array_equal(m.indices.numpy(), t.indices.numpy())
        np.testing.assert_array_equal(np.signbit(m.values.numpy()), np.signbit(t.values.numpy()))
        m, t = _both(lambda L, x: L.argsort(x, dim=dim, descending=descending), data)
        np.testing.assert_array_equal(m.numpy(), t.numpy())
        m, t = _both(lambda L, x: x.argsort(dim=dim, descending=descending, stable=True), data)
        np.testing.assert_array_equal(m.numpy(), t.numpy())


def test_unstable_sort_ranks_many_rows_and_radix_path():
    rng = np.random.default_rng(0)
    a = rng.integers(0, 10, (100, 100)).astype(np.float32)  # enough work for the compiled replay
    m, t = _both(lambda L, x: x.argsort().argsort(), a)
    np.testing.assert_array_equal(m.numpy(), t.numpy())
    b = rng.integers(0, 5, 40000)  # torch's radix sort: stable
    m, t = _both(lambda L, x: x.argsort(), b)
    np.testing.assert_array_equal(m.numpy(), t.numpy())
    m, t = _both(lambda L, x: x.argsort(descending=True), b)
    np.testing.assert_array_equal(m.numpy(), t.numpy())


# -- in-place torch._foreach_* return the list they were given ---------------------------------

@pytest.mark.parametrize("call", [
    lambda L, xs: L._foreach_add_(xs, 1.5),
    lambda L, xs: L._foreach_mul_(xs, [2.0, 0.5]),
    lambda L, xs: L._foreach_lerp_(xs, [L.zeros(2), L.zeros(3)], 0.25),
    lambda L, xs: L._foreach_addcmul_(xs, xs, xs, value=0.5),
    lambda L, xs: L._foreach_maximum_(xs, 1.75),
    lambda L, xs: L._foreach_sqrt_(xs),
    lambda L, xs: L._foreach_copy_(xs, [L.ones(2), L.ones(3)]),
    lambda L, xs: L._foreach_zero_(xs)])
@pytest.mark.parametrize("container", [list, tuple])
def test_foreach_in_place_returns_its_input(call, container):
    results = []
    for L in (mindtorch, torch):
        xs = container([L.full((2,), 2.0), L.full((3,), 3.0)])
        r = call(L, xs)
        assert r is xs
        results.append([t.tolist() for t in r])
    assert results[0] == results[1]


# -- embedding_bag: 16-bit weights summed in float32; fbgemm's roundings ----------------------

@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
@pytest.mark.parametrize("mode,pad,weighted", [("sum", None, False), ("sum", None, True),
                                               ("sum", 3, False), ("sum", 3, True),
                                               ("mean", None, False), ("mean", 3, False)])
@pytest.mark.parametrize("transposed", [False, True])
def test_embedding_bag_rounding_as_torch(dtype, mode, pad, weighted, transposed):
    rng = np.random.default_rng(11)
    w = rng.standard_normal((50, 8)).astype(np.float32)
    idx, offs = rng.integers(0, 50, 60), np.array([0, 7, 7, 20, 33])
    psw = rng.random(60).astype(np.float32)
    outs = []
    for L in (mindtorch, torch):
        weight = L.from_numpy(w.copy()).to(getattr(L, dtype))
        if transposed:
            weight = weight.t().contiguous().t()
        outs.append(L.nn.functional.embedding_bag(
            L.from_numpy(idx), weight, L.from_numpy(offs), mode=mode, padding_idx=pad,
            per_sample_weights=L.from_numpy(psw).to(weight.dtype) if weighted else None))
    assert outs[0].dtype == getattr(mindtorch, dtype)
    np.testing.assert_array_equal(outs[0].float().numpy(), outs[1].float().numpy())


@pytest.mark.parametrize("dtype", ["int64", "int32"])
def test_embedding_bag_first_offset_message(dtype):
    messages = []
    for L in (mindtorch, torch):
        with pytest.raises(RuntimeError) as e:
            L.nn.functional.embedding_bag(L.tensor([1, 2, 3]), L.ones(5, 2),
                                          L.tensor([1, 2], dtype=getattr(L, dtype)))
        messages.append(str(e.value))
    assert messages[0] == messages[1]


# -- sparse COO: coalesce sums duplicates in torch's order; dense.add_(sparse, alpha) fuses -----

def test_coalesce_sums_duplicates_as_torch():
    rng = np.random.default_rng(3)
    for n in (5, 17, 60):
        idx, v = rng.integers(0, 5, (2, n)), rng.standard_normal((n, 3)).astype(np.float32)
        m, t = (L.sparse_coo_tensor(L.from_numpy(idx), L.from_numpy(v), (5, 5, 3)).coalesce()
                for L in (mindtorch, torch))
        np.testing.assert_array_equal(m._indices().numpy(), t._indices().numpy())
        np.testing.assert_array_equal(m._values().numpy(), t._values().numpy())


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("idx", [[[1, 2, 5, 7]], [[1, 2, 1, 7, 1, 2]], [[1, 2, 5, 1], [0, 2, 1, 0]]])
def test_dense_add_sparse_alpha_is_fused_as_torch(dtype, idx):
    rng = np.random.default_rng(4)
    idx = np.array(idx)
    for _ in range(20):
        d = rng.standard_normal((8, 3)).astype(dtype)
        v = rng.standard_normal((idx.shape[1],) + ((3,) if len(idx) == 1 else ())).astype(dtype)
        alpha = float(rng.standard_normal())
        m, t = (L.from_numpy(d.copy()).add_(L.sparse_coo_tensor(L.from_numpy(idx), L.from_numpy(v),
                                                                 (8, 3)), alpha=alpha)
                for L in (mindtorch, torch))
        np.testing.assert_array_equal(m.numpy(), t.numpy())


@pytest.mark.parametrize("momentum", [0.0, 0.9])
def test_sparse_embedding_sgd_steps_as_torch(momentum):
    rng = np.random.default_rng(5)
    w0, idx = rng.standard_normal((50, 3)).astype(np.float32), rng.integers(0, 50, (4, 6))
    weights = []
    for L in (mindtorch, torch):
        e = L.nn.Embedding(50, 3, sparse=True)
        with L.no_grad():
            e.weight.copy_(L.from_numpy(w0))
        opt = L.optim.SGD(e.parameters(), lr=0.37, momentum=momentum)
        for _ in range(3):
            opt.zero_grad()
            e(L.from_numpy(idx)).pow(3).sum().backward()
            opt.step()
        weights.append(e.weight.detach().numpy())
    np.testing.assert_array_equal(*weights)


# -- searchsorted / bucketize: once-per-program warnings for non-contiguous tensors ------------

def _warnings_of(L, calls):
    import warnings
    seen = []
    for call in calls:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            call(L)
        seen.append([str(x.message).split(" (Triggered")[0] for x in w])
    return seen


def test_searchsorted_non_contiguous_warnings():
    from mindtorch import _warn_once
    b = np.arange(8.0)
    calls = [lambda L: L.searchsorted(L.tensor(b)[::2], L.tensor([0.5])),
             lambda L: L.searchsorted(L.tensor(b)[::2], L.tensor([0.5])),
             lambda L: L.bucketize(L.tensor(b).view(4, 2)[:, 0], L.tensor([1.0, 2.0])),
             lambda L: L.searchsorted(L.tensor(b), L.tensor(b).view(4, 2)[:, 0]),
             lambda L: L.searchsorted(L.tensor(b), L.tensor([0.5]), sorter=L.stack([L.arange(8)] * 2, 1)[:, 0])]
    _warn_once._seen.difference_update({k for k in _warn_once._seen if "searchsorted" in k})
    ours = _warnings_of(mindtorch, calls)
    assert ours[1] == [] and ours[3] == [] and len(ours[0]) == len(ours[2]) == len(ours[4]) == 1
    import subprocess
    import sys
    # torch's once-flags are per process: its messages from a fresh interpreter
    code = ("import torch, warnings\nwarnings.simplefilter('always')\nb = torch.arange(8.0)\n"
            "for f in (lambda: torch.searchsorted(b[::2], torch.tensor([0.5])),"
            " lambda: torch.bucketize(b.view(4, 2)[:, 0], torch.tensor([1.0, 2.0])),"
            " lambda: torch.searchsorted(b, torch.tensor([0.5]), sorter=torch.stack([torch.arange(8)] * 2, 1)[:, 0])):\n"
            "    with warnings.catch_warnings(record=True) as w:\n"
            "        warnings.simplefilter('always'); f()\n"
            "    print(str(w[0].message).split(' (Triggered')[0])\n")
    theirs = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout.splitlines()
    assert [ours[0][0], ours[2][0], ours[4][0]] == theirs


@pytest.mark.parametrize("largest", [True, False])
def test_topk_unsorted_chooses_torchs_tied_elements(largest):
    rng = np.random.default_rng(6)
    for n, k in ((20, 5), (40, 7), (200, 3), (90, 60)):
        a = rng.integers(0, 4, (3, n)).astype(np.float32)
        m, t = _both(lambda L, x: x.topk(k, largest=largest, sorted=False).indices.sort(1).values, a)
        np.testing.assert_array_equal(m.numpy(), t.numpy())


# -- sparse products: PyTorch's messages per layout pair -------------------------------------

_SPARSE_MM_CASES = [
    lambda L, S, C: L.mm(S, L.ones(4, 2, dtype=L.float64)),
    lambda L, S, C: L.mm(S, L.ones(3, 2)),
    lambda L, S, C: L.mm(L.ones(2, 3, dtype=L.float64), S),
    lambda L, S, C: L.mm(L.ones(2, 4, dtype=L.float64), S),
    lambda L, S, C: L.mm(S, S.double()),
    lambda L, S, C: L.mm(S, L.sparse_coo_tensor(L.tensor([[0, 1], [1, 0]]), L.ones(2), (3, 2))),
    lambda L, S, C: L.mm(C, L.ones(4, 2, dtype=L.float64)),
    lambda L, S, C: L.mm(L.ones(2, 4, dtype=L.float64), C),
    lambda L, S, C: L.sparse.mm(S.detach().requires_grad_(), L.ones(3, 2)),
    lambda L, S, C: L.sparse.addmm(L.ones(4, 2), S, L.ones(4, 2, dtype=L.float64)),
    lambda L, S, C: S @ L.ones(3),
    lambda L, S, C: S @ L.ones(3, 2)]


@pytest.mark.parametrize("case", range(len(_SPARSE_MM_CASES)))
def test_sparse_mm_errors_as_torch(case):
    import warnings
    messages = []
    for L in (mindtorch, torch):
        S = L.sparse_coo_tensor(L.tensor([[0, 1], [1, 0]]), L.ones(2), (4, 4))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            C = S.to_sparse_csr()
        with pytest.raises(RuntimeError) as e:
            _SPARSE_MM_CASES[case](L, S, C)
        messages.append(str(e.value))
    assert messages[0] == messages[1]


# -- torch.sparse.mm(csr, dense, reduce=...) ---------------------------------------------------

def _csr(L, vals):
    return L.sparse_csr_tensor(L.tensor([0, 2, 2, 5]), L.tensor([0, 2, 1, 0, 2]), L.tensor(vals),
                               (3, 3))


@pytest.mark.parametrize("reduce", ["sum", "mean", "amax", "amin", "max", "min"])
@pytest.mark.parametrize("vals", [[1.0, 2.0, 3.0, 4.0, -5.0], [0.0, 0.0, 2.0, 2.0, 2.0]])
def test_sparse_mm_reduce_as_torch(reduce, vals):
    import warnings
    results = []
    for L in (mindtorch, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            C = _csr(L, vals)
        x = (L.arange(6.0).view(3, 2) - 2).requires_grad_()
        out = L.sparse.mm(C, x, reduce=reduce)
        (out * L.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])).sum().backward()
        results.append((out.tolist(), x.grad))
    assert results[0][0] == results[1][0]
    np.testing.assert_allclose(results[0][1].numpy(), results[1][1].numpy(), rtol=1e-6)
    if reduce != "mean":  # (mean's gradient: the same up to rounding)
        assert results[0][1].tolist() == results[1][1].tolist()


@pytest.mark.parametrize("call", [
    lambda L, C: L.sparse.mm(C, L.ones(3, 2), reduce="prod"),
    lambda L, C: L.sparse.mm(C, L.ones(3, 2), reduce="foo"),
    lambda L, C: L.sparse.mm(C, L.ones(3, 2, dtype=L.float64), reduce="mean"),
    lambda L, C: L.sparse.mm(C, L.ones(2, 2), reduce="amax"),
    lambda L, C: L.sparse.mm(C.to_sparse_coo(), L.ones(3, 2), reduce="mean")])
def test_sparse_mm_reduce_errors_as_torch(call):
    import warnings
    outcomes = []
    for L in (mindtorch, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            C = _csr(L, [1.0] * 5)
        with pytest.raises((RuntimeError, NotImplementedError)) as e:
            call(L, C)
        outcomes.append((e.type, str(e.value)[:200]))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_unique_numbers_nans_in_torchs_sort_order(dtype):
    rng = np.random.default_rng(7)
    for n in (6, 30, 90):
        a = rng.integers(0, 4, (3, n)).astype(dtype)
        a[:, ::5] = np.nan
        m, t = _both(lambda L, x: L.unique(x, return_inverse=True, return_counts=True), a)
        for p, q in zip(m, t):
            np.testing.assert_array_equal(p.numpy(), q.numpy())


def test_unique_dim_with_nans_orders_as_torch():
    rng = np.random.default_rng(8)
    for n, c in ((5, 2), (20, 3), (40, 1)):
        a = rng.integers(0, 3, (n, c)).astype(np.float32)
        a[rng.random((n, c)) < 0.15] = np.nan
        m, t = _both(lambda L, x: L.unique(x, dim=0, return_inverse=True, return_counts=True), a)
        for p, q in zip(m, t):
            np.testing.assert_array_equal(p.numpy(), q.numpy())


@pytest.mark.parametrize("op", ["min", "max"])
def test_min_max_dim_zero_sign_is_the_indexed_element(op):
    a = np.array([[0.0, -0.0, 1.0], [-0.0, 0.0, -1.0], [1.0, -0.0, 0.0]], np.float32)
    for dim, keepdim in ((1, False), (0, True), (-1, True)):
        m, t = _both(lambda L, x: getattr(x, op)(dim, keepdim=keepdim), a)
        np.testing.assert_array_equal(m.indices.numpy(), t.indices.numpy())
        np.testing.assert_array_equal(np.signbit(m.values.numpy()), np.signbit(t.values.numpy()))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("mode,pad,weighted,sparse", [
    ("sum", None, False, False), ("mean", None, False, False), ("sum", 2, True, False),
    ("mean", 2, False, False), ("mean", None, False, True), ("sum", 2, True, True)])
def test_embedding_bag_weight_gradient_bits_as_torch(dtype, mode, pad, weighted, sparse):
    rng = np.random.default_rng(9)
    w, gout = rng.standard_normal((12, 5)).astype(np.float32), rng.standard_normal((6, 5))
    idx, psw = rng.integers(0, 12, 60), rng.random(60).astype(np.float32)
    offs = np.sort(rng.integers(0, 60, 6))
    offs[0] = 0
    grads = []
    for L in (mindtorch, torch):
        weight = L.from_numpy(w).to(getattr(L, dtype)).requires_grad_()
        out = L.nn.functional.embedding_bag(
            L.from_numpy(idx), weight, L.from_numpy(offs), mode=mode, padding_idx=pad,
            sparse=sparse, per_sample_weights=L.from_numpy(psw).to(weight.dtype) if weighted else None)
        out.backward(L.from_numpy(gout).to(weight.dtype))
        grads.append((weight.grad.to_dense() if sparse else weight.grad).float().numpy())
    np.testing.assert_array_equal(*grads)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_embedding_weight_gradient_16bit_rounds_each_row(dtype):
    rng = np.random.default_rng(10)
    idx, gout = rng.integers(0, 8, 40), rng.standard_normal((40, 6)).astype(np.float32)
    grads = []
    for L in (mindtorch, torch):
        w = L.zeros(8, 6, dtype=getattr(L, dtype), requires_grad=True)
        L.nn.functional.embedding(L.from_numpy(idx), w, padding_idx=3).backward(
            L.from_numpy(gout).to(w.dtype))
        grads.append(w.grad.float().numpy())
    np.testing.assert_array_equal(*grads)
