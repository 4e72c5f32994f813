"""Ops on sparse tensors against PyTorch: products, arithmetic, reductions, torch.sparse's
functions, and their gradients."""
import mindtorch
import numpy as np
import pytest
from reference import assert_same, torch
from sparse_helpers import assert_sparse_same, coo, dense

pytestmark = pytest.mark.filterwarnings("ignore:Sparse")
DENSE = np.array([[0.0, 2.0, 0.0], [1.5, 0.0, -3.0], [0.0, 0.0, 0.0], [4.0, 0.0, 1.0]])


def layouts(dtype="float32"):
    """(mindtorch, torch) sparse 4x3 matrices: uncoalesced COO, coalesced COO, CSR."""
    m, t = coo(dtype=dtype)
    yield m, t
    yield m.coalesce(), t.coalesce()
    md, td = mindtorch.tensor(DENSE, dtype=getattr(mindtorch, dtype)), \
        torch.tensor(DENSE, dtype=getattr(torch, dtype))
    yield md.to_sparse_csr(), td.to_sparse_csr()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_products(dtype):
    for m, t in layouts(dtype):
        dm, dt = dense((3, 5), dtype)
        assert_same(mindtorch.mm(m, dm), torch.mm(t, dt))
        assert_same(m @ dm, t @ dt)
        assert_same(mindtorch.matmul(m, dm), torch.matmul(t, dt))
        assert_same(mindtorch.sparse.mm(m, dm), torch.sparse.mm(t, dt))
        vm, vt = dense((3,), dtype)
        assert_same(m @ vm, t @ vt)
        cm, ct = dense((4, 5), dtype, seed=1)
        assert_same(mindtorch.addmm(cm, m, dm), torch.addmm(ct, t, dt))
        assert_same(mindtorch.addmm(cm, m, dm, beta=0.5, alpha=2.0),
                    torch.addmm(ct, t, dt, beta=0.5, alpha=2.0))
        assert_same(mindtorch.sparse.addmm(cm, m, dm, beta=0.5, alpha=2.0),
                    torch.sparse.addmm(ct, t, dt, beta=0.5, alpha=2.0))
        assert_same(mindtorch.spmm(m, dm), torch.spmm(t, dt))
    m, t = coo(dtype=dtype)
    em, et = dense((2, 4), dtype)
    assert_same(mindtorch.mm(em, m), torch.mm(et, t))  # dense @ sparse
    ss_m, ss_t = mindtorch.mm(m, m.t()), torch.mm(t, t.t())  # sparse @ sparse
    assert ss_m.layout is mindtorch.sparse_coo
    assert_same(ss_m.to_dense(), ss_t.to_dense())
    assert_same(mindtorch.smm(m, dense((3, 2), dtype)[0]).to_dense(),
                torch.smm(t, dense((3, 2), dtype)[1]).to_dense())


def test_product_errors():
    m, t = coo()
    for bad, error in (((4, 2), RuntimeError), ((3,), IndexError)):
        with pytest.raises(error):
            torch.mm(t, torch.ones(*bad))
        with pytest.raises(error):
            mindtorch.mm(m, mindtorch.ones(*bad))
    with pytest.raises(RuntimeError):
        torch.mm(t, torch.ones(3, 2, dtype=torch.float64))
    with pytest.raises(RuntimeError):
        mindtorch.mm(m, mindtorch.ones(3, 2, dtype=mindtorch.float64))


def test_transpose():
    m, t = coo()
    assert_sparse_same(m.t(), t.t())
    assert_sparse_same(m.coalesce().t(), t.coalesce().t())
    assert_sparse_same(m.transpose(0, 1), t.transpose(0, 1))
    assert_sparse_same(mindtorch.t(m), torch.t(t))


