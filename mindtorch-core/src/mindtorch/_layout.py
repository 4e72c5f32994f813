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


_KEYS = {}  # (layout, device) -> its LayoutKey


class LayoutKey:
    """What a sparse tensor's `_device` holds: its layout's dispatch key on a real device.
    Interned per (layout, device), so bindings compare keys by identity like devices."""
    __slots__ = ("device", "layout", "type")

    def __repr__(self):
        return self.type

    @classmethod
    def of(cls, layout, device):
        k = _KEYS.get((layout, device))
        if k is None:
            k = object.__new__(cls)
            backend = {"cpu": "CPU", "meta": "Meta", "cuda": "CUDA"}.get(device.type,
                                                                          device.type.upper())
            k.type, k.device, k.layout = _KEY_PREFIX[layout] + backend, device, layout
            _KEYS[(layout, device)] = k
        return k


# -- mindtorch.sparse, loaded on first use (it costs import time most programs never use) -----

SPARSE_FUNCTIONS = ("sparse_coo_tensor", "sparse_csr_tensor", "sparse_compressed_tensor",
                    "smm", "spmm", "sspaddmm", "saddmm", "hspmm", "hsmm", "dsmm")
SPARSE_METHODS = ("to_sparse", "to_sparse_coo", "to_sparse_csr", "sparse_mask", "to_dense",
                  "sparse_dim", "dense_dim", "indices", "_indices", "values", "_values",
                  "coalesce", "is_coalesced", "crow_indices", "col_indices", "_nnz",
                  "ccol_indices", "row_indices", "to_sparse_csc", "to_sparse_bsr",
                  "to_sparse_bsc", "smm", "sspaddmm")


def install_sparse_stubs(tensor_class):
    """Tensor's sparse methods as stubs that load mindtorch.sparse, whose own replace them."""
    for name in SPARSE_METHODS:
        def stub(self, *args, _name=name, **kwargs):
            from . import sparse  # noqa: F401 - installs the methods
            return getattr(self, _name)(*args, **kwargs)
        stub.__name__ = stub.__qualname__ = name
        stub.sparse_stub = True
        setattr(tensor_class, name, stub)
