"""Regression tests for QA round 14a (the memory_format= argument and result strides of
memory formats), each against torch."""
import mindtorch
import numpy as np
import pytest
from reference import layout_of, same_errors, same_layouts

torch = pytest.importorskip("torch")


def _rand(L, *shape, fmt=None, seed=0):
    t = L.tensor(np.random.default_rng(seed).standard_normal(shape), dtype=L.float64)
    return t.contiguous(memory_format=getattr(L, fmt)) if fmt else t


# -- memory_format= refuses a format's name as a str (and other non-formats) ---------------

_TAKING_FORMAT = {
    "contiguous": lambda L, x, f: x.contiguous(memory_format=f),
    "clone": lambda L, x, f: x.clone(memory_format=f),
    "torch.clone": lambda L, x, f: L.clone(x, memory_format=f),
    "empty_like": lambda L, x, f: L.empty_like(x, memory_format=f),
    "zeros_like": lambda L, x, f: L.zeros_like(x, memory_format=f),
    "ones_like": lambda L, x, f: L.ones_like(x, memory_format=f),
    "full_like": lambda L, x, f: L.full_like(x, 2.0, memory_format=f),
    "empty": lambda L, x, f: L.empty(2, 3, 4, 5, memory_format=f),
    "is_contiguous": lambda L, x, f: x.is_contiguous(memory_format=f),
    "to": lambda L, x, f: x.to(memory_format=f),
    "to_dtype": lambda L, x, f: x.to(L.float32, memory_format=f),
    "float": lambda L, x, f: x.float(memory_format=f),
    "double": lambda L, x, f: x.double(memory_format=f),
    "half": lambda L, x, f: x.half(memory_format=f),
    "long": lambda L, x, f: x.long(memory_format=f),
    "bool": lambda L, x, f: x.bool(memory_format=f),
    "cpu": lambda L, x, f: x.cpu(memory_format=f),
    "resize_": lambda L, x, f: L.empty(0).resize_(2, 3, 4, 5, memory_format=f),
    "resize_as_": lambda L, x, f: L.empty(0).resize_as_(x, memory_format=f),
    "module.to": lambda L, x, f: L.nn.Conv2d(3, 3, 1).to(memory_format=f).weight,
}

_NOT_FORMATS = {"channels_last": "channels_last", "contiguous_format": "contiguous_format",
                "preserve_format": "preserve_format", "int": 1, "dtype": "float32"}


def _value(L, name):
    v = _NOT_FORMATS[name]
    return getattr(L, v) if name == "dtype" else v


@pytest.mark.parametrize("value", sorted(_NOT_FORMATS))
@pytest.mark.parametrize("name", sorted(_TAKING_FORMAT))
def test_memory_format_argument_refuses_names_and_other_types(name, value):
    # (formats are str subclasses in mindtorch: their names used to pass as formats)
    same_errors(lambda L: _TAKING_FORMAT[name](L, _rand(L, 2, 3, 4, 5), _value(L, value)))


@pytest.mark.parametrize("fn", ["rand_like", "randn_like"])
def test_random_like_refuses_a_format_name(fn):
    for L in (mindtorch, torch):
        with pytest.raises(TypeError):
            getattr(L, fn)(_rand(L, 2, 3, 4, 5), memory_format="channels_last")


@pytest.mark.parametrize("fmt", ["channels_last", "contiguous_format", "preserve_format"])
@pytest.mark.parametrize("name", sorted(_TAKING_FORMAT))
def test_memory_format_objects_are_taken(name, fmt):
    def program(L):
        r = _TAKING_FORMAT[name](L, _rand(L, 2, 3, 4, 5), getattr(L, fmt))
        return layout_of(L, r) if isinstance(r, L.Tensor) else r
    ours, theirs = same_errors(program)
    assert ours == theirs


@pytest.mark.parametrize("call", [
    lambda L, x: x.contiguous(memory_format=None),
    lambda L, x: x.is_contiguous(memory_format=None),
    lambda L, x: x.float(memory_format=1),
    lambda L, x: x.new_empty((2,), memory_format=L.channels_last),
    lambda L, x: x.new_zeros((2,), memory_format=L.contiguous_format),
    lambda L, x: x.new_ones((2,), foo=1),
    lambda L, x: x.new_empty((2,), layout=L.strided, pin_memory=False).shape,
    lambda L, x: x.new_zeros(size=(2,)).shape,
])
def test_none_and_unexpected_keywords(call):
    # contiguous / is_contiguous take no None (their default is contiguous_format); the
    # new_* factories no memory_format=
    ours, theirs = same_errors(lambda L: call(L, _rand(L, 2, 3, 4, 5)))
    assert ours == theirs


