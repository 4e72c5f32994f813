"""libstdc++'s std::sort (introsort: median-of-three Hoare partitions to depth
2 floor(log2 n), heapsort past it, insertion sort of the 16-element runs) compiled, for
mode's tie-breaking (kernels/sorting.py replays the same algorithm in Python, on rows too
few to load numba for).  Sorts (key, index) pairs by key with `<`, as PyTorch's CPU mode
calls std::sort on them."""
import numba
import numpy as np

from ._compiled import _JIT


@numba.njit(inline="always")
def _swap(k, ix, a, b):
    k[a], k[b] = k[b], k[a]
    ix[a], ix[b] = ix[b], ix[a]


@numba.njit(inline="always")
def _median_to_first(k, ix, result, a, b, c):
    if k[a] < k[b]:
        if k[b] < k[c]:
            _swap(k, ix, result, b)
        elif k[a] < k[c]:
            _swap(k, ix, result, c)
        else:
            _swap(k, ix, result, a)
    elif k[a] < k[c]:
        _swap(k, ix, result, a)
    elif k[b] < k[c]:
        _swap(k, ix, result, c)
    else:
        _swap(k, ix, result, b)


@numba.njit
def _partition_pivot(k, ix, first, last):
    _median_to_first(k, ix, first, first + 1, first + (last - first) // 2, last - 1)
    pivot, lo, hi = k[first], first + 1, last
    while True:
        while k[lo] < pivot:
            lo += 1
        hi -= 1
        while pivot < k[hi]:
            hi -= 1
        if not lo < hi:
            return lo
        _swap(k, ix, lo, hi)
        lo += 1


@numba.njit(inline="always")
def _linear_insert(k, ix, last):
    vk, vi = k[last], ix[last]
    while vk < k[last - 1]:
        k[last], ix[last] = k[last - 1], ix[last - 1]
        last -= 1
    k[last], ix[last] = vk, vi


@numba.njit
def _insertion_sort(k, ix, first, last):
    for i in range(first + 1, last):
        if k[i] < k[first]:
            vk, vi = k[i], ix[i]
            for j in range(i, first, -1):
                k[j], ix[j] = k[j - 1], ix[j - 1]
            k[first], ix[first] = vk, vi
        else:
            _linear_insert(k, ix, i)


@numba.njit
def _adjust_heap(k, ix, first, hole, length, vk, vi):
    top = child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if k[first + child] < k[first + child - 1]:
            child -= 1
        k[first + hole], ix[first + hole] = k[first + child], ix[first + child]
        hole = child
    if not length & 1 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        k[first + hole], ix[first + hole] = k[first + child - 1], ix[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and k[first + parent] < vk:
        k[first + hole], ix[first + hole] = k[first + parent], ix[first + parent]
        hole, parent = parent, (parent - 1) // 2
    k[first + hole], ix[first + hole] = vk, vi


@numba.njit
def _partial_sort(k, ix, first, last):  # heap select of the whole range, then sort_heap
    length = last - first
    if length > 1:
        for parent in range((length - 2) // 2, -1, -1):
            _adjust_heap(k, ix, first, parent, length, k[first + parent], ix[first + parent])
    middle = last
    while middle - first > 1:
        middle -= 1
        vk, vi = k[middle], ix[middle]
        k[middle], ix[middle] = k[first], ix[first]
        _adjust_heap(k, ix, first, 0, middle - first, vk, vi)


@numba.njit
def std_sort(k, ix):
    n = len(k)
    if n < 2:
        return
    depth0 = 0  # 2 floor(log2 n)
    m = n
    while m > 1:
        m >>= 1
        depth0 += 2
    # the recursion of __introsort_loop on the right part, as an explicit stack
    stack = np.empty((2 * depth0 + 2, 3), np.int64)
    stack[0] = (0, n, depth0)
    top = 1
    while top:
        top -= 1
        first, last, depth = stack[top]
        while last - first > 16:
            if not depth:
                _partial_sort(k, ix, first, last)
                break
            depth -= 1
            cut = _partition_pivot(k, ix, first, last)
            # (loop(cut, last) runs before this range continues: its pieces are sorted
            # in place independently, so the order of the two does not matter)
            stack[top] = (cut, last, depth)
            top += 1
            last = cut
    _insertion_sort(k, ix, 0, min(n, 16))
    for i in range(16, n):
        _linear_insert(k, ix, i)


@numba.njit(**_JIT)
def mode_index(keys, rows, out):
    """For each row r in rows: the index PyTorch's CPU mode returns for keys[r] (the last
    element of the first longest run after std::sort; NaN never equal to NaN)."""
    n = keys.shape[1]
    k = np.empty(n, keys.dtype)
    ix = np.empty(n, np.int64)
    for r in rows:
        for i in range(n):
            k[i], ix[i] = keys[r, i], i
        std_sort(k, ix)
        best = freq = 0
        index = 0
        for i in range(n):
            freq += 1
            if i == n - 1 or k[i] != k[i + 1]:
                if freq > best:
                    best, index = freq, ix[i]
                freq = 0
        out[r] = index


@numba.njit(**_JIT)
def sort_rows(keys, out):
    """out[r]: the order std::sort leaves the (keys[r, i], i) pairs in, for every row r."""
    n = keys.shape[1]
    k = np.empty(n, keys.dtype)
    ix = np.empty(n, np.int64)
    for r in range(keys.shape[0]):
        for i in range(n):
            k[i], ix[i] = keys[r, i], i
        std_sort(k, ix)
        out[r] = ix
