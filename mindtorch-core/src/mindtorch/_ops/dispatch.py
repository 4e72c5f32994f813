"""Kernel resolution for (op, device type), cached on the op by its binding.

Order: a core implementation (metadata-only ops such as views, shared by every
device) > the backend's kernel > the op's decomposition > the opt-in CPU fallback
> NotImplementedError naming op, device and installed backends.  While a kernel wrapper is
set (the profiler's op tracer), every resolved kernel is wrapped in it.
"""
import os
import warnings

from .._device import canonical, default_device
from .._layout import LayoutKey
from .._warn_once import _user_level

_cpu_fallback = [os.environ.get("MINDTORCH_CPU_FALLBACK", "0") == "1"]
_warned = set()


def set_cpu_fallback(enabled):
    """Run ops that a device lacks on the CPU (copying data over and back)."""
    from .registry import clear_caches
    _cpu_fallback[0] = bool(enabled)
    clear_caches()


_kernel_wrapper = [None]  # (op, kernel) -> kernel, or None


def set_kernel_wrapper(wrapper):
    """Wrap every kernel resolved from now on in wrapper(op, kernel) (None: stop); the
    resolved kernels cached so far are dropped, so nothing costs more while it is unset."""
    from .registry import clear_caches
    _kernel_wrapper[0] = wrapper
    clear_caches()


def resolve(op, device_type):
    kernel = _resolve(op, device_type)
    wrapper = _kernel_wrapper[0]
    return kernel if wrapper is None else wrapper(op, kernel)


def _resolve(op, device_type):
    from ..plugins._registry import DEVICES, KERNELS
    if device_type.startswith("Sparse"):  # a sparse layout's key (_layout.LayoutKey)
        from ..sparse._dispatch import kernel
        return kernel(op, device_type)
    if op.core_impl is not None:
        return op.core_impl
    kernel = KERNELS.get(op.name, {}).get(device_type)
    if kernel is not None:
        return kernel
    if op.decomposition is not None:
        return _decomposition(op)
    if _cpu_fallback[0] and device_type != "cpu" and "cpu" in KERNELS.get(op.name, {}):
        return _via_cpu(op, KERNELS[op.name]["cpu"])
    from ..backends import _installed_summary
    where = "it is not a registered device" if device_type not in DEVICES else \
        "no plugin registered a kernel for it"
    raise NotImplementedError(
        f"Could not run '{op.name}' on the '{device_type}' device: {where}. "
        f"Installed backends: {_installed_summary()}. Set MINDTORCH_CPU_FALLBACK=1 to run "
        f"missing ops on the CPU.")


def _decomposition(op):
    decomp = op.decomposition
    mutated = [i for i, a in enumerate(op.schema.args) if a.mutated]
    if not mutated:
        return decomp

    def run(*args):
        # the binding bumps the version once; inner in-place ops must not add to it
        counters = [(args[i]._version_counter, args[i]._version_counter[0]) for i in mutated]
        result = decomp(*args)
        for c, v in counters:
            c[0] = v
        return result
    return run


def _via_cpu(op, cpu_kernel):
    from .._tensor import Tensor

    def run(*args):
        if op.name not in _warned:
            _warned.add(op.name)
            warnings.warn(f"'{op.name}' has no kernel for this device; running it on the CPU "
                          f"(MINDTORCH_CPU_FALLBACK)", UserWarning, stacklevel=3)
        dev = next(_iter_tensors(args))._device
        host = [_map(a, lambda t: t.cpu()) for a in args]
        result = cpu_kernel(*host)
        for a, h in zip(args, host):  # write back in-place results
            if isinstance(a, Tensor) and h._version_counter[0] and a is not h:
                a.copy_(h)
        return _map(result, lambda t: t.to(dev))
    return run


def _map(x, fn):
    from .._tensor import Tensor
    if isinstance(x, Tensor):
        return fn(x)
    if isinstance(x, (list, tuple)):
        return type(x)(_map(v, fn) for v in x)
    return x


def _iter_tensors(args):
    from .._tensor import Tensor
    for a in args:
        if isinstance(a, Tensor):
            yield a
        elif isinstance(a, (list, tuple)):
            yield from _iter_tensors(a)


def merge_devices(op, dev, t, first):
    """(device, deciding tensor) for an op whose tensor arguments so far live on `dev`
    (decided by tensor `first`) and that also takes tensor t."""
    other = t._device
    if dev is None or dev == other:
        return (other, t) if dev is None else (dev, first)
    if type(dev) is LayoutKey or type(other) is LayoutKey:  # a sparse tensor: its table decides
        from ..sparse._dispatch import merge
        return merge(op, dev, first, t)
    if op.name == "copy_":  # copies are how data crosses devices
        return dev, first
    # a CPU scalar (0-dim tensor) may join tensors of any device, as in PyTorch
    if other.type == "cpu" and not t._shape:
        return dev, first
    if dev.type == "cpu" and not first._shape:
        return other, t
    if dev.type == "meta" or other.type == "meta":  # (PyTorch's TensorIterator's wording)
        raise RuntimeError(f"Tensor on device {other} is not on the expected device {dev}!")
    raise RuntimeError(f"Expected all tensors to be on the same device, but found at least two "
                       f"devices, {dev} and {other}! (when checking arguments for {op.name})")


def factory_device(d):
    """The shared device object a factory allocates on (d None: the default device)."""
    if d is None:
        d = default_device()
        if d is None:
            return canonical("cpu")
    return canonical(d)


def write_out(op, out, result):
    """Copy `result` into the user's out= tensor, resizing it like PyTorch does."""
    from .. import _promotion
    from .._dtype import scalar_type_name
    from .._strides import non_overlapping_and_dense
    from ..autograd.grad_mode import state
    # (generated bindings refuse inputs that require grad before the op; public wrappers
    # that compute first and write here leave a result with history)
    if (out._requires_grad or result._requires_grad) and state.enabled:
        from ._argcheck import out_requires_grad
        out_requires_grad(op)
    from ..autograd._record import forward
    if forward.on:  # PyTorch refuses out= with forward AD tangents
        forward.check_out(op, out, result)
    if not _promotion.can_cast(result.dtype, out.dtype):
        raise RuntimeError(f"result type {scalar_type_name(result.dtype)} can't be cast to the "
                           f"desired output type {scalar_type_name(out.dtype)}")
    if out._shape != result._shape:
        if out.numel() != 0:
            warnings.warn(f"An output with one or more elements was resized since it had shape "
                          f"{list(out._shape)}, which does not match the required output shape "
                          f"{list(result._shape)}. This behavior is deprecated, and in a future "
                          f"PyTorch release outputs will not be resized unless they have zero "
                          f"elements. You can explicitly reuse an out tensor t by resizing it, "
                          f"inplace, to zero elements with t.resize_(0).", UserWarning,
                          stacklevel=_user_level())
        out.resize_(result._shape)
        if not result.is_contiguous() and non_overlapping_and_dense(result._shape,
                                                                    result._stride):
            # (PyTorch gives a resized out the result's layout: a permuted input's, or a
            # LAPACK result's column-major one)
            out.as_strided_(result._shape, result._stride)
    out.copy_(result)
    return out
