"""Regression tests for QA round qa16a (LLM / transformers-style model and generation
code), each against torch."""
import numpy as np
import pytest
from reference import same_errors

torch = pytest.importorskip("torch")


def _same_bits(program):
    """program(lib) -> tensors: the same dtypes, shapes and values to the bit."""
    ours, theirs = same_errors(program)
    if ours[0] != "ok":
        return
    for a, b in zip(ours[1], theirs[1], strict=True):
        assert str(a.dtype) == str(b.dtype) and tuple(a.shape) == tuple(b.shape)
        np.testing.assert_array_equal(np.asarray(a.detach().double().tolist()),
                                      b.detach().double().numpy())


# -- scaled_dot_product_attention in float16 / bfloat16: the cpu flash kernel rounds the
# softmax numerators to the input dtype before their product with v --------------------------

@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("case", ["plain", "causal", "bool_mask", "min_mask", "gqa", "vectors",
                                  "long_keys", "long_keys_causal", "mask_and_causal"])
def test_sdpa_half_precision_rounds_like_the_flash_kernel(dtype, case):
    """(Whole vectors of 16 scores take the kernel's fast exp, fexp_u20; sequences over
    512 keys go by blocks.)"""
    def program(L):
        g = np.random.default_rng(0)
        S = 1100 if case.startswith("long") else 32 if case == "vectors" else 6
        L_q = 3 if case.startswith("long") else 4
        heads_kv = 1 if case == "gqa" else 2
        q, k, v = (L.tensor(g.standard_normal(shape), dtype=getattr(L, dtype))
                   for shape in ((1, 2, L_q, 8), (1, heads_kv, S, 8), (1, heads_kv, S, 8)))
        kw = {"is_causal": "causal" in case, "enable_gqa": case == "gqa"}
        if case == "bool_mask":
            kw["attn_mask"] = L.tensor(g.random((L_q, S)) > 0.3)
        if case in ("min_mask", "mask_and_causal"):
            mask = L.full((L_q, S), L.finfo(q.dtype).min, dtype=q.dtype).triu(1)
            kw["attn_mask"] = mask
        return [L.nn.functional.scaled_dot_product_attention(q, k, v, **kw)]
    _same_bits(program)
