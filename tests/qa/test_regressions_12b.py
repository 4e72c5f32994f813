"""Regression tests for QA round 12b (torch.linalg and indexing), each against torch."""
import mindtorch
import numpy as np
import pytest
from reference import same_errors

torch = pytest.importorskip("torch")


def _assert_close(ours, theirs):
    """Same structure, dtypes, shapes and values (tensors of either library)."""
    if isinstance(theirs, (tuple, list)):
        assert len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            _assert_close(a, b)
    elif hasattr(theirs, "detach"):
        assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
        assert tuple(ours.shape) == tuple(theirs.shape)
        np.testing.assert_allclose(np.asarray(ours.detach().tolist(), complex),
                                   np.asarray(theirs.detach().tolist(), complex),
                                   rtol=1e-6, atol=1e-9)
    else:
        assert ours == theirs


def _same(program):
    ours, theirs = same_errors(program)
    if ours[0] == "ok":
        _assert_close(ours[1], theirs[1])


def _singular(L, batched=False):
    z = L.zeros(3, 3)
    return L.stack([L.eye(3), z]) if batched else z


def _not_pd(L, batched=False):
    a = L.tensor([[1., 2.], [2., 1.]])
    return L.stack([a, a]) if batched else a


# -- linalg errors are named after the function the user called (PyTorch's
#    _linalg_check_errors), with the batch element of the first failure ------------------

@pytest.mark.parametrize("batched", [False, True])
@pytest.mark.parametrize("call", [
    lambda L, b: L.linalg.inv(_singular(L, b)),
    lambda L, b: L.inverse(_singular(L, b)),
    lambda L, b: L.linalg.inv_ex(_singular(L, b), check_errors=True),
    lambda L, b: L.linalg.solve(_singular(L, b), L.ones(3)),
    lambda L, b: L.linalg.solve_ex(_singular(L, b), L.ones(3), check_errors=True),
    lambda L, b: L.linalg.lu_factor(_singular(L, b)),
    lambda L, b: L.linalg.lu_factor_ex(_singular(L, b), check_errors=True),
    lambda L, b: L.linalg.matrix_power(_singular(L, b), -1),
    lambda L, b: L.linalg.cholesky(_not_pd(L, b)),
    lambda L, b: L.cholesky(_not_pd(L, b)),
    lambda L, b: L.linalg.cholesky_ex(_not_pd(L, b), check_errors=True),
])
def test_linalg_error_names(call, batched):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(lambda L: call(L, batched))


def test_tensorinv_of_singular_names_inv():
    _same(lambda L: L.linalg.tensorinv(L.zeros(3, 3), ind=1))


@pytest.mark.parametrize("get_infos", [False, True])
def test_torch_lu_factors_singular_matrices_without_error(get_infos):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(lambda L: L.lu(_singular(L, True), get_infos=get_infos))


@pytest.mark.parametrize("kwargs", [{"dim": (0, 0)}, {"dim": (1, -1)}, {"dtype": "float32"},
                                    {"dtype": "int64"}, {"dtype": "complex128"},
                                    {"dtype": "float64", "ord": 1}])
def test_matrix_norm_checks_name_matrix_norm(kwargs):
    def program(L):
        kw = dict(kwargs)
        if "dtype" in kw:
            kw["dtype"] = getattr(L, kw["dtype"])
        return L.linalg.matrix_norm(L.ones(3, 3, dtype=L.float64), **kw)
    _same(program)


@pytest.mark.parametrize("tensors", [[], [("float64", (2, 3)), ("float32", (3, 2))],
                                     [("int64", (2, 2)), ("float16", (2, 2))],
                                     [("complex64", (2, 2)), ("bfloat16", (2, 2))]])
def test_multi_dot_count_and_dtype_errors(tensors):
    _same(lambda L: L.linalg.multi_dot([L.ones(s, dtype=getattr(L, d)) for d, s in tensors]))


@pytest.mark.parametrize("args", [("ij",), ("ij", []), ()])
def test_einsum_without_operands(args):
    _same(lambda L: L.einsum(*args))


# -- indexing ------------------------------------------------------------------------------

@pytest.mark.parametrize("index", [lambda: np.bool_(True), lambda: (0, np.bool_(False)),
                                   lambda: (Ellipsis, np.bool_(True))])
