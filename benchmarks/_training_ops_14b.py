"""The training ops round qa14b looked at (still several times slower than PyTorch after
qa13b), as cases for bench_ops.py --training-ops-14b: each forward alone (under no_grad)
and forward + backward (sum().backward())."""

from _timing import Cases
from _training_ops import _runner


def cases(np, mt, torch):
    rng = np.random.default_rng(0)
    img = rng.standard_normal((32, 64, 28, 28)).astype(np.float32)
    small = rng.standard_normal((16, 32, 8, 8)).astype(np.float32)
    table = rng.standard_normal((10000, 256)).astype(np.float32)
    bag_ids = rng.integers(0, 10000, (64, 20))
    logits = rng.standard_normal((64, 1000)).astype(np.float32)
    labels, regress = rng.integers(0, 1000, 64), rng.standard_normal((64, 1000)).astype(
        np.float32)
    feats = rng.standard_normal((64, 256)).astype(np.float32)
    points = [rng.standard_normal((512, 64)).astype(np.float32) for _ in range(2)]

    def t(m, a, grad=False):
        x = m.tensor(a) if m is mt else m.from_numpy(np.array(a))
        return x.requires_grad_() if grad else x

    out = Cases(mt, torch)

    def add(name, fn, arrays, constant_arrays=()):
        """fn(m, *tensors, *constant tensors): a forward row and a forward + backward one."""
        for bwd in (False, True):
            out.add(f"{name}{' fwd+bwd' if bwd else ''}", lambda m, bwd=bwd: _runner(
                m, lambda *xs: fn(m, *xs, *(t(m, c) for c in constant_arrays)),
                [t(m, a, bwd) for a in arrays], bwd))

    F = lambda m: m.nn.functional
    channels = [rng.standard_normal(64).astype(np.float32) for _ in range(2)]
    add("group_norm(8 groups), 32x64x28x28", lambda m, x, w, b: F(m).group_norm(x, 8, w, b),
        [img, *channels])
    add("group_norm(4 groups), 16x32x8x8",
        lambda m, x, w, b: F(m).group_norm(x, 4, w, b), [small, *(c[:32] for c in channels)])
    add("adaptive_avg_pool2d(5), 32x64x28x28", lambda m, x: F(m).adaptive_avg_pool2d(x, 5),
        [img])
    add("cdist 512x64 vs 512x64", lambda m, a, b: m.cdist(a, b), points)
    add("embedding_bag mean, 64 bags of 20 of 10000x256",
        lambda m, w, i: F(m).embedding_bag(i, w, mode="mean"), [table], [bag_ids])
    add("cross_entropy 64x1000", lambda m, x, y: F(m).cross_entropy(x, y), [logits], [labels])
    add("nll_loss 64x1000", lambda m, x, y: F(m).nll_loss(x, y), [logits], [labels])
    add("mse_loss 64x1000", lambda m, x, y: F(m).mse_loss(x, y), [logits], [regress])
    params = [rng.standard_normal(256).astype(np.float32) for _ in range(2)]

    def batch_norm(m, x, w, b):
        stats = (m.zeros(256), m.ones(256))
        return F(m).batch_norm(x, *stats, w, b, training=True)
    add("batch_norm1d train, 64x256", batch_norm, [feats, *params])
    return out
