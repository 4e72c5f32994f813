"""Regression tests for QA round 15b (sparse tensors as programs use them), each against
torch."""
import warnings

import mindtorch
import pytest
from reference import same_errors, tagged_outcome

torch = pytest.importorskip("torch")


def _coo(L, values=(3., 4., 5., 6.)):
    return L.sparse_coo_tensor(L.tensor([[0, 1, 1, 0], [2, 0, 2, 2]]), L.tensor(values), (3, 4))


def _plain(r):
    if isinstance(r, (tuple, list)):
        return tuple(_plain(x) for x in r)
    if hasattr(r, "layout"):
        d = r.detach()
        dense = d if str(r.layout).endswith("strided") else d.to_dense()
        return (str(r.layout), tuple(r.shape), str(r.dtype), dense.double().tolist())
    return r


def _same(program):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = same_errors(program)
    if ours[0] == "ok":
        assert _plain(ours[1]) == _plain(theirs[1])


def _outcome(program, L):
    """program(L)'s value, or its error class and message up to where PyTorch lists its
    dispatch keys."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kind, value = tagged_outcome(lambda: program(L))
    return _plain(value) if kind == "ok" else (kind, value.split(" This could")[0])


def _same_head(program):
    assert _outcome(program, mindtorch) == _outcome(program, torch)


@pytest.mark.parametrize("values", [[1, 2, 3, 4], [True, False, True, True], [1., 2., 3., 4.]])
@pytest.mark.parametrize("csr", [False, True])
def test_sparse_repr_omits_int64_and_bool_dtypes(values, csr):
    def program(L):
        s = L.sparse_coo_tensor(L.tensor([[0, 1, 2, 0], [2, 0, 2, 1]]), L.tensor(values), (3, 4))
        return repr(s.coalesce().to_sparse_csr() if csr else s)
    _same(program)


@pytest.mark.parametrize("expr", [
    "s == s", "s == 1", "s != s", "s > 0", "s < s", "s.mean()", "s.mean(0)", "s.std()",
    "s.var()", "s.sort()", "L.where(L.ones(3, 4) > 0, s, s)", "s.fill_(1)",
    "s.count_nonzero()", "s.softmax(1)", "s.log_softmax(1)", "F.softmax(s, 1)",
    "L.ones_like(s)", "L.full_like(s, 2)", "L.randn_like(s)", "s.pow(s)", "s.pow(2)"])
def test_unsupported_sparse_ops_name_the_aten_overload(expr):
    _same_head(lambda L: eval(expr, {"L": L, "s": _coo(L), "F": L.nn.functional}))


@pytest.mark.parametrize("expr", [
    "L.sparse.sum(s, 2)", "L.sparse.sum(s, -3)", "L.sparse.sum(s, (0, 0))",
    "L.sparse.sum(s, -1)", "L.sparse.softmax(s, 2)", "L.sparse.softmax(s, -1)",
    "L.sparse.log_softmax(s, -3)", "L.sparse.softmax(L.ones(2, 2), 1)",
    "L.sparse.log_softmax(L.ones(2), 0)", "L.sparse.softmax(s.to_sparse_csr(), 1)"])
def test_sparse_sum_and_softmax_dims_and_layouts(expr):
    _same_head(lambda L: eval(expr, {"L": L, "s": _coo(L)}))
