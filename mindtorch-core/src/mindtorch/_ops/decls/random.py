"""Random ops.

Primitives with kernels are the in-place samplers (uniform_, normal_, random_,
bernoulli_, exponential_, cauchy_, log_normal_, geometric_) plus normal (tensor
mean/std), multinomial, randperm and the distributions' samplers (poisson, binomial,
_standard_gamma, _sample_dirichlet, with the gradients _standard_gamma_grad and
_dirichlet_grad).  Factories and *_like ops decompose into
empty + an in-place sampler, as PyTorch builds them, so every device with those
samplers gets them all.  Kernels draw from `generator_for(generator, device).state()`.

The checks below only look at dtypes and scalar arguments (no data); cpu kernels and
meta rules share them so both devices reject the same inputs with PyTorch's errors.
"""
from ... import _dtype as D
from ..._device import canonical
from ..._shapes import broadcast_shapes
from ..._shapes import numel as _numel
from ..._strides import check_no_internal_overlap
from ..._tensor import Tensor
from ...autograd.functional_helpers import zeros
from .._argcheck import factory_layout
from ..registry import OPS, define, derivative, nondifferentiable, overload, route_overloads
from ._helpers import (
    NOT_IMPLEMENTED_NODE, _type_name, has_data, no_derivative, unimplemented_derivative,
)
from .creation import _empty, _empty_like, _fresh

_GEN = "*, Generator? generator=None"
_FACTORY = "Generator? generator=None, ScalarType? dtype=None, Device? device=None, " \
           "bool requires_grad=False"
_LIKE = "*, Generator? generator=None, ScalarType? dtype=None, Device? device=None, " \
        "bool requires_grad=False, MemoryFormat? memory_format=None"

# -- checks shared by kernels and meta rules ------------------------------------------------

# C++ names PyTorch uses in its range errors
_CPP_NAMES = {"bool": "bool", "uint8": "unsigned char", "int8": "signed char",
              "int16": "short int", "int32": "int", "int64": "long", "float16": "c10::Half",
              "bfloat16": "c10::BFloat16", "float32": "float", "float64": "double",
              "uint16": "short unsigned int", "uint32": "unsigned int",
              "uint64": "long unsigned int"}
# integers a floating dtype represents exactly: [-(2**digits), 2**digits]
FLOAT_DIGITS = {"float16": 11, "bfloat16": 8, "float32": 24, "float64": 53}


def not_implemented(what, dtype):
    return NotImplementedError(f'"{what}" not implemented for \'{_type_name(dtype)}\'')


def check_writable(self):
    """The in-place samplers refuse a tensor whose elements share memory (expanded)."""
    check_no_internal_overlap(self._shape, self._stride)


def check_uniform(self, low, high):
    """PyTorch's check_uniform_bounds (a complex tensor is drawn as its real view, and an
    empty one is not checked at all)."""
    check_writable(self)
    if self.dtype.kind not in "fc":
        raise not_implemented("check_uniform_bounds", self.dtype)
    if self.dtype.kind == "c" and not self.numel():
        return
    real = self.dtype.to_real()
    top = D.finfo(real).max
    for name, v in (("from", low), ("to", high)):
        if not -top <= v <= top:  # (NaN too)
            raise RuntimeError(f"{name} is out of bounds for {_CPP_NAMES[real.name]}")
    if low > high:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found "
                           f"from={_num(low)} > to={_num(high)}")
    if high - low > top:
        raise RuntimeError(f"uniform_ expects to-from <= std::numeric_limits<"
                           f"{_type_name(real)}>::max(), but found to={_num(high)} and "
                           f"from={_num(low)} which result in to-from to exceed the limit")


def check_normal(dtype, std, tensor_std=False, numel=1):
    """normal_'s checks: std first; the dtype only when there is something to draw."""
    if not tensor_std and not std >= 0:  # (NaN too)
        raise RuntimeError(f"normal expects std >= 0.0, but found std {_num(std)}")
    if numel and dtype.kind not in "fc":
        raise not_implemented("normal_kernel_cpu", dtype)


