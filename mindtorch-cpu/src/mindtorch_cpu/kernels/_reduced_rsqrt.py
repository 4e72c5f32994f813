"""1 / sqrt(x) of float16 / bfloat16 as PyTorch's two code paths compute it
(kernels/_vector_loop.py tells which elements take which): the vector path converts to
float32 and rounds the result once; the scalar loop works in c10's 16-bit arithmetic,
rounding sqrt(x) to the 16-bit type before dividing 1 by it and rounding again.  rsqrt runs
its AVX2 kernel on AVX-512 machines (32 halves per step), bfloat16's pow(x, -0.5) its
AVX-512 one (64)."""
import numpy as np

from ._vector_loop import scalar_loop_mask


def reduced_rsqrt(a, avx512_kernel):
    """rsqrt of a float16 / bfloat16 array a, in a's dtype."""
    a = np.asarray(a)
    x = a.astype(np.float32)
    with np.errstate(all="ignore"):
        r = np.asarray(np.reciprocal(np.sqrt(x)).astype(a.dtype))
        scalar = scalar_loop_mask(a, avx512_kernel) if a.ndim else np.ones((), bool)
        if scalar.any():
            root = np.sqrt(x[scalar]).astype(a.dtype).astype(np.float32)
            r[scalar] = np.reciprocal(root).astype(a.dtype)
    return r