# -- contiguous(preserve_format) ----------------------------------------------------------

@pytest.mark.parametrize("fmt", [None, "channels_last"])
def test_contiguous_refuses_preserve_format_unless_already_contiguous(fmt):
    def program(L):
        x = _rand(L, 2, 3, 4, 5, fmt=fmt)
        r = x.contiguous(memory_format=L.preserve_format)
        return r is x, r.stride()
    ours, theirs = same_errors(program)
    assert ours == theirs


# -- gradients --------------------------------------------------------------------------

@pytest.mark.parametrize("dims", [(1, 2), None, 1, (0, 2, 3)])
@pytest.mark.parametrize("fmt", [None, "channels_last"])
def test_mean_gradient_is_a_dense_tensor(dims, fmt):
    # (it was the incoming gradient expanded: stride 0, refused by in-place ops)
    def program(L):
        x = _rand(L, 2, 3, 4, 5, fmt=fmt).requires_grad_()
        y = x.mean() if dims is None else x.mean(dims)
        g, = L.autograd.grad(y, x, L.ones_like(y))
        return [g, g.add_(1)]
    same_layouts(program)


@pytest.mark.parametrize("out_dtype", ["float32", "float16"])
def test_root_gradient_is_cast_to_the_output_dtype(out_dtype):
    def program(L):
        x = L.tensor([1.0, 2.0, 3.0], dtype=L.float64, requires_grad=True)
        y = x.to(getattr(L, out_dtype))
        g = L.tensor([0.1, 0.2, 1 / 3], dtype=L.float64)
        raw, = L.autograd.grad(y, x, g, retain_graph=True)
        y.backward(g)
        return [raw, x.grad]
    same_layouts(program)


_GRAD_LAYOUTS = {
    # PyTorch's kernels: grad-first TensorIterators (hardtanh_backward...), or results
    # written into a fresh contiguous tensor (mse / huber / smooth_l1 / soft_margin) or
    # into empty_like(input) (binary_cross_entropy)
    "hardtanh": lambda L, x: L.nn.functional.hardtanh(x),
    "relu6": lambda L, x: L.nn.functional.relu6(x),
    "hardsigmoid": lambda L, x: L.nn.functional.hardsigmoid(x),
    "hardshrink": lambda L, x: L.nn.functional.hardshrink(x),
    "softshrink": lambda L, x: L.nn.functional.softshrink(x),
    "nan_to_num": lambda L, x: x.nan_to_num(),
    "mse": lambda L, x: L.nn.functional.mse_loss(x, x.detach().contiguous() * 0.5,
                                                  reduction="none"),
    "mse_mean": lambda L, x: L.nn.functional.mse_loss(x, x.detach() * 0.5).expand(x.shape),
    "huber": lambda L, x: L.nn.functional.huber_loss(x, x.detach() * 0.5, reduction="none"),
    "smooth_l1": lambda L, x: L.nn.functional.smooth_l1_loss(x, x.detach().contiguous() * 0.5,
                                                             reduction="none"),
    "soft_margin": lambda L, x: L.nn.functional.soft_margin_loss(
        x, x.detach().contiguous().sign(), reduction="none"),
    "bce": lambda L, x: L.nn.functional.binary_cross_entropy(
        x.sigmoid(), (x.detach() > 0).double().contiguous(), reduction="none"),
}


def _gradient_of(fn, shape, layouts):
    """program(L): fn's result and input gradient, the input and incoming gradient laid out
    as `layouts` says ("cl": channels_last, "c": contiguous)."""
    def program(L):
        x = _rand(L, *shape, fmt="channels_last" if layouts[0] == "cl" else None)
        x.requires_grad_()
        y = fn(L, x)
        g = _rand(L, *y.shape, seed=3, fmt="channels_last" if layouts[1] == "cl" else None)
        return [y, *L.autograd.grad(y, x, g)]
    return program


@pytest.mark.parametrize("layouts", [("cl", "c"), ("c", "cl"), ("cl", "cl")])
@pytest.mark.parametrize("shape", [(2, 3, 4, 5), (2, 3, 1, 5)])
@pytest.mark.parametrize("name", sorted(_GRAD_LAYOUTS))
def test_gradient_layouts_of_activation_and_loss_backwards(name, shape, layouts):
    same_layouts(_gradient_of(_GRAD_LAYOUTS[name], shape, layouts))


# -- elementwise results: TensorIterator's layout (fast setups, operand order) --------------

def _strided(L, shape, perm, step=1, seed=0):
    """A tensor of `shape` whose memory holds its dims in order `perm` (outermost first),
    its last dim sliced by `step`."""
    big = list(shape)
    big[-1] *= step
    base = _rand(L, *[big[p] for p in perm], seed=seed)
    t = base.permute(*np.argsort(perm).tolist())
    return t[..., ::step] if step > 1 else t


