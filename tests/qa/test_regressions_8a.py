"""Regression tests for what QA round 8a (scientific and probabilistic programs) found,
each against torch."""
import warnings

import mindtorch
import numpy as np
import pytest
from mindtorch import _warn_once
from reference import same_errors

torch = pytest.importorskip("torch")

BOTH = (mindtorch, torch)


def _warnings(fn, lib):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        fn(lib)
    return [str(c.message) for c in w]


# deprecated linalg spellings: PyTorch warns once per process (TORCH_WARN_ONCE), at the caller
ONCE = {
    "torch.lu": (lambda L: L.lu(L.eye(2) * 2), "torch.lu is deprecated in favor of"),
    "torch.lu_solve": (lambda L: L.lu_solve(L.ones(2, 1), *L.linalg.lu_factor(L.eye(2) * 2)),
                       "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand"),
    "cholesky": (lambda L: L.cholesky(L.eye(2)), "torch.cholesky is deprecated in favor"),
    "cross dim": (lambda L: L.cross(L.ones(3, 3), L.ones(3, 3)),
                  "Using torch.cross without specifying the dim arg is deprecated."),
    "chain_matmul": (lambda L: L.chain_matmul(L.eye(2), L.eye(2)),
                     "torch.chain_matmul is deprecated and will be removed"),
    "nuclear_norm": (lambda L: L.nuclear_norm(L.eye(2)),
                     "at::nuclear_norm is deprecated and it is just left for JIT"),
    "frobenius_norm": (lambda L: L.frobenius_norm(L.eye(2), (0, 1)),
                       "at::frobenius_norm is deprecated and it is just left for JIT"),
}


@pytest.mark.parametrize("key", list(ONCE), ids=str)
def test_deprecated_linalg_warns_once(key):
    fn, text = ONCE[key]
    _warn_once._seen.discard(key)
    first, second = _warnings(fn, mindtorch), _warnings(fn, mindtorch)
    assert len(first) == 1 and first[0].startswith(text) and second == []
    torch.set_warn_always(True)  # (torch's own once-state may be spent by other tests)
    try:
        theirs = _warnings(fn, torch)
    finally:
        torch.set_warn_always(False)
    assert len(theirs) == 1 and theirs[0].split(" (Triggered internally")[0] == first[0]


def test_ger_does_not_warn():
    for L in BOTH:
        L.set_warn_always(True)
        try:
            assert _warnings(lambda L: L.ger(L.ones(2), L.ones(3)), L) == []
        finally:
            L.set_warn_always(False)


@pytest.mark.parametrize("bad", ["real", "empty", "hop"])
def test_istft_window_warning_comes_before_the_checks(bad):
    # PyTorch warns about the missing window first, then raises for the bad input
    def call(L):
        S = L.stft(L.ones(64), 16, window=L.hann_window(16), return_complex=True)
        args = {"real": (S.real, 16), "empty": (S[..., :0], 16), "hop": (S, 16, 40)}[bad]
        try:
            L.istft(*args)
        except RuntimeError as e:
            return str(e)
    for L in BOTH:
        L.set_warn_always(True)
    try:
        got = [(_warnings(call, L), call(L)) for L in BOTH]
    finally:
        for L in BOTH:
            L.set_warn_always(False)
    (mw, me), (tw, te) = got
    assert len(mw) == 1 and [w.split(" (Triggered")[0] for w in tw] == mw and me == te


@pytest.mark.parametrize("make", [
    lambda L: L.eye(2).to_sparse_csr(),
    lambda L: L.eye(2).to_sparse(layout=L.sparse_csr),
    lambda L: L.sparse_csr_tensor(L.tensor([0, 1, 2]), L.tensor([0, 1]), L.ones(2)),
    lambda L: L.sparse_compressed_tensor(L.tensor([0, 1, 2]), L.tensor([0, 1]), L.ones(2),
                                         layout=L.sparse_csr)])
