"""Regression tests for QA round 14c (attention and transformers), each against torch."""
import functools
import warnings

import mindtorch
import numpy as np
import pytest
from reference import same_errors

torch = pytest.importorskip("torch")


def _plain(r):
    """A result as nested tuples with tensors as (float64 array, shape, dtype name)."""
    if isinstance(r, (tuple, list)):
        return tuple(_plain(x) for x in r)
    if hasattr(r, "detach"):
        t = r.detach()
        return np.asarray(t.double().tolist()), tuple(t.shape), str(t.dtype).split(".")[-1]
    return r


def _assert_close(a, b, tol):
    if isinstance(a, tuple) and a and isinstance(a[0], np.ndarray):
        assert a[1:] == b[1:], (a[1:], b[1:])
        np.testing.assert_allclose(a[0], b[0], rtol=tol, atol=tol, equal_nan=True)
    elif isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b)
        for x, y in zip(a, b):
            _assert_close(x, y, tol)
    else:
        assert a == b


def _same(program, tol=1e-10):
    """Same values (NaN where torch has NaN) or the same error."""
    ours, theirs = same_errors(program)
    if ours[0] == "ok":
        _assert_close(_plain(ours[1]), _plain(theirs[1]), tol)


def _warned(program, L):
    """program(L)'s outcome and its warnings' texts (PyTorch's C++ suffix cut)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            outcome = ("ok", _plain(program(L)))
        except Exception as e:  # noqa: BLE001 - compared with torch's
            outcome = (type(e).__name__, str(e))
    texts = [str(w.message).split(" (Triggered internally")[0] for w in caught]
    return outcome, texts


def _rand(L, shape, seed, dtype="float64"):
    g = np.random.default_rng(seed)
    return L.tensor(g.standard_normal(shape)).to(getattr(L, dtype))


def _init(L, module):
    g = np.random.default_rng(5)
    with L.no_grad():
        for p in module.parameters():
            p.copy_(L.tensor(g.standard_normal(tuple(p.shape)) * 0.3))
    return module.eval()


# -- MultiheadAttention's inference fast path ---------------------------------------------------

def _mha(L, **kw):
    return _init(L, L.nn.MultiheadAttention(8, 2, batch_first=True, dtype=L.float64, **kw))


@pytest.mark.parametrize("mask_kind", ["bool", "float", None])
def test_mha_fast_path_reads_the_mask_not_is_causal(mask_kind):
    # PyTorch's native kernel (bool masks only) ignores is_causal: the mask given is used
    # (and no mask at all is no error); float masks keep the slow path, where the hint wins
    def program(L):
        m, x = _mha(L), _rand(L, (3, 5, 8), 1)
        mask = None if mask_kind is None else L.tensor(np.eye(5, dtype=bool)[::-1].copy())
        if mask_kind == "float":
            mask = L.zeros(5, 5, dtype=L.float64).masked_fill(mask, -1e4)
        with L.no_grad():
            return m(x, x, x, attn_mask=mask, need_weights=False, is_causal=True)
    _same(program)


@pytest.mark.parametrize("enabled", [False, 0, True])
def test_backends_mha_fastpath_flag(enabled):
    def program(L):
        L.backends.mha.set_fastpath_enabled(enabled)
        try:
            m, x = _mha(L), _rand(L, (3, 5, 8), 1)
            with L.no_grad():
                out = m(x, x, x, need_weights=False, is_causal=True)
            return out, L.backends.mha.get_fastpath_enabled()
        finally:
            L.backends.mha.set_fastpath_enabled(True)
    _same(program)


# -- the Transformer encoder's fast paths -------------------------------------------------------

def _encoder(L, **kw):
    layer = L.nn.TransformerEncoderLayer(8, 2, 16, batch_first=True, dtype=L.float64)
    return _init(L, L.nn.TransformerEncoder(layer, 2, **kw))


@pytest.mark.parametrize("mask", ["random", "half", "nan_row"])
@pytest.mark.parametrize("padding", [None, "float"])
def test_encoder_layer_native_kernel_masks_every_nonzero(mask, padding):
    # the native encoder kernel reads the merged mask as "masked where nonzero": a float
    # mask's finite values mask too (whole rows masked: NaN rows)
    def program(L):
        x = _rand(L, (3, 5, 8), 1)
        m = {"random": _rand(L, (5, 5), 4), "half": L.full((5, 5), 0.5, dtype=L.float64)
             .fill_diagonal_(0), "nan_row": L.zeros(5, 5, dtype=L.float64)}[mask]
        if mask == "nan_row":
            m[0] = float("nan")
        kpm = None if padding is None else L.tensor([[0.0] * 5, [0.0] * 4 + [-1.0],
                                                     [0.0] * 3 + [1e-3] * 2], dtype=L.float64)
        with L.no_grad():
            return (_encoder(L).layers[0](x, src_mask=m, src_key_padding_mask=kpm),
                    _encoder(L)(x, mask=m, src_key_padding_mask=kpm))
    _same(program)


@pytest.mark.parametrize("which", ["layer", "encoder"])
@pytest.mark.parametrize("mask", [None, "bool", "inf"])
@pytest.mark.parametrize("padded", [False, True])
def test_encoder_native_kernel_ignores_is_causal(which, mask, padded):
    # the native encoder-layer kernel takes the merged masks only (is_causal=True with no
    # mask, or a mask that is not causal, is not made causal there)
    def program(L):
        layer = L.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True,
                                             dtype=L.float64)
        module = _init(L, layer if which == "layer" else L.nn.TransformerEncoder(layer, 2))
        x, g = _rand(L, (3, 5, 8), 1), np.random.default_rng(2)
        kw = {"is_causal": True}
        if mask is not None:
            m = g.random((5, 5)) > 0.6
            kw["src_mask" if which == "layer" else "mask"] = L.tensor(
                m if mask == "bool" else np.where(m, -np.inf, 0.0))
        if padded:
            kw["src_key_padding_mask"] = L.tensor([[False] * 5, [False] * 3 + [True] * 2,
                                                   [False] * 4 + [True]])
        with L.no_grad():
            return module(x, **kw)
    _same(program)


@pytest.mark.parametrize("rows", [[[True, False, False, False, False]] * 3,
                                  [[False, True, False, True, False], [False] * 5,
                                   [True, True, False, False, False]]])
def test_encoder_nested_path_without_mask_check_keeps_leading_positions(rows):
    # mask_check=False lets a padding mask that is not left-aligned reach the nested
    # tensor, which keeps each sequence's first (number of unpadded) positions
    def program(L):
        enc, x = _encoder(L, mask_check=False), _rand(L, (3, 5, 8), 1)
        with L.no_grad():
            return enc(x, src_key_padding_mask=L.tensor(rows))
    _same(program)


def test_encoder_nested_path_warns_as_pytorch():
    def program(L):
        L.set_warn_always(True)
        try:
            enc, x = _encoder(L), _rand(L, (2, 4, 8), 1)
            with L.no_grad():
                return enc(x, src_key_padding_mask=L.tensor([[False] * 3 + [True], [False] * 4]))
        finally:
            L.set_warn_always(False)
    ours, theirs = _warned(program, mindtorch), _warned(program, torch)
    # (torch's nested ops repeat it once per op under set_warn_always)
    assert len(ours[1]) == 1 and set(ours[1]) == set(theirs[1])
    _assert_close(ours[0], theirs[0], 1e-10)


# -- scaled_dot_product_attention: PyTorch's backend choice -------------------------------------

def _sdpa_program(q_shape, k_shape, v_shape, mask_shape=None, backends=None, mask_grad=False,
                  grad=True, **kw):
    def program(L):
        q, k, v = (_rand(L, s, i) for i, s in enumerate((q_shape, k_shape, v_shape)))
        for t in (q, k, v):
            t.requires_grad_(grad)
        mask = None if mask_shape is None else _rand(L, mask_shape, 7) > 0.3
        if mask_grad:
            mask = _rand(L, mask_shape, 7).requires_grad_(True)
        F, attention = L.nn.functional, L.nn.attention
        context = attention.sdpa_kernel([getattr(attention.SDPBackend, b) for b in backends]) \
            if backends else _nothing()
        with context:
            out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, **kw)
        if not grad:
            return out
        return out, L.autograd.grad(out.sum(), (q, k, v), allow_unused=True)
    return program


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


Q, K = (2, 3, 4, 8), (2, 3, 5, 8)


@pytest.mark.parametrize("case", [
    dict(mask_shape=(4, 5), backends=["MATH"], is_causal=True),  # math refuses mask + causal
    dict(mask_shape=(4, 5), is_causal=True),  # flash merges them
    dict(mask_shape=(4, 5), mask_grad=True, is_causal=True),  # a mask requiring grad: math
    dict(mask_shape=(3, 4, 5), is_causal=True),  # a 3-D mask: math
    dict(mask_shape=(2, 4, 4, 5), is_causal=True),  # mask heads not query's: math's error
    dict(mask_shape=(2, 1, 1, 5), is_causal=True),
    dict(mask_shape=(5,)),  # flash's mask check reads size(-2)
    dict(mask_shape=()),
    dict(mask_shape=(5,), backends=["MATH"]),  # (no flash: broadcast by the math path)
    dict(mask_shape=(5,), v_shape=(2, 3, 5, 6)),  # (the mask check before the head sizes')
    dict(dropout_p=-0.5),  # flash's kernel refuses any nonzero dropout
    dict(dropout_p=-0.5, q_shape=(3, 4, 8), k_shape=(3, 5, 8), v_shape=(3, 5, 8)),
])
def test_sdpa_backend_choice(case):
    kw = dict(q_shape=Q, k_shape=K, v_shape=K) | case
    _same(_sdpa_program(**kw))


@pytest.mark.parametrize("shapes", [
    ((3, 4, 8), (3, 5, 8), (3, 5, 8)), ((2, 3, 4, 8), (2, 1, 5, 8), (2, 1, 5, 8)),
    ((2, 3, 4, 8), (1, 3, 5, 8), (1, 3, 5, 8)), ((2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 6)),
    ((2, 6, 4, 8), (2, 3, 5, 8), (2, 2, 5, 8)), ((2, 6, 4, 8), (2, 4, 5, 8), (2, 4, 5, 8)),
    ((2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 8)), ((2, 3, 0, 8), (2, 3, 5, 8), (2, 3, 5, 8))])
@pytest.mark.parametrize("extra", [dict(), dict(dropout_p=0.5), dict(mask_shape=(3, 4, 5)),
                                   dict(enable_gqa=True)])
def test_sdpa_flash_only_refusals_warn_and_raise(shapes, extra):
    program = _sdpa_program(*shapes, backends=["FLASH_ATTENTION"], grad=False, **extra)
    ours, theirs = _warned(program, mindtorch), _warned(program, torch)
    assert ours[1] == theirs[1]
    assert ours[0][0] == theirs[0][0]
    if ours[0][0] == "ok":
        _assert_close(ours[0][1], theirs[0][1], 1e-10)
    else:
        assert ours[0] == theirs[0]


def test_sdpa_flash_only_refusal_texts_for_strides_and_dtypes():
    def program(L, dtype, strided):
        q, k, v = (_rand(L, (2, 3, n, 16), i, dtype) for i, n in enumerate((4, 5, 5)))
        if strided:
            q = q[..., ::2]
        mask = L.zeros(4, 10)[:, ::2] if strided == "mask" else None
        attention = L.nn.attention
        with attention.sdpa_kernel(attention.SDPBackend.FLASH_ATTENTION):
            return L.nn.functional.scaled_dot_product_attention(q, k[..., :8] if strided else k,
                                                                v[..., :8] if strided else v,
                                                                attn_mask=mask)
    for dtype, strided in (("float32", True), ("float32", "mask"), ("int64", False),
                           ("complex64", False)):
        run = functools.partial(program, dtype=dtype, strided=strided)
        assert _warned(run, mindtorch) == _warned(run, torch)


@pytest.mark.parametrize("shapes", [((2, 3, 4, 0), (2, 3, 5, 0), (2, 3, 5, 8)),
                                    ((3, 4, 0), (3, 5, 0), (3, 5, 4))])
@pytest.mark.parametrize("kw", [dict(), dict(is_causal=True), dict(mask_shape=(4, 5))])
def test_sdpa_empty_head_size_scales_by_infinity(shapes, kw):
    # no error: 1/sqrt(0) is an infinite scale over an empty product (uniform weights)
    _same(_sdpa_program(*shapes, **kw))


@pytest.mark.parametrize("shapes", [((2, 3, 0, 8), (2, 3, 5, 8), (2, 3, 5, 8)),
                                    ((3, 0, 8), (3, 6, 7), (3, 5, 8)),
                                    ((3, 4, 8), (3, 0, 8), (3, 0, 6))])
def test_sdpa_empty_result_shortcut_before_the_mask_checks(shapes):
    # an empty result (or no values) returns before the causal / mask shape checks
    _same(_sdpa_program(*shapes, mask_shape=(shapes[0][-2], 2), is_causal=True))


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_sdpa_flash_causal_with_a_mask_adds_the_mask_after_the_causal_fill(bad):
    # the flash kernel fills the causal part with -inf and adds the mask: a NaN or +inf of
    # the mask there makes the row NaN
    def program(L):
        q, k, v = _rand(L, (2, 3, 4, 8), 1), _rand(L, (2, 3, 5, 8), 2), _rand(L, (2, 3, 5, 8), 3)
        mask = L.zeros(4, 5, dtype=L.float64)
        mask[1, 3] = bad
        return L.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask,
                                                            is_causal=True)
    _same(program)


@pytest.mark.parametrize("kw", [{}, {"need_weights": False}])
def test_mha_fast_path_output_is_contiguous(kw):
    # PyTorch's native kernel returns a fresh (N, L, E): `.view(N, -1)` works on it
    def program(L):
        m, x = _mha(L), _rand(L, (3, 5, 8), 1)
        with L.no_grad():
            out = m(x, x, x, **kw)[0]
        return out.stride(), out.view(3, -1)
    _same(program)