def test_numpy_bool_scalar_is_not_an_index(index):
    _same(lambda L: L.zeros(3, 4)[index()])

    def write(L):
        x = L.zeros(3, 4)
        x[index()] = 1.0
        return x
    _same(write)


def test_list_of_numpy_bools_is_still_a_mask():
    _same(lambda L: L.arange(3.)[[True, np.bool_(False), True]])


@pytest.mark.parametrize("call", [
    lambda L: L.zeros(0).take(L.tensor([0])),
    lambda L: L.zeros(0, 3).take(L.tensor([[5]])),
    lambda L: L.zeros(0).take(L.tensor([], dtype=L.int64)),
    lambda L: L.zeros(0).put_(L.tensor([0]), L.ones(1)),
    lambda L: L.zeros(0).put(L.tensor([0]), L.ones(1), accumulate=True),
    lambda L: L.zeros(0).put_(L.tensor([], dtype=L.int64), L.ones(0)),
])
def test_take_and_put_on_empty_tensors(call):
    _same(call)


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
def test_scatter_reduce_refuses_complex_autograd(reduce):
    def program(L):
        x = L.ones(3, 4, dtype=L.complex128, requires_grad=True)
        s = L.ones(2, 4, dtype=L.complex128, requires_grad=True)
        return x.scatter_reduce(0, L.tensor([[0, 1, 2, 0], [0, 0, 1, 1]]), s, reduce)
    _same(program)


def test_scatter_reduce_in_place_on_complex_still_records():
    def program(L):
        x = L.ones(2, 3, dtype=L.complex64, requires_grad=True) * 1
        s = L.ones(1, 2, dtype=L.complex64, requires_grad=True)
        return x.scatter_reduce_(1, L.tensor([[0, 0]]), s, "sum").detach()
    _same(program)


@pytest.mark.parametrize("reduce", ["add", "multiply"])
@pytest.mark.parametrize("src", ["tensor", "value"])
def test_scatter_with_reduce_has_no_derivative(reduce, src):
    def program(L):
        import warnings
        x = L.ones(2, 3, requires_grad=True)
        s = L.ones(1, 2, requires_grad=True) if src == "tensor" else 2.0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y = x.scatter(1, L.tensor([[0, 0]]), s, reduce=reduce)
        y.sum().backward()
    _same(program)


# -- LAPACK-backed results are column-major matrices, as PyTorch's ----------------------

def _strides(r):
    return tuple(_strides(x) for x in r) if isinstance(r, (tuple, list)) else \
        (tuple(r.shape), r.stride())


def _square(L, batch):
    g = np.random.default_rng(0)
    return L.tensor(g.standard_normal(batch + (3, 3)) + 3 * np.eye(3))


@pytest.mark.parametrize("batch", [(), (2,)])
@pytest.mark.parametrize("call", [
    lambda L, A: L.linalg.inv(A), lambda L, A: L.linalg.inv_ex(A),
    lambda L, A: L.linalg.cholesky(A @ A.mT), lambda L, A: L.linalg.cholesky(A @ A.mT, upper=True),
    lambda L, A: L.linalg.qr(A), lambda L, A: L.linalg.qr(A, mode="r"),
    lambda L, A: L.linalg.svd(A), lambda L, A: L.svd(A), lambda L, A: L.linalg.eigh(A),
    lambda L, A: L.linalg.eig(A), lambda L, A: L.linalg.lu_factor(A), lambda L, A: L.linalg.lu(A),
    lambda L, A: L.linalg.solve(A, A), lambda L, A: L.linalg.solve(A, A, left=False),
    lambda L, A: L.linalg.solve(A, A[..., 0]),
    lambda L, A: L.linalg.solve_triangular(A.triu(), A, upper=True),
    lambda L, A: L.linalg.solve_triangular(A.triu(), A, upper=True, left=False),
    lambda L, A: L.linalg.lu_solve(*L.linalg.lu_factor(A), A),
    lambda L, A: L.linalg.lu_solve(*L.linalg.lu_factor(A), A, left=False),
    lambda L, A: L.linalg.lu_solve(*L.linalg.lu_factor(A), A, adjoint=True),
    lambda L, A: L.cholesky_solve(A, A.tril()), lambda L, A: L.cholesky_inverse(A.tril()),
    lambda L, A: L.triangular_solve(A, A.triu()), lambda L, A: L.linalg.lstsq(A, A).solution,
    lambda L, A: L.linalg.householder_product(A, A[..., 0, :2]),
    lambda L, A: L.linalg.ldl_factor(A + A.mT), lambda L, A: L.geqrf(A),
    lambda L, A: L.linalg.matrix_power(A, -1), lambda L, A: L.linalg.pinv(A),
    lambda L, A: L.linalg.matrix_exp(A),
])
def test_lapack_result_layouts(call, batch):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _strides(call(mindtorch, _square(mindtorch, batch))) == \
            _strides(call(torch, _square(torch, batch)))


