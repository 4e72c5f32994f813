"""Window functions (hann, hamming, blackman, bartlett, kaiser) built as PyTorch builds
them (an arange scaled and transformed in place, in the window's dtype), so the values
round alike; and the small complex-part functions torch.real / imag / conj."""
import math
import numbers

from ._ops._argcheck import _not_int, _type_name, factory_layout
from .overrides import dispatching


def _window(name, length, periodic, dtype, device, requires_grad, build):
    import mindtorch as M
    dtype = dtype or M.get_default_dtype()
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(f"{name} expects floating point dtypes, got: TensorOptions(dtype="
                           f"{_CPP.get(dtype.name, dtype.name)}, device=cpu, layout=Strided "
                           f"(default), requires_grad=false (default), pinned_memory=false, "
                           f"memory_format=(nullopt))")
    if type(length) is not int:  # (PyTorch's parser: ints and 0-dim integer tensors)
        if _not_int(length) or not hasattr(length, "__index__"):
            raise TypeError(f"{name}(): argument 'window_length' (position 1) must be int, "
                            f"not {_type_name(length)}")
        length = length.__index__()
    if length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got "
                           f"window_length={length}")
    if length <= 1:
        w = M.ones(length, dtype=dtype, device=device)
    elif dtype.is_complex:  # (PyTorch takes complex dtypes, and fails building the ramp)
        from ._dtype import scalar_type_name
        raise NotImplementedError(f"\"arange_cpu\" not implemented for "
                                  f"'{scalar_type_name(dtype)}'")
    else:
        n = length + 1 if periodic else length
        w = build(M, n, dtype, device)
        w = w.narrow(0, 0, length) if periodic else w
    return w.requires_grad_(requires_grad) if requires_grad else w


_CPP = {"int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
        "uint8": "unsigned char", "bool": "bool", "complex64": "c10::complex<float>",
        "complex128": "c10::complex<double>"}


_FACTORY_KW = {"dtype": None, "layout": None, "device": None, "pin_memory": False,
               "requires_grad": False}
_FACTORY_SIG = (", *, torch.dtype dtype = None, torch.layout layout = None, torch.device "
                "device = None, bool pin_memory = False, bool requires_grad = False")


def _fits(param, value):
    """PyTorch's parser: periodic takes a bool only; alpha and beta any real number."""
    if param == "periodic":
        return isinstance(value, bool)
    return isinstance(value, numbers.Real)


def _refuse_overloads(name, params, window_length, args, kwargs):
    """The TypeError of PyTorch's overload resolution: the window's overloads take
    window_length with a growing prefix of `params` (periodic, then alpha, beta...), so
    e.g. kaiser_window(n, beta=b) matches none of them (periodic is missing)."""
    got = [_type_name(window_length)] + [_type_name(a) for a in args] + \
        [f"{k}={_type_name(v)}" for k, v in reversed(kwargs.items())]  # (torch's order)
    lines = [", ".join(["int window_length"] + [
        f"{'bool' if p == 'periodic' else 'float'} {p}" for p in params[:k]]) + _FACTORY_SIG
        for k in range(len(params) + 1)]
    raise TypeError(f"{name}() received an invalid combination of arguments - got "
                    f"({', '.join(got)}), but expected one of:\n" +
                    "".join(f" * ({line})\n" for line in lines))


def _chosen(name, params, window_length, args, kwargs):
    """{param: value} of the overload PyTorch's parser picks (a prefix of params given,
    by position or keyword, of the accepted types), or its TypeError."""
    chosen = dict(zip(params, args))
    named = [k for k in kwargs if k not in _FACTORY_KW]
    chosen.update((k, kwargs[k]) for k in named)
    if len(args) > len(params) or set(named) - set(params) or \
            len(chosen) != len(args) + len(named) or \
            set(chosen) != set(params[:len(chosen)]) or \
            not all(_fits(p, v) for p, v in chosen.items()):
        _refuse_overloads(name, params, window_length, args, kwargs)
    return chosen


