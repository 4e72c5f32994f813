"""The harness of the pointwise fuzz tests (test_fuzz_<topic>.py): seeded randomized
differential tests against PyTorch.

Every case draws (with numpy's RNG and a fixed seed, so runs are deterministic) operands of
random dtype, shape (0-dim, empty, size-1, broadcasting) and layout (transposed, sliced
with steps, expanded, as_strided), Python scalars of every kind with extreme values, and
random dims / keepdim / dtype= arguments, then requires mindtorch to give what torch gives:
the same dtype, shape and values (torch.testing.assert_close tolerances, equal_nan), or an
exception of the same builtin class.  Failures list every divergent case with a recipe to
reproduce it.
"""
import cmath
import math
import re
import warnings

import mindtorch as M
import numpy as np
import pytest
from reference import DTYPES, torch

torch.set_num_threads(1)  # tiny ops are much slower through torch's thread pool
F = torch.nn.functional

FLOATS = ("float16", "bfloat16", "float32", "float64")
INTS = ("uint8", "int8", "int16", "int32", "int64")
COMPLEX = ("complex64", "complex128")
NAN, INF = float("nan"), float("inf")
CASES = 700  # random cases per test (each test a fixed seed): ~0.5 s each on 2 cores

# Cases where mindtorch is known to diverge because of code outside this test's scope
# (files owned elsewhere); each entry: (regex matched against the case name, reason).
# A matching case is allowed to diverge.
KNOWN_FAILURES = [
    (r"^a(max|min)\(.*\[repeated dims of an empty tensor\]",
     ("amax over an empty dim listed twice: torch reports the empty dim (IndexError), the "
      "bindings (registry.py/_argcheck.wrap_dims) the repetition first (RuntimeError)")),
    (r"^norm\(.*'nuc'", "norm(p='nuc') needs a singular value decomposition (linalg)"),
]


# -- random operands ------------------------------------------------------------------------

SPECIAL_FLOATS = [NAN, INF, -INF, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, 1e30,
                  -1e30, 1e-30, 65504.0, 70000.0, 3.3e38, 1e-42, 100.0, 0.1]


def _np_dtype(name):
    return getattr(M, name).np


def rand_values(rng, dtype, shape, special=0.15, small=False):
    """numpy array of dtype name `dtype`: moderate values, with a fraction `special` of
    extreme ones (nan/inf/-0.0/overflowing/denormal floats, min/max integers).  small:
    keep values where every op is well defined (no specials, ints in [-3, 3])."""
    n = int(np.prod(shape))
    if dtype == "bool":
        return (rng.random(n) < 0.5).reshape(shape)
    if dtype in INTS:
        info = np.iinfo(_np_dtype(dtype))
        lo, hi = max(info.min, -3 if small else -9), 4 if small else 10
        v = rng.integers(lo, hi, n)
        if not small and n:
            extreme = rng.random(n) < special
            v = np.where(extreme, rng.choice([info.min, info.max, 0, 1, info.max - 1,
                                              max(info.min, -1)], n), v)
        return v.astype(_np_dtype(dtype)).reshape(shape)
    part = []
    for _ in range(2 if dtype in COMPLEX else 1):
        v = rng.standard_normal(n) * rng.choice([1.0, 3.0, 20.0], n)
        if rng.random() < 0.3:
            v = np.round(v * 2) / 2  # halves: rounding ties, integral values
        if not small and n:
            extreme = rng.random(n) < special
            v = np.where(extreme, rng.choice(SPECIAL_FLOATS, n), v)
        part.append(v)
    with np.errstate(all="ignore"):
        if dtype in COMPLEX:
            return (part[0] + 1j * part[1]).astype(_np_dtype(dtype)).reshape(shape)
        return part[0].astype(_np_dtype(dtype)).reshape(shape)


def _torch_from(base):
    if base.dtype == M.bfloat16.np:  # the same bits (torch's float -> bfloat16 of a nan
        # sets the sign bit)
        return torch.from_numpy(base.view(np.int16).copy()).view(torch.bfloat16)
    return torch.from_numpy(base.copy())