# -- out= ----------------------------------------------------------------------------------

def _eye64(L):
    return L.eye(3, dtype=L.float64)


@pytest.mark.parametrize("call", [
    lambda L, o: L.linalg.matrix_exp(_eye64(L), out=o), lambda L, o: L.det(_eye64(L), out=o),
    lambda L, o: L.logdet(_eye64(L), out=o), lambda L, o: L.dist(_eye64(L), _eye64(L), out=o),
    lambda L, o: L.linalg.inv(_eye64(L), out=o), lambda L, o: L.linalg.det(_eye64(L), out=o),
    lambda L, o: L.linalg.solve(_eye64(L), _eye64(L), out=o),
    lambda L, o: L.linalg.matrix_norm(_eye64(L), out=o),
    lambda L, o: L.linalg.norm(_eye64(L), out=o), lambda L, o: L.linalg.norm(_eye64(L), 2, out=o),
    lambda L, o: L.linalg.vector_norm(_eye64(L), out=o),
    lambda L, o: L.linalg.vecdot(_eye64(L), _eye64(L), out=o),
    lambda L, o: L.linalg.eigvals(_eye64(L), out=o),
    lambda L, o: L.linalg.cross(_eye64(L), _eye64(L), out=o),
    lambda L, o: L.mv(_eye64(L), _eye64(L)[0], out=o),
    lambda L, o: L.matmul(_eye64(L), _eye64(L)[0], out=o),
    lambda L, o: L.matmul(_eye64(L).expand(2, 3, 3), _eye64(L)[0], out=o),
    lambda L, o: L.index_copy(_eye64(L), 0, L.tensor([1]), _eye64(L)[:1], out=o),
    lambda L, o: L.index_add(_eye64(L), 0, L.tensor([1]), _eye64(L)[:1], out=o),
])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "complex64", "complex128"])
def test_out_dtypes_and_messages(call, dtype):
    def program(L):
        out = L.empty(0, dtype=getattr(L, dtype))
        r = call(L, out)
        return r, out
    _same(program)


@pytest.mark.parametrize("call", [
    lambda L: L.zeros(4).index_put_((L.tensor([2], dtype=L.int32), L.tensor([250], dtype=L.uint8)),
                                    L.tensor(1.), accumulate=True),
    lambda L: L.zeros(4).index_put_((L.tensor([2.]), L.tensor([2])), L.tensor(1.)),
    lambda L: L.zeros(4, 3).index_put_((L.tensor([1]), L.tensor([1, 0], dtype=L.bool)),
                                       L.tensor(1.), accumulate=True),
])
def test_index_put_counts_indices_first(call):
    _same(call)


def test_bool_index_reduce_mean_and_baddbmm_refusals():
    _same(lambda L: L.ones(3, 4, dtype=L.bool).index_reduce(0, L.tensor([0, 0]),
                                                            L.ones(2, 4, dtype=L.bool), "mean"))
    _same(lambda L: L.ones(4, dtype=L.bool).index_reduce(0, L.tensor([0, 0]),
                                                         L.ones(2, dtype=L.bool), "mean"))
    _same(lambda L: L.baddbmm(L.ones(1, 2, 2, dtype=L.bool), L.ones(1, 2, 3, dtype=L.bool),
                              L.ones(1, 3, 2, dtype=L.bool)))


