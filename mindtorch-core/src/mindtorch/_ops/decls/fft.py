"""Discrete Fourier transforms: torch.fft.

Three kernel ops, as PyTorch's: `_fft_c2c` (complex to complex, either direction),
`_fft_r2c` (real to complex, forward; `onesided` keeps the last dim's n // 2 + 1
non-redundant terms) and `_fft_c2r` (Hermitian complex to real, backward direction; the
last dim's output length is given).  Each transforms the dims listed, scaled by
`normalization`: 0 none, 1 by 1/sqrt(n), 2 by 1/n (n the signal's element count).  Their
metadata rules are here (every backend calls them) with their backward formulas, and
`result_order`: the layout (strides) of PyTorch's CPU results, which the cpu kernels give
theirs (the meta device's results are contiguous).

The public functions (`mindtorch.fft.fft`, `rfft2`, `hfftn`, `fftfreq`, `fftshift`, ...)
decompose into them: they promote the input, wrap and check dims and sizes in torch's
order, zero-pad or trim the input to the requested sizes, and map the `norm` string to
the scaling of the direction they compute."""
from ... import _dtype as D
from ..registry import OPS, define, derivative, overload
from ._helpers import _type_name
from ._out_rules import _checked_out


def _M():
    import mindtorch
    return mindtorch


NONE, BY_ROOT_N, BY_N = 0, 1, 2  # normalization of the kernel ops


# -- metadata rules of the kernel ops ---------------------------------------------------------

def _check_dims(self, dim):
    if not dim:  # (PyTorch fails reading the last of an empty list)
        raise RuntimeError("FFT: at least one dimension to transform must be given")
    if len(set(dim)) != len(dim):
        raise RuntimeError("FFT dims must be unique")


def c2c_meta(self, dim, normalization, forward):
    if not self.dtype.is_complex:
        raise RuntimeError(f"Only supports complex dtypes, but found: {_type_name(self.dtype)}")
    if len(set(dim)) != len(dim):
        raise RuntimeError("FFT dims must be unique")
    return self._shape, self.dtype


def r2c_meta(self, dim, normalization, onesided):
    if self.dtype not in (D.float32, D.float64):
        raise RuntimeError(f"Only supports floating-point dtypes, but found: "
                           f"{_type_name(self.dtype)}")
    _check_dims(self, dim)
    shape = list(self._shape)
    if onesided:
        shape[dim[-1]] = shape[dim[-1]] // 2 + 1
    return tuple(shape), self.dtype.to_complex()


