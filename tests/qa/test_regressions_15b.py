"""Regression tests for QA round 15b (sparse tensors as programs use them), each against
torch."""
import warnings

import mindtorch
import numpy as np
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


def _hybrid(L):
    return L.sparse_coo_tensor(L.tensor([[0, 2, 0]]), L.tensor([[1., 2.], [3., 4.], [5, 6]]))


@pytest.mark.parametrize("expr", [
    "s.sum(1, keepdim=True)", "s.sum(0, keepdim=True)", "s.sum((0, 1), keepdim=True)",
    "s.sum_to_size(1, 4)", "s.sum_to_size(3, 1)", "h.sum(1, keepdim=True)",
    "h.sum(0, keepdim=True)", "s.to_sparse_csr().sum(1, keepdim=True)",
    "s.to_sparse_csr().sum(0, keepdim=True)", "s.sum(1, keepdim=True, dtype=L.float64)",
    "s.sum(1, keepdim=True)._indices()", "L.sum(s, 1, True)"])
def test_sparse_sum_keepdim(expr):
    _same_head(lambda L: eval(expr, {"L": L, "s": _coo(L), "h": _hybrid(L)}))


def test_sparse_sum_keepdim_gradient():
    def program(L):
        v = L.tensor([3., 4., 5., 6.], requires_grad=True)
        s = L.sparse_coo_tensor(L.tensor([[0, 1, 1, 0], [2, 0, 2, 2]]), v, (3, 4))
        r = s.sum(1, keepdim=True)
        (r.to_dense() * L.tensor([[1.], [2.], [3.]])).sum().backward()
        return r, v.grad
    _same_head(program)


@pytest.mark.parametrize("expr", [
    "s * L.ones(4)", "s * L.arange(3.).reshape(3, 1)", "s * L.ones(1, 4)", "L.arange(4) * s",
    "s * L.ones(5)", "c * L.ones(4)", "c + L.ones(3, 4)", "c + L.ones(4)",
    "c.add(L.ones(3, 4, dtype=L.float64), alpha=2)", "c - L.ones(3, 4)", "s + L.ones(3, 4)",
    "s + L.sparse_coo_tensor(L.tensor([[0]]), L.tensor([1.]), (3,))",
    "L.ones(3, 4) + L.sparse_coo_tensor(L.tensor([[0]]), L.tensor([1.]), (3,))",
    "(c + L.ones(4, 3).t()).stride()"])
def test_sparse_products_broadcast_and_csr_plus_dense(expr):
    _same_head(lambda L: eval(expr, {"L": L, "s": _coo(L), "c": _coo(L).to_sparse_csr()}))


def test_sparse_times_broadcast_dense_gradient():
    def program(L):
        w = L.tensor([[1.], [2.], [3.]], requires_grad=True)
        v = L.tensor([3., 4., 5., 6.], requires_grad=True)
        r = w * L.sparse_coo_tensor(L.tensor([[0, 1, 1, 0], [2, 0, 2, 2]]), v, (3, 4))
        L.sparse.sum(r).backward()
        return r, w.grad, v.grad
    _same_head(program)


_CSR = "L.sparse_csr_tensor(L.tensor({}), L.tensor({}), L.tensor({}), {}, check_invariants=True)"


