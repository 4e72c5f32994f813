"""The random ops' argument checks, shared by the cpu kernels and the meta rules so that
both devices reject the same inputs with PyTorch's errors.  They look at dtypes and
scalar arguments only (no data)."""
from ... import _dtype as D
from ..._shapes import broadcast_shapes
from ..._shapes import numel as _numel
from ..._strides import check_no_internal_overlap
from ._helpers import _type_name

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
    if dtype._limited == D._FP8:  # (no bounds: cpu's kernel refuses, check_float8_random)
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


def _check_from_to(low, high):
    if high is not None and low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= "
                           f"to={high}")


def check_float8_random(dtype, low, high, numel):
    """PyTorch's cpu random_ computes no bounds for the float8 types (its kernels lack
    them): the error its first dtype dispatch raises."""
    _check_from_to(low, high)
    if high is not None:
        raise not_implemented("random_update_from_to", dtype)
    if low != 0:
        raise not_implemented("random_from_to_range_calc", dtype)
    if numel:
        raise not_implemented("random_kernel_cpu", dtype)


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
