"""Selecting kernels on layer-sized tensors: mindtorch vs PyTorch vs the plain NumPy
expression, side by side in one process.

    python benchmarks/bench_select.py              # ~1 minute
    python benchmarks/bench_select.py --quick
    python benchmarks/bench_select.py --cpu-time   # CPU time, steadier on a busy machine

Rows: where / masked_fill on a random mask (np.where and np.copyto(where=) branch per
element, so an unpredictable mask costs them ~50x an add: the NumPy column shows it),
clamp and relu (np.clip with both bounds is the fast NumPy spelling; np.maximum is not),
relu's backward (threshold_backward), tril, topk of 3 per row, and small factories
(zeros, arange: per-call cost).  256 x 512 float32 unless the row says otherwise.
Timings are the minimum over interleaved rounds (see bench_ops.py); one BLAS/torch thread.
"""

from _timing import Cases, ratio_benchmark


def cases(np, mt, torch):
    """name -> {library: zero-argument callable}."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((256, 512)).astype(np.float32)
    g = rng.standard_normal((256, 512)).astype(np.float32)
    mask = rng.random((256, 512)) < 0.5
    zero = np.float32(0)

    def lib(m):
        return (m.tensor(a) if m is mt else m.from_numpy(a)), \
            (m.tensor(mask) if m is mt else m.from_numpy(mask))

    out = Cases(mt, torch)
    add = out.add
    add("where(mask, x, 0)", lambda m: (lambda x, c: lambda: m.where(c, x, 0.0))(*lib(m)),
        lambda: np.where(mask, a, zero))
    add("masked_fill(mask, 0)", lambda m: (lambda x, c: lambda: x.masked_fill(c, 0.0))(*lib(m)),
        lambda: (lambda r: np.copyto(r, zero, where=mask))(a.copy()))
    add("clamp(0, 1)", lambda m: (lambda x, c: lambda: x.clamp(0, 1))(*lib(m)),
        lambda: np.minimum(np.maximum(a, zero), np.float32(1)))
    add("relu", lambda m: (lambda x, c: lambda: m.relu(x))(*lib(m)),
        lambda: np.maximum(a, zero))
    if torch is not None:
        tb = {mt: getattr(__import__("mindtorch._ops", fromlist=["OPS"]).OPS[
            "threshold_backward"], "call"), torch: torch.ops.aten.threshold_backward}
        add("relu backward (threshold_backward)", lambda m: (
            lambda x, gr: lambda: tb[m](gr, x, 0))(lib(m)[0], m.tensor(g) if m is mt
                                                   else m.from_numpy(g)),
            lambda: g * (a > 0))
    add("tril", lambda m: (lambda x, c: lambda: m.tril(x))(*lib(m)), lambda: np.tril(a))
    add("topk(3) per row", lambda m: (lambda x, c: lambda: x.topk(3))(*lib(m)),
        lambda: np.argpartition(a, -3, axis=1)[:, -3:])
    add("zeros(64, 64) (per call)", lambda m: lambda: m.zeros(64, 64),
        lambda: np.zeros((64, 64), np.float32))
    add("arange(64) (per call)", lambda m: lambda: m.arange(64), lambda: np.arange(64))
    return out


if __name__ == "__main__":
    ratio_benchmark(__doc__, cases, "us")
