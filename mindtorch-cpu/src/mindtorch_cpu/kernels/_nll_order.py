"""nll_loss's 'sum' / 'mean' in ATen's order of additions (so PyTorch's bits).

ATen adds the counted rows' terms in order into a first partial sum, moved into the next of
8 levels after each row that is a multiple of 16 (into the one after at multiples of 256,
...; so row 0 goes straight to the top level), then adds the levels in order; rows ignored
(ignore_index) move nothing.  Here exactly that, vectorized: a level's runs are summed in
order (np.add.accumulate), their sums the next level's items.  NumPy's own sum is pairwise
(8 lanes from 8 items): ~1 ulp off in float32 about every other loss.

plain_total serves a classifier's common call (every row counted, no weights, (N, C) with
N <= 256) with two accumulates over a per-shape layout (see _layout)."""
import numpy as np

from ._cascade import _in_order as _along

_LEVELS, _STEP = 8, 16  # (ATen's step is 16 below 2**40 rows)


def nll_sums(loss, valid, w):
    """(total loss, total weight) of nll_loss's counted rows in ATen's order: loss and w
    (None: each counted row weighs 1) hold a term per row (-input * weight; 0 where the row
    does not count), valid which rows count."""
    loss, valid = loss.reshape(-1), valid.reshape(-1)
    count = np.count_nonzero(valid)
    terms = loss if w is None else np.stack([loss, w.reshape(-1)], 1)
    if not count:
        total = np.zeros(terms.shape[1:], terms.dtype)
    elif count < len(valid):
        total = _cascade_counted(terms, valid)
    else:
        total = cascade_every_row(terms)
    if w is None:
        return total, loss.dtype.type(count)
    return total[0], total[1]


def _in_order(a):
    """a's sum over its first axis, ((a0 + a1) + a2) + ...: NumPy's float32/64 reduce adds
    in order below 8 items (its pairwise sum's first block), accumulate always (16-bit
    floats' reduce would add in float32, accumulate rounds each step)."""
    if len(a) < 2 or len(a) < 8 and a.dtype.itemsize >= 4:
        return np.add.reduce(a, axis=0)
    return np.add.accumulate(a, axis=0)[-1]


def _fold_runs(runs):
    """The in-order sums of runs (n, L, ...) along axis 1 (across a transposed copy, as
    sums do: accumulate would take ~500x as long)."""
    return _along(runs, 1)


def _add_levels(parts):
    """The levels' sums added in order (ATen starts from +0: never a -0 total)."""
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    return total + total.dtype.type(0)