@pytest.mark.parametrize("expr", [
    _CSR.format([0, 2, 1], [0, 1], [1., 2.], (2, 2)), _CSR.format([1, 1, 2], [0, 1], [1., 2.], (2, 2)),
    _CSR.format([0, 1, 2], [0, 5], [1., 2.], (2, 2)), _CSR.format([0, 1, 2], [0, -1], [1., 2.], (2, 2)),
    _CSR.format([0, 2, 2], [1, 0], [1., 2.], (2, 2)), _CSR.format([0, 2, 2], [1, 1], [1., 2.], (2, 2)),
    _CSR.format([0, 2, 1, 2], [0, 1], [1., 2.], (3, 2)), _CSR.format([0, 3, 2], [0, 1], [1., 2.], (2, 2)),
    _CSR.format([0, 3, 3, 2], [0, 1, 0], [1., 2., 3.], (3, 2)),
    _CSR.format([0, 1, 2], [0, 1], [1., 2., 3.], (2, 2)), _CSR.format([0, 1], [0, 1], [1., 2.], (2, 2)),
    _CSR.format([0, 1, 3], [0, 1], [1., 2.], (2, 2)), _CSR.format([0, 1, 2], [1, 0], [1., 2.], (2, 2)),
    "L.sparse_coo_tensor(L.tensor([[0, -1], [1, -2]]), L.tensor([1., 2.]))",
    "L.sparse_coo_tensor(L.tensor([[0, 1], [1, -2]]), L.tensor([1., 2.]))",
    ("L.sparse_coo_tensor(L.tensor([[0, -1], [1, -2]]), L.tensor([1., 2.]), (2, 2), "
     "check_invariants=True)"),
    "L.sparse_coo_tensor([[0, 1]], [1, 2], (3,), requires_grad=True)",
    ("L.sparse_csr_tensor(L.tensor([0, 1, 2]), L.tensor([0, 1]), L.tensor([1, 2]), "
     "requires_grad=True)"),
    "L.ones(2, 2).to_sparse().to_dense(dtype=L.float32)",
    "L.ones(2, 2).to_sparse_csr().to_dense(dtype=L.float64)",
    "L.ones(2, 2).to_sparse(3)", "L.ones(2, 2).to_sparse(-1)"])
def test_sparse_construction_checks(expr):
    _same_head(lambda L: eval(expr, {"L": L}))


def test_sparse_parameter_checkpoint_keeps_parameter_and_requires_grad():
    import io
    buf = io.BytesIO()
    mindtorch.save({"p": mindtorch.nn.Parameter(mindtorch.ones(2, 2).to_sparse())}, buf)
    for load in (lambda: torch.load(buf), lambda: mindtorch.load(buf),
                 lambda: mindtorch.load(buf, weights_only=True)):
        buf.seek(0)
        p = load()["p"]
        assert p.requires_grad and str(p.layout) == "torch.sparse_coo"
        assert "Parameter containing" in repr(p)


@pytest.mark.parametrize("foreach", [None, False])
def test_clip_grad_value_of_sparse_gradients(foreach):
    def program(L):
        emb = L.nn.Embedding(5, 2, sparse=True)
        emb(L.tensor([3, 1, 3])).sum().backward()
        L.nn.utils.clip_grad_value_(emb.parameters(), 0.5, foreach=foreach)
        return emb.weight.grad
    _same_head(program)


def test_clip_grad_value_dense_values():
    def program(L):
        p = L.nn.Parameter(L.zeros(5))
        p.grad = L.tensor([-2., -0.5, 0.1, float("inf"), float("nan")])
        L.nn.utils.clip_grad_value_([p], 0.4)
        return p.grad
    ours, theirs = same_errors(program)
    np.testing.assert_array_equal(ours[1].numpy(), theirs[1].numpy())


def _node_names(L, s_grad, csr=False):
    s = _coo(L).requires_grad_(s_grad)
    s = s.to_sparse_csr() if csr else s
    d = L.ones(4, 2, requires_grad=True)
    programs = (lambda: L.mm(s, d), lambda: L.sparse.mm(s, d), lambda: s @ d,
                lambda: L.addmm(L.ones(3, 2), s, d), lambda: L.sparse.addmm(L.ones(3, 2), s, d),
                lambda: L.sparse.sum(s, 1), lambda: L.sparse.sum(s),
                lambda: L.sparse.softmax(s, 1), lambda: L.sparse.log_softmax(s, 0))
    return [tagged_outcome(lambda f=f: type(f().grad_fn).__name__) for f in programs]


@pytest.mark.parametrize("s_grad, csr", [(False, False), (True, False), (False, True)])
def test_sparse_function_node_names(s_grad, csr):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = _node_names(mindtorch, s_grad, csr), _node_names(torch, s_grad, csr)
    assert [o[:1] for o in ours] == [t[:1] for t in theirs]
    assert [o[1] for o in ours if o[0] == "ok"] == [t[1] for t in theirs if t[0] == "ok"]