LAYOUTS = ("contiguous", "contiguous", "transposed", "stepped", "expanded", "strided")


def make_pair(rng, dtype, shape, layout=None, **kw):
    """(mindtorch tensor, torch tensor, description) holding the same values in the same
    layout: a view of a random base tensor (the same view op on both)."""
    shape = tuple(shape)
    nd = len(shape)
    layout = layout or LAYOUTS[rng.integers(len(LAYOUTS))]
    if nd == 0 and layout in ("transposed", "stepped"):
        layout = "contiguous"
    if layout == "transposed" and nd >= 2:
        perm = [int(p) for p in rng.permutation(nd)]
        inv = [perm.index(i) for i in range(nd)]
        base = rand_values(rng, dtype, [shape[p] for p in perm], **kw)
        view = lambda t: t.permute(*inv)
    elif layout == "stepped":
        starts = [int(rng.integers(2)) for _ in shape]
        base = rand_values(rng, dtype, [2 * s + 1 for s in shape], **kw)
        index = tuple(slice(st, st + 2 * s, 2) for st, s in zip(starts, shape))
        view = lambda t: t[index]
    elif layout == "expanded":
        small = tuple(1 if rng.random() < 0.5 else s for s in shape)
        base = rand_values(rng, dtype, small, **kw)
        view = lambda t: t.expand(shape)
    elif layout == "strided":
        n = int(np.prod(shape))
        order = [int(p) for p in rng.permutation(nd)]
        stride, acc = [0] * nd, 2
        for d in reversed(order):
            stride[d] = acc
            acc *= max(shape[d], 1)
        offset = int(rng.integers(3))
        base = rand_values(rng, dtype, (2 * n + 4,), **kw)
        view = lambda t: t.as_strided(shape, stride, offset)
    else:
        layout = "contiguous"
        base = rand_values(rng, dtype, shape, **kw)
        view = lambda t: t
    mt, th = view(M.tensor(base)), view(_torch_from(base))
    return mt, th, f"{dtype}{list(shape)}:{layout}"


SCALARS = {
    "bool": [True, False],
    "int": [0, 1, -1, 2, 3, -3, 7, 100, 255, 256, -129, 1000, 2 ** 31, 2 ** 62, -2 ** 63,
            2 ** 63, 2 ** 64 + 1],
    "float": [0.0, -0.0, 0.5, -1.5, 2.0, 2.5, 3.7, -7.25, 1e10, 1e300, INF, -INF, NAN, 1e-300],
    "complex": [1 + 2j, -0.5j, 2 + 0j, complex(NAN, 1.0), complex(INF, 0.0), 0j],
}


def rand_scalar(rng, kinds=("bool", "int", "float", "complex"), small=False):
    kind = kinds[rng.integers(len(kinds))]
    values = SCALARS[kind]
    if small:  # values every dtype holds
        values = {"int": [0, 1, 2, 3, -1], "float": [0.5, -1.5, 2.0, 2.5]}.get(kind, values)
    return values[rng.integers(len(values))]


def rand_shape(rng, max_dims=3):
    nd = int(rng.choice([0, 1, 1, 2, 2, 3][:max_dims + 2]))
    sizes = [0, 1, 1, 2, 3, 4]
    return tuple(int(rng.choice(sizes)) if rng.random() < 0.5 else int(rng.integers(1, 5))
                 for _ in range(nd))


def broadcast_partner(rng, shape):
    """A shape broadcasting with `shape` (trailing dims, some set to 1, maybe extra dims);
    sometimes a shape that does not broadcast."""
    if rng.random() < 0.05 and shape:
        return tuple(s + 1 for s in shape)  # mismatch: a broadcast error
    k = int(rng.integers(len(shape) + 1))
    out = [1 if rng.random() < 0.3 else s for s in shape[len(shape) - k:]]
    if rng.random() < 0.2:
        out = [int(rng.integers(1, 3))] + out if not shape else [2] + out
    return tuple(out)


# -- running both libraries -------------------------------------------------------------------

