"""Regression tests for the AVX-512 round (h): results that must follow PyTorch on AVX2 and
AVX-512 machines alike, each against torch."""
import mindtorch
import numpy as np
import pytest
from reference import same_errors

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "int64", "int8"])
@pytest.mark.parametrize("args", [(300, 1, 1, 10.0), (40, 1, 1, 10.0), (3, 1, 1, -2.0),
                                  (-3.5, 7.25, 13, -2.0), (0.1, 2.9, 257, 0.0),
                                  (-40.7, 34.0, 1000, 10.0)])
def test_logspace_c_pow(args, dtype):
    # C's pow of double exponents (NumPy's float64 power differs in the last bit on
    # AVX-512); one step fill_s the double power (overflow checks, inf for float16)
    def program(lib):
        return [str(v) for v in lib.logspace(*args, dtype=getattr(lib, dtype)).tolist()]
    ours, theirs = same_errors(program)
    assert ours == theirs


_SPECIAL = [complex("inf"), complex("-inf"), complex(0, float("inf")), 3 + 4j, 0j,
            complex(-0.0, 2), complex(float("nan"), 1), complex(5, -12), complex(-0.0, -0.0)]


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("n", [1, 4, 8, 9, 16, 17, 33])
@pytest.mark.parametrize("layout", ["contiguous", "sliced", "transposed"])
def test_sgn_complex_vector_and_scalar_loops(dtype, n, layout):
    # sgn's vector loop (AVX-512 widths here) divides the parts by |z|; its scalar loop
    # (each row's last elements, fewer than two vectors) divides by complex(|z|, 0) as
    # c10::complex does: (inf+0j) -> nan+nanj there, -0 real parts become +0
    def program(lib):
        z = lib.tensor([_SPECIAL[i % len(_SPECIAL)] for i in range(3 * n)],
                       dtype=getattr(lib, dtype)).reshape(3, n)
        z = {"contiguous": z, "sliced": z[:, 1:], "transposed": z.t()}[layout]
        return str(lib.sgn(z).tolist())
    ours, theirs = same_errors(program)
    assert ours == theirs


@pytest.mark.parametrize("n", [1000, 70001])
def test_sgn_complex64_bits(n):
    # |z| is hypot (NumPy's complex abs differed from it on ~25% of inputs)
    rng = np.random.default_rng(0)
    z = (rng.standard_normal(n) * rng.choice([1e-3, 1, 1e5], n)
         + 1j * rng.standard_normal(n)).astype(np.complex64)
    np.testing.assert_array_equal(mindtorch.sgn(mindtorch.tensor(z)).numpy(),
                                  torch.sgn(torch.tensor(z)).numpy())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("S,pos", [(4, 0), (8, 3), (9, 8), (16, 0), (17, 16), (24, 15),
                                   (24, 16), (33, 31)])
def test_sdpa_flash_row_maximum_tail_lanes(dtype, S, pos):
    # a row of -inf scores but one NaN: 0 when the NaN is in the row maximum's scalar tail
    # (S % lanes, the lanes of the kernel PyTorch runs: AVX-512's here), NaN elsewhere
    def program(lib):
        q = lib.ones(1, 1, 1, 2, dtype=getattr(lib, dtype))
        k = lib.ones(1, 1, S, 2, dtype=q.dtype)
        k[0, 0, :, 0] = -float("inf")
        k[0, 0, pos, 0] = float("nan")
        return str(lib.nn.functional.scaled_dot_product_attention(q, k, lib.ones_like(k))
                   .tolist())
    ours, theirs = same_errors(program)
    assert ours == theirs


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("n", [5, 1000, 70001])
def test_complex_abs_bits(dtype, n):
    # |z| is hypot: SLEEF's (correctly rounded) on the vector loop, libm's on the scalar
    # tail; NumPy's complex abs differed from PyTorch on ~25% / ~40% of the elements
    rng = np.random.default_rng(1)
    z = (rng.standard_normal(n) * rng.choice([1e-3, 1, 1e5, 1e200], n)
         + 1j * rng.standard_normal(n)).astype(dtype)
    z[:3] = [complex("inf"), complex(float("nan"), 1), 0]
    for view in (lambda t: t, lambda t: t[1::2]):
        np.testing.assert_array_equal(mindtorch.abs(view(mindtorch.tensor(z))).numpy(),
                                      torch.abs(view(torch.tensor(z))).numpy())
