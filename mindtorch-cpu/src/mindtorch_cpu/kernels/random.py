"""Random kernels: numpy draws from the generator's state (an np.random.Generator made
by the cpu device's `generator`).  In-place samplers fill their tensor through its
strided numpy view; the factories and *_like ops are decompositions into these."""
import numpy as np

from mindtorch import Tensor
from mindtorch import _dtype as D
from mindtorch._ops.decls import random as R
from mindtorch._random import generator_for

from .._np import CPU, arr, wrap


def _rng(generator):
    if generator is not None and generator.device.type != "cpu":
        raise RuntimeError(f"Expected a 'cpu' device type for generator but found "
                           f"'{generator.device.type}'")
    return generator_for(generator, CPU).state()


def _fill(self, values):
    """Write sampled values (any real/complex numpy dtype) into self; returns self."""
    a = arr(self)
    if a.size:
        a[...] = values.astype(a.dtype, copy=False)
    return self


def _real_shape(self):
    """Shape to sample: complex tensors sample real and imaginary parts separately."""
    return self._shape + (2,) if self.dtype.is_complex else self._shape


def _as_complex(self, values):
    return values[..., 0] + 1j * values[..., 1] if self.dtype.is_complex else values


def _unit_uniform(rng, shape, dtype):
    """Uniform in [0, 1) on the grid of the dtype's mantissa, so that rounding to the
    dtype never yields 1 (as PyTorch draws)."""
    digits = R.FLOAT_DIGITS[dtype.to_real().name]
    if digits == 53:
        return rng.random(shape)
    if digits == 24:
        return rng.random(shape, dtype=np.float32)
    return rng.integers(0, 1 << digits, shape) * (1.0 / (1 << digits))


def uniform_(self, low=0.0, high=1.0, generator=None):
    R.check_uniform(self, low, high)
    u = _unit_uniform(_rng(generator), _real_shape(self), self.dtype)
    return _fill(self, _as_complex(self, u * (high - low) + low if (low, high) != (0, 1) else u))


def _standard_normal(rng, shape, dtype):
    wide = dtype.to_real() is D.float64
    return rng.standard_normal(shape, dtype=np.float64 if wide else np.float32)


def normal_(self, mean=0.0, std=1.0, generator=None):
    R.check_normal(self.dtype, std, numel=self.numel())
    z = _standard_normal(_rng(generator), _real_shape(self), self.dtype)
    if self.dtype.is_complex:  # each part has variance std**2 / 2 (PyTorch's convention)
        std = std / np.sqrt(2)
    return _fill(self, _as_complex(self, z * std + mean))


def random_(self, low=0, high=None, generator=None):
    lo, hi = R.random_bounds(self.dtype, low, high, self.numel())
    return _fill(self, _rng(generator).integers(lo, hi, self._shape, dtype=np.int64,
                                                endpoint=True))


def bernoulli_(self, p=0.5, generator=None):
    R.check_bernoulli(self, p)
    rng = _rng(generator)
    if isinstance(p, Tensor):
        probs = np.broadcast_to(arr(p).astype(np.float64), self._shape)
        if probs.size and not ((probs >= 0) & (probs <= 1)).all():
            raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.")
    else:
        probs = p
    return _fill(self, rng.random(self._shape) < probs)


def _continuous(name, sample):
    def kernel(self, a=None, b=None, generator=None):
        R.check_distribution(name, self, a, b)
        return _fill(self, sample(_rng(generator), self._shape, a, b))
    kernel.__name__ = name
    return kernel


# name -> sampler(rng, shape, first parameter, second parameter)
_DISTRIBUTIONS = {
    "exponential_": lambda rng, shape, lambd, _: rng.exponential(1.0 / lambd, shape),
    "cauchy_": lambda rng, shape, median, sigma: median + sigma * rng.standard_cauchy(shape),
    "log_normal_": lambda rng, shape, mean, std: rng.lognormal(mean, std, shape),
    "geometric_": lambda rng, shape, p, _: rng.geometric(p, shape),
}


def _one_param(kernel):
    return lambda self, a, generator=None: kernel(self, a, None, generator)


def multinomial(self, num_samples, replacement=False, generator=None):
    shape = R.check_multinomial(self, num_samples, replacement)
    rows = 1 if self.ndim == 1 else self._shape[0]
    p = arr(self).astype(np.float64).reshape(rows, self._shape[-1])
    if p.size and not (np.isfinite(p).all() and (p >= 0).all()):
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    total = p.sum(axis=1, keepdims=True)
    if (total <= 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    rng = _rng(generator)
    if not replacement:
        # PyTorch's algorithm: the largest p / Exp(1) keys; categories of probability 0
        # come last, once the others are exhausted
        keys = p / rng.exponential(size=p.shape)
        out = np.argsort(-keys, axis=1, kind="stable")[:, :num_samples]
    else:
        cdf = np.cumsum(p / total, axis=1)
        u = rng.random((p.shape[0], num_samples))
        # the last category of non-zero probability absorbs rounding at the top of the cdf
        last = p.shape[1] - 1 - np.argmax(p[:, ::-1] > 0, axis=1)
        out = np.empty(u.shape, np.int64)
        for row in range(p.shape[0]):
            out[row] = np.minimum(np.searchsorted(cdf[row], u[row], side="right"), last[row])
    return wrap(out.reshape(shape).astype(np.int64), D.int64)


def randperm(n, generator=None, dtype=None, device=None):
    dtype = R.check_randperm(n, dtype)
    return wrap(_rng(generator).permutation(n), dtype)


def normal(mean, std=1.0, generator=None):
    shape, dtype = R.normal_result(mean, std)
    m = arr(mean) if isinstance(mean, Tensor) else mean
    s = arr(std) if isinstance(std, Tensor) else std
    if isinstance(std, Tensor) and s.size and not (s >= 0).all():  # (NaN too)
        raise RuntimeError("normal expects all elements of std >= 0.0")
    z = _standard_normal(_rng(generator), shape + ((2,) if dtype.is_complex else ()), dtype)
    if dtype.is_complex:
        z = (z[..., 0] + 1j * z[..., 1]) / np.sqrt(2)
    return wrap(z * s + m, dtype)


def poisson(self, generator=None):
    R.check_poisson(self)
    rates = arr(self).astype(np.float64)
    if rates.size and not (rates >= 0).all():  # (NaN too)
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    with np.errstate(invalid="ignore"):
        draws = np.asarray(_rng(generator).poisson(np.minimum(rates, 1e18)), np.float64)
    return wrap(draws, self.dtype)


KERNELS = {
    "uniform_": uniform_, "normal_": normal_, "random_": random_, "bernoulli_": bernoulli_,
    "multinomial": multinomial, "randperm": randperm, "normal": normal, "poisson": poisson,
}
for _name, _sample in _DISTRIBUTIONS.items():
    _k = _continuous(_name, _sample)
    KERNELS[_name] = _one_param(_k) if _name in ("exponential_", "geometric_") else _k
