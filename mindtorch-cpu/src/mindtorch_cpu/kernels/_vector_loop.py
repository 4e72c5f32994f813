"""Which elements of a unary op's result ATen's cpu_kernel_vec computes in its scalar loop,
for kernels whose scalar and vector code give different values (complex sgn, ...).

vectorized_loop takes two vectors per step along each row TensorIterator hands it and
leaves the rest of the row (fewer than two vectors) to the scalar function; rows are the
coalesced inner dims (a dense tensor is one row in memory order) cut where the parallel
chunks of at::parallel_for (grain 32768, ceil(n / threads) elements each) end.  A row that
is not contiguous, and every element on DEFAULT, goes through the scalar loop."""
import numpy as np
from mindtorch._runtime import get_num_threads

from ._cpu_capability import vector_bytes

_GRAIN = 32768  # (at::internal::GRAIN_SIZE)


def scalar_loop_mask(a, avx512_kernel):
    """Boolean array of a's shape: True where the scalar loop computes the result of a
    unary kernel over a (`avx512_kernel`: the op registers an AVX-512 kernel)."""
    width = vector_bytes(avx512_kernel)
    order, row = _iteration(a)
    if width is None or not row:
        return np.ones(a.shape, bool)
    flat = _scalar_positions(a.size, row, 2 * width // a.dtype.itemsize)
    walked = tuple(a.shape[d] for d in order)
    return flat.reshape(walked).transpose(np.argsort(order))


def thread_chunk(n):
    """Elements per thread of a parallel loop over n (at::parallel_for's split: threads as
    GRAIN_SIZE allows, each an equal ceil share); n when it runs on one thread."""
    threads = get_num_threads()
    if n < _GRAIN or threads < 2:
        return n
    return -(-n // min(threads, -(-n // _GRAIN)))


_FEW_RUNS = 64


def _scalar_positions(n, row, block):
    """The scalar loop's share of n elements walked in rows of `row`, cut at the chunks."""
    chunk = thread_chunk(n)
    chunked = chunk < n
    if row == n and not chunked:  # (one row: its last n % block elements)
        flat = np.zeros(n, bool)
        flat[n - n % block:] = True
        return flat
    bounds = np.arange(0, n, row)
    if chunked:
        bounds = np.union1d(bounds, np.arange(0, n, chunk))
    ends = np.append(bounds[1:], n)
    tails = bounds + (ends - bounds) // block * block
    if len(bounds) <= _FEW_RUNS:  # (a slice each: cheaper than two bincounts and a cumsum)
        flat = np.zeros(n, bool)
        for start, end in zip(tails.tolist(), ends.tolist()):
            flat[start:end] = True
        return flat
    marks = np.bincount(tails, minlength=n + 1) - np.bincount(ends, minlength=n + 1)
    return np.cumsum(marks[:n]) > 0


def _iteration(a):
    """(order, row): a's dims outermost first as TensorIterator walks them (by decreasing
    stride; its result is allocated dense in that order) and the elements of each
    contiguous row it hands the loop (0: the inner dim is not contiguous)."""
    order = sorted(range(a.ndim), key=lambda d: (a.shape[d] != 1, -a.strides[d]))
    inner = [d for d in reversed(order) if a.shape[d] != 1]
    if not inner:
        return order, 1
    if a.strides[inner[0]] != a.itemsize:
        return order, 0
    row, span = 1, a.itemsize
    for d in inner:
        if a.strides[d] != span:
            break
        row, span = row * a.shape[d], span * a.shape[d]
    return order, row