def test_making_a_csr_tensor_warns_beta_once(make):
    def beta(lib):  # (constructors also warn about the sparse invariants, once)
        return [w.split(" (Triggered")[0] for w in _warnings(make, lib) if "beta" in w]
    _warn_once._seen.discard("sparse_csr beta")
    ours = beta(mindtorch)
    assert beta(mindtorch) == []
    torch.set_warn_always(True)
    try:
        theirs = beta(torch)
    finally:
        torch.set_warn_always(False)
    assert ours == theirs and len(ours) == 1


def test_distribution_sample_n_future_warning_at_the_caller():
    def run(L):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            s = L.distributions.Normal(L.zeros(2), L.ones(2)).sample_n(3)
        return tuple(s.shape), [(c.category, str(c.message), c.filename) for c in w]
    assert run(mindtorch) == run(torch) == ((3, 2), [(
        FutureWarning, "`sample_n(n)` will be deprecated. Use `sample((n,))` instead.",
        __file__)])


def test_broadcast_all_rejects_other_types_as_torch():
    def run(L):
        from importlib import import_module
        try:
            import_module(L.__name__ + ".distributions.utils").broadcast_all("a", L.ones(2))
        except ValueError as e:
            return str(e)
    assert run(mindtorch) == run(torch) is not None


def _sparse_parts(r):
    if getattr(r, "is_sparse", False):
        return (r._indices().tolist(), r._values().tolist(), tuple(r.shape), r.is_coalesced(),
                r.sparse_dim(), str(r.dtype))
    return r.tolist()


# torch's older sparse @ dense products: PyTorch's entries (rows of mat1 with entries, zeros
# kept, input's entries first, not coalesced) and errors
SPARSE_PRODUCTS = {
    "sspaddmm": lambda L, a, b: L.sspaddmm(b, a, L.ones(2, 4) * 2, beta=2, alpha=3),
    "sspaddmm method": lambda L, a, b: b.sspaddmm(a, L.ones(2, 4)),
    "saddmm": lambda L, a, b: L.saddmm(b, a, L.ones(2, 4)),
    "smm": lambda L, a, b: L.smm(a, L.arange(8.).view(2, 4)),
    "smm method": lambda L, a, b: a.smm(L.arange(8.).view(2, 4)),
    "hspmm": lambda L, a, b: L.hspmm(a, L.arange(6.).view(2, 3)),
    "hsmm": lambda L, a, b: L.hsmm(a, L.arange(6.).view(2, 3)),
    "dsmm": lambda L, a, b: L.dsmm(a, L.arange(6.).view(2, 3)),
    "sspaddmm shape": lambda L, a, b: L.sspaddmm(a, a, L.ones(2, 4)),
    "spdiags": lambda L, a, b: L.sparse.spdiags(L.tensor([[1., 0, 3, 4], [5, 6, 7, 8]]),
                                                L.tensor([1, -1]), (3, 4)),
    "spdiags vector": lambda L, a, b: L.sparse.spdiags(L.tensor([1., 0, 3]), L.tensor(0),
                                                       (3, 3)),
    "spdiags csr": lambda L, a, b: L.sparse.spdiags(
        L.tensor([[1., 2, 3], [4, 5, 6]]), L.tensor([0, 1]), (2, 3),
        layout=L.sparse_csr).to_dense(),
    "spdiags duplicate": lambda L, a, b: L.sparse.spdiags(L.ones(2, 3), L.tensor([0, 0]),
                                                          (3, 3)),
    "spdiags offsets 2d": lambda L, a, b: L.sparse.spdiags(L.ones(2, 3), L.tensor([[0, 1]]),
                                                           (3, 3)),
    "spdiags shape 3d": lambda L, a, b: L.sparse.spdiags(L.ones(2, 3), L.tensor([0, 1]),
                                                         (3, 3, 3)),
    "spdiags float offsets": lambda L, a, b: L.sparse.spdiags(L.ones(2, 3), L.tensor([0., 1.]),
                                                              (3, 3)),
    "spdiags strided": lambda L, a, b: L.sparse.spdiags(L.ones(2, 3), L.tensor([0, 1]), (3, 3),
                                                        layout=L.strided),
    "spdiags count": lambda L, a, b: L.sparse.spdiags(L.ones(2, 3), L.tensor([0]), (3, 3)),
    "spdiags 3d": lambda L, a, b: L.sparse.spdiags(L.ones(1, 2, 3), L.tensor([0]), (3, 3)),
}


