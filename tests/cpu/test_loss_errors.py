"""Loss functions: errors against PyTorch's (classes, messages and the order of the
checks: which bad argument is reported first), on cpu and meta."""
import math
import warnings

import numpy as np
import pytest

import mindtorch
from loss_helpers import IDX, MF, X, _base_error, _F, check
from reference import to_torch, torch
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

# -- errors ---------------------------------------------------------------------------------

def _x(*shape):
    return X(*shape)("float32")


def _i(values, dtype="int64"):
    return IDX(values, dtype)(None)


ERRORS = [
    # (id, fn(lib, *tensors), tensors, exact message (a regex) or None)
    ("nll_0dim", lambda m, x, t: _F(m).nll_loss(x, t), [_x(), _i(0)],
     r"Expected 1 or more dimensions \(got 0\)"),
    ("nll_batch", lambda m, x, t: _F(m).nll_loss(x, t), [_x(3, 4), _i([0, 1])],
     r"Expected input batch_size \(3\) to match target batch_size \(2\)\."),
    ("ce_batch", lambda m, x, t: _F(m).cross_entropy(x, t), [_x(3, 4), _i([0, 1])],
     r"Expected input batch_size \(3\) to match target batch_size \(2\)\."),
    ("nll_batch_0dim_target", lambda m, x, t: _F(m).nll_loss(x, t), [_x(3, 4), _i(1)],
     r"target batch_size \(0\)"),
    ("nll_out_of_bounds", lambda m, x, t: _F(m).nll_loss(x, t), [_x(3, 4), _i([0, 5, 1])],
     r"^Target 5 is out of bounds\.$"),
    ("nll_negative", lambda m, x, t: _F(m).nll_loss(x, t), [_x(3, 4), _i([0, -1, 1])],
     r"^Target -1 is out of bounds\.$"),
    ("ce_out_of_bounds_4d", lambda m, x, t: _F(m).cross_entropy(x, t),
     [_x(1, 3, 1, 2), _i([[[0, 7]]])], r"^Target 7 is out of bounds\.$"),
    ("nll_out_of_bounds_3d", lambda m, x, t: _F(m).nll_loss(x, t),
     [_x(1, 3, 2), _i([[0, 3]])], r"Target 3 is out of bounds"),
    ("nll_float_target", lambda m, x, t: _F(m).nll_loss(x, t), [_x(3, 4), _x(3)],
     "expected target dtype to be Long or Byte, but got Float"),
    ("ce_float_target", lambda m, x, t: _F(m).cross_entropy(x, t), [_x(3, 4), _x(3)],
     "expected target dtype to be Long or Byte, but got Float"),
    ("nll_int32_target", lambda m, x, t: _F(m).nll_loss(x, t), [_x(3, 4), _i([0, 1, 1],
                                                                            "int32")],
     "but got Int"),
    ("nll_bool_target", lambda m, x, t: _F(m).nll_loss(x, t), [_x(3, 4), _i([0, 1, 1],
                                                                           "bool")], None),
    ("nll_weight_size", lambda m, x, t, w: _F(m).nll_loss(x, t, w), [_x(3, 4), _i([0, 1, 1]),
                                                                     _x(3)],
     r"weight tensor should be defined either for all 4 classes or no classes but got "
     r"weight tensor of shape: \[3\]"),
    ("nll_weight_2d", lambda m, x, t, w: _F(m).nll_loss(x, t, w), [_x(3, 4), _i([0, 1, 1]),
                                                                   _x(1, 4)], None),
    ("nll_weight_4d", lambda m, x, t, w: _F(m).nll_loss(x, t, w),
     [_x(1, 4, 1, 2), _i([[[0, 1]]]), _x(3)],
     "weight tensor should be defined either for all or no classes"),
    ("nll_weight_dtype", lambda m, x, t, w: _F(m).nll_loss(x, t, w.double()),
     [_x(3, 4), _i([0, 1, 1]), _x(4)], "expected scalar type Float but found Double"),
    ("nll_int_input", lambda m, x, t: _F(m).nll_loss(x.long(), t), [_x(3, 4), _i([0, 1, 1])],
     "\"nll_loss_out_frame\" not implemented for 'Long'"),
    ("nll_int_input_3d", lambda m, x, t: _F(m).nll_loss(x.long(), t),
     [_x(2, 4, 3), _i(np.zeros((2, 3), np.int64))], None),
    ("ce_int_input", lambda m, x, t: _F(m).cross_entropy(x.long(), t),
     [_x(3, 4), _i([0, 1, 1])], None),
    ("nll_2d_target", lambda m, x, t: _F(m).nll_loss(x, t), [_x(3, 4), _i([[0], [1], [1]])],
     "0D or 1D target tensor expected, multi-target not supported"),
    ("nll_3d_target_size", lambda m, x, t: _F(m).nll_loss(x, t),
     [_x(2, 4, 5), _i(np.zeros((2, 6), np.int64))], r"Expected target size \[2, 5\], got "
                                                     r"\[2, 6\]"),
    ("nll_4d_target_size", lambda m, x, t: _F(m).nll_loss(x, t),
     [_x(2, 4, 5, 3), _i(np.zeros((2, 6, 3), np.int64))],
     r"size mismatch \(got input: \[2, 4, 5, 3\] , target: \[2, 6, 3\]"),
    ("nll_4d_target_dims", lambda m, x, t: _F(m).nll_loss(x, t),
     [_x(2, 4, 5, 3), _i(np.zeros((2, 5), np.int64))],
     "only batches of spatial targets supported"),
    ("nll_1d_target_2", lambda m, x, t: _F(m).nll_loss(x, t), [_x(4), _i([1, 2])],
     "For 1D input, 1D target must have size 1, but got target size: 2"),
    ("nll_bad_reduction", lambda m, x, t: _F(m).nll_loss(x, t, reduction="foo"),
     [_x(3, 4), _i([0, 1, 1])], "foo is not a valid value for reduction"),
    ("ce_probs_int_target", lambda m, x, t: _F(m).cross_entropy(x, t),
     [_x(3, 4), _i(np.zeros((3, 4), np.int64))],
     "Expected floating point type for target with class probabilities, got Long"),
    ("ce_probs_0dim", lambda m, x, t: _F(m).cross_entropy(x, t), [_x(), _x()], None),
    ("ce_probs_ignore_index", lambda m, x, t: _F(m).cross_entropy(x, t, ignore_index=1),
     [_x(3, 4), _x(3, 4)], "ignore_index is not supported for floating point target"),
    ("ce_probs_weight", lambda m, x, t, w: _F(m).cross_entropy(x, t, w),
     [_x(3, 4), _x(3, 4), _x(3)], "cross_entropy: weight tensor should be defined"),
    ("ce_smoothing", lambda m, x, t: _F(m).cross_entropy(x, t, label_smoothing=1.5),
     [_x(3, 4), _i([0, 1, 1])], "label_smoothing must be between 0.0 and 1.0. Got: 1.5"),
    ("ce_probs_smoothing", lambda m, x, t: _F(m).cross_entropy(x, t, label_smoothing=2.0),
     [_x(3, 4), _x(3, 4)], "label_smoothing must be between 0.0 and 1.0. Got: 2"),
    ("ce_half_weight_float", lambda m, x, t, w: _F(m).cross_entropy(x.half(), t, w),
     [_x(3, 4), _i([0, 1, 1]), _x(4)], None),
    ("mse_int", lambda m, x: _F(m).mse_loss(x.long(), x.long()), [_x(3)], None),
    ("mse_weight_size", lambda m, x, w: _F(m).mse_loss(x, x, weight=w), [_x(3, 4), _x(4)],
     "Weights and input must have the same size."),
    ("mse_weight_reduction", lambda m, x: _F(m).mse_loss(x, x, reduction="max", weight=x),
     [_x(3, 4)], "Invalid reduction mode: max"),
    ("mse_not_broadcastable", lambda m, x, y: _F(m).mse_loss(x, y), [_x(3, 4), _x(5)], None),
    ("smooth_l1_beta", lambda m, x: _F(m).smooth_l1_loss(x, x, beta=-1.0), [_x(3)],
     "smooth_l1_loss does not support negative values for beta."),
    ("huber_delta", lambda m, x: _F(m).huber_loss(x, x, delta=0.0), [_x(3)],
     "huber_loss does not support non-positive values for delta."),
    ("bce_range", lambda m, x: _F(m).binary_cross_entropy(x * 3, x.sigmoid()), [_x(3, 4)],
     "all elements of input should be between 0 and 1"),
    ("bce_nan", lambda m, x: _F(m).binary_cross_entropy(x * np.nan, x.sigmoid()), [_x(2)],
     None),
    ("bce_size", lambda m, x, y: _F(m).binary_cross_entropy(x.sigmoid(), y.sigmoid()),
     [_x(3, 4), _x(4)], r"Using a target size \(torch.Size\(\[4\]\)\) that is different to "
                        r"the input size \(torch.Size\(\[3, 4\]\)\) is deprecated"),
    ("bce_dtype", lambda m, x: _F(m).binary_cross_entropy(x.sigmoid(), x.sigmoid().double()),
     [_x(3)], "Found dtype Double but expected Float"),
    ("bce_int", lambda m, x: _F(m).binary_cross_entropy(x.long(), x.long()), [_x(3)], None),
    ("bce_weight_broadcast", lambda m, x, w: _F(m).binary_cross_entropy(
        x.sigmoid(), x.sigmoid(), w), [_x(3, 4), _x(2, 3, 4)],
     r"output with shape \[3, 4\] doesn't match the broadcast shape \[2, 3, 4\]"),
    ("bce_weight_not_broadcastable", lambda m, x, w: _F(m).binary_cross_entropy(
        x.sigmoid(), x.sigmoid(), w), [_x(3, 4), _x(5)], None),
    ("bce_logits_size", lambda m, x, y: _F(m).binary_cross_entropy_with_logits(x, y),
     [_x(3, 4), _x(4)], r"Target size \(torch.Size\(\[4\]\)\) must be the same as input size"),
    ("bce_logits_int_target", lambda m, x: _F(m).binary_cross_entropy_with_logits(
        x, x.long()), [_x(3)], "result type Float can't be cast to the desired output type "
                              "Long"),
    ("bce_logits_int_input", lambda m, x: _F(m).binary_cross_entropy_with_logits(
        x.long(), x), [_x(3)], None),
    ("bce_logits_pos_weight_shape", lambda m, x, w: _F(m).binary_cross_entropy_with_logits(
        x, x, pos_weight=w), [_x(3, 4), _x(2, 3, 4)], "doesn't match the broadcast shape"),
    ("kl_int", lambda m, x: _F(m).kl_div(x.long(), x, reduction="sum"), [_x(3)],
     "kl_div: Integral inputs not supported."),
    ("kl_reduction", lambda m, x: _F(m).kl_div(x, x, reduction="foo"), [_x(3)],
     "foo is not a valid value for reduction"),
    ("poisson_reduction", lambda m, x: _F(m).poisson_nll_loss(x, x, reduction="batchmean"),
     [_x(3)], "batchmean is not a valid value for reduction"),
    ("gaussian_negative", lambda m, x: _F(m).gaussian_nll_loss(x, x, -x.abs()), [_x(3)],
     "var has negative entry/entries"),
    ("gaussian_negative_number", lambda m, x: _F(m).gaussian_nll_loss(x, x, -1.0), [_x(3)],
     "var has negative entry/entries"),
    ("gaussian_var_size", lambda m, x, v: _F(m).gaussian_nll_loss(x, x, v),
     [_x(3, 4), _x(3, 5).abs()], "var is of incorrect size"),
    ("gaussian_var_size_two_dims", lambda m, x, v: _F(m).gaussian_nll_loss(x, x, v),
     [_x(3, 4), _x(1, 1).abs()], "var is of incorrect size"),
    ("gaussian_reduction", lambda m, x: _F(m).gaussian_nll_loss(x, x, x.abs(),
                                                                reduction="foo"),
     [_x(3)], "foo is not valid"),
    ("ranking_dims", lambda m, x, t: _F(m).margin_ranking_loss(x, x, t), [_x(3, 4), _x(4)],
     "margin_ranking_loss : All input tensors should have same dimension"),
    ("multilabel_soft_0dim", lambda m, x: _F(m).multilabel_soft_margin_loss(x, x), [_x()],
     None),
    ("multilabel_soft_reduction", lambda m, x: _F(m).multilabel_soft_margin_loss(
        x, x, reduction="foo"), [_x(3, 2)], "foo is not valid"),
    ("multilabel_margin_size", lambda m, x, t: _F(m).multilabel_margin_loss(x, t),
     [_x(3, 4), _i(np.zeros((2, 4), np.int64))],
     r"inconsistent target size: \[2, 4\] for input of size: \[3, 4\]"),
    ("multilabel_margin_range", lambda m, x, t: _F(m).multilabel_margin_loss(x, t),
     [_x(2, 3), _i([[0, 3, -1], [1, -1, 0]])], "argument #2 'target' is out of range"),
    ("multilabel_margin_below", lambda m, x, t: _F(m).multilabel_margin_loss(x, t),
     [_x(2, 3), _i([[0, -2, -1], [1, -1, 0]])], "out of range"),
    ("multilabel_margin_float_target", lambda m, x: _F(m).multilabel_margin_loss(x, x),
     [_x(2, 3)], "expected scalar type Long but found Float"),
    ("multilabel_margin_3d", lambda m, x, t: _F(m).multilabel_margin_loss(x, t),
     [_x(2, 3, 4), _i(np.zeros((2, 3, 4), np.int64))],
     r"Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
     r"\[2, 3, 4\]"),
    ("multilabel_margin_half", lambda m, x, t: _F(m).multilabel_margin_loss(x.half(), t),
     [_x(2, 3), _i([[0, 1, -1], [1, -1, 0]])], None),
    ("multi_margin_empty_classes", lambda m, x, t: _F(m).multi_margin_loss(x, t),
     [_x(2, 0), _i([0, 0])], "Expected non-empty vector or matrix"),
    ("multi_margin_range", lambda m, x, t: _F(m).multi_margin_loss(x, t),
     [_x(3, 4), _i([0, 4, 1])], "target out of range"),
    ("multi_margin_target_size", lambda m, x, t: _F(m).multi_margin_loss(x, t),
     [_x(3, 4), _i([0, 1])], r"Expected target size \[3\], but got \[2\]"),
    ("multi_margin_target_float", lambda m, x, t: _F(m).multi_margin_loss(x, t),
     [_x(3, 4), _x(3)], "expected scalar type Long but found Float"),
    ("multi_margin_weight_size", lambda m, x, t, w: _F(m).multi_margin_loss(x, t, weight=w),
     [_x(3, 4), _i([0, 1, 2]), _x(3)], r"inconsistent weight size, expected 4 but got \[3\]"),
    ("multi_margin_weight_2d", lambda m, x, t, w: _F(m).multi_margin_loss(x, t, weight=w),
     [_x(3, 4), _i([0, 1, 2]), _x(1, 4)], "weight must be one-dimensional"),
    ("multi_margin_p", lambda m, x, t: _F(m).multi_margin_loss(x, t, p=3),
     [_x(3, 4), _i([0, 1, 2])], "only p == 1 and p == 2 supported"),
    ("multi_margin_half", lambda m, x, t: _F(m).multi_margin_loss(x.half(), t),
     [_x(3, 4), _i([0, 1, 2])], None),
    ("cosine_target_2d", lambda m, x, t: _F(m).cosine_embedding_loss(x, x, t),
     [_x(3, 4), _x(3, 1)], "0D or 1D target tensor expected, multi-target not supported"),
    ("cosine_input_dims", lambda m, x, y, t: _F(m).cosine_embedding_loss(x, y, t),
     [_x(4), _x(3, 4), _x(3)], r"1D target tensor expects 2D input tensors, but found "
                               r"inputs with sizes \[4\] and \[3, 4\]\."),
    ("cosine_input2_dims", lambda m, x, y, t: _F(m).cosine_embedding_loss(x, y, t),
     [_x(3, 4), _x(3), _x(3)], None),
    ("cosine_0dim_target", lambda m, x, t: _F(m).cosine_embedding_loss(x, x, t),
     [_x(3, 4), _x()], "0D target tensor expects 1D input tensors"),
    ("triplet_dims", lambda m, a, n: _F(m).triplet_margin_loss(a, a, n), [_x(3, 4), _x(4)],
     "anchor 2D, positive 2D, and negative 1D inputs"),
    ("triplet_margin", lambda m, a: _F(m).triplet_margin_loss(a, a, a, margin=0), [_x(3, 4)],
     "margin must be greater than 0, got 0"),
    ("triplet_distance_dims", lambda m, a, n: _F(m).triplet_margin_with_distance_loss(
        a, a, n), [_x(3, 4), _x(4)], "anchor 2D, positive 2D, and negative 1D inputs"),
    ("triplet_distance_margin", lambda m, a: _F(m).triplet_margin_with_distance_loss(
        a, a, a, margin=-1.0), [_x(3, 4)], "margin must be greater than 0, got -1.0"),
    ("triplet_distance_reduction", lambda m, a: _F(m).triplet_margin_with_distance_loss(
        a, a, a, reduction="foo"), [_x(3, 4)], "foo is not a valid value for reduction"),
]


