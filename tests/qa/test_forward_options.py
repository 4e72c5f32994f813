"""Module forwards with their optional arguments (masks, initial states, offsets, output sizes,
packed sequences...) and with wrong ones: each case builds a module in both libraries (torch's
weights copied), calls it with the same inputs, and must end alike: same values and gradients,
or the same builtin exception class."""
import warnings

import numpy as np
import pytest

import mindtorch
from test_module_table import _assert_close, _flat

torch = pytest.importorskip("torch")

R = np.random.default_rng(0)
X38 = R.standard_normal((3, 2, 8)).astype(np.float32)   # (L, N, E)
X48 = R.standard_normal((4, 2, 8)).astype(np.float32)
SEQ = R.standard_normal((5, 3, 4)).astype(np.float32)   # (T, B, F)
H = R.standard_normal((1, 3, 5)).astype(np.float32)
H2 = R.standard_normal((2, 3, 5)).astype(np.float32)
IMG = R.standard_normal((2, 3, 5, 5)).astype(np.float32)
KPM = np.array([[False, False, True, True], [False, True, False, False]])
CAUSAL = np.triu(np.full((3, 3), -np.inf, dtype=np.float32), 1)


def T(L, a, grad=True):
    t = L.tensor(a)
    return t.requires_grad_(True) if grad and t.is_floating_point() else t


def _mha(**kw):
    return lambda L: L.nn.MultiheadAttention(8, 2, **kw)


def _packed(L, lengths, enforce_sorted=True):
    return L.nn.utils.rnn.pack_padded_sequence(T(L, SEQ), lengths, enforce_sorted=enforce_sorted)


