"""Forward-mode AD (mindtorch.autograd.forward_ad) against PyTorch's: the same primals and
tangents in both, the results' primals and tangents compared, for a table of ops
(broadcasting, non-contiguous, 0-dim, views, in-place, nn.functional), nesting with
backward, grad modes, and the API's errors."""
import mindtorch
import numpy as np
import pytest
import torch
from reference import assert_same

RNG = np.random.default_rng(0)


def randn(*shape):
    return RNG.standard_normal(shape)


def pos(*shape):
    return RNG.uniform(0.2, 1.5, shape)


def unit(*shape):
    return RNG.uniform(-0.8, 0.8, shape)


class nc:
    """A non-contiguous dual input: the transpose of a contiguous tensor."""

    def __init__(self, array):
        self.array = np.asarray(array)


class const:
    """A tensor argument without tangent (indices, targets, masks)."""

    def __init__(self, array):
        self.array = np.asarray(array)


def _inputs(lib, specs, dtype):
    fw = lib.autograd.forward_ad
    dt = getattr(lib, dtype)
    out = []
    for k, s in enumerate(specs):
        if isinstance(s, const):
            out.append(lib.tensor(s.array))
            continue
        if isinstance(s, nc):
            primal = lib.tensor(np.ascontiguousarray(s.array.T), dtype=dt).T
            array = s.array
        else:
            primal, array = lib.tensor(s, dtype=dt), np.asarray(s)
        tangent = np.random.default_rng(100 + k).standard_normal(array.shape)
        out.append(fw.make_dual(primal, lib.tensor(tangent, dtype=dt)))
    return out


def forward_ad(lib, fn, specs, dtype="float64"):
    """[(primal, tangent)] of fn's tensor results, under a dual level."""
    fw = lib.autograd.forward_ad
    with fw.dual_level():
        out = fn(lib, *_inputs(lib, specs, dtype))
        outs = out if isinstance(out, (tuple, list)) else (out,)
        return [tuple(fw.unpack_dual(o)) for o in outs if isinstance(o, lib.Tensor)]


def check(fn, *specs, dtype="float64", tol=None):
    ours = forward_ad(mindtorch, fn, specs, dtype)
    theirs = forward_ad(torch, fn, specs, dtype)
    assert len(ours) == len(theirs)
    rtol, atol = tol if tol is not None else (None, None)
    for (p, t), (tp, tt) in zip(ours, theirs):
        assert_same(p, tp, rtol=rtol, atol=atol)
        assert (t is None) == (tt is None), (t, tt)
        if tt is not None:
            assert_same(t, tt, rtol=rtol, atol=atol)


def F(lib):
    return lib.nn.functional


def ip(name, *args, **kw):
    """An in-place method on a (non-leaf) copy of the first input."""
    def fn(m, x, *rest):
        y = x.clone()
        r = getattr(y, name)(*rest, *args, **kw)
        assert r is y
        return y
    return fn


IDX = const(np.array([2, 0, 1, 2]))
MASK = const(RNG.standard_normal((3, 4)) > 0)

