"""Sparse COO / CSR tensors against PyTorch: construction, metadata, conversions, repr,
errors, pickling."""
import io
import pickle

import mindtorch
import numpy as np
import pytest
from reference import assert_same, torch
from sparse_helpers import INDICES, SIZE, VALUES, assert_sparse_same, coo, csr, dense

pytestmark = pytest.mark.filterwarnings("ignore:Sparse")  # (PyTorch's beta / invariants notes)
DENSE = np.array([[0.0, 2.0, 0.0], [1.5, 0.0, -3.0], [0.0, 0.0, 0.0], [4.0, 0.0, 1.0]])


def test_layouts_and_metadata():
    m, t = coo()
    assert mindtorch.sparse_coo is not mindtorch.strided and repr(mindtorch.sparse_csr) == \
        "torch.sparse_csr"
    assert m.layout is mindtorch.sparse_coo and m.is_sparse and not m.is_sparse_csr
    assert (m.sparse_dim(), m.dense_dim(), m._nnz()) == (t.sparse_dim(), t.dense_dim(), t._nnz())
    assert tuple(m.shape) == tuple(t.shape) and m.ndim == t.ndim and m.numel() == t.numel()
    assert m.stride() == t.stride() and m.is_contiguous() == t.is_contiguous()
    assert m.device == mindtorch.device("cpu") and m.is_cpu and m.dtype is mindtorch.float32
    assert isinstance(m, mindtorch.Tensor) and mindtorch.is_tensor(m)
    assert m.is_coalesced() is False
    d = mindtorch.ones(2)
    assert d.layout is mindtorch.strided and not d.is_sparse and d.sparse_dim() == 0
    c, tc = csr(DENSE)
    assert c.layout is mindtorch.sparse_csr and c.is_sparse_csr and not c.is_sparse
    assert c._nnz() == tc._nnz()


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "complex64"])
def test_construct_and_coalesce(dtype):
    m, t = coo(dtype=dtype)
    assert_sparse_same(m, t)
    assert_sparse_same(m.coalesce(), t.coalesce())
    mi, ti = coo(size=None, dtype=dtype)  # the size inferred from the indices
    assert tuple(mi.shape) == tuple(ti.shape)
    assert_sparse_same(mi.coalesce(), ti.coalesce())


def test_hybrid_and_flags():
    vals = np.arange(10.0).reshape(5, 2)
    m = mindtorch.sparse_coo_tensor(INDICES, mindtorch.tensor(vals), (4, 3, 2))
    t = torch.sparse_coo_tensor(INDICES, torch.tensor(vals), (4, 3, 2))
    assert_sparse_same(m, t)
    assert_sparse_same(m.coalesce(), t.coalesce())
    m, t = coo(indices=[[0, 2], [1, 1]], values=[1.0, 2.0], is_coalesced=True)
    assert m.is_coalesced() and t.is_coalesced()
    one = mindtorch.sparse_coo_tensor([[1], [2]], [3.0], (2, 3))
    assert one.is_coalesced() == torch.sparse_coo_tensor([[1], [2]], [3.0], (2, 3)).is_coalesced()


