"""Regression tests for QA round 13f (memory formats and result strides as CNN code sees
them), each against torch: strides, both is_contiguous answers and values (float64)."""
import mindtorch
import numpy as np
import pytest
from reference import layout_of, same_layouts

torch = pytest.importorskip("torch")


def _rand(L, *shape, fmt=None, seed=0, requires_grad=False):
    t = L.tensor(np.random.default_rng(seed).standard_normal(shape), dtype=L.float64)
    if fmt:
        t = t.contiguous(memory_format=getattr(L, fmt))
    return t.requires_grad_(requires_grad)


_ELEMENTWISE = {
    "mul_scalar": lambda L, x: x * 2,
    "add_self": lambda L, x: x + x,
    "add_bias": lambda L, x: x + _rand(L, x.shape[1], 1, 1, seed=1),
    "where": lambda L, x: L.where(x > 0, x, 0.0),
    "gt": lambda L, x: (x > 0).double(),
    "silu": lambda L, x: L.nn.functional.silu(x),
    "dropout2d_p0": lambda L, x: L.nn.functional.dropout2d(x, 0.0) * 1,
}


@pytest.mark.parametrize("name", sorted(_ELEMENTWISE))
@pytest.mark.parametrize("shape", [(2, 3, 1, 5), (2, 3, 4, 1), (1, 3, 1, 5), (2, 3, 4, 5)])
def test_elementwise_keeps_channels_last_strides_of_size_one_dims(name, shape):
    # a size-1 dim's stride in an elementwise result comes from its operands' strides
    # (NumPy's broadcasting zeroed it and moved the dim)
    same_layouts(lambda L: [_ELEMENTWISE[name](L, _rand(L, *shape, fmt="channels_last"))])


def _conv_grads(L, dtype, xfmt, wshape, transposed, create_graph, wfmt=None):
    dt = getattr(L, dtype)
    cin = wshape[0] if transposed else wshape[1]
    x = _rand(L, 2, cin, 4, 5, fmt=xfmt).to(dt).requires_grad_()
    w = _rand(L, *wshape, seed=1, fmt=wfmt).to(dt).requires_grad_()
    conv = L.nn.functional.conv_transpose2d if transposed else L.nn.functional.conv2d
    y = conv(x, w)
    if create_graph:  # (a gradient penalty: the gradients are the decomposition's)
        return [y, *L.autograd.grad((y * y).sum(), (x, w), create_graph=True)]
    y.sum().backward()
    return [y, x.grad, w.grad]


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16"])
@pytest.mark.parametrize("wshape", [(4, 3, 1, 1), (1, 3, 1, 1), (4, 3, 3, 3), (4, 3, 1, 3)])
@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize("xfmt", [None, "channels_last"])
@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("wfmt", [None, "channels_last"])
def test_conv_weight_grad_strides(dtype, wshape, transposed, xfmt, create_graph, wfmt):
    # outside oneDNN (float64, float16) a 1x1 kernel's weight gradient keeps contiguous
    # strides, a channels-last one (8, 1, 8, 8) too; under create_graph the weight gradient was a transposed (non-contiguous) view
    if dtype == "float16" and create_graph:
        pytest.skip("double backward of a float16 convolution: not the point here")
    ours, theirs = (_conv_grads(L, dtype, xfmt, wshape, transposed, create_graph, wfmt)
                    for L in (mindtorch, torch))
    for a, b in zip(ours, theirs, strict=True):
        assert layout_of(mindtorch, a) == layout_of(torch, b)
    if dtype == "float64":
        same_layouts(lambda L: _conv_grads(L, dtype, xfmt, wshape, transposed, create_graph, wfmt))


_POOLS = {
    "max_pool3d": lambda F, x: F.max_pool3d(x, 2),
    "avg_pool3d": lambda F, x: F.avg_pool3d(x, 2),
    "adaptive_avg_pool3d_1": lambda F, x: F.adaptive_avg_pool3d(x, 1),
    "adaptive_max_pool3d_1": lambda F, x: F.adaptive_max_pool3d(x, 1),
    "max_pool2d": lambda F, x: F.max_pool2d(x[:, :, 0], 2),
    "adaptive_avg_pool2d_1": lambda F, x: F.adaptive_avg_pool2d(x[:, :, 0], 1),
}