def test_add_sub():
    for (m, t), (m2, t2) in zip(layouts(), layouts()):
        assert_sparse_same(m + m2, t + t2, exact_pattern=m.is_sparse)
        assert_sparse_same(mindtorch.add(m, m2, alpha=3), torch.add(t, t2, alpha=3),
                           exact_pattern=False)
        dm, dt = dense((4, 3))
        assert_same(dm + m, dt + t)
        assert_same(mindtorch.add(dm, m, alpha=-0.5), torch.add(dt, t, alpha=-0.5))
        if m.is_sparse:
            assert_sparse_same(m - 2 * m2, t - 2 * t2, exact_pattern=False)
            assert_same(dm - m, dt - t)
        else:  # (PyTorch has no subtraction with CSR)
            for f in (lambda m=m, m2=m2: m - m2, lambda m=m, dm=dm: dm - m):
                with pytest.raises(RuntimeError, match="unsupported tensor layout: SparseCsr"):
                    f()
    m, t = coo()
    other = mindtorch.sparse_coo_tensor([[0, 2], [1, 1]], [1.0, 2.0], (4, 3))
    tother = torch.sparse_coo_tensor([[0, 2], [1, 1]], [1.0, 2.0], (4, 3))
    # (uncoalesced operands: PyTorch merges them as if sorted, an order not reproduced)
    assert_sparse_same(m + other, t + tother, exact_pattern=False)
    assert_sparse_same(m.coalesce() + other.coalesce(), t.coalesce() + tother.coalesce())
    m, t = coo()
    dm, dt = dense((4, 3))
    dm.add_(m)
    dt.add_(t)
    assert_same(dm, dt)
    with pytest.raises(RuntimeError):
        mindtorch.ones(4, 3) + mindtorch.sparse_coo_tensor([[0]], [1.0], (2, 3))


def test_mul_div_unary():
    for m, t in layouts():
        assert_sparse_same(m * 2.5, t * 2.5)
        assert_sparse_same(2.5 * m, 2.5 * t)
        if m.is_sparse:
            assert_sparse_same(m / 4, t / 4)
        else:
            with pytest.raises(RuntimeError, match="unsupported tensor layout: SparseCsr"):
                m / 4
        assert_sparse_same(-m, -t)
        assert_sparse_same(m * mindtorch.tensor(3.0), t * torch.tensor(3.0))
    m, t = coo()
    dm, dt = dense((4, 3))
    assert_sparse_same(m * dm, t * dt, exact_pattern=False)
    assert_sparse_same(dm * m, dt * t, exact_pattern=False)
    mc, tc = m.coalesce(), t.coalesce()
    for name in ("abs", "sqrt", "sin", "tanh", "relu", "sign", "floor", "square", "neg"):
        if name == "sqrt":
            a, b = getattr(mc.abs(), name)(), getattr(tc.abs(), name)()
        else:
            a, b = getattr(mc, name)(), getattr(tc, name)()
        assert_sparse_same(a, b, exact_pattern=False)
    assert_sparse_same(mc ** 2, tc ** 2)
    assert_sparse_same(m.abs(), t.abs(), exact_pattern=False)  # coalesced first


def test_sums():
    for m, t in layouts():
        assert_same(m.sum(), t.sum())
        if m.is_sparse:
            assert_same(mindtorch.sparse.sum(m), torch.sparse.sum(t))
    m, t = coo()
    for dim in (0, 1, (0, 1), -1):
        r, e = mindtorch.sparse.sum(m, dim), torch.sparse.sum(t, dim)
        if isinstance(e, torch.Tensor) and e.layout == torch.sparse_coo:
            assert_sparse_same(r, e)
        else:
            assert_same(r, e)
    assert_sparse_same(m.sum(0), t.sum(0))
    assert_sparse_same(m.sum(1), t.sum(1))
    c = mindtorch.tensor(DENSE).to_sparse_csr()
    with pytest.raises(RuntimeError, match="reduction operations on CSR tensors"):
        c.sum(0)
    assert_same(mindtorch.sparse.sum(m, dtype=mindtorch.float64),
                torch.sparse.sum(t, dtype=torch.float64))


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("log", [False, True])
def test_softmax(dim, log):
    m, t = coo()
    fm = mindtorch.sparse.log_softmax if log else mindtorch.sparse.softmax
    ft = torch.sparse.log_softmax if log else torch.sparse.softmax
    assert_sparse_same(fm(m, dim), ft(t, dim))
    if dim < 0:  # (PyTorch's backward does not wrap a negative dim)
        return
    vals = np.array([0.3, -1.0, 2.0, 0.5, 1.5])
    vm = mindtorch.tensor(vals, requires_grad=True)
    vt = torch.tensor(vals, requires_grad=True)
    im = mindtorch.tensor([[0, 1, 1, 3, 2], [2, 0, 2, 1, 2]])
    it = torch.tensor([[0, 1, 1, 3, 2], [2, 0, 2, 1, 2]])
    wm, wt = dense((4, 3), "float64")
    (fm(mindtorch.sparse_coo_tensor(im, vm, (4, 3)), dim).to_dense() * wm).sum().backward()
    (ft(torch.sparse_coo_tensor(it, vt, (4, 3)), dim).to_dense() * wt).sum().backward()
    assert_same(vm.grad, vt.grad)


