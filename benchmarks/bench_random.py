"""Random numbers: mindtorch (PyTorch's streams, bit for bit), PyTorch and NumPy's own
generator (PCG64: what the NumPy kernels drew before they drew PyTorch's numbers), side by
side in one process.

    python benchmarks/bench_random.py              # ~1 minute
    python benchmarks/bench_random.py --quick
    python benchmarks/bench_random.py --cpu-time   # CPU time, steadier on a busy machine

Rows: the factories over 1M elements (rand, randn float32 and float64, randint), a small
randn (16 elements: per-call cost), normal_ of a transposed matrix (drawn one at a time in
memory order, as PyTorch's serial loop), randperm of 60000 (an MNIST epoch's shuffle),
bernoulli_ and dropout over 64K elements, and the initialisation of an nn.Linear(1024,
1024) and an nn.Embedding(30522, 384) (BERT's vocabulary; normal_ over 11.7M elements).
Timings are the minimum over interleaved rounds (see bench_ops.py); one BLAS/torch thread.
"""

from _timing import Cases, ratio_benchmark

M = 1 << 20


def cases(np, mt, torch):
    """name -> {library: zero-argument callable}."""
    rng = np.random.default_rng(0)
    out = Cases(mt, torch)
    add = out.add
    add("rand 1M float32", lambda m: lambda: m.rand(M),
        lambda: rng.random(M, dtype=np.float32))
    add("randn 1M float32", lambda m: lambda: m.randn(M),
        lambda: rng.standard_normal(M, dtype=np.float32))
    add("randn 1M float64", lambda m: lambda: m.randn(M, dtype=m.float64),
        lambda: rng.standard_normal(M))
    add("randn 16 float32", lambda m: lambda: m.randn(16),
        lambda: rng.standard_normal(16, dtype=np.float32))
    add("randint(0, 10, 1M)", lambda m: lambda: m.randint(0, 10, (M,)),
        lambda: rng.integers(0, 10, M))
    add("normal_ of a transposed 1000x1000", lambda m: (lambda t: lambda: t.normal_())(
        m.empty(1000, 1000).t()))
    add("randperm(60000)", lambda m: lambda: m.randperm(60000),
        lambda: rng.permutation(60000))
    add("bernoulli_(0.5) 64K", lambda m: (lambda t: lambda: t.bernoulli_(0.5))(
        m.empty(1 << 16)), lambda: rng.random(1 << 16) < 0.5)
    add("dropout(0.1) 64x1024", lambda m: (lambda x: lambda: m.nn.functional.dropout(x, 0.1))(
        m.ones(64, 1024)))
    add("nn.Linear(1024, 1024) init", lambda m: lambda: m.nn.Linear(1024, 1024))
    add("nn.Embedding(30522, 384) init", lambda m: lambda: m.nn.Embedding(30522, 384),
        lambda: rng.standard_normal((30522, 384), dtype=np.float32))
    return out


def main():
    ratio_benchmark(__doc__, cases, "ms", full=(0.5, 5), quick=(0.05, 3))


if __name__ == "__main__":
    main()
