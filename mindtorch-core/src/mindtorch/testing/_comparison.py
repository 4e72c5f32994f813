"""assert_close: torch.testing.assert_close for mindtorch tensors.

Values are compared on the host (NumPy views of each tensor's data, from any device with
data), so a backend is checked without relying on its own kernels; meta tensors compare
metadata only.  Pairs, tolerances and messages follow PyTorch's (torch/testing/
_comparison.py) so a test fails with the same text under either library."""
import cmath
import collections.abc

import numpy as np

import mindtorch

from .._dtype import bfloat16, bool as bool_, complex64, complex128, float16, float32, \
    float64, int64

# {dtype: (rtol, atol)}; every other dtype (integers, bool) compares exactly
_PRECISIONS = {
    float16: (1e-3, 1e-5),
    bfloat16: (1.6e-2, 1e-5),
    float32: (1.3e-6, 1e-5),
    float64: (1e-7, 1e-7),
    complex64: (1.3e-6, 1e-5),
    complex128: (1e-7, 1e-7),
}
# Python numbers compare like the dtype PyTorch maps them to
# (True against 1 is a dtype mismatch here; PyTorch fails with an internal RuntimeError)
_NUMBER_DTYPES = {bool: bool_, int: int64, float: float64, complex: complex128}


class _Mismatch(Exception):
    """One failed comparison: the exception type to raise and its message."""

    def __init__(self, type_, msg, id=()):
        self.type, self.msg, self.id = type_, msg, id

    def to_error(self, msg=None):
        if not isinstance(msg, str):
            generated = self.msg
            if self.id:
                generated += "\n\nThe failure occurred for item " + \
                    "".join(str([item]) for item in self.id)
            msg = msg(generated) if callable(msg) else generated
        return self.type(msg)


class _Unsupported(Exception):
    """A pair type cannot handle the inputs; the next one is tried."""


def default_tolerances(*dtypes):
    """(rtol, atol): the loosest of the dtypes' defaults."""
    rtols, atols = zip(*[_PRECISIONS.get(d, (0.0, 0.0)) for d in dtypes])
    return max(rtols), max(atols)


def _tolerances(dtypes, rtol, atol, id):
    if (rtol is None) ^ (atol is None):
        raise _Mismatch(ValueError, f"Both 'rtol' and 'atol' must be either specified or "
                                    f"omitted, but got no {'rtol' if rtol is None else 'atol'}.",
                        id)
    if rtol is not None:
        return rtol, atol
    return default_tolerances(*dtypes)


def _mismatch_msg(identifier, extra, abs_diff, abs_idx, atol, rel_diff, rel_idx, rtol):
    equality = rtol == 0 and atol == 0

    def diff(kind, value, idx, tol):
        text = f"{kind.title()} difference: {value}" if idx is None else \
            f"Greatest {kind} difference: {value} at index {idx}"
        return text + ("" if equality else f" (up to {tol} allowed)") + "\n"

    msg = f"{identifier} are not {'equal' if equality else 'close'}!\n\n"
    if extra:
        msg += extra.strip() + "\n"
    msg += diff("absolute", abs_diff, abs_idx, atol) + diff("relative", rel_diff, rel_idx, rtol)
    return msg.strip()


def _scalar_msg(actual, expected, rtol, atol):
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _mismatch_msg("Scalars", f"Expected {expected} but got {actual}.", abs_diff, None,
                         atol, rel_diff, None, rtol)


# -- pairs: the first that accepts the inputs checks them ------------------------------------
# A pair function raises _Unsupported (try the next) or _Mismatch for unusable arguments,
# else returns the comparison to run once every pair has been made (PyTorch's order: all
# inputs are checked for usability before any values are compared).

def _none_pair(actual, expected, id, opts):
    if not (actual is None or expected is None):
        raise _Unsupported

    def compare():
        if not (actual is None and expected is None):
            raise _Mismatch(AssertionError, f"None mismatch: {actual} is not {expected}", id)
    return compare