@pytest.mark.parametrize("name", sorted(_POOLS))
@pytest.mark.parametrize("n", [1, 2])
def test_pooling_to_one_element_keeps_channels_last_strides(name, n):
    # an (N, C, 1, 1, 1) result of a channels-last-3d input: (C, 1, C, C, C) as PyTorch's
    def program(L):
        x = _rand(L, n, 3, 2, 2, 2, fmt="channels_last_3d")
        if name.endswith("2d") or "2d_" in name:
            x = _rand(L, n, 3, 2, 2, 2)[:, :, :1].contiguous().squeeze(2).contiguous(
                memory_format=L.channels_last).unsqueeze(2)
        return [_POOLS[name](L.nn.functional, x)]
    same_layouts(program)


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
@pytest.mark.parametrize("batch, kernel", [(2, 1), (1, 1), (20, 1), (2, 2)])
@pytest.mark.parametrize("transposed", [False, True])
def test_conv3d_keeps_channels_last_3d_only_on_onednn(dtype, batch, kernel, transposed):
    # a single-threaded float32 1x1x1 convolution of a small batch is native: contiguous
    def program(L):
        x = _rand(L, batch, 3, 2, 3, 4, fmt="channels_last_3d").to(getattr(L, dtype))
        w = _rand(L, 3, 3, kernel, kernel, kernel, seed=1).to(getattr(L, dtype))
        conv = L.nn.functional.conv_transpose3d if transposed else L.nn.functional.conv3d
        x.requires_grad_()
        w.requires_grad_()
        y = conv(x, w)
        y.sum().backward()
        return [y, x.grad, w.grad]
    ours, theirs = program(mindtorch), program(torch)
    for a, b in zip(ours, theirs, strict=True):
        assert layout_of(mindtorch, a) == layout_of(torch, b)


@pytest.mark.parametrize("shape", [(2, 4, 4, 5), (2, 4, 1, 1), (1, 4, 2, 2), (2, 3, 2, 2),
                                   (1, 1, 2, 2), (2, 12, 1, 1)])
@pytest.mark.parametrize("fmt", [None, "channels_last"])
@pytest.mark.parametrize("op", ["pixel_shuffle", "pixel_unshuffle"])
def test_pixel_shuffles_strides_on_size_one_dims(shape, fmt, op):
    # channels-last: fresh channels-last strides ((80, 1, 10, 1) for (2, 1, 8, 10));
    # else contiguous ones, also where the result was a view of the input
    def program(L):
        x = _rand(L, *shape, fmt=fmt)
        fn = getattr(L.nn.functional, op)
        ok = shape[1] % 4 == 0 if op == "pixel_shuffle" else shape[2] % 2 == shape[3] % 2 == 0
        return [fn(x, 2)] if ok else []
    same_layouts(program)


@pytest.mark.parametrize("n, k, m", [(2, 1, 4), (3, 1, 3), (3, 2, 1), (1, 3, 2), (1, 1, 1)])
@pytest.mark.parametrize("transposed", [(0, 0), (0, 1), (1, 0), (1, 1)])
def test_mm_and_linear_gradient_strides_with_a_size_one_dim(n, k, m, transposed):
    # a linear layer with in_features=1: its weight's .grad was (1, 4) for PyTorch's (1, 1)
    # (the column-major rule held back where a matrix has a size-1 dim; ATen's does not)
    def leaf(L, rows, cols, t):
        x = _rand(L, cols, rows, seed=rows + cols).t() if t else _rand(L, rows, cols)
        return x.requires_grad_()

    def program(L):
        a, b = leaf(L, n, k, transposed[0]), leaf(L, k, m, transposed[1])
        L.nn.functional.linear(a, b.t()).sum().backward()
        return [a.grad, b.grad, *L.autograd.grad((a @ b).sum(), (a, b))]
    same_layouts(program)


_NORMS = {
    "batch_norm": lambda F, x, w: F.batch_norm(x, None, None, w, None, training=True),
    "group_norm": lambda F, x, w: F.group_norm(x, 1, w),
    "batch_norm_eval": lambda F, x, w: F.batch_norm(x, w.detach() * 0, w.detach() * 0 + 1, w,
                                                    None),
    "layer_norm": lambda F, x, w: F.layer_norm(x, x.shape[-1:]),
}


@pytest.mark.parametrize("name", sorted(_NORMS))
@pytest.mark.parametrize("xfmt, gfmt", [("channels_last", None), ("channels_last", "cl"),
                                        (None, "cl"), ("channels_last_3d", None)])
def test_norm_input_gradient_in_the_input_format(name, xfmt, gfmt):
    # batch / group norm's input gradient is laid out as the input suggests, whatever the
    # incoming gradient's layout (it followed the gradient, or was always contiguous)
    def program(L):
        shape = (2, 4, 2, 3, 2) if xfmt == "channels_last_3d" else (2, 3, 4, 5)
        x = _rand(L, *shape, fmt=xfmt, requires_grad=True)
        w = _rand(L, shape[1], seed=1, requires_grad=True)
        y = _NORMS[name](L.nn.functional, x, w)
        g = _rand(L, *shape, seed=2, fmt=gfmt and xfmt or (gfmt and "channels_last"))
        grads = L.autograd.grad(y, (x, w), g, allow_unused=True)
        return [y, *(t for t in grads if t is not None)]
    same_layouts(program)


