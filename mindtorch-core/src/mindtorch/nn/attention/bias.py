"""torch.nn.attention.bias: causal masks that scaled_dot_product_attention understands
without materializing them.

A CausalBias is a Tensor subclass carrying only (variant, seq_len_q, seq_len_kv); its
__torch_function__ turns F.scaled_dot_product_attention(..., attn_mask=bias) into the
is_causal path (upper-left, or any square mask) or a call with the materialized boolean
mask (lower-right, aligned to the last key)."""
import enum
import warnings

import mindtorch as _m

from ..._tensor import Tensor

__all__ = ["CausalBias", "CausalVariant", "causal_lower_right", "causal_upper_left"]


class CausalVariant(enum.IntEnum):
    """Which corner a causal mask is aligned to: UPPER_LEFT is tril(ones(L, S)); LOWER_RIGHT
    is tril(ones(L, S), diagonal=S - L). They agree when L == S."""
    UPPER_LEFT = 1
    LOWER_RIGHT = 2


class CausalBias(Tensor):
    """A causal attention mask of shape (seq_len_q, seq_len_kv), kept symbolic."""

    def __new__(cls, variant, seq_len_q, seq_len_kv):
        return Tensor._make_subclass(cls, _m.empty(0))

    def __init__(self, variant, seq_len_q, seq_len_kv):
        if not isinstance(variant, CausalVariant):
            raise AssertionError(  # noqa: TRY004 (PyTorch's class)
                f"variant must be a CausalVariant, got {type(variant).__name__}")
        self.variant = variant
        self.seq_len_q = seq_len_q
        self.seq_len_kv = seq_len_kv
        if seq_len_q > seq_len_kv and variant == CausalVariant.LOWER_RIGHT:
            warnings.warn("Lower right causal bias will produce NaNs in the output when "
                          "seq_len_q > seq_len_kv!", stacklevel=3)

    def _upper_left(self, device):
        ones = _m.ones((self.seq_len_q, self.seq_len_kv), dtype=_m.bool, device=device)
        return ones.tril()

    def _lower_right(self, device):
        ones = _m.ones((self.seq_len_q, self.seq_len_kv), dtype=_m.bool, device=device)
        return ones.tril(diagonal=self.seq_len_kv - self.seq_len_q)

    def _materialize(self, device=None):
        """The boolean mask (True: attend)."""
        if device is None:
            device = "cpu"
        if self.variant == CausalVariant.UPPER_LEFT:
            return self._upper_left(device)
        return self._lower_right(device)

    @staticmethod
    def _dispatch(query, key, value, attn_mask, dropout_p=0.0, is_causal=False, scale=None,
                  enable_gqa=False):
        from .. import functional as F
        if is_causal:
            raise ValueError("CausalBias should not be used with causal=True")
        if attn_mask.seq_len_q == attn_mask.seq_len_kv or \
                attn_mask.variant == CausalVariant.UPPER_LEFT:
            return F.scaled_dot_product_attention(query, key, value, None, dropout_p, True,
                                                  scale=scale, enable_gqa=enable_gqa)
        if attn_mask.variant == CausalVariant.LOWER_RIGHT:
            return F.scaled_dot_product_attention(
                query, key, value, attn_mask._materialize(query.device), dropout_p, False,
                scale=scale, enable_gqa=enable_gqa)
        raise ValueError(f"CausalBias.variant must be a CausalVariant type, but found: "
                         f"{attn_mask.variant}")

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        from .. import functional as F
        if func is F.scaled_dot_product_attention:
            return cls._dispatch(*args, **kwargs)
        return super().__torch_function__(func, types, args, kwargs)

    def __repr__(self):
        return self._materialize().__repr__()


def causal_upper_left(*size):
    """CausalBias(UPPER_LEFT, *size): the usual causal mask, aligned to the first key."""
    if len(size) != 2:
        raise AssertionError("causal_upper_left only supports 2D tensors")
    return CausalBias(CausalVariant.UPPER_LEFT, *size)


def causal_lower_right(*size):
    """CausalBias(LOWER_RIGHT, *size): the causal mask aligned to the last key (the last
    query sees every key), as when new queries extend a cached sequence."""
    if len(size) != 2:
        raise AssertionError("causal_lower_right only supports 2D tensors")
    return CausalBias(CausalVariant.LOWER_RIGHT, *size)
