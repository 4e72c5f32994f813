"""nn.Transformer and its encoder/decoder stacks and layers against PyTorch: forward and
backward (inputs and every parameter) with masks, norm_first, batch_first, activations,
bias=False, unbatched input; structure, repr, init, the eval-mode padding behaviour, errors."""
import math
import warnings

import numpy as np
import pytest
from seq_helpers import assert_close, check_forward_backward, pair_modules, randn, to_mt

import mindtorch
from mindtorch import nn
from mindtorch.nn import functional as F

torch = pytest.importorskip("torch")
TF = torch.nn.functional

D, NHEAD, FF, S, T, N = 8, 2, 16, 5, 4, 3
ACTIVATIONS = {"relu": ("relu", "relu"), "gelu": ("gelu", "gelu"),
               "F.gelu": (F.gelu, TF.gelu), "silu": (F.silu, TF.silu),
               "GELU": (nn.GELU(), torch.nn.GELU())}


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's nested-tensor and mask dtype warnings
        yield


def layer_pair(cls, activation="relu", dtype="float64", **kwargs):
    m_act, t_act = ACTIVATIONS[activation]
    m = getattr(nn, cls)(D, NHEAD, FF, 0.0, m_act, **kwargs)
    t = getattr(torch.nn, cls)(D, NHEAD, FF, 0.0, t_act, **kwargs)
    t, m = t.to(getattr(torch, dtype)), m.to(getattr(mindtorch, dtype))
    assert list(m.state_dict()) == list(t.state_dict())
    m.load_state_dict({k: to_mt(v) for k, v in t.state_dict().items()})
    return m, t


def seq(n, s, batch_first, seed, dtype="float64", batched=True):
    if not batched:
        return randn(s, D, seed=seed, dtype=dtype)
    return randn(*((n, s, D) if batch_first else (s, n, D)), seed=seed, dtype=dtype)


def mask_pair(kind, length, src_len=None, seed=2):
    rng = np.random.default_rng(seed)
    src_len = src_len or length
    if kind is None:
        return None, None
    if kind == "causal":
        t = torch.nn.Transformer.generate_square_subsequent_mask(length, dtype=torch.float64)
    elif kind == "bool":
        a = rng.random((length, src_len)) < 0.3
        a[:, 0] = False
        t = torch.tensor(a)
    elif kind == "float":
        t = torch.tensor(rng.standard_normal((length, src_len)))
    elif kind == "kpm":
        a = rng.random((N, src_len)) < 0.3
        a[:, 0] = False
        t = torch.tensor(a)
    return to_mt(t), t


@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("activation", list(ACTIVATIONS))
def test_encoder_layer(norm_first, batch_first, activation):
    m, t = layer_pair("TransformerEncoderLayer", activation, norm_first=norm_first,
                      batch_first=batch_first)
    mx, tx = seq(N, S, batch_first, 1)
    check_forward_backward(m, t, (mx,), (tx,))


@pytest.mark.parametrize("src_mask", [None, "causal", "bool", "float"])
@pytest.mark.parametrize("kpm", [False, True])
@pytest.mark.parametrize("bias", [True, False])
def test_encoder_layer_masks(src_mask, kpm, bias):
    m, t = layer_pair("TransformerEncoderLayer", bias=bias)
    mx, tx = seq(N, S, False, 1)
    mm, tm = mask_pair(src_mask, S)
    mk, tk = mask_pair("kpm" if kpm else None, S)
    check_forward_backward(m, t, (mx,), (tx,),
                           mt_kwargs=dict(src_mask=mm, src_key_padding_mask=mk),
                           th_kwargs=dict(src_mask=tm, src_key_padding_mask=tk))


@pytest.mark.parametrize("src_mask,is_causal", [(None, None), ("causal", None),
                                                ("causal", True), ("bool", None)])
@pytest.mark.parametrize("kpm", [False, True])
def test_encoder_stack(src_mask, kpm, is_causal):
    mt, th = pair_modules(
        lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(D, NHEAD, FF, 0.0), 2,
                                      nn.LayerNorm(D)),
        lambda: torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(D, NHEAD, FF, 0.0),
                                            2, torch.nn.LayerNorm(D)))
    mx, tx = seq(N, S, False, 1)
    mm, tm = mask_pair(src_mask, S)
    mk, tk = mask_pair("kpm" if kpm else None, S)
    check_forward_backward(mt, th, (mx,), (tx,), is_causal=is_causal,
                           mt_kwargs=dict(mask=mm, src_key_padding_mask=mk),
                           th_kwargs=dict(mask=tm, src_key_padding_mask=tk))


@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("activation", ["relu", "gelu", "silu"])
def test_decoder_layer(norm_first, batch_first, activation):
    m, t = layer_pair("TransformerDecoderLayer", activation, norm_first=norm_first,
                      batch_first=batch_first)
    mx, tx = seq(N, T, batch_first, 1)
    mmem, tmem = seq(N, S, batch_first, 2)
    check_forward_backward(m, t, (mx, mmem), (tx, tmem))


