"""torch.nn.attention.flex_attention, densely: mindtorch has no block-sparse kernel, so a
BlockMask keeps its mask_mod's full boolean mask and flex_attention is the math of
scaled-dot-product attention with the score modification and mask applied elementwise.

mask_mod(b, h, q_idx, kv_idx) and score_mod(score, b, h, q_idx, kv_idx) are called once,
on index tensors shaped to broadcast over (batch, heads, queries, keys) (PyTorch vmaps
them element by element; for the elementwise functions they are written as, including
ones that index tensors with the indices, the result is the same)."""
import dataclasses
import math
import warnings

import mindtorch as _m

__all__ = [
    "AuxOutput",
    "AuxRequest",
    "BlockMask",
    "FlexKernelOptions",
    "and_masks",
    "create_block_mask",
    "create_mask",
    "flex_attention",
    "noop_mask",
    "or_masks",
]

_DEFAULT_SPARSE_BLOCK_SIZE = 128
# set True to silence the warning about eager calls (PyTorch's debugging switch)
_FLEX_ATTENTION_DISABLE_COMPILE_DEBUG = False
_WARNINGS_SHOWN = set()


def _warn_once(warning_id, message, category=UserWarning):
    """A warning shown once per process (and not inside a compiled function, which
    still counts as shown, as in PyTorch)."""
    if warning_id not in _WARNINGS_SHOWN:
        if not _m.compiler.is_compiling():
            warnings.warn(message, category, stacklevel=3)
        _WARNINGS_SHOWN.add(warning_id)
FlexKernelOptions = dict


@dataclasses.dataclass(frozen=True)
class AuxRequest:
    lse: bool = False
    max_scores: bool = False


@dataclasses.dataclass(frozen=True)
class AuxOutput:
    lse: object = None
    max_scores: object = None


def noop_mask(batch, head, token_q, token_kv):
    return batch.new_ones(size=(), dtype=_m.bool)


def and_masks(*mask_mods):
    def mask(b, h, q, kv):
        out = b.new_ones((), dtype=_m.bool)
        for mod in mask_mods:
            out = out & mod(b, h, q, kv)
        return out
    return mask


def or_masks(*mask_mods):
    def mask(b, h, q, kv):
        out = b.new_zeros((), dtype=_m.bool)
        for mod in mask_mods:
            out = out | mod(b, h, q, kv)
        return out
    return mask


def _indices(B, H, Q, KV, device):
    return (_m.arange(B, device=device).view(B, 1, 1, 1),
            _m.arange(H, device=device).view(1, H, 1, 1),
            _m.arange(Q, device=device).view(1, 1, Q, 1),
            _m.arange(KV, device=device).view(1, 1, 1, KV))


def create_mask(mod_fn, B, H, Q_LEN, KV_LEN, device=None):
    """The dense (B, H, Q_LEN, KV_LEN) boolean mask of a mask_mod (B/H None: 1)."""
    B, H = B or 1, H or 1
    return mod_fn(*_indices(B, H, Q_LEN, KV_LEN, device)).expand(B, H, Q_LEN, KV_LEN)