def test_sparse_mm_double_backward_and_freed_graph():
    def program(L):
        d = L.arange(8.).reshape(4, 2).requires_grad_()
        y = L.sparse.mm(_coo(L), d)
        (g,) = L.autograd.grad((y ** 2).sum(), d, create_graph=True)
        g.sum().backward()
        s = _coo(L).requires_grad_()
        z = L.sparse.mm(s, d)
        z.sum().backward(retain_graph=True)
        z.sum().backward()
        z.sum().backward()  # (freed by now)
    _same_head(program)
    _same_head(lambda L: [L.sparse.sum(y).backward() for y in [L.sparse.sum(
        _coo(L).requires_grad_(), 1)] * 2])


def test_sparse_softmax_then_mm_gradient():
    def program(L):
        v = L.tensor([3., 4., 5., 6.], requires_grad=True)
        s = L.sparse_coo_tensor(L.tensor([[0, 1, 1, 0], [2, 0, 2, 2]]), v, (3, 4))
        y = L.sparse.softmax(s, 1)
        z = L.sparse.mm(y, L.arange(8.).reshape(4, 2))
        z.sum().backward()
        return y, z, v.grad
    ours, theirs = _outcome(program, mindtorch), _outcome(program, torch)
    assert [x[:3] for x in ours] == [x[:3] for x in theirs]
    for x, y in zip(ours, theirs):  # (the softmax backward rounds differently: 1 ulp)
        np.testing.assert_allclose(x[3], y[3], rtol=1e-6)


def _batched(L):
    return L.sparse_coo_tensor(L.tensor([[0, 1, 1], [0, 1, 0], [1, 0, 2]]),
                               L.tensor([1., 2., 3.]), (2, 2, 3))


@pytest.mark.parametrize("wrt", ["dense", "sparse", "values"])
def test_sparse_bmm_and_its_gradients(wrt):
    def program(L):
        v = L.tensor([1., 2., 3.], requires_grad=wrt == "values")
        s = L.sparse_coo_tensor(L.tensor([[0, 1, 1], [0, 1, 0], [1, 0, 2]]), v, (2, 2, 3))
        s = s.requires_grad_() if wrt == "sparse" else s
        d = L.arange(12.).reshape(2, 3, 2).requires_grad_(wrt == "dense")
        y = L.bmm(s, d)
        (y * y).sum().backward()
        return y, {"dense": d, "sparse": s, "values": v}[wrt].grad
    _same_head(program)


@pytest.mark.parametrize("expr", [
    "L.bmm(s, L.ones(3, 3, 2))", "L.bmm(s, L.ones(2, 4, 2))", "L.bmm(s, L.ones(2, 3, 2).double())",
    "L.bmm(s, L.ones(3, 2))", "L.bmm(L.ones(2, 2, 2), s)", "L.bmm(s, s)",
    "L.bmm(s.int(), L.ones(2, 3, 2).int())", "s @ L.ones(2, 3, 2)", "s @ L.ones(3)",
    "s @ L.ones(3, 2)", "L.ones(2) @ s", "L.ones(5, 2, 2) @ s", "L.ones(3, 2, 3) @ s",
    "L.ones(2, 3).to_sparse() @ L.ones(2, 3, 2)", "L.ones(3).to_sparse() @ L.ones(3)",
    "L.ones(3).to_sparse() @ L.ones(3, 2)", "L.ones(4, 2, 3) @ L.ones(3, 2).to_sparse()",
    "L.ones(4, 2, 3) @ L.ones(3).to_sparse()", "L.ones(2, 3).to_sparse_csr() @ L.ones(2, 3, 2)",
    "L.arange(24.).reshape(2, 2, 2, 3) @ L.tensor([[1., 0.], [0., 2.], [3., 0.]]).to_sparse()"])
def test_batched_sparse_products(expr):
    _same_head(lambda L: eval(expr, {"L": L, "s": _batched(L)}))


@pytest.mark.parametrize("expr", [
    "repr(L.sparse_coo_tensor(L.tensor([[0, 1]]), L.tensor([1., 2.]), (3,), device='meta'))",
    "str(L.sparse_coo_tensor(L.tensor([[0, 1]]), L.tensor([1., 2.]), (3,), device='cpu').device)",
    "repr(L.ones(2, 2).to_sparse(0))", "repr(L.tensor(2.).to_sparse(0))",
    "repr(L.tensor(2.).to_sparse())", "repr(L.tensor(0.).to_sparse())", "L.ones(0, 3).to_sparse(1)",
    "L.ones(2, 0).to_sparse()", "L.ones(0, 3, 2).to_sparse(2)"])
