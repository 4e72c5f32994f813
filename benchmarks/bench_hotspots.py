"""Calls that ordinary programs made many times slower than PyTorch (found by timing the QA
programs and a sweep of ~100 common calls): mindtorch vs PyTorch vs the NumPy expression
closest to the job, side by side in one process.

    python benchmarks/bench_hotspots.py              # ~1 minute
    python benchmarks/bench_hotspots.py --quick
    python benchmarks/bench_hotspots.py --cpu-time   # CPU time, steadier on a busy machine

256 x 512 float32 unless the row says otherwise; one BLAS/torch thread; the minimum over
interleaved rounds (see _timing.py).
"""

from _timing import Cases, ratio_benchmark


def cases(np, mt, torch):
    """name -> {library: zero-argument callable}."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((256, 512)).astype(np.float32)

    def t(m, x):
        return m.tensor(x) if m is mt else m.from_numpy(np.ascontiguousarray(x))

    out = Cases(mt, torch)
    add = out.add
    add("kthvalue(10, dim=1)", lambda m: (lambda x: lambda: x.kthvalue(10, 1))(t(m, a)),
        lambda: np.argpartition(a, 9, axis=1)[:, 9])
    x4 = rng.standard_normal((8, 64, 14, 14)).astype(np.float32)
    add("adaptive_avg_pool2d(8x64x14x14, 2)",
        lambda m: (lambda x: lambda: m.nn.functional.adaptive_avg_pool2d(x, 2))(t(m, x4)),
        lambda: x4.reshape(8, 64, 2, 7, 2, 7).mean((3, 5)))
    x5 = rng.standard_normal((8, 16, 32, 32)).astype(np.float32)
    add("adaptive_avg_pool2d(8x16x32x32, 7)",
        lambda m: (lambda x: lambda: m.nn.functional.adaptive_avg_pool2d(x, 7))(t(m, x5)))
    edges = np.sort(rng.standard_normal(1000)).astype(np.float32)
    add("searchsorted(1000 edges, 256x512)",
        lambda m: (lambda e, x: lambda: m.searchsorted(e, x))(t(m, edges), t(m, a)),
        lambda: np.searchsorted(edges, a))
    add("triu_indices(200, 200, 1)", lambda m: lambda: m.triu_indices(200, 200, 1),
        lambda: np.triu_indices(200, 1, 200))
    add("x ** 3", lambda m: (lambda x: lambda: x ** 3)(t(m, a)), lambda: a * a * a)
    add("x ** -0.5", lambda m: (lambda x: lambda: x.abs() ** -0.5)(t(m, a)),
        lambda: 1 / np.sqrt(np.abs(a)))
    add("pad_sequence(64 of 1..50 steps)", lambda m: (lambda xs: lambda: m.nn.utils.rnn.pad_sequence(
        xs, batch_first=True))([t(m, a[i, :i % 50 + 1]) for i in range(64)]))
    grads = rng.standard_normal((20, 64, 64)).astype(np.float32)
    add("clip_grad_value_(20 grads of 64x64)", lambda m: (lambda ps: lambda: m.nn.utils.clip_grad_value_(
        ps, 0.1))([(lambda p: (setattr(p, "grad", t(m, g)), p)[1])(m.nn.Parameter(m.zeros(64, 64)))
                   for g in grads]), lambda: [np.clip(g, -0.1, 0.1, out=g) for g in grads])
    add("nan_to_num", lambda m: (lambda x: lambda: x.nan_to_num())(t(m, a)),
        lambda: np.nan_to_num(a))
    b = rng.standard_normal((256, 512)).astype(np.float32)
    add("lerp(x, y, 0.3)", lambda m: (lambda x, y: lambda: m.lerp(x, y, 0.3))(t(m, a), t(m, b)),
        lambda: a + np.float32(0.3) * (b - a))
    return out


if __name__ == "__main__":
    ratio_benchmark(__doc__, cases, "us")