def random_bounds(dtype, low, high, numel=1):
    """The inclusive integer range random_(low, high) draws from (high None: the widest
    the dtype holds exactly), after PyTorch's checks.  random_() (low 0, high None) only
    checks the dtype when there is something to draw; explicit bounds always do."""
    if dtype.kind == "c":
        if high is not None and low >= high:  # (checked first, as PyTorch)
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got "
                               f"from={low} >= to={high}")
        if high is not None:
            raise RuntimeError("check_random_bounds handles only integral, floating-point and "
                               "boolean types")
        if low != 0:
            raise RuntimeError("random_from_to_impl handles only integral, floating-point and "
                               "boolean types")
        if numel:
            raise not_implemented("random_kernel_cpu", dtype)
        return 0, 0
    if dtype.kind == "f":
        return _float_bounds(dtype, low, high)
    if dtype is D.bool:
        lo_lim, hi_lim = 0, 1
    else:
        info = D.iinfo(dtype)
        lo_lim, hi_lim = info.min, info.max
    if high is None:  # up to the largest value the dtype holds
        if dtype._limited and low == 0 and numel:  # (uint16/32/64: no such kernel)
            raise not_implemented("random_kernel_cpu", dtype)
        hi = hi_lim
        if dtype is D.uint64 and low != 0:  # (its max, taken as an int64, is -1)
            raise RuntimeError(f"to - 1 is out of bounds for {_CPP_NAMES[dtype.name]}")
        if low == _INT64_MIN and dtype is D.bool:  # (the full 64-bit range's kernel)
            raise not_implemented("random_full_64_bits_range_kernel_cpu", dtype)
        if low == _INT64_MIN and dtype is not D.int64:
            raise RuntimeError("random_full_64_bits_range_kernel_cpu handles only int64, "
                               "double, float and bfloat16")
        if not lo_lim <= low <= hi_lim:
            raise RuntimeError(f"from is out of bounds for {_CPP_NAMES[dtype.name]}")
        if low > hi:
            raise RuntimeError(f"random_ expects 'from' casted to dtype to be less than or equal "
                               f"to 'to_inc' casted to dtype, but got from={low} > to_inc={hi}")
        return low, hi
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= "
                           f"to={high}")
    name = _CPP_NAMES[dtype.name]
    if not lo_lim <= low <= hi_lim:
        raise RuntimeError(f"from is out of bounds for {name}")
    if not lo_lim <= high - 1 <= hi_lim:
        raise RuntimeError(f"to - 1 is out of bounds for {name}")
    return low, high - 1


_FLOAT_MAX = {"float16": 65504.0, "bfloat16": 3.3895313892515355e38,
              "float32": 3.4028234663852886e38, "float64": 1.7976931348623157e308}
_INT64_MIN = -(1 << 63)


def _round_bits(v, bits):
    """The integer v rounded to `bits` significant bits, to nearest, ties to even."""
    shift = abs(v).bit_length() - bits
    if shift <= 0:
        return v
    q, r = divmod(abs(v), 1 << shift)
    if r > 1 << (shift - 1) or (r == 1 << (shift - 1) and q & 1):
        q += 1
    return (q << shift) * (-1 if v < 0 else 1)


def _through_dtype(dtype, v):
    """static_cast<int64_t>(static_cast<scalar_t>(v)) on x86: the int64 rounded through
    float (double: directly), then to the 16-bit type; out of range (inf) -> INT64_MIN."""
    digits = FLOAT_DIGITS[dtype.name]
    r = _round_bits(_round_bits(v, 53 if digits == 53 else 24), digits)
    return r if abs(r) <= _FLOAT_MAX[dtype.name] and abs(r) < 1 << 63 else _INT64_MIN


def _wrap64(v):
    return (v + (1 << 63)) % (1 << 64) - (1 << 63)


def _float_bounds(dtype, low, high):
    """PyTorch's random_ bounds for a floating dtype: a bound the dtype rounds past itself
    moves back by the dtype's spacing there (update_from / update_to), from must stay below
    to, both must be in the dtype's range, and a warning says when they leave the
    integers it holds exactly, [-2**digits, 2**digits].  Returns [from, to - 1]."""
    digits, name = FLOAT_DIGITS[dtype.name], _CPP_NAMES[dtype.name]
    if high is None and low == _INT64_MIN:  # the full 64-bit range
        if dtype is D.float16:
            raise not_implemented("random_full_64_bits_range_kernel_cpu", dtype)
        return low, (1 << 63) - 1
    if high is not None and low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= "
                           f"to={high}")
    if _through_dtype(dtype, low + 1) < low:
        low = _wrap64(_through_dtype(dtype, low + 1) +
                      (1 << (max(abs(low + 1).bit_length() - 1, 0) - digits + 1)))
    if high is None:
        to_inc = 1 << digits
        if not low < to_inc:
            raise RuntimeError(f"random_ expects 'from' casted to dtype to be less than or equal "
                               f"to 'to_inc' casted to dtype, but got from={low} > "
                               f"to_inc={to_inc}")
    else:
        if _through_dtype(dtype, high - 1) >= high:
            high = _wrap64(_through_dtype(dtype, high - 1) -
                           (1 << (max(abs(high - 1).bit_length() - 1, 0) - digits + 1)))
        if not low < high:
            raise RuntimeError(f"random_ expects 'from' casted to dtype to be less than 'to' "
                               f"casted to dtype, but got from={low} >= to={high}")
        to_inc = high - 1
    for what, v in (("from", low), ("to - 1", to_inc)):
        if not -_FLOAT_MAX[dtype.name] <= v <= _FLOAT_MAX[dtype.name]:
            raise RuntimeError(f"{what} is out of bounds for {name}")
    for what, v in (("from", low), ("to - 1", to_inc)):
        if not -(1 << digits) <= v <= 1 << digits:
            import warnings

            from ..._warn_once import _user_level
            warnings.warn(f"{what} is out of bounds [-(2^{digits}), 2^{digits}]. Due to "
                          f"precision limitations {name} can support discrete uniform "
                          f"distribution only within this range. This warning will become an "
                          f"error in version 1.7 release, please fix the code in advance",
                          UserWarning, stacklevel=_user_level())
    return low, to_inc


