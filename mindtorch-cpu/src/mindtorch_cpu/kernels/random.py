"""Random kernels drawing PyTorch's numbers: the cpu generator's state is PyTorch's
Mersenne Twister (mindtorch_cpu.mt19937), and each kernel turns its 32- or 64-bit draws into
values as PyTorch's CPU kernels do (the same draws, order, roundings and fused
multiply-adds), so a seed gives PyTorch's tensors.

Element-wise samplers visit a tensor's elements in memory order, as PyTorch's serial
TensorIterator loops do; complex tensors are drawn as their real view (re, im pairs).
"""
import platform

import numpy as np
from mindtorch import Tensor
from mindtorch import _dtype as D
from mindtorch._ops.decls import random_checks as R
from mindtorch._random import generator_for

from .._np import CPU, arr, wrap
from . import _jit, _libm, _rejection
from ._aten_sum import sum_last
from ._box_muller import fill_avx2, fill_blocks, fma32, fma64, one_at_a_time, unit_uniform
from ._cpu_capability import vector_isa
from ._gamma_grad import dirichlet_grad, standard_gamma_grad
from .sorting import topk

_U64 = np.uint64
# dtypes whose random_(from, to) takes 64-bit draws when to - from >= 2**32
# random_() (no bounds: PyTorch's uniform_int) takes 64-bit draws for these dtypes only;
# random_(from, to) for ranges of 2**28 or more, whatever the dtype
_WIDE_DEFAULT = (D.int64, D.float64)


# normal_ and sum register no AVX-512 kernel: an AVX-512 machine runs their AVX2 ones
_AVX2 = vector_isa() == "AVX2"
# whether PyTorch's compiler contracted the samplers' x * a + b into one rounding (fused
# multiply-add): its AVX2 kernels are built with FMA, as are non-x86 builds; x86's DEFAULT
# kernels have no FMA instruction
_FUSED = _AVX2 or platform.machine().lower() not in ("x86_64", "amd64", "i386", "i686")


def _mul_add(a, b, c, dtype=np.float64):
    """a * b + c in `dtype` (float64 or float32), rounded once where PyTorch's are fused."""
    if _FUSED:
        return fma64(a, b, c) if dtype is np.float64 else fma32(a, b, c)
    return np.asarray(a, dtype) * dtype(b) + dtype(c)
_DOUBLES_PER_VECTOR = 4  # (ATen's Vectorized<double> in its AVX2 and DEFAULT builds)


def _engine(generator):
    if generator is not None and generator.device.type != "cpu":
        raise RuntimeError(f"Expected a 'cpu' device type for generator but found "
                           f"'{generator.device.type}'")
    return generator_for(generator, CPU).state()


def _memory_order(shape, strides):
    """Axis permutation visiting the elements in increasing address order."""
    return sorted(range(len(shape)), key=lambda d: -strides[d])


def _real_view(self):
    """(shape, strides) of self, or of its real view when complex (re, im innermost)."""
    shape, strides = self._shape, self._stride
    if self.dtype.is_complex:
        return shape + (2,), tuple(2 * s for s in strides) + (1,)
    return shape, strides


def _fill(self, flat):
    """Write values given in self's memory order (of its real view when complex)."""
    a = arr(self)
    if a.size:
        shape, strides = _real_view(self)
        order = _memory_order(shape, strides)
        v = flat.reshape([shape[d] for d in order]).transpose(np.argsort(order))
        if self.dtype.is_complex:
            v = v[..., 0] + 1j * v[..., 1]
        if self.dtype.itemsize == 2 and self.dtype.is_floating_point and v.dtype == np.float64:
            v = v.astype(np.float32)  # (c10::Half / BFloat16 are made from a float)
        a[...] = v.astype(a.dtype, copy=False)
    return self


def _in_memory_order(self, values):
    """values (broadcast to self's shape) flattened in self's memory order."""
    order = _memory_order(self._shape, self._stride)
    return np.broadcast_to(values, self._shape).transpose(order).reshape(-1)


def _count(self):
    return self.numel() * (2 if self.dtype.is_complex else 1)


def _digits(self):
    return R.FLOAT_DIGITS[self.dtype.to_real().name]