def _levels(items, parts):
    """Appends to parts the sums of the levels from len(parts) up, given the first one's
    items, when every row counts (a level's runs are 16 items, the last one partial);
    returns the items that reach the top level."""
    while len(parts) < _LEVELS - 1:
        full = len(items) - len(items) % _STEP
        parts.append(_in_order(items[full:]))
        if not full:
            return items[:0]
        items = _fold_runs(items[:full].reshape((full // _STEP, _STEP) + items.shape[1:]))
    return items


def cascade_every_row(v):
    """ATen's order when every row counts: v (R, ...) the rows' terms, R >= 1."""
    parts = []
    top = _levels(v[1:], parts)
    parts.append(_in_order(np.concatenate([v[:1], top])) if len(top) else v[0])
    return _add_levels(parts)


def _cascade_counted(terms, valid):
    """ATen's order when some rows are ignored: terms (R, ...) with zeros in the ignored
    rows' places (exact to add where ATen skips them), valid (R,) which rows count.  A
    level's items sit on slots (the rows that are multiples of 16 ** level; zeros where
    nothing moved up) in blocks of 16; a run closes at a block's last slot only if that row
    counts, else it runs on through the next block."""
    parts, items, stride = [], terms[1:], 1
    while len(parts) < _LEVELS - 1:
        stride *= _STEP
        closing = np.flatnonzero(valid[stride::stride][:len(items) // _STEP])
        if not len(closing):
            parts.append(_in_order(items))
            top = terms[0]
            break
        done = (closing[-1] + 1) * _STEP
        parts.append(_in_order(items[done:]))
        items = _merged_runs(items[:done], closing)
    else:  # (16 ** 7 rows and more: the top level adds row 0, then what moved up)
        top = _in_order(np.concatenate([terms[:1], items]))
    parts.append(top)
    return _add_levels(parts)


def _merged_runs(items, closing):
    """The next level's slots: per block of 16 items, the in-order sum of the run that the
    block closes (its blocks since the last closing one), zero if it closes none; the runs
    of m blocks folded together, for each m."""
    starts = np.concatenate(([0], closing[:-1] + 1))
    blocks = closing + 1 - starts
    if len(closing) == len(blocks) == closing[-1] + 1:  # (every block closes its run)
        return _fold_runs(items.reshape((-1, _STEP) + items.shape[1:]))
    out = np.zeros((closing[-1] + 1,) + items.shape[1:], items.dtype)
    for m in np.flatnonzero(np.bincount(blocks)).tolist():
        sel = np.flatnonzero(blocks == m)
        runs = (starts[sel] * _STEP)[:, None] + np.arange(m * _STEP)
        out[closing[sel]] = _fold_runs(items[runs])
    return out


# -- every row counted, no weights, up to 256 rows: one layout, two accumulates -------------

PLAIN_ROWS = 256  # (ATen's level 1 holds one run: fewer than 16 sums of 16 rows)
_layouts = {}  # (rows, classes) -> (slots' flat offsets of their rows, rows, zeros, width,
#                                     each row's flat offset)


def _layout(n_rows, n_classes):
    """Where each row's term goes so that ATen's total is two folds: as a (16, K) array
    whose columns are the level-0 runs (rows 1-16, 17-32, ...), the rest, and row 0 (zeros
    after a column's rows), the column sums in order give ((level 1 + level 0) + top level)
    (a sum's first step commutes); below 17 rows, rows 1.. then row 0 in one fold."""
    runs, rest = divmod(n_rows - 1, _STEP)
    if not runs:
        slots = np.roll(np.arange(n_rows), -1)
        width = None
    else:
        cols = [np.arange(1, 1 + runs * _STEP).reshape(runs, _STEP)]
        if rest:
            cols.append([np.r_[np.arange(n_rows - rest, n_rows), np.full(_STEP - rest, -1)]])
        cols.append([np.r_[0, np.full(_STEP - 1, -1)]])
        slots = np.concatenate(cols).T.reshape(-1)
        width = len(slots) // _STEP
    zeros = np.flatnonzero(slots < 0)
    rows = np.maximum(slots, 0)
    return (rows * n_classes, rows, zeros if len(zeros) else None, width,
            np.arange(n_rows) * n_classes)


def _layout_of(shape):
    layout = _layouts.get(shape)
    if layout is None:
        if len(_layouts) > 64:
            _layouts.clear()
        layout = _layouts[shape] = _layout(*shape)
    return layout


def plain_total(x, t):
    """ATen's nll_loss sum of the C-contiguous (N, C) float x at targets t (all classes),
    0 < N <= PLAIN_ROWS: the rows' picked values added in its order, negated."""
    starts, rows, zeros, width, _ = _layout_of(x.shape)
    q = x.ravel().take(starts + t.take(rows))
    if zeros is not None:
        q[zeros] = 0
    if width is not None:
        q = np.add.accumulate(q.reshape(_STEP, width), axis=0)[-1]
    return x.dtype.type(0) - np.add.accumulate(q)[-1]  # (0 - q: ATen's step, never -0)


def target_positions(shape, t):
    """The flat positions of targets t's classes in a C-contiguous (N, C) array, N <=
    PLAIN_ROWS (the layout's cached row offsets: cheaper than 2-d indexing)."""
    return _layout_of(shape)[4] + t