@pytest.mark.parametrize("name", list(SPARSE_PRODUCTS), ids=str)
def test_old_sparse_products_and_spdiags(name):
    def run(L):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a = L.sparse_coo_tensor(L.tensor([[0, 1, 2], [1, 0, 1]]), L.tensor([1., 2., 3.]),
                                    (4, 2))
            b = L.sparse_coo_tensor(L.tensor([[0, 3, 2], [1, 0, 3]]), L.tensor([1., 2., 3.]),
                                    (4, 4))
            return _sparse_parts(SPARSE_PRODUCTS[name](L, a, b))
    ours, theirs = same_errors(run)
    assert ours == theirs


def test_sparse_products_errors_on_dense_input():
    for fn, err in [(lambda L: L.sspaddmm(L.ones(2, 2), L.eye(2).to_sparse(), L.ones(2, 2)),
                     RuntimeError),
                    (lambda L: L.hspmm(L.ones(2, 2), L.ones(2, 2)), NotImplementedError)]:
        for L in BOTH:
            with pytest.raises(err):
                fn(L)


def test_to_dlpack_at_the_top_level():
    cap = mindtorch.to_dlpack(mindtorch.arange(3.))
    assert torch.from_dlpack(cap).tolist() == [0., 1., 2.]
    assert mindtorch.to_dlpack is mindtorch.utils.dlpack.to_dlpack


@pytest.mark.parametrize("p", [1, -1, 1.0, -1.0, float("inf"), -float("inf"), "fro", "nuc"],
                         ids=repr)
def test_cond_of_a_non_square_matrix_names_ord_as_torch(p):
    # an int ord prints as an int, a float one with six decimals
    def run(L):
        L.linalg.cond(L.ones(3, 4), p)
    ours, _ = same_errors(run)
    assert ours[0] == "RuntimeError"


COO_ARGS = {  # sparse_coo_tensor(indices, values, size?): PyTorch's order of checks, casts
    "1d indices with size": ([0, 1], (2,), (3, 3)),
    "1d indices short size": ([0, 1], (2,), (3,)),
    "1d indices no size": ([0, 1], (2,), None),
    "size too long": ([[0, 1]], (2,), (3, 3)),
    "nnz mismatch": ([[0, 1]], (3,), (3,)),
    "dense dims mismatch": ([[0, 1]], (2, 2), (3,)),
    "3d indices": ([[[0, 0], [0, 0]], [[0, 0], [0, 0]]], (2,), (3, 3)),
    "float indices": ([[0.5, 1.0]], (2,), (3,)),
    "float indices no size": ([[0.0, 1.0]], (2,), None),
    "bool indices": ([[True, False]], (2,), (3,)),
    "0-d values": ([[0]], (), (3,)),
    "0-d values no size": ([[0]], (), None),
    "0-d values nnz 2": ([[0, 1]], (), None),
    "0-d indices": (0, (1,), (3,)),
    "0-d indices no size": (0, (1,), None),
}


@pytest.mark.parametrize("name", list(COO_ARGS), ids=str)
def test_sparse_coo_tensor_checks_as_torch(name):
    idx, vshape, size = COO_ARGS[name]

    def run(L):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            args = (L.tensor(idx), L.ones(vshape)) + ((size,) if size is not None else ())
            r = L.sparse_coo_tensor(*args)
        return r._indices().tolist(), r._values().tolist(), tuple(r.shape)
    ours, theirs = same_errors(run)
    assert ours == theirs