def uniform_(self, low=0.0, high=1.0, generator=None):
    """x * (to - from) + from (fused where PyTorch's is), with x a uniform on the 2**-53
    grid (double) or the 2**-24 grid (float32 arithmetic, also for the 16-bit dtypes,
    rounded at the end)."""
    R.check_uniform(self, low, high)
    n = _count(self)
    wide = self.dtype.to_real() is D.float64
    x = unit_uniform(_engine(generator), n, 53 if wide else 24)
    if wide:
        return _fill(self, _mul_add(x, np.float64(high) - np.float64(low), low))
    lo, hi = np.float32(low), np.float32(high)
    v = _mul_add(x, hi - lo, lo, np.float32)
    narrow = self.dtype.to_real().np.type
    if narrow is not np.float32:  # a value rounding up to `to` becomes `from`
        v = v.astype(narrow)
        v[v == narrow(high)] = narrow(low)
    return _fill(self, v)


def normal_(self, mean=0.0, std=1.0, generator=None):
    R.check_normal(self.dtype, std, numel=self.numel())
    R.check_writable(self)
    n = _count(self)
    if not n:
        return self
    if self.dtype.is_complex:  # each part has variance std**2 / 2 (PyTorch's convention)
        std = std / np.sqrt(2)
    engine = _engine(generator)
    if n < 16 or not self.is_contiguous():
        return _fill(self, one_at_a_time(engine, n, mean, std, _FUSED))
    real = self.dtype.to_real()
    if real is D.float32 and _AVX2:
        return _fill(self, fill_avx2(engine, n, mean, std))
    if real in (D.float16, D.bfloat16):
        return _fill(self, _normal_16_bit(engine, n, mean, std))
    return _fill(self, fill_blocks(engine, n, mean, std, 53 if _digits(self) == 53 else 24))


def _normal_16_bit(engine, n, mean, std):
    """16-bit tensors are filled through float32 blocks of 16, but a ragged tail's block
    takes the 16 uniforms after the whole blocks' (not after n of them) and overwrites
    the last 16 elements."""
    full = n // 16 * 16
    size = full + 16 if n % 16 else full
    blocks = (fill_avx2(engine, size, mean, std) if _AVX2
              else fill_blocks(engine, size, mean, std, 24))
    if size == n:
        return blocks
    out = blocks[:n].copy()
    out[n - 16:] = blocks[full:]
    return out


def random_(self, low=0, high=None, generator=None):
    """(draw % range) + from, in wrapping 64-bit arithmetic; 64-bit draws for wide ranges
    of the dtypes PyTorch gives them (the full int64 range: the draw itself)."""
    if self.dtype._limited == D._FP8:
        R.check_float8_random(self.dtype, low, high, self.numel())
    lo, hi = R.random_bounds(self.dtype, low, high, self.numel())
    R.check_writable(self)
    n = self.numel()
    if not n:
        return self
    engine, span = _engine(generator), hi - lo + 1
    if span == 1 << 64:
        return _fill(self, engine.random64(n).view(np.int64))
    # (random_(0, None) is taken for random_(): the binding cannot tell them apart)
    wide = self.dtype in _WIDE_DEFAULT if (low, high) == (0, None) else span >= 1 << 28
    r = engine.random64(n) if wide else engine.random(n)
    return _fill(self, (r % _U64(span) + _U64(lo % (1 << 64))).view(np.int64))


def bernoulli_(self, p=0.5, generator=None):
    """uniform < p: a double uniform for a Python or float64 p, a float one for float32."""
    R.check_bernoulli(self, p)
    n = self.numel()
    if not n:
        return self
    engine = _engine(generator)
    if not isinstance(p, Tensor):
        return _fill(self, unit_uniform(engine, n, 53) < p)
    probs = _in_memory_order(self, arr(p))
    if not ((probs >= 0) & (probs <= 1)).all():
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  "
                           "(Could this error message be improved?  If so, please report an "
                           "enhancement request to PyTorch.)")
    wide = p.dtype is D.float64
    return _fill(self, unit_uniform(engine, n, 53 if wide else 24)
                 < probs.astype(np.float64 if wide else np.float32))


