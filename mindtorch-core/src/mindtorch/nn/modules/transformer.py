"""torch.nn.modules.transformer: Transformer, its encoder/decoder stacks and layers."""
import copy
import warnings

import mindtorch

from ..._warn_once import warn_once
from ...backends.mha import get_fastpath_enabled
from .. import functional as F
from ..init import xavier_uniform_
from .activation import GELU, ReLU
from .attention import MultiheadAttention, nan_where_all_masked
from .container import ModuleList
from .dropout import Dropout
from .linear import Linear
from .module import Module
from .normalization import LayerNorm

__all__ = ["Transformer", "TransformerEncoder", "TransformerDecoder", "TransformerEncoderLayer",
           "TransformerDecoderLayer"]


def _generate_square_subsequent_mask(sz, device=None, dtype=None):
    """-inf above the diagonal, 0 elsewhere: position i attends to positions <= i."""
    return mindtorch.triu(mindtorch.full((sz, sz), float("-inf"), dtype=dtype, device=device),
                          diagonal=1)


def _get_seq_len(src, batch_first):
    return src.size(0) if src.dim() == 2 else src.size(1 if batch_first else 0)


def _detect_is_causal_mask(mask, is_causal=None, size=None):
    """is_causal as given; when None, whether mask equals the square subsequent mask."""
    if is_causal is not None or mask is None:
        return is_causal is True
    causal = _generate_square_subsequent_mask(size if size is not None else mask.size(-2),
                                              device=mask.device, dtype=mask.dtype)
    return mask.size() == causal.size() and bool((mask == causal).all())


def _get_activation_fn(activation):
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


def _get_clones(module, n):
    return ModuleList([copy.deepcopy(module) for _ in range(n)])


class Transformer(Module):
    """Encoder-decoder Transformer; matrices of its parameters are xavier_uniform_."""

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                 dim_feedforward=2048, dropout=0.1, activation=F.relu, custom_encoder=None,
                 custom_decoder=None, layer_norm_eps=1e-5, batch_first=False, norm_first=False,
                 bias=True, device=None, dtype=None):
        factory = {"device": device, "dtype": dtype}
        super().__init__()
        layer_args = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                      batch_first, norm_first, bias)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            self.encoder = TransformerEncoder(
                TransformerEncoderLayer(*layer_args, **factory), num_encoder_layers,
                LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            self.decoder = TransformerDecoder(
                TransformerDecoderLayer(*layer_args, **factory), num_decoder_layers,
                LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory))
        self._reset_parameters()
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
                src_key_padding_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, src_is_causal=None, tgt_is_causal=None,
                memory_is_causal=False):
        batch = 0 if self.batch_first else 1  # sizes read before the rank check, as PyTorch
        if src.size(batch) != tgt.size(batch) and src.dim() == 3:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.size(-1) != self.d_model or tgt.size(-1) != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask,
                              is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask,
                            tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz, device=None, dtype=None):
        """A float mask of -inf above the diagonal (PyTorch's causal mask)."""
        return _generate_square_subsequent_mask(sz, device=device, dtype=dtype)

    def _reset_parameters(self):
        for p in self.parameters():
            if p.dim() > 1:
                xavier_uniform_(p)


def _why_no_nested_tensor(layer):
    """Why PyTorch's encoder would not take its nested-tensor path with this layer ('' if
    it would); the reason is PyTorch's warning text."""
    name = "encoder_layer"
    if not isinstance(layer, TransformerEncoderLayer):
        return f"{name} was not TransformerEncoderLayer"
    attn = layer.self_attn
    for failed, why in (
            (layer.norm_first, f"{name}.norm_first was True"),
            (not attn.batch_first, f"{name}.self_attn.batch_first was not True"
                                   "(use batch_first for better inference performance)"),
            (not attn._qkv_same_embed_dim, f"{name}.self_attn._qkv_same_embed_dim was not True"),
            (attn.in_proj_bias is None, f"{name}.self_attn was passed bias=False"),
            (not layer.activation_relu_or_gelu, f"{name}.activation_relu_or_gelu was not True"),
            (layer.norm1.eps != layer.norm2.eps,
             f"{name}.norm1.eps was not equal to {name}.norm2.eps"),
            (attn.num_heads % 2 == 1, f"{name}.self_attn.num_heads is odd")):
        if failed:
            return why
    return ""


def _left_aligned(valid):
    """Each row of the bool (N, S) mask is some Trues followed only by Falses."""
    return bool((valid[:, 1:] <= valid[:, :-1]).all()) if valid.size(1) > 1 else True


