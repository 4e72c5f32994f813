"""Every op declaration, one module per family; importing this package declares them all."""
import importlib

FAMILIES = ("creation", "pointwise", "views", "splitting", "indexing", "scatter",
            "joining", "linalg", "random", "reduction", "norm", "reorder", "einsum",
            "activation", "special", "sorting", "factorization", "factorization_lu",
            "factorization_householder", "linalg_norms", "conv", "pooling", "resample",
            "sampling", "normalization", "layers", "loss", "loss_margin", "numerics")

for _family in FAMILIES:
    importlib.import_module(f"{__name__}.{_family}")