@pytest.mark.parametrize("a,b", [
    ((2, 5, 3), (5, 1)), ((2, 5, 3), (2, 5)), ((2, 5, 3), (1, 5)), ((2, 5, 3), (4, 2)),
    ((2, 5, 3), (2, 4)), ((5, 3), (4,)), ((1, 5, 3), (5, 2)), ((5, 5, 3), (5, 2)),
    ((2, 1, 5, 3), (2, 5, 2)), ((2, 5, 3), (3, 5, 2)), ((5, 3), (5,))], ids=str)
def test_lstsq_vector_case_and_batch_as_torch(a, b):
    # PyTorch's vector case is B of A's shape without its last dim; another B one dim short
    # of A is a matrix whose batch is read as B.shape[:-1]
    rng = np.random.default_rng(0)
    an, bn = rng.standard_normal(a), rng.standard_normal(b)

    def run(L):
        A, B = L.tensor(an, requires_grad=True), L.tensor(bn, requires_grad=True)
        x = L.linalg.lstsq(A, B).solution
        x.pow(2).sum().backward()
        return [t.detach().numpy() for t in (x, A.grad, B.grad)]
    ours, theirs = same_errors(run)
    if ours[0] == "ok":
        for m, t in zip(ours[1], theirs[1]):
            np.testing.assert_allclose(m, t, rtol=1e-9, atol=1e-10)


SOLVERS = {
    "solve": lambda L, A, B: L.linalg.solve(A, B),
    "solve_right": lambda L, A, B: L.linalg.solve(A, B, left=False),
    "lu_solve": lambda L, A, B: L.linalg.lu_solve(*L.linalg.lu_factor(A), B),
    "lu_solve_raw": lambda L, A, B: L.linalg.lu_solve(A, L.ones(A.shape[:-1], dtype=L.int32),
                                                      B),
    "lstsq": lambda L, A, B: L.linalg.lstsq(A, B).solution,
    "lstsq_rank": lambda L, A, B: L.linalg.lstsq(A, B, driver="gelsy").rank,
    "triangular_solve": lambda L, A, B: L.triangular_solve(B, A.triu())[0],
    "tensorsolve": lambda L, A, B: L.linalg.tensorsolve(A, B),
    "linalg.lu": lambda L, A, B: L.linalg.lu(A)[2],
    "lu_factor_ex": lambda L, A, B: L.linalg.lu_factor_ex(A)[0],
}
SHAPES = [((2, 3, 3), (4, 3, 1)), ((0, 3, 3), (2, 3, 2)), ((2, 3, 3), (0, 3, 2)),
          ((3, 4), (3,)), ((3, 4), (3, 2)), ((3,), (3, 2)), ((3, 3), (3, 0)),
          ((2, 3, 3), (1, 3)), ((2, 3, 3), (3,)), ((3, 3), (4, 2)), ((3, 3), (2, 3)),
          ((2, 3, 3), (3, 3, 2))]


@pytest.mark.parametrize("shapes", SHAPES, ids=str)
@pytest.mark.parametrize("name", list(SOLVERS), ids=str)
def test_linalg_solvers_shape_errors_as_torch(name, shapes):
    # the first failing check and its message (broadcast operands in PyTorch's order)
    a, b = shapes
    if name == "tensorsolve" and len(b) > len(a):
        pytest.skip("PyTorch fails with garbage (std::vector larger than max_size)")
    rng = np.random.default_rng(0)
    an = rng.standard_normal(a) + (3 * np.eye(a[-1]) if len(a) > 1 and a[-1] == a[-2] else 0)
    bn = rng.standard_normal(b)

    def run(L):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = SOLVERS[name](L, L.tensor(an), L.tensor(bn))
        return tuple(r.shape), r.double().sum().item()
    ours, theirs = same_errors(run)
    if ours[0] == "ok":
        assert ours[1][0] == theirs[1][0]
        assert ours[1][1] == pytest.approx(theirs[1][1], rel=1e-9, abs=1e-9)


