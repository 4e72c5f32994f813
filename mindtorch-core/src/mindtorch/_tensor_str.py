"""Tensor repr, formatted as PyTorch formats it.

The element values travel to the host once (only the edge rows of a summarized tensor);
everything after that is Python string formatting.  One formatter per tensor decides,
from all the (shown) values, between integer-valued, fixed and scientific notation and a
common width; complex tensors get one formatter for the real and one for the imaginary
parts.  Rows wrap at the line width; tensors with more than `threshold` elements show
only `edgeitems` rows at each end of every dim, with '...' between.
"""
import contextlib
import math

from . import _dtype as D
from ._lazy import lazy

np = lazy("numpy", globals())  # imported with the first tensor (see _lazy.py)


class _PrintOptions:
    def __init__(self, precision=4, threshold=1000, edgeitems=3, linewidth=80, sci_mode=None):
        self.precision, self.threshold, self.edgeitems = precision, threshold, edgeitems
        self.linewidth, self.sci_mode = linewidth, sci_mode


PRINT_OPTS = _PrintOptions()
_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     profile=None, sci_mode=None):
    """torch.set_printoptions: a profile ("default", "short", "full") sets every option,
    the other arguments then override single ones; sci_mode=None means automatic."""
    if profile is not None:  # (an unknown profile changes nothing, as in PyTorch)
        for k, v in _PROFILES.get(profile, {}).items():
            setattr(PRINT_OPTS, k, v)
    for k, v in (("precision", precision), ("threshold", threshold),
                 ("edgeitems", edgeitems), ("linewidth", linewidth)):
        if v is not None:
            setattr(PRINT_OPTS, k, v)
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions():
    return dict(vars(PRINT_OPTS))


@contextlib.contextmanager
def printoptions(**kwargs):
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


# -- host values -----------------------------------------------------------------------

_GAP = object()  # where a summarized dim skips its middle rows


def _host_array(t):
    a = t.cpu()._host()
    if t.dtype is D.bfloat16 or t.dtype is D.float16:
        a = a.astype(np.float32)  # printed as float32 values, like PyTorch
    elif t.dtype is D.float8_e8m0fnu:  # (its values as they are: see _measured)
        a = a.astype(np.float32)
    elif t.dtype._limited == D._FP8:  # printed as float16, like PyTorch
        a = a.astype(np.float16).astype(np.float32)
    return a


def _values(a, summarize):
    """Nested lists of Python scalars; with _GAP in summarized dims."""
    if a.ndim == 0:
        return a.item()
    edge = PRINT_OPTS.edgeitems
    if summarize and a.shape[0] > 2 * edge:
        if a.ndim == 1:
            return a[:edge].tolist() + [_GAP] + a[a.shape[0] - edge:].tolist()
        return [_values(r, summarize) for r in a[:edge]] + [_GAP] + \
            [_values(r, summarize) for r in a[a.shape[0] - edge:]]
    if a.ndim == 1:
        return a.tolist()
    return [_values(r, summarize) for r in a]


def _flatten(values):
    if not isinstance(values, list):
        yield values
        return
    for v in values:
        if v is _GAP:
            continue
        if isinstance(v, list):
            yield from _flatten(v)
        else:
            yield v


# -- formatting ------------------------------------------------------------------------

class _Formatter:
    """Chooses notation and width for a set of values (PyTorch's rules: floats that are
    all integers print as '3.'; scientific notation when the nonzero finite magnitudes
    span more than 1000x, exceed 1e8 or go below 1e-4, unless sci_mode is set)."""

    def __init__(self, values, floating, measured=None):
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.width = 1
        p = PRINT_OPTS.precision
        if not floating:
            for v in values:
                self.width = max(self.width, len(str(v)))
            return
        finite = [v for v in values if v != 0 and math.isfinite(v)] if measured is None \
            else measured
        if not finite:  # nothing to measure: zeros, nan and inf print in integer style
            return
        mags = [abs(v) for v in finite]
        # (a NaN among them - float8_e8m0fnu's - makes torch's min and max NaN)
        lo, hi = (min(mags), max(mags)) if not any(map(math.isnan, mags)) else (_NAN, _NAN)
        self.int_mode = all(math.isfinite(v) and v == math.ceil(v) for v in finite)
        self.sci_mode = (hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4) \
            if PRINT_OPTS.sci_mode is None else PRINT_OPTS.sci_mode
        if self.sci_mode:
            fmt, extra = f"{{:.{p}e}}", 0
        elif self.int_mode:
            fmt, extra = "{:.0f}", 1  # room for the '.' that marks a float
        else:
            fmt, extra = f"{{:.{p}f}}", 0
        for v in finite:
            self.width = max(self.width, len(fmt.format(v)) + extra)

    def format(self, v):
        if not self.floating:
            s = str(v)
        elif self.sci_mode:
            s = f"{v:{self.width}.{PRINT_OPTS.precision}e}"
        elif self.int_mode:
            s = f"{v:.0f}"
            if math.isfinite(v):
                s += "."
        else:
            s = f"{v:.{PRINT_OPTS.precision}f}"
        return s.rjust(self.width)


