"""Sampling, bag, distance and small scan / reduction calls that a sweep found many times
slower than PyTorch: mindtorch vs PyTorch side by side in one process (forward, or forward
and backward where the row says so).

    python benchmarks/bench_sampling.py --cpu-time          # ~1 minute
    python benchmarks/bench_sampling.py --quick --cpu-time

One BLAS/torch thread; the minimum over interleaved rounds (see _timing.py).
"""

from _timing import Cases, ratio_benchmark


def cases(np, mt, torch):
    """name -> {library: zero-argument callable}."""
    rng = np.random.default_rng(0)
    out = Cases(mt, torch)

    def add(name, fn, *arrays, backward=False):
        """fn(m, *tensors of arrays) timed; backward: with fn(...).sum().backward()
        (float arrays requiring grad)."""
        def make(m):
            xs = [m.tensor(x) if m is mt else m.from_numpy(np.ascontiguousarray(x)).clone()
                  for x in arrays]
            if not backward:
                return lambda: fn(m, *xs)
            grads = [x.requires_grad_() for x in xs if x.dtype.is_floating_point]

            def run():
                for x in grads:
                    x.grad = None
                fn(m, *xs).sum().backward()
            return run
        out.add(name, make)

    s = rng.standard_normal((4, 8)).astype(np.float32)
    add("equal(4x8, 4x8)", lambda m, x, y: m.equal(x, y), s, s)
    a = rng.standard_normal((64, 512)).astype(np.float32)
    add("cumsum(64x512, 1)", lambda m, x: x.cumsum(1), a)
    add("cumprod(64x512, 1)", lambda m, x: x.cumprod(1), a)
    add("prod(64x512, 1)", lambda m, x: x.prod(1), a)
    w = rng.standard_normal((1000, 64)).astype(np.float32)
    idx, offs = rng.integers(0, 1000, 512), np.arange(0, 512, 8)
    for mode in ("sum", "mean", "max"):
        add(f"embedding_bag({mode}, 1000x64, 64 bags of 8)", lambda m, i, W, o, mode=mode:
            m.nn.functional.embedding_bag(i, W, o, mode=mode), idx, w, offs)
    add("embedding_bag(sum) fwd+bwd", lambda m, i, W, o: m.nn.functional.embedding_bag(
        i, W, o, mode="sum"), idx, w, offs, backward=True)
    x = rng.standard_normal((4, 8, 32, 32)).astype(np.float32)
    g = (rng.random((4, 24, 24, 2)) * 2.4 - 1.2).astype(np.float32)
    for mode in ("bilinear", "nearest", "bicubic"):
        add(f"grid_sample({mode}, 4x8x32x32, 24x24)", lambda m, X, G, mode=mode:
            m.nn.functional.grid_sample(X, G, mode=mode, align_corners=False), x, g)
    add("grid_sample(bilinear, border) fwd+bwd", lambda m, X, G: m.nn.functional.grid_sample(
        X, G, padding_mode="border", align_corners=False), x, g, backward=True)
    p = rng.standard_normal((8, 64, 28, 28)).astype(np.float32)
    add("adaptive_max_pool2d(8x64x28x28, 7) fwd+bwd",
        lambda m, X: m.nn.functional.adaptive_max_pool2d(X, 7), p, backward=True)
    d = rng.standard_normal((128, 32))
    add("pdist(128x32)", lambda m, X: m.pdist(X), d)
    add("pdist(128x32) fwd+bwd", lambda m, X: m.pdist(X), d, backward=True)
    c1 = rng.standard_normal((4, 64, 32)).astype(np.float32)
    c2 = rng.standard_normal((4, 48, 32)).astype(np.float32)
    add("cdist(4x64x32, 4x48x32)", lambda m, X, Y: m.cdist(X, Y), c1, c2)
    add("mode(256x64 of 0..7, 1)", lambda m, X: X.mode(1),
        rng.integers(0, 8, (256, 64)).astype(np.float32))
    r = rng.standard_normal((16, 65536)).astype(np.float32)
    add("amax(16x65536, 1)", lambda m, X: X.amax(1), r)
    add("max(16x65536, 1)", lambda m, X: X.max(1), r)
    return out


if __name__ == "__main__":
    ratio_benchmark(__doc__, cases, "us")