@pytest.mark.parametrize("tgt_mask", [None, "causal", "bool"])
@pytest.mark.parametrize("memory_mask", [None, "float"])
@pytest.mark.parametrize("kpm", [False, True])
def test_decoder_layer_masks(tgt_mask, memory_mask, kpm):
    m, t = layer_pair("TransformerDecoderLayer", bias=not kpm)
    mx, tx = seq(N, T, False, 1)
    mmem, tmem = seq(N, S, False, 2)
    m_tm, t_tm = mask_pair(tgt_mask, T)
    m_mm, t_mm = mask_pair(memory_mask, T, S)
    m_tk, t_tk = mask_pair("kpm" if kpm else None, T)
    m_mk, t_mk = mask_pair("kpm" if kpm else None, S, seed=5)
    check_forward_backward(
        m, t, (mx, mmem), (tx, tmem), tgt_is_causal=tgt_mask == "causal",
        mt_kwargs=dict(tgt_mask=m_tm, memory_mask=m_mm, tgt_key_padding_mask=m_tk,
                       memory_key_padding_mask=m_mk),
        th_kwargs=dict(tgt_mask=t_tm, memory_mask=t_mm, tgt_key_padding_mask=t_tk,
                       memory_key_padding_mask=t_mk))


@pytest.mark.parametrize("cls", ["TransformerEncoderLayer", "TransformerDecoderLayer"])
def test_unbatched_layers(cls):
    m, t = layer_pair(cls)
    mx, tx = seq(N, T, False, 1, batched=False)
    if cls == "TransformerEncoderLayer":
        check_forward_backward(m, t, (mx,), (tx,))
    else:
        mmem, tmem = seq(N, S, False, 2, batched=False)
        check_forward_backward(m, t, (mx, mmem), (tx, tmem))


def small_transformer(lib, **kwargs):
    return lib.nn.Transformer(D, NHEAD, 2, 2, FF, 0.0, **kwargs)


@pytest.mark.parametrize("kwargs", [dict(), dict(batch_first=True, norm_first=True),
                                    dict(activation="gelu", bias=False)])
def test_transformer(kwargs):
    th = small_transformer(torch, **kwargs).double()
    mt = small_transformer(mindtorch, **kwargs).double()
    assert list(mt.state_dict()) == list(th.state_dict())
    mt.load_state_dict({k: to_mt(v) for k, v in th.state_dict().items()})
    bf = kwargs.get("batch_first", False)
    msrc, tsrc = seq(N, S, bf, 1)
    mtgt, ttgt = seq(N, T, bf, 2)
    m_causal = nn.Transformer.generate_square_subsequent_mask(T, dtype=mindtorch.float64)
    t_causal = torch.nn.Transformer.generate_square_subsequent_mask(T, dtype=torch.float64)
    m_kpm, t_kpm = mask_pair("kpm", S)
    check_forward_backward(mt, th, (msrc, mtgt), (tsrc, ttgt))
    msrc, tsrc = seq(N, S, bf, 1)
    mtgt, ttgt = seq(N, T, bf, 2)
    mt.zero_grad()
    th.zero_grad()
    check_forward_backward(
        mt, th, (msrc, mtgt), (tsrc, ttgt),
        mt_kwargs=dict(tgt_mask=m_causal, src_key_padding_mask=m_kpm,
                       memory_key_padding_mask=m_kpm),
        th_kwargs=dict(tgt_mask=t_causal, src_key_padding_mask=t_kpm,
                       memory_key_padding_mask=t_kpm))


def test_float32():
    th = small_transformer(torch)
    mt = small_transformer(mindtorch)
    mt.load_state_dict({k: to_mt(v) for k, v in th.state_dict().items()})
    msrc, tsrc = seq(N, S, False, 1, dtype="float32")
    mtgt, ttgt = seq(N, T, False, 2, dtype="float32")
    check_forward_backward(mt, th, (msrc, mtgt), (tsrc, ttgt), dtype="float32")


def test_generate_square_subsequent_mask():
    for sz in (0, 1, 4):
        m = nn.Transformer.generate_square_subsequent_mask(sz)
        t = torch.nn.Transformer.generate_square_subsequent_mask(sz)
        assert_close(m, t, "float32")
    m = nn.Transformer.generate_square_subsequent_mask(3, dtype=mindtorch.float64)
    assert m.dtype == mindtorch.float64


@pytest.mark.parametrize("batch_first", [True, False])
@pytest.mark.parametrize("left_aligned", [True, False])
def test_encoder_eval_padding(batch_first, left_aligned):
    """In eval mode without grad PyTorch runs the stack on a nested tensor when it can
    (batch_first, a left-aligned padding mask): padded positions come out as 0 (before the
    final norm)."""
    mt, th = pair_modules(
        lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(
            D, NHEAD, FF, 0.0, batch_first=batch_first), 2),
        lambda: torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(
            D, NHEAD, FF, 0.0, batch_first=batch_first), 2))
    mt.eval()
    th.eval()
    mx, tx = seq(N, S, batch_first, 1)
    kpm = torch.zeros(N, S, dtype=torch.bool)
    kpm[0, 3:] = True
    kpm[2, 1:] = True
    if not left_aligned:
        kpm[1, 1] = True
    with torch.no_grad(), mindtorch.no_grad():
        m_out = mt(mx, src_key_padding_mask=to_mt(kpm))
        t_out = th(tx, src_key_padding_mask=kpm)
    assert_close(m_out, t_out)
    m_out = mt(mx, src_key_padding_mask=to_mt(kpm))  # with grad: no nested path
    t_out = th(tx, src_key_padding_mask=kpm)
    assert_close(m_out, t_out)