def c2r_meta(self, dim, normalization, last_dim_size):
    if not self.dtype.is_complex:
        raise RuntimeError(f"Only supports complex dtypes, but found: {_type_name(self.dtype)}")
    _check_dims(self, dim)
    if last_dim_size < 1:
        raise RuntimeError(f"Invalid number of data points ({last_dim_size}) specified")
    shape = list(self._shape)
    if shape[dim[-1]] not in (last_dim_size // 2 + 1, last_dim_size):
        # (an internal assert in PyTorch: the caller sizes the onesided input)
        raise RuntimeError(f"_fft_c2r: expected {last_dim_size // 2 + 1} (or "
                           f"{last_dim_size}) input elements along dim {dim[-1]} for an "
                           f"output of {last_dim_size}, but got {shape[dim[-1]]}")
    shape[dim[-1]] = last_dim_size
    return tuple(shape), self.dtype.to_real()


def _batch_first(ndim, dims):
    """The dims not transformed, as libstdc++'s std::partition of 0..ndim-1 leaves them
    (it swaps from both ends)."""
    order, first, last = list(range(ndim)), 0, ndim
    while True:
        while first != last and order[first] not in dims:
            first += 1
        if first == last:
            return order[:first]
        last -= 1
        while first != last and order[last] in dims:
            last -= 1
        if first == last:
            return order[:first]
        order[first], order[last] = order[last], order[first]
        first += 1


def by_stride(strides, dims):
    """dims, larger strides first (stable, as std::sort's insertion sort of so few)."""
    return sorted(dims, key=lambda d: -strides[d])


def result_order(strides, dims):
    """PyTorch's CPU layout of a transform over `dims` (in the order it runs them): the
    result's dims from outermost to innermost, the others first in the input's stride
    order, then `dims`.  (c2c runs its dims sorted by stride, r2c all but the last.)"""
    return by_stride(strides, _batch_first(len(strides), dims)) + list(dims)


# -- backward formulas ------------------------------------------------------------------------

def _c2c_grad(grad, dim, normalization, forward):
    return OPS["_fft_c2c"].call(grad, dim, normalization, not forward)


def _pad_last(t, dim, size):
    """t zero-padded at the end of `dim` to `size`."""
    missing = size - t._shape[dim]
    if missing <= 0:
        return t
    pad = [0] * (2 * t.ndim)
    pad[2 * (t.ndim - 1 - dim) + 1] = missing
    return OPS["constant_pad_nd"].call(t, pad, 0)


def _r2c_grad(grad, self_geometry, dim, normalization, onesided):
    # the adjoint of a real-to-complex DFT: the inverse complex DFT of the gradient (the
    # dropped half of a onesided result contributes nothing: zeros), real part
    grad = _pad_last(grad, dim[-1], self_geometry[0][dim[-1]])
    return OPS["_fft_c2c"].call(grad, dim, normalization, False).real


def _c2r_grad(grad, self_geometry, dim, normalization):
    # a onesided input term but the first (and the last when the output length is even)
    # stands for itself and its conjugate mirror: its gradient counts twice
    g = OPS["_fft_r2c"].call(grad, dim, normalization, True)
    last = dim[-1]
    k, n = g._shape[last], grad._shape[last]
    doubled = n - k
    if doubled > 0:
        shape = [1] * g.ndim
        shape[last] = k
        twice = _M().ones(k, dtype=g.dtype.to_real(), device=g.device)
        twice[1:1 + doubled] = 2
        g = g * twice.reshape(shape)
    # (a full-length input: the terms past the onesided half are not read)
    return _pad_last(g, last, self_geometry[0][last])


# -- the public functions ---------------------------------------------------------------------

def _norm(norm, forward):
    """The kernel scaling for `norm` in the direction computed."""
    if norm is None or norm == "backward":
        return NONE if forward else BY_N
    if norm == "forward":
        return BY_N if forward else NONE
    if norm == "ortho":
        return BY_ROOT_N
    raise RuntimeError(f'Invalid normalization mode: "{norm}"')


def _promote(x, require_complex=False):
    """torch's promote_tensor_fft: integers and bool to the default float dtype; only
    float32 and float64 (and their complex types) have kernels."""
    t = x.dtype
    if t.is_complex:
        return x
    if not t.is_floating_point:
        t = D.get_default_dtype()
    if t not in (D.float32, D.float64):
        raise RuntimeError(f"Unsupported dtype {_type_name(t)}")
    if require_complex:
        t = t.to_complex()
    return x if t is x.dtype else x.to(t)


def _wrap(dim, ndim):
    if ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    if not -ndim <= dim < ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-ndim}, {ndim - 1}], but got {dim})")
    return dim % ndim


def _points(n):
    if n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")
    return n


def _resize(x, dims, sizes):
    """x zero-padded or trimmed to `sizes` along `dims`."""
    pad = [0] * (2 * x.ndim)
    for d, n in zip(dims, sizes):
        have = x._shape[d]
        if n > have:
            pad[2 * (x.ndim - 1 - d) + 1] = n - have
        elif n < have:
            x = x.narrow(d, 0, n)
    if any(pad):
        x = OPS["constant_pad_nd"].call(x, pad, 0)
    return x