def test_accessors():
    m, t = coo()
    with pytest.raises(RuntimeError, match="uncoalesced"):
        m.indices()
    with pytest.raises(RuntimeError, match="uncoalesced"):
        m.values()
    mc, tc = m.coalesce(), t.coalesce()
    assert_same(mc.indices(), tc.indices())
    assert_same(mc.values(), tc.values())
    assert_same(m._indices(), t._indices())
    assert_same(m._values(), t._values())
    with pytest.raises(RuntimeError, match="crow_indices expected sparse row compressed"):
        m.crow_indices()
    c, tcs = csr(DENSE)
    assert_same(c.crow_indices(), tcs.crow_indices())
    assert_same(c.col_indices(), tcs.col_indices())
    assert_same(c.values(), tcs.values())
    d = mindtorch.ones(2, 2)
    for name in ("indices", "values", "coalesce", "is_coalesced", "_indices", "crow_indices"):
        with pytest.raises(RuntimeError, match="expected sparse"):
            getattr(d, name)()
    assert d.to_dense() is d


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_dense_conversions(dtype):
    md, td = mindtorch.tensor(DENSE, dtype=getattr(mindtorch, dtype)), \
        torch.tensor(DENSE, dtype=getattr(torch, dtype))
    assert_sparse_same(md.to_sparse(), td.to_sparse())
    assert_sparse_same(md.to_sparse_coo(), td.to_sparse_coo())
    assert_sparse_same(md.to_sparse(1), td.to_sparse(1))
    assert_sparse_same(md.to_sparse(layout=mindtorch.sparse_csr),
                       td.to_sparse(layout=torch.sparse_csr))
    assert_sparse_same(md.to_sparse_csr(), td.to_sparse_csr())
    assert_sparse_same(md.to_sparse_csr().to_sparse(), td.to_sparse_csr().to_sparse())
    assert_sparse_same(md.to_sparse().to_sparse_csr(), td.to_sparse().to_sparse_csr())
    assert_same(md.to_sparse_csr().to_dense(), td.to_sparse_csr().to_dense())
    empty = np.zeros((2, 3))
    assert_sparse_same(mindtorch.tensor(empty).to_sparse(), torch.tensor(empty).to_sparse())


def test_csr_constructor():
    crow, col, val = [0, 2, 3, 3], [0, 2, 1], [1.0, 2.0, 3.0]
    m = mindtorch.sparse_csr_tensor(crow, col, val, (3, 3))
    t = torch.sparse_csr_tensor(crow, col, val, (3, 3))
    assert_sparse_same(m, t)
    assert_sparse_same(mindtorch.sparse_csr_tensor(crow, col, val),
                       torch.sparse_csr_tensor(crow, col, val))


def test_sparse_mask():
    md, td = dense((4, 3))
    m, t = coo()
    assert_sparse_same(md.sparse_mask(m.coalesce()), td.sparse_mask(t.coalesce()))


def test_copies_and_dtype():
    m, t = coo()
    assert_sparse_same(m.clone(), t.clone())
    assert_sparse_same(m.detach(), t.detach())
    assert_sparse_same(m.to(mindtorch.float64), t.to(torch.float64))
    assert_sparse_same(m.double(), t.double())
    assert m.to(mindtorch.float32) is m
    assert m.cpu() is m


REPRS = [
    lambda lib: lib.sparse_coo_tensor(INDICES, VALUES, SIZE),
    lambda lib: lib.sparse_coo_tensor(INDICES, VALUES, SIZE, dtype=lib.float64),
    lambda lib: lib.sparse_coo_tensor(INDICES, VALUES, SIZE, requires_grad=True),
    lambda lib: lib.sparse_coo_tensor(INDICES, VALUES, SIZE, dtype=lib.float64,
                                      requires_grad=True) * 2,
    lambda lib: lib.tensor(DENSE, dtype=lib.float64).to_sparse_csr().requires_grad_(),
    lambda lib: lib.sparse_coo_tensor([[0, 1]], [[1.0, 2.0], [3.0, 4.0]], (2, 2)),
    lambda lib: lib.sparse_coo_tensor(lib.zeros(2, 0, dtype=lib.int64), [], (2, 3)),
    lambda lib: lib.sparse_coo_tensor(lib.empty(2, 5, dtype=lib.int64, device="meta"),
                                      lib.empty(5, device="meta", dtype=lib.float64), (4, 3)),
    lambda lib: lib.tensor(DENSE).to_sparse_csr(),
    lambda lib: lib.tensor(DENSE, dtype=lib.float64).to_sparse_csr(),
]


@pytest.mark.parametrize("make", REPRS)
def test_repr(make):
    assert repr(make(mindtorch)) == repr(make(torch))
    assert str(make(mindtorch)) == str(make(torch))