def _bool_pair(actual, expected, id, opts):
    kinds = (bool, np.bool_)
    if not (isinstance(actual, kinds) and isinstance(expected, kinds)):
        raise _Unsupported
    a, e = bool(actual), bool(expected)

    def compare():
        if a is not e:
            raise _Mismatch(AssertionError, f"Booleans mismatch: {a} is not {e}", id)
    return compare


def _number_pair(actual, expected, id, opts):
    kinds = (int, float, complex, np.number)
    if not (isinstance(actual, kinds) and isinstance(expected, kinds)):
        raise _Unsupported
    a, e = (x.item() if isinstance(x, np.number) else x for x in (actual, expected))
    rtol, atol = _tolerances([_NUMBER_DTYPES[type(x)] for x in (a, e)], opts["rtol"],
                             opts["atol"], id)

    def compare():
        if opts["check_dtype"] and type(a) is not type(e):
            raise _Mismatch(AssertionError,
                            f"The (d)types do not match: {type(a)} != {type(e)}.", id)
        if a == e or (opts["equal_nan"] and cmath.isnan(a) and cmath.isnan(e)):
            return
        abs_diff = abs(a - e)
        if cmath.isfinite(abs_diff) and abs_diff <= atol + rtol * abs(e):
            return
        raise _Mismatch(AssertionError, _scalar_msg(a, e, rtol, atol), id)
    return compare


def _as_tensor(x):
    if isinstance(x, mindtorch.Tensor):
        return x
    try:
        return mindtorch.as_tensor(x)
    except Exception:
        raise _Unsupported from None


def _tensor_pair(actual, expected, id, opts):
    if not (isinstance(actual, type(expected)) or isinstance(expected, type(actual))):
        raise _Unsupported
    if not opts["allow_subclasses"] and type(actual) is not type(expected):
        raise _Unsupported
    actual, expected = _as_tensor(actual), _as_tensor(expected)
    rtol, atol = _tolerances([actual.dtype, expected.dtype], opts["rtol"], opts["atol"], id)

    def mismatch(attr, a, e):
        raise _Mismatch(AssertionError,
                        f"The values for attribute '{attr}' do not match: {a} != {e}.", id)

    def compare():
        if actual.shape != expected.shape:
            mismatch("shape", actual.shape, expected.shape)
        if opts["check_stride"] and actual.stride() != expected.stride():
            mismatch("stride()", actual.stride(), expected.stride())
        if opts["check_device"] and actual.device != expected.device:
            mismatch("device", actual.device, expected.device)
        if opts["check_dtype"] and actual.dtype != expected.dtype:
            mismatch("dtype", actual.dtype, expected.dtype)
        a, e = actual, expected
        if a.layout != e.layout:  # (unchecked: compared as strided tensors)
            if opts["check_layout"]:
                mismatch("layout", a.layout, e.layout)
            a, e = a.to_dense(), e.to_dense()
        if a.device.type == "meta" or e.device.type == "meta":
            return  # no data: the metadata is all there is to compare
        if a.layout == "strided":
            return _values_close(a, e, rtol, atol, opts["equal_nan"], "Tensor-likes", id)
        for part_a, part_e, what, exact in _sparse_parts(a, e, id):
            _values_close(part_a, part_e, 0 if exact else rtol, 0 if exact else atol,
                          opts["equal_nan"] and not exact, what, id)
    return compare


def _sparse_parts(a, e, id):
    """PyTorch's comparison of sparse tensors: counts, then the indices for equality and
    the values for closeness, as (actual, expected, identifier, exact)."""
    name = "COO" if a.layout == "sparse_coo" else "CSR"
    if name == "COO" and a.sparse_dim() != e.sparse_dim():
        raise _Mismatch(AssertionError, f"The number of sparse dimensions in sparse COO tensors "
                                        f"does not match: {a.sparse_dim()} != {e.sparse_dim()}",
                        id)
    if a._nnz() != e._nnz():
        raise _Mismatch(AssertionError, f"The number of specified values in sparse {name} "
                                        f"tensors does not match: {a._nnz()} != {e._nnz()}", id)
    if name == "COO":
        return [(a._indices(), e._indices(), "Sparse COO indices", True),
                (a._values(), e._values(), "Sparse COO values", False)]
    return [(a.crow_indices(), e.crow_indices(), "Sparse CSR crow_indices", True),
            (a.col_indices(), e.col_indices(), "Sparse CSR col_indices", True),
            (a.values(), e.values(), "Sparse CSR values", False)]


