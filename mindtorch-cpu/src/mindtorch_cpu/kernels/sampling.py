"""Kernels for ops whose decompositions are long chains of small ops: embedding_bag (every
bag at once, instead of index_add / scatter_reduce chains; results and auxiliary outputs as
the decomposition in mindtorch._ops.decls.layers_embedding, PyTorch's cpu kernel: each bag
summed in order from zero, max keeping a bag's first row and taking a later one only where
it is greater, so a NaN counts only as a bag's first row) and grid_sampler_2d with its
backward (kernels/_grid_numpy.py); cdist's matrix-product form."""

import numpy as np
from mindtorch import _dtype as D
from mindtorch._ops.decls import linalg_norms as N
from mindtorch._ops.decls import sampling as S
from mindtorch._ops.decls.layers_embedding import _index_dtype, embedding_bag_plan

from .._np import arr, wrap
from . import _grid_numpy
from ._jit import compiled
from .sorting import _replay_ties


def _check_values(idx, off, n_rows, fast, off_dtype):
    """The checks of embedding_bag_plan that read index values, in its order."""
    n = idx.size
    if off.size:
        if off[0] != 0:
            raise RuntimeError(f"offsets[0] has to be 0, i.e., the first sequence in the "
                               f"mini-batch has to start from position 0. However, got {off[0]}"
                               f"\n[ torch.{D.scalar_type_name(off_dtype)}Tensor{{}} ]")
        if off[-1] > n:
            raise RuntimeError(f"offsets[-1] can not be greater than input's length {n} but "
                               f"got offsets[-1] of {off[-1]}")
        if not fast and ((off < 0).any() or (off > n).any()):
            raise IndexError("index out of range in self")
        if (off[1:] < off[:-1]).any():
            raise RuntimeError("embedding_bag: offsets have to be non-decreasing")
    bad = (idx < 0) | (idx >= n_rows)
    if bad.any():
        pos = int(bad.argmax())
        raise RuntimeError(f"Index {pos} of input takes value {idx[pos]} which is not in the "
                           f"valid range [0, {n_rows})")


def _segments(rows, starts, counts, ufunc):
    """ufunc.reduceat over each bag's rows (in order); empty bags give 0."""
    full = counts > 0
    r = np.zeros((counts.size,) + rows.shape[1:], rows.dtype)
    if rows.shape[0]:
        r[full] = ufunc.reduceat(rows, starts[full], axis=0)
    return r


def _slots(kidx, kbag, starts, counts):
    """The bags side by side: (slot, hole), (longest, bags) arrays of the positions in
    kidx of each bag's j-th row and where a bag is shorter (None: none is); None when bags
    are of very different lengths (the block would be mostly holes)."""
    bags, longest, n = counts.size, int(counts.max(initial=0)), len(kidx)
    if bags * longest > 4 * n + 64 or longest > 256:
        return None
    if bags * longest == n:  # every bag as long
        return np.arange(n).reshape(bags, longest).T, None
    at = (np.arange(n) - starts[kbag], kbag)
    slot = np.zeros((longest, bags), np.int64)
    slot[at] = np.arange(n)
    hole = np.ones((longest, bags), bool)
    hole[at] = False
    return slot, hole


def _bag_sums(w, kidx, scale, kbag, slots, bags, fused=True):
    """Each bag's rows w[kidx] (times scale, per_sample_weights or None) summed one after
    another from zero, as PyTorch's loop (NumPy's reduceat pairs them up): a (longest,
    bags, d) block of the bags side by side (gathered from w at once), short bags padded with zero rows (x + 0 is x; the sum
    starts at zero, so never -0), added one slice after another; without slots, np.add.at
    (same order, slower).  Scaled rows are PyTorch's fused multiply-adds: emulated in
    float64 (a float32 product is exact there), each sum rounded; fused=False: products
    and sums rounded apart (PyTorch's loop without fbgemm, when padding_idx is given)."""
    dtype = w.dtype
    wide = np.float64 if fused and scale is not None and dtype.itemsize < 8 else dtype
    if scale is not None:
        scale = scale.astype(wide)
    out = np.zeros((bags, w.shape[1]), wide)
    if slots is None:
        rows = np.take(w, kidx, axis=0).astype(wide, copy=False)
        if dtype != rows.dtype:
            for i, b in enumerate(kbag):
                out[b] = (out[b] + rows[i] * scale[i]).astype(dtype)
        else:
            np.add.at(out, kbag, rows if scale is None else rows * scale[:, None])
        return out.astype(dtype, copy=False)
    slot, hole = slots
    if hole is not None and hole.size > 2 * len(kidx):  # (mostly holes: short bags)
        return _bag_sums_by_round(w, kidx, scale, slot, hole, out, dtype)
    block = np.take(w, kidx[slot], axis=0).astype(wide, copy=False)
    if scale is not None:
        block *= np.take(scale, slot)[:, :, None]
    if hole is not None:
        block[hole] = 0
    for j in range(len(block)):
        out += block[j]
        if dtype != out.dtype:
            out = out.astype(dtype).astype(out.dtype)
    return out.astype(dtype, copy=False)