CASES = {
    # pointwise, unary
    **{n: (lambda m, x, n=n: getattr(m, n)(x), [randn(3, 4)]) for n in (
        "exp", "sin", "cos", "tanh", "sigmoid", "relu", "abs", "neg", "erf", "expm1",
        "atan", "square", "sinh", "cosh", "floor", "sign", "sgn", "frac", "trunc", "erfc",
        "exp2", "deg2rad")},
    **{n: (lambda m, x, n=n: getattr(m, n)(x), [pos(3, 4)]) for n in (
        "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "reciprocal", "lgamma",
        "digamma")},
    **{n: (lambda m, x, n=n: getattr(m, n)(x), [unit(3, 4)]) for n in (
        "asin", "acos", "atanh", "erfinv")},
    # pointwise, binary (broadcasting) and with numbers
    **{n: (lambda m, x, y, n=n: getattr(m, n)(x, y), [randn(3, 4), randn(4)]) for n in (
        "add", "sub", "mul", "maximum", "minimum", "atan2", "hypot", "fmax", "copysign")},
    "div": (lambda m, x, y: x / y, [randn(2, 3, 4), pos(3, 1)]),
    "div_floor": (lambda m, x, y: m.div(x, y, rounding_mode="floor"), [randn(3), pos(3)]),
    "pow": (lambda m, x, y: m.pow(x, y), [pos(3, 4), randn(3, 4)]),
    "pow_scalar": (lambda m, x: x ** 3, [randn(3, 4)]),
    "rpow": (lambda m, x: 2 ** x, [randn(3, 4)]),
    "add_alpha": (lambda m, x, y: m.add(x, y, alpha=2.5), [randn(3, 4), randn(3, 4)]),
    "sub_number": (lambda m, x: 3 - x * 2 + 1, [randn(3, 4)]),
    "where": (lambda m, x, y: m.where(x > 0, x, y), [randn(3, 4), randn(4)]),
    "clamp": (lambda m, x: x.clamp(-0.5, 0.5), [randn(3, 4)]),
    "clamp_tensor": (lambda m, x, lo: x.clamp(min=lo), [randn(3, 4), randn(4)]),
    "lerp": (lambda m, x, y, w: m.lerp(x, y, w), [randn(3), randn(3), randn(3)]),
    "addcmul": (lambda m, x, y, z: m.addcmul(x, y, z, value=0.5),
                [randn(3), randn(3), randn(3)]),
    "xlogy": (lambda m, x, y: m.xlogy(x, y), [randn(4), pos(4)]),
    "zero_dim": (lambda m, x, y: x * y + x.exp(), [randn(), randn(2, 3)]),
    "nonconti": (lambda m, x, y: x * y.sin(), [nc(randn(3, 4)), nc(randn(3, 4))]),
    "nonconti_bcast": (lambda m, x, y: x + y, [nc(randn(3, 4)), randn(4)]),
    "empty": (lambda m, x: x.exp() * 2, [randn(0, 3)]),
    "dtype_to": (lambda m, x: x.to(m.float32).double() * 2, [randn(3)]),
    # reductions
    "sum": (lambda m, x: x.sum(), [randn(3, 4)]),
    "sum_dim": (lambda m, x: x.sum(1, keepdim=True), [nc(randn(3, 4))]),
    "mean": (lambda m, x: x.mean((0, 1)), [randn(2, 3, 4)]),
    "prod": (lambda m, x: x.prod(1), [randn(3, 4)]),
    "prod_all": (lambda m, x: x.prod(), [randn(3, 4)]),
    "amax": (lambda m, x: x.amax(1), [randn(3, 4)]),
    "max_all": (lambda m, x: x.max(), [randn(3, 4)]),
    "max_dim": (lambda m, x: x.max(1), [randn(3, 4)]),
    "min_dim": (lambda m, x: x.min(0, keepdim=True), [randn(3, 4)]),
    "std": (lambda m, x: x.std(1), [randn(3, 4)]),
    "var": (lambda m, x: x.var(), [randn(3, 4)]),
    "norm": (lambda m, x: x.norm(), [randn(3, 4)]),
    "norm_dim": (lambda m, x: m.linalg.vector_norm(x, 3, dim=0), [randn(3, 4)]),
    "logsumexp": (lambda m, x: x.logsumexp(1), [randn(3, 4)]),
    "cumsum": (lambda m, x: x.cumsum(0), [randn(3, 4)]),
    "cumprod": (lambda m, x: x.cumprod(1), [randn(3, 4)]),
    "sort": (lambda m, x: x.sort(1), [randn(3, 4)]),
    "topk": (lambda m, x: x.topk(2), [randn(3, 4)]),
    "kthvalue": (lambda m, x: x.kthvalue(2, 0), [randn(3, 4)]),
    "cummax": (lambda m, x: x.cummax(1), [randn(3, 4)]),
    "median": (lambda m, x: x.median(1), [randn(3, 5)]),
    # linear algebra
    "mm": (lambda m, x, y: x @ y, [randn(3, 4), randn(4, 2)]),
    "mm_nc": (lambda m, x, y: m.mm(x, y), [nc(randn(3, 4)), nc(randn(4, 2))]),
    "matmul_bcast": (lambda m, x, y: m.matmul(x, y), [randn(2, 3, 4), randn(4, 5)]),
    "matmul_vec": (lambda m, x, y: m.matmul(x, y), [randn(4), randn(2, 4, 3)]),
    "bmm": (lambda m, x, y: m.bmm(x, y), [randn(2, 3, 4), randn(2, 4, 2)]),
    "mv": (lambda m, x, y: m.mv(x, y), [randn(3, 4), randn(4)]),
    "dot": (lambda m, x, y: m.dot(x, y), [randn(4), randn(4)]),
    "outer": (lambda m, x, y: m.outer(x, y), [randn(4), randn(3)]),
    "einsum": (lambda m, x, y: m.einsum("ij,jk->ik", x, y), [randn(3, 4), randn(4, 2)]),
    "addmm": (lambda m, b, x, y: m.addmm(b, x, y, beta=0.5, alpha=2.0),
              [randn(3), randn(3, 4), randn(4, 3)]),
    "baddbmm": (lambda m, b, x, y: m.baddbmm(b, x, y), [randn(2, 3, 3), randn(2, 3, 4),
                                                        randn(2, 4, 3)]),
    "inv": (lambda m, x: m.linalg.inv(x), [randn(3, 3) + 3 * np.eye(3)]),
    "det": (lambda m, x: m.linalg.det(x), [randn(3, 3)]),
    "solve": (lambda m, a, b: m.linalg.solve(a, b), [randn(3, 3) + 3 * np.eye(3), randn(3, 2)]),
    "cholesky": (lambda m, x: m.linalg.cholesky(x @ x.mT + m.eye(3, dtype=x.dtype)),
                 [randn(3, 3)]),
    "trace": (lambda m, x: m.trace(x), [randn(3, 3)]),
    "cross": (lambda m, x, y: m.linalg.cross(x, y), [randn(2, 3), randn(2, 3)]),
    # views
    "view": (lambda m, x: x.view(4, 3), [randn(3, 4)]),
    "reshape_nc": (lambda m, x: x.reshape(-1), [nc(randn(3, 4))]),
    "transpose": (lambda m, x: x.transpose(0, 1), [randn(3, 4)]),
    "permute": (lambda m, x: x.permute(2, 0, 1), [randn(2, 3, 4)]),
    "expand": (lambda m, x: x.expand(3, 2, 4), [randn(2, 1)]),
    "narrow": (lambda m, x: x.narrow(1, 1, 2), [randn(3, 4)]),
    "select": (lambda m, x: x.select(0, 1), [randn(3, 4)]),
    "getitem": (lambda m, x: x[1:, ::2], [randn(3, 4)]),
    "getitem_int": (lambda m, x: x[1], [randn(3, 4)]),
    "getitem_adv": (lambda m, x, i: x[i], [randn(3, 4), IDX]),
    "getitem_mask": (lambda m, x, k: x[k], [randn(3, 4), MASK]),
    "unsqueeze": (lambda m, x: x.unsqueeze(1).squeeze(), [randn(3, 4)]),
    "flatten": (lambda m, x: x.flatten(), [randn(2, 3, 4)]),
    "t": (lambda m, x: x.t(), [randn(3, 4)]),
    "diagonal": (lambda m, x: x.diagonal(), [randn(3, 4)]),
    "unbind": (lambda m, x: x.unbind(1), [randn(3, 4)]),
    "split": (lambda m, x: x.split([1, 3], 1), [randn(3, 4)]),
    "chunk": (lambda m, x: x.chunk(2), [randn(4, 2)]),
    "view_of_view": (lambda m, x: x.t()[1:].reshape(-1) * 2, [randn(3, 4)]),
    "contiguous": (lambda m, x: x.t().contiguous(), [randn(3, 4)]),
    # joining and indexing
    "cat": (lambda m, x, y: m.cat([x, y], 1), [randn(3, 4), randn(3, 2)]),
    "stack": (lambda m, x, y: m.stack([x, y]), [randn(3, 4), randn(3, 4)]),
    "cat_const": (lambda m, x: m.cat([x, m.ones(2, 4, dtype=x.dtype)]), [randn(3, 4)]),
    "index_select": (lambda m, x, i: x.index_select(0, i), [randn(3, 4), IDX]),
    "gather": (lambda m, x, i: x.gather(0, i.view(1, 4).expand(2, 4)), [randn(3, 4), IDX]),
    "masked_fill": (lambda m, x, k: x.masked_fill(k, 2.0), [randn(3, 4), MASK]),
    "scatter": (lambda m, x, s, i: x.scatter(0, i[:2].view(1, 2), s),
                [randn(3, 4), randn(1, 2), IDX]),
    "flip_roll": (lambda m, x: x.flip(0).roll(1, 1), [randn(3, 4)]),
    "repeat": (lambda m, x: x.repeat(2, 1), [randn(3, 4)]),
    "tril": (lambda m, x: x.tril(), [randn(3, 4)]),
    "pad": (lambda m, x: F(m).pad(x, (1, 2), value=3.0), [randn(3, 4)]),
    # nn.functional
    "linear": (lambda m, x, w, b: F(m).linear(x, w, b), [randn(2, 4), randn(3, 4), randn(3)]),
    "linear_nobias": (lambda m, x, w: F(m).linear(x, w), [randn(5, 2, 4), randn(3, 4)]),
    "conv1d": (lambda m, x, w, b: F(m).conv1d(x, w, b, padding=1),
               [randn(2, 3, 7), randn(4, 3, 3), randn(4)]),
    "conv2d": (lambda m, x, w, b: F(m).conv2d(x, w, b, stride=2, padding=1),
               [randn(1, 2, 5, 5), randn(3, 2, 3, 3), randn(3)]),
    "conv2d_groups": (lambda m, x, w: F(m).conv2d(x, w, groups=2),
                      [randn(1, 4, 4, 4), randn(2, 2, 3, 3)]),
    "conv_transpose2d": (lambda m, x, w: F(m).conv_transpose2d(x, w, stride=2),
                         [randn(1, 2, 3, 3), randn(2, 3, 2, 2)]),
    "softmax": (lambda m, x: F(m).softmax(x, 1), [randn(3, 4)]),
    "log_softmax": (lambda m, x: F(m).log_softmax(x, -1), [randn(3, 4)]),
    "softmax_dtype": (lambda m, x: m.softmax(x, 0, dtype=m.float64), [randn(3, 4)]),
    "layer_norm": (lambda m, x, w, b: F(m).layer_norm(x, (4,), w, b),
                   [randn(3, 4), randn(4), randn(4)]),
    "layer_norm_2d": (lambda m, x, w: F(m).layer_norm(x, (3, 4), w), [randn(2, 3, 4),
                                                                      randn(3, 4)]),
    "layer_norm_w_only": (lambda m, x, w, b: F(m).layer_norm(x.detach(), (4,), w, b),
                          [randn(3, 4), randn(4), randn(4)]),
    "native_layer_norm": (lambda m, x: m.native_layer_norm(x, (4,), None, None, 1e-5),
                          [randn(3, 4)]),
    "batch_norm": (lambda m, x, w, b: F(m).batch_norm(x, None, None, w, b, training=True),
                   [randn(4, 3), randn(3), randn(3)]),
    "group_norm": (lambda m, x: F(m).group_norm(x, 2), [randn(2, 4, 3)]),
    "group_norm_affine": (lambda m, x, w, b: F(m).group_norm(x, 2, w, b),
                          [randn(2, 4, 3, 2), randn(4), randn(4)]),
    "batch_norm_2d": (lambda m, x, w: F(m).batch_norm(x, None, None, w, training=True),
                      [randn(3, 2, 2, 2), randn(2)]),
    "batch_norm_running": (lambda m, x: F(m).batch_norm(
        x, m.zeros(3, dtype=x.dtype), m.ones(3, dtype=x.dtype), training=True), [randn(4, 3)]),
    "batch_norm_eval": (lambda m, x, w: F(m).batch_norm(
        x, m.zeros(3, dtype=x.dtype) + 0.5, m.ones(3, dtype=x.dtype) * 2, w), [randn(4, 3),
                                                                              randn(3)]),
    "gelu": (lambda m, x: F(m).gelu(x), [randn(3, 4)]),
    "gelu_tanh": (lambda m, x: F(m).gelu(x, approximate="tanh"), [randn(3, 4)]),
    "silu": (lambda m, x: F(m).silu(x), [randn(3, 4)]),
    "elu": (lambda m, x: F(m).elu(x), [randn(3, 4)]),
    "leaky_relu": (lambda m, x: F(m).leaky_relu(x, 0.2), [randn(3, 4)]),
    "softplus": (lambda m, x: F(m).softplus(x), [randn(3, 4)]),
    "hardtanh": (lambda m, x: F(m).hardtanh(x), [randn(3, 4)]),
    "logsigmoid": (lambda m, x: F(m).logsigmoid(x), [randn(3, 4)]),
    "mish": (lambda m, x: F(m).mish(x), [randn(3, 4)]),
    "glu": (lambda m, x: F(m).glu(x), [randn(3, 4)]),
    "normalize": (lambda m, x: F(m).normalize(x, dim=1), [randn(3, 4)]),
    "max_pool2d": (lambda m, x: F(m).max_pool2d(x, 2), [randn(1, 2, 4, 4)]),
    "avg_pool2d": (lambda m, x: F(m).avg_pool2d(x, 2), [randn(1, 2, 4, 4)]),
    "adaptive_avg_pool2d": (lambda m, x: F(m).adaptive_avg_pool2d(x, 1), [randn(1, 2, 4, 4)]),
    "interpolate": (lambda m, x: F(m).interpolate(x, scale_factor=2, mode="bilinear"),
                    [randn(1, 1, 3, 3)]),
    "mse_loss": (lambda m, x, y: F(m).mse_loss(x, y), [randn(3, 4), randn(3, 4)]),
    "cross_entropy": (lambda m, x, t: F(m).cross_entropy(x, t), [randn(4, 3), IDX]),
    "nll_loss": (lambda m, x, t: F(m).nll_loss(x.log_softmax(1), t), [randn(4, 3), IDX]),
    "bce_logits": (lambda m, x, y: F(m).binary_cross_entropy_with_logits(x, y),
                   [randn(3, 4), RNG.uniform(0, 1, (3, 4))]),
    "embedding": (lambda m, w, i: F(m).embedding(i, w), [randn(3, 4), IDX]),
    "cosine_similarity": (lambda m, x, y: F(m).cosine_similarity(x, y),
                          [randn(3, 4), randn(3, 4)]),
    "dropout_eval": (lambda m, x: F(m).dropout(x, 0.5, training=False), [randn(3, 4)]),
    # in-place
    "mul_": (ip("mul_"), [randn(3, 4), randn(4)]),
    "add_": (ip("add_", alpha=2), [randn(3, 4), randn(3, 4)]),
    "div_number": (ip("div_", 3.0), [randn(3, 4)]),
    "exp_": (ip("exp_"), [randn(3, 4)]),
    "relu_": (ip("relu_"), [randn(3, 4)]),
    "sigmoid_": (ip("sigmoid_"), [randn(3, 4)]),
    "clamp_": (ip("clamp_", -0.3, 0.3), [randn(3, 4)]),
    "copy_": (ip("copy_"), [randn(3, 4), randn(4)]),
    "fill_": (ip("fill_"), [randn(3, 4), randn()]),
    "zero_": (ip("zero_"), [randn(3, 4)]),
    "masked_fill_": (lambda m, x, k: x.clone().masked_fill_(k, 0.0), [randn(3, 4), MASK]),
    "index_add_": (lambda m, x, s, i: x.clone().index_add_(0, i, s),
                   [randn(3, 4), randn(4, 4), IDX]),
    "setitem": (lambda m, x, v: _setitem(x, v), [randn(3, 4), randn(4)]),
    "setitem_into_plain": (lambda m, v: _setitem(m.zeros(3, 4, dtype=v.dtype), v), [randn(4)]),
    "inplace_view": (lambda m, x, y: _view_inplace(x, y), [randn(3, 4), randn(4)]),
    "elu_": (lambda m, x: F(m).elu(x.clone() * 1, inplace=True), [randn(3, 4)]),
    "leaky_relu_": (lambda m, x: F(m).leaky_relu_(x.clone(), 0.1), [randn(3, 4)]),
    "t_": (lambda m, x: x.clone().t_(), [randn(3, 4)]),
    "unsqueeze_": (lambda m, x: x.clone().unsqueeze_(0), [randn(3, 4)]),
}


