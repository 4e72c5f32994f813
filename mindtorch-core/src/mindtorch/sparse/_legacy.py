"""torch.sparse.FloatTensor and its kin: the deprecated COO constructors by dtype
(`(indices, values, size)` or a size), and isinstance by layout and dtype."""
from .. import _dtype as D
from .._warn_once import warn_once

_DTYPES = {"FloatTensor": D.float32, "DoubleTensor": D.float64, "HalfTensor": D.float16,
           "BFloat16Tensor": D.bfloat16, "LongTensor": D.int64, "IntTensor": D.int32,
           "ShortTensor": D.int16, "CharTensor": D.int8, "ByteTensor": D.uint8}


class _SparseType(type):
    def __instancecheck__(cls, obj):
        return getattr(obj, "is_sparse", False) is True and obj.dtype is cls.dtype

    def __call__(cls, *args, device=None):
        from . import sparse_coo_tensor
        if len(args) == 3 or (len(args) == 2 and not isinstance(args[0], int)):
            warn_once("sparse_legacy_values",  # (once per process, as PyTorch's)
                      "torch.sparse.SparseTensor(indices, values, shape, *, device=) is "
                      "deprecated.  Please use torch.sparse_coo_tensor(indices, values, "
                      "shape, dtype=, device=).")
            values = args[1] if args[1].dtype is cls.dtype else args[1].to(cls.dtype)
            return sparse_coo_tensor(args[0], values, *args[2:], device=device,
                                     check_invariants=False)
        warn_once("sparse_legacy_shape", "torch.sparse.SparseTensor(shape, *, device=) is "
                  "deprecated.  Please use torch.sparse_coo_tensor(shape, dtype=, device=).")
        size = args[0] if len(args) == 1 and not isinstance(args[0], int) else args
        return sparse_coo_tensor(tuple(size), dtype=cls.dtype, device=device,
                                 check_invariants=False)


LEGACY = {name: _SparseType(name, (), {"dtype": dtype, "__module__": "torch.sparse"})
          for name, dtype in _DTYPES.items()}