def _bag_sums_by_round(w, kidx, scale, slot, hole, out, dtype):
    """_bag_sums' slices added only where bags have a j-th row (the bags still that long
    in round j), not as a block padded with zero rows: the same sums (from zero, a sum
    is never -0, so skipping a zero row changes nothing), without gathering the holes."""
    for j in range(len(slot)):
        live = np.flatnonzero(~hole[j])
        at = slot[j, live]
        rows = np.take(w, kidx[at], axis=0).astype(out.dtype, copy=False)
        if scale is not None:
            rows = rows * scale[at][:, None]
        total = out[live] + rows
        out[live] = total.astype(dtype) if dtype != out.dtype else total
    return out.astype(dtype, copy=False)


def _bf16_half_up(x):
    """float32 -> bfloat16 with ties away from zero (fbgemm's unweighted bfloat16 bags:
    the bits plus 0x8000, truncated), where NumPy rounds ties to even."""
    bits = (x.view(np.uint32) + np.uint32(0x8000)) & np.uint32(0xFFFF0000)
    return np.where(np.isnan(x), x, bits.view(np.float32)).astype(D.bfloat16.np)


def _bag_max(w, kidx, kbag, starts, counts, slots):
    """Each bag's maximum and the weight row it came from, as PyTorch's loop: the first
    row kept, a later one taken where greater (so a NaN wins only as the first row)."""
    bags = counts.size
    if not len(kidx):
        z = np.zeros((bags, w.shape[1]), w.dtype)
        return z, z.astype(np.int64)
    if slots is not None:
        slot, hole = slots
        block = np.take(w, kidx[slot], axis=0)
        later = block[1:]  # a later row's NaN never wins: -inf there (and in holes)
        later[np.isnan(later)] = -np.inf
        if hole is not None:
            block[hole] = -np.inf
        out = np.maximum.reduce(block, axis=0)
        hit = block == out
        hit[0] |= np.isnan(out)
        j = np.argmax(hit, axis=0)  # the first row holding the maximum
        bi, di = np.nonzero(out == 0)  # -0 or 0: the first one's sign
        out[bi, di] = block[j[bi, di], bi, di]
        empty = counts == 0
        out[empty] = 0
        return out, np.where(empty[:, None], 0, kidx[slot[j, np.arange(len(out))[:, None]]])
    rows = np.take(w, kidx, axis=0)
    later = np.ones(len(rows), bool)  # a later row's NaN never wins: -inf there
    later[starts[counts > 0]] = False
    rows = np.where(np.isnan(rows) & later[:, None], -np.inf, rows)
    out = _segments(rows, starts, counts, np.maximum)
    best = out[kbag]  # the first row holding each bag's maximum
    hit = (rows == best) | (np.isnan(rows) & np.isnan(best))
    first = _segments(np.where(hit, np.arange(len(rows))[:, None], len(rows)), starts, counts,
                      np.minimum)
    return out, np.where(counts[:, None] > 0, kidx[np.minimum(first, len(rows) - 1)], 0)