CASES = {
    # attention masks and flags
    "mha_kpm_bool": (_mha(), lambda L, m: m(T(L, X38), T(L, X48), T(L, X48), key_padding_mask=T(L, KPM))),
    "mha_kpm_float": (_mha(), lambda L, m: m(T(L, X38), T(L, X48), T(L, X48),
                                             key_padding_mask=T(L, np.where(KPM, -1e9, 0.0).astype(np.float32), False))),
    "mha_mask_2d": (_mha(), lambda L, m: m(T(L, X38), T(L, X38), T(L, X38), attn_mask=T(L, CAUSAL, False))),
    "mha_mask_bool_2d": (_mha(), lambda L, m: m(T(L, X38), T(L, X38), T(L, X38), attn_mask=T(L, np.triu(np.ones((3, 3), bool), 1)))),
    "mha_mask_3d": (_mha(), lambda L, m: m(T(L, X38), T(L, X38), T(L, X38), attn_mask=T(L, np.zeros((4, 3, 3), np.float32), False))),
    "mha_mask_bad_3d": (_mha(), lambda L, m: m(T(L, X38), T(L, X38), T(L, X38), attn_mask=T(L, np.zeros((3, 3, 3), np.float32), False))),
    "mha_mask_bad_2d": (_mha(), lambda L, m: m(T(L, X38), T(L, X48), T(L, X48), attn_mask=T(L, CAUSAL, False))),
    "mha_mask_int": (_mha(), lambda L, m: m(T(L, X38), T(L, X38), T(L, X38), attn_mask=T(L, np.zeros((3, 3), np.int64)))),
    "mha_no_weights": (_mha(), lambda L, m: m(T(L, X38), T(L, X48), T(L, X48), need_weights=False)),
    "mha_per_head": (_mha(), lambda L, m: m(T(L, X38), T(L, X48), T(L, X48), average_attn_weights=False)),
    "mha_causal_no_mask": (_mha(), lambda L, m: m(T(L, X38), T(L, X38), T(L, X38), is_causal=True)),
    "mha_causal_with_mask": (_mha(), lambda L, m: m(T(L, X38), T(L, X38), T(L, X38), attn_mask=T(L, CAUSAL, False), is_causal=True)),
    "mha_unbatched": (_mha(), lambda L, m: m(T(L, X38[:, 0]), T(L, X48[:, 0]), T(L, X48[:, 0]), key_padding_mask=T(L, KPM[0]))),
    "mha_kv_mismatch": (_mha(), lambda L, m: m(T(L, X38), T(L, X48), T(L, X38))),
    "mha_bias_kv": (_mha(add_bias_kv=True, add_zero_attn=True), lambda L, m: m(T(L, X38), T(L, X48), T(L, X48), key_padding_mask=T(L, KPM))),
    "mha_eval_no_grad": (_mha(batch_first=True), lambda L, m: _eval_no_grad(L, m, lambda: m(L.tensor(X38), L.tensor(X38), L.tensor(X38)))),
    "encoder_kpm_eval": (lambda L: L.nn.TransformerEncoder(L.nn.TransformerEncoderLayer(8, 2, 16, 0.0, batch_first=True), 2),
                         lambda L, m: _eval_no_grad(L, m, lambda: m(L.tensor(X48.transpose(1, 0, 2).copy()),
                                                                     src_key_padding_mask=L.tensor(KPM)))),
    "encoder_mask_causal": (lambda L: L.nn.TransformerEncoder(L.nn.TransformerEncoderLayer(8, 2, 16, 0.0), 1, enable_nested_tensor=False),
                            lambda L, m: m(T(L, X38), mask=T(L, CAUSAL, False), is_causal=True)),
    "decoder_masks": (lambda L: L.nn.TransformerDecoderLayer(8, 2, 16, 0.0),
                      lambda L, m: m(T(L, X38), T(L, X48), tgt_mask=T(L, CAUSAL, False), memory_key_padding_mask=T(L, KPM))),
    "transformer_square_mask": (lambda L: L.nn.Transformer(8, 2, 1, 1, 16, 0.0),
                                lambda L, m: m(T(L, X48), T(L, X38), tgt_mask=L.nn.Transformer.generate_square_subsequent_mask(3))),
    # recurrent
    "rnn_h0": (lambda L: L.nn.RNN(4, 5), lambda L, m: m(T(L, SEQ), T(L, H))),
    "rnn_h0_bad": (lambda L: L.nn.RNN(4, 5), lambda L, m: m(T(L, SEQ), T(L, H2))),
    "rnn_h0_unbatched_mismatch": (lambda L: L.nn.RNN(4, 5), lambda L, m: m(T(L, SEQ[:, 0]), T(L, H))),
    "gru_2layer_h0": (lambda L: L.nn.GRU(4, 5, 2), lambda L, m: m(T(L, SEQ), T(L, H2))),
    "lstm_hc": (lambda L: L.nn.LSTM(4, 5), lambda L, m: m(T(L, SEQ), (T(L, H), T(L, H)))),
    "lstm_h_only": (lambda L: L.nn.LSTM(4, 5), lambda L, m: m(T(L, SEQ), T(L, H))),
    "lstm_c_bad": (lambda L: L.nn.LSTM(4, 5), lambda L, m: m(T(L, SEQ), (T(L, H), T(L, H2)))),
    "lstm_proj_hc": (lambda L: L.nn.LSTM(4, 5, proj_size=2), lambda L, m: m(T(L, SEQ), (T(L, H[..., :2]), T(L, H)))),
    "lstm_packed": (lambda L: L.nn.LSTM(4, 5, bidirectional=True), lambda L, m: _unpack(L, m(_packed(L, [5, 3, 2])))),
    "gru_packed_unsorted": (lambda L: L.nn.GRU(4, 5, 2), lambda L, m: _unpack(L, m(_packed(L, [2, 5, 3], False)))),
    "rnn_packed_unsorted_refused": (lambda L: L.nn.RNN(4, 5), lambda L, m: m(_packed(L, [2, 5, 3]))),
    "rnn_wrong_features": (lambda L: L.nn.RNN(4, 5), lambda L, m: m(T(L, SEQ[..., :3]))),
    "rnn_double_input_float_module": (lambda L: L.nn.RNN(4, 5), lambda L, m: m(T(L, SEQ.astype(np.float64)))),
    "lstmcell_hc": (lambda L: L.nn.LSTMCell(4, 5), lambda L, m: m(T(L, SEQ[0]), (T(L, H[0]), T(L, H[0])))),
    "grucell_unbatched": (lambda L: L.nn.GRUCell(4, 5), lambda L, m: m(T(L, SEQ[0, 0]), T(L, H[0, 0]))),
    "rnncell_bad_hidden": (lambda L: L.nn.RNNCell(4, 5), lambda L, m: m(T(L, SEQ[0]), T(L, H2[0, :2]))),
    # embeddings
    "embedding_from_pretrained": (lambda L: L.nn.Embedding.from_pretrained(L.arange(12.0).reshape(4, 3), freeze=False, padding_idx=1),
                                  lambda L, m: m(L.tensor([[0, 1], [3, 1]]))),
    "embedding_from_pretrained_1d": (lambda L: L.nn.Embedding.from_pretrained(L.arange(4.0)), lambda L, m: m(L.tensor([0]))),
    "embedding_out_of_range": (lambda L: L.nn.Embedding(4, 3), lambda L, m: m(L.tensor([4]))),
    "embedding_negative_index": (lambda L: L.nn.Embedding(4, 3), lambda L, m: m(L.tensor([-1]))),
    "embedding_int32_index": (lambda L: L.nn.Embedding(4, 3), lambda L, m: m(L.tensor([1, 2], dtype=L.int32))),
    "embedding_scale_grad": (lambda L: L.nn.Embedding(4, 3, scale_grad_by_freq=True), lambda L, m: m(L.tensor([1, 1, 2]))),
    "bag_offsets": (lambda L: L.nn.EmbeddingBag(10, 3, mode="sum"), lambda L, m: m(L.tensor([1, 2, 4, 5, 4, 3]), L.tensor([0, 2, 2]))),
    "bag_offsets_last": (lambda L: L.nn.EmbeddingBag(10, 3, include_last_offset=True), lambda L, m: m(L.tensor([1, 2, 4, 5]), L.tensor([0, 1, 4]))),
    "bag_per_sample": (lambda L: L.nn.EmbeddingBag(10, 3, mode="sum"),
                       lambda L, m: m(L.tensor([[1, 2], [3, 4]]), per_sample_weights=T(L, np.array([[1.0, 2.0], [0.5, -1.0]], np.float32)))),
    "bag_per_sample_mean_refused": (lambda L: L.nn.EmbeddingBag(10, 3), lambda L, m: m(L.tensor([[1, 2]]), per_sample_weights=L.ones(1, 2))),
    "bag_2d_with_offsets": (lambda L: L.nn.EmbeddingBag(10, 3), lambda L, m: m(L.tensor([[1, 2]]), L.tensor([0]))),
    "bag_1d_without_offsets": (lambda L: L.nn.EmbeddingBag(10, 3), lambda L, m: m(L.tensor([1, 2]))),
    "bag_padding_idx": (lambda L: L.nn.EmbeddingBag(10, 3, mode="mean", padding_idx=2), lambda L, m: m(L.tensor([[2, 2], [1, 2]]))),
    # convolutions and pooling with extra arguments
    "convT_output_size": (lambda L: L.nn.ConvTranspose2d(3, 2, 3, stride=2), lambda L, m: m(T(L, IMG), output_size=[12, 12])),
    "convT_output_size_bad": (lambda L: L.nn.ConvTranspose2d(3, 2, 3, stride=2), lambda L, m: m(T(L, IMG), output_size=[14, 14])),
    "unpool_output_size": (lambda L: L.nn.MaxUnpool2d(2), lambda L, m: _unpool(L, m, [5, 5])),
    "unpool_output_size_bad": (lambda L: L.nn.MaxUnpool2d(2), lambda L, m: _unpool(L, m, [7, 7])),
    "conv_wrong_dtype_weight": (lambda L: L.nn.Conv2d(3, 2, 3), lambda L, m: m(T(L, IMG.astype(np.float64)))),
    "conv_too_small": (lambda L: L.nn.Conv2d(3, 2, 7), lambda L, m: m(T(L, IMG))),
    "pool_too_small": (lambda L: L.nn.MaxPool2d(7), lambda L, m: m(T(L, IMG))),
    "conv_int_input": (lambda L: L.nn.Conv2d(3, 2, 3), lambda L, m: m(L.ones(1, 3, 4, 4, dtype=L.int64))),
    # normalization corner cases
    "bn_batch_of_one": (lambda L: L.nn.BatchNorm1d(3), lambda L, m: m(T(L, SEQ[0, :1, :3]))),
    "bn_batch_of_one_eval": (lambda L: L.nn.BatchNorm1d(3).eval(), lambda L, m: m(T(L, SEQ[0, :1, :3]))),
    "bn_wrong_channels": (lambda L: L.nn.BatchNorm2d(4), lambda L, m: m(T(L, IMG))),
    "bn2d_3d_input": (lambda L: L.nn.BatchNorm2d(3), lambda L, m: m(T(L, IMG[0]))),
    "instancenorm_one_pixel": (lambda L: L.nn.InstanceNorm2d(3), lambda L, m: m(T(L, IMG[:, :, :1, :1]))),
    "layernorm_wrong_shape": (lambda L: L.nn.LayerNorm(4), lambda L, m: m(T(L, IMG))),
    "groupnorm_wrong_channels": (lambda L: L.nn.GroupNorm(2, 4), lambda L, m: m(T(L, IMG))),
    # losses with options
    "ce_all_ignored": (lambda L: L.nn.CrossEntropyLoss(ignore_index=1), lambda L, m: m(T(L, SEQ[0, :2]), L.tensor([1, 1]))),
    "ce_target_out_of_range": (lambda L: L.nn.CrossEntropyLoss(), lambda L, m: m(T(L, SEQ[0]), L.tensor([0, 1, 4]))),
    "ce_float_target_wrong_shape": (lambda L: L.nn.CrossEntropyLoss(), lambda L, m: m(T(L, SEQ[0]), L.ones(3, 3))),
    "ce_int32_target": (lambda L: L.nn.CrossEntropyLoss(), lambda L, m: m(T(L, SEQ[0]), L.tensor([0, 1, 2], dtype=L.int32))),
    "ce_unbatched": (lambda L: L.nn.CrossEntropyLoss(), lambda L, m: m(T(L, SEQ[0, 0]), L.tensor(2))),
    "nll_weight_wrong_size": (lambda L: L.nn.NLLLoss(weight=L.ones(3)), lambda L, m: m(T(L, SEQ[0]), L.tensor([0, 1, 2]))),
    "mse_broadcast_warns": (lambda L: L.nn.MSELoss(), lambda L, m: m(T(L, SEQ[0]), T(L, SEQ[0, :1]))),
    "mse_not_broadcastable": (lambda L: L.nn.MSELoss(), lambda L, m: m(T(L, SEQ[0]), T(L, SEQ[0, :2]))),
    "bce_target_out_of_range": (lambda L: L.nn.BCELoss(), lambda L, m: m(T(L, np.full((2,), 0.5, np.float32)), L.tensor([0.0, 2.0]))),
    "bce_input_out_of_range": (lambda L: L.nn.BCELoss(), lambda L, m: m(T(L, np.array([1.5, 0.5], np.float32)), L.tensor([0.0, 1.0]))),
    "bce_shape_mismatch": (lambda L: L.nn.BCELoss(), lambda L, m: m(T(L, np.full((2, 1), 0.5, np.float32)), L.ones(2))),
    "bcelogits_shape_mismatch": (lambda L: L.nn.BCEWithLogitsLoss(), lambda L, m: m(T(L, SEQ[0]), L.ones(3))),
    "kldiv_mean_warns": (lambda L: L.nn.KLDivLoss(), lambda L, m: m(T(L, SEQ[0]), T(L, np.abs(SEQ[1])))),
    "gaussian_var_negative": (lambda L: L.nn.GaussianNLLLoss(), lambda L, m: m(T(L, SEQ[0]), T(L, SEQ[1]), -L.ones(3, 4))),
    "gaussian_var_one_fewer_dim": (lambda L: L.nn.GaussianNLLLoss(), lambda L, m: m(T(L, SEQ[0]), T(L, SEQ[1]), L.ones(3))),
    "ctc_int_lengths": (lambda L: L.nn.CTCLoss(reduction="sum", zero_infinity=True),
                        lambda L, m: m(T(L, SEQ.transpose(0, 1, 2)[:, :2]).log_softmax(-1), L.tensor([[1, 2], [3, 3]]), [5, 4], [2, 2])),
    "softmax_no_dim": (lambda L: L.nn.Softmax(), lambda L, m: m(T(L, SEQ))),
    "softmax_no_dim_0d": (lambda L: L.nn.LogSoftmax(), lambda L, m: m(T(L, np.float32(2.0)))),
    "upsample_recompute": (lambda L: L.nn.Upsample(scale_factor=1.7, mode="bilinear", recompute_scale_factor=True),
                           lambda L, m: m(T(L, IMG))),
    "upsample_align_nearest": (lambda L: L.nn.Upsample(scale_factor=2, align_corners=True), lambda L, m: m(T(L, IMG))),
    "flatten_0d": (lambda L: L.nn.Flatten(0), lambda L, m: m(T(L, np.float32(1.0)))),
    "unflatten_bad": (lambda L: L.nn.Unflatten(1, (2, 2)), lambda L, m: m(T(L, SEQ[0]))),
    "pixel_shuffle_bad": (lambda L: L.nn.PixelShuffle(2), lambda L, m: m(T(L, IMG))),
    "identity_kwargs": (lambda L: L.nn.Identity(), lambda L, m: m(T(L, SEQ))),
    "linear_wrong_features": (lambda L: L.nn.Linear(4, 2), lambda L, m: m(T(L, SEQ[..., :3]))),
    "linear_0d": (lambda L: L.nn.Linear(4, 2), lambda L, m: m(T(L, np.float32(1.0)))),
    "bilinear_mismatch": (lambda L: L.nn.Bilinear(4, 4, 2), lambda L, m: m(T(L, SEQ[0]), T(L, SEQ[0, :2]))),
    "dropout_p1_train": (lambda L: L.nn.Dropout(1.0), lambda L, m: m(T(L, SEQ))),
    "dropout_p0_train": (lambda L: L.nn.Dropout(0.0), lambda L, m: m(T(L, SEQ))),
}


