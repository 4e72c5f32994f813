"""torch.nn.attention.flex_attention (dense in mindtorch): block masks from mask_mods,
score_mods, GQA, lse, against PyTorch's unfused implementation."""
import warnings

import mindtorch
import pytest
from reference import cpu_build_only, torch


def flex(lib):
    import importlib
    return importlib.import_module(lib.__name__ + ".nn.attention.flex_attention")


def _inputs(lib):
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(*s, generator=g, dtype=torch.float64)
               for s in ((2, 4, 6, 8), (2, 2, 6, 8), (2, 2, 6, 8)))
    if lib is torch:
        return q, k, v
    return tuple(mindtorch.tensor(t.numpy()) for t in (q, k, v))


def run(lib):
    f = flex(lib)
    q, k, v = _inputs(lib)
    pad = lib.tensor([[1, 1, 1, 1, 0, 0], [1, 1, 1, 1, 1, 1]], dtype=lib.bool)
    causal = lambda b, h, qi, kv: kv <= qi
    padded = lambda b, h, qi, kv: pad[b, kv]
    bm = f.create_block_mask(f.and_masks(causal, padded), 2, None, 6, 6, device="cpu",
                             BLOCK_SIZE=4)
    bias = lib.linspace(-1, 1, 4, dtype=lib.float64)
    kr, vr = k.repeat_interleave(2, 1), v.repeat_interleave(2, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out, lse = f.flex_attention(q, kr, vr, return_lse=True, scale=0.5,
                                    score_mod=lambda s, b, h, qi, kv: s + bias[h] * (qi - kv))
        masked = f.flex_attention(q, k, v, block_mask=bm, enable_gqa=True)
        plain, aux = f.flex_attention(q, kr, vr, return_aux=f.AuxRequest(lse=True))
    return [bm.shape, bm.BLOCK_SIZE, bm.to_dense().tolist(),
            f.create_mask(f.or_masks(causal, lambda b, h, qi, kv: kv == 5), 1, 1, 4, 6).tolist(),
            tuple(f.create_mask(f.noop_mask, None, None, 2, 3).shape),
            out.tolist(), lse.tolist(), masked.tolist(), plain.tolist(), aux.lse.tolist(),
            aux.max_scores]


@cpu_build_only
def test_flex_attention_like_torch():
    ours, theirs = run(mindtorch), run(torch)
    assert ours[:5] == theirs[:5] and ours[-1] is theirs[-1] is None
    for a, b in zip(ours[5:-1], theirs[5:-1]):
        assert torch.allclose(torch.tensor(a), torch.tensor(b), atol=1e-10)


def test_heads_mismatch_needs_enable_gqa():
    q, k, v = _inputs(mindtorch)
    with pytest.raises(ValueError, match="enable_gqa"):
        flex(mindtorch).flex_attention(q, k, v)