def _double_uniform(self, generator):
    return unit_uniform(_engine(generator), self.numel(), 53)


def exponential_(self, lambd=1.0, generator=None):
    R.check_distribution("exponential_", self, lambd)
    with np.errstate(divide="ignore"):
        return _fill(self, -1.0 / lambd * _libm.call("log1p", -_double_uniform(self, generator)))


def geometric_(self, p, generator=None):
    R.check_distribution("geometric_", self, p)
    with np.errstate(divide="ignore"):
        log_u = _libm.call("log", _double_uniform(self, generator))
        return _fill(self, np.ceil(log_u / _libm.call("log1p", -p)))


def cauchy_(self, median=0.0, sigma=1.0, generator=None):
    R.check_distribution("cauchy_", self, median, sigma)
    u = _double_uniform(self, generator)
    return _fill(self, _mul_add(_libm.call("tan", np.pi * (u - 0.5)), sigma, median))


def log_normal_(self, mean=1.0, std=2.0, generator=None):
    R.check_distribution("log_normal_", self, mean, std)
    normals = one_at_a_time(_engine(generator), self.numel(), mean, std, _FUSED)
    return _fill(self, _libm.call("exp", normals))


def multinomial(self, num_samples, replacement=False, generator=None):
    """PyTorch's two algorithms: without replacement (or one sample) the largest
    p / Exp(1) keys (argmax, or topk); with replacement a binary search of double uniforms in the cumulative
    distribution, summed and normalised in the input's dtype (float32 for 16-bit ones)."""
    shape = R.check_multinomial(self, num_samples, replacement)
    if not np.prod(shape):
        return wrap(np.empty(shape, np.int64), D.int64)
    if not self.numel() and (not replacement or num_samples == 1):  # (its validity check)
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the "
                           "operation has no identity.")
    cats = self._shape[-1]
    p = arr(self).reshape(shape[0] if self.ndim == 2 else 1, cats)
    if not replacement or num_samples == 1:
        if p.size and not (np.isfinite(p).all() and (p >= 0).all()):
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if (p.sum(axis=1) <= 0).any():
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    else:
        _check_rows_for_search(p)
    if not replacement or num_samples == 1:
        # the Exp(1) noise in self's layout (PyTorch's empty_like), so drawn in its order
        q = exponential_(wrap(np.empty_like(arr(self)), self.dtype), 1.0, generator)
        keys = p / arr(q).reshape(p.shape)
        if num_samples == 1:
            out = np.argmax(keys, axis=1)[:, None]
        else:  # (topk's choice among ties, the zero probabilities' keys among them)
            out = arr(topk(wrap(keys, self.dtype), num_samples)[1])
    else:
        # (summed in order, in float32 for the 16-bit dtypes: PyTorch's opmath type)
        cdf = np.cumsum(p, axis=1, dtype=np.float32 if p.dtype.itemsize == 2 else p.dtype)
        cdf /= cdf[:, -1:]
        cdf[:, -1] = 1
        u = unit_uniform(_engine(generator), p.shape[0] * num_samples, 53)
        u = u.reshape(p.shape[0], num_samples)
        out = np.stack([np.searchsorted(c.astype(np.float64), row) for c, row in zip(cdf, u)])
    return wrap(out.reshape(shape).astype(np.int64), D.int64)


def _check_rows_for_search(p):
    """The cumulative-distribution sampler's checks, row by row and entry by entry as
    PyTorch's (its messages differ from the whole-tensor check of the other path); the
    rows are walked only when something is wrong."""
    if np.isfinite(p).all() and (p >= 0).all() and (p.sum(axis=1) > 0).all():
        return
    for row in p:
        bad = ~(row >= 0) | ~np.isfinite(row)
        if bad.any():
            first = row[np.argmax(bad)]
            what = "= infinity or NaN" if first >= 0 else "< 0"  # (NaN fails `>= 0`)
            raise RuntimeError(f"invalid multinomial distribution (encountering probability "
                               f"entry {what})")
        if not row.sum() > 0:
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")