def _values_close(actual, expected, rtol, atol, equal_nan, identifier, id):
    dtype = actual.dtype
    if actual.dtype != expected.dtype:
        dtype = mindtorch.promote_types(actual.dtype, expected.dtype)
    a, e = _host(actual, dtype), _host(expected, dtype)
    matches = _isclose(a, e, dtype, rtol, atol, equal_nan)
    if matches.all():
        return
    if not actual.shape:
        msg = _scalar_msg(_item(a, dtype), _item(e, dtype), rtol, atol)
    else:
        msg = _tensor_msg(a, e, dtype, matches, rtol, atol, identifier)
    raise _Mismatch(AssertionError, msg, id)


def _host(t, dtype):
    a = np.asarray(t.detach()._host())
    return a if t.dtype is dtype else a.astype(dtype.np)


def _item(a, dtype):
    v = a.reshape(()).item()
    return float(v) if dtype is bfloat16 else v


def _isclose(a, e, dtype, rtol, atol, equal_nan):
    """torch.isclose on host arrays: equal, or (when finite) within atol + rtol * |e|,
    computed in the compared dtype as PyTorch does (integers: the allowed error in the
    default float dtype)."""
    with np.errstate(all="ignore"):
        close = a == e
        inexact = dtype.is_floating_point or dtype.is_complex
        if equal_nan and inexact:
            close |= np.isnan(a) & np.isnan(e)
        if rtol == 0 and atol == 0:
            return close
        if dtype is bool_:
            a, e = a.astype(np.float32), e.astype(np.float32)
        ft = a.dtype if inexact or dtype is bool_ else np.dtype(np.float32)
        # integer errors do not wrap around (uint8 0 vs 200 is 200 apart, as in PyTorch)
        err = np.abs(a - e) if inexact else np.abs(a.astype(np.float64) - e.astype(np.float64))
        # each step rounded to the dtype, as tensor arithmetic is
        scaled = np.asarray(rtol * e.astype(ft)).astype(ft)
        real = np.abs(scaled)
        allowed = np.asarray(atol + real).astype(real.dtype)
        return close | (np.isfinite(err) & (err <= allowed))


def _tensor_msg(a, e, dtype, matches, rtol, atol, identifier="Tensor-likes"):
    total = matches.size
    bad = total - int(matches.sum())
    extra = f"Mismatched elements: {bad} / {total} ({bad / total:.1%})"
    a, e, m = a.reshape(-1), e.reshape(-1), matches.reshape(-1)
    if not (dtype.is_floating_point or dtype.is_complex):
        a, e = a.astype(np.int64), e.astype(np.int64)
    with np.errstate(all="ignore"):
        abs_diff = np.asarray(np.abs(a - e)).astype(np.abs(a[:0]).dtype)
        abs_diff[m] = 0
        denom = np.abs(e)
        if abs_diff.dtype.kind in "iu":  # integer true division gives the default float
            rel_diff = abs_diff.astype(np.float32) / denom.astype(np.float32)
        else:
            rel_diff = np.asarray(abs_diff / denom).astype(abs_diff.dtype)
        rel_diff[m] = 0
    ia, ir = int(np.argmax(abs_diff)), int(np.argmax(rel_diff))

    def index(flat):
        return tuple(int(i) for i in np.unravel_index(flat, matches.shape))
    return _mismatch_msg(identifier, extra, _py(abs_diff[ia]), index(ia), atol,
                         _py(rel_diff[ir]), index(ir), rtol)


def _py(v):
    v = v.item()
    return v if isinstance(v, (int, float)) else float(v)


_PAIRS = (_none_pair, _bool_pair, _number_pair, _tensor_pair)