def _setitem(x, v):
    y = x.clone()
    y[1] = v
    y[0, 1:3] = 0.5
    return y


def _view_inplace(x, y):
    base = x.clone()
    v = base[1:]
    v.mul_(y)
    return base, v


@pytest.mark.parametrize("name", sorted(CASES))
def test_tangents_match_torch(name):
    fn, specs = CASES[name]
    check(fn, *specs)


FLOAT32 = ["add", "mul", "exp", "mm", "matmul_bcast", "sum_dim", "softmax", "linear",
           "conv2d", "layer_norm", "view", "mul_", "setitem", "cross_entropy", "gelu"]


@pytest.mark.parametrize("name", FLOAT32)
def test_tangents_float32(name):
    fn, specs = CASES[name]
    check(fn, *specs, dtype="float32", tol=(1e-5, 1e-5))


def test_mixed_dual_and_plain_inputs():
    # only one argument dual: the other's tangent counts as zero
    check(lambda m, x: x * m.arange(4, dtype=x.dtype) + m.ones(3, 4, dtype=x.dtype),
          randn(3, 4))


# -- API and semantics -------------------------------------------------------------------

def both(fn):
    """fn(lib, fw) in both libraries."""
    return fn(mindtorch, mindtorch.autograd.forward_ad), fn(torch, torch.autograd.forward_ad)


