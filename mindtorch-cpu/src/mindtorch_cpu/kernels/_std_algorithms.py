"""libstdc++'s std::sort, std::nth_element and std::partial_sort as GCC implements them, in
Python, on a list of (key, index) pairs ordered by `less` on keys: replayed where torch's
CPU results depend on the order they leave equal keys in (sorting.py; only rows with ties).
_sort_loops.py holds the compiled std::sort for large work."""


def _swap(v, i, j):
    v[i], v[j] = v[j], v[i]


def _median_to_first(v, result, a, b, c, less):
    if less(v[a][0], v[b][0]):
        if less(v[b][0], v[c][0]):
            _swap(v, result, b)
        elif less(v[a][0], v[c][0]):
            _swap(v, result, c)
        else:
            _swap(v, result, a)
    elif less(v[a][0], v[c][0]):
        _swap(v, result, a)
    elif less(v[b][0], v[c][0]):
        _swap(v, result, c)
    else:
        _swap(v, result, b)


def _partition_pivot(v, first, last, less):
    """__unguarded_partition_pivot: median of three moved to first, Hoare partition."""
    _median_to_first(v, first, first + 1, first + (last - first) // 2, last - 1, less)
    pivot, lo, hi = v[first][0], first + 1, last
    while True:
        while less(v[lo][0], pivot):
            lo += 1
        hi -= 1
        while less(pivot, v[hi][0]):
            hi -= 1
        if not lo < hi:
            return lo
        _swap(v, lo, hi)
        lo += 1


def _linear_insert(v, last, less):
    value = v[last]
    while less(value[0], v[last - 1][0]):
        v[last] = v[last - 1]
        last -= 1
    v[last] = value


def _insertion_sort(v, first, last, less):
    for i in range(first + 1, last):
        if less(v[i][0], v[first][0]):
            v[first + 1:i + 1], v[first] = v[first:i], v[i]
        else:
            _linear_insert(v, i, less)


def _adjust_heap(v, first, hole, length, value, less):
    top = child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(v[first + child][0], v[first + child - 1][0]):
            child -= 1
        v[first + hole] = v[first + child]
        hole = child
    if not length & 1 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        v[first + hole] = v[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and less(v[first + parent][0], value[0]):
        v[first + hole] = v[first + parent]
        hole, parent = parent, (parent - 1) // 2
    v[first + hole] = value


def _heap_select(v, first, middle, last, less):
    length = middle - first
    for parent in range((length - 2) // 2, -1, -1) if length > 1 else ():
        _adjust_heap(v, first, parent, length, v[first + parent], less)
    for i in range(middle, last):
        if less(v[i][0], v[first][0]):
            value, v[i] = v[i], v[first]
            _adjust_heap(v, first, 0, length, value, less)


def _partial_sort(v, first, middle, last, less):
    _heap_select(v, first, middle, last, less)
    while middle - first > 1:
        middle -= 1
        value, v[middle] = v[middle], v[first]
        _adjust_heap(v, first, 0, middle - first, value, less)


def _std_sort(v, first, last, less):
    def loop(first, last, depth):
        while last - first > 16:
            if not depth:
                _partial_sort(v, first, last, last, less)
                return
            depth -= 1
            cut = _partition_pivot(v, first, last, less)
            loop(cut, last, depth)
            last = cut
    if last - first > 1:
        loop(first, last, 2 * ((last - first).bit_length() - 1))
        _insertion_sort(v, first, min(last, first + 16), less)
        for i in range(first + 16, last):
            _linear_insert(v, i, less)


def _nth_element(v, first, nth, last, less):
    depth = 2 * ((last - first).bit_length() - 1)
    while last - first > 3:
        if not depth:
            _heap_select(v, first, nth + 1, last, less)
            _swap(v, first, nth)
            return
        depth -= 1
        cut = _partition_pivot(v, first, last, less)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(v, first, last, less)