def embedding_bag(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False,
                  per_sample_weights=None, include_last_offset=False, padding_idx=None):
    bags, pad = embedding_bag_plan(weight, indices, offsets, mode, per_sample_weights,
                                   include_last_offset, padding_idx, values=False)
    fbgemm = pad < 0 and weight._stride[1] == 1 and (  # (PyTorch's fbgemm path)
        per_sample_weights is None or per_sample_weights._stride[0] == 1)
    fast = mode == 0 and fbgemm and weight.dtype is not D.float64
    w, idx, off = arr(weight), arr(indices).astype(np.int64), arr(offsets).astype(np.int64)
    _check_values(idx, off, weight._shape[0], fast, _index_dtype(indices, offsets))
    n = idx.size
    # each index's bag: the last offset at or before it (make_offset2bag's counts)
    bag = np.maximum(np.searchsorted(off[:bags], np.arange(n), "right") - 1, 0)
    keep = idx != pad if pad >= 0 else None
    if not bags:  # (include_last_offset with one offset: no bag, no index read)
        keep = np.zeros(n, bool)
    kidx, kbag = (idx, bag) if keep is None else (idx[keep], bag[keep])
    counts = np.bincount(kbag, minlength=bags)[:bags]
    starts = np.searchsorted(kbag, np.arange(bags))
    slots = _slots(kidx, kbag, starts, counts)
    if mode == 2:
        out, max_indices = _bag_max(w, kidx, kbag, starts, counts, slots)
    else:
        psw = None if per_sample_weights is None else arr(per_sample_weights)
        half = weight.dtype in (D.float16, D.bfloat16)  # (summed in float32, as PyTorch)
        half = weight.dtype in (D.float16, D.bfloat16)  # (summed in float32, as PyTorch)
        with np.errstate(over="ignore", invalid="ignore"):
            out = _bag_sums(w.astype(np.float32) if half else w, kidx,
                            psw if keep is None or psw is None else psw[keep], kbag,
                            slots, bags, fused=fbgemm)
            out = _bf16_half_up(out) if weight.dtype is D.bfloat16 and psw is None and \
                fbgemm else out.astype(w.dtype)
            if mode == 1:
                out = out / np.maximum(counts, 1)[:, None].astype(w.dtype)
    out = wrap(np.ascontiguousarray(out, dtype=w.dtype), weight.dtype)
    idt = _index_dtype(indices, offsets)
    offset2bag = np.empty(0, np.int64) if fast else bag
    if mode == 0:
        size = offsets._shape[0] if include_last_offset and not weight._requires_grad else bags
        bag_size = np.zeros(size, np.int64)
    else:
        bag_size = counts
    if mode != 2:
        max_indices = bag_size.copy()
    return out, wrap(offset2bag.astype(idt.np), idt), wrap(bag_size.astype(idt.np), idt), \
        wrap(np.ascontiguousarray(max_indices, dtype=idt.np), idt)


def _embedding_bag_dense_backward(grad, indices, offset2bag, bag_size, maximum_indices,
                                  num_weights, scale_grad_by_freq, mode,
                                  per_sample_weights=None, padding_idx=-1):
    """PyTorch's loop: each weight row's gradients added in the order of its unstable
    sort of the indices (std::sort, replayed), each as an axpy with its scale rounded to
    the gradient's dtype (per_sample_weight, / count with scale_grad_by_freq, / bag size
    for mean, in double), grouped (np.add.at costs several times more)."""
    g = arr(grad)
    d, bags = g.shape[1], g.shape[0]
    out = np.zeros((num_weights, d), g.dtype)
    idx = arr(indices).reshape(-1).astype(np.int64)
    if mode == 2:
        rows = np.where(arr(bag_size)[:, None] > 0, g, 0)
        np.add.at(out.reshape(-1), (arr(maximum_indices) * d + np.arange(d)).reshape(-1),
                  rows.reshape(-1))
        return wrap(out, grad.dtype)
    if not idx.size or not bags:
        return wrap(out, grad.dtype)
    at = np.minimum(arr(offset2bag).astype(np.int64), bags - 1)
    with np.errstate(all="ignore"):
        rows = np.where((idx != padding_idx)[:, None], g[at], g.dtype.type(0))
        scale = np.ones(idx.size) if per_sample_weights is None else \
            arr(per_sample_weights).astype(np.float64)
        order = np.argsort(idx, kind="stable")
        if idx.size < 32768:  # (torch's radix sort from there on is stable; a training
            _replay_ties(indices, idx, order, 0, compile_from=128)  # loop: load numba early)
        target, first, counts = np.unique(idx[order], return_index=True, return_counts=True)
        rank = np.repeat(np.arange(len(target)), counts)
        if scale_grad_by_freq:  # (PyTorch's divisor of the g-th distinct index: the count
            # of the g-th sorted one, not always its own: layers_embedding._bag_freq_divisor)
            scale = scale / np.repeat(counts, counts)[rank][np.argsort(order)]
        if mode == 1:
            size = arr(bag_size).astype(np.float64)[at]
            scale = np.where(size != 0, scale / size, scale)
        fused = per_sample_weights is not None or scale_grad_by_freq or mode == 1
        scale = scale[order].astype(g.dtype) if fused else None
        out[target] = _bag_sums(rows, order, scale, rank, _slots(order, rank, first, counts),
                                len(target), fused=g.dtype.itemsize >= 4)  # (16-bit: rounded apart)
    return wrap(out, grad.dtype)


