"""Result dtypes of pointwise/reduction ops by promotion kind (PyTorch's
ELEMENTWISE_TYPE_PROMOTION_KIND, plus the integer->int64 rule of sum-like reductions)."""
from .. import _dtype as D
from .._promotion import result_type


def result_dtype(kind, operands):
    return promoted(kind, result_type(*operands))


def promoted(kind, dt):
    """The result dtype of a `kind` op whose operands promote to dt."""
    if kind in (None, "default"):
        return dt
    if kind == "int_to_float":
        return D.get_default_dtype() if dt.kind in "uib" else dt
    if kind == "always_bool":
        return D.bool
    if kind == "complex_to_float":
        return dt.to_real()
    if kind == "int_to_long":
        return D.int64 if dt.kind in "uib" else dt
    raise ValueError(f"unknown promotion kind {kind!r}")
