"""Index scatters and CTC, ops that were decompositions looping over many small ops:
mindtorch vs PyTorch side by side in one process (forward; backward where the row says).

    python benchmarks/bench_indexing.py --cpu-time   # ~1 minute; --quick for a smoke test

float32, one BLAS/torch thread; the minimum over interleaved rounds (see _timing.py).
"""

from _timing import Cases, ratio_benchmark


def cases(np, mt, torch):
    """name -> {library: zero-argument callable}."""
    rng = np.random.default_rng(0)

    def t(m, x):
        return m.tensor(x) if m is mt else m.from_numpy(np.ascontiguousarray(x))

    out = Cases(mt, torch)
    add = out.add
    a = rng.standard_normal((256, 512)).astype(np.float32)
    idx = rng.integers(0, 256, (256, 512))
    add("scatter_add(0, 256x512 index)", lambda m: (lambda x, i: lambda: x.scatter_add(
        0, i, x))(t(m, a), t(m, idx)))
    add("scatter_reduce(0, 'amax', 256x512 index)", lambda m: (lambda x, i: lambda: x.scatter_reduce(
        0, i, x, "amax"))(t(m, a), t(m, idx)))
    x = rng.standard_normal((100, 64)).astype(np.float32)
    src = rng.standard_normal((500, 64)).astype(np.float32)
    i500 = rng.integers(0, 100, 500)
    add("index_add_(0, 500 of 100 rows x64)", lambda m: (lambda x, i, s: lambda: x.index_add_(
        0, i, s))(t(m, x), t(m, i500), t(m, src)))
    add("index_add(1, 500 of 100 cols, 64 rows)", lambda m: (lambda x, i, s: lambda: x.index_add(
        1, i, s))(t(m, x.T.copy()), t(m, i500), t(m, src.T.copy())))
    small = rng.standard_normal((10, 8)).astype(np.float32)
    perm = rng.permutation(10)
    add("index_copy_(0, 10x8)", lambda m: (lambda x, i, s: lambda: x.index_copy_(0, i, s))(
        t(m, small), t(m, perm), t(m, small)))
    add("index_copy(1, 100x64, 32 cols)", lambda m: (lambda x, i, s: lambda: x.index_copy(
        1, i, s))(t(m, x), t(m, rng.permutation(64)[:32]), t(m, x[:, :32])))
    flat = rng.integers(-6400, 6400, 1000)
    vals = rng.standard_normal(1000).astype(np.float32)
    for acc in (False, True):
        add(f"put_(1000 into 100x64, accumulate={acc})", lambda m, acc=acc: (
            lambda x, i, s: lambda: x.put_(i, s, acc))(t(m, x), t(m, flat), t(m, vals)))
    mask = rng.random((256, 512)) < 0.5
    add("masked_scatter_(256x512, half)", lambda m: (lambda x, k, s: lambda: x.masked_scatter_(
        k, s))(t(m, a), t(m, mask), t(m, a)))
    for reduce in ("prod", "mean", "amax"):
        for inc in (True, False):
            add(f"index_reduce(0, {reduce}, include_self={inc})", lambda m, r=reduce, inc=inc: (
                lambda x, i, s: lambda: x.index_reduce(0, i, s, r, include_self=inc))(
                t(m, x), t(m, i500), t(m, src)))
    T, N, C, S = 50, 16, 20, 10
    lp = rng.standard_normal((T, N, C)).astype(np.float32)
    tg = rng.integers(1, C, (N, S))
    il, tl = [T] * N, rng.integers(5, S + 1, N).tolist()

    def ctc(m, backward):
        x, y = t(m, lp).log_softmax(2).detach().requires_grad_(backward), t(m, tg)

        def run():
            loss = m.nn.functional.ctc_loss(x, y, il, tl)
            if backward:
                loss.backward()
        return run
    add(f"ctc_loss(T={T}, N={N}, C={C}, S={S})", lambda m: ctc(m, False))
    add("ctc_loss forward + backward", lambda m: ctc(m, True))
    return out


if __name__ == "__main__":
    ratio_benchmark(__doc__, cases, "us")