EMPTY_DTYPE_CASES = {  # an empty input: PyTorch's kernel is not reached (or is, and refuses)
    "eigh int": lambda L: L.linalg.eigh(L.zeros(0, 0, dtype=L.int64)),
    "eigh bool batch": lambda L: L.linalg.eigh(L.zeros(2, 0, 0, dtype=L.bool)),
    "eigvalsh int": lambda L: L.linalg.eigvalsh(L.zeros(0, 3, 3, dtype=L.int64)),
    "eigh int nonempty": lambda L: L.linalg.eigh(L.eye(2, dtype=L.int64)),
    "eigh int non-square": lambda L: L.linalg.eigh(L.zeros(0, 3, dtype=L.int64)),
    "ldl_factor half empty": lambda L: L.linalg.ldl_factor(L.zeros(2, 0, 0, dtype=L.float16)),
    "ldl_factor half": lambda L: L.linalg.ldl_factor(L.eye(2, dtype=L.float16)),
    "cholesky_inverse half empty": lambda L: L.cholesky_inverse(
        L.zeros(0, 0, dtype=L.float16)),
    "cholesky_inverse bf16 empty batch": lambda L: L.cholesky_inverse(
        L.zeros(0, 3, 3, dtype=L.bfloat16)),
}


@pytest.mark.parametrize("name", list(EMPTY_DTYPE_CASES), ids=str)
def test_linalg_empty_inputs_of_other_dtypes_as_torch(name):
    def run(L):
        r = EMPTY_DTYPE_CASES[name](L)
        return [(tuple(t.shape), str(t.dtype).split(".")[-1]) for t in
                (r if isinstance(r, tuple) else (r,))]
    ours, theirs = same_errors(run)
    assert ours == theirs


@pytest.mark.parametrize("shape", [(0,), (2, 0), (3,)], ids=str)
@pytest.mark.parametrize("dtype", ["float64", "float32", "complex64", "int64"])
def test_fftn_over_no_dims_copies_even_an_empty_input(shape, dtype):
    def run(L):
        r = L.fft.fftn(L.ones(shape, dtype=getattr(L, dtype)), dim=())
        return tuple(r.shape), str(r.dtype).split(".")[-1], r.tolist()
    ours, theirs = same_errors(run)
    assert ours == theirs


@pytest.mark.parametrize("module", ["linalg", "special", "fft", "nn.functional", "signal",
                                    "signal.windows"])
def test_star_imports_bring_the_lazily_served_functions(module):
    # the namespaces serve their ops on first use; `from torch.special import *` must still
    # bring every public function (PyTorch's __all__, or its public names)
    import importlib
    ns = {}
    exec(f"from mindtorch.{module} import *", ns)  # noqa: S102 - a star import is the test
    ref = importlib.import_module(f"torch.{module}")
    names = getattr(ref, "__all__", None) or [n for n in dir(ref) if not n.startswith("_")]
    wanted = {n for n in names if callable(getattr(ref, n)) and not n[0].isupper()
              and getattr(getattr(ref, n), "__module__", "").startswith("torch")}
    wanted -= {"grouped_mm", "scaled_grouped_mm", "scaled_mm", "assert_int_or_pair",
               "boolean_dispatch"}  # (CUDA-only matmuls; helpers of PyTorch's own)
    assert (wanted or set(names)) <= set(ns)  # (torch.signal: just its windows module)


@pytest.mark.parametrize("op", [
    "digamma", "psi", "polygamma", "entr", "erfc", "erfcx", "erfinv", "gammaln", "i0", "i0e",
    "i1", "i1e", "log_ndtr", "ndtri", "bessel_j0", "zeta", "xlog1py"])
@pytest.mark.parametrize("dtype", ["complex64", "float16"])
def test_special_refusals_name_torch_kernels(op, dtype):
    def run(L):
        x = L.ones(3, dtype=getattr(L, dtype))
        f = getattr(L.special, op)
        r = f(2, x) if op == "polygamma" else f(x, x) if op in ("zeta", "xlog1py") else f(x)
        return str(r.dtype)
    same_errors(run)