# from this n on PyTorch's randperm takes 64-bit draws (the "inside-out" shuffle)
_RANDPERM_WIDE = (2 ** 32 - 1) // 20
_CHUNK = 1 << 22  # 64-bit draws taken at once by the wide shuffle


def randperm(n, generator=None, dtype=None, device=None):
    """Fisher-Yates from the front: position i swaps with i + draw % (n - i)."""
    dtype = R.check_randperm(n, dtype)
    if n < 2:
        return wrap(np.arange(n), dtype)
    if n >= _RANDPERM_WIDE:
        return wrap(_randperm_wide(_engine(generator), n), dtype)
    offsets = _engine(generator).random(n - 1) % np.arange(n, 1, -1, dtype=_U64)
    loops = _jit.compiled("_random_loops", n) or _jit.loaded("_random_loops")
    if loops is not None:
        return wrap(loops.randperm(offsets.astype(np.int64)), dtype)
    perm = list(range(n))
    for i, k in enumerate(offsets.tolist()):
        perm[i], perm[i + k] = perm[i + k], perm[i]
    return wrap(np.array(perm, np.int64), dtype)


def _randperm_wide(engine, n):
    """The inside-out shuffle: for i = 0, 1, ... z = 64-bit draw % (i + 1), i's slot takes
    z's value and z's slot takes i."""
    perm = np.empty(n, np.int64)
    loops = _jit.compiled("_random_loops", n)
    for start in range(0, n, _CHUNK):
        draws = engine.random64(min(_CHUNK, n - start))
        if loops is not None:
            loops.randperm_inside_out(perm, draws, start)
            continue
        for i, d in enumerate(draws.tolist(), start):
            z = d % (i + 1)
            perm[i] = perm[z]
            perm[z] = i
    return perm


def normal(mean, std=1.0, generator=None):
    """PyTorch's composition: standard normals (scaled by a Python std) in the result's
    layout, then multiplied by a tensor std and shifted by the mean, rounding each step."""
    shape, dtype = R.normal_result(mean, std)
    tensor_std = isinstance(std, Tensor)
    if tensor_std and std.numel() and not (arr(std) >= 0).all():  # (NaN too)
        raise RuntimeError("normal expects all elements of std >= 0.0")
    out = wrap(np.empty(shape, dtype.np), dtype)
    normal_(out, 0.0, 1.0 if tensor_std else std, generator)
    a = arr(out)
    if tensor_std:
        np.multiply(a, arr(std), out=a, casting="unsafe")
    m = arr(mean) if isinstance(mean, Tensor) else np.asarray(mean, dtype.np)
    np.add(a, m, out=a, casting="unsafe")
    return out


def poisson(self, generator=None):
    R.check_poisson(self)
    rates = arr(self).astype(np.float64)
    if rates.size and not (rates >= 0).all():  # (NaN too)
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    loops = _jit.compiled("_rejection_loops", rates.size)
    if loops is not None:
        draws = np.empty(rates.size)
        _run(_engine(generator), loops.poisson, rates.size, 4,
             np.ascontiguousarray(rates.reshape(-1)), draws)
    else:
        lams = rates.reshape(-1).tolist()
        draws = _each(generator, _rejection.poisson, zip(lams), 4 * len(lams))
    return wrap(np.asarray(draws, np.float64).reshape(rates.shape), self.dtype)


def _each(generator, sampler, params, words):
    """[sampler(stream, *p) for p in params], the draws taken in order from one stream of
    the generator (`words`: about how many 32-bit draws that takes)."""
    params = list(params)
    if not params:
        return []
    stream = _rejection.Stream(_engine(generator), words)
    try:
        return [sampler(stream, *p) for p in params]
    finally:
        stream.close()


def _clamp_below(v, low):
    """C++'s std::max(low, v): NaN becomes low."""
    return np.where(v > low, v, low)


def _gammas(generator, alphas, single):
    loops = _jit.compiled("_rejection_loops", alphas.size)
    if loops is None:
        params = [(a, single) for a in alphas.tolist()]
        return np.array(_each(generator, _rejection.gamma, params, 8 * len(params)),
                        np.float64)
    engine = _engine(generator)
    out = np.empty(alphas.size)
    cache = np.array([engine.normal or 0.0, engine.normal is not None], np.float64)
    _run(engine, loops.gamma, alphas.size, 8, np.ascontiguousarray(alphas, np.float64), out,
         single, cache)
    engine.normal = float(cache[0]) if cache[1] else None
    return out