# -- gradients -----------------------------------------------------------------------------

@pytest.mark.parametrize("fn", ["mm", "matmul", "sparse.mm", "addmm"])
def test_grad_of_dense_operand(fn):
    for m, t in layouts("float64"):
        dm, dt = dense((3, 5), "float64", requires_grad=True)
        wm, wt = dense((4, 5), "float64", seed=3)
        if fn == "addmm":
            cm, ct = dense((4, 5), "float64", seed=4, requires_grad=True)
            rm, rt = mindtorch.addmm(cm, m, dm, alpha=2.0), torch.addmm(ct, t, dt, alpha=2.0)
        elif fn == "sparse.mm":
            rm, rt = mindtorch.sparse.mm(m, dm), torch.sparse.mm(t, dt)
        else:
            rm, rt = getattr(mindtorch, fn)(m, dm), getattr(torch, fn)(t, dt)
        (rm * wm).sum().backward()
        (rt * wt).sum().backward()
        assert_same(dm.grad, dt.grad)
        if fn == "addmm":
            assert_same(cm.grad, ct.grad)


def test_grad_of_dense_operand_on_the_left():
    m, t = coo(dtype="float64")
    dm, dt = dense((2, 4), "float64", requires_grad=True)
    (mindtorch.mm(dm, m) ** 2).sum().backward()
    (torch.mm(dt, t) ** 2).sum().backward()
    assert_same(dm.grad, dt.grad)


def test_grad_of_sparse_leaf():
    dm, dt = dense((3, 2), "float64")
    for coalesce in (False, True):
        m, t = coo(dtype="float64", requires_grad=True)
        mm_, tt = (m.coalesce(), t.coalesce()) if coalesce else (m, t)
        (mindtorch.sparse.mm(mm_, dm) ** 2).sum().backward()
        (torch.sparse.mm(tt, dt) ** 2).sum().backward()
        assert_sparse_same(m.grad, t.grad, exact_pattern=False)
        assert m.grad.layout is mindtorch.sparse_coo
    m, t = coo(dtype="float64", requires_grad=True)
    (mindtorch.mm(m, dm) ** 2).sum().backward()  # torch.mm: a dense gradient
    (torch.mm(t, dt) ** 2).sum().backward()
    assert_same(m.grad, t.grad)
    for f in (lambda s, lib: s.to_dense() * lib.arange(12.0).reshape(4, 3),
              lambda s, lib: (s * 2).to_dense(),
              lambda s, lib: lib.sparse.sum(s)):
        m, t = coo(dtype="float64", requires_grad=True)
        f(m, mindtorch).sum().backward()
        f(t, torch).sum().backward()
        assert_sparse_same(m.grad, t.grad, exact_pattern=False)


def test_grad_of_values():
    vals = np.array([3.0, -4.0, 5.0, 0.5, 1.5])
    vm = mindtorch.tensor(vals, requires_grad=True)
    vt = torch.tensor(vals, requires_grad=True)
    sm = mindtorch.sparse_coo_tensor([[0, 1, 1, 3, 0], [2, 0, 2, 1, 2]], vm, (4, 3))
    st = torch.sparse_coo_tensor([[0, 1, 1, 3, 0], [2, 0, 2, 1, 2]], vt, (4, 3))
    assert sm.requires_grad and sm.grad_fn is not None
    dm, dt = dense((3, 2), "float64")
    (mindtorch.sparse.mm(sm, dm) ** 2).sum().backward()
    (torch.sparse.mm(st, dt) ** 2).sum().backward()
    assert_same(vm.grad, vt.grad)
    vm.grad = vt.grad = None
    sm = mindtorch.sparse_coo_tensor([[0, 1, 1, 3, 0], [2, 0, 2, 1, 2]], vm, (4, 3))
    st = torch.sparse_coo_tensor([[0, 1, 1, 3, 0], [2, 0, 2, 1, 2]], vt, (4, 3))
    (mindtorch.mm(sm, dm) * 3).sum().backward()
    (torch.mm(st, dt) * 3).sum().backward()
    assert_same(vm.grad, vt.grad)