@pytest.mark.parametrize("case", ["data nan", "data nan f64", "given nan", "data inf"])
def test_histc_non_finite_range_message_as_torch(case):
    def run(L):
        nan, inf = float("nan"), float("inf")
        args = {"data nan": (L.tensor([nan, 1.]), {}),
                "data nan f64": (L.tensor([1., nan], dtype=L.float64), {"min": 0, "max": 0}),
                "given nan": (L.tensor([1., 2.]), {"min": nan, "max": 1}),
                "data inf": (L.tensor([1., inf]), {})}[case]
        return L.histc(args[0], bins=3, **args[1]).tolist()
    ours, _ = same_errors(run)
    assert ours[0] == "RuntimeError"


@pytest.mark.parametrize("case", ["mvn", "lowrank", "lowrank-mvn", "mvn-lowrank", "td"])
def test_distribution_value_error_texts_as_torch(case):
    def run(L):
        D = L.distributions
        mvn = lambda n: D.MultivariateNormal(L.zeros(n), L.eye(n))
        low = lambda n: D.LowRankMultivariateNormal(L.zeros(n), L.ones(n, 1), L.ones(n))
        if case == "td":
            return D.TransformedDistribution(D.Normal(0., 1.),
                                             [D.transforms.StickBreakingTransform()])
        p, q = {"mvn": (mvn(3), mvn(2)), "lowrank": (low(3), low(2)),
                "lowrank-mvn": (low(3), mvn(2)), "mvn-lowrank": (mvn(3), low(2))}[case]
        return D.kl_divergence(p, q)
    ours, _ = same_errors(run)
    assert ours[0] == "ValueError"


@pytest.mark.parametrize("df", [3, 4.0, "int tensor", "int batch"])
def test_chi2_of_an_integer_df_has_a_float_rate(df):
    def run(L):
        d = {"int tensor": L.tensor(3), "int batch": L.tensor([1, 5])}.get(df, df)
        c = L.distributions.Chi2(d)
        L.manual_seed(1)
        s = c.sample((2,))
        return (str(c.rate.dtype), c.rate.tolist(), c.df.tolist(), s.tolist(),
                c.log_prob(s).tolist())
    ours, theirs = same_errors(run)
    assert ours[0] == "ok"
    np.testing.assert_allclose(np.array(ours[1][3]), np.array(theirs[1][3]), rtol=1e-6)
    assert ours[1][:3] == theirs[1][:3]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("case", ["no window", "half window", "float window", "long n_fft"])
def test_stft_of_half_precision_input_as_torch(dtype, case):
    def run(L):
        dt = getattr(L, dtype)
        x = L.ones(50, dtype=L.float32 if case == "half window" else dt)
        win = {"half window": L.ones(8, dtype=dt), "float window": L.ones(8)}.get(case)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = L.stft(x, 80 if case == "long n_fft" else 8, window=win, return_complex=True)
        return str(r.dtype), tuple(r.shape)
    ours, theirs = same_errors(run)
    assert ours == theirs


@pytest.mark.parametrize("case", ["random_ 5 2", "random_ 2 5", "random_ 5", "random_",
                                  "cauchy_ c64", "cauchy_ c128", "cauchy_ long"])
def test_random_fills_of_complex_tensors_fail_as_torch(case):
    def run(L):
        name, *args = case.split()
        dtype = {"c64": L.complex64, "c128": L.complex128, "long": L.int64}.get(
            args[0] if name == "cauchy_" else "", L.complex64)
        t = L.empty(3, dtype=dtype)
        getattr(t, name)(*([] if name == "cauchy_" else [int(a) for a in args]))
    same_errors(run)


@pytest.mark.parametrize("probs", [0.0, [0.5, 0.0, 0.0], [0.3]], ids=str)
def test_geometric_refuses_zero_probs_when_validating(probs):
    def run(L):
        return L.distributions.Geometric(L.tensor(probs), validate_args=True).probs.tolist()
    ours, theirs = same_errors(run)
    assert ours == theirs


