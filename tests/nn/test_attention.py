"""nn.MultiheadAttention and F.multi_head_attention_forward against PyTorch: forward and
backward with every mask kind, kdim/vdim, bias_kv, zero attention, batch_first, unbatched,
need_weights / average_attn_weights, is_causal; parameters, init, repr, errors; the
backend selection of nn.attention.sdpa_kernel."""
import importlib
import math
import warnings

import numpy as np
import pytest
from seq_helpers import assert_close, pair_modules, randn, to_mt

import mindtorch
from mindtorch import nn
from mindtorch.nn import functional as F

torch = pytest.importorskip("torch")

E, H, L, S, N = 8, 2, 4, 5, 3


def make(dtype="float64", **kwargs):
    return pair_modules(nn.MultiheadAttention, torch.nn.MultiheadAttention, E, H, dtype=dtype,
                        **kwargs)


def masks(kind, batched=True, dtype="float64", seed=3):
    """(attn_mask, key_padding_mask) pairs (mindtorch, torch) of a kind."""
    rng = np.random.default_rng(seed)
    kpm_shape = (N, S) if batched else (S,)
    kpm = rng.random(kpm_shape) < 0.3
    kpm[..., 0] = False  # no fully masked row: PyTorch's softmax would give NaN
    am_bool = rng.random((L, S)) < 0.3
    am_bool[:, 0] = False
    am_float = rng.standard_normal((L, S))
    am3 = rng.standard_normal(((N if batched else 1) * H, L, S))
    tdt = getattr(torch, dtype)
    conv = lambda a, f=False: (to_mt(torch.tensor(a, dtype=tdt if f else None)),  # noqa: E731
                               torch.tensor(a, dtype=tdt if f else None))
    table = {
        "none": ((None, None), (None, None)),
        "kpm_bool": ((None, None), conv(kpm)),
        "kpm_float": ((None, None), conv(np.where(kpm, -1e9, 0.0), True)),
        "attn_bool": (conv(am_bool), (None, None)),
        "attn_float": (conv(am_float, True), (None, None)),
        "attn_3d": (conv(am3, True), (None, None)),
        "both_bool": (conv(am_bool), conv(kpm)),
        "both_float": (conv(am_float, True), conv(np.where(kpm, -2.0, 0.0), True)),
    }
    (am_m, am_t), (kpm_m, kpm_t) = table[kind]
    return dict(attn_mask=am_m, key_padding_mask=kpm_m), dict(attn_mask=am_t,
                                                              key_padding_mask=kpm_t)


MASKS = ["none", "kpm_bool", "kpm_float", "attn_bool", "attn_float", "attn_3d", "both_bool",
         "both_float"]


