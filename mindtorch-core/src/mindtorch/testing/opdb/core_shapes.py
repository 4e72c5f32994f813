"""Samples of the core shape ops: views (compared with PyTorch's strides too), joining,
splitting, reordering, and creation ops."""
import mindtorch

from ._make import ix, t

f32, f64, i64, b = mindtorch.float32, mindtorch.float64, mindtorch.int64, mindtorch.bool
c64 = mindtorch.complex64


def _one(shape, *rest, dt=f32, tr=False, **kwargs):
    """A sample: one tensor of `shape` (dtype dt, transposed if tr), then `rest`, kwargs."""
    return lambda d: ((t(d, shape, dt, tr), *rest), dict(kwargs))


def _sliced(d, dtype=f32):
    """A (3, 4) view with an offset and a step (not expressible as a transpose)."""
    return t(d, (4, 9), dtype)[1:, 1::2]


SAMPLES = {
    # views
    "view": [_one((3, 4), (12,)), _one((2, 3, 4), (6, -1), dt=i64), _one((), (1, 1)),
             _one((0, 3), (3, 0)), lambda d: ((t(d, (3, 4), transposed=True), (4, 3)), {})],
    "reshape": [_one((3, 4), (2, 6)), _one((3, 4), (-1,), tr=True),
                lambda d: ((_sliced(d), (12,)), {}), _one((), ())],
    "view_as": [lambda d: ((t(d, (3, 4)), t(d, (12,), i64)), {})],
    "reshape_as": [lambda d: ((t(d, (3, 4), transposed=True), t(d, (2, 6))), {})],
    "ravel": [_one((3, 4), tr=True), _one((2, 3)), _one(())],
    "flatten": [_one((2, 3, 4), 1), _one((2, 3, 4), 0, -2, tr=True), _one(())],
    "unflatten": [_one((3, 4), 1, (2, 2)), _one((6,), 0, (-1, 3), dt=i64)],
    "transpose": [_one((2, 3, 4), 0, 2), _one((3, 4), -1, 0, tr=True), _one((), 0, -1)],
    "swapaxes": [_one((2, 3, 4), 0, 1)],
    "swapdims": [_one((2, 3, 4), 2, 1, dt=i64)],
    "t": [_one((3, 4)), _one((4,)), _one(())],
    "adjoint": [_one((2, 3)), _one((2, 3, 4), dt=c64)],
    "mT": [_one((2, 3, 4))], "mH": [_one((3, 4), dt=c64)], "matrix_H": [_one((3, 4))],
    "numpy_T": [_one((2, 3, 4)), _one((3,))],
    "permute": [_one((2, 3, 4), (2, 0, 1)), _one((3, 4), (-1, 0), tr=True)],
    "movedim": [_one((2, 3, 4), 0, 2), _one((2, 3, 4), (0, 1), (2, 0))],
    "moveaxis": [_one((2, 3, 4), -1, 0)],
    "expand": [_one((3, 1), (3, 4)), _one((3, 1), (2, -1, 4)), _one((), (2,))],
    "expand_as": [lambda d: ((t(d, (4,)), t(d, (3, 4))), {})],
    "broadcast_to": [_one((3, 1), (3, 4)), _one((4,), (2, 3, 4), dt=i64)],
    "broadcast_tensors": [lambda d: ((t(d, (3, 1)), t(d, (4,)), t(d, ())), {})],
    "squeeze": [_one((3, 1, 4, 1)), _one((3, 1, 4), 1), _one((1, 1), (0, 1)), _one((3, 4), 0)],
    "unsqueeze": [_one((3, 4), 1), _one((3, 4), -1), _one((), 0)],
    "select": [_one((3, 4), 1, 2), _one((3, 4), 0, -1, tr=True),
               lambda d: ((_sliced(d), 1, 3), {})],
    "slice": [_one((5, 4), 0, 1, 4, 2), _one((5, 4), 1, None, -1), _one((5, 4), 1, 10, 20)],
    "narrow": [_one((5, 4), 0, 1, 3), _one((5, 4), -1, 2, 2, tr=True)],
    "diagonal": [_one((3, 4)), _one((3, 4), 1), _one((2, 3, 4), -1, 0, 2)],
    "unfold": [_one((7,), 0, 3, 2), _one((4, 5), 1, 2, 1, tr=True)],
    "as_strided": [_one((3, 4), (2, 2), (1, 2)), _one((3, 4), (3,), (5,), 1)],
    "alias": [_one((3, 4), tr=True)],
    "atleast_1d": [_one(()), _one((3, 4))], "atleast_2d": [_one(()), _one((3,))],
    "atleast_3d": [_one(()), _one((3,)), _one((3, 4))],
    "view_as_real": [_one((3, 2), dt=c64), _one((), dt=mindtorch.complex128)],
    "view_as_complex": [_one((3, 2)), _one((4, 3, 2), dt=f64)],
    "view_dtype": [_one((3, 4), mindtorch.int32), _one((2, 4), mindtorch.int16)],
    "chunk": [_one((5, 4), 2), _one((5, 4), 3, 1), _one((0, 4), 2)],
    "split": [_one((5, 4), 2), _one((5, 4), [1, 3], 1), _one((5, 4), 2, -1, tr=True)],
    "split_with_sizes": [_one((5, 4), [2, 3]), _one((5, 4), [4, 0], 1)],
    "tensor_split": [_one((7,), 3), _one((5, 4), [1, 3], 1), lambda d: ((t(d, (5, 4)), ix("cpu", [1, 4])), {})],
    "hsplit": [_one((3, 4), 2), _one((4,), [1, 3])],
    "vsplit": [_one((4, 3), [1])],
    "dsplit": [_one((2, 3, 4), 2)],
    "unbind": [_one((3, 4)), _one((3, 4), 1, tr=True)],
    "meshgrid": [lambda d: (([t(d, (3,)), t(d, (2,))],), {"indexing": "ij"}),
                 lambda d: (([t(d, (3,)), t(d, (2,)), t(d, (4,))],), {"indexing": "xy"})],
    # in-place views
    "t_": [_one((3, 4))], "transpose_": [_one((2, 3, 4), 0, 2)],
    "swapaxes_": [_one((3, 4), 0, 1)], "swapdims_": [_one((3, 4), 1, 0)],
    "squeeze_": [_one((3, 1, 4), 1), _one((1, 3, 1))], "unsqueeze_": [_one((3, 4), 0)],
    "as_strided_": [_one((3, 4), (2, 3), (3, 1), 2)],
    # copies of views, scatters into them
    "narrow_copy": [_one((5, 4), 1, 1, 2, tr=True)],
    "select_scatter": [lambda d: ((t(d, (3, 4)), t(d, (4,)), 0, 1), {})],
    "slice_scatter": [lambda d: ((t(d, (5, 4)), t(d, (2, 4)), 0, 1, 5, 2), {}),
                      lambda d: ((t(d, (5, 4)), t(d, (5, 2)), 1, 2), {})],
    "diagonal_scatter": [lambda d: ((t(d, (3, 4)), t(d, (3,)), 1), {}),
                         lambda d: ((t(d, (3, 4)), t(d, (2,)), -1), {})],
    "contiguous": [_one((3, 4), tr=True), lambda d: ((_sliced(d, i64),), {})],
    "clone": [_one((3, 4), tr=True), _one((), dt=b)],
    "_to_copy": [_one((3, 4), tr=True, dtype=f64),
                 lambda d: ((t(d, (3,), i64),), {"dtype": mindtorch.float16})],
    # joining
    "stack": [lambda d: (([t(d, (3, 4)), t(d, (3, 4), transposed=True)],), {}),
              lambda d: (([t(d, (3,)), t(d, (3,))], -1), {}),
              lambda d: (([t(d, (2,)), t(d, (3,))],), {})],
    "concat": [lambda d: (([t(d, (2, 3)), t(d, (1, 3), i64)],), {})],
    "concatenate": [lambda d: (([t(d, (2, 3)), t(d, (2, 1))], 1), {})],
    "hstack": [lambda d: (([t(d, (2, 3)), t(d, (2, 1))],), {}),
               lambda d: (([t(d, (3,)), t(d, (2,))],), {})],
    "vstack": [lambda d: (([t(d, (2, 3)), t(d, (3,))],), {})],
    "row_stack": [lambda d: (([t(d, (3,)), t(d, (3,))],), {})],
    "dstack": [lambda d: (([t(d, (2, 3)), t(d, (2, 3))],), {})],
    "column_stack": [lambda d: (([t(d, (3,)), t(d, (3, 2))],), {})],
    "block_diag": [lambda d: ((t(d, (2, 3)), t(d, (1, 2), i64), t(d, ())), {})],
    "cartesian_prod": [lambda d: ((t(d, (3,)), t(d, (2,))), {}),
                       lambda d: ((t(d, (3,), i64),), {})],
    "combinations": [_one((4,)), _one((4,), 3), _one((3,), 2, True)],
    # reordering and repetition
    "flip": [_one((3, 4), (0,)), _one((2, 3, 4), (0, 2), tr=True), _one((), ())],
    "fliplr": [_one((3, 4))], "flipud": [_one((3, 4), dt=i64)],
    "roll": [_one((3, 4), 1), _one((3, 4), (1, -2), (0, 1)), _one((3, 4), 5, 1, tr=True)],
    "rot90": [_one((3, 4)), _one((3, 4), 2, (1, 0)), _one((2, 3, 4), -1, (0, 2))],
    "repeat": [_one((3, 1), (2, 3)), _one((3,), (2, 1, 2), dt=i64), _one((), (3,))],
    "tile": [_one((3, 1), (2,)), _one((3, 4), (2, 1, 1))],
    "repeat_interleave": [_one((3, 2), 2), _one((3, 2), 2, dim=0),
                          lambda d: ((t(d, (3, 2)), ix(d, [1, 0, 2])), {"dim": 0})],
    # creation
    "zeros": [lambda d: (((2, 3),), {"device": d}), lambda d: ((0,), {"device": d, "dtype": i64})],
    "ones": [lambda d: ((2, 3), {"device": d, "dtype": b})],
    "full": [lambda d: (((2, 3), 1.5), {"device": d}), lambda d: (((2,), 7), {"device": d}),
             lambda d: (((), True), {"device": d})],
    "zeros_like": [_one((3, 4), tr=True), _one((2,), dt=i64, dtype=f64)],
    "ones_like": [_one((3, 4), dt=mindtorch.float16)],
    "full_like": [_one((3, 4), 2), _one((3,), 2.5, dt=i64)],
    "fill": [_one((3, 4), 2.5), _one((3,), 7, dt=i64)],
    "zero_": [_one((3, 4), tr=True)],
    # values undefined: shapes, dtypes and strides only
    "empty": [lambda d: (((2, 3),), {"device": d})],
    "empty_like": [_one((3, 4), tr=True)],
    "empty_strided": [lambda d: (((2, 3), (1, 2)), {"device": d})],
    "empty_permuted": [lambda d: (((2, 3, 5, 7), (0, 2, 3, 1)), {"device": d}),
                       lambda d: (((2, 0, 3), (2, 1, 0)), {"device": d})],
    "new_empty_strided": [_one((3,), (2, 2), (2, 1), dt=i64)],
    "resize_": [_one((3, 4), (2, 3)), _one((2,), (2, 5))],
    "resize_as_": [lambda d: ((t(d, (2,)), t(d, (3, 4))), {})],
}