def _shape_and_dims(x, s, dim):
    """torch's canonical (sizes, dims) of an n-dimensional transform: dims default to the
    last len(s) ones (all without s), sizes of -1 or absent to the input's."""
    ndim = x.ndim
    if dim is not None:
        dim = tuple(_wrap(d, ndim) for d in dim)
        if len(set(dim)) != len(dim):
            raise RuntimeError("FFT dims must be unique")
    if s is not None:
        if dim is not None and len(dim) != len(s):
            raise RuntimeError("When given, dim and shape arguments must have the same "
                               "length")
        if len(s) > ndim:
            raise RuntimeError(f"Got shape with {len(s)} values but input tensor only has "
                               f"{ndim} dimensions.")
        if dim is None:
            dim = tuple(range(ndim - len(s), ndim))
        s = tuple(x._shape[d] if n == -1 else n for d, n in zip(dim, s))
    else:
        dim = tuple(range(ndim)) if dim is None else dim
        s = tuple(x._shape[d] for d in dim)
    for n in s:
        _points(n)
    return s, dim


def _refuse_complex(name, x, what="real"):
    if x.dtype.is_complex:
        raise RuntimeError(f"{name} expects a {what} input tensor, but got "
                           f"{_type_name(x.dtype)}")


# one-dimensional: complex input goes c2c, real input r2c (both halves for fft/ifft)

def _c2c_1d(x, n, dim, norm, forward):
    dim = _wrap(dim, x.ndim)
    n = _points(x._shape[dim] if n is None else n)
    x = _resize(x, (dim,), (n,))
    return OPS["_fft_c2c"].call(x, (dim,), _norm(norm, forward), forward)


def _r2c_1d(name, x, n, dim, norm, forward, onesided):
    _refuse_complex(name, x)
    x = _promote(x)
    dim = _wrap(dim, x.ndim)
    n = _points(x._shape[dim] if n is None else n)
    x = _resize(x, (dim,), (n,))
    out = OPS["_fft_r2c"].call(x, (dim,), _norm(norm, forward), onesided)
    return out if forward else out.conj()  # (the inverse DFT of real data)


