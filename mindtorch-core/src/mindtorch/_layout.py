"""torch.layout, and the dispatch keys of the sparse layouts.

A sparse tensor (mindtorch/sparse/) keeps in its `_device` slot the key of its layout on its
device (`SparseCPU`, `SparseCsrCPU`, ...), never a real device: the generated bindings
resolve kernels by `_dev.type`, so every op given a sparse tensor resolves to the sparse
subsystem's table (dispatch.resolve) without any test on the dense path."""


class TorchName(str):
    """A torch constant of a kind (layout, memory format): a str holding its name, so that
    code comparing with the name and the constant agree; printed as torch.<name>, pickled
    by name (the one object)."""
    __module__ = "mindtorch"
    __slots__ = ()

    def __repr__(self):
        return "torch." + str.__str__(self)

    __str__ = __repr__

    def __reduce__(self):
        return str.__str__(self)


class layout(TorchName):
    __module__ = "mindtorch"
    __slots__ = ()


strided = layout("strided")
sparse_coo = layout("sparse_coo")
sparse_csr = layout("sparse_csr")
sparse_csc = layout("sparse_csc")
sparse_bsr = layout("sparse_bsr")
sparse_bsc = layout("sparse_bsc")
_mkldnn = layout("_mkldnn")

# PyTorch's dispatch key prefix per sparse layout (its error messages name the key)
_KEY_PREFIX = {sparse_coo: "Sparse", sparse_csr: "SparseCsr"}


class LayoutKey:
    """What a sparse tensor's `_device` holds: its layout's dispatch key on a real device.
    Interned per (layout, device), so bindings compare keys by identity like devices."""
    __slots__ = ("type", "device", "layout")
    _interned = {}

    def __repr__(self):
        return self.type

    @classmethod
    def of(cls, layout, device):
        k = cls._interned.get((layout, device))
        if k is None:
            k = object.__new__(cls)
            backend = {"cpu": "CPU", "meta": "Meta", "cuda": "CUDA"}.get(device.type,
                                                                          device.type.upper())
            k.type, k.device, k.layout = _KEY_PREFIX[layout] + backend, device, layout
            cls._interned[(layout, device)] = k
        return k