def test_api_names_and_levels():
    fw = mindtorch.autograd.forward_ad
    from mindtorch.autograd import forward_ad
    assert forward_ad is fw
    assert set(fw.__all__) == set(torch.autograd.forward_ad.__all__)
    assert fw.enter_dual_level() == 0
    fw.exit_dual_level()
    with fw.dual_level() as level:
        assert level == 0
    assert fw._current_level == -1


def test_make_dual_is_a_view_and_unpack():
    fw = mindtorch.autograd.forward_ad
    x, t = mindtorch.randn(3), mindtorch.randn(3)
    assert fw.unpack_dual(x).primal is x and fw.unpack_dual(x).tangent is None
    with fw.dual_level():
        d = fw.make_dual(x, t)
        assert d._base is x
        u = fw.unpack_dual(d)
        assert type(u) is fw.UnpackedDualTensor and u.tangent is t
        assert u.primal._base is x and fw.unpack_dual(u.primal).tangent is None
        assert fw.unpack_dual(x).tangent is None
        assert repr(u).startswith("UnpackedDualTensor(primal=tensor(")
        assert "tangent=tensor([" in repr(d)
        y = d * 2
    # leaving the level drops the tangents
    assert fw.unpack_dual(d).tangent is None and fw.unpack_dual(y).tangent is None
    with fw.dual_level():
        assert fw.unpack_dual(y).tangent is None


