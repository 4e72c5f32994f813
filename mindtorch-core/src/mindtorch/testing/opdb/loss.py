"""Samples of the loss ops: nn.functional's (reduction strings, legacy arguments) and
ATen's (int reductions), each with a few reductions, non-contiguous and K-dim inputs."""
import mindtorch

from ._make import ix, t

_f64 = mindtorch.float64


def _p(d, shape, dtype=mindtorch.float32, transposed=False):
    """Values in (0, 1)."""
    return t(d, shape, dtype, transposed).sigmoid()


def _sign(d, shape):
    return t(d, shape).sign()


_CLASSES = [0, 3, 1]
_LABELS = [[3, 0, -1, 1], [1, 2, 3, 0], [-1, 1, 1, 1]]

SAMPLES = {
    "cross_entropy": [
        lambda d: ((t(d, (3, 4)), ix(d, _CLASSES)), {}),
        lambda d: ((t(d, (4, 3), _f64, True), ix(d, [0, 1, 2, 2])),
                   {"weight": t(d, (3,), _f64).abs(), "ignore_index": 1, "reduction": "sum"}),
        lambda d: ((t(d, (3, 4)), ix(d, _CLASSES)), {"label_smoothing": 0.2,
                                                     "reduction": "none"}),
        lambda d: ((t(d, (3, 4)), _p(d, (3, 4))), {"label_smoothing": 0.1}),
        lambda d: ((t(d, (2, 3, 2, 2)), ix(d, [[[0, 1], [2, 2]], [[1, 0], [0, 2]]])), {}),
        lambda d: ((t(d, (5,)), ix(d, 2)), {}),
        lambda d: ((t(d, (0, 4)), ix(d, [])), {}),
    ],
    "nll_loss": [
        lambda d: ((t(d, (3, 4)), ix(d, _CLASSES)), {"reduction": "none"}),
        lambda d: ((t(d, (2, 4, 3)), ix(d, [[0, 1, 3], [2, 2, 0]])),
                   {"weight": t(d, (4,)).abs()}),
        lambda d: ((t(d, (3, 4), mindtorch.float16), ix(d, [0, -100, 1])), {}),
    ],
    "_nll_loss": [lambda d: ((t(d, (3, 4)), ix(d, _CLASSES), None, 1, -100), {})],
    # (grad, target, weight, input size, reduction, ignore_index)
    "_nll_loss_backward": [
        lambda d: ((t(d, ()), ix(d, _CLASSES), None, (3, 4), 1, -100), {}),
        lambda d: ((t(d, (3,), _f64), ix(d, [0, 1, 3]), t(d, (4,), _f64).abs(), (3, 4), 0, 1),
                   {}),
        lambda d: ((t(d, ()), ix(d, [[[0, 1], [2, -100]]]), t(d, (3,)).abs(), (1, 3, 2, 2),
                    2, -100), {}),
        lambda d: ((t(d, ()), ix(d, 2), None, (5,), 1, -100), {}),
        lambda d: ((t(d, (), mindtorch.float16), ix(d, [0, -100, 1]), None, (3, 4), 1, -100),
                   {}),
    ],
    "mse_loss": [
        lambda d: ((t(d, (3, 4)), t(d, (3, 4), transposed=True)), {}),
        lambda d: ((t(d, (3, 4), _f64), t(d, (3, 4))), {"reduction": "none",
                                                        "weight": t(d, (3, 4)).abs()}),
        lambda d: ((t(d, ()), t(d, ())), {"reduction": "sum"}),
    ],
    "_mse_loss": [lambda d: ((t(d, (3, 4)), t(d, (3, 4)), 0), {})],
    "l1_loss": [lambda d: ((t(d, (3, 4)), t(d, (3, 4))), {}),
                lambda d: ((t(d, (0, 2)), t(d, (0, 2))), {"reduction": "sum"})],
    "smooth_l1_loss": [lambda d: ((t(d, (3, 4)), t(d, (3, 4))), {"beta": 0.5}),
                       lambda d: ((t(d, (3, 4), mindtorch.bfloat16), t(d, (3, 4))),
                                  {"reduction": "none"})],
    "_smooth_l1_loss": [lambda d: ((t(d, (3, 4)), t(d, (3, 4)), 2, 1.0), {})],
    "huber_loss": [lambda d: ((t(d, (3, 4)), t(d, (3, 4))), {"delta": 0.5}),
                   lambda d: ((t(d, (3, 4)), t(d, (3, 4))), {"weight": t(d, (3, 4)).abs(),
                                                             "reduction": "none"})],
    "_huber_loss": [lambda d: ((t(d, (3, 4)), t(d, (3, 4), _f64), 0, 1.0), {})],
    "binary_cross_entropy": [
        lambda d: ((_p(d, (3, 4)), _p(d, (3, 4))), {}),
        lambda d: ((_p(d, (3, 4), _f64, True), _p(d, (3, 4), _f64)),
                   {"weight": t(d, (4,), _f64).abs(), "reduction": "none"}),
    ],
    "_binary_cross_entropy": [lambda d: ((_p(d, (3, 4)), _p(d, (3, 4)), None, 1), {})],
    "functional_binary_cross_entropy_with_logits": [
        lambda d: ((t(d, (3, 4)), _p(d, (3, 4))), {}),
        lambda d: ((t(d, (3, 4)), _p(d, (3, 4))), {"pos_weight": t(d, (4,)).abs(),
                                                   "weight": t(d, (3, 1)).abs(),
                                                   "reduction": "none"}),
    ],
    "binary_cross_entropy_with_logits": [
        lambda d: ((t(d, (3, 4)), _p(d, (3, 4), _f64)), {}),
        lambda d: ((t(d, (3, 4)), _p(d, (3, 4)), None, t(d, (4,)).abs(), 2), {}),
    ],
    "functional_kl_div": [
        lambda d: ((t(d, (3, 4)), _p(d, (3, 4))), {"reduction": "batchmean"}),
        lambda d: ((t(d, (3, 4)), t(d, (3, 4))), {"log_target": True, "reduction": "none"}),
    ],
    "kl_div": [lambda d: ((t(d, (3, 4), transposed=True), _p(d, (3, 4))), {}),
               lambda d: ((t(d, (3, 4)), t(d, (3, 4))), {"reduction": 1, "log_target": True})],
    "functional_poisson_nll_loss": [
        lambda d: ((t(d, (3, 4)), _p(d, (3, 4)) * 3), {}),
        lambda d: ((_p(d, (3, 4)), _p(d, (3, 4)) * 3), {"log_input": False, "full": True,
                                                        "reduction": "none"}),
    ],
    "poisson_nll_loss": [lambda d: ((t(d, (3, 4)), _p(d, (3, 4)), True, False, 1e-8, 2), {})],
    "gaussian_nll_loss": [
        lambda d: ((t(d, (3, 4)), t(d, (3, 4)), t(d, (3, 4)).abs()), {}),
        lambda d: ((t(d, (3, 4)), t(d, (3, 4)), t(d, (3,)).abs()), {"full": True,
                                                                   "reduction": "none"}),
        lambda d: ((t(d, (3, 4)), t(d, (3, 4)), 0.5), {"reduction": "sum"}),
    ],
    "functional_hinge_embedding_loss": [
        lambda d: ((t(d, (3, 4)), _sign(d, (3, 4))), {"margin": 0.5}),
    ],
    "hinge_embedding_loss": [lambda d: ((t(d, (3, 4)), _sign(d, (3, 4))), {})],
    "functional_margin_ranking_loss": [
        lambda d: ((t(d, (5,)), t(d, (5,)), _sign(d, (5,))), {"margin": 0.1}),
    ],
    "margin_ranking_loss": [lambda d: ((t(d, (5,)), t(d, (5,)), _sign(d, (5,)), 0.0, 1), {})],
    "soft_margin_loss": [lambda d: ((t(d, (3, 4)), _sign(d, (3, 4))), {}),
                         lambda d: ((t(d, (3, 4)), ix(d, [1, -1, -1, 1])), {"reduction": "sum"}),
                         lambda d: ((t(d, (3, 4), _f64), _sign(d, (4,))),
                                    {"reduction": "none"})],
    # an integer target: a float one would require grad in the kit's backward check, which
    # PyTorch refuses (and the kit cannot know without a reference for the hidden op)
    "_soft_margin_loss": [lambda d: ((t(d, (3, 4)), ix(d, [[1, -1, 1, 1]] * 3), 1), {})],
    "multilabel_soft_margin_loss": [
        lambda d: ((t(d, (3, 4)), _p(d, (3, 4))), {"weight": t(d, (4,)).abs()}),
    ],
    "multilabel_margin_loss": [lambda d: ((t(d, (3, 4)), ix(d, _LABELS)), {}),
                               lambda d: ((t(d, (4,)), ix(d, [2, 0, -1, 3])),
                                          {"reduction": "none"})],
    "_multilabel_margin_loss": [lambda d: ((t(d, (3, 4)), ix(d, _LABELS), 0), {})],
    "multi_margin_loss": [
        lambda d: ((t(d, (3, 4)), ix(d, _CLASSES)), {}),
        lambda d: ((t(d, (3, 4), _f64), ix(d, _CLASSES)),
                   {"p": 2, "margin": 0.5, "weight": t(d, (4,), _f64).abs(), "reduction": "none"}),
    ],
    "_multi_margin_loss": [lambda d: ((t(d, (3, 4)), ix(d, _CLASSES), 1, 1.0, None, 1), {})],
    "functional_cosine_embedding_loss": [
        lambda d: ((t(d, (3, 4)), t(d, (3, 4)), ix(d, [1, -1, 1])), {"margin": 0.1}),
    ],
    "cosine_embedding_loss": [lambda d: ((t(d, (4,)), t(d, (4,)), ix(d, -1)), {})],
    "functional_triplet_margin_loss": [
        lambda d: ((t(d, (3, 4)), t(d, (3, 4)), t(d, (3, 4))), {}),
        lambda d: ((t(d, (3, 4)), t(d, (1, 4)), t(d, (3, 4))), {"p": 1, "swap": True,
                                                                "reduction": "none"}),
    ],
    "triplet_margin_loss": [lambda d: ((t(d, (3, 4)), t(d, (3, 4)), t(d, (3, 4)), 2.0), {})],
    # (T, N, C) log-probabilities, padded or concatenated targets, lengths as tensors or ints;
    # the last sample's first target cannot be aligned in 2 steps (an infinite loss, 0 with
    # zero_infinity)
    "functional_ctc_loss": [
        lambda d: ((_logp(d, (4, 2, 4)), ix(d, [[1, 1], [3, 0]]), ix(d, [4, 3]), ix(d, [2, 1])),
                   {}),
        lambda d: ((_logp(d, (5, 3, 4), _f64), ix(d, [2, 2, 1, 0]), ix(d, [5, 4, 0]),
                    ix(d, [2, 2, 0])), {"reduction": "sum", "blank": 3}),
        lambda d: ((_logp(d, (4, 3)), ix(d, [2, 1]), ix(d, 4), ix(d, 2)), {"reduction": "none"}),
        lambda d: ((_logp(d, (3, 2, 3)), ix(d, [[1, 1], [2, 1]]), ix(d, [2, 3]), ix(d, [2, 2])),
                   {"zero_infinity": True, "reduction": "none"}),
    ],
    "functional_linear_cross_entropy": [
        lambda d: ((t(d, (3, 4)), t(d, (5, 4)), ix(d, [0, 4, 2])),
                   {"linear_bias": t(d, (5,)), "reduction": "sum", "label_smoothing": 0.1}),
        lambda d: ((t(d, (2, 4), _f64), t(d, (3, 2, 4), _f64), ix(d, [[1, 0], [2, 1]])), {}),
        lambda d: ((t(d, (2, 4)), t(d, (3, 4), transposed=True), ix(d, [1, -100])),
                   {"reduction": "none"}),
    ],
    "_ctc_loss_intlist": [
        lambda d: ((_logp(d, (4, 2, 3), _f64), ix(d, [1, 2, 2]), (4, 3), (1, 2), 0, 2, False),
                   {})],
    "ctc_loss": [
        lambda d: ((_logp(d, (4, 2, 4)), ix(d, [[1, 2, 0], [3, 0, 0]]), (4, 2), (2, 1)), {}),
        lambda d: ((t(d, (3, 2, 3), _f64), ix(d, [1, 2, 2]), ix(d, [3, 3]), ix(d, [1, 2]), 0,
                    0), {}),
    ],
}


def _logp(d, shape, dtype=mindtorch.float32):
    return t(d, shape, dtype).log_softmax(-1)