def check_bernoulli(self, p):
    """p: a probability (Python number) or a floating tensor broadcastable to self.  The
    dtypes are only checked when there is something to draw."""
    check_writable(self)
    draws = self.numel() != 0
    if hasattr(p, "_shape"):
        if draws and (self.dtype.kind == "c" or self.dtype._limited):
            raise not_implemented("bernoulli_tensor_cpu_self_", self.dtype)
        if draws and p.dtype.kind != "f":
            raise not_implemented("bernoulli_tensor_cpu_p_", p.dtype)
        p.expand(self._shape)  # PyTorch's error when p does not broadcast to self
        return
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_num(p)}")
    if draws and (self.dtype.kind == "c" or self.dtype._limited):
        raise not_implemented("bernoulli_scalar_cpu_", self.dtype)


_CONTINUOUS = {"exponential_": "Exponential", "cauchy_": "Cauchy"}
_LONG_NAMES = {"int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
               "uint8": "unsigned char", "bool": "bool", "complex64": "c10::complex<float>",
               "complex128": "c10::complex<double>", "uint16": "short unsigned int",
               "uint32": "unsigned int", "uint64": "long unsigned int"}


def check_distribution(name, self, a, b=None):
    """Parameter and dtype checks of exponential_(lambd), cauchy_(median, sigma),
    log_normal_(mean, std) and geometric_(p): the parameter first; the dtype only when
    there is something to draw (except cauchy_, which always checks it)."""
    check_writable(self)
    dt = self.dtype
    draws = self.numel() != 0
    if name == "exponential_":
        if not a > 0:
            raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={_num(a)}")
        if draws and dt.kind != "f":
            raise RuntimeError(f"Exponential distribution is a continuous probability "
                               f"distribution. dtype must be a floating point but you "
                               f"specified {_type_name(dt)}")
    elif name == "cauchy_":
        if not b > 0:
            raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={_num(b)}")
        if dt.kind != "f":
            raise RuntimeError(f"Cauchy distribution is a continuous probability distribution. "
                               f"dtype must be a floating point but you specified "
                               f"{_LONG_NAMES.get(dt.name, _type_name(dt))}")
    elif name == "log_normal_":
        if not b > 0:
            raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={_num(b)}")
        if draws and dt.kind != "f":
            raise not_implemented("log_normal_cpu", dt)
    elif name == "geometric_":
        if not 0 < a < 1:
            raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={_num(a)}")
        if draws and (dt.kind not in "uif" or dt._limited):
            raise not_implemented("geometric_cpu", dt)


def _check_multinomial_input(self):
    if self.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if self.dtype.kind != "f":
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{_type_name(self.dtype)}")


def check_multinomial(self, num_samples, replacement):
    _check_multinomial_input(self)
    n = self._shape[-1]
    if not replacement and num_samples > n:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if n > 1 << 24:
        raise RuntimeError("number of categories cannot exceed 2^24")
    return self._shape[:-1] + (num_samples,)


def check_randperm(n, dtype):
    dtype = dtype or D.int64
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    if dtype.kind not in "uif" or dtype._limited:
        raise not_implemented("randperm", dtype)
    if dtype is D.float16 and n > 2049:  # (PyTorch bounds only Half and Float)
        raise RuntimeError("n cannot be greater than 2049 for Half type.")
    if dtype is D.float32 and n > (1 << 24) + 1:
        raise RuntimeError("n cannot be greater than 2^24+1 for Float type.")
    if dtype.kind != "f" and n > 0 and n - 1 > D.iinfo(dtype).max:
        raise RuntimeError(f"value cannot be converted to type {dtype.name}_t without overflow")
    return dtype


def check_poisson(self):
    if self.dtype.kind != "f":
        raise not_implemented("poisson_cpu", self.dtype)


def check_gamma(kernel, self):
    """_standard_gamma ("gamma_cpu") and _sample_dirichlet ("dirichlet"): float32/64."""
    if self.dtype not in (D.float32, D.float64):
        raise not_implemented(kernel, self.dtype)