def test_tangent_layout_follows_primal():
    def run(lib, fw):
        with fw.dual_level():
            d = fw.make_dual(lib.zeros(4, 3), lib.ones(3, 4).t())
            return fw.unpack_dual(d).tangent.stride()
    ours, theirs = both(run)
    assert ours == theirs


def test_inplace_updates_the_given_tangent():
    def run(lib, fw):
        t = lib.ones(3, dtype=lib.float64)
        with fw.dual_level():
            d = fw.make_dual(lib.arange(3.0, dtype=lib.float64), t)
            view = d[1:]
            d.mul_(d)
            return t, fw.unpack_dual(view).tangent
    ours, theirs = both(run)
    assert_same(ours[0], theirs[0])
    assert_same(ours[1], theirs[1])


def test_no_grad_still_propagates():
    def run(lib, fw):
        with fw.dual_level():
            d = fw.make_dual(lib.tensor([1.0, 2.0]), lib.tensor([1.0, -1.0]))
            with lib.no_grad():
                y = (d * d).sin()
            with lib.inference_mode():  # (forward AD is off there)
                z = d.exp()
                assert fw.unpack_dual(d).tangent is None
                assert fw.unpack_dual(fw.make_dual(lib.ones(2), lib.ones(2))).tangent is None
            return fw.unpack_dual(y).tangent, fw.unpack_dual(z).tangent
    ours, theirs = both(run)
    assert_same(ours[0], theirs[0])
    assert ours[1] is None and theirs[1] is None