_LAYOUTS = [((2, 3, 1, 5), (0, 2, 3, 1), 1), ((1, 3, 4, 1), (0, 2, 3, 1), 1),
            ((1, 3, 4, 5), (2, 0, 1, 3), 1), ((3, 4, 1, 3, 1), (4, 0, 3, 1, 2), 1),
            ((1, 4, 2), (1, 0, 2), 2), ((3, 1, 2, 2), (1, 0, 2, 3), 2), ((4, 2, 1), (1, 0, 2), 1),
            ((2, 3, 4, 5), (0, 2, 3, 1), 2), ((1, 1, 3, 3), (2, 1, 0, 3), 2)]

_ELEMENTWISE = {
    "exp": lambda L, x, y: x.exp(), "relu": lambda L, x, y: L.relu(x),
    "neg": lambda L, x, y: -x, "abs": lambda L, x, y: x.abs(),
    "clamp": lambda L, x, y: x.clamp(-0.5, 0.5), "gelu": lambda L, x, y: L.nn.functional.gelu(x),
    "silu": lambda L, x, y: L.nn.functional.silu(x), "sigmoid": lambda L, x, y: x.sigmoid(),
    "x+x": lambda L, x, y: x + x, "x+y": lambda L, x, y: x + y, "y*x": lambda L, x, y: y * x,
    "c-y": lambda L, x, y: x.contiguous() - y, "x-c": lambda L, x, y: x - y.contiguous(),
    "gt": lambda L, x, y: x > y, "div": lambda L, x, y: x / (y.abs() + 1),
    "lerp": lambda L, x, y: L.lerp(x, y, 0.3), "where": lambda L, x, y: L.where(x > y, x, y),
    "silu_backward": lambda L, x, y: L.ops.aten.silu_backward(y, x),
}


@pytest.mark.parametrize("second", range(3))
@pytest.mark.parametrize("first", range(len(_LAYOUTS)))
@pytest.mark.parametrize("name", sorted(_ELEMENTWISE))
def test_elementwise_results_are_laid_out_as_tensor_iterator(name, first, second):
    # a single input: its own strides when dense (size-1 dims included), fresh channels-last
    # ones when channels-last-contiguous; mixed layouts: the dims ordered by the first
    # operand telling them apart, size-1 dims placed as PyTorch places them
    shape, perm, step = _LAYOUTS[first]
    other = [(perm, step), (tuple(range(len(shape))), 1), (tuple(reversed(range(len(shape)))), 2)]
    perm2, step2 = other[second]

    def program(L):
        x, y = _strided(L, shape, perm, step), _strided(L, shape, perm2, step2, seed=1)
        return [_ELEMENTWISE[name](L, x, y).double()]
    same_layouts(program)


_POOL_GRADS = {
    "max_pool": lambda L, x, nd: getattr(L.nn.functional, f"max_pool{nd}d")(x, 2, ceil_mode=True),
    "max_pool_s1": lambda L, x, nd: getattr(L.nn.functional, f"max_pool{nd}d")(x, 3, 1, 1),
    "avg_pool": lambda L, x, nd: getattr(L.nn.functional, f"avg_pool{nd}d")(x, 2, ceil_mode=True),
    "adaptive_avg": lambda L, x, nd: getattr(L.nn.functional, f"adaptive_avg_pool{nd}d")(x, 2),
    "adaptive_max": lambda L, x, nd: getattr(L.nn.functional, f"adaptive_max_pool{nd}d")(x, 2),
    "replicate": lambda L, x, nd: L.nn.functional.pad(x, (1,) * (2 * nd), mode="replicate"),
    "reflect": lambda L, x, nd: L.nn.functional.pad(x, (1,) * (2 * nd), mode="reflect"),
}


@pytest.mark.parametrize("grad_cl", [False, True])
@pytest.mark.parametrize("x_cl", [False, True])
@pytest.mark.parametrize("shape", [(2, 3, 4, 5), (1, 3, 4, 4), (2, 1, 4, 5), (2, 3, 4, 4, 5)])
@pytest.mark.parametrize("name", sorted(_POOL_GRADS))
def test_pooling_and_padding_input_gradients_keep_the_input_layout(name, shape, x_cl, grad_cl):
    # (PyTorch lays them out as the input's suggested format, whatever grad_output's)
    def program(L):
        fmt = L.channels_last if len(shape) == 4 else L.channels_last_3d
        x = _rand(L, *shape)
        x = (x.contiguous(memory_format=fmt) if x_cl else x).requires_grad_()
        y = _POOL_GRADS[name](L, x, len(shape) - 2)
        g = _rand(L, *y.shape, seed=2)
        return [y, *L.autograd.grad(y, x, g.contiguous(memory_format=fmt) if grad_cl else g)]
    same_layouts(program)


