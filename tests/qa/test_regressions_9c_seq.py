"""Regression tests for what QA round 9c (sequence / NLP model code) found, each against
torch."""
import warnings

import mindtorch
import numpy as np
import pytest
from reference import same_outcome

torch = pytest.importorskip("torch")


def _qkv(L, Lq, Lk, grad=True):
    g = np.random.default_rng(0)
    arrs = [g.standard_normal((2, 3, n, 4)) for n in (Lq, Lk, Lk)]
    return [L.tensor(a, requires_grad=grad) for a in arrs]


@pytest.mark.parametrize("variant", ["causal_upper_left", "causal_lower_right"])
@pytest.mark.parametrize("Lq,Lk", [(3, 5), (4, 4), (5, 3), (1, 6)])
def test_causal_bias_sdpa_forward_backward(variant, Lq, Lk):
    outs = []
    for L in (mindtorch, torch):
        from importlib import import_module
        bias = getattr(import_module(L.__name__ + ".nn.attention.bias"), variant)
        q, k, v = _qkv(L, Lq, Lk)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            mask = bias(Lq, Lk)
        o = L.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=0.7)
        o.pow(2).sum().backward()
        outs.append([t.detach().numpy() for t in (o, q.grad, k.grad, v.grad)]
                    + [mask._materialize().numpy()])
    for a, b in zip(*outs):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_causal_bias_api_and_errors():
    def run(L):
        b = __import__(L.__name__ + ".nn.attention.bias", fromlist=["x"])
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            lr = b.causal_lower_right(5, 3)
        res = [str(w[0].message), lr.seq_len_q, lr.seq_len_kv, int(lr.variant),
               str(b.CausalVariant.UPPER_LEFT), repr(b.CausalVariant.LOWER_RIGHT), sorted(b.__all__),
               repr(b.causal_upper_left(2, 3)).replace("mindtorch", "torch")]
        for bad in (lambda: b.causal_upper_left(3), lambda: b.causal_lower_right(1, 2, 3),
                    lambda: b.CausalBias(1, 2, 2)):
            try:
                bad()
            except AssertionError as e:
                res.append(str(e))
        q, k, v = _qkv(L, 3, 3, grad=False)
        try:
            L.nn.functional.scaled_dot_product_attention(
                q, k, v, attn_mask=b.causal_upper_left(3, 3), is_causal=True)
        except ValueError as e:
            res.append(str(e))
        return res
    assert run(mindtorch) == run(torch)


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16", "uint16", "uint32", "uint64",
                                   "int32", "complex64"])
def test_sdpa_mask_dtype_error_names_c_type(dtype):
    def run(L):
        q = L.zeros(1, 2, 3, 4, dtype=L.float64)
        try:
            L.nn.functional.scaled_dot_product_attention(
                q, q, q, attn_mask=L.zeros(3, 3, dtype=getattr(L, dtype)))
        except RuntimeError as e:
            return str(e)
    assert run(mindtorch) == run(torch) is not None


@pytest.mark.parametrize("dtype", ["uint16", "uint64"])
def test_grad_assign_dtype_error_names_c_type(dtype):
    def run(L):
        t = L.zeros(2)
        try:
            t.grad = L.zeros(2, dtype=getattr(L, dtype))
        except RuntimeError as e:
            return str(e)
    assert run(mindtorch) == run(torch) is not None


@pytest.mark.parametrize("functional", [True, False])
@pytest.mark.parametrize("tensor_input_lengths", [True, False])
def test_ctc_loss_mixed_lengths_type_error(functional, tensor_input_lengths):
    # F.ctc_loss passes all seven arguments on, so PyTorch's message lists their types
    def run(L):
        lp = L.zeros(6, 2, 4).log_softmax(-1)
        fn = L.nn.functional.ctc_loss if functional else L.ctc_loss
        il, tl = (L.tensor([6, 5]), (2, 2)) if tensor_input_lengths else ((6, 5), L.tensor([2, 2]))
        try:
            fn(lp, L.ones(2, 2, dtype=L.long), il, tl)
        except TypeError as e:
            return str(e).split("but expected")[0]
    assert run(mindtorch) == run(torch) is not None


