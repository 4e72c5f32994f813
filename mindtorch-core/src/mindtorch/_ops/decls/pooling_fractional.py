"""Fractional max pooling (Graham, 2014), 2d and 3d: ATen's `fractional_max_pool2d/3d`
(kernel_size, output_size, random_samples) -> (values, indices), and nn.functional's
`fractional_max_pool2d/3d[_with_indices]` (output_size or output_ratio; samples drawn
uniformly in [0, 1) per batch element and plane unless `_random_samples` is given).

Decompositions into mindtorch ops: each output position's window starts where ATen's
interval sequence puts it, computed in the input's dtype as ATen does (so the windows are
PyTorch's exactly); the values are gathered from the flattened planes and the maximum taken
with ATen's rule (the first maximum, a NaN over any number; the last NaN); the maxima are
read by index, so the gradient is an accumulating index_put_ (PyTorch's backward).
"""
from ..registry import OPS, define, overload
from .loss_shared import _floating

NN = ("nn.functional",)
_HIDDEN = {"function": False, "method": False}
_DIMS = {2: ("height", "width"), 3: ("time", "height", "width")}
_COUNT = {2: "Ints", 3: "three Ints"}


def _sizes(t):
    return "[" + ", ".join(str(s) for s in t.shape) + "]"


def _check(self, kernel_size, output_size, samples, n):
    """ATen's checks, in its order."""
    if len(kernel_size) != n:
        raise RuntimeError(f"fractional_max_pool{n}d: kernel_size must either be a single Int "
                           f"or tuple of {_COUNT[n]}")
    if len(output_size) != n:
        raise RuntimeError(f"fractional_max_pool{n}d: output_size must either be a single Int "
                           f"or tuple of {_COUNT[n]}")
    name = "fractional_max_pool2d()" if n == 2 else "fractional_max_pool3d_out()"
    if self.ndim not in (n + 1, n + 2):
        raise RuntimeError(f"{name}: Expected {n + 1}D or {n + 2}D tensor, but got: "
                           f"{_sizes(self)}")
    for d in range(self.ndim - n - 1, self.ndim):
        if self.shape[d] <= 0:
            raise RuntimeError(f"{name}: Expected input to have non-zero size for non-batch "
                               f"dimensions, but got{_sizes(self)} with dimension {d} being "
                               f"empty.")
    # (3d: strictly less, as ATen's checks; the checks run T, W, H there and H, W in 2d)
    order = (0, 1) if n == 2 else (0, 2, 1)
    for d in order:
        size, out, k = self.shape[self.ndim - n + d], output_size[d], kernel_size[d]
        if not (out + k - 1 <= size if n == 2 else out + k - 1 < size):
            raise RuntimeError(f"{name}: pool {_DIMS[n][d]} {k} too large relative to input "
                               f"{_DIMS[n][d]} {size}")
    # (the samples last: ATen's kernel checks them after its meta checks)
    if samples.dtype is not self.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    if samples.ndim != 3:
        raise RuntimeError(f"Expect _random_samples to have 3 dimensions, got {samples.ndim}")
    batch, planes = (1, self.shape[0]) if self.ndim == n + 1 else (self.shape[0], self.shape[1])
    if samples.shape[0] < batch:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    if samples.shape[1] != planes:
        raise RuntimeError("Expect _random_samples.size(1) equals to input channel size.")
    if samples.shape[2] != n:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {n}; got "
                           f"{samples.shape[2]}.")


def _starts(sample, size, out, k):
    """ATen's generate_intervals for every plane at once: sample (B, P) in the input's
    dtype -> (B, P, out) int64 window starts; the last window ends at the input's end."""
    import mindtorch as M
    if out == 0:
        return M.zeros(tuple(sample.shape) + (0,), dtype=M.int64, device=sample.device)
    if out == 1:
        return M.full(tuple(sample.shape) + (1,), size - k, dtype=M.int64,
                      device=sample.device)
    dtype = sample.dtype
    alpha = M.tensor(size - k, dtype=dtype, device=sample.device) / \
        M.tensor(out - 1, dtype=dtype, device=sample.device)
    i = M.arange(out, device=sample.device).to(dtype)
    u = sample.unsqueeze(-1)
    starts = ((i + u) * alpha).long() - (u * alpha).long()
    last = M.full_like(starts[..., :1], size - k)
    return M.cat([starts[..., :-1], last], -1)