@pytest.mark.parametrize("opt", ["Adam", "AdamW", "RMSprop", "Adagrad", "SGD", "NAdam"])
def test_optimizer_state_strides_after_module_to_channels_last(opt):
    # small tensors' states live in one flat buffer: their views took contiguous strides
    # where zeros_like(p) keeps a 1x1 kernel's channels-last (3, 1, 3, 3)
    def program(L):
        L.manual_seed(0)
        m = L.nn.Sequential(L.nn.Conv2d(3, 6, 1), L.nn.Conv2d(6, 6, 1), L.nn.Conv2d(6, 4, 3),
                            L.nn.Conv2d(4, 4, 1)).double()
        with L.no_grad():
            for i, p in enumerate(m.parameters()):
                p.copy_(_rand(L, *p.shape, seed=i))
        m = m.to(memory_format=L.channels_last)
        kw = {"momentum": 0.9} if opt in ("SGD", "RMSprop") else {}
        o = getattr(L.optim, opt)(m.parameters(), lr=0.01, **kw)
        for step in range(4):
            o.zero_grad()
            m(_rand(L, 2, 3, 5, 5, seed=10 + step)).square().sum().backward()
            o.step()
        states = [v for p in m.parameters() for v in o.state[p].values()
                  if isinstance(v, L.Tensor) and v.dim() > 0]
        return [*m.parameters(), *states]
    same_layouts(program)


_LAYOUTS = [((2, 1, 4, 5), (0, 2, 3, 1)), ((2, 3, 1, 1), (0, 2, 3, 1)), ((1, 3, 4, 5), (1, 2, 3, 0)),
            ((1, 3, 1, 5), (0, 2, 3, 1)), ((2, 3, 1, 5), (0, 3, 1, 2)), ((1, 3, 1, 1), (2, 3, 0, 1)),
            ((2, 3, 4, 5), (0, 2, 3, 1)), ((1, 1, 4, 5), (0, 2, 3, 1))]


def _permuted(L, shape, order, step=1):
    """A dense (or, step 2, sliced) tensor of `shape` whose dims lie in memory in `order`
    (outermost first)."""
    base = [shape[d] for d in order]
    base[-1] *= step
    t = _rand(L, *base)[..., ::step]
    return t.permute(*[order.index(d) for d in range(len(shape))])


_LAID_OUT = {
    "batch_norm_eval": lambda L, x: L.nn.functional.batch_norm(
        x, L.zeros(x.shape[1], dtype=L.float64), L.ones(x.shape[1], dtype=L.float64)),
    "batch_norm_train": lambda L, x: L.nn.functional.batch_norm(x, None, None, training=True),
    "group_norm": lambda L, x: L.nn.functional.group_norm(x, 1),
    "cat_batch": lambda L, x: L.cat([x, x.clone()], 0),
    "cat_channels": lambda L, x: L.cat([x, x.clone()], 1),
}


@pytest.mark.parametrize("name", sorted(_LAID_OUT))
@pytest.mark.parametrize("shape, order", _LAYOUTS)
@pytest.mark.parametrize("step", [1, 2])
def test_norm_and_cat_result_strides_on_ambiguous_layouts(name, shape, order, step):
    # batch norm: contiguous for a contiguous input (an (N, C, 1, 1) channels-last one
    # too), channels-last for a channels-last-contiguous one; group norm and cat: fresh
    # strides of the suggested format (NumPy's / contiguous()'s differed on size-1 dims)
    def program(L):
        x = _permuted(L, shape, order, step)
        if name == "batch_norm_train" and shape[0] * shape[2] * shape[3] == 1:
            return []
        return [_LAID_OUT[name](L, x)]
    same_layouts(program)


@pytest.mark.parametrize("call", [
    lambda L: L.zeros(2, 3, 4, 5).to(memory_format="channels_last"),
    lambda L: L.zeros(2, 3, 4, 5).to(L.float64, memory_format="channels_last"),
    lambda L: L.zeros(2, 3, 4, 5).to(memory_format=1),
    lambda L: L.nn.Conv2d(3, 4, 3).to(memory_format="channels_last"),
    lambda L: L.zeros(2, 3, 4, 5).to("cpu", memory_format=L.channels_last).stride(),
    lambda L: L.nn.Conv2d(3, 4, 3).to(L.float64, memory_format=L.channels_last).weight.stride(),
])
def test_to_refuses_a_memory_format_given_by_name(call):
    # (mindtorch's formats are str subclasses: the name alone passed as one)
    from reference import same_outcome

    def program(L):
        r = call(L)
        return "module" if isinstance(r, L.nn.Module) else r
    same_outcome(program)