@pytest.mark.parametrize("mask_shape", [(3,), (), (1,), (3, 3)])
@pytest.mark.parametrize("case", ["flash", "dropout", "3d", "gqa", "broadcast_batch"])
def test_sdpa_mask_below_two_dims(mask_shape, case):
    # PyTorch's cpu flash-eligible path reads mask.size(-2); its math path broadcasts
    def run(L):
        g = np.random.default_rng(1)
        q = L.tensor(g.standard_normal((2, 1, 3, 4)))
        k = L.tensor(g.standard_normal((1, 1, 3, 4))) if case == "broadcast_batch" else q
        kw = {"dropout_p": 0.5} if case == "dropout" else \
            {"enable_gqa": True} if case == "gqa" else {}
        if case == "3d":
            q = k = q[0]
        L.manual_seed(0)
        return L.nn.functional.scaled_dot_product_attention(
            q, k, k, attn_mask=L.zeros(mask_shape, dtype=L.float64), **kw).numpy().round(10).tolist()
    same_outcome(run)


def _masks(L, heads=2):
    kb = L.tensor([[False] * 3, [True] * 3])
    am = L.tensor([[False, True, True], [True, True, True], [False, False, False]])
    return {"kb": {"key_padding_mask": kb},
            "kf": {"key_padding_mask": L.zeros(2, 3).masked_fill(kb, float("-inf"))},
            "am": {"attn_mask": am},
            "amf": {"attn_mask": L.zeros(3, 3).masked_fill(am, float("-inf"))},
            "am3": {"attn_mask": am.expand(2 * heads, 3, 3)},
            "am+kb": {"attn_mask": am, "key_padding_mask": kb},
            "amf+kb": {"attn_mask": L.zeros(3, 3).masked_fill(am, float("-inf")),
                       "key_padding_mask": kb},
            "none": {}}


def _mha_case(L, masks, heads, need_weights, grad, self_attn, batch_first, training):
    L.manual_seed(0)
    m = L.nn.MultiheadAttention(4, heads, batch_first=batch_first).train(training)
    x = L.tensor(np.random.default_rng(2).standard_normal((2, 3, 4)), dtype=L.float32)
    x = x if batch_first else x.transpose(0, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with L.set_grad_enabled(grad):
            out = m(x, x, x if self_attn else x.clone(), need_weights=need_weights,
                    **_masks(L, heads)[masks])[0]
    return out.detach().numpy()


@pytest.mark.parametrize("masks", ["kb", "kf", "am", "amf", "am3", "am+kb", "amf+kb", "none"])
@pytest.mark.parametrize("opts", [
    {}, {"need_weights": True}, {"grad": True}, {"heads": 1}, {"self_attn": False},
    {"batch_first": False}, {"training": True}])
def test_mha_inference_path_nan_rows(masks, opts):
    # PyTorch's native kernel (inference, no grad, batch_first self-attention, even heads,
    # masks given as bool) has no safe softmax: rows with every key masked are NaN
    kw = {"heads": 2, "need_weights": False, "grad": False, "self_attn": True,
          "batch_first": True, "training": False, **opts}
    a, b = (_mha_case(L, masks, **kw) for L in (mindtorch, torch))
    np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5, equal_nan=True)


@pytest.mark.parametrize("masks", ["kb", "kf", "am", "amf", "am+kb", "none"])
@pytest.mark.parametrize("opts", [{}, {"norm_first": True}, {"nhead": 1}, {"grad": True},
                                  {"activation": "tanh"}, {"activation": "gelu"},
                                  {"hook": True}, {"encoder": True}, {"encoder": "nested"}])
def test_encoder_layer_inference_path_nan_rows(masks, opts):
    def run(L):
        L.manual_seed(0)
        act = {"tanh": L.tanh, "gelu": "gelu"}.get(opts.get("activation"), "relu")
        layer = L.nn.TransformerEncoderLayer(
            4, opts.get("nhead", 2), 8, batch_first=True, activation=act,
            norm_first=opts.get("norm_first", False)).eval()
        if opts.get("hook"):
            layer.linear1.register_forward_hook(lambda *a: None)
        x = L.tensor(np.random.default_rng(2).standard_normal((2, 3, 4)), dtype=L.float32)
        m = {"src_key_padding_mask" if k == "key_padding_mask" else "src_mask": v
             for k, v in _masks(L)[masks].items()}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            mod = layer
            if opts.get("encoder"):
                mod = L.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False).eval()
                if opts["encoder"] == "nested":
                    mod = L.nn.TransformerEncoder(layer, 2).eval()
                m = {("mask" if k == "src_mask" else k): v for k, v in m.items()}
            with L.set_grad_enabled(opts.get("grad", False)):
                return mod(x, **m).detach().numpy()
    np.testing.assert_allclose(run(mindtorch), run(torch), rtol=1e-5, atol=1e-5,
                               equal_nan=True)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("cell", ["LSTMCell", "RNNCell", "GRUCell"])
