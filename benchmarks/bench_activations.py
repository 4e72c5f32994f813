"""Activations computed through exp / expm1 / log1p, sigmoid and tanh, and the compiled
activations with their backward ops, on layer-sized tensors: mindtorch vs PyTorch vs the
plain NumPy expression, side by side in one process.

    python benchmarks/bench_activations.py              # ~1 minute
    python benchmarks/bench_activations.py --quick
    python benchmarks/bench_activations.py --cpu-time   # CPU time, steadier on a busy machine

NumPy's float32 expm1 and log1p are scalar libm loops, ~13 ns an element against ~2 for
its exp; ELU, SELU, CELU, softplus, logsigmoid and mish are built on them (mindtorch's
decompositions, and the NumPy column's expressions).  mindtorch's cpu kernels take them,
sigmoid, exp and the activations' backward ops (ATen's sigmoid_backward, tanh_backward,
softplus_backward, elu_backward, log_sigmoid_backward, gelu_backward...) through compiled
float32 loops (kernels/_compiled.py) from _jit.MIN_SIZE elements.  The "forward +
backward" rows run f(x).sum().backward().
256 x 512 float32; the minimum over interleaved rounds (see bench_ops.py); one thread.
"""

from _timing import Cases, ratio_benchmark


def cases(np, mt, torch):
    """name -> {library: zero-argument callable}."""
    a = (np.random.default_rng(0).standard_normal((256, 512)) * 3).astype(np.float32)
    pos = np.abs(a)
    one = np.float32(1)

    def softplus(x):
        return np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))

    out = Cases(mt, torch)

    def on(x, fn):
        def make(m):
            t = m.tensor(x) if m is mt else m.from_numpy(x)
            return lambda: fn(m, t)
        return make
    out.add("expm1", on(a, lambda m, t: t.expm1()), lambda: np.expm1(a))
    out.add("log1p", on(pos, lambda m, t: t.log1p()), lambda: np.log1p(pos))
    out.add("elu", on(a, lambda m, t: m.nn.functional.elu(t)),
            lambda: np.where(a > 0, a, np.expm1(a)))
    out.add("selu", on(a, lambda m, t: m.nn.functional.selu(t)),
            lambda: np.float32(1.0507) * np.where(a > 0, a, np.float32(1.6733) * np.expm1(a)))
    out.add("softplus", on(a, lambda m, t: m.nn.functional.softplus(t)), lambda: softplus(a))
    out.add("logsigmoid", on(a, lambda m, t: m.nn.functional.logsigmoid(t)),
            lambda: -softplus(-a))
    out.add("mish", on(a, lambda m, t: m.nn.functional.mish(t)),
            lambda: a * np.tanh(softplus(a)))
    out.add("elu forward + backward", on(a, lambda m, t: m.nn.functional.elu(
        t.detach().requires_grad_()).sum().backward()),
        lambda: (np.where(a > 0, a, np.expm1(a)).sum(), np.where(a > 0, one, np.exp(a))))
    out.add("leaky_relu(0.2)", on(a, lambda m, t: m.nn.functional.leaky_relu(t, 0.2)),
            lambda: np.where(a > 0, a, a * np.float32(0.2)))
    out.add("sigmoid", on(a, lambda m, t: t.sigmoid()), lambda: 1 / (1 + np.exp(-a)))
    out.add("exp", on(a, lambda m, t: t.exp()), lambda: np.exp(a))
    out.add("tanh", on(a, lambda m, t: t.tanh()), lambda: np.tanh(a))
    # (float32 through double, rounded once, as nearest PyTorch's bits: the NumPy column is
    # NumPy's float32 loop)
    unit = np.clip(a / 10, -0.99, 0.99)
    for name, x, np_fn in (("sinh", a, np.sinh), ("cosh", a, np.cosh), ("atan", a, np.arctan),
                           ("acos", unit, np.arccos), ("log", pos + 1, np.log)):
        out.add(name, on(x, lambda m, t, name=name: getattr(t, name)()),
                lambda x=x, np_fn=np_fn: np_fn(x))
    beta, kappa = np.float32(0.7978845608), np.float32(0.044715)
    out.add("gelu(approximate='tanh')", on(a, lambda m, t: m.nn.functional.gelu(
        t, approximate="tanh")),
        lambda: np.float32(0.5) * a * (one + np.tanh(beta * (a + kappa * a * a * a))))
    for name in ("sigmoid", "tanh"):
        out.add(f"{name} forward + backward", on(a, lambda m, t, name=name: getattr(
            t.detach().requires_grad_(), name)().sum().backward()))
    for name in ("gelu", "silu", "leaky_relu", "softplus", "selu", "logsigmoid"):  # (no NumPy)
        out.add(f"{name} forward + backward", on(a, lambda m, t, name=name: getattr(
            m.nn.functional, name)(t.detach().requires_grad_()).sum().backward()))
    return out


if __name__ == "__main__":
    ratio_benchmark(__doc__, cases, "us")