def _c2r_1d(x, n, dim, norm, forward):
    x = _promote(x, require_complex=True)
    dim = _wrap(dim, x.ndim)
    n = _points(2 * (x._shape[dim] - 1) if n is None else n)
    x = _resize(x, (dim,), (n // 2 + 1,))
    if forward:  # hfft: the forward transform of Hermitian data
        x = x.conj()
    return OPS["_fft_c2r"].call(x, (dim,), _norm(norm, forward), n)


def _fft(self, n=None, dim=-1, norm=None):
    if self.dtype.is_complex:
        return _c2c_1d(self, n, dim, norm, True)
    return _r2c_1d("fft", self, n, dim, norm, True, False)


def _ifft(self, n=None, dim=-1, norm=None):
    if self.dtype.is_complex:
        return _c2c_1d(self, n, dim, norm, False)
    return _r2c_1d("ifft", self, n, dim, norm, False, False)


def _rfft(self, n=None, dim=-1, norm=None):
    return _r2c_1d("rfft", self, n, dim, norm, True, True)


def _ihfft(self, n=None, dim=-1, norm=None):
    return _r2c_1d("ihfft", self, n, dim, norm, False, True)


def _irfft(self, n=None, dim=-1, norm=None):
    return _c2r_1d(self, n, dim, norm, False)


def _hfft(self, n=None, dim=-1, norm=None):
    return _c2r_1d(self, n, dim, norm, True)


# n-dimensional (fft2 & co. are these with dim=(-2, -1))

def _fftn_c2c(forward):
    def fftn(self, s=None, dim=None, norm=None):
        s, dim = _shape_and_dims(self, s, dim)
        x = _resize(_promote(self, require_complex=True), dim, s)
        return OPS["_fft_c2c"].call(x, dim, _norm(norm, forward), forward)
    return fftn


def _rfftn(self, s=None, dim=None, norm=None, name="rfftn"):
    _refuse_complex(name, self, "real-valued")
    s, dim = _shape_and_dims(self, s, dim)
    if not s:
        raise RuntimeError(f"{name} must transform at least one axis")
    x = _resize(_promote(self), dim, s)
    return OPS["_fft_r2c"].call(x, dim, _norm(norm, True), True)


def _c2r_shape_and_dims(name, x, s, dim):
    """(input sizes, dims, output length of the last dim) of a c2r transform."""
    sizes, dim = _shape_and_dims(x, s, dim)
    if not sizes:
        raise RuntimeError(f"{name} must transform at least one axis")
    last = 2 * (x._shape[dim[-1]] - 1) if s is None or s[-1] == -1 else sizes[-1]
    _points(last)
    return sizes[:-1] + (last // 2 + 1,), dim, last


def _irfftn(self, s=None, dim=None, norm=None):
    sizes, dim, last = _c2r_shape_and_dims("irfftn", self, s, dim)
    x = _resize(_promote(self, require_complex=True), dim, sizes)
    return OPS["_fft_c2r"].call(x, dim, _norm(norm, False), last)


def _hfftn(self, s=None, dim=None, norm=None):
    sizes, dim, last = _c2r_shape_and_dims("hfftn", self, s, dim)
    x = _resize(_promote(self, require_complex=True), dim, sizes)
    scale = _norm(norm, True)
    if len(dim) > 1:
        x = OPS["_fft_c2c"].call(x, dim[:-1], scale, True)
    return OPS["_fft_c2r"].call(x.conj(), dim[-1:], scale, last)


def _ihfftn(self, s=None, dim=None, norm=None):
    s, dim = _shape_and_dims(self, s, dim)
    if not s:
        raise RuntimeError("ihfftn must transform at least one axis")
    x = _resize(_promote(self), dim, s)
    scale = _norm(norm, False)
    out = OPS["_fft_r2c"].call(x, dim[-1:], scale, True).conj()
    if len(dim) > 1:
        out = OPS["_fft_c2c"].call(out, dim[:-1], scale, False)
    return out


# frequencies and shifts

def _scale(n, d):
    import math
    return 1.0 / (n * d) if n * d else math.copysign(math.inf, d) if n else math.inf


def _freq_dtype(dtype, name="fftfreq"):
    dtype = D.get_default_dtype() if dtype is None else dtype
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(f"{name} requires a floating point or complex dtype")
    return dtype


def _freq_count(size):
    """The result's length, refused as torch's empty() refuses it."""
    if size < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {size}: [{size}]")
    return size


def _fftfreq(n, d=1.0, dtype=None, layout=None, device=None):
    dtype = _freq_dtype(dtype)
    M = _M()
    k = M.arange(_freq_count(n), dtype=dtype, device=device)
    if n > 1:
        k[(n + 1) // 2:] = M.arange(-(n // 2), 0, dtype=dtype, device=device)
    return k.mul_(_scale(n, d))


def _rfftfreq(n, d=1.0, dtype=None, layout=None, device=None):
    dtype = _freq_dtype(dtype, "rfftfreq")
    half = abs(n) // 2 * (1 if n >= 0 else -1)  # (C++'s n / 2, rounded toward zero)
    return _M().arange(_freq_count(half + 1), dtype=dtype, device=device).mul_(_scale(n, d))


def _shift(inverse):
    def shift(self, dim=None):
        dims = tuple(range(self.ndim)) if dim is None else \
            tuple(_wrap(d, self.ndim) for d in dim)
        shifts = tuple((self._shape[d] + inverse) // 2 for d in dims)
        return self.roll(shifts, dims)
    return shift


# out=: torch checks the kind of dtype (complex for complex results, floating for real
# ones), naming the n-dimensional function for the 2-dimensional ones (and fftn for ifftn)

def _out_kind(fname, complex_result):
    def rule(out, result, args, kwargs):
        if complex_result != out.dtype.is_complex or not (out.dtype.is_complex or
                                                          out.dtype.is_floating_point):
            raise RuntimeError(f"{fname} expects a "
                               f"{'complex' if complex_result else 'floating point'} output "
                               f"tensor, but got {_type_name(out.dtype)}")
        x = args[0] if args else kwargs.get("input", kwargs.get("self"))
        if fname in ("ifft", "ihfft") and not x.dtype.is_complex and \
                out.dtype is not result.dtype:  # (written by a conjugation into out)
            raise RuntimeError(f"Found dtype {_type_name(out.dtype)} but expected "
                               f"{_type_name(result.dtype)}")
    return rule


def _freq_out(binding):
    """fftfreq / rfftfreq with out=: computed in out's dtype, as torch's."""
    def freq(*args, out=None, **kwargs):
        if out is not None and kwargs.get("dtype") is None:
            if out.dtype.is_complex:
                raise NotImplementedError(f'"arange_cpu" not implemented for '
                                          f'\'{_type_name(out.dtype)}\'')
            kwargs["dtype"] = out.dtype
        return binding(*args, out=out, **kwargs)
    return freq


def _declare():
    fft = {"tags": ("fft",), "modules": ("fft",), "function": False, "method": False,
           "wrap_dims": False, "out": True}
    one = "Tensor self, int? n=None, int dim=-1, str? norm=None"
    two = "Tensor self, int[]? s=None, int[] dim=[-2,-1], str? norm=None"
    many = "Tensor self, int[]? s=None, int[]? dim=None, str? norm=None"
    fftn, ifftn = _fftn_c2c(True), _fftn_c2c(False)
    for name, fn in (("fft", _fft), ("ifft", _ifft), ("rfft", _rfft), ("irfft", _irfft),
                     ("hfft", _hfft), ("ihfft", _ihfft)):
        define(f"fft_{name}({one}) -> Tensor", decomposition=fn, **fft)
    for name, fn in (("fft", fftn), ("ifft", ifftn), ("rfft", _rfftn), ("irfft", _irfftn),
                     ("hfft", _hfftn), ("ihfft", _ihfftn)):
        define(f"fft_{name}n({many}) -> Tensor", decomposition=fn, **fft)
        define(f"fft_{name}2({two}) -> Tensor", decomposition=fn, **fft)
    factory = "*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, " \
              "bool requires_grad=False"
    define(f"fft_fftfreq(int n, float d=1.0, {factory}) -> Tensor", decomposition=_fftfreq,
           **fft)
    define(f"fft_rfftfreq(int n, float d=1.0, {factory}) -> Tensor", decomposition=_rfftfreq,
           **fft)
    for name in ("fft", "ifft", "rfft", "ihfft", "irfft", "hfft"):
        real = name in ("irfft", "hfft")
        _checked_out(OPS[f"fft_{name}"], _out_kind(name, not real))
        nd = "fftn" if name == "ifft" else f"{name}n"
        _checked_out(OPS[f"fft_{name}n"], _out_kind(nd, not real))
        _checked_out(OPS[f"fft_{name}2"], _out_kind(nd, not real))
    overload(OPS["fft_fftfreq"], _freq_out)
    overload(OPS["fft_rfftfreq"], _freq_out)
    shift = {k: v for k, v in fft.items() if k != "out"}
    define("fft_fftshift(Tensor self, int[]? dim=None) -> Tensor", decomposition=_shift(0),
           **shift)
    define("fft_ifftshift(Tensor self, int[]? dim=None) -> Tensor", decomposition=_shift(1),
           **shift)

    kernel = {"tags": ("fft",), "method": False}
    define("_fft_c2c(Tensor self, int[] dim, int normalization, bool forward) -> Tensor",
           **kernel)
    define("_fft_r2c(Tensor self, int[] dim, int normalization, bool onesided) -> Tensor",
           **kernel)
    define("_fft_c2r(Tensor self, int[] dim, int normalization, int last_dim_size) -> Tensor",
           **kernel)
    derivative(OPS["_fft_c2c"], self=_c2c_grad, name="FftC2CBackward0")
    derivative(OPS["_fft_r2c"], self=_r2c_grad, name="FftR2CBackward0")
    derivative(OPS["_fft_c2r"], self=_c2r_grad, name="FftC2RBackward0")


_declare()
