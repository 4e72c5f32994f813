"""Host casts into the float8 types with PyTorch's conversion rules, where ml_dtypes'
casts differ: c10 converts every source through float32 (so float64 and int64 round
twice, and one float8 type goes to another through float32), float8_e4m3fn saturates
finite and infinite values to +-448 (ml_dtypes gives NaN), and float8_e8m0fnu, which has
no sign and no zero, stores |x| and keeps 0 as its smallest value 2**-127 (ml_dtypes gives
NaN for both). Used by every host path that writes float8 data (cpu copies, fills,
results, tensor() from host data)."""
from . import _dtype as D
from ._lazy import lazy

np = lazy("numpy", globals())

_E4M3_MAX = 448.0
_FLOAT8_NP = ()


def _float8_np():
    global _FLOAT8_NP
    _FLOAT8_NP = tuple(d.np for d in D.FLOAT8)
    return _FLOAT8_NP


def cast(a, dtype):
    """numpy array (or scalar) `a` converted to the numpy type of float8 `dtype`."""
    a = np.asarray(a)
    if a.dtype.kind == "c":
        a = a.real
    with np.errstate(all="ignore"):
        x = a.astype(np.float32)
        if a.dtype in (_FLOAT8_NP or _float8_np()):  # c10 reads a float8 NaN as +NaN
            x = np.where(np.isnan(x), np.float32("nan"), x)
        if dtype is D.float8_e4m3fn:
            x = np.clip(x, -_E4M3_MAX, _E4M3_MAX)  # NaN stays NaN
        elif dtype is D.float8_e8m0fnu:
            x = np.asarray(np.abs(x))
            out = x.astype(dtype.np)
            out.view(np.uint8)[...] = np.where(x == 0, np.uint8(0), out.view(np.uint8))
            return out
        out = np.asarray(x.astype(dtype.np))
        if dtype is D.float8_e5m2:  # c10 rounds a NaN's float16 payload up: 0x7f, not 0x7e
            b = out.view(np.uint8)
            b[...] = np.where(np.isnan(x), b | np.uint8(1), b)
        return out


def copy_into(dst, src, dtype):
    """np.copyto(dst, src) for a float8 destination of dtype `dtype`."""
    np.copyto(dst, cast(src, dtype), casting="unsafe")
