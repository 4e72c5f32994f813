"""PyTorch's legacy tensor types (torch.FloatTensor, torch.LongTensor, ...): constructors
of CPU tensors of one dtype, usable in isinstance() and Tensor.type()."""
from . import _dtype as D

_TYPES = {"Double": D.float64, "Float": D.float32, "Half": D.float16,
          "BFloat16": D.bfloat16, "Long": D.int64, "Int": D.int32, "Short": D.int16,
          "Char": D.int8, "Byte": D.uint8, "Bool": D.bool}


class tensortype(type):
    """The class of the legacy types: `FloatTensor(data)`, `FloatTensor(2, 3)` (an
    uninitialised 2x3 tensor), `isinstance(t, FloatTensor)`."""

    is_cuda = False
    is_sparse = False

    def __instancecheck__(cls, obj):
        from ._tensor import Tensor
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype and obj.device.type == "cpu"

    def __call__(cls, *args, device=None, **kwargs):
        from . import _creation
        from ._tensor import Tensor
        if kwargs:
            raise TypeError(f"new() received an invalid combination of arguments - got "
                            f"unexpected keyword arguments {sorted(kwargs)}")
        if not args:
            return _creation.empty(0, dtype=cls.dtype, device=device)
        if all(isinstance(a, int) and not isinstance(a, bool) for a in args) or \
                len(args) == 1 and type(args[0]).__name__ == "Size":
            return _creation.empty(*args, dtype=cls.dtype, device=device)
        if len(args) > 1:
            raise TypeError(f"new() received an invalid combination of arguments - got "
                            f"{tuple(type(a).__name__ for a in args)}")
        data = args[0]
        if isinstance(data, Tensor):
            if data.dtype is not cls.dtype:
                raise TypeError(f"expected {cls.dtype} tensor (got {data.dtype} tensor)")
            return data.detach()
        if isinstance(data, (str, bytes)):
            raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
        return _creation.tensor(data, dtype=cls.dtype, device=device)

    def __repr__(cls):
        return f"<class 'torch.{cls.__name__}'>"


LEGACY_TYPES = {f"{name}Tensor": tensortype(f"{name}Tensor", (), {"dtype": dtype})
                for name, dtype in _TYPES.items()}