def _originate(actual, expected, id, opts):
    """The comparisons of every leaf of (possibly nested) sequences and mappings."""
    seq, mapping = collections.abc.Sequence, collections.abc.Mapping
    if isinstance(actual, seq) and not isinstance(actual, str) and \
            isinstance(expected, seq) and not isinstance(expected, str):
        if len(actual) != len(expected):
            raise _Mismatch(AssertionError, f"The length of the sequences mismatch: "
                                            f"{len(actual)} != {len(expected)}", id)
        return [c for i in range(len(actual))
                for c in _originate(actual[i], expected[i], (*id, i), opts)]
    if isinstance(actual, mapping) and isinstance(expected, mapping):
        ka, ke = set(actual.keys()), set(expected.keys())
        if ka != ke:
            raise _Mismatch(AssertionError,
                            f"The keys of the mappings do not match:\n"
                            f"Missing keys in the actual mapping: {sorted(ke - ka)}\n"
                            f"Additional keys in the actual mapping: {sorted(ka - ke)}", id)
        try:
            keys = sorted(ka)
        except TypeError:
            keys = list(ka)
        return [c for k in keys for c in _originate(actual[k], expected[k], (*id, k), opts)]
    for pair in _PAIRS:
        try:
            return [pair(actual, expected, id, opts)]
        except _Unsupported:
            continue
    raise _Mismatch(TypeError, f"No comparison pair was able to handle inputs of type "
                               f"{type(actual)} and {type(expected)}.", id)


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None,
                 equal_nan=False, check_device=True, check_dtype=True, check_layout=True,
                 check_stride=False, msg=None):
    """Assert that `actual` and `expected` are close, as torch.testing.assert_close:
    |actual - expected| <= atol + rtol * |expected| elementwise, with default (rtol, atol)
    by dtype (float16 1e-3/1e-5, bfloat16 1.6e-2/1e-5, float32 1.3e-6/1e-5, float64
    1e-7/1e-7, complex64/complex128 as float32/float64, integers and bool exact); inf only
    equal to itself; NaN equal to NaN with equal_nan.  Shape, and unless disabled device,
    dtype and (with check_stride) strides must match.  Meta tensors compare metadata only.
    Sequences and mappings compare elementwise; Python numbers by type.  Raises
    AssertionError (ValueError / TypeError for unusable arguments)."""
    __tracebackhide__ = True
    opts = {"rtol": rtol, "atol": atol, "equal_nan": equal_nan, "check_device": check_device,
            "check_dtype": check_dtype, "check_stride": check_stride,
            "check_layout": check_layout, "allow_subclasses": allow_subclasses}
    try:
        comparisons = _originate(actual, expected, (), opts)
    except _Mismatch as m:
        raise m.to_error() from None
    for compare in comparisons:
        try:
            compare()
        except _Mismatch as m:
            raise m.to_error(msg) from None


# assert_allclose's tolerances (torch.testing's before 1.12): the larger of the two dtypes'
# (others, complex included, exact)
_ALLCLOSE_TOLERANCES = {float16: (1e-3, 1e-3), float32: (1e-4, 1e-5), float64: (1e-5, 1e-8)}


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg=""):
    """Deprecated (PyTorch 1.12) form of assert_close: `expected` is taken in `actual`'s
    dtype, dtypes and strides are not compared, NaNs are equal by default and the default
    tolerances are the older ones (float32: rtol 1e-4, atol 1e-5)."""
    __tracebackhide__ = True
    import warnings
    warnings.warn("`torch.testing.assert_allclose()` is deprecated since 1.12 and will be "
                  "removed in a future release. Please use `torch.testing.assert_close()` "
                  "instead. You can find detailed upgrade instructions in "
                  "https://github.com/pytorch/pytorch/issues/61844.", FutureWarning,
                  stacklevel=2)
    if not isinstance(actual, mindtorch.Tensor):
        actual = mindtorch.tensor(actual)
    if not isinstance(expected, mindtorch.Tensor):
        expected = mindtorch.tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        rtols, atols = zip(*[_ALLCLOSE_TOLERANCES.get(t.dtype, (0.0, 0.0))
                             for t in (actual, expected)])
        rtol, atol = max(rtols), max(atols)
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan,
                 check_device=True, check_dtype=False, check_stride=False, msg=msg or None)