@pytest.mark.parametrize("dtype", ["bool", "bfloat16", "complex64", "float32", "int64"])
def test_modified_saved_tensor_names_its_type(dtype):
    def program(L):
        dt = getattr(L, dtype)
        if dt.is_floating_point or dt.is_complex:
            w = L.ones(2, dtype=dt, requires_grad=True) * 1
            z = (w * w).sum()
            w.add_(1)
            (z.abs() if dt.is_complex else z).backward()
        elif dt is L.bool:
            x = L.ones(2, dtype=L.float64, requires_grad=True)
            m = L.tensor([True, False])
            z = x.masked_fill(m, 0.0)
            m.fill_(False)
            (z * z).sum().backward()
        else:
            x = L.ones(3, dtype=L.float64, requires_grad=True)
            i = L.tensor([0, 1])
            z = x.index_select(0, i)
            i.add_(1)
            (z * z).sum().backward()
    _same(program)


@pytest.mark.parametrize("equation", ["i.j", "..", "i.,j", "i......", "...i...", "ij->..",
                                      "ij->i.", "...ij->...ij...", "i...,j...->ij..."])
def test_einsum_dots_outside_an_ellipsis(equation):
    n = equation.split("->")[0].count(",") + 1
    _same(lambda L: L.einsum(equation, *[L.ones(2, 3)] * n))


@pytest.mark.parametrize("call", [
    lambda L: L.eye(3).eig(), lambda L: L.eye(3).lstsq(L.eye(3)), lambda L: L.eye(3).solve(L.eye(3)),
    lambda L: L.eye(3).symeig(), lambda L: L.eig(L.eye(3)), lambda L: L.lstsq(L.eye(3), L.eye(3)),
    lambda L: L.solve(L.eye(3), L.eye(3)), lambda L: L.symeig(L.eye(3)),
    lambda L: L.matrix_rank(L.eye(3)),
])
def test_removed_linalg_functions_full_messages(call):
    _same(call)


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (2, 0, 3), (2, 3, 0)])
@pytest.mark.parametrize("ord", [-1, -2, -float("inf"), 1, 2, float("inf"), "nuc"])
@pytest.mark.parametrize("dim", [(-2, -1), (-1, -2), (1, 0)])
@pytest.mark.parametrize("keepdim", [False, True])
def test_matrix_norm_of_empty_matrices(shape, ord, dim, keepdim):
    _same(lambda L: L.linalg.matrix_norm(L.zeros(shape), ord, dim=dim, keepdim=keepdim))


@pytest.mark.parametrize("shapes", [((5, 3), (5, 2)), ((3, 5), (3, 2)), ((2, 5, 3), (2, 5, 1)),
                                    ((4, 4), (4,))])
def test_lstsq_gels_is_lapack_gels(shapes):
    g = np.random.default_rng(0)
    a, b = (g.standard_normal(s) for s in shapes)

    def program(L):
        return L.linalg.lstsq(L.tensor(a), L.tensor(b), driver="gels")
    _same(program)


def test_lstsq_gels_refuses_an_exactly_rank_deficient_matrix():
    a = np.array([[1., 0., 0.], [0., 1., 0.], [0., 0., 0.], [1., 1., 0.]])
    _same(lambda L: L.linalg.lstsq(L.tensor(a), L.ones(4, 1, dtype=L.float64), driver="gels"))
    _same(lambda L: L.linalg.lstsq(L.tensor(np.stack([a + np.eye(4, 3), a])),
                                   L.ones(2, 4, 1, dtype=L.float64), driver="gels"))


@pytest.mark.parametrize("call", [
    lambda L, o: L.add(L.arange(12.).reshape(3, 4).t(), 1, out=o),
    lambda L, o: L.exp(L.arange(12.).reshape(3, 4).t(), out=o),
    lambda L, o: L.neg(L.arange(12.).reshape(3, 4).t()[None].expand(2, 4, 3), out=o),
    lambda L, o: L.linalg.inv(L.eye(3) + 0.1, out=o),
    lambda L, o: L.linalg.solve(L.eye(3) + 0.1, L.ones(3, 2), out=o),
    lambda L, o: L.linalg.cholesky(L.eye(3) * 2, out=o),
    lambda L, o: L.mm(L.ones(3, 2), L.ones(2, 4), out=o),
    lambda L, o: L.sum(L.arange(12.).reshape(3, 4).t(), 0, keepdim=True, out=o),
])
@pytest.mark.parametrize("init", [(0,), (2, 2)])
def test_resized_out_takes_the_result_layout(call, init):
    import warnings

    def program(L):
        out = L.empty(init)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call(L, out)
        return out, out.stride()
    _same(program)


