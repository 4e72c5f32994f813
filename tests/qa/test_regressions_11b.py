"""Regression tests for QA round 11b (training recipes and generative-model code), each against torch."""
import mindtorch
import pytest
from reference import same_outcome

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("case", [
    lambda L: L._assert(True, "m"), lambda L: L._assert(1 == 2, "height mismatch"),
    lambda L: L._assert(L.tensor(False), "t"), lambda L: L._assert(L.tensor(3), "t"),
    lambda L: L._check(True), lambda L: L._check(False), lambda L: L._check(False, lambda: 3),
    lambda L: L._check(False, "not callable"), lambda L: L._check(L.tensor(True)),
    lambda L: L._check(1), lambda L: L._check_index(False), lambda L: L._check_value(False),
    lambda L: L._check_type(False, lambda: "t"), lambda L: L._check_not_implemented(False),
    lambda L: L._check_with(KeyError, False, lambda: "k"),
    lambda L: L._check_with(UserWarning, False), lambda L: L._check_is_size(-1),
    lambda L: L._check_is_size(3, max=2), lambda L: L._check_is_size(2, max=2),
    lambda L: L._check_tensor_all(L.tensor([True, False])),
    lambda L: L._check_tensor_all(L.tensor([True, True])),
    lambda L: L._check_tensor_all(L.tensor([1])), lambda L: L._check_tensor_all(True),
    lambda L: L._assert_async(L.tensor(0)), lambda L: L._assert_async(L.tensor(2.5)),
    lambda L: L._assert_async(L.tensor([1, 1])), lambda L: L._assert_async(L.tensor([])),
    lambda L: L._assert_async(L.tensor([True]), "msg"),
])
def test_assert_and_check_family(case):
    same_outcome(case)


def test_check_is_size_is_deprecated():
    import warnings
    for L in (mindtorch, torch):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            L._check_is_size(2)
        assert [x.category for x in w] == [FutureWarning]
        assert str(w[0].message).startswith("_check_is_size will be removed")


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("name,kw", [
    ("AdamW", dict(lr=1e-2)), ("Adam", dict(lr=1e-2, amsgrad=True)),
    ("RMSprop", dict(lr=1e-2, centered=True)), ("Adagrad", dict(lr=0.1)),
    ("Adamax", dict(lr=1e-2)), ("SGD", dict(lr=0.1, momentum=0.9)),
])
def test_multi_tensor_step_of_16bit_params_rounds_as_torch(dtype, name, kw):
    # six small 16-bit tensors take the flat multi-tensor path: p.addcdiv_ there must round
    # once (float32 inside), as the per-tensor op and PyTorch do
    import numpy as np
    rng = np.random.default_rng(0)
    shapes = [(16, 6), (16,), (16,), (16,), (3, 16), (3,)]
    ws = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    gs = [[0.1 * rng.standard_normal(s).astype(np.float32) for s in shapes] for _ in range(3)]

    def run(L):
        ps = [L.tensor(w).to(getattr(L, dtype)).requires_grad_() for w in ws]
        opt = getattr(L.optim, name)(ps, **kw)
        for step in gs:
            for p, g in zip(ps, step):
                p.grad = L.tensor(g).to(getattr(L, dtype))
            opt.step()
        return np.concatenate([p.detach().float().numpy().ravel() for p in ps])
    np.testing.assert_array_equal(run(mindtorch), run(torch))


@pytest.mark.parametrize("fn", ["_foreach_lerp", "_foreach_lerp_"])
@pytest.mark.parametrize("weight", [lambda L: L.tensor([0.3, 0.6]), lambda L: L.tensor(0.25),
                                    lambda L: L.tensor(0.5, requires_grad=True),
                                    lambda L: [0.3], lambda L: 0.75])
def test_foreach_lerp_weight_forms(fn, weight):
    same_outcome(lambda L: [t.tolist() for t in getattr(L, fn)(
        [L.zeros(2)], (L.ones(2),), weight(L))])


