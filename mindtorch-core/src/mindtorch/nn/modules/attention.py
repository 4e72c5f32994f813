"""torch.nn.MultiheadAttention (in PyTorch it lives in torch.nn.modules.activation)."""
import math

import mindtorch

from ...backends.mha import get_fastpath_enabled
from .. import functional as F
from ..init import constant_, xavier_normal_, xavier_uniform_
from ..parameter import Parameter
from .linear import NonDynamicallyQuantizableLinear
from .module import Module

__all__ = ["MultiheadAttention"]


class MultiheadAttention(Module):
    """Attention over num_heads subspaces of embed_dim (PyTorch's parameters, names and
    initialisation: in_proj_weight, or q/k/v_proj_weight when kdim/vdim differ from
    embed_dim; in_proj_bias; out_proj; bias_k/bias_v with add_bias_kv)."""

    __constants__ = ["batch_first"]

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False, device=None,
                 dtype=None):
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got "
                             f"embed_dim={embed_dim} and num_heads={num_heads} instead")
        factory = {"device": device, "dtype": dtype}
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")

        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(mindtorch.empty((3 * embed_dim, embed_dim), **factory))
            for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.register_parameter(name, None)
        else:
            self.q_proj_weight = Parameter(mindtorch.empty((embed_dim, embed_dim), **factory))
            self.k_proj_weight = Parameter(mindtorch.empty((embed_dim, self.kdim), **factory))
            self.v_proj_weight = Parameter(mindtorch.empty((embed_dim, self.vdim), **factory))
            self.register_parameter("in_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(mindtorch.empty(3 * embed_dim, **factory))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias,
                                                        **factory)
        if add_bias_kv:
            self.bias_k = Parameter(mindtorch.empty((1, 1, embed_dim), **factory))
            self.bias_v = Parameter(mindtorch.empty((1, 1, embed_dim), **factory))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self):
        if self._qkv_same_embed_dim:
            xavier_uniform_(self.in_proj_weight)
        else:
            for w in (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight):
                xavier_uniform_(w)
        if self.in_proj_bias is not None:
            constant_(self.in_proj_bias, 0.0)
            constant_(self.out_proj.bias, 0.0)
        for b in (self.bias_k, self.bias_v):
            if b is not None:
                xavier_normal_(b)

    def __setstate__(self, state):
        state.setdefault("_qkv_same_embed_dim", True)
        super().__setstate__(state)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True,
                attn_mask=None, average_attn_weights=True, is_causal=False):
        """(output, averaged or per-head weights or None); batch_first inputs are (N, L, E)."""
        is_batched = query.dim() == 3
        # PyTorch's native kernel (float masks keep it off) reads the masks only: no is_causal
        native = self._native_path(query, key, value) and not _any_float(attn_mask,
                                                                         key_padding_mask)
        is_causal = is_causal and not native
        native_nan = native and not need_weights and _only_bool(attn_mask, key_padding_mask)
        key_padding_mask = F._canonical_mask(key_padding_mask, "key_padding_mask",
                                             F._none_or_dtype(attn_mask), "attn_mask",
                                             query.dtype)
        attn_mask = F._canonical_mask(attn_mask, "attn_mask", None, "", query.dtype,
                                      check_other=False)
        if self.batch_first and is_batched:  # keep the identities the projection exploits
            if key is value:
                if query is key:
                    query = key = value = query.transpose(1, 0)
                else:
                    query, key = query.transpose(1, 0), key.transpose(1, 0)
                    value = key
            else:
                query, key, value = (x.transpose(1, 0) for x in (query, key, value))
        separate = {} if self._qkv_same_embed_dim else {
            "use_separate_proj_weight": True, "q_proj_weight": self.q_proj_weight,
            "k_proj_weight": self.k_proj_weight, "v_proj_weight": self.v_proj_weight}
        out, weights = F.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight,
            self.in_proj_bias, self.bias_k, self.bias_v, self.add_zero_attn, self.dropout,
            self.out_proj.weight, self.out_proj.bias, training=self.training,
            key_padding_mask=key_padding_mask, need_weights=need_weights, attn_mask=attn_mask,
            average_attn_weights=average_attn_weights, is_causal=is_causal, **separate)
        if self.batch_first and is_batched:
            out = out.transpose(1, 0)
        if native:  # (the native kernel's output is a fresh contiguous (N, L, E))
            out = out.contiguous()
        if native_nan:
            out = nan_where_all_masked(out, self.num_heads, attn_mask, key_padding_mask)
        return out, weights

    def _native_path(self, query, key, value, *more):
        """Whether PyTorch would run its native kernel (inference on batch_first batched
        self-attention of even heads; `more`: further tensors whose grad counts)."""
        if not get_fastpath_enabled() or self.training or query.dim() != 3 or \
                not self.batch_first or \
                not query is key is value or self.num_heads % 2 or self.bias_k is not None \
                or self.add_zero_attn or not self._qkv_same_embed_dim or \
                self.in_proj_bias is None or query.dtype != self.in_proj_weight.dtype or \
                query.dtype != self.in_proj_bias.dtype:
            return False
        tensors = (query, self.in_proj_weight, self.in_proj_bias, self.out_proj.weight,
                   self.out_proj.bias, *more)
        return not (mindtorch.is_grad_enabled()
                    and any(t is not None and t.requires_grad for t in tensors))

    def merge_masks(self, attn_mask, key_padding_mask, query):
        """One mask of (N, heads, L, L) from an attention and a key padding mask, and its
        type (0 attention, 1 key padding, 2 merged), as PyTorch's fast path takes them."""
        mask_type, merged = None, None
        if key_padding_mask is not None:
            mask_type, merged = 1, key_padding_mask
        if attn_mask is not None:
            batch_size, seq_len, _ = query.shape
            mask_type = 2
            if attn_mask.dim() == 3:
                merged = attn_mask.view(batch_size, -1, seq_len, seq_len)
            else:
                merged = attn_mask.view(1, 1, seq_len, seq_len).expand(
                    batch_size, self.num_heads, -1, -1)
            if key_padding_mask is not None:
                merged = merged + key_padding_mask.view(batch_size, 1, 1, seq_len).expand(
                    -1, self.num_heads, -1, -1)
        return merged, mask_type


def _any_float(*masks):
    return any(m is not None and m.is_floating_point() for m in masks)


def _only_bool(*masks):
    given = [m for m in masks if m is not None]
    return bool(given) and all(m.dtype is mindtorch.bool for m in given)


def nan_where_all_masked(out, num_heads, attn_mask, key_padding_mask):
    """out (N, L, E) with NaN rows where some head masks every key: PyTorch's native
    attention kernel (the inference fast path of MultiheadAttention and of the encoder
    layer) has no safe softmax there; the masks are canonical (float, -inf = masked)."""
    N, L, _ = out.shape
    masked = mindtorch.zeros((N, num_heads, L, 1), dtype=mindtorch.bool, device=out.device)
    if key_padding_mask is not None:
        masked = masked | (key_padding_mask == -math.inf).view(N, 1, 1, -1)
    if attn_mask is not None:
        am = attn_mask == -math.inf
        masked = masked | (am.view(N, num_heads, L, -1) if am.dim() == 3 else am)
    return out.masked_fill(masked.all(-1).any(1).unsqueeze(-1), math.nan)


MultiheadAttention.__module__ = "mindtorch.nn.modules.activation"  # (PyTorch's home)