def _eval_no_grad(L, m, call):
    m.eval()
    with L.no_grad():
        return call()


def _unpack(L, out):
    y, h = out
    padded, lengths = L.nn.utils.rnn.pad_packed_sequence(y)
    return padded, lengths, h


def _unpool(L, m, size):
    x = T(L, IMG[:, :, :4, :4])
    pooled, idx = L.nn.functional.max_pool2d(x, 2, return_indices=True)
    return m(pooled, idx, output_size=size)


KNOWN = {}


@pytest.mark.parametrize("case", [pytest.param(c, marks=KNOWN.get(c, ())) for c in sorted(CASES)])
def test_call_ends_alike(case):
    build, call = CASES[case]
    torch.manual_seed(0)
    try:
        t = build(torch)
    except Exception as e:
        with pytest.raises(next(c for c in type(e).__mro__ if c.__module__ == "builtins")):
            build(mindtorch)
        return
    m = build(mindtorch)
    m.load_state_dict({k: mindtorch.tensor(v.detach().numpy()) for k, v in t.state_dict().items()})
    if not t.training:
        m.eval()
    with warnings.catch_warnings(record=True) as tw:
        warnings.simplefilter("always")
        try:
            t_out = call(torch, t)
        except Exception as e:
            base = next(c for c in type(e).__mro__ if c.__module__ == "builtins")
            with pytest.raises(base):
                call(mindtorch, m)
            return
    if case in KNOWN:  # the kernel's warning shows from its second call on: call it once
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call(mindtorch, m)
    with warnings.catch_warnings(record=True) as mw:
        warnings.simplefilter("always")
        m_out = call(mindtorch, m)
    t_flat, m_flat = _flat(t_out), _flat(m_out)
    assert len(t_flat) == len(m_flat)
    for a, b in zip(m_flat, t_flat):
        _assert_close(a, b, "float32")
    # a warning where torch warns (categories)
    # (less the once-per-process oneDNN notice, which both give: whether it shows here
    # depends on the tests run before)
    t_cats = sorted({w.category.__name__ for w in tw if "oneDNN" not in str(w.message)})
    m_cats = sorted({w.category.__name__ for w in mw if "oneDNN" not in str(w.message)})
    assert m_cats == t_cats, ([str(w.message)[:80] for w in mw], [str(w.message)[:80] for w in tw])
    pairs = [(a, b) for a, b in zip(m_flat, t_flat)
             if isinstance(b, torch.Tensor) and b.requires_grad and b.numel()]
    if pairs:
        rng = np.random.default_rng(1)
        seeds = [rng.standard_normal(tuple(b.shape)).astype(np.float32) for _, b in pairs]
        torch.autograd.backward([b for _, b in pairs], [torch.tensor(s) for s in seeds])
        mindtorch.autograd.backward([a for a, _ in pairs], [mindtorch.tensor(s) for s in seeds])
        for (k, a), (_, b) in zip(m.named_parameters(), t.named_parameters()):
            _assert_close(a.grad, b.grad, "float32")