def _fractional_max_pool(n):
    def pool(self, kernel_size, output_size, random_samples):
        import mindtorch as M
        # (an int stands for every dim; a sequence must have n: ATen's int[n] arguments)
        kernel_size = (kernel_size,) * n if isinstance(kernel_size, int) else tuple(kernel_size)
        output_size = (output_size,) * n if isinstance(output_size, int) else tuple(output_size)
        _check(self, kernel_size, output_size, random_samples, n)
        x = self if self.ndim == n + 2 else self.unsqueeze(0)
        b, p, spatial = x.shape[0], x.shape[1], tuple(x.shape[2:])
        if b * p * _prod(output_size):  # (the kernel, and its dtypes, for a non-empty output)
            _floating(f"fractional_max_pool{n}d_out_frame", self)
        elif not self.dtype.is_floating_point:  # nothing to compute: empty results
            shape = tuple(self.shape[:self.ndim - n]) + output_size
            return self.new_empty(shape), self.new_empty(shape, dtype=M.int64)
        samples = random_samples[:b]
        # ATen's sample order: 2d (W, H), 3d (T, H, W)
        which = (1, 0) if n == 2 else (0, 1, 2)
        flat = None
        for d in range(n):
            start = _starts(samples[..., which[d]], spatial[d], output_size[d], kernel_size[d])
            extent = max(kernel_size[d], 1)  # (an empty kernel keeps its window's start)
            pos = start.unsqueeze(-1) + M.arange(extent, device=x.device)  # (B, P, o, k)
            # position d of each (output, window) pair, as a stride-weighted offset
            shape = [b, p] + [1] * (2 * n)
            shape[2 + d], shape[2 + n + d] = output_size[d], extent
            term = (pos * _prod(spatial[d + 1:])).reshape(shape)
            flat = term if flat is None else flat + term
        flat = flat.reshape(b, p, *output_size, _prod(max(k, 1) for k in kernel_size))
        window = _prod(max(k, 0) for k in kernel_size)
        if window == 0:  # (a kernel size <= 0) ATen's -inf, indexed at the window's start
            starts = flat[..., 0]
            out = x.new_full(tuple(starts.shape), -float("inf"))
            return (out, starts) if self.ndim == n + 2 else (out.squeeze(0), starts.squeeze(0))
        values = x.detach().reshape(b, p, _prod(spatial)).gather(
            2, flat.reshape(b, p, _prod(output_size) * window)).reshape(flat.shape)
        indices = flat.gather(-1, _argmax_with_nan(values)).squeeze(-1)
        # the maxima read by index: the gradient is an accumulating index_put_, rounded
        # after each addition in the input's dtype, output by output, as ATen's backward
        rows = M.arange(b * p, device=x.device).unsqueeze(1)
        out = x.reshape(b * p, _prod(spatial))[
            rows, indices.reshape(b * p, _prod(output_size))].reshape(indices.shape)
        if self.ndim == n + 1:
            out, indices = out.squeeze(0), indices.squeeze(0)
        return out, indices
    return pool


def _prod(sizes):
    p = 1
    for s in sizes:
        p *= s
    return p


def _argmax_with_nan(values):
    """Per window (last dim): the last NaN if any, else the first maximum (ATen's loop
    takes `val > max || isnan(val)`, starting from -inf at the window's first element)."""
    import mindtorch as M
    nan = values.isnan()
    first_max = M.where(nan, -float("inf"), values).argmax(-1, keepdim=True)
    last_nan = values.shape[-1] - 1 - nan.flip(-1).to(M.uint8).argmax(-1, keepdim=True)
    return M.where(nan.any(-1, keepdim=True), last_nan, first_max)


