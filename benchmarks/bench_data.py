"""Data-pipeline paths (what DataLoader's default_collate and user code hit): mindtorch,
PyTorch and NumPy side by side.

    python benchmarks/bench_data.py              # ~1 minute
    python benchmarks/bench_data.py --quick
    python benchmarks/bench_data.py --cpu-time   # CPU time, steadier on a busy machine

Rows: stack/cat of 64 small tensors (a collated batch of samples), stack of 64 0-dim
tensors (a batch of labels), tensor() from Python lists (flat ints / floats / bools, a
nested 64x10 list, numpy scalars, 0-dim tensors), tensor()/as_tensor()/from_numpy() of a
numpy array, and default_collate of 64 (image, label) samples (images as tensors, or as
numpy arrays, which become tensors one by one through as_tensor). NumPy's column is the
nearest NumPy call (np.stack, np.concatenate, np.array). Timings are the minimum over
interleaved rounds (see bench_ops.py); torch and BLAS use one thread.
"""

from _timing import Cases, ratio_benchmark


def cases(np, mt, torch):
    """name -> {library: zero-argument callable}, the same data for every library."""
    rng = np.random.default_rng(0)
    rows = [rng.standard_normal(784).astype(np.float32) for _ in range(64)]
    ints = [int(v) for v in rng.integers(0, 10, 64)]
    floats = [float(v) for v in rng.standard_normal(64)]
    bools = [bool(v) for v in rng.integers(0, 2, 64)]
    nested = [[float(v) for v in r] for r in rng.standard_normal((64, 10))]
    np_scalars = list(rng.standard_normal(64).astype(np.float32))
    image = rng.standard_normal((64, 784)).astype(np.float32)
    out = Cases(mt, torch)
    add = out.add

    def per_lib(fn):  # (library module, its own tensors) -> callable
        return lambda m: fn(m, [m.from_numpy(r) for r in rows])
    add("stack 64 x (784,) float32", per_lib(lambda m, ts: lambda: m.stack(ts)),
        lambda: np.stack(rows))
    add("cat 64 x (784,) float32", per_lib(lambda m, ts: lambda: m.cat(ts)),
        lambda: np.concatenate(rows))
    add("stack 64 x (784,), dim=1", per_lib(lambda m, ts: lambda: m.stack(ts, 1)),
        lambda: np.stack(rows, 1))
    zero_dim = [np.asarray(v) for v in floats]
    def over_scalars(fn):  # (library module) -> fn(m, its 0-dim tensors) as a callable
        def make(m):
            ts = [m.tensor(v) for v in floats]
            return lambda: fn(m, ts)
        return make
    add("stack 64 0-dim tensors", over_scalars(lambda m, ts: m.stack(ts)),
        lambda: np.stack(zero_dim))
    add("tensor(64 ints)", lambda m: lambda: m.tensor(ints), lambda: np.array(ints))
    add("tensor(64 floats)", lambda m: lambda: m.tensor(floats), lambda: np.array(floats))
    add("tensor(64 bools)", lambda m: lambda: m.tensor(bools), lambda: np.array(bools))
    add("tensor(64x10 nested floats)", lambda m: lambda: m.tensor(nested),
        lambda: np.array(nested))
    add("tensor(64 numpy float32 scalars)", lambda m: lambda: m.tensor(np_scalars),
        lambda: np.array(np_scalars))
    add("tensor(64 0-dim tensors)", over_scalars(lambda m, ts: m.tensor(ts)))
    add("tensor(ndarray 64x784)", lambda m: lambda: m.tensor(image), lambda: image.copy())
    add("as_tensor(ndarray 64x784)", lambda m: lambda: m.as_tensor(image),
        lambda: np.asarray(image))
    add("from_numpy(ndarray 64x784)", lambda m: lambda: m.from_numpy(image))

    def collate(m, arrays=False):
        samples = [(r if arrays else m.from_numpy(r), i) for r, i in zip(rows, ints)]
        fn = m.utils.data.default_collate
        return lambda: fn(samples)
    add("default_collate 64 x (tensor(784,), int)", collate)
    add("default_collate 64 x (ndarray(784,), int)", lambda m: collate(m, arrays=True))
    return out


def main():
    ratio_benchmark(__doc__, cases, "us", full=(0.2, 7), quick=(0.02, 3))


if __name__ == "__main__":
    main()