@pytest.mark.parametrize("p", [2, 1, 3, 0.5, 1.5, float("inf")])
@pytest.mark.parametrize("keepdim", [True, False])
@pytest.mark.parametrize("shape", [(2, 4, 5, 6), (2, 4, 1, 6)])
def test_norm_gradient_of_a_channels_last_input_is_channels_last(p, keepdim, shape):
    # (ATen masks the quotient in place; an out-of-place masked_fill lays it out contiguous)
    def program(L):
        x = _rand(L, *shape, fmt="channels_last").requires_grad_()
        y = x.norm(p=p, dim=1, keepdim=keepdim)
        z = L.linalg.vector_norm(x, ord=p, dim=(1, 2), keepdim=keepdim)
        g1, = L.autograd.grad(y, x, L.ones_like(y), create_graph=True)
        g2, = L.autograd.grad(z, x, L.ones_like(z))
        # (the second gradient's values: in torch a ZeroTensor for p = 1 / inf)
        second = float(L.autograd.grad((g1 * g1).sum(), x)[0].sum())
        return [g1, g2, L.tensor(second, dtype=L.float64)]
    same_layouts(program)


@pytest.mark.parametrize("fmt", ["channels_last", "contiguous_format", "preserve_format",
                                 "channels_last_3d"])
@pytest.mark.parametrize("nd", [2, 3])
def test_convert_conv_weight_memory_format(nd, fmt):
    # (PyTorch: contiguous(memory_format) then resize_(), which refuses preserve_format)
    def program(L):
        L.manual_seed(0)
        conv = getattr(L.nn, f"Conv{nd}d")(3, 4, 3).double()
        convert = getattr(L.nn.utils, f"convert_conv{nd}d_weight_memory_format")
        return [convert(L.nn.Sequential(conv), getattr(L, fmt))[0].weight]
    ours, theirs = same_errors(lambda L: layout_of(L, program(L)[0]))
    assert ours == theirs


@pytest.mark.parametrize("grad_cl", [False, True])
@pytest.mark.parametrize("x_cl", [False, True])
@pytest.mark.parametrize("spatial", [(4, 4), (1, 1), (4, 4, 4), (1, 1, 1)])
@pytest.mark.parametrize("mode", ["nearest", "linear", "cubic", "nearest-exact"])
def test_upsampling_gradients_follow_the_incoming_gradient_layout(mode, spatial, x_cl, grad_cl):
    # (bilinear / nearest 2-d and trilinear: grad_output's format; bicubic, nearest 3-d:
    # contiguous)
    nd = len(spatial)
    if mode == "cubic" and nd == 3:
        return
    modes = {"linear": {2: "bilinear", 3: "trilinear"}[nd], "cubic": "bicubic"}

    def program(L):
        fmt = L.channels_last if nd == 2 else L.channels_last_3d
        x = _rand(L, 2, 3, *spatial)
        x = (x.contiguous(memory_format=fmt) if x_cl else x).requires_grad_()
        y = L.nn.functional.interpolate(x, scale_factor=2, mode=modes.get(mode, mode))
        g = _rand(L, *y.shape, seed=2)
        return [y, *L.autograd.grad(y, x, g.contiguous(memory_format=fmt) if grad_cl else g)]
    same_layouts(program)


_SMALL_GRADS = {
    # sign / floor / round: zeros_like(grad); squeeze: grad unsqueezed back (a reshape's
    # strides differ on size-1 dims); gelu's tanh approximation: a grad-first iterator
    "sign": lambda L, x: x.sign(), "floor": lambda L, x: x.floor(),
    "round": lambda L, x: x.round(),
    "squeeze": lambda L, x: x.unsqueeze(1).squeeze(1) * 1,
    "squeeze_all": lambda L, x: x.squeeze().unsqueeze(0) * 1,
    "gelu_tanh": lambda L, x: L.nn.functional.gelu(x, approximate="tanh"),
}


@pytest.mark.parametrize("layouts", [("c", "cl"), ("cl", "c"), ("cl", "cl")])
@pytest.mark.parametrize("shape", [(1, 4, 5, 6), (2, 3, 1, 5)])
@pytest.mark.parametrize("name", sorted(_SMALL_GRADS))
def test_small_gradient_layouts(name, shape, layouts):
    if name == "squeeze_all" and shape[0] != 1:
        return
    same_layouts(_gradient_of(_SMALL_GRADS[name], shape, layouts))