def test_detach_and_data_drop_the_tangent():
    fw = mindtorch.autograd.forward_ad
    with fw.dual_level():
        d = fw.make_dual(mindtorch.randn(3), mindtorch.randn(3))
        assert fw.unpack_dual(d.detach()).tangent is None
        assert fw.unpack_dual(d.data).tangent is None
        assert fw.unpack_dual(d.argmax()).tangent is None
        assert fw.unpack_dual(d > 0).tangent is None
        assert fw.unpack_dual(d.long()).tangent is None


def test_tangent_dtype_is_kept():
    def run(lib, fw):
        with fw.dual_level():
            d = fw.make_dual(lib.ones(3), lib.ones(3, dtype=lib.float64))
            return fw.unpack_dual(d).tangent.dtype, fw.unpack_dual(d * 2).tangent.dtype
    ours, theirs = both(run)
    assert [str(x) for x in ours] == [str(x) for x in theirs]


# -- nesting with backward mode ----------------------------------------------------------

def _nested(lib, fn, x, t, tangent_requires_grad):
    fw = lib.autograd.forward_ad
    xp = lib.tensor(x, requires_grad=True)
    tt = lib.tensor(t, requires_grad=tangent_requires_grad)
    with fw.dual_level():
        d = fw.make_dual(xp, tt)
        y = fn(lib, d)
        p, jt = fw.unpack_dual(y)
        (p.sum() + (jt * jt).sum()).backward()
    return p, jt, xp.grad, tt.grad


def _normalized(d, dims):
    # (PyTorch's fused layer_norm / batch_norm get the second derivative of their tangents
    # wrong -- finite differences disagree -- so the reference is the composite)
    c = d - d.mean(dims, keepdim=True)
    return c * ((c * c).mean(dims, keepdim=True) + 1e-5).rsqrt()


NESTED = {
    "exp_mul": lambda m, d: (d.exp() * d).sum(0),
    "matmul": lambda m, d: d @ d.t(),
    "gelu": lambda m, d: m.nn.functional.gelu(d),
    "tanh_view": lambda m, d: d[:, 1:].tanh(),
    "layer_norm": lambda m, d: m.nn.functional.layer_norm(d, (4,)) if m is mindtorch else
    _normalized(d, 1),
    "prod": lambda m, d: d.prod(1),
    "group_norm": lambda m, d: m.nn.functional.group_norm(d.view(1, 6, 2), 3),
    "batch_norm": lambda m, d: m.nn.functional.batch_norm(d, None, None, training=True)
    if m is mindtorch else _normalized(d, 0),
    "inplace": lambda m, d: d.clone().mul_(d).add_(d),
    "setitem": lambda m, d: _setitem(d * 2, d[0]),
}


@pytest.mark.parametrize("tangent_requires_grad", [False, True])
@pytest.mark.parametrize("name", sorted(NESTED))
def test_backward_through_tangents(name, tangent_requires_grad):
    x, t = randn(3, 4), randn(3, 4)
    ours = _nested(mindtorch, NESTED[name], x, t, tangent_requires_grad)
    theirs = _nested(torch, NESTED[name], x, t, tangent_requires_grad)
    for a, b in zip(ours, theirs):
        assert (a is None) == (b is None)
        if b is not None:
            assert_same(a, b.detach())


def test_dual_tensor_requires_grad():
    def run(lib, fw):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with fw.dual_level():
            d = fw.make_dual(x, lib.tensor([0.5, 0.5]))
            y = d * 3
            assert y.requires_grad and y.grad_fn is not None
            (y.sum()).backward()
            return x.grad, fw.unpack_dual(y).tangent, type(d.grad_fn).__name__
    ours, theirs = both(run)
    assert_same(ours[0], theirs[0])
    assert_same(ours[1], theirs[1])
    assert ours[2] == theirs[2]


# -- errors --------------------------------------------------------------------------------

def _raises(fn):
    def run(lib, fw):
        try:
            fn(lib, fw)
        except Exception as e:  # noqa: BLE001
            return type(e), str(e)
        return None
    ours, theirs = both(run)
    assert theirs is not None
    assert ours == theirs


@pytest.mark.parametrize("case", [
    lambda m, fw: fw.make_dual(m.ones(3), m.ones(3)),
    lambda m, fw: fw.exit_dual_level(),
    lambda m, fw: fw.exit_dual_level(level=0),
])
def test_errors_outside_a_level(case):
    _raises(case)