def _factory(name, build, **defaults):
    params = ("periodic",) + tuple(defaults)

    def window(window_length, *args, **kwargs):
        chosen = _chosen(name, params, window_length, args, kwargs)
        options = {k: kwargs.get(k, v) for k, v in _FACTORY_KW.items()}
        factory_layout(options["layout"], options["pin_memory"])
        periodic = chosen.pop("periodic", True)
        extra = dict(defaults, **chosen)
        return _window(name, window_length, periodic, options["dtype"], options["device"],
                       options["requires_grad"],
                       lambda M, n, dt, dev: build(M, n, dt, dev, **extra))
    window.__name__ = name
    return window


def _scalar(M, value, dtype):
    """value as PyTorch's C++ window code passes it (a Scalar overload: mul_.Scalar and
    add.Scalar round the number to a 16-bit float tensor's dtype before the arithmetic)."""
    if dtype in (M.float16, M.bfloat16):
        return M.tensor(value, dtype=dtype).item()
    return value


def _hamming(M, n, dtype, device, alpha=0.54, beta=0.46):
    w = M.arange(n, dtype=dtype, device=device)
    return w.mul_(_scalar(M, math.pi * 2.0 / (n - 1), dtype)).cos_() \
        .mul_(_scalar(M, -beta, dtype)).add_(_scalar(M, alpha, dtype))


def _blackman(M, n, dtype, device):
    w = M.arange(n, dtype=dtype, device=device).mul_(_scalar(M, math.pi / (n - 1), dtype))
    return w.mul(4).cos_().mul_(_scalar(M, 0.08, dtype)) - w.mul(2).cos_().mul_(0.5) + \
        _scalar(M, 0.42, dtype)


def _bartlett(M, n, dtype, device):
    w = M.arange(n, dtype=dtype, device=device).mul_(_scalar(M, 2.0 / (n - 1), dtype))
    half = ((n - 1) >> 1) + 1
    w.narrow(0, half, n - half).mul_(-1).add_(2)
    return w


def _kaiser(M, n, dtype, device, beta=12.0):
    # PyTorch's kernel evaluates each element in the op math type (float32 for 16-bit
    # floats) and rounds once
    op = M.float32 if dtype in (M.float16, M.bfloat16) else dtype
    alpha = (n - 1) / 2.0
    k = M.arange(n, dtype=dtype, device=device).to(op)
    w = M.special.i0(beta * (1 - ((k - alpha) / alpha) ** 2).clamp(min=0).sqrt()) / \
        M.special.i0(M.tensor(beta, dtype=op, device=device))
    return w.to(dtype)


hamming_window = _factory("hamming_window", _hamming, alpha=0.54, beta=0.46)
hann_window = _factory("hann_window", lambda M, n, dt, dev: _hamming(M, n, dt, dev, 0.5, 0.5))
blackman_window = _factory("blackman_window", _blackman)
bartlett_window = _factory("bartlett_window", _bartlett)
kaiser_window = _factory("kaiser_window", _kaiser, beta=12.0)


@dispatching
def real(input):
    return input.real


@dispatching
def imag(input):
    if not input.dtype.is_complex:
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return input.imag


@dispatching
def conj(input):
    return input.conj()


@dispatching
def is_signed(input):
    return input.dtype.is_signed


def scalar_tensor(s, *, dtype=None, layout=None, device=None, pin_memory=None,
                  requires_grad=False):
    import mindtorch as M

    from ._ops._argcheck import _is_number, _numpy_scalar
    factory_layout(layout, pin_memory)
    if isinstance(s, M.Tensor) and not s.dim():  # (PyTorch's parser: 0-dim tensors too)
        s = s.item()
    elif not _is_number(s):
        raise TypeError(f"scalar_tensor(): argument 's' (position 1) must be Number, not "
                        f"{_type_name(s)}")
    elif not isinstance(s, (bool, int, float, complex)):
        s = _numpy_scalar(s)
    # (a fill: the value is converted with c10's checks, as PyTorch's scalar_tensor)
    return M.full((), s, dtype=dtype or M.get_default_dtype(), device=device,
                  requires_grad=requires_grad)
