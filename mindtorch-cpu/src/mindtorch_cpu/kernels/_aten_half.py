"""ATen's float32 arithmetic order in its 16-bit (float16 / bfloat16) CPU kernels, so that
their results round to the same 16-bit values: the lane order of the vectorized row
reductions (AVX2: a 16-element vector of halves is two 8-lane float32 vectors) and the
fused multiply-adds the compiler forms from `acc + p * q` (PyTorch's build contracts them).
Everything here works on float32 NumPy arrays, a row per reduction."""
import numpy as np

from ._box_muller import fma32

f32 = np.float32
LANES = 8  # float32 lanes of an AVX2 vector (PyTorch's CPU capability here)


def _tree(v):
    """The shuffle reduction of one vector of lanes: (l0+l4)+(l2+l6) + (l1+l5)+(l3+l7)."""
    v = v[:, :4] + v[:, 4:]
    v = v[:, :2] + v[:, 2:]
    return v[:, 0] + v[:, 1]


def _in_order(v):
    acc = v[:, 0].copy()
    for i in range(1, v.shape[1]):
        acc += v[:, i]
    return acc


def row_sum(p, q=None, short_tree=False):
    """sum(p * q) over the last axis of (rows, n) float32 arrays (q broadcasts; q=None:
    sum(p)), as vec::map*_reduce_all over 16-bit data: two 8-lane accumulators over blocks
    of 16, the product fused into the accumulation, a partial last block in the first
    lanes, then the two accumulators added and the lanes reduced by shuffles.  Rows
    shorter than 16: the second half's products fused into the first's, then the lanes in
    order (short_tree: by shuffles, as layer norm's hand-written float-weight loop)."""
    rows, n = p.shape
    if q is None:
        q = f32(1)
    p, q = np.broadcast_to(p, (rows, n)), np.broadcast_to(q, (rows, n))
    w = 2 * LANES
    if n < w:
        if n <= LANES:
            return _in_order(p * q)
        acc = p[:, :LANES] * q[:, :LANES]
        acc[:, :n - LANES] = fma32(p[:, LANES:], q[:, LANES:], acc[:, :n - LANES])
        return _tree(acc) if short_tree else _in_order(acc)
    full = n - n % w
    pb = p[:, :full].reshape(rows, -1, 2, LANES)
    qb = q[:, :full].reshape(rows, -1, 2, LANES)
    acc = pb[:, 0] * qb[:, 0]
    for k in range(1, pb.shape[1]):
        acc = fma32(pb[:, k], qb[:, k], acc)
    rest = n - full
    if rest:
        t = min(rest, LANES)
        acc[:, 0, :t] = fma32(p[:, full:full + t], q[:, full:full + t], acc[:, 0, :t])
        if rest > LANES:
            acc[:, 1, :rest - LANES] = fma32(p[:, full + LANES:], q[:, full + LANES:],
                                             acc[:, 1, :rest - LANES])
    return _tree(acc[:, 0] + acc[:, 1])


def _split(a, full):
    """(N, C, L) -> its whole 16-element blocks as (steps, C, 8) in accumulation order,
    and the rest as (steps, C)."""
    n, c = a.shape[:2]
    return (a[:, :, :full].reshape(n, c, -1, LANES).transpose(0, 2, 1, 3).reshape(-1, c, LANES),
            a[:, :, full:].transpose(0, 2, 1).reshape(-1, c))


def plane_sum(p, q=None, fused=(True, True)):
    """Per channel sum(p * q) of (N, C, L) float32 arrays (q=None: sum(p)) as batch norm's
    16-bit CPU kernels add a channel's planes: one 8-lane accumulator over whole 16-element
    blocks (their two halves in turn, plane after plane), the rest in a scalar, then the
    lanes added in order to it.  fused: whether the products are fused into the vector
    and the scalar accumulations (PyTorch's builds differ by kernel and dtype)."""
    _, c, length = p.shape
    full = length - length % (2 * LANES)
    ps, qs = _split(p, full), None if q is None else _split(q, full)
    sums = []
    for k, zero in enumerate((np.zeros((c, LANES), f32), np.zeros(c, f32))):
        a = ps[k]
        if not len(a):
            sums.append(zero)
        elif qs is not None and fused[k]:
            for i in range(len(a)):
                zero = fma32(a[i], qs[k][i], zero)
            sums.append(zero)
        else:  # (add.accumulate adds in order)
            sums.append(np.add.accumulate(a if qs is None else a * qs[k], axis=0)[-1])
    return sums[1] + _in_order(sums[0])
