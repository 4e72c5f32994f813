"""Regression tests for QA round qa16c (recurrent networks, sequence utilities, embeddings,
CTC), each against torch."""
import numpy as np
import pytest
from reference import same_errors

torch = pytest.importorskip("torch")


def _plain(r):
    """A result as nested (container type name, ...) with tensors as float64 arrays, their
    dtype and shape."""
    if isinstance(r, (tuple, list)):
        return (type(r).__name__,) + tuple(_plain(x) for x in r)
    if isinstance(r, dict):
        return {k: _plain(v) for k, v in r.items()}
    if hasattr(r, "detach"):
        t = r.detach()
        return (np.asarray(t.double().tolist()), str(t.dtype).split(".")[-1], tuple(t.shape))
    return r


def _assert_close(a, b, tol):
    if isinstance(a, tuple) and a and isinstance(a[0], np.ndarray):
        np.testing.assert_allclose(a[0], b[0], rtol=tol, atol=tol)
        assert a[1:] == b[1:]
    elif isinstance(a, tuple):
        assert len(a) == len(b) and a[:1] == b[:1], (a, b)
        for x, y in zip(a[1:], b[1:]):
            _assert_close(x, y, tol)
    elif isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            _assert_close(a[k], b[k], tol)
    else:
        assert a == b


def _same(program, tol=1e-6):
    """program(lib) runs alike under both: same error, or results close to tol."""
    ours, theirs = same_errors(program)
    if ours[0] == "ok":
        _assert_close(_plain(ours[1]), _plain(theirs[1]), tol)


# -- EmbeddingBag ------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["sum", "mean"])
@pytest.mark.parametrize("two_d", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_embedding_bag_scale_grad_by_freq_divisor(mode, two_d, weighted):
    """PyTorch's cpu kernel divides the g-th distinct index's gradient by the count of the
    g-th sorted index (not always its own count)."""
    if weighted and mode == "mean":
        pytest.skip("per_sample_weights need mode='sum'")

    def program(L):
        w = L.arange(14.).reshape(7, 2).requires_grad_()
        if two_d:
            inp, offsets = L.tensor([[1, 2, 4], [5, 4, 3], [2, 6, 6]]), None
        else:
            inp, offsets = L.tensor([1, 2, 4, 5, 4, 3, 2, 6]), L.tensor([0, 3, 3, 6])
        psw = (L.arange(1., inp.numel() + 1) / 4).reshape(inp.shape) if weighted else None
        out = L.nn.functional.embedding_bag(inp, w, offsets, mode=mode, scale_grad_by_freq=True,
                                            per_sample_weights=psw)
        (out * L.arange(1., out.numel() + 1).reshape(out.shape)).sum().backward()
        return out, w.grad
    _same(program)


def test_embedding_bag_include_last_offset_single_offset_is_no_bag():
    def program(L):
        L.manual_seed(0)
        m = L.nn.EmbeddingBag(5, 2, include_last_offset=True, mode="mean")
        out = m(L.tensor([1, 2]), L.tensor([0]))
        out.sum().backward()
        return out, m.weight.grad
    _same(program)


@pytest.mark.parametrize("psw", ["double", "int64", "2d", "short"])
def test_embedding_bag_per_sample_weights_checks(psw):
    def program(L):
        w = L.ones(5, 2)
        weights = {"double": L.ones(2, dtype=L.float64), "int64": L.ones(2, dtype=L.long),
                   "2d": L.ones(1, 2), "short": L.ones(3)}[psw]
        return L.embedding_bag(w, L.tensor([1, 2]), L.tensor([0, 1]), False, 0, False, weights)
    _same(program)