@pytest.mark.parametrize("p", [float("inf"), 0.5, 1.0, 2.0, 3.0])
def test_cdist_gradient_at_ties_and_coincident_points_as_torch(p):
    # PyTorch's cdist backward for p = inf sends the gradient to every tied component
    grads = []
    for L in BOTH:
        x = L.tensor([[0., 0.], [0., 0.], [1., 1.], [2., -0.5]], dtype=L.float64,
                     requires_grad=True)
        y = L.tensor([[1., 1.], [0., 3.]], dtype=L.float64, requires_grad=True)
        r = L.cdist(x, y, p=p) + L.cdist(x, x, p=p).sum(-1, keepdim=True)
        grads.append([g.tolist() for g in L.autograd.grad((r * r).sum(), [x, y])])
    np.testing.assert_allclose(np.array(grads[0][0]), np.array(grads[1][0]), rtol=1e-12)
    np.testing.assert_allclose(np.array(grads[0][1]), np.array(grads[1][1]), rtol=1e-12)


@pytest.mark.parametrize("p,dim,maxnorm", [(2, 0, 1.0), (1, 1, 0.5), (3, -1, 2.0), (0.5, 0, 1.0)])
def test_renorm_gradient_with_a_zero_slice_as_torch(p, dim, maxnorm):
    # the slices left alone pass their gradient through (no NaN from a zero slice's norm)
    rng = np.random.default_rng(0)
    xn = rng.standard_normal((3, 4))
    xn[1] = 0
    out = []
    for L in BOTH:
        x = L.tensor(xn, requires_grad=True)
        y = L.renorm(x, p, dim, maxnorm)
        g = L.autograd.grad((y * L.arange(12., dtype=L.float64).view(3, 4)).sum(), x)[0]
        out.append((y.detach().numpy(), g.numpy()))
    for m, t in zip(*out):
        np.testing.assert_allclose(m, t, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("randomness", ["error", "same", "different", "bogus"])
@pytest.mark.parametrize("fn", ["randn", "dropout", "dropout eval", "normal_", "rand_like"])
def test_vmap_randomness_modes_as_torch(randomness, fn):
    def run(L):
        f = {"randn": lambda v: v + L.randn(3, dtype=L.float64),
             "dropout": lambda v: L.nn.functional.dropout(v, 0.5),
             "dropout eval": lambda v: L.nn.functional.dropout(v, 0.5, training=False),
             "normal_": lambda v: v.clone().normal_(),
             "rand_like": lambda v: L.rand_like(v)}[fn]
        L.manual_seed(7)
        r = L.func.vmap(f, randomness=randomness)(L.arange(12., dtype=L.float64).view(4, 3))
        return r.tolist(), L.rand(2, dtype=L.float64).tolist()  # (and the stream after)
    ours, theirs = same_errors(run)
    assert ours == theirs


@pytest.mark.parametrize("case", ["svd U real", "svd Vh imag", "svd U abs", "eigh V real",
                                  "eigh V abs", "eig V real", "eig real input V real"])
def test_phase_dependent_losses_of_complex_vectors_refused_as_torch(case):
    rng = np.random.default_rng(0)
    an = rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3))

    def run(L):
        A = L.tensor(an if "real input" not in case else an.real, requires_grad=True)
        if case.startswith("svd"):
            v = L.linalg.svd(A)[0 if " U " in case else 2]
        elif case.startswith("eigh"):
            A2 = A @ A.mH
            v = L.linalg.eigh(A2)[1]
        else:
            v = L.linalg.eig(A)[1]
        loss = (v.abs() if case.endswith("abs") else v.imag if "imag" in case else v.real).sum()
        return tuple(L.autograd.grad(loss, A)[0].shape)
    ours, theirs = same_errors(run)
    assert ours == theirs