@pytest.mark.parametrize("case", [
    lambda m, fw: fw.make_dual(m.ones(3), m.ones(4)),
    lambda m, fw: fw.make_dual(m.ones(2, 3), m.ones(3, 2)),
    lambda m, fw: fw.make_dual(m.arange(3), m.ones(3)),
    lambda m, fw: fw.make_dual(m.ones(3), m.ones(3, dtype=m.int64)),
    lambda m, fw: fw.make_dual(m.ones(3), m.ones(3), level=4),
    lambda m, fw: fw.make_dual(fw.make_dual(m.ones(3), m.ones(3)), m.ones(3)),
    lambda m, fw: fw.enter_dual_level(),
    lambda m, fw: fw.exit_dual_level(level=1),
    lambda m, fw: fw.unpack_dual(3),
    lambda m, fw: m.add(fw.make_dual(m.ones(2), m.ones(2)), 1, out=m.empty(2)),
    lambda m, fw: m.mm(fw.make_dual(m.ones(2, 2), m.ones(2, 2)), m.ones(2, 2),
                       out=m.empty(2, 2)),
])
def test_errors_inside_a_level(case):
    def inside(lib, fw):
        with fw.dual_level():
            case(lib, fw)
    _raises(inside)


# -- forward over reverse: tangents through a backward pass (hessian-vector products) ----

OVER_REVERSE = {
    "cube": lambda m, d: (d ** 3).sum(),
    "sin_mul": lambda m, d: (d.sin() * d).sum(),
    "softmax": lambda m, d: m.softmax(d, 1)[:, 0].sum(),
    "tanh_mm": lambda m, d: (d.tanh() @ d.t()).exp().mean(),
    "log_softmax_nll": lambda m, d: m.nn.functional.cross_entropy(d, m.tensor([0, 2, 1])),
    "exp_norm": lambda m, d: d.exp().norm(),
}


def _over_reverse(lib, fn, x, t):
    fw = lib.autograd.forward_ad
    xp = lib.tensor(x, requires_grad=True)
    with fw.dual_level():
        d = fw.make_dual(xp, lib.tensor(t))
        (g,) = lib.autograd.grad(fn(lib, d), d, create_graph=True)
        return fw.unpack_dual(g)


@pytest.mark.parametrize("name", sorted(OVER_REVERSE))
def test_tangents_through_backward(name):
    x, t = randn(3, 4), randn(3, 4)
    (p, jt) = _over_reverse(mindtorch, OVER_REVERSE[name], x, t)
    (tp, tjt) = _over_reverse(torch, OVER_REVERSE[name], x, t)
    assert_same(p, tp.detach())
    assert_same(jt, tjt.detach())


# -- torch.func's forward-mode transforms ------------------------------------------------

def _func(lib, name, fn, *arrays, **kw):
    xs = [lib.tensor(a) for a in arrays]
    transform = getattr(lib.func, name)
    if name == "jvp":
        ts = tuple(lib.tensor(np.random.default_rng(7 + k).standard_normal(a.shape))
                   for k, a in enumerate(arrays))
        return transform(lambda *a: fn(lib, *a), tuple(xs), ts, **kw)
    return transform(lambda *a: fn(lib, *a), **kw)(*xs)


FUNC_CASES = [
    ("jvp", lambda m, x: x.sin() * x, [randn(3, 4)], {}),
    ("jvp", lambda m, x, y: (x @ y, x.sum()), [randn(3, 4), randn(4, 2)], {}),
    ("jvp", lambda m, x: (x.exp(), {"aux": x * 2}), [randn(3)], {"has_aux": True}),
    ("jvp", lambda m, x: x.argmax(), [randn(5)], {}),
    ("jacfwd", lambda m, x: x.tanh() * x.sum(), [randn(4)], {}),
    ("jacfwd", lambda m, x, y: m.nn.functional.linear(x, y), [randn(2, 3), randn(4, 3)],
     {"argnums": (0, 1)}),
    ("jacfwd", lambda m, x: (x.exp(), x.cumsum(0)), [randn(3)], {}),
    ("jacfwd", lambda m, x: (x ** 2, x.mean()), [randn(3)], {"has_aux": True}),
    ("hessian", lambda m, x: (x.sin() * x).sum() + x.prod(), [randn(4)], {}),
    ("hessian", lambda m, x: m.softmax(x, 0)[0], [randn(4)], {}),
]


@pytest.mark.parametrize("case", range(len(FUNC_CASES)))
def test_func_forward_transforms(case):
    name, fn, arrays, kw = FUNC_CASES[case]
    ours = _func(mindtorch, name, fn, *arrays, **kw)
    theirs = _func(torch, name, fn, *arrays, **kw)
    flat_ours, flat_theirs = _flatten(ours), _flatten(theirs)
    assert len(flat_ours) == len(flat_theirs)
    for a, b in zip(flat_ours, flat_theirs):
        assert a.requires_grad == b.requires_grad
        assert_same(a, b.detach())