def check_gamma_grad(kernel, first, *others):
    """_standard_gamma_grad / _dirichlet_grad: the operands broadcast and share one dtype
    (PyTorch's TensorIterator messages), a float32/64 one; returns the result's shape."""
    shape = broadcast_shapes(first._shape, *(t._shape for t in others))
    for t in others:
        if t.dtype is not first.dtype:
            raise RuntimeError(f"Found dtype {_type_name(t.dtype)} but expected "
                               f"{_type_name(first.dtype)}")
    check_gamma(kernel, first)
    return shape


def check_binomial(count, prob):
    """binomial's checks; the result's shape (count and prob broadcast)."""
    for name, t in (("count", count), ("prob", prob)):
        if t.dtype.kind != "f":
            raise ValueError(f"binomial only supports floating-point dtypes for {name}, got: "
                             f"{_type_name(t.dtype)}")
    shape = broadcast_shapes(count._shape, prob._shape)
    if prob.dtype is not count.dtype:
        raise RuntimeError(f"Found dtype {_type_name(prob.dtype)} but expected "
                           f"{_type_name(count.dtype)}")
    if count.dtype not in (D.float32, D.float64):
        raise not_implemented("binomial_cpu", count.dtype)
    return shape


def normal_result(mean, std):
    """(shape, dtype) of normal(mean, std) with tensor mean and/or std, after checks."""
    mt, st = hasattr(mean, "_shape"), hasattr(std, "_shape")
    if st and std.dtype.kind == "c":
        raise RuntimeError("normal expects standard deviation to be non-complex")
    dtype = mean.dtype if mt else std.dtype
    shape = broadcast_shapes(*(t._shape for t in (mean, std) if hasattr(t, "_shape")))
    if dtype.kind not in "fc" and not _numel(shape) and mt and st:
        # PyTorch's empty-input path adds the float draws into the integer output
        raise RuntimeError(f"result type Float can't be cast to the desired output type "
                           f"{_type_name(dtype)}")
    check_normal(dtype, std, tensor_std=st)
    return shape, dtype


def _num(x):
    """x as PyTorch prints a double in these messages (C++'s stream: %g, so 1.0 -> 1 and
    123456789 -> 1.23457e+08)."""
    return f"{float(x):g}"


_INT64 = (-(1 << 63), (1 << 63) - 1)


def _check_int64(*values):
    for v in values:
        if v is not None and not _INT64[0] <= v <= _INT64[1]:
            raise ValueError("Overflow when unpacking long long")


# -- decompositions -------------------------------------------------------------------------

def _rand(size, generator=None, dtype=None, device=None):
    return _fresh(_empty(size, dtype, device).uniform_(0, 1, generator=generator))


def _randn(size, generator=None, dtype=None, device=None):
    return _fresh(_empty(size, dtype, device).normal_(0, 1, generator=generator))


def _randint(low, high, size, generator=None, dtype=None, device=None):
    _check_int64(low, high)
    return _fresh(_empty(size, dtype or D.int64, device).random_(low, high, generator=generator))


def _normal_float_float(mean, std, size, generator=None, dtype=None, device=None):
    return _fresh(_empty(size, dtype, device).normal_(mean, std, generator=generator))


def _like(sampler):
    def like(self, generator=None, dtype=None, device=None, memory_format=None):
        return _fresh(sampler(_empty_like(self, dtype, device, memory_format), generator))
    return like


def _randint_like(self, low, high, generator=None, dtype=None, device=None,
                  memory_format=None):
    _check_int64(low, high)
    t = _empty_like(self, dtype, device, memory_format)
    return _fresh(t.random_(low, high, generator=generator))


_BERNOULLI_SIGNATURES = (
    "bernoulli() received an invalid combination of arguments - got ({}), but expected one "
    "of:\n * (Tensor input, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (Tensor input, float p, *, torch.Generator generator = None)\n")


def _route_bernoulli(args, kwargs):
    """PyTorch's bernoulli(input, *, generator, out) and bernoulli(input, p, *, generator):
    no out= with p."""
    p = args[1] if len(args) > 1 else kwargs.get("p")
    if p is not None and kwargs.get("out") is not None:
        raise TypeError(_BERNOULLI_SIGNATURES.format(f"Tensor, {type(p).__name__}, out=Tensor"))
    return args, kwargs


