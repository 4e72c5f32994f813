"""cross_entropy, group_norm and small batch norms, forward + backward: mindtorch vs
PyTorch, side by side in one process.

    python benchmarks/bench_losses_norms.py              # ~1-2 minutes
    python benchmarks/bench_losses_norms.py --quick
    python benchmarks/bench_losses_norms.py --cpu-time   # CPU time, steadier on a busy machine

cross_entropy on a classifier's logits (64, 1000) and (256, 10), a language model's
vocabulary (32, 50257) (plain, ignore_index with a quarter of the targets ignored,
label_smoothing=0.1, reductions sum and none) and segmentation logits (8, 21, 64, 64);
group_norm with 32 groups at CNN and diffusion-UNet sizes; batch_norm in training on small
activations.  Every row runs forward then backward (a fixed gradient, or .backward() of the
scalar loss); float32, one thread, the minimum over interleaved rounds (see bench_ops.py).
"""

from _timing import Cases, ratio_benchmark


def cases(np, mt, torch):
    """name -> {library: zero-argument callable}."""
    rng = np.random.default_rng(0)
    out = Cases(mt, torch)

    def tensor(m, a, grad=False):
        t = m.tensor(a)
        return t.requires_grad_() if grad else t

    def cross_entropy(shape, ignored=0.0, **kw):
        x = rng.standard_normal(shape).astype(np.float32)
        t = rng.integers(0, shape[1], (shape[0],) + shape[2:])
        t[rng.random(t.shape) < ignored] = -100

        def make(m):
            xt, tt = tensor(m, x, True), tensor(m, t)

            def step():
                loss = m.nn.functional.cross_entropy(xt, tt, **kw)
                (loss if loss.ndim == 0 else loss.sum()).backward()
                xt.grad = None
            return step
        return make

    def norm_step(shape, module):
        x = rng.standard_normal(shape).astype(np.float32)
        g = rng.standard_normal(shape).astype(np.float32)

        def make(m):
            xt, gt, layer = tensor(m, x, True), tensor(m, g), module(m)

            def step():
                layer(xt).backward(gt)
                xt.grad = None
                layer.zero_grad()
            return step
        return make

    def forward(shape, module):
        x = rng.standard_normal(shape).astype(np.float32)

        def make(m):
            xt, layer = tensor(m, x), module(m)

            def run():
                with m.no_grad():
                    layer(xt)
            return run
        return make

    ce = "cross_entropy fwd+bwd"
    out.add(f"{ce} (64, 1000)", cross_entropy((64, 1000)))
    out.add(f"{ce} (256, 10)", cross_entropy((256, 10)))
    out.add(f"{ce} (32, 50257)", cross_entropy((32, 50257)))
    out.add(f"{ce} (32, 50257) ignore_index", cross_entropy((32, 50257), 0.25))
    out.add(f"{ce} (32, 50257) label_smoothing=0.1", cross_entropy((32, 50257),
                                                                   label_smoothing=0.1))
    out.add(f"{ce} (32, 50257) sum", cross_entropy((32, 50257), reduction="sum"))
    out.add(f"{ce} (32, 50257) none", cross_entropy((32, 50257), reduction="none"))
    out.add(f"{ce} (8, 21, 64, 64)", cross_entropy((8, 21, 64, 64)))
    for shape in ((8, 64, 32, 32), (16, 256, 16, 16), (2, 320, 64, 64)):
        out.add(f"group_norm(32) fwd+bwd {shape}", norm_step(
            shape, lambda m, c=shape[1]: m.nn.GroupNorm(32, c)))
    out.add("BatchNorm1d(256) train fwd (64, 256)", forward(
        (64, 256), lambda m: m.nn.BatchNorm1d(256)))
    out.add("BatchNorm1d(256) train fwd+bwd (64, 256)", norm_step(
        (64, 256), lambda m: m.nn.BatchNorm1d(256)))
    out.add("BatchNorm2d(64) train fwd (8, 64, 8, 8)", forward(
        (8, 64, 8, 8), lambda m: m.nn.BatchNorm2d(64)))
    out.add("BatchNorm2d(64) train fwd+bwd (8, 64, 8, 8)", norm_step(
        (8, 64, 8, 8), lambda m: m.nn.BatchNorm2d(64)))
    return out


if __name__ == "__main__":
    ratio_benchmark(__doc__, cases, "us")