_GRID_DTYPES = (D.float32, D.float64)  # (16-bit types: the decomposition, rounding each step)


def grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners):
    if input.dtype not in _GRID_DTYPES or \
            S.check_grid_sampler(input, grid, interpolation_mode):
        return S._grid_sampler_nd(input, grid, interpolation_mode, padding_mode, align_corners)
    x, g = arr(input), arr(grid)
    taps = 16 if interpolation_mode == 2 else 4
    jit = compiled("_grid_loops", taps * x.shape[0] * x.shape[1] * g.shape[1] * g.shape[2])
    if jit is None:
        return wrap(_grid_numpy.forward(x, g, interpolation_mode, padding_mode, align_corners),
                    input.dtype)
    out = np.empty(x.shape[:2] + g.shape[1:3], x.dtype)
    if interpolation_mode == 2:
        jit.forward_bicubic(x, g, padding_mode, bool(align_corners), out)
    else:
        jit.forward(x, g, interpolation_mode, padding_mode, bool(align_corners),
                    _grid_numpy.fused_sums(), out)
    return wrap(out, input.dtype)


def grid_sampler_2d_backward(grad_output, input, grid, interpolation_mode, padding_mode,
                             align_corners):
    if input.dtype not in _GRID_DTYPES or grad_output.dtype is not input.dtype or \
            grid.dtype is not input.dtype or not grad_output.numel():
        return S._grid_sampler_nd_backward(grad_output, input, grid, interpolation_mode,
                                           padding_mode, align_corners)
    gout, x, g = arr(grad_output), arr(input), arr(grid)
    jit = compiled("_grid_loops", 4 * gout.size) if interpolation_mode != 2 else None
    if jit is None:
        gi, gg = _grid_numpy.backward(gout, x, g, interpolation_mode, padding_mode,
                                      align_corners)
        return wrap(gi, input.dtype), wrap(gg, grid.dtype)
    gi, gg = np.zeros(x.shape), np.zeros(g.shape, g.dtype)
    jit.backward(gout, x, g, interpolation_mode, padding_mode, bool(align_corners), gi, gg)
    return wrap(gi.astype(x.dtype), input.dtype), wrap(gg, grid.dtype)


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """p = 2 distances by the matrix product (the decomposition's _euclidean_dist steps in
    a few NumPy calls, not ~10 ops); every other case (and every check) decomposes."""
    matrices = x1.ndim >= 2 and x2.ndim >= 2  # (else the decomposition's error)
    mm = matrices and N._uses_mm(compute_mode, x1._shape[-2], x2._shape[-2])
    if not (p == 2 and mm and x1.numel() and x2.numel()
            and x1._shape[-1] == x2._shape[-1] and x1.dtype is x2.dtype
            and x1.dtype in _GRID_DTYPES):
        return N._cdist(x1, x2, p, compute_mode)
    a, b = arr(x1), arr(x2)
    n1, n2 = (np.add.reduce(v * v, axis=-1, keepdims=True) for v in (a, b))
    left = np.concatenate([a * a.dtype.type(-2), n1, np.ones_like(n1)], -1)
    right = np.concatenate([b, np.ones_like(n2), n2], -1)
    r = np.matmul(left, np.swapaxes(right, -1, -2))
    return wrap(np.sqrt(np.maximum(r, 0, out=r), out=r), x1.dtype)


KERNELS = {"cdist": cdist, "embedding_bag": embedding_bag,
           "_embedding_bag_dense_backward": _embedding_bag_dense_backward, "grid_sampler_2d": grid_sampler_2d,
           "grid_sampler_2d_backward": grid_sampler_2d_backward}