def _bernoulli_public(binding):
    """bernoulli(input, out=) as PyTorch's: out resized (silently) to input's shape and drawn
    into in place, in its own dtype and memory order."""
    def bernoulli(*args, **kwargs):
        args, kwargs = _route_bernoulli(args, kwargs)
        out = kwargs.pop("out", None)
        if out is None:
            return binding(*args, **kwargs)
        if not isinstance(out, Tensor):
            raise TypeError(_BERNOULLI_SIGNATURES.format(f"Tensor, out={type(out).__name__}"))
        from ...autograd.grad_mode import state
        from .._argcheck import out_requires_grad
        named = dict(zip(("self", "p", "generator"), args), **kwargs)
        self = named.get("self", named.get("input"))
        if not isinstance(self, Tensor):
            return binding(*args, out=out, **kwargs)  # (the binding's own errors)
        if state.enabled and (self.requires_grad or out.requires_grad):
            out_requires_grad(OPS["bernoulli"])
        if out._shape != self._shape:
            out.resize_(self._shape)
        return out.bernoulli_(self, generator=named.get("generator"))
    return bernoulli


def _bernoulli(self, p=None, generator=None):
    # a contiguous result (PyTorch's legacy contiguous format): drawn in logical order
    t = _empty_like(self, None, None, "contiguous_format")
    return _fresh(t.bernoulli_(self if p is None else p, generator=generator))


def _check_dropout_p(p):
    if not 0 <= p <= 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {_num(p)}")


def _native_dropout(input, p, train=True):
    import mindtorch as M
    if not input.numel():  # PyTorch returns early: a mask of input's dtype, no checks
        return input.clone(), M.empty_like(input)
    if train is False:  # PyTorch: an identity with an all-true mask
        return input.clone(), M.ones_like(input, dtype=M.bool)
    if input.dtype.kind not in "fc":
        raise RuntimeError(f"result type Float can't be cast to the desired output type "
                           f"{_type_name(input.dtype)}")
    if input.dtype.kind == "c" and input.numel():  # its mask is drawn in input's dtype
        raise not_implemented("bernoulli_scalar_cpu_", input.dtype)
    keep = _empty_like(input, D.bool, None, None).bernoulli_(1 - p)
    scale = 0.0 if p == 1 else 1.0 / (1.0 - p)
    return input * keep * scale, keep


def _dropout(input, p=0.5, train=True):
    _check_dropout_p(p)
    if not train or p == 0 or not input.numel():
        return input
    if p == 1:  # PyTorch multiplies by a zero of input's dtype (any dtype)
        return OPS["mul"].call(input, OPS["zeros"].binding((), dtype=input.dtype,
                                                             device=input.device))
    if input.dtype.kind != "f":  # (native_dropout raises PyTorch's errors for these)
        return OPS["native_dropout"].call(input, p, train)[0]
    # PyTorch's cpu dropout (_dropout_impl): noise of input's dtype and layout, divided by
    # 1 - p in that dtype, times input (16-bit results round as PyTorch's)
    noise = _empty_like(input, None, None, None).bernoulli_(1 - p)
    return input * noise.div_(1 - p)


# -- overloads PyTorch resolves by argument count ------------------------------------------



def _factory_kwargs(kwargs):
    """PyTorch factories' layout= and pin_memory= (strided, unpinned tensors only here),
    and out=: the draw takes out's dtype, which an explicit dtype= must equal (and an
    explicit device= out's device type)."""
    if "layout" in kwargs or "pin_memory" in kwargs or "out" in kwargs:
        kwargs = dict(kwargs)
        factory_layout(kwargs.pop("layout", None), kwargs.pop("pin_memory", False))
        out = kwargs.get("out")
        if out is not None and hasattr(out, "dtype"):
            dtype = kwargs.get("dtype")
            if dtype is None:
                kwargs["dtype"] = out.dtype
            elif dtype is not out.dtype:
                raise RuntimeError(f"dtype {_type_name(dtype)} does not match dtype of out "
                                   f"parameter ({_type_name(out.dtype)})")
            device = kwargs.get("device")
            if device is not None and canonical(device).type != out.device.type:
                raise RuntimeError(f"device type {canonical(device).type} does not match "
                                   f"device type of out parameter ({out.device.type})")
    return kwargs


def _route_factory(name):
    def route(args, kwargs):
        if not args and "size" not in kwargs:  # rand() / randn(): PyTorch wants a size
            raise TypeError(f"{name}() received an invalid combination of arguments - got (), "
                            f"but expected one of: (tuple of ints size, *, torch.Generator "
                            f"generator, torch.dtype dtype, torch.layout layout, torch.device "
                            f"device, bool pin_memory, bool requires_grad)")
        return args, _factory_kwargs(kwargs)
    return route


# out= of the factories drawing through an in-place sampler: (parameter names, draw)
_FACTORY_OUT = {
    "rand": (("size",), lambda t, a, g: t.uniform_(0, 1, generator=g)),
    "randn": (("size",), lambda t, a, g: t.normal_(0, 1, generator=g)),
    "randint": (("low", "high", "size"),
                lambda t, a, g: (_check_int64(a["low"], a["high"]),
                                 t.random_(a["low"], a["high"], generator=g))[1]),
    "normal_float_float": (("mean", "std", "size"),
                           lambda t, a, g: t.normal_(a["mean"], a["std"], generator=g)),
}