def _builtin(e):
    return next(c for c in type(e).__mro__ if c.__module__ == "builtins")


def _to_torch(t):
    a = np.array(t.float().numpy() if t.dtype is M.bfloat16 else t.numpy())
    r = torch.from_numpy(a)
    return r.to(torch.bfloat16) if t.dtype is M.bfloat16 else r


def _tol(dtype, loose=False):
    """(rtol, atol) for results of dtype: assert_close's defaults, widened for 16-bit floats
    (torch and numpy round intermediate results differently) and for `loose` ops."""
    base = {"torch.float16": (2e-3, 1e-3), "torch.bfloat16": (1.6e-2, 1e-2),
            "torch.float32": (1.3e-6, 1e-5), "torch.complex64": (1.3e-6, 1e-5),
            "torch.float64": (1e-7, 1e-7), "torch.complex128": (1e-7, 1e-7)}.get(str(dtype))
    if base is None:
        return 0, 0
    factor = 100 if loose == 2 else 30 if loose else 1  # 2: complex powers (exp(b log a))
    return base[0] * factor, base[1] * factor


def diff(got, want, loose=False, tol_dtype=None):
    """None when mindtorch's result `got` matches torch's `want`, else a description.
    tol_dtype: the dtype the result was computed in, when wider than the result's (out=)."""
    if isinstance(want, torch.Tensor):
        if not isinstance(got, M.Tensor):
            return f"result type {type(got).__name__}, torch gives a Tensor"
        if str(got.dtype) != str(want.dtype):
            return f"dtype {got.dtype} != torch's {want.dtype}"
        if tuple(got.shape) != tuple(want.shape):
            return f"shape {tuple(got.shape)} != torch's {tuple(want.shape)}"
        rtol, atol = _tol(want.dtype, loose)
        if tol_dtype is not None:
            rtol, atol = (max(x, y) for x, y in zip((rtol, atol), _tol(tol_dtype, loose)))
        g = _to_torch(got)
        if want.is_complex():
            # real and imaginary parts apart (inf - inf would be nan); values with a
            # non-finite part only need to be non-finite on both sides (complex inf/nan
            # arithmetic differs between C libraries: (nan-infj)**7 is inf+nanj in torch,
            # nan+nanj in numpy; exp2(inf+4j) -inf+infj and inf+nanj)
            g, want = (torch.view_as_real(x.resolve_conj()).clone() for x in (g, want))
            for x in (g, want):
                x[(~x.isfinite()).any(-1)] = NAN
        try:
            torch.testing.assert_close(g, want, rtol=rtol, atol=atol,
                                       equal_nan=True, check_stride=False)
        except AssertionError as e:
            return "values differ: " + " ".join(str(e).split())[:300] + \
                f" got={_to_torch(got).flatten()[:8].tolist()} " \
                f"want={want.flatten()[:8].tolist()}"
        return None
    if isinstance(want, (tuple, list)):
        if not isinstance(got, (tuple, list)) or len(got) != len(want):
            return f"result {type(got).__name__} of length {len(got)}, torch {want!r}"
        if hasattr(want, "_fields") and getattr(got, "_fields", None) != want._fields:
            return f"fields {getattr(got, '_fields', None)} != {want._fields}"
        for g, w in zip(got, want):
            d = diff(g, w, loose, tol_dtype)
            if d:
                return d
        return None
    if got != want and not (_is_nan(got) and _is_nan(want)):
        return f"{got!r} != torch's {want!r}"
    if type(got) is not type(want):
        return f"result type {type(got).__name__} != torch's {type(want).__name__}"
    return None