class _ComplexFormatter:
    def __init__(self, values):
        values = list(values)
        self.real = _Formatter([v.real for v in values], True)
        self.imag = _Formatter([v.imag for v in values], True)
        self.width = self.real.width + self.imag.width + 1  # + the 'j'

    def format(self, v):
        re = self.real.format(v.real)
        im = (self.imag.format(v.imag) + "j").lstrip()
        return re + im if im[0] in "+-" else re + "+" + im


def _vector(values, indent, fmt):
    if len(values) == 1 and values[0] is _GAP:  # summarized with edgeitems=0
        return "[...]"
    per_line = max(1, (PRINT_OPTS.linewidth - indent) // (fmt.width + 2))
    items = [" ..." if v is _GAP else fmt.format(v) for v in values]
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _render(values, ndim, indent, fmt):
    if ndim == 0:
        return fmt.format(values)
    if ndim == 1:
        return _vector(values, indent, fmt)
    rows = ["..." if v is _GAP else _render(v, ndim - 1, indent + 1, fmt) for v in values]
    return "[" + ("," + "\n" * (ndim - 1) + " " * (indent + 1)).join(rows) + "]"


def _data_str(t, indent):
    summarize = t.numel() > PRINT_OPTS.threshold
    values = _values(_host_array(t), summarize)
    flat = _flatten(values)
    if t.dtype.is_complex:
        fmt = _ComplexFormatter(flat)
    else:
        flat = list(flat)
        fmt = _Formatter(flat, t.dtype.is_floating_point, _measured(t, flat))
    return _render(values, t.ndim, indent, fmt)


_NAN = float("nan")


def _measured(t, flat):
    """The values PyTorch's formatter measures, where not the nonzero finite ones: for
    float8_e8m0fnu, its isfinite is true of NaN and ne(0) false of its smallest value
    only (0 converts to it)."""
    if t.dtype is not D.float8_e8m0fnu:
        return None
    return [v for v in flat if v != 2.0 ** -127]


def _with_suffixes(text, suffixes, indent):
    parts = [text]
    last = len(text) - text.rfind("\n") + 1
    for s in suffixes:
        if last + len(s) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + s)
            last = indent + len(s)
        else:
            parts.append(", " + s)
            last += len(s) + 2
    return "".join(parts) + ")"


def tensor_repr(t, *, tensor_contents=None):
    from ._tensor import Tensor
    # nn.Parameter prints as a plain tensor too (its own repr adds "Parameter containing:")
    plain = type(t) is Tensor or type(t).__name__ == "Parameter"
    prefix = "tensor(" if plain else f"{type(t).__name__}("
    indent = len(prefix)
    suffixes = []
    if t._device.type != "cpu":
        suffixes.append(f"device='{t._device}'")
    default = D.get_default_dtype()
    plain_dtypes = (default, D.default_complex_dtype(), D.int64, D.bool)
    shape = "size=" + str(tuple(t._shape))
    if t._device.type == "meta":
        suffixes.append(shape)
        if t.dtype is not default:
            suffixes.append(f"dtype={t.dtype}")
        text = "..."
    elif t.numel() == 0:
        if t.ndim != 1:
            suffixes.append(shape)
        if t.dtype is not default:
            suffixes.append(f"dtype={t.dtype}")
        text = "[]"
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append(shape)
        if t.dtype not in plain_dtypes:
            suffixes.append(f"dtype={t.dtype}")
        text = None
    if tensor_contents is not None:
        text = tensor_contents
    elif text is None:
        text = _data_str(t, indent)
    grad_fn = getattr(t, "grad_fn", None)
    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{type(grad_fn).__name__}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    meta = t._autograd_meta
    tangent = None if meta is None else meta.get("fw_tangent")  # (autograd/_forward.py)
    if tangent is not None:
        suffixes.append(f"tangent={tensor_repr(tangent)}")
    text = _with_suffixes(prefix + text, suffixes, indent)
    # (a Parameter subclass's instance, or a subclass's instance made a Parameter, says so;
    # Parameter's own repr adds its words)
    return f"Parameter({text})" if not plain and _is_parameter(t) else text


def _is_parameter(t):
    from .nn.parameter import Parameter
    return isinstance(t, Parameter)