def _drawn_into_out(name, route):
    """A random factory's public function: out= as PyTorch's, out resized to the size
    (silently) and drawn into in place, so in its memory order (and, for normal_, through
    the path its layout takes); other calls go to the binding."""
    names, draw = _FACTORY_OUT[name]

    def make(binding):
        def public(*args, **kwargs):
            args, kwargs = route(args, kwargs)
            out = kwargs.get("out")
            if not isinstance(out, Tensor) or out.requires_grad:
                return binding(*args, **kwargs)
            if names == ("size",) and args and all(isinstance(a, int) for a in args):
                args = (args,)  # (rand(2, 3))
            given = dict(zip(names, args), **kwargs)
            size = given.get("size")
            if not isinstance(size, (tuple, list)) or not all(
                    type(d) is int and d >= 0 for d in size) or len(args) > len(names):
                return binding(*args, **kwargs)  # (its errors)
            if out._shape != tuple(size):
                out.resize_(size)
            return draw(out, given, given.get("generator"))
        return public
    return make


def _route_randperm(args, kwargs):
    return args, _factory_kwargs(kwargs)


def _route_randint(args, kwargs):
    # randint(high, size) / randint(low, high, size): two given bounds-or-size without
    # `low` mean (high, size)
    given = len(args) + sum(k in kwargs for k in ("low", "high", "size"))
    if given == 2 and "low" not in kwargs:
        names = [n for n in ("high", "size") if n not in kwargs]
        kwargs = dict(kwargs, low=0, **dict(zip(names, args)))
        args = ()
    size = args[2] if len(args) > 2 else kwargs.get("size")
    if isinstance(size, int):  # PyTorch's randint takes no varargs size
        raise TypeError("randint(): argument 'size' must be tuple of ints, not int")
    return args, _factory_kwargs(kwargs)


def _route_randint_like(args, kwargs):
    # randint_like(self, high) / randint_like(self, low, high)
    if len(args) + ("low" in kwargs) + ("high" in kwargs) == 2 and "low" not in kwargs \
            and args:
        if len(args) == 2:
            return (args[0], 0, args[1]), kwargs
        return (args[0],), dict(kwargs, low=0)
    return args, kwargs


def _route_random(args, kwargs):
    # random_(self, to): a single bound is the exclusive upper one
    if len(args) == 2 and "to" not in kwargs and "from" not in kwargs:
        return (args[0], 0, args[1]), kwargs
    if "from" in kwargs:
        if len(args) < 3 and "to" not in kwargs:  # no overload takes `from` alone
            raise TypeError("random_() received an invalid combination of arguments - got "
                            "(from=int, ), but expected one of: (*, torch.Generator "
                            "generator), (int from, int to, *, torch.Generator generator), "
                            "(int to, *, torch.Generator generator)")
        kwargs = dict(kwargs)
        kwargs["from_"] = kwargs.pop("from")
    return _explicit_open_range(args, kwargs)


def _explicit_open_range(args, kwargs):
    """random_(0, None) spelled out: the binding would take it for random_() (one call),
    whose draws differ for int32 (32-bit draws; PyTorch's from-to kernel takes 64-bit ones
    for ranges of 2**28 or more), so the bound is made explicit: the dtype's max + 1."""
    given = dict(zip(("self", "from_", "to"), args), **kwargs)
    self = given.get("self")
    if ("to" in given and given["to"] is None and given.get("from_") == 0
            and isinstance(self, Tensor) and self.dtype.kind in "iu"):
        if self.dtype is D.uint64:  # (its max, taken as an int64, is -1)
            raise RuntimeError("to - 1 is out of bounds for long unsigned int")
        if self.dtype.itemsize < 8:
            given["to"] = D.iinfo(self.dtype).max + 1
            return (), given
    return args, kwargs


def _multinomial_long_out(binding):
    """multinomial's out= must be int64, checked after the input's own checks and before
    anything is drawn."""
    def multinomial(*args, out=None, **kwargs):
        if out is None:
            return binding(*args, **kwargs)
        if getattr(out, "dtype", D.int64) is not D.int64:
            self = args[0] if args else kwargs.get("self")
            if isinstance(self, Tensor):
                _check_multinomial_input(self)
            raise RuntimeError(f"multinomial expects Long tensor out, got: "
                               f"{_type_name(out.dtype)}")
        return binding(*args, out=out, **kwargs)
    return multinomial


def _route_uniform(args, kwargs):
    if "from" in kwargs:
        kwargs = dict(kwargs)
        kwargs["from_"] = kwargs.pop("from")
    return args, kwargs