@pytest.mark.parametrize("bias", [True, False])
def test_16bit_cells_round_each_projection(dtype, cell, bias):
    # PyTorch's cells add the input and hidden projections (each with its bias) rounded
    # apart; folding b_hh into the input projection rounded differently (bfloat16 LSTMCell)
    def run(L):
        dt = getattr(L, dtype)
        g = np.random.default_rng(3)
        L.manual_seed(1)
        c = getattr(L.nn, cell)(5, 6, bias=bias).to(dt)
        x = L.tensor(g.standard_normal((3, 5))).to(dt).requires_grad_()
        h = L.tensor(g.standard_normal((3, 6))).to(dt)
        out = c(x, (h, h * 0.5) if cell == "LSTMCell" else h)
        out = out[0] if isinstance(out, tuple) else out
        out.float().pow(2).sum().backward()
        return [t.float().detach().numpy() for t in (out, x.grad, c.weight_hh.grad)]
    for a, b in zip(run(mindtorch), run(torch)):
        np.testing.assert_allclose(a, b, rtol=1e-2, atol=1e-2)
    out_m, out_t = run(mindtorch)[0], run(torch)[0]
    np.testing.assert_array_equal(out_m, out_t)


@pytest.mark.parametrize("fn", ["lstm_cell", "rnn_tanh_cell", "rnn_relu_cell"])
def test_16bit_functional_cells(fn):
    def run(L):
        g = np.random.default_rng(4)
        def t(*s):
            return L.tensor(g.standard_normal(s)).to(L.bfloat16)
        G = 8 if fn == "lstm_cell" else 2
        x, h, w, u, b1, b2 = t(4, 3), t(4, 2), t(G, 3), t(G, 2), t(G), t(G)
        hx = (h, h) if fn == "lstm_cell" else h
        out = getattr(L, fn)(x, hx, w, u, b1, b2)
        return (out[0] if isinstance(out, tuple) else out).float().numpy()
    np.testing.assert_array_equal(run(mindtorch), run(torch))


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("mode", ["LSTM", "LSTM-proj", "RNN", "RNN-relu", "GRU"])
@pytest.mark.parametrize("packed", [False, True])
def test_16bit_rnn_layers_forward(dtype, mode, packed):
    # PyTorch's 16-bit layers add the hidden projection (with b_hh) to the precomputed input
    # projection (with b_ih) each step; mindtorch folded b_hh into the input projection
    def run(L):
        kw = {"LSTM-proj": {"proj_size": 2}, "RNN-relu": {"nonlinearity": "relu"}}.get(mode, {})
        L.manual_seed(0)
        m = getattr(L.nn, mode.split("-")[0])(3, 4, num_layers=2, bidirectional=True, **kw)
        m = m.to(getattr(L, dtype))
        x = L.tensor(np.random.default_rng(5).standard_normal((5, 2, 3))).to(m.weight_ih_l0.dtype)
        if packed:
            x = L.nn.utils.rnn.pack_sequence([x[:, 0], x[:3, 1]])
        out, h = m(x)
        out = out.data if packed else out
        h = h[0] if isinstance(h, tuple) else h
        return [t.detach().float().numpy() for t in (out, h)]
    for a, b in zip(run(mindtorch), run(torch)):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("onednn", [True, False])
@pytest.mark.parametrize("options", [{"batch_first": True, "hx": True},
                                     {"bias": False, "bidirectional": True}])
def test_bfloat16_lstm_onednn_and_native(onednn, options):
    # a bfloat16 LSTM runs through oneDNN where it supports bfloat16 (avx512_core): float32
    # gates, b_ih + b_hh summed in bfloat16, h and c rounded each step; with mkldnn
    # disabled (or on AVX2 machines) through the native kernel, on every machine
    kw = {k: v for k, v in options.items() if k != "hx"}
    rng = np.random.default_rng(8)
    x = rng.standard_normal((4, 6, 5) if kw.get("batch_first") else (6, 4, 5))
    states = rng.standard_normal((2, 2 if kw.get("bidirectional") else 1, 4, 7))

    def run(L):
        L.manual_seed(0)
        m = L.nn.LSTM(5, 7, **kw).to(L.bfloat16)
        args = [L.tensor(x).to(L.bfloat16)]
        if options.get("hx"):
            args.append(tuple(L.tensor(s).to(L.bfloat16) for s in states))
        with L.backends.mkldnn.flags(enabled=onednn):
            out, (h, c) = m(*args)
        return [t.detach().float().numpy() for t in (out, h, c)]
    for a, b in zip(run(mindtorch), run(torch)):
        np.testing.assert_array_equal(a, b)