class TransformerEncoder(Module):
    """num_layers deep copies of encoder_layer, then the optional norm."""

    __constants__ = ["norm"]

    def __init__(self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True,
                 mask_check=True):
        super().__init__()
        self.layers = _get_clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        why_not = _why_no_nested_tensor(encoder_layer)
        if enable_nested_tensor and why_not:
            warnings.warn(f"enable_nested_tensor is True, but self.use_nested_tensor is False "
                          f"because {why_not}", stacklevel=2)
            self.use_nested_tensor = False

    def _nested_path(self, src, mask, key_padding_mask):
        """Whether PyTorch would run the layers on a nested tensor (its sequences cut from
        src by the padding mask): inference without grad, a padding mask (left-aligned
        when mask_check), no attention mask."""
        first = self.layers[0]
        if not get_fastpath_enabled() or not getattr(self, "use_nested_tensor", False) or \
                first.training or src.dim() != 3 or key_padding_mask is None:
            return False
        if getattr(self, "mask_check", True) and not _left_aligned(key_padding_mask == 0):
            return False
        if mask is not None:
            return False
        attn = first.self_attn
        tensors = (src, attn.in_proj_weight, attn.in_proj_bias, attn.out_proj.weight,
                   attn.out_proj.bias, first.norm1.weight, first.norm1.bias, first.norm2.weight,
                   first.norm2.bias, first.linear1.weight, first.linear1.bias,
                   first.linear2.weight, first.linear2.bias)
        return not (mindtorch.is_grad_enabled()
                    and any(t is not None and t.requires_grad for t in tensors))

    def forward(self, src, mask=None, src_key_padding_mask=None, is_causal=None):
        src_key_padding_mask = F._canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                                 F._none_or_dtype(mask), "mask", src.dtype)
        mask = F._canonical_mask(mask, "mask", None, "", src.dtype, check_other=False)
        padded = None
        if self._nested_path(src, mask, src_key_padding_mask):
            warn_once("nested_prototype", _NESTED_PROTOTYPE)
            padded = _nested_padding(src_key_padding_mask)
            src_key_padding_mask = F._canonical_mask(padded, "src_key_padding_mask", None, "",
                                                     src.dtype, check_other=False)
        batch_first = self.layers[0].self_attn.batch_first
        is_causal = _detect_is_causal_mask(mask, is_causal, _get_seq_len(src, batch_first))
        output = src
        for mod in self.layers:
            output = mod(output, src_mask=mask, is_causal=is_causal,
                         src_key_padding_mask=src_key_padding_mask)
        if padded is not None:  # (the nested tensor padded back with zeros)
            output = output.masked_fill(padded.unsqueeze(-1), 0.0)
        if self.norm is not None:
            output = self.norm(output)
        return output


_NESTED_PROTOTYPE = (
    "The PyTorch API of nested tensors is in prototype stage and will change in the near "
    "future. We recommend specifying layout=torch.jagged when constructing a nested tensor, "
    "as this layout receives active development, has better operator coverage, and works "
    "with torch.compile.")


def _nested_padding(key_padding_mask):
    """The positions a nested tensor made from the padding mask leaves out: each sequence
    keeps as many leading positions as its mask keeps (what PyTorch's nested tensor holds
    also when mask_check=False lets a mask that is not left-aligned through)."""
    kept = (key_padding_mask == 0).sum(-1, keepdim=True)
    positions = mindtorch.arange(key_padding_mask.size(-1), device=key_padding_mask.device)
    return positions >= kept


class TransformerDecoder(Module):
    """num_layers deep copies of decoder_layer, then the optional norm."""

    __constants__ = ["norm"]

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _get_clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=None, memory_is_causal=False):
        seq_len = _get_seq_len(tgt, self.layers[0].self_attn.batch_first)
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, seq_len)
        output = tgt
        for mod in self.layers:
            output = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                         tgt_key_padding_mask=tgt_key_padding_mask,
                         memory_key_padding_mask=memory_key_padding_mask,
                         tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)
        return output if self.norm is None else self.norm(output)


class _LayerBase(Module):
    """What encoder and decoder layers share: the feed-forward block and the activation."""

    def _init_common(self, d_model, nhead, dim_feedforward, dropout, activation,
                     layer_norm_eps, batch_first, norm_first, bias, factory, n_norms):
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                            batch_first=batch_first, **factory)
        if n_norms == 3:  # decoder: attention over the memory
            self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                                     batch_first=batch_first, **factory)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory)
        self.norm_first = norm_first
        for i in range(1, n_norms + 1):  # norm1.., then dropout1.. (PyTorch's order)
            setattr(self, f"norm{i}", LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory))
        for i in range(1, n_norms + 1):
            setattr(self, f"dropout{i}", Dropout(dropout))
        self.activation = _get_activation_fn(activation) if isinstance(activation, str) \
            else activation

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False, is_causal=is_causal)[0]
        return self.dropout1(x)

    def _feed_forward(self, x):
        return self.linear2(self.dropout(self.activation(self.linear1(x))))

    def __setstate__(self, state):
        state.setdefault("activation", F.relu)
        super().__setstate__(state)


