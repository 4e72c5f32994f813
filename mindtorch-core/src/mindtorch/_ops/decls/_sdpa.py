"""F.scaled_dot_product_attention's decomposition (declared in layers.py): PyTorch's cpu
behaviour, its math reference, and where its backend choice (sdp_utils_cpp) picks the flash
kernel, that kernel's edge cases (NaN/inf rows, is_causal with a mask, output layout)."""
import math
import warnings

from ... import _dtype as D
from ..._shapes import broadcast_shapes
from ..registry import OPS
from ._helpers import _type_name

_HALVES = (D.float16, D.bfloat16)
_FLASH_DTYPES = (D.float32, D.float64, D.bfloat16, D.float16)
_MASK_SHAPES = ("Please use the following attn mask shapes: 2d - ({Q_seq_len, 1}  x "
                "{KV_seq_len, 1}); 4d - ({Batch, 1} x {Num_heads, 1} x {Q_seq_len, 1}  x "
                "{KV_seq_len, 1})")
_BROADCAST_HINT = (" instead. To broadcast dense inputs, try using unsqueeze and expand_to "
                   "before passing them into the kernel.")


def _M():
    import mindtorch
    return mindtorch


def _c_name(dtype):
    return D.CPP_NAMES.get(dtype.name, _type_name(dtype))


def _safe_softmax(scores, masked):
    """softmax over the last dim with the rows `masked` (keepdim bool) 0: their scores are
    zeroed first, so neither the result nor its gradient holds the NaN of softmax(-inf...)
    (PyTorch's _safe_softmax)."""
    M = _M()
    return M.where(masked, 0, M.where(masked, 0, scores).softmax(-1))


def _validate(query, key, value, attn_mask):
    """PyTorch's checks before anything else (validate_sdpa_input)."""
    for t in (query, key, value):
        if t.ndim < 2:
            raise RuntimeError(f"Expected query, key, and value to all be  at least 2 "
                               f"dimensional, but got query.dim: {query.ndim} key.dim: "
                               f"{key.ndim} and value.dim: {value.ndim} instead.")
    if not query.dtype is key.dtype is value.dtype:
        raise RuntimeError(f"Expected query, key, and value to have the same dtype, but got "
                           f"query.dtype: {_c_name(query.dtype)} key.dtype: "
                           f"{_c_name(key.dtype)} and value.dtype: {_c_name(value.dtype)} "
                           f"instead.")
    if attn_mask is not None and attn_mask.dtype not in (D.bool, D.float32, query.dtype):
        raise RuntimeError(f"Expected attn_mask dtype to be bool or float or to match query "
                           f"dtype, but got attn_mask.dtype: {_c_name(attn_mask.dtype)} and  "
                           f"query.dtype: {_c_name(query.dtype)} instead.")


def _sdpa(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
          enable_gqa=False):
    """PyTorch's math reference: softmax(q k^T * scale + mask) v, rows masked everywhere
    giving 0 (its safe softmax); q and k each scaled by sqrt(scale) before the product;
    a bool mask (and is_causal) added as 0 / -inf.  Where PyTorch's cpu picks its flash
    kernel (_use_flash) without a mask, that kernel's NaN/inf behaviour (see below)."""
    from ...nn.attention import check_backends
    check_backends()  # (nn.attention.sdpa_kernel may have turned this implementation off)
    M = _M()
    _validate(query, key, value, attn_mask)
    if not value.numel() or 0 in query._shape[:-1]:  # PyTorch's shortcut for an empty
        shape = query._shape[:-1] + value._shape[-1:]  # result or no values: zeros, NaN
        return M.zeros(shape, dtype=query.dtype, device=query.device) + \
            (query.sum() + key.sum() + value.sum()) * 0  # where q or k has inf or NaN
    flash = _use_flash(query, key, value, attn_mask, dropout_p, enable_gqa)
    if query.dtype.kind not in "fc":
        raise RuntimeError(f"expected scalar type Float but found {_type_name(query.dtype)}")
    if flash and dropout_p < 0.0:  # (the kernel refuses any nonzero dropout)
        raise RuntimeError("scaled_dot_product_attention_flash_attention: Currently do not "
                           "support dropout > 0")
    if is_causal and attn_mask is not None and not flash:  # (the flash kernel merges them)
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set "
                           "when is_causal=True")
    if query.dtype.is_complex:  # (the math path's softmax refuses it)
        raise NotImplementedError(f'"softmax_lastdim_kernel_impl" not implemented for '
                                  f"'{_type_name(query.dtype)}'")
    if enable_gqa:
        key, value = _repeat_kv_heads(query, key, value)
    if flash:
        return _flash_kernel(query, key, value, attn_mask, is_causal, scale)
    return _math(query, key, value, attn_mask, dropout_p, is_causal, scale)