@pytest.mark.parametrize("cin,cout,groups,k", [(8, 8, 8, 3), (4, 6, 1, 3), (1, 4, 1, 3),
                                               (4, 1, 1, 3), (8, 8, 8, 1)])
@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize("x_cl,w_cl", [(True, False), (False, True), (False, False)])
def test_channels_last_conv_result_and_gradient_strides(cin, cout, groups, k, transposed,
                                                        x_cl, w_cl):
    # depthwise weights (C_in / groups == 1), one channel in or out: PyTorch's channels-last
    # strides on the size-1 dims of the result and of the input / weight gradients (not a
    # grouped 1x1 kernel: PyTorch's weight gradient strides there depend on its threads)
    import numpy as np
    rng = np.random.default_rng(0)
    xs = rng.standard_normal((2, cin, 5, 5)).astype(np.float32)
    ws = rng.standard_normal((cin, cout // groups, k, k) if transposed else
                             (cout, cin // groups, k, k)).astype(np.float32)

    def run(L):
        x = L.tensor(xs)
        x = (x.contiguous(memory_format=L.channels_last) if x_cl else x).requires_grad_()
        w = L.tensor(ws)
        w = (w.contiguous(memory_format=L.channels_last) if w_cl else w).requires_grad_()
        f = L.nn.functional.conv_transpose2d if transposed else L.nn.functional.conv2d
        y = f(x, w, groups=groups)
        y.sum().backward()
        return y.stride(), x.grad.stride(), w.grad.stride(), y.detach().sum().item()
    m, t = run(mindtorch), run(torch)
    assert m[:3] == t[:3] and m[3] == pytest.approx(t[3], rel=1e-5)


def test_cuda_matmul_allow_tf32_follows_float32_matmul_precision():
    for L in (mindtorch, torch):
        flags = L.backends.cuda.matmul
        try:
            seen = [flags.allow_tf32]
            L.set_float32_matmul_precision("high")
            seen.append(flags.allow_tf32)
            L.set_float32_matmul_precision("medium")
            seen.append(flags.allow_tf32)
            L.set_float32_matmul_precision("highest")
            seen.append(flags.allow_tf32)
            assert seen == [False, True, True, False], L
            flags.allow_tf32 = True
            assert L.get_float32_matmul_precision() == "high"
            flags.allow_tf32 = False
            assert L.get_float32_matmul_precision() == "highest"
        finally:
            L.set_float32_matmul_precision("highest")


@pytest.mark.parametrize("call", [
    lambda L, x: L._foreach_mul_(x, scalar=2.), lambda L, x: L._foreach_mul(x, other=x),
    lambda L, x: L._foreach_mul(x, scalars=[3.]), lambda L, x: L._foreach_add(x, other=x, alpha=2),
    lambda L, x: L._foreach_add_(x, scalar=1), lambda L, x: L._foreach_sub(x, other=x, alpha=1),
    lambda L, x: L._foreach_lerp_(x, [t * 3 for t in x], weight=0.25),
    lambda L, x: L._foreach_lerp(x, tensors1=x, weight=0.5),
    lambda L, x: L._foreach_lerp(x, x, weights=x),
    lambda L, x: L._foreach_addcmul(x, tensor1=x, tensor2=x, value=2),
    lambda L, x: L._foreach_addcdiv_(x, x, x, scalars=[2., 3.]),
    lambda L, x: L._foreach_pow(x, exponent=2), lambda L, x: L._foreach_clamp_min(x, scalar=0.5),
    lambda L, x: L._foreach_maximum(x, other=x), lambda L, x: L._foreach_div(x, scalar=2),
    lambda L, x: L._foreach_mul(self=x, scalar=2),
])
def test_foreach_keyword_operands(call):
    # timm's ModelEmaV3: torch._foreach_lerp_(ema, model, weight=1. - decay)
    def run(L):
        x = [L.tensor([1., 2.]), L.tensor([[3.], [4.]])]
        r = call(L, x)
        return [t.tolist() for t in r], [t.tolist() for t in x]
    same_outcome(run)