def _run(engine, loop, n, words_each, *args):
    """Drive a compiled sampler (kernels/_rejection_loops.py) over n elements: the same
    draws, element by element, from look-ahead buffers, exactly the used ones consumed."""
    done, chunk = 0, min(words_each * n, 1 << 20)
    while done < n:
        nxt, used = loop(done, engine.lookahead(chunk), *args)
        engine.skip(used)
        chunk = chunk if nxt > done else 2 * chunk  # (an element wanting more draws)
        done = nxt


def _standard_gamma(self, generator=None):
    """One Marsaglia-Tsang draw per element (in C order), at least the dtype's tiny."""
    R.check_gamma("gamma_cpu", self)
    alphas = arr(self).reshape(-1)
    dt = alphas.dtype.type
    g = _gammas(generator, alphas, dt is np.float32) if alphas.size else alphas
    v = _clamp_below(g.astype(dt), np.finfo(dt).tiny)
    return wrap(v.reshape(self._shape), self.dtype)


def _sample_dirichlet(self, generator=None):
    """Double Gammas normalised along the last dim, kept inside (tiny, 1)."""
    R.check_gamma("dirichlet", self)
    a = arr(self).reshape(self._shape or (1,))  # (a 0-dim tensor is its own sum)
    dt = a.dtype.type
    g = _gammas(generator, a.reshape(-1), False) if a.size else a.astype(np.float64)
    g = _clamp_below(g, np.finfo(np.float64).tiny).reshape(a.shape)
    v = _clamp_below((g / sum_last(g, _DOUBLES_PER_VECTOR)[..., None]).astype(dt), np.finfo(dt).tiny)
    top = np.nextafter(dt(1), dt(0))
    return wrap(np.where(v < top, v, top).reshape(self._shape), self.dtype)


def binomial(count, prob, generator=None):
    shape = R.check_binomial(count, prob)
    c, p = (np.broadcast_to(arr(t), shape).reshape(-1) for t in (count, prob))
    dt = c.dtype.type
    single = dt is np.float32
    loops = _jit.compiled("_rejection_loops", c.size)
    if loops is not None:
        draws = np.empty(c.size)
        _run(_engine(generator), loops.binomial, c.size, 8, c.astype(np.float64),
             p.astype(np.float64), draws, single)
    else:
        params = [(n, q, single) for n, q in zip(c.tolist(), p.tolist())]
        draws = _each(generator, _rejection.binomial, params, 8 * len(params))
    return wrap(np.array(draws, dt).reshape(shape), count.dtype)


def _standard_gamma_grad(self, output):
    """d sample / d concentration of _standard_gamma's samples (its backward)."""
    shape = R.check_gamma_grad("_standard_gamma_grad_cpu", self, output)
    g = standard_gamma_grad(*np.broadcast_arrays(arr(self), arr(output)))
    return wrap(np.asarray(g, arr(self).dtype).reshape(shape), self.dtype)


def _dirichlet_grad(x, alpha, total):
    """d sample / d concentration of Dirichlet samples, as Beta marginals (its backward)."""
    shape = R.check_gamma_grad("_dirichlet_grad_cpu", x, alpha, total)
    g = dirichlet_grad(*np.broadcast_arrays(arr(x), arr(alpha), arr(total)))
    return wrap(np.ascontiguousarray(g).reshape(shape), x.dtype)


KERNELS = {
    "uniform_": uniform_, "normal_": normal_, "random_": random_, "bernoulli_": bernoulli_,
    "exponential_": exponential_, "geometric_": geometric_, "cauchy_": cauchy_,
    "log_normal_": log_normal_, "multinomial": multinomial, "randperm": randperm,
    "normal": normal, "poisson": poisson, "_standard_gamma": _standard_gamma,
    "_sample_dirichlet": _sample_dirichlet, "binomial": binomial,
    "_standard_gamma_grad": _standard_gamma_grad, "_dirichlet_grad": _dirichlet_grad,
}
