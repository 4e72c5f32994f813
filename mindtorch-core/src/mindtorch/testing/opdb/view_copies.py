"""Samples of the copying views (`*_copy`) and the unsafe splits: the views' own cases,
on contiguous and transposed inputs."""
import mindtorch

from ._make import t

f32, i64 = mindtorch.float32, mindtorch.int64


def _one(shape, *rest, dt=f32, tr=False, **kwargs):
    return lambda d: ((t(d, shape, dt, tr), *rest), dict(kwargs))


SAMPLES = {
    "view_copy": [_one((3, 4), (12,)), _one((2, 3, 4), (6, -1), dt=i64),
                  _one((3, 4), (4, 3), tr=True)],
    "_view_copy_dtype": [_one((3, 4), mindtorch.int32), _one((2, 4), mindtorch.int16)],
    "permute_copy": [_one((2, 3, 4), (2, 0, 1)), _one((3, 4), (-1, 0), tr=True)],
    "transpose_copy": [_one((2, 3, 4), 0, 2), _one((3, 4), -1, 0, tr=True)],
    "t_copy": [_one((3, 4)), _one((4,))],
    "expand_copy": [_one((3, 1), (3, 4)), _one((3, 1), (2, -1, 4), implicit=True)],
    "squeeze_copy": [_one((3, 1, 4, 1)), _one((3, 1, 4), 1), _one((1, 1), (0, 1))],
    "unsqueeze_copy": [_one((3, 4), 1), _one((3, 4), -1), _one((), 0)],
    "select_copy": [_one((3, 4), 1, 2), _one((3, 4), 0, -1, tr=True)],
    "slice_copy": [_one((5, 4), 0, 1, 4, 2), _one((5, 4), 1, None, -1)],
    "diagonal_copy": [_one((3, 4)), _one((2, 3, 4), -1, 0, 2)],
    "as_strided_copy": [_one((3, 4), (2, 2), (1, 2)), _one((3, 4), (3,), (5,), 1)],
    "unfold_copy": [_one((7,), 0, 3, 2), _one((4, 5), 1, 2, 1, tr=True)],
    "alias_copy": [_one((3, 4), tr=True)],
    "detach_copy": [_one((3, 4), tr=True)],
    "view_as_real_copy": [_one((3, 2), dt=mindtorch.complex64)],
    "view_as_complex_copy": [_one((3, 2)), _one((4, 3, 2), dt=mindtorch.float64)],
    "unbind_copy": [_one((3, 4)), _one((3, 4), 1, tr=True)],
    "split_copy": [_one((5, 4), 2), _one((5, 4), 3, -1, tr=True)],
    "split_with_sizes_copy": [_one((5, 4), [2, 3]), _one((5, 4), [4, 0], 1)],
    "unsafe_split": [_one((5, 4), 2), _one((5, 4), 3, 1, tr=True)],
    "unsafe_split_with_sizes": [_one((5, 4), [2, 3]), _one((5, 4), [1, 3], 1)],
    "unsafe_chunk": [_one((5, 4), 2), _one((5, 4), 3, 1), _one((0, 4), 2)],
}