def test_out_of_the_right_shape_keeps_its_strides():
    def program(L):
        out = L.empty(3, 4)
        L.add(L.arange(12.).reshape(4, 3).t(), 1, out=out)
        return out, out.stride()
    _same(program)


def _cube(L):
    return L.arange(24.).reshape(2, 3, 4)


@pytest.mark.parametrize("index", [
    lambda L: L.Size([1]), lambda L: L.Size([1, 2]),
    lambda L: __import__("collections").namedtuple("NT", "a b")(1, slice(None)),
    lambda L: np.array([1, 0], np.uint8), lambda L: [np.uint8(1), np.uint8(0)],
    lambda L: np.ones((2, 3), np.uint8), lambda L: np.array([1, 0], np.int8),
])
def test_tuple_subclasses_and_numpy_byte_masks_as_indices(index):
    import warnings

    def read(L):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _cube(L)[index(L)]

    def write(L):
        x = _cube(L)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            x[index(L)] = -1.0
        return x
    _same(read)
    _same(write)


@pytest.mark.parametrize("case", [
    ((2, 3, 4), lambda L: (slice(None, None, 2), L.tensor([True, True, True]), slice(2, None))),
    ((3, 4), lambda L: (Ellipsis, None, L.tensor([-3, 1]), slice(None))),
    ((2, 3, 4), lambda L: (slice(0, 1), L.tensor([[1], [2]]), slice(None, None, 3))),
    ((2, 3, 4), lambda L: (None, L.tensor([[0]]), L.tensor([1, 2]), slice(None))),
])
def test_advanced_index_result_layout_of_permuted_input(case):
    shape, index = case

    def program(L):
        x = L.arange(float(np.prod(shape))).reshape(shape[::-1]).permute(
            *range(len(shape) - 1, -1, -1))
        r = x[index(L)]
        big = [s for n, s in zip(r.shape, r.stride()) if n > 1]  # (size-1 dims: any stride)
        return r, big
    _same(program)


@pytest.mark.parametrize("call", [
    lambda L, x: L.linalg.matrix_norm(x, 1), lambda L, x: L.linalg.matrix_norm(x, -1),
    lambda L, x: L.linalg.matrix_norm(x, float("inf"), keepdim=True),
    lambda L, x: L.linalg.norm(x, -float("inf")),
    lambda L, x: L.kron(x, x), lambda L, x: L.kron(x[0], x[0]),
    lambda L, x: L.linalg.multi_dot([x, x, x]), lambda L, x: L.linalg.multi_dot([x[0], x, x[0]]),
    lambda L, x: L.linalg.multi_dot([x, x[0]]), lambda L, x: L.chain_matmul(x, x, x),
])
def test_product_and_norm_nodes(call):
    import warnings

    def program(L):
        x = (L.eye(3, dtype=L.float64) * 2 + 0.1).requires_grad_()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y = call(L, x)
        y.sum().backward()
        return y, y.grad_fn.name(), y.stride(), x.grad
    _same(program)


@pytest.mark.parametrize("call", [
    lambda L, x, s: x.index_copy(0, L.tensor([2, 0]), s),
    lambda L, x, s: x.index_copy(0, L.tensor([1, 1]), s),
    lambda L, x, s: x.index_copy(1, L.tensor([3, 0]), s.reshape(4, 2)[:3]),
    lambda L, x, s: (x * 1).index_copy_(0, L.tensor([2, 0]), s),
    lambda L, x, s: x[0, 0].index_copy(0, L.tensor([0]), s[0, 0]),
    lambda L, x, s: x.index_copy(0, L.tensor(1), s[:1]),
])
def test_index_copy_node_and_gradients(call):
    """PyTorch's IndexCopyBackward0 node (the gradients, duplicates included, were already
    PyTorch's through the index_put decomposition)."""
    def program(L):
        x = L.arange(12., dtype=L.float64).reshape(3, 4).requires_grad_()
        s = (L.arange(8., dtype=L.float64).reshape(2, 4) * -1).requires_grad_()
        y = call(L, x, s)
        (y * L.arange(float(y.numel()), dtype=L.float64).reshape(y.shape)).sum().backward()
        return y, y.grad_fn.name(), x.grad, s.grad
    _same(program)