class BlockMask:
    """Which (query, key) pairs attend: here the dense mask itself, with the block size
    and mask_mod PyTorch's BlockMask reports."""

    def __init__(self, mask, BLOCK_SIZE, mask_mod, seq_lengths):
        self._mask = mask
        self.BLOCK_SIZE = BLOCK_SIZE
        self.mask_mod = mask_mod
        self.seq_lengths = seq_lengths

    @property
    def shape(self):
        return tuple(self._mask.shape)

    def numel(self):
        return math.prod(self.shape)

    def to(self, device):
        return BlockMask(self._mask.to(device), self.BLOCK_SIZE, self.mask_mod,
                         self.seq_lengths)

    def to_dense(self):
        """Per block: does any pair in it attend (PyTorch's block-level view)."""
        B, H, Q, KV = self.shape
        bq, bkv = self.BLOCK_SIZE
        nq, nkv = -(-Q // bq), -(-KV // bkv)
        padded = _m.nn.functional.pad(self._mask, (0, nkv * bkv - KV, 0, nq * bq - Q))
        return padded.view(B, H, nq, bq, nkv, bkv).any(5).any(3).to(_m.int32)

    def __repr__(self):
        return f"BlockMask(shape={self.shape}, dense)"


def create_block_mask(mask_mod, B, H, Q_LEN, KV_LEN, device=None, BLOCK_SIZE=128,
                      _compile=False, separate_full_blocks=True, compute_dq_write_order=False,
                      dq_kv_order=True):
    block = BLOCK_SIZE if isinstance(BLOCK_SIZE, tuple) else (BLOCK_SIZE, BLOCK_SIZE)
    return BlockMask(create_mask(mask_mod, B, H, Q_LEN, KV_LEN, device), block, mask_mod,
                     (Q_LEN, KV_LEN))


_EAGER_MESSAGE = (
    "flex_attention called without torch.compile() - this will use an unfused implementation "
    "that materializes the full scores matrix instead of generating a fused kernel.\n\n"
    "SOLUTION: Use torch.compile(flex_attention)(...)\n\n"
    "If you want to debug your score_mod/mask_mod, you can set:\n"
    "torch.nn.attention.flex_attention._FLEX_ATTENTION_DISABLE_COMPILE_DEBUG = True\n\n"
    "This will allow you to use print statements or breakpoints. Note: This doesn't work "
    "with the backwards pass and may produce incorrect results.")


def flex_attention(query, key, value, score_mod=None, block_mask=None, scale=None,
                   enable_gqa=False, return_lse=False, kernel_options=None, *,
                   return_aux=None):
    if return_lse and return_aux is not None:
        raise ValueError("Cannot specify both return_lse and return_aux. return_lse is "
                         "deprecated, please use return_aux=AuxRequest(lse=True) instead.")
    if return_lse:
        _warn_once("deprecated_return_lse", "return_lse is deprecated and will be removed in "
                   "v2.10. Please use return_aux=AuxRequest(lse=True) instead.", FutureWarning)
    if not _FLEX_ATTENTION_DISABLE_COMPILE_DEBUG and not _m.compiler.is_compiling():
        # (a compiled call takes PyTorch's kernel path, which neither warns nor counts)
        _warn_once("flex_attention_performance", _EAGER_MESSAGE)
    B, Hq, L, E = query.shape
    Hkv, S = key.shape[1], key.shape[-2]
    if Hq != Hkv:
        if not enable_gqa or Hq % Hkv:
            raise ValueError(f"Expect query and key/value to have the same number of heads "
                             f"but got Hq={Hq} and Hkv={Hkv}. Try setting enable_gqa=True "
                             f"for GQA.")
        key = key.repeat_interleave(Hq // Hkv, 1)
        value = value.repeat_interleave(Hq // Hkv, 1)
    scale = 1.0 / math.sqrt(E) if scale is None else scale
    dt = _m.promote_types(query.dtype, _m.float32)  # half precision computes in float32
    scores = (query.to(dt) @ key.to(dt).transpose(-2, -1)) * scale
    if score_mod is not None:
        scores = score_mod(scores, *_indices(B, Hq, L, S, query.device)).expand_as(scores)
    if block_mask is not None:
        scores = scores.masked_fill(~block_mask._mask, float("-inf"))
    lse = scores.logsumexp(-1)
    # a fully masked row attends to nothing: output 0 (and lse -inf), as PyTorch's kernel
    probs = (scores - lse.unsqueeze(-1)).exp().nan_to_num(0.0)
    out = (probs @ value.to(dt)).to(query.dtype)
    if return_aux is not None:
        return out, AuxOutput(lse=lse if return_aux.lse else None,
                              max_scores=scores.amax(-1) if return_aux.max_scores else None)
    return (out, lse) if return_lse else out