@pytest.mark.parametrize("mask", MASKS)
@pytest.mark.parametrize("need_weights", [True, False])
def test_mask_kinds(mask, need_weights):
    mt, th = make()
    mk, tk = masks(mask)
    mq, tq = randn(L, N, E)
    mk_, tk_ = randn(S, N, E, seed=11)
    mv, tv = randn(S, N, E, seed=12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out_m = mt(mq, mk_, mv, need_weights=need_weights, **mk)
        out_t = th(tq, tk_, tv, need_weights=need_weights, **tk)
    _compare_and_backward(mt, th, out_m, out_t, [mq, mk_, mv], [tq, tk_, tv])


def _compare_and_backward(mt, th, out_m, out_t, m_inputs, t_inputs, dtype="float64"):
    for m, t in zip(out_m, out_t):
        assert (m is None) == (t is None)
        if t is not None:
            assert_close(m, t, dtype)
    rng = np.random.default_rng(5)
    w = torch.tensor(rng.standard_normal(tuple(out_t[0].shape)), dtype=out_t[0].dtype)
    loss_t = (out_t[0] * w).sum() + (0 if out_t[1] is None else out_t[1].square().sum())
    loss_m = (out_m[0] * to_mt(w)).sum() + (0 if out_m[1] is None else out_m[1].square().sum())
    loss_t.backward()
    loss_m.backward()
    for m, t in zip(m_inputs, t_inputs):
        if t.grad is not None:
            assert_close(m.grad, t.grad, dtype)
    tp = dict(th.named_parameters())
    for name, p in mt.named_parameters():
        assert (p.grad is None) == (tp[name].grad is None), name
        if p.grad is not None:
            assert_close(p.grad, tp[name].grad, dtype)


@pytest.mark.parametrize("kwargs", [dict(), dict(bias=False), dict(add_bias_kv=True),
                                    dict(add_zero_attn=True),
                                    dict(add_bias_kv=True, add_zero_attn=True),
                                    dict(kdim=5, vdim=6), dict(kdim=5, vdim=6, bias=False),
                                    dict(batch_first=True),
                                    dict(batch_first=True, kdim=5, vdim=3)])
@pytest.mark.parametrize("mask", ["none", "both_bool"])
def test_module_options(kwargs, mask):
    mt, th = make(**kwargs)
    mk, tk = masks(mask)
    bf = kwargs.get("batch_first", False)

    def shape(n, s, e):
        return (n, s, e) if bf else (s, n, e)
    mq, tq = randn(*shape(N, L, E))
    mk_, tk_ = randn(*shape(N, S, kwargs.get("kdim", E)), seed=11)
    mv, tv = randn(*shape(N, S, kwargs.get("vdim", E)), seed=12)
    out_m = mt(mq, mk_, mv, **mk)
    out_t = th(tq, tk_, tv, **tk)
    _compare_and_backward(mt, th, out_m, out_t, [mq, mk_, mv], [tq, tk_, tv])


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("need_weights", [True, False])
def test_self_attention_batch_first(batch_first, need_weights):
    mt, th = make(batch_first=batch_first)
    mx, tx = randn(N, L, E)
    out_m = mt(mx, mx, mx, need_weights=need_weights)
    out_t = th(tx, tx, tx, need_weights=need_weights)
    _compare_and_backward(mt, th, out_m, out_t, [mx], [tx])


@pytest.mark.parametrize("mask", ["none", "kpm_bool", "attn_bool", "attn_3d"])
@pytest.mark.parametrize("average", [True, False])
def test_unbatched(mask, average):
    mt, th = make()
    mk, tk = masks(mask, batched=False)
    mq, tq = randn(L, E)
    mkv, tkv = randn(S, E, seed=9)
    out_m = mt(mq, mkv, mkv, average_attn_weights=average, **mk)
    out_t = th(tq, tkv, tkv, average_attn_weights=average, **tk)
    _compare_and_backward(mt, th, out_m, out_t, [mq, mkv], [tq, tkv])


@pytest.mark.parametrize("need_weights", [True, False])
@pytest.mark.parametrize("with_kpm", [False, True])
def test_is_causal(need_weights, with_kpm):
    mt, th = make()
    causal_t = torch.nn.Transformer.generate_square_subsequent_mask(L, dtype=torch.float64)
    causal_m = nn.Transformer.generate_square_subsequent_mask(L, dtype=mindtorch.float64)
    mq, tq = randn(L, N, E)
    kpm = torch.zeros(N, L, dtype=torch.bool)
    kpm[1, -1] = True
    extra_t = dict(key_padding_mask=kpm) if with_kpm else {}
    extra_m = dict(key_padding_mask=to_mt(kpm)) if with_kpm else {}
    out_m = mt(mq, mq, mq, attn_mask=causal_m, is_causal=True, need_weights=need_weights,
               **extra_m)
    out_t = th(tq, tq, tq, attn_mask=causal_t, is_causal=True, need_weights=need_weights,
               **extra_t)
    _compare_and_backward(mt, th, out_m, out_t, [mq], [tq])


def test_float32():
    mt, th = make(dtype="float32", add_bias_kv=True)
    mk, tk = masks("both_bool", dtype="float32")
    mq, tq = randn(L, N, E, dtype="float32")
    mkv, tkv = randn(S, N, E, dtype="float32", seed=4)
    out_m = mt(mq, mkv, mkv, **mk)
    out_t = th(tq, tkv, tkv, **tk)
    _compare_and_backward(mt, th, out_m, out_t, [mq, mkv], [tq, tkv], dtype="float32")


def test_non_contiguous_inputs():
    mt, th = make()
    mq, tq = randn(N, L, E)
    mkv, tkv = randn(N, S, E, seed=4)
    out_m = mt(mq.transpose(0, 1), mkv.transpose(0, 1), mkv.transpose(0, 1))
    out_t = th(tq.transpose(0, 1), tkv.transpose(0, 1), tkv.transpose(0, 1))
    _compare_and_backward(mt, th, out_m, out_t, [mq, mkv], [tq, tkv])


def test_eval_no_grad_matches_fast_path():
    """PyTorch takes its fused path in eval mode without grad; results are the same."""
    mt, th = make(batch_first=True)
    mt.eval()
    th.eval()
    mk, tk = masks("kpm_bool")
    mx, tx = randn(N, S, E, requires_grad=False)
    with torch.no_grad(), mindtorch.no_grad():
        out_m, w_m = mt(mx, mx, mx, **mk)
        out_t, w_t = th(tx, tx, tx, **tk)
    assert_close(out_m, out_t)
    assert_close(w_m, w_t)


def test_dropout_train_and_eval():
    mindtorch.manual_seed(0)
    mt = nn.MultiheadAttention(E, H, dropout=0.5).double()
    x = mindtorch.randn(L, N, E, dtype=mindtorch.float64)
    for need_weights in (True, False):
        ref = mt(x, x, x, need_weights=need_weights)[0]
        mt.eval()
        assert mindtorch.allclose(mt(x, x, x, need_weights=need_weights)[0],
                                  mt(x, x, x, need_weights=need_weights)[0])
        evaluated = mt(x, x, x, need_weights=need_weights)[0]
        mt.train()
        assert not mindtorch.allclose(ref, evaluated)
    mt.dropout = 0.0
    assert mindtorch.allclose(mt(x, x, x)[0], evaluated)


@pytest.mark.parametrize("kwargs", [dict(), dict(kdim=3, vdim=5), dict(add_bias_kv=True),
                                    dict(bias=False)])
def test_parameters_init_repr(kwargs):
    mindtorch.manual_seed(0)
    mt = nn.MultiheadAttention(16, 4, **kwargs)
    th = torch.nn.MultiheadAttention(16, 4, **kwargs)
    assert [(n, tuple(p.shape)) for n, p in mt.named_parameters()] == \
        [(n, tuple(p.shape)) for n, p in th.named_parameters()]
    assert list(mt.state_dict()) == list(th.state_dict())
    assert repr(mt) == repr(th)
    assert type(mt.out_proj).__name__ == "NonDynamicallyQuantizableLinear"
    assert isinstance(mt.out_proj, nn.Linear)
    assert mt._qkv_same_embed_dim == th._qkv_same_embed_dim
    assert mt.head_dim == th.head_dim
    for name in ("in_proj_weight", "q_proj_weight", "k_proj_weight", "v_proj_weight"):
        w = getattr(mt, name)
        assert (w is None) == (getattr(th, name) is None)
        if w is not None:  # xavier_uniform_
            bound = math.sqrt(6 / (w.shape[0] + w.shape[1]))
            assert w.abs().max().item() <= bound and w.std().item() > bound / 3
    if mt.in_proj_bias is not None:
        assert mt.in_proj_bias.abs().sum().item() == 0
        assert mt.out_proj.bias.abs().sum().item() == 0
    if mt.bias_k is not None:
        assert mt.bias_k.std().item() > 0


def test_errors():
    with pytest.raises(AssertionError, match="embed_dim must be divisible by num_heads"):
        nn.MultiheadAttention(10, 3)
    with pytest.raises(ValueError, match="embed_dim and num_heads must be greater than 0"):
        nn.MultiheadAttention(0, 2)
    mt = nn.MultiheadAttention(E, H)
    q = mindtorch.randn(L, N, E)
    with pytest.raises(AssertionError):  # key of the wrong rank
        mt(q, mindtorch.randn(S, E), mindtorch.randn(S, E))
    with pytest.raises(AssertionError):  # 4-D query
        mt(q.unsqueeze(0), q.unsqueeze(0), q.unsqueeze(0))
    with pytest.raises(AssertionError, match="was expecting embedding dimension of 8"):
        mt(mindtorch.randn(L, N, 6), mindtorch.randn(S, N, 6), mindtorch.randn(S, N, 6))
    with pytest.raises(RuntimeError, match="The shape of the 2D attn_mask is"):
        mt(q, q, q, attn_mask=mindtorch.zeros(L, L + 1))
    with pytest.raises(RuntimeError, match="The shape of the 3D attn_mask is"):
        mt(q, q, q, attn_mask=mindtorch.zeros(2, L, L))
    with pytest.raises(AssertionError, match="only bool and floating types"):
        mt(q, q, q, attn_mask=mindtorch.zeros(L, L, dtype=mindtorch.int64))
    with pytest.raises(AssertionError, match="key_padded_mask.shape"):
        mt(q, q, q, key_padding_mask=mindtorch.zeros(N + 1, L, dtype=mindtorch.bool))
    with pytest.raises(RuntimeError, match="Need attn_mask if specifying the is_causal hint"):
        mt(q, q, q, is_causal=True)
    with pytest.raises(AssertionError, match="key shape"):
        mt(q, q, mindtorch.randn(L + 1, N, E))


def test_mismatched_mask_dtypes_warn():
    mt = nn.MultiheadAttention(E, H)
    q = mindtorch.randn(L, N, E)
    with pytest.warns(UserWarning, match="Support for mismatched key_padding_mask and attn_mask"):
        mt(q, q, q, key_padding_mask=mindtorch.zeros(N, L, dtype=mindtorch.bool),
           attn_mask=mindtorch.zeros(L, L))


def test_functional_static_kv():
    rng = np.random.default_rng(0)
    t = lambda *s: torch.tensor(rng.standard_normal(s))  # noqa: E731
    q, k, v = t(L, N, E), t(S, N, E), t(S, N, E)
    w, b, ow, ob = t(3 * E, E), t(3 * E), t(E, E), t(E)
    sk, sv = t(N * H, S + 1, E // H), t(N * H, S + 1, E // H)
    args = lambda c: [c(q), c(k), c(v), E, H, c(w), c(b), None, None, False, 0.0,  # noqa
                      c(ow), c(ob)]
    out_m = F.multi_head_attention_forward(*args(to_mt), static_k=to_mt(sk),
                                           static_v=to_mt(sv))
    out_t = torch.nn.functional.multi_head_attention_forward(*args(lambda a: a),
                                                             static_k=sk, static_v=sv)
    assert_close(out_m[0], out_t[0])
    assert_close(out_m[1], out_t[1])
    with pytest.raises(AssertionError, match="expecting static_k.size"):
        F.multi_head_attention_forward(*args(to_mt), static_k=to_mt(sk[1:]))


def test_gumbel_softmax():
    mindtorch.manual_seed(0)
    logits = mindtorch.randn(6, 5, dtype=mindtorch.float64, requires_grad=True)
    soft = F.gumbel_softmax(logits, tau=0.5)
    assert mindtorch.allclose(soft.sum(-1), mindtorch.ones(6, dtype=mindtorch.float64))
    hard = F.gumbel_softmax(logits, hard=True, dim=0)
    assert sorted(hard.detach().unique().tolist()) == [0.0, 1.0]
    assert hard.sum(0).tolist() == [1.0] * 5
    (hard * mindtorch.arange(30.0, dtype=mindtorch.float64).view(6, 5)).sum().backward()
    assert logits.grad is not None and logits.grad.abs().sum().item() > 0
    with pytest.warns(UserWarning, match="`eps` parameter is deprecated"):
        F.gumbel_softmax(logits, eps=1e-3)


def test_meta_device():
    mt = nn.MultiheadAttention(E, H, device="meta", batch_first=True)
    x = mindtorch.empty(N, L, E, device="meta")
    out, w = mt(x, x, x)
    assert out.device.type == "meta" and tuple(out.shape) == (N, L, E)
    assert tuple(w.shape) == (N, L, L)


@pytest.mark.parametrize("q_shape,kv_shape", [((0, N, E), (S, N, E)), ((L, 0, E), (S, 0, E)),
                                              ((L, N, E), (0, N, E)), ((0, E), (S, E))])
@pytest.mark.parametrize("need_weights", [True, False])
def test_empty(q_shape, kv_shape, need_weights):
    mt, th = make()
    mq, tq = randn(*q_shape)
    mkv, tkv = randn(*kv_shape, seed=2)
    out_m = mt(mq, mkv, mkv, need_weights=need_weights)
    out_t = th(tq, tkv, tkv, need_weights=need_weights)
    _compare_and_backward(mt, th, out_m, out_t, [mq, mkv], [tq, tkv])


def _sdpa_kernel_session(lib):
    """What a script sees of nn.attention.sdpa_kernel: the flags inside and after the
    block, which selections run, and the errors."""
    att = importlib.import_module(f"{lib.__name__}.nn.attention")
    flags = lib.backends.cuda
    q = lib.ones(1, 2, 3, 4)
    seen = [repr(att.SDPBackend.MATH), str(att.SDPBackend.FLASH_ATTENTION),
            int(att.SDPBackend.OVERRIDEABLE)]
    B = att.SDPBackend
    for backends in (B.MATH, B.FLASH_ATTENTION, B.EFFICIENT_ATTENTION, B.CUDNN_ATTENTION,
                     [B.EFFICIENT_ATTENTION, B.MATH], [], "math"):
        try:
            with att.sdpa_kernel(backends) as ctx:
                state = [flags.math_sdp_enabled(), flags.flash_sdp_enabled(),
                         flags.mem_efficient_sdp_enabled(), flags.cudnn_sdp_enabled()]
                out = lib.nn.functional.scaled_dot_product_attention(q, q, q)
                seen.append((ctx, state, out.sum().item()))
        except (RuntimeError, AssertionError) as e:
            seen.append((type(e).__name__, str(e)))
    seen.append([flags.math_sdp_enabled(), flags.flash_sdp_enabled(),
                 flags.mem_efficient_sdp_enabled(), flags.cudnn_sdp_enabled()])
    return seen


def test_sdpa_kernel_as_torch():
    assert _sdpa_kernel_session(mindtorch) == _sdpa_kernel_session(torch)