def _normal_into(op, out, mean, std, generator):
    """normal(mean, std, out=) as PyTorch's: out resized, standard normals drawn into it (in
    its dtype and memory order), multiplied by a tensor std, the mean added, in place."""
    from ...autograd.grad_mode import state
    from .._argcheck import out_requires_grad
    from ..dispatch import write_out
    shape, _ = normal_result(mean, std)
    if state.enabled and any(getattr(t, "requires_grad", False) for t in (mean, std, out)):
        out_requires_grad(op)
    tensor_std = hasattr(std, "_shape")
    # (NaN too; meta tensors have no values to check)
    if tensor_std and std.numel() and has_data(std) and not bool((std >= 0).all()):
        raise RuntimeError("normal expects all elements of std >= 0.0")
    if out._shape != shape:  # (resized with PyTorch's warning)
        write_out(op, out, _empty(shape, out.dtype, out.device))
    out.normal_(0.0, 1.0 if tensor_std else std, generator=generator)
    if tensor_std:
        out.mul_(std)
    return out.add_(mean)


def _normal_is_float_form(args, kwargs):
    """normal(mean, std, size, ...) with float mean/std makes a fresh tensor; the other
    overloads take a tensor mean and/or std (two floats alone are refused, as in torch)."""
    if len(args) >= 3 or "size" in kwargs:
        size = args[2] if len(args) >= 3 else kwargs["size"]
        if isinstance(size, int) or len(args) > 3:
            raise TypeError(f"normal(): argument 'size' (position 3) must be tuple of ints, "
                            f"not {type(size).__name__}")
        return True
    mean = args[0] if args else kwargs.get("mean")
    std = args[1] if len(args) > 1 else kwargs.get("std")
    if not hasattr(mean, "_shape") and not hasattr(std, "_shape"):
        raise TypeError(f"normal() received an invalid combination of arguments - got "
                        f"({', '.join(type(a).__name__ for a in args)}), but expected one of: "
                        f"(Tensor mean, Tensor std), (Tensor mean, float std), "
                        f"(float mean, Tensor std), (float mean, float std, tuple of ints size)")
    return False


def _declare():
    overload(define(f"rand(int[] size, *, {_FACTORY}) -> Tensor", varargs="size",
                    method=False, out=True, tags=("random", "factory"), decomposition=_rand),
             _drawn_into_out("rand", _route_factory("rand")))
    overload(define(f"randn(int[] size, *, {_FACTORY}) -> Tensor", varargs="size",
                    method=False, out=True, tags=("random", "factory"), decomposition=_randn),
             _drawn_into_out("randn", _route_factory("randn")))
    overload(define(f"randint(int low, int high, int[] size, *, {_FACTORY}) -> Tensor",
                    method=False, out=True, tags=("random", "factory"),
                    decomposition=_randint), _drawn_into_out("randint", _route_randint))
    route_overloads(define(f"randperm(int n, *, {_FACTORY}) -> Tensor", method=False, out=True,
                           tags=("random", "factory")), _route_randperm)
    define(f"rand_like(Tensor self, {_LIKE}) -> Tensor", method=False, tags=("random",),
           decomposition=_like(lambda t, g: t.uniform_(0, 1, generator=g)))
    define(f"randn_like(Tensor self, {_LIKE}) -> Tensor", method=False, tags=("random",),
           decomposition=_like(lambda t, g: t.normal_(0, 1, generator=g)))
    route_overloads(define(f"randint_like(Tensor self, int low, int high, {_LIKE}) -> Tensor",
                           method=False, tags=("random",), decomposition=_randint_like),
                    _route_randint_like)

    inplace = ("random", "inplace")
    define(f"uniform_(Tensor(a!) self, float from=0, float to=1, {_GEN}) -> Tensor(a!)",
           function=False, tags=inplace)
    route_overloads(OPS["uniform_"], _route_uniform)
    define(f"normal_(Tensor(a!) self, float mean=0, float std=1, {_GEN}) -> Tensor(a!)",
           function=False, tags=inplace)
    route_overloads(define(f"random_(Tensor(a!) self, int from=0, int? to=None, {_GEN}) "
                           f"-> Tensor(a!)", function=False, tags=inplace), _route_random)
    define(f"bernoulli_(Tensor(a!) self, Tensor|Scalar p=0.5, {_GEN}) -> Tensor(a!)",
           function=False, tags=inplace)
    define(f"exponential_(Tensor(a!) self, float lambd=1, {_GEN}) -> Tensor(a!)",
           function=False, tags=inplace)
    define(f"cauchy_(Tensor(a!) self, float median=0, float sigma=1, {_GEN}) -> Tensor(a!)",
           function=False, tags=inplace)
    define(f"log_normal_(Tensor(a!) self, float mean=1, float std=2, {_GEN}) -> Tensor(a!)",
           function=False, tags=inplace)
    define(f"geometric_(Tensor(a!) self, float p, {_GEN}) -> Tensor(a!)",
           function=False, tags=inplace)

    overload(define(f"bernoulli(Tensor self, float? p=None, {_GEN}) -> Tensor", out=True,
                    tags=("random",), decomposition=_bernoulli), _bernoulli_public)
    overload(define(f"multinomial(Tensor self, int num_samples, bool replacement=False, "
                    f"{_GEN}) -> Tensor", out=True, tags=("random",)), _multinomial_long_out)
    # normal's float-mean/float-std/size overload is its own (hidden) op: one schema per op
    float_form = define(f"normal_float_float(float mean, float std, int[] size, *, {_FACTORY}) "
                        f"-> Tensor", out=True, function=False, method=False,
                        tags=("random", "factory"), decomposition=_normal_float_float)
    tensor_form = define(f"normal(Tensor|Scalar mean, Tensor|Scalar std=1, {_GEN}) -> Tensor",
                         out=True, method=False, tags=("random",))

    def make_normal(tensor_binding):
        def normal(*args, **kwargs):
            if _normal_is_float_form(args, kwargs):
                public = _drawn_into_out("normal_float_float",
                                         lambda a, k: (a, _factory_kwargs(k)))
                return public(float_form.binding)(*args, **kwargs)
            if isinstance(kwargs.get("out"), Tensor) and len(args) <= 2:
                named = dict(zip(("mean", "std"), args), **kwargs)
                if set(named) <= {"mean", "std", "generator", "out"} and "mean" in named:
                    return _normal_into(tensor_form, named["out"], named["mean"],
                                        named.get("std", 1.0), named.get("generator"))
            return tensor_binding(*args, **kwargs)
        return normal
    overload(tensor_form, make_normal)

    # (these four take the generator positionally too, as PyTorch's)
    gen = "Generator? generator=None"
    define(f"poisson(Tensor self, {gen}) -> Tensor", method=False, tags=("random",))
    define(f"binomial(Tensor count, Tensor prob, {gen}) -> Tensor", method=False,
           tags=("random",))
    define(f"_standard_gamma(Tensor self, {gen}) -> Tensor", method=False, tags=("random",))
    define(f"_sample_dirichlet(Tensor self, {gen}) -> Tensor", method=False,
           tags=("random",))
    define("_standard_gamma_grad(Tensor self, Tensor output) -> Tensor", method=False)
    define("_dirichlet_grad(Tensor x, Tensor alpha, Tensor total) -> Tensor", method=False)
    define("native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)",
           method=False, tags=("random",), decomposition=_native_dropout)
    define("dropout(Tensor input, float p=0.5, bool train=True) -> Tensor", method=False,
           tags=("random",), decomposition=_dropout)



