"""PyTorch's CPU summation order for a contiguous inner reduction of doubles (ATen's
cascade_sum: vectorized_inner_sum / row_sum / multi_row_sum), so that sums feeding random
samples (Dirichlet's normalisation) round exactly as PyTorch's."""
import numpy as np


def _multi_row_sum(x):
    """ATen's cascade over axis 1 of x: 4 accumulator levels, each level_step additions
    folded into the next."""
    size = x.shape[1]
    power = max(4, ((size - 1).bit_length() if size > 2 else 1) // 4)
    step, mask = 1 << power, (1 << power) - 1
    acc = [np.zeros(x.shape[:1] + x.shape[2:]) for _ in range(4)]
    i = 0
    while i + step <= size:
        for _ in range(step):
            acc[0] = acc[0] + x[:, i]
            i += 1
        for j in range(1, 4):
            acc[j], acc[j - 1] = acc[j] + acc[j - 1], 0 * acc[j]
            if i & (mask << (j * power)):
                break
    for k in range(i, size):
        acc[0] = acc[0] + x[:, k]
    return acc[0] + acc[1] + acc[2] + acc[3]


def _row_sum(x):
    """ATen's row_sum along axis 1: four interleaved cascades, the leftovers, then the
    four partial sums."""
    size = x.shape[1]
    n = size // 4
    parts = _multi_row_sum(x[:, :4 * n].reshape(x.shape[0], n, 4, *x.shape[2:]))
    total = parts[:, 0]
    for k in range(4 * n, size):
        total = total + x[:, k]
    return total + parts[:, 1] + parts[:, 2] + parts[:, 3]


def sum_last(a, width):
    """a.sum(-1) of a float64 array in the order of PyTorch's CPU sum kernel (contiguous
    inner reduction): whole SIMD vectors (`width` doubles: 4 for AVX2, 8 for AVX512)
    lane by lane, then the leftover elements, then the lanes."""
    if not a.size:
        return a.sum(-1)
    rows = a.reshape(-1, a.shape[-1])
    k = rows.shape[1]
    if k < width:
        return _row_sum(rows).reshape(a.shape[:-1])
    n = k // width
    lanes = _row_sum(rows[:, :n * width].reshape(-1, n, width))
    total = np.zeros(rows.shape[0])
    for j in range(n * width, k):
        total = total + rows[:, j]
    for j in range(width):
        total = total + lanes[:, j]
    return total.reshape(a.shape[:-1])
