"""float32 GELU as oneDNN's avx512_core kernel computes it, which PyTorch calls for the GELU
(approximate='none') of a contiguous float32 / bfloat16 tensor of 2 or more elements on a CPU
with AVX-512 (below that ISA oneDNN takes Abramowitz & Stegun's erf, as kernels/activation.py).

erf(x / sqrt(2)) is piecewise polynomial in a = |x|: 25 degree-5 minimax polynomials, the
piece chosen by the exponent and two leading mantissa bits of a (pieces 1..22 from a ~ 0.11
to 5.54; 23 is the constant 1, past 5.54, also for inf, where 0 * inf makes the result NaN as
PyTorch's; 24 is a itself, reached by NaN only), evaluated by Horner's rule in fused
multiply-adds; gelu = x (1 + sign(x) p(a)) / 2."""
import numpy as np

# the polynomials' coefficients (float32 bits), by degree 0..5, each row over pieces 0..24
_COEFFS = (
    (0xa6f2cb94, 0x32827792, 0x3381cc0c, 0x34523d4a, 0x351ac44d, 0x35f36d88, 0x36ee8229,
     0x37b8a3bb, 0x3867a213, 0x3940033b, 0x3a2a5a1d, 0x3ae35863, 0x3b7828f2, 0x3c08b14b,
     0x3c515ed3, 0xbb503236, 0xbd8d8e5e, 0xbe8abcd9, 0xbf0c19a2, 0xbeccb328, 0x3e176ced,
     0x3f470d99, 0x3f7abb28, 0x3f800000, 0),
    (0x3f4c422a, 0x3f4c421f, 0x3f4c4207, 0x3f4c41cb, 0x3f4c413b, 0x3f4c3fad, 0x3f4c3a2f,
     0x3f4c2d40, 0x3f4c146a, 0x3f4bc341, 0x3f4ad08c, 0x3f48f8cf, 0x3f45fac7, 0x3f404e07,
     0x3f3b980f, 0x3f48dff3, 0x3f78b21b, 0x3fbb0704, 0x40019c32, 0x3fe536d6, 0x3f81331e,
     0x3e6c8684, 0x3c98f936, 0, 0x3f800000),
    (0xb62173f4, 0x3735e4cf, 0x37f2ff89, 0x388c23be, 0x3917535c, 0x39ab2ab0, 0x3a60fadb,
     0x3af9b960, 0x3b6e5491, 0x3c0a4ec5, 0x3ca5aa8c, 0x3d2138d9, 0x3d8737d4, 0x3ddfb660,
     0x3e0f27ab, 0x3d94004b, 0xbe0efdeb, 0xbf1d96c3, 0xbf89db58, 0xbf6d9897, 0xbef69fb8,
     0xbdc4f8a8, 0xbbde6422, 0, 0),
    (0xbe081a19, 0xbe084570, 0xbe08639b, 0xbe089837, 0xbe08f409, 0xbe09ab95, 0xbe0b66d0,
     0xbe0e400a, 0xbe124df8, 0xbe1bde02, 0xbe2f19c9, 0xbe4931bf, 0xbe685fbc, 0xbe89c95f,
     0xbe96cbca, 0xbe8044aa, 0xbe0550f2, 0x3dcfd6a1, 0x3e94c826, 0x3e79345f, 0x3decec91,
     0x3ca46568, 0x3aa1e00a, 0, 0),
    (0xba3d61db, 0x39f097a3, 0x3a5845dc, 0x3ab1fa35, 0x3b0cefb8, 0x3b653ab6, 0x3bcae527,
     0x3c221712, 0x3c6c5840, 0x3cc0a703, 0x3d1dcc19, 0x3d63656d, 0x3d955907, 0x3dbf9910,
     0x3dd53f69, 0x3db7dcef, 0x3d639ebe, 0xba6ede48, 0xbd22be69, 0xbd041cf1, 0xbc64f5ab,
     0xbb097a32, 0xb8ebf380, 0, 0),
    (0x3cb7d80c, 0x3c9b6050, 0x3c978d11, 0x3c92e850, 0x3c8d058b, 0x3c848454, 0x3c6cd623,
     0x3c4c824b, 0x3c2a7935, 0x3be0b390, 0x3b0651ac, 0xbb232f53, 0xbbd42fa0, 0xbc2c5366,
     0xbc492c9e, 0xbc2a7aa6, 0xbbd55d04, 0xba823a76, 0x3b102aa8, 0x3ae25a7e, 0x3a31f792,
     0x38b84375, 0x3689bb5a, 0, 0),
)
COEFFS = np.array(_COEFFS, np.uint32).view(np.float32)  # (degree, piece)
INDEX_BIAS = np.int32(np.uint32(0xc21fffff).view(np.int32))  # added to a's bits, then >> 21
RBOUND = np.uint32(0x40b15cee).view(np.float32)  # past it: piece 23 (erf = 1)
FIRST, ONE_PIECE, LAST = 1, 23, 24
_BLOCK = 1 << 16


def piece(a_bits):
    """The polynomial of |x| from its int32 bits (an array)."""
    return np.clip((a_bits + INDEX_BIAS) >> 21, FIRST, LAST)


def gelu_blocks(xf, of):
    """of = gelu(xf), 1-D float32, block by block (NumPy; the Horner steps in float64, each
    rounded to float32: a fused multiply-add but for a rare double rounding)."""
    m = max(1, min(_BLOCK, xf.size))
    with np.errstate(all="ignore"):  # (inf and NaN give NaN, silently)
        for i in range(0, xf.size, m):
            _gelu_block(xf[i:i + m], of[i:i + m])


def _gelu_block(x, out):
    xi = x.view(np.int32)
    a_bits = xi & np.int32(0x7FFFFFFF)
    a = a_bits.view(np.float32)
    k = piece(a_bits)
    k[a > RBOUND] = ONE_PIECE
    a64 = a.astype(np.float64)
    p = COEFFS[5].take(k)
    for degree in range(4, -1, -1):
        p = (p * a64 + COEFFS[degree].take(k)).astype(np.float32)
    pi = p.view(np.int32)
    np.bitwise_xor(pi, xi & np.int32(-1 << 31), out=pi)  # sign(x) erf(|x| / sqrt(2))
    np.add(p, np.float32(1), out=p)
    np.multiply(x, p, out=out)
    np.multiply(out, np.float32(0.5), out=out)
