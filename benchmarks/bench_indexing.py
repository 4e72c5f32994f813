"""Index scatters and CTC, ops that were decompositions looping over many small ops:
mindtorch vs PyTorch side by side in one process (forward; backward where the row says).

    python benchmarks/bench_indexing.py --cpu-time   # ~1 minute; --quick for a smoke test

float32, one BLAS/torch thread; the minimum over interleaved rounds (see _timing.py).
"""

from _timing import Cases, ratio_benchmark


def cases(np, mt, torch):
    """name -> {library: zero-argument callable}."""
    rng = np.random.default_rng(0)

    def method(name, self, *args, **kwargs):
        """make(library): self.<name>(*args, **kwargs) on that library's tensors (numpy
        arrays become tensors, other arguments pass through)."""
        def tensor(m, a):
            if not isinstance(a, np.ndarray):
                return a
            return m.tensor(a) if m is mt else m.from_numpy(np.ascontiguousarray(a))

        def make(m):
            conv = [tensor(m, a) for a in (self, *args)]
            fn = getattr(conv[0], name)
            return lambda: fn(*conv[1:], **kwargs)
        return make

    out = Cases(mt, torch)
    add = out.add
    a = rng.standard_normal((256, 512)).astype(np.float32)
    idx = rng.integers(0, 256, (256, 512))
    add("scatter_add(0, 256x512 index)", method("scatter_add", a, 0, idx, a))
    add("scatter_reduce(0, 'amax', 256x512 index)", method("scatter_reduce", a, 0, idx, a,
                                                           "amax"))
    x = rng.standard_normal((100, 64)).astype(np.float32)
    src = rng.standard_normal((500, 64)).astype(np.float32)
    i500 = rng.integers(0, 100, 500)
    add("index_add_(0, 500 of 100 rows x64)", method("index_add_", x, 0, i500, src))
    add("index_add(1, 500 of 100 cols, 64 rows)", method("index_add", x.T.copy(), 1, i500,
                                                         src.T.copy()))
    small = rng.standard_normal((10, 8)).astype(np.float32)
    add("index_copy_(0, 10x8)", method("index_copy_", small, 0, rng.permutation(10), small))
    add("index_copy(1, 100x64, 32 cols)", method("index_copy", x, 1, rng.permutation(64)[:32],
                                                 x[:, :32]))
    flat = rng.integers(-6400, 6400, 1000)
    vals = rng.standard_normal(1000).astype(np.float32)
    for acc in (False, True):
        add(f"put_(1000 into 100x64, accumulate={acc})", method("put_", x, flat, vals, acc))
    mask = rng.random((256, 512)) < 0.5
    add("masked_scatter_(256x512, half)", method("masked_scatter_", a, mask, a))
    for reduce in ("prod", "mean", "amax"):
        for inc in (True, False):
            add(f"index_reduce(0, {reduce}, include_self={inc})",
                method("index_reduce", x, 0, i500, src, reduce, include_self=inc))
    T, N, C, S = 50, 16, 20, 10
    lp = rng.standard_normal((T, N, C)).astype(np.float32)
    tg = rng.integers(1, C, (N, S))
    il, tl = [T] * N, rng.integers(5, S + 1, N).tolist()

    def ctc(backward):
        def make(m):
            x = (m.tensor(lp) if m is mt else m.from_numpy(lp)).log_softmax(2).detach()
            x.requires_grad_(backward)
            y = m.tensor(tg) if m is mt else m.from_numpy(tg)

            def run():
                loss = m.nn.functional.ctc_loss(x, y, il, tl)
                if backward:
                    loss.backward()
            return run
        return make
    add(f"ctc_loss(T={T}, N={N}, C={C}, S={S})", ctc(False))
    add("ctc_loss forward + backward", ctc(True))
    return out


if __name__ == "__main__":
    import warnings
    warnings.filterwarnings("ignore", "index_reduce")
    ratio_benchmark(__doc__, cases, "us")