# -- backward formulas: as in PyTorch, samples carry a zero gradient to the tensors they were
# drawn into or parameterised by (returned broadcast: the engine sums them to each input)

def _bernoulli_grad(grad, p):
    if p is not None:  # PyTorch has no formula for bernoulli(input, p)
        raise NotImplementedError("the derivative for 'bernoulli' with a float p is not "
                                  "implemented.")
    return zeros(grad)



def _is_tensor(x):
    return isinstance(x, Tensor)


def _derivatives():
    for name in ("uniform_", "normal_", "random_", "exponential_", "cauchy_", "log_normal_",
                 "geometric_"):
        derivative(OPS[name], self=zeros)
    # PyTorch numbers the nodes by overload: a Tensor or a float p, mean or std
    derivative(OPS["bernoulli_"], self=zeros, p=zeros,
               name=lambda self, p, generator: f"BernoulliBackward{1 if _is_tensor(p) else 2}")
    derivative(OPS["bernoulli"], self=_bernoulli_grad)
    derivative(OPS["normal"], mean=zeros, std=zeros, name=lambda mean, std, generator:
               f"NormalBackward{_is_tensor(mean) + 2 * _is_tensor(std)}")
    derivative(OPS["poisson"], self=zeros)
    derivative(OPS["binomial"], count=no_derivative("binomial"),
               prob=no_derivative("binomial"), name=NOT_IMPLEMENTED_NODE)
    derivative(OPS["_sample_dirichlet"], self=no_derivative("_sample_dirichlet"),
               name=NOT_IMPLEMENTED_NODE)
    derivative(OPS["_standard_gamma"], self=lambda grad, self, result:
               grad * OPS["_standard_gamma_grad"].call(self, result))
    # (output: no derivative in PyTorch, so no edge)
    derivative(OPS["_standard_gamma_grad"],
               self=unimplemented_derivative("_standard_gamma_grad"))
    derivative(OPS["_dirichlet_grad"], **{name: no_derivative("_dirichlet_grad")
                                          for name in ("x", "alpha", "total")},
               name=NOT_IMPLEMENTED_NODE)
    nondifferentiable(OPS["multinomial"])


_declare()
_derivatives()