class Checker:
    """Runs cases and collects divergences (case name -> description)."""

    def __init__(self):
        self.failures = []
        self.count = 0

    def __call__(self, name, mfn, tfn, loose=False, post=None, tol_dtype=None):
        """mfn/tfn: zero-argument callables running the case in mindtorch / torch.
        post(mt_result, th_result) may return an extra divergence (e.g. identity)."""
        self.count += 1
        self.last_ok = False  # both returned, and the results agree
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                want = tfn()
            except Exception as e:  # noqa: BLE001 - any torch error is matched by class
                if "ComplexHalf" in str(e):
                    return  # mindtorch has no complex32 (float16 with a complex scalar)
                expected = _builtin(e)
                try:
                    mfn()
                except Exception as mine:  # noqa: BLE001
                    # as reference.same_error: an instance of torch's builtin class (so a
                    # NotImplementedError matches torch's RuntimeError, not the reverse)
                    if not isinstance(mine, expected):
                        self.fail(name, f"raised {type(mine).__name__}({mine}); torch raised "
                                        f"{type(e).__name__}({str(e)[:150]})")
                    return
                self.fail(name, f"returned; torch raised {type(e).__name__}({str(e)[:150]})")
                return
            try:
                got = mfn()
            except Exception as mine:  # noqa: BLE001
                self.fail(name, f"raised {type(mine).__name__}({str(mine)[:200]}); torch "
                                f"returned {_short(want)}")
                return
        if _complex32(want):
            return  # mindtorch has no complex32 (torch gives it to float16 with a complex)
        d = diff(got, want, loose, tol_dtype) or (post(got, want) if post else None)
        if d:
            self.fail(name, d)
        else:
            self.last_ok = True

    def fail(self, name, what):
        for pattern, _ in KNOWN_FAILURES:
            if re.search(pattern, name):
                return
        self.failures.append(f"{name}: {what}")

    def report(self, limit=40):
        if self.failures:
            shown = "\n".join(self.failures[:limit])
            pytest.fail(f"{len(self.failures)} of {self.count} cases diverge from torch:\n"
                        f"{shown}", pytrace=False)


def _is_nan(x):
    return isinstance(x, (float, complex)) and cmath.isnan(x)


def _complex32(x):
    if isinstance(x, (tuple, list)):
        return any(_complex32(v) for v in x)
    return isinstance(x, torch.Tensor) and x.dtype is torch.complex32


def _short(x):
    if isinstance(x, torch.Tensor):
        return f"Tensor(dtype={x.dtype}, shape={tuple(x.shape)})"
    return repr(x)[:80]


def _dt(name):
    return getattr(M, name), getattr(torch, name)


def rand_dtype(rng, choices=DTYPES):
    return choices[rng.integers(len(choices))]


def _pick(rng, seq):
    return seq[rng.integers(len(seq))]


# -- shared by several tests ------------------------------------------------------------

# ops whose float results numpy and torch's vectorized math compute to a few ulps
LOOSE = {"tan", "tanh", "sinh", "cosh", "exp", "exp2", "expm1", "pow", "sigmoid", "erf",
         "gelu", "silu", "lerp", "atan2", "asin", "acos", "log1p", "logsumexp", "std", "var",
         "norm", "mean", "sum", "cumsum", "prod", "rsqrt", "reciprocal", "div", "true_divide",
         "divide", "sin", "cos", "log", "log2", "log10", "remainder", "fmod"}


def _complex_pow_of_nonfinite(a, b):
    """Complex powers of inf/nan follow each C library's special-value rules (torch's
    (-0.7) ** (nan+infj) is 0): not compared."""
    try:
        complex_result = torch.result_type(a, b).is_complex
    except Exception:  # noqa: BLE001 - an invalid case, compared as such
        return False
    def finite(x):
        return bool(torch.isfinite(x).all()) if isinstance(x, torch.Tensor) else \
            math.isfinite(abs(x))
    return complex_result and not (finite(a) and finite(b))


def _no_trap(operand):
    """operand without int32/int64 minimum values (x / -1 of those traps in torch)."""
    m, t, desc = operand
    if isinstance(t, torch.Tensor) and t.dtype in (torch.int32, torch.int64):
        lo = torch.iinfo(t.dtype).min
        if bool((t == lo).any()):
            t = torch.where(t == lo, lo + 1, t)
            m = M.tensor(t.numpy())
    elif isinstance(t, int) and t <= -2 ** 31:
        m = t = -5
    return m, t, desc
