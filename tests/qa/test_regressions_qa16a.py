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


# -- rsqrt of float16 / bfloat16: PyTorch's scalar loop (each row's tail past whole vectors)
# rounds sqrt to 16 bits before the reciprocal -------------------------------------------------

@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("n", [5, 37, 100, 150, 600, 70000])
@pytest.mark.parametrize("fn", ["rsqrt", "rsqrt_", "pow"])
def test_half_rsqrt_rounds_its_scalar_tail_twice(dtype, n, fn):
    def program(L):
        g = np.random.default_rng(n)
        x = L.tensor(np.abs(g.standard_normal(n)) * 3 + 0.01, dtype=getattr(L, dtype))
        views = [x, x[1::3], x[: n - n % 5].view(-1, 5).t()]
        return [v.clone().rsqrt_() if fn == "rsqrt_" else v ** -0.5 if fn == "pow"
                else v.rsqrt() for v in views]
    _same_bits(program)


# -- SiLU: PyTorch's x / (1 + exp(-x)) and its backward (g s) fma(x, 1 - s, 1), Sleef's exp
# in the compiled loops (to the bit), the correctly rounded one below _jit.MIN_SIZE ------------

def _silu_program(n, dtype):
    def program(L):
        g = np.random.default_rng(n)
        a = g.standard_normal(n) * 5
        a[:4] = [np.nan, np.inf, -np.inf, -100.0]
        x = L.tensor(a, dtype=getattr(L, dtype), requires_grad=True)
        y = L.nn.functional.silu(x)
        y.backward(L.tensor(g.standard_normal(n), dtype=x.dtype))
        return [y, x.grad]
    return program


@pytest.mark.parametrize("n", [70000, 100003])
def test_silu_compiled_loop_gives_pytorchs_bits(n):
    pytest.importorskip("numba")
    _same_bits(_silu_program(n, "float32"))


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
@pytest.mark.parametrize("n", [37, 5000])
def test_silu_forward_and_backward_below_the_compiled_size(dtype, n):
    ours, theirs = same_errors(_silu_program(n, dtype))
    for a, b in zip(ours[1], theirs[1], strict=True):
        assert str(a.dtype) == str(b.dtype)
        np.testing.assert_allclose(np.asarray(a.detach().double().tolist()),
                                   b.detach().double().numpy(),  # (the backward's 1 + x (1 - s)
                                   rtol={"float32": 1e-6, "float64": 1e-14}.get(dtype, 8e-3),
                                   atol={"float32": 1e-7, "float64": 1e-15}.get(dtype, 0))  # cancels)


# -- float32 softmax over the last dim from _jit.MIN_SIZE elements: Sleef's expf, the sum by
# vector lanes then halving shuffles, times 1 / sum (PyTorch's bits) -----------------------------

@pytest.mark.parametrize("shape", [(4000, 17), (2, 3, 128, 128), (8, 8200), (9000, 15),
                                   (65536, 1), (300, 257)])
def test_float32_softmax_compiled_rows_give_pytorchs_bits(shape):
    pytest.importorskip("numba")

    def program(L):
        a = np.random.default_rng(1).standard_normal(shape).reshape(-1, shape[-1]) * 3
        a[0, 0], a[1], a[2, 0] = np.nan, -np.inf, np.inf
        x = L.tensor(a.reshape(shape), dtype=L.float32)
        return [x.softmax(-1), L.nn.functional.softmax(x.half(), -1, dtype=L.float32)]
    _same_bits(program)