class TransformerEncoderLayer(_LayerBase):
    """Self-attention then feed-forward, each with a residual connection and LayerNorm
    (after each block, or before it with norm_first)."""

    __constants__ = ["norm_first"]

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu,
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, bias=True,
                 device=None, dtype=None):
        super().__init__()
        self._init_common(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                          batch_first, norm_first, bias, {"device": device, "dtype": dtype}, 2)
        act = self.activation
        self.activation_relu_or_gelu = (1 if act is F.relu or isinstance(act, ReLU) else
                                        2 if act is F.gelu or isinstance(act, GELU) else 0)

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        src_key_padding_mask = F._canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                                 F._none_or_dtype(src_mask), "src_mask",
                                                 src.dtype)
        src_mask = F._canonical_mask(src_mask, "src_mask", None, "", src.dtype,
                                     check_other=False)
        x, native = src, self._native_path(src)
        if native:  # PyTorch's native kernel: one merged mask, no is_causal
            src_mask, src_key_padding_mask = self._native_masks(src, src_mask,
                                                                src_key_padding_mask)
            is_causal = False
        # PyTorch's native kernel adds each residual in place into its branch's result, which
        # keeps the branch's dtype (the autocast dtype under autocast)
        add = (lambda x, branch: branch.add_(x)) if native else (lambda x, branch: x + branch)
        if self.norm_first:
            x = add(x, self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal))
            x = add(x, self._ff_block(self.norm2(x)))
        else:
            x = self.norm1(add(x, self._sa_block(x, src_mask, src_key_padding_mask, is_causal)))
            x = self.norm2(add(x, self._ff_block(x)))
        if (src_mask is not None or src_key_padding_mask is not None) and native:
            x = nan_where_all_masked(x, self.self_attn.num_heads, src_mask, src_key_padding_mask)
        return x

    def _native_masks(self, src, src_mask, key_padding_mask):
        """(attn_mask, key_padding_mask) as PyTorch's native kernel reads them: merged
        (merge_masks), then masked wherever the merged value is nonzero, as a bool mask
        made additive (a float mask's finite nonzero values mask too, NaN as well)."""
        merged, kind = self.self_attn.merge_masks(src_mask, key_padding_mask, src)
        if merged is None:
            return None, None
        masked = F._canonical_mask(merged != 0, "mask", None, "", src.dtype, check_other=False)
        if kind == 1:
            return None, masked
        return masked.reshape(-1, *masked.shape[-2:]), None  # (N * heads, L, S)

    def _native_path(self, src):
        """Whether PyTorch would run the whole layer in its native kernel (inference)."""
        if not get_fastpath_enabled() or self.training or not self.activation_relu_or_gelu or \
                self.norm1.eps != self.norm2.eps or \
                any(m._forward_hooks or m._forward_pre_hooks for m in self.modules()):
            return False
        return self.self_attn._native_path(src, src, src, *(
            t for m in (self.norm1, self.norm2, self.linear1, self.linear2)
            for t in (m.weight, m.bias)))

    def _ff_block(self, x):
        return self.dropout2(self._feed_forward(x))


class TransformerDecoderLayer(_LayerBase):
    """Self-attention, attention over the encoder's memory, then feed-forward; each with a
    residual connection and LayerNorm (after, or before with norm_first)."""

    __constants__ = ["norm_first"]

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu,
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, bias=True,
                 device=None, dtype=None):
        super().__init__()
        self._init_common(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                          batch_first, norm_first, bias, {"device": device, "dtype": dtype}, 3)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=False, memory_is_causal=False):
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask,
                                    memory_key_padding_mask, memory_is_causal)
            return x + self._ff_block(self.norm3(x))
        x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
        x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask,
                                           memory_is_causal))
        return self.norm3(x + self._ff_block(x))

    def _ff_block(self, x):
        return self.dropout3(self._feed_forward(x))

    def _mha_block(self, x, mem, attn_mask, key_padding_mask, is_causal=False):
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask,
                                key_padding_mask=key_padding_mask, is_causal=is_causal,
                                need_weights=False)[0]
        return self.dropout2(x)
