"""Reductions and scans (sum, mean, norm, prod, amax, logsumexp, cumsum, topk, var) on a
layer-sized float32 tensor, and sum / mean on a small one: mindtorch vs PyTorch vs the
plain NumPy call, side by side in one process.

    python benchmarks/bench_reductions.py              # ~1 minute
    python benchmarks/bench_reductions.py --quick
    python benchmarks/bench_reductions.py --cpu-time   # CPU time, steadier on a busy machine

256 x 512 float32 (from _jit.MIN_SIZE elements mindtorch's cpu kernels take compiled
loops, kernels/_reduce_loops.py), and 64 x 64 (NumPy paths: the per-call costs).  The
NumPy column is the nearest single NumPy call (float32 in, NumPy's own accumulation);
mindtorch accumulates float32 in float64 where that is what keeps it at least as accurate
as PyTorch.  The minimum over interleaved rounds (see bench_ops.py); one thread.
"""

from _timing import Cases, ratio_benchmark


def cases(np, mt, torch):
    """name -> {library: zero-argument callable}."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((256, 512)).astype(np.float32)
    small = rng.standard_normal((64, 64)).astype(np.float32)
    out = Cases(mt, torch)

    def on(x, fn):
        def make(m):
            t = m.tensor(x) if m is mt else m.from_numpy(x)
            return lambda: fn(t)
        return make
    table = [  # (name, tensor method call, NumPy call on the array)
        ("x.sum()", lambda t: t.sum(), lambda x: x.sum()),
        ("x.sum(1)", lambda t: t.sum(1), lambda x: x.sum(1)),
        ("x.sum(0)", lambda t: t.sum(0), lambda x: x.sum(0)),
        ("x.mean(1)", lambda t: t.mean(1), lambda x: x.mean(1)),
        ("x.norm()", lambda t: t.norm(), lambda x: np.sqrt(np.dot(x.ravel(), x.ravel()))),
        ("x.prod(1)", lambda t: t.prod(1), lambda x: x.prod(1)),
        ("x.amax(1)", lambda t: t.amax(1), lambda x: x.max(1)),
        ("x.max()", lambda t: t.max(), lambda x: x.max()),
        ("x.argmax(1)", lambda t: t.argmax(1), lambda x: x.argmax(1)),
        ("x.logsumexp(1)", lambda t: t.logsumexp(1), None),
        ("x.cumsum(1)", lambda t: t.cumsum(1), lambda x: x.cumsum(1)),
        ("x.cumsum(0)", lambda t: t.cumsum(0), lambda x: x.cumsum(0)),
        ("x.topk(5, 1)", lambda t: t.topk(5, 1), None),
        ("(x * x).sum()", lambda t: (t * t).sum(), lambda x: (x * x).sum()),
        ("x.var()", lambda t: t.var(), lambda x: x.var(ddof=1)),
        ("x.std(1)", lambda t: t.std(1), lambda x: x.std(1, ddof=1)),
    ]
    for name, fn, np_fn in table:
        out.add(name, on(a, fn), None if np_fn is None else (lambda f=np_fn: f(a)))
    for name, fn, np_fn in table[:4]:
        out.add(f"{name} 64x64", on(small, fn), lambda f=np_fn: f(small))
    return out


if __name__ == "__main__":
    ratio_benchmark(__doc__, cases, "us")