# -- nn.functional -------------------------------------------------------------------------

def _functional(n):
    def with_indices(self, kernel_size, output_size=None, output_ratio=None,
                     return_indices=False, _random_samples=None):
        import mindtorch as M
        if output_size is None and output_ratio is None:
            raise ValueError(f"fractional_max_pool{n}d requires specifying either an "
                             f"output_size or an output_ratio")
        if output_size is None:
            if n == 2 and len(output_ratio) > 2:
                raise ValueError("fractional_max_pool2d requires output_ratio to either be a "
                                 "single Int or tuple of Ints.")
            output_size = [int(self.size(d - n) * output_ratio[d]) for d in range(n)]
        if _random_samples is None:
            batch = 1 if self.ndim == n + 1 else self.shape[0]
            _random_samples = M.rand(batch, self.size(-n - 1), n, dtype=self.dtype,
                                     device=self.device)
        # (a plain tuple, as PyTorch's _C._nn binding returns here)
        return tuple(OPS[f"fractional_max_pool{n}d"].call(self, kernel_size, output_size,
                                                          _random_samples))
    return with_indices


def _output_ratio(n, shown):
    """F's output_ratio: 2d takes its len() (a number is PyTorch's TypeError there), 3d
    repeats a number. `shown`: the name Python's argument errors give (PyTorch's function)."""
    def make(binding):
        def public(input, kernel_size, output_size=None, output_ratio=None,
                   return_indices=False, _random_samples=None):
            if output_ratio is not None and not isinstance(output_ratio, (tuple, list)):
                if n == 2 and output_size is None:
                    len(output_ratio)  # TypeError: object of type 'float' has no len()
                output_ratio = (output_ratio,) * n
            return binding(input, kernel_size, output_size, output_ratio, return_indices,
                           _random_samples)
        public.__name__ = public.__qualname__ = shown
        return public
    return make


def _switch_indices(n):
    """F.fractional_max_pool{n}d: the with-indices function's pair when return_indices."""
    def make(binding):
        with_indices = OPS[f"functional_fractional_max_pool{n}d_with_indices"]

        def public(input, kernel_size, output_size=None, output_ratio=None,
                   return_indices=False, _random_samples=None):
            args = (input, kernel_size, output_size, output_ratio, return_indices,
                    _random_samples)
            return with_indices.binding(*args) if return_indices else binding(*args)
        return public
    return make


def _with_out(binding):
    """ATen's out=(output, indices) form."""
    def fractional_max_pool(self, kernel_size, output_size, random_samples, *, out=None):
        result = binding(self, kernel_size, output_size, random_samples)
        if out is None:
            return result
        from ..dispatch import write_out
        return tuple(write_out(None, o, r) for o, r in zip(out, result))
    return fractional_max_pool


def _declare():
    args = ("Tensor self, int|int[] kernel_size, int|int[]? output_size=None, "
            "float[]? output_ratio=None, bool return_indices=False, "
            "Tensor? _random_samples=None")
    for n in (2, 3):
        name = f"fractional_max_pool{n}d"
        define(f"{name}(Tensor self, int|int[] kernel_size, int|int[] output_size, "
               f"Tensor random_samples) -> (Tensor output, Tensor indices)",
               decomposition=_fractional_max_pool(n), **_HIDDEN)
        overload(OPS[name], _with_out)
        define(f"functional_{name}_with_indices({args}) -> (Tensor, Tensor)",
               decomposition=_functional(n), modules=NN, **_HIDDEN)
        define(f"functional_{name}({args}) -> Tensor",
               decomposition=lambda *a, n=n: _functional(n)(*a)[0], modules=NN, **_HIDDEN)
        overload(OPS[f"functional_{name}_with_indices"],
                 _output_ratio(n, f"{name}_with_indices"))
        overload(OPS[f"functional_{name}"],  # (PyTorch's boolean_dispatch names it _...)
                 lambda b, n=n, name=name: _output_ratio(n, f"_{name}")(_switch_indices(n)(b)))


_declare()