def test_sparse_construction_device_and_sparse_dim_zero(expr):
    _same_head(lambda L: eval(expr, {"L": L}))


@pytest.mark.parametrize("expr", [
    "F.dropout(u, 0.5)", "F.dropout(u, 0.5, training=False)", "F.dropout(u, 0.0)",
    "L.dropout(u, 0.5, True)", "L.dropout(u, 0.5, False)", "L.nn.Dropout(0.3).eval()(u)",
    "L.nn.Dropout(0.3)(u)", "u.new_zeros(2)", "u.new_zeros((3, 4))", "u.new_empty(2)",
    "u.new_zeros(2, dtype=L.float64)", "u.new_zeros(2, requires_grad=True)",
    "u.new_full((2,), 1.)", "u.new_ones(2)", "u.new_tensor([1.])", "list(u)", "u.unbind(1)",
    "h.unbind(1)", "u.type_as(L.ones(1))", "u.type_as(u.double())",
    "u.type_as(u.to_sparse_csr())", "u.narrow_copy(1, 1, 2)", "c.narrow_copy(0, 1, 2)",
    "u.narrow_copy(0, -2, 2)", "u.narrow_copy(1, 3, 2)", "h.narrow_copy(1, 1, 1)",
    "h.narrow_copy(0, 0, 2)"])
def test_sparse_dropout_new_unbind_type_as_narrow_copy(expr):
    def program(L):
        u = _coo(L)
        r = eval(expr, {"L": L, "u": u, "c": u.coalesce(), "h": _hybrid(L),
                        "F": L.nn.functional})
        if getattr(r, "layout", None) is L.sparse_coo:
            return r, r.is_coalesced(), r._indices(), r._values(), r.requires_grad
        return r
    _same_head(program)


def _sample_pattern(L):
    return L.tensor([[0., 1., 0.], [2., 0., 3.]]).to_sparse_csr()


@pytest.mark.parametrize("wrt", ["dense", "input"])
def test_sparse_sampled_addmm(wrt):
    def program(L):
        inp = _sample_pattern(L).requires_grad_(wrt == "input")
        a = L.arange(8.).reshape(2, 4).requires_grad_(wrt == "dense")
        b = L.arange(12.).reshape(4, 3).requires_grad_(wrt == "dense")
        r = L.sparse.sampled_addmm(inp, a, b, beta=0.5, alpha=2.)
        (r.to_dense() * L.arange(6.).reshape(2, 3)).sum().backward()
        grads = (a.grad, b.grad) if wrt == "dense" else (inp.grad,)
        return (r, type(r.grad_fn).__name__, repr(r)) + grads
    _same_head(program)


@pytest.mark.parametrize("expr", [
    "S(inp.to_sparse(), a, b)", "S(inp, a, b.double())", "S(inp, a, b[:3])",
    "S(inp.to_dense(), a, b)", "S(inp, a.to_sparse_csr(), b)", "S(inp, a, b.to_sparse())",
    "S(inp, L.ones(2, 4), L.ones(4, 3), alpha=0)"])
def test_sparse_sampled_addmm_checks(expr):
    _same_head(lambda L: eval(expr, {
        "L": L, "S": L.sparse.sampled_addmm, "inp": _sample_pattern(L),
        "a": L.arange(8.).reshape(2, 4), "b": L.arange(12.).reshape(4, 3)}))


@pytest.mark.parametrize("expr", [
    "c == c", "c == 1", "c > 0", "c.exp()", "c.log()", "c.sigmoid()", "c.clamp(0, 1)",
    "c.clamp_min(0)", "c.maximum(c)", "c.pow(c)", "c.pow(2)", "L.where(L.ones(3, 4) > 0, c, c)",
    "c + 1", "c.stride()", "c.is_contiguous()", "c.select(0, 1)", "c[0]", "c[0, 2]", "list(c)",
    "c * 2", "c.neg()", "c.abs()"])
def test_csr_elementwise_refusals_and_selection(expr):
    def program(L):
        r = eval(expr, {"L": L, "c": _coo(L).to_sparse_csr()})
        if getattr(r, "layout", None) is L.sparse_coo:
            return r, r.is_coalesced(), r._indices()
        return r if not isinstance(r, list) else [(x, x.is_coalesced()) for x in r]
    _same_head(program)


