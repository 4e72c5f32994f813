"""Gradients of the normalization ops against PyTorch (values and grads), finite differences
(gradcheck) and the meta device: native_layer_norm / native_group_norm and the hidden
'_batch_norm_training' / '_batch_norm_inference' ops carry formulas named as PyTorch's
nodes; rms_norm, local_response_norm and normalize differentiate through their
decompositions.  Second derivatives for the formulas (their statistics are recomputed
differentiably under create_graph)."""
import mindtorch
import numpy as np
import pytest
import torch
from gradutil import check_gradgrad, check_grads, const, nc, rand, randn

M = mindtorch


def F(m):
    return m.nn.functional


CASES = [
    # (id, fn(module, *tensors), specs[, check_grads options])
    ("layer_norm", lambda m, x, w, b: F(m).layer_norm(x, (4,), w, b), [randn(3, 4), randn(4),
                                                                         randn(4)]),
    ("layer_norm_2d_shape", lambda m, x, w: F(m).layer_norm(x, (2, 3), w, eps=1e-3),
     [nc(randn(2, 2, 3)), randn(2, 3)]),
    ("layer_norm_no_affine", lambda m, x: F(m).layer_norm(x, (3,)), [randn(2, 2, 3)]),
    ("layer_norm_bias_only", lambda m, x, b: F(m).layer_norm(x, (3,), None, b),
     [randn(2, 3), randn(3)]),
    ("layer_norm_whole", lambda m, x, w, b: F(m).layer_norm(x, (2, 3), w, b),
     [randn(2, 3), randn(2, 3), randn(2, 3)]),
    ("layer_norm_torch", lambda m, x, w: m.layer_norm(x, [3], w, None, 1e-5, False),
     [randn(2, 3), randn(3)]),
    ("native_layer_norm", lambda m, x, w, b: m.native_layer_norm(x, [3], w, b, 1e-5),
     [randn(2, 3), randn(3), randn(3)]),
    ("layer_norm_empty", lambda m, x, w: F(m).layer_norm(x, (3,), w), [randn(0, 3), randn(3)]),
    ("group_norm", lambda m, x, w, b: F(m).group_norm(x, 2, w, b), [randn(2, 4, 3), randn(4),
                                                                     randn(4)]),
    ("group_norm_nc", lambda m, x, w: F(m).group_norm(x, 1, w), [nc(randn(3, 2, 2)), randn(2)]),
    ("group_norm_2d", lambda m, x: m.group_norm(x, 3, None, None, 1e-5, False), [randn(2, 6)]),
    ("native_group_norm", lambda m, x, w, b: m.native_group_norm(x, w, b, 2, 4, 2, 2, 1e-5),
     [randn(2, 4, 2), randn(4), randn(4)]),
    ("batch_norm_train", lambda m, x, w, b: F(m).batch_norm(x, None, None, w, b, True),
     [randn(3, 2, 2), randn(2), randn(2)]),
    ("batch_norm_train_stats", lambda m, x, w, rm, rv: F(m).batch_norm(x, rm, rv, w, None,
                                                                       True, 0.3),
     [nc(randn(4, 2)), randn(2), const(randn(2)), const(rand(2))]),
    ("batch_norm_eval", lambda m, x, w, b, rm, rv: F(m).batch_norm(x, rm, rv, w, b),
     [randn(3, 2, 2), randn(2), randn(2), const(randn(2)), const(rand(2))]),
    ("batch_norm_4d", lambda m, x, w: m.batch_norm(x, w, None, None, None, True, 0.1, 1e-5,
                                                   False), [randn(2, 2, 2, 2), randn(2)]),
    ("native_batch_norm", lambda m, x, w, b: m.native_batch_norm(x, w, b, None, None, True,
                                                                 0.1, 1e-5),
     [randn(3, 2), randn(2), randn(2)]),
    ("native_batch_norm_eval", lambda m, x, w, rm, rv: m.native_batch_norm(x, w, None, rm, rv,
                                                                           False, 0.1, 1e-5),
     [randn(3, 2), randn(2), const(randn(2)), const(rand(2))]),
    ("batch_norm_empty", lambda m, x, w, b: F(m).batch_norm(x, None, None, w, b, True),
     [randn(0, 2), randn(2), randn(2)]),
    ("instance_norm", lambda m, x, w, b: F(m).instance_norm(x, weight=w, bias=b),
     [randn(2, 2, 3), randn(2), randn(2)]),
    ("instance_norm_stats", lambda m, x, rm, rv: F(m).instance_norm(x, rm, rv),
     [nc(randn(2, 2, 3)), const(randn(2)), const(rand(2))]),
    ("instance_norm_eval", lambda m, x, w, rm, rv: F(m).instance_norm(
        x, rm, rv, w, use_input_stats=False), [randn(2, 2, 3), randn(2), const(randn(2)),
                                               const(rand(2))]),
    ("instance_norm_torch", lambda m, x: m.instance_norm(x, None, None, None, None, True, 0.1,
                                                         1e-5, False), [randn(2, 2, 2, 2)]),
    ("rms_norm", lambda m, x, w: F(m).rms_norm(x, (3,), w), [randn(2, 3), randn(3)]),
    ("rms_norm_eps", lambda m, x: m.rms_norm(x, [2, 3], eps=1e-3), [nc(randn(2, 2, 3))]),
    ("local_response_norm", lambda m, x: F(m).local_response_norm(x, 3),
     [randn(2, 4, 3)]),
    ("local_response_norm_4d", lambda m, x: F(m).local_response_norm(x, 2, 0.1, 0.5, 2.0),
     [nc(randn(1, 3, 2, 2))]),
    ("normalize", lambda m, x: F(m).normalize(x), [randn(3, 4)]),
    ("normalize_p1_dim", lambda m, x: F(m).normalize(x, 1.0, 0), [nc(randn(3, 4))]),
    ("normalize_tuple", lambda m, x: F(m).normalize(x, 3.0, (0, -1)), [randn(2, 3, 2)]),
    ("normalize_0dim", lambda m, x: F(m).normalize(x, dim=0), [np.array(1.5)]),
    ("normalize_zero_row", lambda m, x: F(m).normalize(x, eps=0.1),
     [np.array([[0.0, 0.0], [1.0, 2.0]])]),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_grads(case):
    _, fn, specs, *options = case
    check_grads(fn, *specs, **(options[0] if options else {}))


@pytest.mark.parametrize("name,fn,specs", [
    ("layer_norm", lambda m, x, w, b: F(m).layer_norm(x, (4,), w, b),
     [randn(3, 4), randn(4), randn(4)]),
    ("batch_norm", lambda m, x, w: F(m).batch_norm(x, None, None, w, None, True),
     [randn(3, 2), randn(2)]),
    ("group_norm", lambda m, x: F(m).group_norm(x, 2), [randn(2, 4, 2)]),
    ("rms_norm", lambda m, x: F(m).rms_norm(x, (4,)), [randn(2, 4)]),
])
def test_float32(name, fn, specs):
    check_grads(fn, *specs, dtype="float32", atol=1e-4, rtol=1e-4)


def test_half_inputs_with_float_parameters():
    """16-bit input, float32 weight: the weight's gradient is float32 (computed in float32)."""
    for dt in ("bfloat16", "float16"):
        grads = []
        xs, ws = randn(3, 4), randn(4)
        for m in (M, torch):
            x = m.tensor(xs, dtype=getattr(m, dt), requires_grad=True)
            w = m.tensor(ws, dtype=m.float32, requires_grad=True)
            F(m).layer_norm(x, (4,), w).sum().backward()
            grads.append((x.grad, w.grad))
        for g, t in zip(*grads):
            assert str(g.dtype) == str(t.dtype)
            np.testing.assert_allclose(g.float().numpy(), t.float().numpy(), rtol=0.05,
                                       atol=0.05)


GRADGRAD = [
    ("layer_norm", lambda m, x, w, b: F(m).layer_norm(x, (3,), w, b),
     [randn(2, 3), randn(3), randn(3)]),
    ("group_norm", lambda m, x, w: F(m).group_norm(x, 2, w), [randn(2, 4, 2), randn(4)]),
    ("batch_norm_train", lambda m, x, w: F(m).batch_norm(x, None, None, w, None, True),
     [randn(4, 2), randn(2)]),
    ("batch_norm_eval", lambda m, x, w, rm, rv: F(m).batch_norm(x, rm, rv, w),
     [randn(3, 2), randn(2), const(randn(2)), const(rand(2))]),
    ("rms_norm", lambda m, x, w: F(m).rms_norm(x, (3,), w), [randn(2, 3), randn(3)]),
    ("normalize", lambda m, x: F(m).normalize(x), [randn(2, 3)]),
]


@pytest.mark.parametrize("fn,specs", [c[1:] for c in GRADGRAD], ids=[c[0] for c in GRADGRAD])
def test_gradgrad(fn, specs):
    check_gradgrad(fn, *specs)


@pytest.mark.parametrize("fn,expected", [
    (lambda m, x: F(m).layer_norm(x, (3,)), "NativeLayerNormBackward0"),
    (lambda m, x: m.native_layer_norm(x, (3,), None, None, 1e-5)[0], "NativeLayerNormBackward0"),
    (lambda m, x: F(m).group_norm(x, 1), "NativeGroupNormBackward0"),
    # '_batch_norm_training' and '_batch_norm_inference' record PyTorch's node
    (lambda m, x: F(m).batch_norm(x, None, None, training=True), "NativeBatchNormBackward0"),
    (lambda m, x: F(m).batch_norm(x, m.zeros(3), m.ones(3)), "NativeBatchNormBackward0"),
    (lambda m, x: F(m).instance_norm(x.unsqueeze(0)), "ViewBackward0"),
    (lambda m, x: F(m).normalize(x), "DivBackward0"),
])
def test_node_names(fn, expected):
    for m in (M, torch):
        x = m.ones(2, 3).add(m.arange(6.0).reshape(2, 3)).requires_grad_()
        assert type(fn(m, x).grad_fn).__name__ == expected


def test_statistics_outputs():
    """native_layer_norm's mean/rstd and batch norm's saved statistics carry no gradient."""
    x = M.randn(3, 4, requires_grad=True)
    out, mean, rstd = M.native_layer_norm(x, (4,), None, None, 1e-5)
    assert out.requires_grad and not mean.requires_grad and not rstd.requires_grad
    out, mean, invstd = M.native_batch_norm(x, None, None, None, None, True, 0.1, 1e-5)
    assert out.requires_grad and not mean.requires_grad and not invstd.requires_grad


def test_running_stats_requiring_grad_refused():
    for m in (M, torch):
        x = m.randn(3, 2, requires_grad=True)
        rm, rv = m.zeros(2, requires_grad=True), m.ones(2)
        with pytest.raises(RuntimeError, match="not differentiable with respect to argument"):
            F(m).batch_norm(x, rm, rv)
        with m.no_grad():
            F(m).batch_norm(x, rm, rv)


def test_running_stats_updated_without_history():
    rm, rv = M.zeros(2), M.ones(2)
    x = M.randn(4, 2, requires_grad=True)
    F(M).batch_norm(x, rm, rv, training=True).sum().backward()
    assert not rm.requires_grad and not rv.requires_grad
    # updated in place without a version bump, as ATen's kernels write them
    assert rm._version == rv._version == 0 and bool((rm != 0).all())
    assert x.grad is not None


def test_inplace_nonleaf_input():
    def fn(m, x):
        y = x * 1
        y.mul_(2)
        return F(m).layer_norm(y, (3,))
    check_grads(fn, randn(2, 3))


@pytest.mark.parametrize("public,op", [
    ("layer_norm", "functional_layer_norm"), ("group_norm", "functional_group_norm"),
    ("batch_norm", "functional_batch_norm"), ("instance_norm", "functional_instance_norm"),
])
def test_functional_forms_are_their_own_ops(public, op):
    """nn.functional's argument order differs from torch.<name>'s: its own op, decomposing
    into the torch.<name> op (so the gradients above reach it)."""
    assert getattr(F(M), public)._op.name == op
    assert getattr(M, public)._op.name == public