def test_nested_tensor_warning():
    with pytest.warns(UserWarning, match="enable_nested_tensor is True, but self.use_nested_"
                      "tensor is False because encoder_layer.self_attn.batch_first"):
        enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(D, NHEAD), 1)
    assert enc.use_nested_tensor is False and enc.enable_nested_tensor is True
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(D, NHEAD, batch_first=True), 1)
        nn.TransformerEncoder(nn.TransformerEncoderLayer(D, NHEAD), 1,
                              enable_nested_tensor=False)
    assert enc.use_nested_tensor is True


def test_structure_and_repr():
    for m, t in [
            (nn.TransformerEncoderLayer(D, NHEAD, FF),
             torch.nn.TransformerEncoderLayer(D, NHEAD, FF)),
            (nn.TransformerDecoderLayer(D, NHEAD, FF, activation=nn.GELU()),
             torch.nn.TransformerDecoderLayer(D, NHEAD, FF, activation=torch.nn.GELU())),
            (nn.TransformerEncoder(nn.TransformerEncoderLayer(D, NHEAD, FF), 3, nn.LayerNorm(D)),
             torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(D, NHEAD, FF), 3,
                                         torch.nn.LayerNorm(D))),
            (small_transformer(mindtorch, bias=False), small_transformer(torch, bias=False))]:
        assert repr(m) == repr(t)
        assert [(n, tuple(p.shape)) for n, p in m.named_parameters()] == \
            [(n, tuple(p.shape)) for n, p in t.named_parameters()]
    layer = nn.TransformerEncoderLayer(D, NHEAD, FF)
    enc = nn.TransformerEncoder(layer, 2)
    assert enc.layers[0] is not layer and enc.layers[0].linear1.weight is not \
        enc.layers[1].linear1.weight  # deep copies
    assert mindtorch.equal(enc.layers[0].linear1.weight, enc.layers[1].linear1.weight)
    assert nn.TransformerEncoderLayer(D, NHEAD, activation="gelu").activation_relu_or_gelu == 2
    assert nn.TransformerEncoderLayer(D, NHEAD, activation=F.silu).activation_relu_or_gelu == 0
    assert nn.TransformerEncoderLayer(D, NHEAD).activation is F.relu


def test_transformer_init():
    mindtorch.manual_seed(0)
    model = nn.Transformer(16, 2, 1, 1, 32)
    for name, p in model.named_parameters():
        if p.dim() > 1:  # xavier_uniform_
            bound = math.sqrt(6 / (p.shape[0] + p.shape[1]))
            assert p.abs().max().item() <= bound, name
            assert p.std().item() > bound / 3, name
    assert model.d_model == 16 and model.nhead == 2 and model.batch_first is False


def test_dropout_train_and_eval():
    mindtorch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(D, NHEAD, FF, dropout=0.5).double()
    x = mindtorch.randn(S, N, D, dtype=mindtorch.float64)
    trained = layer(x)
    layer.eval()
    evaluated = layer(x)
    assert not mindtorch.allclose(trained, evaluated)
    assert mindtorch.equal(layer(x), evaluated)


def test_errors():
    with pytest.raises(RuntimeError, match="activation should be relu/gelu, not tanh"):
        nn.TransformerEncoderLayer(D, NHEAD, activation="tanh")
    model = small_transformer(mindtorch)
    with pytest.raises(RuntimeError, match="the batch number of src and tgt must be equal"):
        model(mindtorch.randn(S, 2, D), mindtorch.randn(T, 3, D))
    with pytest.raises(RuntimeError, match="the feature number of src and tgt must be equal"):
        model(mindtorch.randn(S, 2, D + 1), mindtorch.randn(T, 2, D + 1))
    with pytest.raises(AssertionError, match="only bool and floating types of"):
        model.encoder(mindtorch.randn(S, 2, D), mask=mindtorch.zeros(S, S, dtype=mindtorch.int32))


def test_meta_device():
    model = nn.Transformer(D, NHEAD, 1, 1, FF, device="meta", batch_first=True)
    assert all(p.device.type == "meta" for p in model.parameters())
    out = model(mindtorch.empty(N, S, D, device="meta"), mindtorch.empty(N, T, D, device="meta"))
    assert out.device.type == "meta" and tuple(out.shape) == (N, T, D)


def test_empty_batch():
    th = small_transformer(torch).double()
    mt = small_transformer(mindtorch).double()
    mt.load_state_dict({k: to_mt(v) for k, v in th.state_dict().items()})
    msrc, tsrc = randn(S, 0, D)
    mtgt, ttgt = randn(T, 0, D, seed=3)
    check_forward_backward(mt, th, (msrc, mtgt), (tsrc, ttgt))