def _flatten(tree):
    if isinstance(tree, (tuple, list)):
        return [x for t in tree for x in _flatten(t)]
    if isinstance(tree, dict):
        return [x for k in sorted(tree) for x in _flatten(tree[k])]
    return [tree]


def test_func_jvp_errors_and_nesting():
    for lib in (mindtorch, torch):
        with pytest.raises(ValueError, match="Expected primal to be floating point"):
            lib.func.jvp(lambda a: a, (lib.arange(3),), (lib.ones(3),))
        with pytest.raises(RuntimeError, match="different size"):
            lib.func.jvp(lambda a: a, (lib.ones(3),), (lib.ones(4),))
        with pytest.raises(RuntimeError, match="only tensors"):
            lib.func.jvp(lambda a: 3, (lib.ones(3),), (lib.ones(3),))
    # jvp of jvp (forward over forward) and jvp inside grad
    x = randn(3)

    def nested(lib):
        def inner(a):
            return lib.func.jvp(lambda b: b.sin() * b, (a,), (lib.ones(3, dtype=a.dtype),))[1]
        outer = lib.func.jvp(inner, (lib.tensor(x),), (lib.ones(3, dtype=lib.float64),))[1]
        g = lib.func.grad(lambda a: inner(a).sum())(lib.tensor(x))
        return outer, g
    for a, b in zip(nested(mindtorch), nested(torch)):
        assert_same(a, b)


# -- custom autograd.Function ------------------------------------------------------------

def _custom_functions(lib):
    class Scaled(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, y, k):
            ctx.save_for_forward(x, y)
            ctx.k = k
            return x * y * k

        @staticmethod
        def jvp(ctx, tx, ty, tk):
            x, y = ctx.saved_tensors
            assert tk is None
            return (tx * y + x * ty) * ctx.k

        @staticmethod
        def backward(ctx, g):
            return g, g, None

    class NoJvp(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.exp()

        @staticmethod
        def backward(ctx, g):
            return g
    return Scaled, NoJvp


@pytest.mark.parametrize("requires_grad", [False, True])
def test_custom_function_jvp(requires_grad):
    def run(lib, fw):
        scaled, no_jvp = _custom_functions(lib)
        x = lib.tensor([1.0, 2.0], requires_grad=requires_grad)
        with fw.dual_level():
            d = fw.make_dual(x, lib.tensor([0.5, -1.0]))
            y = lib.tensor([3.0, 4.0])  # its tangent is zeros
            out = scaled.apply(d, y, 2.0)
            with pytest.raises(NotImplementedError, match="implement the jvp function"):
                no_jvp.apply(d)
            return fw.unpack_dual(out)
    ours, theirs = both(run)
    assert_same(ours.primal, theirs.primal.detach())
    assert_same(ours.tangent, theirs.tangent)


def test_func_linearize():
    x = randn(3)

    def run(lib):
        out, fn = lib.func.linearize(lambda a, b: (a.sin() * b, a + b), lib.tensor(x),
                                     lib.tensor(x))
        one, zero = lib.ones(3, dtype=lib.float64), lib.zeros(3, dtype=lib.float64)
        with pytest.raises(RuntimeError, match="doesn't match the shape"):
            fn(lib.ones(4, dtype=lib.float64), zero)
        return out, fn(one, zero), fn(zero, one)
    for a, b in zip(_flatten(run(mindtorch)), _flatten(run(torch))):
        assert_same(a, b)


def test_views_see_their_base_tangent():
    def run(lib, fw):
        with fw.dual_level():
            x = lib.zeros(3)
            v = x[:2]
            d = fw.make_dual(lib.ones(3), lib.ones(3) * 5)
            x.copy_(d)  # x gets a tangent after v was taken: v sees it
            y = d * 2
            p = fw.unpack_dual(y).primal  # ... but a primal's views do not
            w = lib.zeros(2, 3)
            r = w[0]
            w[1] = d
            return [fw.unpack_dual(v).tangent, fw.unpack_dual(p[:1]).tangent,
                    fw.unpack_dual(r).tangent, fw.unpack_dual(w[1]).tangent]
    ours, theirs = both(run)
    for a, b in zip(ours, theirs):
        assert (a is None) == (b is None)
        if b is not None:
            assert_same(a, b)


def test_random_ops():
    def run(lib, fw):
        lib.manual_seed(0)
        with fw.dual_level():
            d = fw.make_dual(lib.ones(6), lib.arange(6.0))
            out = [lib.nn.functional.rrelu(d - 2.5, training=True),
                   lib.nn.functional.rrelu(d - 2.5),
                   lib.nn.functional.dropout(d, 0.5),
                   lib.distributions.Normal(d, 2.0).rsample(),
                   lib.normal(d, d + 1)]
            with pytest.raises(NotImplementedError, match="_standard_gamma"):
                lib._standard_gamma(d)
            return [fw.unpack_dual(o).tangent for o in out]
    for a, b in zip(*both(run)):
        assert_same(a, b)