def test_errors_match_torch():
    cases = [
        lambda lib: lib.sparse_coo_tensor([0, 1], [1.0, 2.0], (3,)),  # 1-D indices
        lambda lib: lib.sparse_coo_tensor([[0, 1]], [1.0], (3,)),  # nnz mismatch
        lambda lib: lib.sparse_coo_tensor([[0, 5]], [1.0, 2.0], (3,), check_invariants=True),
        lambda lib: lib.sparse_coo_tensor(INDICES, VALUES, SIZE).exp(),
        lambda lib: lib.sparse_coo_tensor(INDICES, VALUES, SIZE).cumsum(0),
        lambda lib: lib.sparse_coo_tensor(INDICES, VALUES, SIZE).view(12),
        lambda lib: lib.sparse_coo_tensor(INDICES, VALUES, SIZE) + 1,
        lambda lib: lib.sparse_coo_tensor(INDICES, VALUES, SIZE) + lib.ones(4, 3),
        lambda lib: lib.sparse_coo_tensor(INDICES, VALUES, SIZE).numpy(),
        lambda lib: lib.sparse_coo_tensor(INDICES, VALUES, SIZE).data_ptr(),
        lambda lib: lib.sparse_coo_tensor(INDICES, VALUES, SIZE).item(),
        lambda lib: lib.ones(2)._nnz(),
    ]
    for case in cases:
        with pytest.raises(Exception) as te:
            case(torch)
        with pytest.raises(type(te.value)):
            case(mindtorch)
    with pytest.raises(NotImplementedError, match="aten::exp' with arguments from the "
                                                  "'SparseCPU' backend"):
        mindtorch.sparse_coo_tensor(INDICES, VALUES, SIZE).exp()
    with pytest.raises(RuntimeError, match=r"add\(sparse, dense\) is not supported"):
        mindtorch.sparse_coo_tensor(INDICES, VALUES, SIZE) + 1


@pytest.mark.parametrize("layout", ["coo", "csr"])
def test_save_load_both_ways(layout):
    m = mindtorch.sparse_coo_tensor(INDICES, VALUES, SIZE)
    t = torch.sparse_coo_tensor(INDICES, VALUES, SIZE)
    if layout == "csr":
        m, t = m.to_dense().to_sparse_csr(), t.to_dense().to_sparse_csr()
    buf = io.BytesIO()
    mindtorch.save({"s": m}, buf)
    assert_sparse_same(m, torch.load(io.BytesIO(buf.getvalue()))["s"])
    assert_sparse_same(mindtorch.load(io.BytesIO(buf.getvalue()))["s"], t)
    buf = io.BytesIO()
    torch.save([t], buf)
    assert_sparse_same(mindtorch.load(io.BytesIO(buf.getvalue()))[0], t)
    assert_sparse_same(pickle.loads(pickle.dumps(m)), t)


@pytest.mark.filterwarnings("ignore:torch.sparse.SparseTensor")  # (PyTorch's, once)
def test_empty_and_legacy_constructors():
    assert_sparse_same(mindtorch.sparse_coo_tensor((2, 3)), torch.sparse_coo_tensor((2, 3)))
    i = [[0, 1], [1, 0]]
    mindtorch.set_warn_always(True)  # (PyTorch warns once per process)
    try:
        for name in ("FloatTensor", "DoubleTensor", "LongTensor"):
            mtype, ttype = getattr(mindtorch.sparse, name), getattr(torch.sparse, name)
            with pytest.warns(UserWarning, match="is deprecated"):
                m = mtype(mindtorch.tensor(i), mindtorch.tensor([1.0, 2.0]),
                          mindtorch.Size([2, 2]))
            t = ttype(torch.tensor(i), torch.tensor([1.0, 2.0]).to(getattr(torch, m.dtype.name)),
                      torch.Size([2, 2]))
            assert_sparse_same(m, t)
            assert isinstance(m, mtype) and not isinstance(mindtorch.ones(2), mtype)
            with pytest.warns(UserWarning, match="is deprecated"):
                assert_sparse_same(mtype(2, 3), ttype(2, 3))
    finally:
        mindtorch.set_warn_always(False)


def test_meta_device():
    i = mindtorch.empty(2, 5, dtype=mindtorch.int64, device="meta")
    s = mindtorch.sparse_coo_tensor(i, mindtorch.empty(5, device="meta"), (4, 3))
    assert s.device.type == "meta" and s.is_meta and s.layout is mindtorch.sparse_coo
    r = mindtorch.mm(s, mindtorch.empty(3, 2, device="meta"))
    assert r.device.type == "meta" and tuple(r.shape) == (4, 2)
    assert tuple((s * 2).t().shape) == (3, 4)