def test_gcn_layer_training_grads():
    """Two GCN layers: relu(A @ (X @ W1)) then A @ (H @ W2), A a normalised adjacency."""
    rng = np.random.default_rng(5)
    edges = rng.integers(0, 6, size=(2, 14))
    weights = rng.random(14)
    x = rng.standard_normal((6, 4))
    w1, w2 = rng.standard_normal((4, 8)), rng.standard_normal((8, 3))
    grads = []
    for lib in (mindtorch, torch):
        a = lib.sparse_coo_tensor(lib.tensor(edges), lib.tensor(weights), (6, 6)).coalesce()
        p1 = lib.tensor(w1, requires_grad=True)
        p2 = lib.tensor(w2, requires_grad=True)
        h = lib.relu(lib.sparse.mm(a, lib.tensor(x) @ p1))
        out = a @ (h @ p2)
        lib.nn.functional.cross_entropy(out, lib.tensor([0, 1, 2, 0, 1, 2])).backward()
        grads.append((out, p1.grad, p2.grad))
    for m, t in zip(*grads):
        assert_same(m, t)


# -- shapes and indexing --------------------------------------------------------------------

SHAPE_CASES = [
    lambda s, L: s.select(0, 1), lambda s, L: s.select(1, -1), lambda s, L: s[0],
    lambda s, L: s[:, 2], lambda s, L: s[..., 1], lambda s, L: s[None], lambda s, L: s[3, 1],
    lambda s, L: s.index_select(0, L.tensor([3, 1, 1])),
    lambda s, L: s.index_select(1, L.tensor([2, 0])),
    lambda s, L: s.coalesce().index_select(0, L.tensor([0, 1])),
    lambda s, L: s.permute(1, 0), lambda s, L: s.unsqueeze(0), lambda s, L: s.unsqueeze(2),
    lambda s, L: L.cat([s, s], 1), lambda s, L: L.cat([s, s.coalesce()]),
    lambda s, L: L.stack([s, s], 1), lambda s, L: s.coalesce()[1],
]


@pytest.mark.parametrize("case", SHAPE_CASES)
def test_shape_ops(case):
    m, t = coo()
    r, e = case(m, mindtorch), case(t, torch)
    if e.layout == torch.sparse_coo:
        assert_sparse_same(r, e)
    else:
        assert_same(r, e)


def test_hybrid_shape_ops():
    vals = np.arange(10.0).reshape(5, 2)
    idx = [[0, 1, 1, 3, 0]]
    m = mindtorch.sparse_coo_tensor(idx, mindtorch.tensor(vals), (4, 2))
    t = torch.sparse_coo_tensor(idx, torch.tensor(vals), (4, 2))
    assert_same(m[0], t[0])  # (the only sparse dim selected: dense, duplicates summed)
    assert_sparse_same(m[:, 1], t[:, 1])
    assert_sparse_same(m.select(1, 0), t.select(1, 0))
    assert_sparse_same(m.unsqueeze(2), t.unsqueeze(2))


def test_linear_and_refusals():
    m, t = coo()
    wm, wt = dense((2, 3))
    assert_same(mindtorch.nn.functional.linear(m, wm, mindtorch.ones(2)),
                torch.nn.functional.linear(t, wt, torch.ones(2)))
    xm, xt = dense((5, 3))
    assert_same(mindtorch.nn.functional.linear(xm, m), torch.nn.functional.linear(xt, t))
    refusals = [lambda s, L: s.reshape(12), lambda s, L: s.flatten(),
                lambda s, L: s.expand(2, 4, 3), lambda s, L: s.contiguous(),
                lambda s, L: s / L.ones(4, 3), lambda s, L: s.abs_(), lambda s, L: s[5],
                lambda s, L: s.permute(0, 1, 2), lambda s, L: s.select(0, 9)]
    for case in refusals:
        with pytest.raises(Exception) as expected:
            case(t, torch)
        with pytest.raises(type(expected.value)):
            case(m, mindtorch)