@pytest.mark.parametrize("call", [
    lambda L, x, s: x.put(L.tensor([0, 5, 11]), s),
    lambda L, x, s: x.put(L.tensor([0, 5, 5]), s, accumulate=True),
    lambda L, x, s: x.put(L.tensor([1, 1, -1]), s),
    lambda L, x, s: (x * 1).put_(L.tensor([0, 5, 11]), s),
    lambda L, x, s: (x * 1).put_(L.tensor([[0], [5], [5]]), s.reshape(3, 1), accumulate=True),
    lambda L, x, s: (x.t() * 1).put_(L.tensor([0, 5, 11]), s),
    lambda L, x, s: x[0, 0].put(L.tensor(0), s[0]),
])
def test_put_node_and_gradients(call):
    def program(L):
        x = L.arange(12., dtype=L.float64).reshape(3, 4).requires_grad_()
        s = (L.arange(3., dtype=L.float64) * -1).requires_grad_()
        y = call(L, x, s)
        (y * L.arange(float(y.numel()), dtype=L.float64).reshape(y.shape)).sum().backward()
        return y, y.grad_fn.name(), x.grad, s.grad
    _same(program)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
@pytest.mark.parametrize("call", [
    lambda L, x, s: x.masked_scatter(L.tensor([True, False, True, False]), s),
    lambda L, x, s: x[0].masked_scatter(L.tensor([[True, False, True, False]] * 3), s),
    lambda L, x, s: (x * 1).masked_scatter_(L.tensor([True, False, True, False]), s),
    lambda L, x, s: x.masked_scatter(L.zeros(3, 4, dtype=L.bool), s),
    lambda L, x, s: x.t().masked_scatter(L.tensor([True, False, True]), s),
    lambda L, x, s: (x * 1)[1:].masked_scatter_(L.tensor([True, False, True, False]), s),
])
def test_masked_scatter_node_and_gradients(call, dtype):
    def program(L):
        dt = getattr(L, dtype)
        x = L.arange(12., dtype=dt).reshape(3, 4).requires_grad_()
        s = (L.arange(15., dtype=dt).reshape(3, 5) * -1).requires_grad_()
        y = call(L, x, s)
        w = L.arange(float(y.numel()), dtype=L.float64).reshape(y.shape).to(dt)
        (y * w).sum().real.backward() if dt.is_complex else (y * w).sum().backward()
        return y, y.grad_fn.name(), x.grad, s.grad
    _same(program)


@pytest.mark.parametrize("reduce", ["prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("call", [
    lambda L, x, s, r, i: x.index_reduce(0, L.tensor([0, 0]), s, r, include_self=i),
    lambda L, x, s, r, i: x.index_reduce(1, L.tensor([1, 1, 3]), x[:, :3] * 2, r,
                                         include_self=i),
    lambda L, x, s, r, i: (x * 1).index_reduce_(0, L.tensor([1, 1]), s, r, include_self=i),
    lambda L, x, s, r, i: x[0].index_reduce(0, L.tensor([1, 1, 2]), s[0, :3], r,
                                            include_self=i),
    lambda L, x, s, r, i: x[0, 0].index_reduce(0, L.tensor([0]), s[0, 0], r, include_self=i),
])
def test_index_reduce_node_and_gradients(call, reduce, include_self):
    import warnings

    def program(L):
        x = (L.arange(12., dtype=L.float64).reshape(3, 4) - 4).requires_grad_()
        s = L.tensor([[1., 0., 2., -1.], [3., 3., -2., 0.5]], dtype=L.float64).requires_grad_()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y = call(L, x, s, reduce, include_self)
        (y * L.arange(float(y.numel()), dtype=L.float64).reshape(y.shape)).sum().backward()
        return y, y.grad_fn.name(), x.grad, s.grad
    _same(program)


@pytest.mark.parametrize("index", [
    lambda L: (slice(-3, None), None, L.tensor([False, False, False, True])),
    lambda L: (None, slice(None, None, 2), None, L.tensor([False, True, True, True])),
    lambda L: (slice(None), L.tensor([0, 2])),
])
def test_advanced_index_size1_strides(index):
    _same(lambda L: L.arange(12.).reshape(4, 3).t()[index(L)].stride())
