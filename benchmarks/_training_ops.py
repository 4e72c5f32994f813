"""The training ops that round qa13b's speed sweep found many times slower than PyTorch and
that it sped up (bit-identical results), as cases for bench_ops.py --training-ops: each
forward alone (under no_grad) and forward + backward (sum().backward())."""

from _timing import Cases


def _runner(m, fn, inputs, backward):
    """A zero-argument callable: fn(*inputs) under no_grad, or with its backward."""
    if not backward:
        def forward():
            with m.no_grad():
                return fn(*inputs)
        return forward

    def forward_backward():
        fn(*inputs).sum().backward()
        for t in inputs:
            t.grad = None
    return forward_backward


def cases(np, mt, torch):
    rng = np.random.default_rng(0)
    seq = rng.standard_normal((64, 128, 256)).astype(np.float32)
    img = rng.standard_normal((32, 64, 28, 28)).astype(np.float32)
    depthwise, grouped = (rng.standard_normal(s).astype(np.float32) for s in
                          ((64, 1, 3, 3), (64, 16, 3, 3)))
    rows, cols = rng.integers(0, 64, 4096), rng.integers(0, 128, 4096)
    picks, columns = rng.integers(0, 64, 32), rng.integers(0, 128, 512)
    values = rng.standard_normal((4096, 256)).astype(np.float32)
    gather_index = rng.integers(0, 256, (64, 128, 32))

    def t(m, a, grad=False):
        x = m.tensor(a) if m is mt else m.from_numpy(np.array(a))
        return x.requires_grad_() if grad else x

    out = Cases(mt, torch)

    def add(name, fn, arrays, index_arrays=(), backward=True):
        """fn(m, *tensors, *index tensors): a forward row and a forward + backward one."""
        for bwd in (False, True) if backward else (False,):
            out.add(f"{name}{' fwd+bwd' if bwd else ''}", lambda m, bwd=bwd: _runner(
                m, lambda *xs: fn(m, *xs, *(t(m, i) for i in index_arrays)),
                [t(m, a, bwd) for a in arrays], bwd))

    F = lambda m: m.nn.functional
    add("flip(-1), 64x128x256", lambda m, x: x.flip(-1), [seq])
    add("cumsum(-1) (its backward flips)", lambda m, x: x.cumsum(-1), [seq])
    add("x[:, idx], 512 of 128", lambda m, x, i: x[:, i], [seq], [columns])
    add("x[idx], 32 of 64", lambda m, x, i: x[i], [seq], [picks])
    add("x[i, j], 4096 pairs", lambda m, x, i, j: x[i, j], [seq], [rows, cols])
    add("index_select(1), 512 of 128", lambda m, x, i: x.index_select(1, i), [seq], [columns])

    def index_put(m):
        x, i, j, v = t(m, seq.copy()), t(m, rows), t(m, cols), t(m, values)
        return lambda: x.index_put_((i, j), v, accumulate=True)
    out.add("index_put_(accumulate), 4096 pairs", index_put)
    add("gather(-1), 64x128x32 of 64x128x256",
        lambda m, x, i: m.gather(x, -1, i), [seq], [gather_index], backward=False)
    for size in (1, 5):
        add(f"adaptive_max_pool2d({size}), 32x64x28x28",
            lambda m, x, size=size: F(m).adaptive_max_pool2d(x, size), [img])
    add("conv2d depthwise 3x3, 32x64x28x28",
        lambda m, x, w: F(m).conv2d(x, w, padding=1, groups=64), [img, depthwise])
    add("conv2d groups=4 3x3, 32x64x28x28",
        lambda m, x, w: F(m).conv2d(x, w, padding=1, groups=4), [img, grouped], backward=False)
    return out