def test_assert_close_on_sparse_tensors():
    """testing.assert_close compares sparse tensors as PyTorch's: counts, indices exactly,
    values within tolerance, the layout unless check_layout=False."""
    for lib in (mindtorch, torch):
        a = lib.sparse_coo_tensor([[0, 1], [1, 0]], [1.0, 2.0], (2, 2))
        lib.testing.assert_close(a, a.clone())
        lib.testing.assert_close(a, a.to_dense(), check_layout=False)
        c = a.to_dense().to_sparse_csr()
        lib.testing.assert_close(c, c.clone())
    messages = []
    for lib in (mindtorch, torch):
        a = lib.sparse_coo_tensor([[0, 1], [1, 0]], [1.0, 2.0], (2, 2))
        b = lib.sparse_coo_tensor([[1, 0], [0, 1]], [2.0, 1.0], (2, 2))
        one = lib.sparse_coo_tensor([[0], [0]], [1.0], (2, 2))
        c = a.to_dense().to_sparse_csr()
        for x, y in ((a, b), (a, a * 2), (a, a.to_dense()), (a, one), (c, c * 2)):
            with pytest.raises(AssertionError) as info:
                lib.testing.assert_close(x, y)
            messages.append(str(info.value))
    half = len(messages) // 2
    assert messages[:half] == messages[half:]


def test_compressed_column_accessors_and_unsupported_layouts():
    for lib in (mindtorch, torch):
        d = lib.ones(2, 2)
        for t, got in ((d, "Strided"), (d.to_sparse(), "Sparse"), (d.to_sparse_csr(), "SparseCsr")):
            for name in ("ccol_indices", "row_indices"):
                with pytest.raises(RuntimeError, match=f"{name} expected sparse column "
                                                       f"compressed tensor layout but got {got}$"):
                    getattr(t, name)()
    for name in ("to_sparse_csc", "to_sparse_bsr", "to_sparse_bsc"):
        with pytest.raises(NotImplementedError, match="not supported"):
            getattr(mindtorch.ones(2, 2), name)()


CONSTRUCTORS = {
    "coo": lambda L, **kw: L.sparse_coo_tensor([[0, 1]], [1.0, 2.0], (3,), **kw),
    "coo_size": lambda L, **kw: L.sparse_coo_tensor((2, 3), **kw),
    "csr": lambda L, **kw: L.sparse_csr_tensor(L.tensor([0, 1]), L.tensor([0]),
                                               L.tensor([1.0]), (1, 2), **kw),
}


@pytest.mark.filterwarnings("ignore:Sparse CSR tensor support is in beta")
@pytest.mark.parametrize("name", list(CONSTRUCTORS))
def test_implicit_invariant_checks_warn_as_pytorch(name):
    # PyTorch's once-per-process warning while the global setting was never chosen; none
    # with check_invariants given, or after check_sparse_tensor_invariants set it
    import warnings

    from mindtorch import sparse as msparse

    def messages(lib, **kw):
        lib.set_warn_always(True)
        try:
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                CONSTRUCTORS[name](lib, **kw)
        finally:
            lib.set_warn_always(False)
        return [str(x.message).split(" (Triggered")[0] for x in w
                if "implicitly disabled" in str(x.message)]
    saved = msparse._check_invariants[0]
    msparse._check_invariants[0] = None
    try:
        ours = messages(mindtorch)
        theirs = messages(torch)  # (empty if another test chose the setting in PyTorch)
        assert len(ours) == 1 and ours == (theirs or ours)
        assert ours[0].startswith("Sparse invariant checks are implicitly disabled.")
        assert messages(mindtorch, check_invariants=False) == []
        assert messages(mindtorch, check_invariants=True) == []
        with mindtorch.sparse.check_sparse_tensor_invariants(enable=True):
            pass
        assert mindtorch.sparse.check_sparse_tensor_invariants.is_enabled() is False
        assert messages(mindtorch) == []
    finally:
        msparse._check_invariants[0] = saved