@pytest.mark.parametrize("coalesced", [False, True])
def test_sparse_function_gradients_are_not_marked_coalesced(coalesced):
    def program(L):
        u = L.sparse_coo_tensor(L.tensor([[1, 0, 1, 0], [2, 0, 0, 2]]),
                                L.tensor([3., 4., 5., 6.]), (3, 4))
        s = (u.coalesce() if coalesced else u).detach().requires_grad_()
        flags = []
        for f in (lambda: L.sparse.mm(s, L.arange(8.).reshape(4, 2)).sum(),
                  lambda: L.sparse.sum(s, 1).to_dense().sum(), lambda: L.sparse.sum(s),
                  lambda: L.sparse.softmax(s, 1).to_dense().sum(),
                  lambda: L.sparse.addmm(L.ones(3, 2), s, L.ones(4, 2)).sum()):
            s.grad = None
            f().backward()
            flags.append((s.grad.is_coalesced(), s.grad._indices().tolist(),
                          s.grad._values().tolist()))
        return flags
    _same_head(program)


@pytest.mark.parametrize("expr", [
    "t3.to_sparse_csr()", "h.to_sparse_csr()",
    "L.sparse_coo_tensor(L.tensor([[0, 1]]), L.tensor([1., 2.]), (3,)).to_sparse_csr()",
    "s.squeeze()", "s.squeeze(0)", "s.unsqueeze(0).squeeze(0)", "s.repeat(2, 1)",
    "c.repeat(2, 1)", "c.expand(3, 4)", "s.expand(3, 4)"])
def test_sparse_shape_refusals(expr):
    _same_head(lambda L: eval(expr, {"L": L, "s": _coo(L), "t3": _batched(L), "h": _hybrid(L),
                                     "c": _coo(L).to_sparse_csr()}))


def test_csr_from_values_node_and_gradient():
    def program(L):
        v = L.tensor([1., 2., 3.], requires_grad=True)
        c = L.sparse_csr_tensor(L.tensor([0, 1, 3]), L.tensor([1, 0, 2]), v, (2, 3))
        coo = L.sparse_coo_tensor(L.tensor([[0, 1]]), v[:2], (3,))
        y = c @ L.arange(6.).reshape(3, 2)
        y.pow(2).sum().backward()
        return y, v.grad, type(c.grad_fn).__name__, type(coo.grad_fn).__name__
    _same_head(program)


def test_to_sparse_node_names():
    def program(L):
        d = L.ones(3, 4, requires_grad=True)
        return [type(f().grad_fn).__name__ for f in (
            d.to_sparse_csr, lambda: d.to_sparse(layout=L.sparse_csr), d.to_sparse,
            lambda: d.to_sparse(1), lambda: d.to_sparse().to_sparse_csr(),
            lambda: d.to_sparse_csr().to_sparse())]
    _same_head(program)


@pytest.mark.parametrize("expr", [
    "c.type()", "c.type(L.float64)", "c.type('torch.DoubleTensor')", "s.type()",
    "s.type('torch.DoubleTensor')", "s.type('torch.sparse.DoubleTensor')", "s.type('float')"])
def test_sparse_legacy_type(expr):
    _same_head(lambda L: eval(expr, {"L": L, "s": _coo(L), "c": _coo(L).to_sparse_csr()}))


@pytest.mark.parametrize("expr", [
    "c.fill_(2).to_dense()", "s.fill_(1)", "c.any()", "s.any()", "s.any(0)",
    "c.fill_(L.tensor(3.))", "c.zero_().values()"])
def test_sparse_fill_and_any(expr):
    _same_head(lambda L: eval(expr, {"L": L, "s": _coo(L), "c": _coo(L).to_sparse_csr()}))


@pytest.mark.parametrize("expr", [
    "s.sum_to_size(4)", "s.sum_to_size(1, 4)", "s.sum_to_size((3, 1))", "s.sum_to_size(3, 4)",
    "s.sum_to_size(2, 4)"])
def test_sparse_sum_to_size(expr):
    _same_head(lambda L: eval(expr, {"L": L, "s": _coo(L)}))