def _repeat_kv_heads(query, key, value):
    """enable_gqa: key's and value's heads repeated to query's number."""
    for t in (query, key, value):  # (PyTorch reads each one's size(-3))
        if t.ndim < 3:
            raise IndexError("Dimension out of range (expected to be in range of "
                             "[-2, 1], but got -3)")
    hq, hk, hv = query._shape[-3], key._shape[-3], value._shape[-3]
    if hq % hk or hq % hv:
        raise RuntimeError("Number of heads in key and value must divide the number of "
                           "heads in ")  # (sic: PyTorch's message ends there)
    return key.repeat_interleave(hq // hk, -3), value.repeat_interleave(hq // hv, -3)


def _math(query, key, value, attn_mask, dropout_p, is_causal, scale):
    """PyTorch's math path."""
    M = _M()
    dt = D.float32 if query.dtype in _HALVES else query.dtype
    L, S = query._shape[-2], key._shape[-2]
    if scale is None:  # (a head size of 0: an infinite scale over an empty product)
        E = query._shape[-1]
        scale = 1 / math.sqrt(E) if E else math.inf
    factor = math.sqrt(abs(scale))
    q = query.to(dt) * (-factor if scale < 0 else factor)
    attn = q.matmul(key.to(dt).transpose(-2, -1) * factor)
    if is_causal:
        attn_mask = M.ones((L, S), dtype=D.bool, device=query.device).tril()
    if attn_mask is not None:
        attn = _add_mask(attn, attn_mask)
    if S:  # (no keys: the empty product below gives zeros)
        attn = _safe_softmax(attn, (attn == -math.inf).all(-1, keepdim=True))
    if dropout_p > 0.0:
        attn = OPS["dropout"].call(attn, dropout_p, True)
    return attn.matmul(value.to(dt)).to(query.dtype)


def _add_mask(attn, attn_mask):
    """The scores plus the mask, a bool mask as 0 / -inf (a NaN or +inf score stays NaN
    where masked, as in PyTorch)."""
    if attn_mask.dtype is D.bool:
        attn_mask = _M().zeros(attn_mask._shape, dtype=attn.dtype, device=attn.device) \
            .masked_fill(attn_mask.logical_not(), -math.inf)
    shape = broadcast_shapes(attn._shape, attn_mask._shape)
    if shape != attn._shape:  # PyTorch adds in place: the scores' shape must not grow
        raise RuntimeError(f"output with shape {list(attn._shape)} doesn't match the "
                           f"broadcast shape {list(shape)}")
    return attn + attn_mask.to(attn.dtype)


def _flash_kernel(query, key, value, attn_mask, is_causal, scale):
    """PyTorch's cpu flash kernel: q @ k^T, the causal part filled with -inf, then scaled,
    then the mask added (a +inf or NaN mask over the causal -inf gives NaN); a row whose
    maximum is -inf gives 0, NaN or +inf elsewhere a NaN row.  Without a mask, its row
    maximum (_mul_reduce_max_fusion_kernel) keeps a NaN of its vectorized part but skips
    one in the scalar tail, the last S % lanes scores: a row of only -inf and such NaN
    gives 0.  Lanes of the kernel PyTorch runs on this machine (it registers an AVX-512
    one: 16 floats / 8 doubles there, 8 / 4 with AVX2)."""
    M = _M()
    dt = D.float32 if query.dtype in _HALVES else query.dtype
    (L, E), S = query._shape[-2:], key._shape[-2]
    attn = query.to(dt).matmul(key.to(dt).transpose(-2, -1))
    if is_causal:
        keep = M.ones((L, S), dtype=D.bool, device=query.device).tril()
        attn = attn.masked_fill(keep.logical_not(), -math.inf)
    attn = attn * (scale if scale is not None else 1 / math.sqrt(E) if E else math.inf)
    lanes = _vector_bytes(query.device, avx512_kernel=True) // dt.itemsize
    if attn_mask is not None:
        attn = _add_mask(attn, attn_mask)
        top = attn.amax(-1, keepdim=True)
    else:
        tail = M.arange(S, device=query.device) >= S - S % lanes
        top = M.where(attn.isnan() & tail, -math.inf, attn).amax(-1, keepdim=True)
    masked = top == -math.inf
    if query.dtype in _HALVES:
        out = _flash_reduced_weighted_sum(M.where(masked, 0, attn), value.to(dt), query.dtype,
                                          lanes)
        out = M.where(masked, 0, out)
    else:
        out = _safe_softmax(attn, masked).matmul(value)
    return _like_query(out.to(query.dtype), query)


_KV_BLOCK = 512  # keys per block of the cpu flash kernel (its kv_split_size)


def _flash_reduced_weighted_sum(attn, value, reduced, lanes):
    """softmax(attn) @ value as the flash kernel computes it for float16 / bfloat16, block
    by block of keys (float32 throughout): exp(score - running row max) (_fast_exp over
    the whole vectors of a block's row, the exact exp over its last size % lanes) summed
    unrounded, but rounded to the reduced dtype before its product with value; the sum's
    reciprocal multiplied in at the end.  (The roundings decide the result's last bit.)"""
    M = _M()
    out = total = top = None
    for start in range(0, attn._shape[-1], _KV_BLOCK):
        block = attn[..., start:start + _KV_BLOCK]
        new_top = block.amax(-1, keepdim=True)
        new_top = new_top if top is None else M.maximum(top, new_top)
        shift = M.where(new_top == -math.inf, 0, new_top)  # (no -inf - -inf)
        p = _vector_then_tail_exp(block - shift, lanes)
        part = p.to(reduced).to(attn.dtype).matmul(value[..., start:start + _KV_BLOCK, :])
        if top is None:
            out, total = part, p.sum(-1, keepdim=True)
        else:
            decay = (top - shift).exp()
            out, total = out * decay + part, total * decay + p.sum(-1, keepdim=True)
        top = new_top
    return out * total.reciprocal()


def _vector_then_tail_exp(x, lanes):
    """exp over the last dim as the kernel's loop: _fast_exp on whole vectors of `lanes`
    floats, the exact exp on the rest (everywhere when x requires grad: the fast exp has
    no derivative to give)."""
    if x.requires_grad:
        return x.exp()
    n = x._shape[-1]
    whole = n - n % lanes
    if whole == n:
        return _fast_exp(x)
    if not whole:
        return x.exp()
    return _M().cat([_fast_exp(x[..., :whole]), x[..., whole:].exp()], -1)


# Vectorized<float>::fexp_u20, the exp of the flash kernel's reduced types (float32 values
# of its constants): 2 ** (x log2 e), the fraction corrected by a cubic, the result's bits
# read from an integer.
_LOG2E, _LN_FLT_MIN, _LN_FLT_MAX = 1.4426950216293335, -87.3365478515625, 88.72283935546875
_CUBIC = (-0.07920423895120621, -0.2243383675813675, 0.3035426139831543,
          0.00010703434963943437)  # highest degree first


def _fma32(a, b, c):
    """a * b + c of float32 tensors / floats rounded once (float64 holds the product)."""
    return (a.double() * (b.double() if hasattr(b, "double") else b) + c).float()


def _fast_exp(x):
    M = _M()
    src = x * _LOG2E
    fraction = src - src.floor()
    poly = _fma32(fraction, _CUBIC[0], _CUBIC[1])
    for c in _CUBIC[2:]:
        poly = _fma32(fraction, poly, c)
    bits = _fma32(src - poly, float(2 ** 23), float(2 ** 23 * 127))
    ok = (x >= _LN_FLT_MIN) & (x <= _LN_FLT_MAX)
    result = M.where(ok, bits, 2 ** 23 * 127).trunc().to(D.int32).view(D.float32)
    result = M.where(x < _LN_FLT_MIN, 0, result)
    return M.where(x > _LN_FLT_MAX, math.inf, M.where(x.isnan(), x, result))


def _vector_bytes(device, avx512_kernel):
    """Bytes per SIMD vector of the device's kernel (its module's _kernel_vector_bytes;
    AVX2's 32 for backends that do not say)."""
    from ..._device_modules import device_module
    ask = getattr(device_module(device.type), "_kernel_vector_bytes", None)
    return 32 if ask is None else ask(avx512_kernel)


def _like_query(out, query):
    """The flash kernel's output laid out as empty_like(query) (a head-major query,
    q.view(b, l, h, d).transpose(1, 2), gives an output whose transpose(1, 2) is
    contiguous: the tutorials' .view after it relies on that)."""
    from ..._strides import preserve_strides, stride_order
    strides = preserve_strides(query._shape, query._stride)
    if out._stride == strides or out._shape != query._shape:
        return out
    perm = stride_order(query._shape, strides)[::-1]  # outermost first
    inverse = [perm.index(d) for d in range(len(perm))]
    return out.permute(perm).contiguous().permute(inverse)


# -- the backend choice ------------------------------------------------------------------------

def _use_flash(query, key, value, attn_mask, dropout_p, enable_gqa):
    """Whether PyTorch's cpu sdpa runs its flash kernel (else its math path).  With the
    math path turned off (nn.attention.sdpa_kernel), a refusal is PyTorch's warnings and
    error."""
    from ...backends.cuda import _sdp
    why = (_flash_refusal(query, key, value, attn_mask, dropout_p, enable_gqa) if _sdp["flash"]
           else "Flash attention has been runtime disabled.")
    if why is None:
        return True
    if _sdp["math"]:
        return False
    from .layers import _caller_level
    level = _caller_level()
    warnings.warn("Flash attention kernel not used because:", stacklevel=level)
    if why:
        warnings.warn(why, stacklevel=level)
    raise RuntimeError("No available kernel.  Aborting execution.")


def _flash_refusal(query, key, value, attn_mask, dropout_p, enable_gqa):
    """None when sdp_utils_cpp's checks pass, else the debug text of the first that fails
    ('' for a silent one): no dropout; 4-D inputs of one batch size (no broadcasting), one
    number of heads (or enable_gqa with key's and value's equal and dividing query's); a
    2-D or 4-D mask of the scores' shape or broadcasting to it, not requiring grad; one
    head size; nonempty sequences; unit last strides; a floating dtype."""
    if dropout_p > 0.0:
        return "Both fused kernels do not support non-zero dropout."
    if not query.ndim == key.ndim == value.ndim == 4:
        return (f"All fused kernels requires query, key and value to be 4 dimensional, but got "
                f"Query dim: {query.ndim}, Key dim: {key.ndim}, Value dim: {value.ndim} "
                f"instead.")
    (b, h, L, e), (S, ek), ev = query._shape, key._shape[-2:], value._shape[-1]
    why = _batch_and_heads_refusal(query, key, value, enable_gqa)
    if why is None and attn_mask is not None:
        why = _mask_refusal(attn_mask, b, h, L, S)
    if why is not None:
        return why
    if not e == ek == ev:
        return (f"Flash attention requires q,k,v to have the same last dimension. Got "
                f"Query.size(-1): {e}, Key.size(-1): {ek}, Value.size(-1): {ev} instead.")
    if not L or not S:
        return "All fused kernels do not support zero seq_len_q or seq_len_kv."
    strides = [t._stride[-1] for t in (query, key, value)]
    if strides != [1, 1, 1]:
        mask = "" if attn_mask is None else (
            f", Attn_mask.stride(-1): {attn_mask._stride[-1]} (GPU backends require "
            f"attn_mask's last dimension to have stride 1 while the CPU does not).")
        return (f"All fused kernels require the last dimension of the input to have stride 1. "
                f"Got Query.stride(-1): {strides[0]}, Key.stride(-1): {strides[1]}, "
                f"Value.stride(-1): {strides[2]}{mask}")
    if query.dtype not in _FLASH_DTYPES:
        return (f"Expected query, key and value to all be of dtype: {{Float, Double, "
                f"BFloat16, Half}}. Got Query dtype: {_c_name(query.dtype)}, Key dtype: "
                f"{_c_name(key.dtype)}, and Value dtype: {_c_name(value.dtype)} instead.")
    return None


def _batch_and_heads_refusal(query, key, value, enable_gqa):
    (b, h), (bk, hk), (bv, hv) = query._shape[:2], key._shape[:2], value._shape[:2]
    if not b == bk == bv:
        return ("For dense inputs, both fused kernels require query, key and value to have "
                "the same batch_size. Query.sizes(): " + _sizes(query, key, value, ".sizes()"))
    if enable_gqa:
        if hk != hv:
            return (f"Both fused kernels require key and value to have the same num_heads and "
                    f"batch_size but got: Key sizes: {list(key._shape)}, Value sizes: "
                    f"{list(value._shape)}, Query sizes: {list(query._shape)} instead.")
        if h % hk:
            return (f"The number of heads in key/value must divide number of heads in query."
                    f"Got input Key sizes(): {hk}, Value sizes(): {hv}, Query sizes(): {h} "
                    f"instead.")
    elif not h == hk == hv:
        return ("For dense input, both fused kernels require query, key and value to have the "
                "same num_heads. Query.sizes(): " + _sizes(query, key, value, " sizes()"))
    return None


def _sizes(query, key, value, word):
    return (f"{list(query._shape)}, Key{word}: {list(key._shape)}, Value{word}: "
            f"{list(value._shape)}{_BROADCAST_HINT}")


def _mask_refusal(mask, b, h, L, S):
    """The mask check (check_attn_mask_shape); its size(-2) raises PyTorch's IndexError
    for a mask of fewer than 2 dims."""
    if mask.requires_grad:
        return ""
    if mask.size(-2) not in (L, 1) or mask.size(-1) not in (S, 1):
        return _MASK_SHAPES
    if mask.ndim == 2 or mask.ndim == 4 and mask._shape[0] in (1, b) and mask._shape[1] in (1, h):
        return None
    return _MASK_SHAPES