@pytest.mark.parametrize("name, fn, tensors, message", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors(name, fn, tensors, message):
    ths = [to_torch(t) for t in tensors]
    with pytest.raises(Exception) as expected:
        fn(torch, *ths)
    cls = _base_error(expected.value)
    with pytest.raises(cls) as got:
        fn(mindtorch, *tensors)
    if message is not None:
        import re
        assert re.search(message, str(expected.value)), expected.value  # the test's premise
        assert re.search(message, str(got.value)), got.value


def test_errors_on_meta():
    """Metadata checks raise on meta too; the data-dependent ones (target bounds, BCE
    input range, negative variances) do not, as the meta device has no values."""
    x = mindtorch.empty(3, 4, device="meta")
    with pytest.raises(ValueError, match="batch_size"):
        MF.nll_loss(x, mindtorch.zeros(2, dtype=mindtorch.int64, device="meta"))
    with pytest.raises(RuntimeError, match="Long or Byte"):
        MF.cross_entropy(x, mindtorch.empty(3, device="meta"))
    MF.nll_loss(x, mindtorch.full((3,), 9, device="meta"))
    MF.binary_cross_entropy(x, x)
    MF.gaussian_nll_loss(x, x, x)


@pytest.mark.parametrize("which", ["weight", "pos_weight"])
def test_bce_with_logits_torch_form_refuses_grad_weights_at_the_call(which):
    """torch.binary_cross_entropy_with_logits refuses a weight requiring grad when it
    records (not at backward); under no_grad it runs."""
    for lib in (mindtorch, torch):
        x = lib.randn(3, requires_grad=True)
        w = lib.rand(3, requires_grad=True)
        with pytest.raises(RuntimeError, match=f"with respect to argument '{which}'"):
            lib.binary_cross_entropy_with_logits(x, lib.rand(3), **{which: w})
        with lib.no_grad():
            assert lib.binary_cross_entropy_with_logits(x, lib.rand(3), **{which: w}).shape \
                == (3,)


@pytest.mark.parametrize("margin", [math.nan, math.inf, 1000.0, 2.7, -1.5])
def test_hinge_embedding_margin_into_integer_input(margin):
    """An integer input takes the margin as a tensor of its dtype: PyTorch's overflow check
    (RuntimeError) for NaN, inf and out-of-range margins."""
    x = mindtorch.tensor([1, -2, 3], dtype=mindtorch.int8)
    t = mindtorch.tensor([1.0, -1.0, -1.0], dtype=mindtorch.float64)
    check(lambda m, x, t: _F(m).hinge_embedding_loss(x, t, margin=margin), x, t)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_soft_margin_loss_refuses_complex_autograd(reduction):
    from test_indexing import _c, same_complex_autograd
    loss = lambda L, x, y: L.nn.functional.soft_margin_loss(x, y, reduction=reduction)  # noqa
    same_complex_autograd(loss, lambda L: (_c(L, 2, 3), _c(L, 2, 3, grad=False, seed=1)))
    same_complex_autograd(loss, lambda L: (_c(L, 2, 3), _c(L, 2, 3, seed=1)))  # target first
    same_complex_autograd(loss, lambda L: (_c(L, 2, 3).real, _c(L, 2, 3, grad=False, seed=1).real))


@pytest.mark.parametrize("dtype, tdtype, shape, weight", [
    ("float16", "int32", (3, 4), None), ("complex64", "int32", (3, 4), None),
    ("bfloat16", "int64", (3, 4), "float64"), ("float32", "int32", (3, 4), "float64"),
    ("float32", "int64", (3, 4), "float64"), ("float16", "int32", (0, 4), "float64"),
    ("int64", "int32", (0, 4), None), ("float32", "int32", (0, 4), None)])
def test_multi_margin_loss_checks_in_pytorchs_order(dtype, tdtype, shape, weight):
    # the kernel's dtype (NotImplementedError), then the target's (Long), then the weight's;
    # an empty input returns before all of them
    from reference import same_error
    x = mindtorch.ones(shape).to(getattr(mindtorch, dtype))
    t = mindtorch.zeros(shape[0], dtype=getattr(mindtorch, tdtype))
    w = None if weight is None else mindtorch.ones(4, dtype=getattr(mindtorch, weight))
    tw = None if w is None else to_torch(w)
    mt = lambda: mindtorch.nn.functional.multi_margin_loss(x, t, weight=w)  # noqa: E731
    th = lambda: torch.nn.functional.multi_margin_loss(to_torch(x), to_torch(t), weight=tw)  # noqa
    same_error(mt, th)
    if shape[0] == 0:
        got, expected = mt(), th()
        assert (got.dtype, got.shape) == (getattr(mindtorch, dtype), ()) and \
            str(expected.dtype) == str(got.dtype)


@pytest.mark.parametrize("device", ["cpu", "meta"])
def test_cosine_embedding_loss_complex_refused_before_target_size(device):
    # ATen clamps (refusing complex) before it compares the target with the inputs' rows
    from reference import same_error
    a = mindtorch.randn(3, 4, dtype=mindtorch.complex64, device=device)
    t = mindtorch.ones(2, device=device)
    for f, g in ((mindtorch.nn.functional.cosine_embedding_loss,
                  torch.nn.functional.cosine_embedding_loss),
                 (mindtorch.cosine_embedding_loss, torch.cosine_embedding_loss)):
        ta = torch.randn(3, 4, dtype=torch.complex64)
        same_error(lambda: f(a, a, t), lambda: g(ta, ta, torch.ones(2)))
    with pytest.raises(NotImplementedError, match="clamp is not supported for complex"):
        mindtorch.nn.functional.cosine_embedding_loss(a, a, t)


@pytest.mark.parametrize("name", ["huber_loss", "mse_loss", "l1_loss"])
@pytest.mark.parametrize("dtype", ["uint8", "bool", "float32"])
@pytest.mark.parametrize("tshape, wshape", [((3, 4), (5,)), ((3, 5), (3, 4)), ((3, 4), (3, 4)),
                                            ((4,), (3, 4))])
def test_weighted_loss_checks_weight_first(name, dtype, tshape, wshape):
    # PyTorch's Python checks the weight's size before it computes the loss (whose dtype
    # may be refused: huber_cpu of Byte, bool subtraction)
    from reference import same_error

    def run(lib):
        x = lib.ones(3, 4, dtype=getattr(lib, dtype))
        t = lib.ones(*tshape, dtype=getattr(lib, dtype))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return getattr(lib.nn.functional, name)(x, t, weight=lib.ones(*wshape))
    same_error(lambda: run(mindtorch), lambda: run(torch))


@pytest.mark.parametrize("name, kw", [("huber_loss", "delta"), ("smooth_l1_loss", "beta")])
@pytest.mark.parametrize("value", [math.nan, -1.0, 0.0, math.inf])
def test_loss_nan_delta_beta_refused(name, kw, value):
    # ATen's TORCH_CHECK(delta > 0) / (beta >= 0) refuse NaN as well
    from reference import same_error

    def run(lib):
        x = lib.ones(3, 4)
        return getattr(lib.nn.functional, name)(x, x * 2, **{kw: value})
    same_error(lambda: run(mindtorch), lambda: run(torch))