def test_grads_through_csr_and_to_sparse():
    x = np.arange(6.0).reshape(3, 2)
    for f in (lambda c, L: L.sparse.mm(c, L.tensor(x)), lambda c, L: L.mm(c, L.tensor(x))):
        res = []
        for lib in (mindtorch, torch):
            c = lib.tensor(DENSE).to_sparse_csr().requires_grad_()
            (f(c, lib) ** 2).sum().backward()
            res.append(c.grad)
        assert str(res[0].layout) == str(res[1].layout)
        assert_same(res[0].to_dense(), res[1].to_dense())
    for f in (lambda d, L: (d.to_sparse() * 3).to_dense().sum(),
              lambda d, L: L.sparse.mm(d.to_sparse(), L.tensor(x)).sum(),
              lambda d, L: L.sparse.sum(d.to_sparse_csr().to_sparse())):
        res = []
        for lib in (mindtorch, torch):
            d = lib.tensor(DENSE, requires_grad=True)
            f(d, lib).backward()
            res.append(d.grad)
        assert_same(*res)


@pytest.mark.parametrize("case", [lambda s, L: s.sqrt(), lambda s, L: s.relu(),
                                  lambda s, L: s.abs(), lambda s, L: s * 2, lambda s, L: s.t(),
                                  lambda s, L: s.sum(0), lambda s, L: s ** 2,
                                  lambda s, L: s.clone(), lambda s, L: s.double(),
                                  lambda s, L: s[0], lambda s, L: s * L.ones(4, 3)])
def test_backward_through_ops_on_sparse_leaves(case):
    """Gradients (or PyTorch's error class) through ops on a sparse leaf whose formulas
    read the sparse input or output."""
    out = []
    for lib in (mindtorch, torch):
        s = lib.sparse_coo_tensor([[0, 1, 1, 3], [2, 0, 2, 1]], [3.0, 4.0, 5.0, 0.5],
                                  (4, 3)).coalesce().requires_grad_()
        try:
            r = case(s, lib)
            (r.to_dense() if r.layout != lib.strided else r).pow(2).sum().backward()
            out.append((s.grad.layout, s.grad.to_dense()))
        except (RuntimeError, NotImplementedError) as e:
            out.append(type(e))
    if isinstance(out[1], type):
        assert out[0] is out[1] or issubclass(out[0], out[1])
    else:
        assert str(out[0][0]) == str(out[1][0])
        assert_same(out[0][1], out[1][1])


def test_node_names():
    names = []
    for lib in (mindtorch, torch):
        v = lib.tensor([1.0, 2.0], requires_grad=True)
        s = lib.sparse_coo_tensor([[0, 1]], v, (3,))
        d = lib.tensor([[0.0, 1.0], [2.0, 0.0]], requires_grad=True)
        outs = [s, s.to_dense(), s.coalesce(), s.coalesce().values(), d.to_sparse(),
                d.to_sparse(1), d.sparse_mask(d.to_sparse().detach()), s._values(), s * 2,
                lib.mm(s.unsqueeze(1).t().to_dense().to_sparse(), lib.ones(3, 2))]
        names.append([None if o.grad_fn is None else o.grad_fn.name() for o in outs])
    assert names[0] == names[1]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_products_edge_inputs(dtype):
    """Non-contiguous dense operands, no entries at all, empty dims, integer dtypes."""
    m, t = coo(dtype=dtype)
    dm, dt = dense((5, 3), "float64")
    dm, dt = dm.to(getattr(mindtorch, dtype)), dt.to(getattr(torch, dtype))
    assert_same(m @ dm.t(), t @ dt.t())  # (a transposed, non-contiguous operand)
    assert_same(m @ dm.t()[:, ::2], t @ dt.t()[:, ::2])
    em = mindtorch.sparse_coo_tensor(mindtorch.zeros(2, 0, dtype=mindtorch.int64),
                                     mindtorch.zeros(0, dtype=getattr(mindtorch, dtype)), (4, 3))
    et = torch.sparse_coo_tensor(torch.zeros(2, 0, dtype=torch.int64),
                                 torch.zeros(0, dtype=getattr(torch, dtype)), (4, 3))
    assert_same(em @ dm.t(), et @ dt.t())
    assert_same(em.to_dense(), et.to_dense())
    assert_sparse_same(em.coalesce(), et.coalesce())
    assert_same(m @ dm.t()[:, :0], t @ dt.t()[:, :0])
