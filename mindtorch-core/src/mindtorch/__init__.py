"""mindtorch: PyTorch-compatible tensors and ops, computed by backend plugins.

    import mindtorch as torch
"""
import math as _math

from . import version  # noqa: F401
from .version import __version__  # noqa: F401

from ._dtype import (  # noqa: F401
    bfloat16, bool, complex64, complex128, dtype, finfo, float16, float32, float64,
    get_default_dtype, iinfo, int8, int16, int32, int64, set_default_dtype, uint8,
    uint16, uint32, uint64, float8_e4m3fn, float8_e5m2, float8_e4m3fnuz, float8_e5m2fnuz,
    float8_e8m0fnu,
)
from ._dtype import ALIASES as _ALIASES
from ._device import device  # noqa: F401
from ._promotion import (  # noqa: F401
    can_cast_public as can_cast, promote_types_public as promote_types,
    result_type_public as result_type)
from ._shapes import broadcast_shapes_public as broadcast_shapes  # noqa: F401
from ._tensor import OPERATORS as _OPERATORS, Size, Tensor  # noqa: F401
from ._tensor import OPERATOR_NAMES as _OPERATOR_NAMES
from ._tensor import SELF_REPORTED_OPERATORS as _SELF_REPORTED
from .overrides import DisableTorchFunction, DisableTorchFunctionSubclass  # noqa: F401
from .overrides import dispatching as _dispatching
from ._creation import (  # noqa: F401
    as_tensor, asarray, from_file, from_numpy, frombuffer, tensor)
from .utils.dlpack import from_dlpack, to_dlpack  # noqa: F401
from ._creation import deprecated_range as range  # noqa: F401 - torch.range
from ._tensor_str import get_printoptions, printoptions, set_printoptions  # noqa: F401
from . import plugins  # noqa: F401
from .plugins import _loader as _plugin_loader
from ._ops import OPS as _OPS
from ._ops.dispatch import set_cpu_fallback  # noqa: F401
from ._ops import decls as _decls  # noqa: F401 - declares every op
from . import _indexing
from ._random import Generator, default_generator, initial_seed, manual_seed, seed  # noqa: F401
from ._random import get_rng_state, set_rng_state  # noqa: F401
from . import backends, linalg, nn, ops, optim, random, return_types, special, testing  # noqa: F401
from . import utils  # noqa: F401
from . import fft  # noqa: F401
from . import accelerator  # noqa: F401
from . import _device_modules
from ._device_modules import get_device_module  # noqa: F401
from ._rnn_cells import gru_cell, lstm_cell, rnn_relu_cell, rnn_tanh_cell  # noqa: F401
from ._rnn_layers import gru, lstm, rnn_relu, rnn_tanh  # noqa: F401
from . import _VF  # noqa: F401
from ._warn_once import is_warn_always_enabled, set_warn_always  # noqa: F401
from .serialization import load, save  # noqa: F401
from ._runtime import (  # noqa: F401
    are_deterministic_algorithms_enabled, compile, get_default_device,
    get_deterministic_debug_mode, get_float32_matmul_precision, get_num_interop_threads,
    get_num_threads, is_deterministic_algorithms_warn_only_enabled, set_default_device,
    set_deterministic_debug_mode, set_float32_matmul_precision, set_num_interop_threads,
    set_num_threads, typename, use_deterministic_algorithms)
from ._runtime import (  # noqa: F401
    AcceleratorError, OutOfMemoryError, compiled_with_cxx11_abi, has_lapack, has_mkl,
    has_openmp, has_spectral, init_num_threads, is_distributed, is_vulkan_available,
    set_flush_denormal)
from ._sym import (  # noqa: F401
    SymBool, SymFloat, SymInt, sym_float, sym_int, sym_ite, sym_max, sym_min, sym_not,
    sym_sqrt, sym_sum)
from ._removed import FUNCTIONS as _REMOVED
from ._checks import (  # noqa: F401
    _assert, _assert_async, _check, _check_index, _check_is_size, _check_not_implemented,
    _check_tensor_all, _check_tensor_all_with, _check_type, _check_value, _check_with)
from ._control_flow import cond, while_loop  # noqa: F401
from ._tags import Tag  # noqa: F401
from . import autograd  # noqa: F401
from . import __future__  # noqa: F401,E402 - torch.__future__ (module conversion opt-ins)
from .autograd.grad_mode import (  # noqa: F401
    enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled, no_grad,
    set_grad_enabled,
)
from . import _tensor_compat  # noqa: F401,E402 - Tensor.resize, record_stream, module_load

globals().update(_ALIASES)
globals().update(_REMOVED)  # torch.eig, lstsq, solve, symeig, matrix_rank: removed
from ._legacy_types import LEGACY_TYPES as _LEGACY_TYPES  # noqa: E402
globals().update(_LEGACY_TYPES)
from ._ops.decls.numerics import is_nonzero, is_same_size, unravel_index  # noqa: E402,F401
from ._ops.decls.static_shapes import histogramdd  # noqa: E402,F401
from ._lowrank import pca_lowrank, svd_lowrank  # noqa: E402,F401
from ._lobpcg import lobpcg  # noqa: E402,F401
Tensor.is_nonzero, Tensor.is_same_size = is_nonzero, is_same_size
is_nonzero, is_same_size = _dispatching(is_nonzero), _dispatching(is_same_size)
result_type = _dispatching(result_type)

from ._layout import (  # noqa: F401
    layout, sparse_bsc, sparse_bsr, sparse_coo, sparse_csc, sparse_csr, strided)
from ._layout import SPARSE_FUNCTIONS as _SPARSE_FUNCTIONS, install_sparse_stubs  # noqa: E402
install_sparse_stubs(Tensor)  # (mindtorch.sparse loads on first use)
from ._memory_format import (  # noqa: E402,F401
    channels_last, channels_last_3d, contiguous_format, memory_format, preserve_format)
inf, nan, pi, e = _math.inf, _math.nan, _math.pi, _math.e
newaxis = None  # (x[:, torch.newaxis], as NumPy's)


class _LazyMethod:
    """Tensor.<op> until first use, when the op's binding is generated and replaces it."""

    def __init__(self, op, name):
        self.op, self.name = op, name

    def __get__(self, obj, cls=None):
        fn = self.op.method_binding
        setattr(Tensor, self.name, fn)
        return fn if obj is None else fn.__get__(obj, cls)


_LAZY_FUNCTIONS = {}


def _bind_ops():
    for name, op in _OPS.items():
        if "::" in name:
            continue
        if op.options.get("function", True) and name not in globals():
            _LAZY_FUNCTIONS[name] = op
        if op.options.get("method", True) and name not in Tensor.__dict__:
            setattr(Tensor, name, _LazyMethod(op, name))
    for dunder, name in _OPERATORS.items():
        if name in _OPS:
            setattr(Tensor, dunder, _LazyMethod(_OPS[name], dunder) if dunder in _UNARY
                    else _binary_operator(_OPS[name], dunder))
    Tensor.__itruediv__ = Tensor.__idiv__
    Tensor.__getitem__, Tensor.__setitem__ = _indexing.getitem, _indexing.setitem
    for f, name in ((_indexing.getitem, "__getitem__"), (_indexing.setitem, "__setitem__")):
        f.__name__, f.__qualname__ = name, "Tensor." + name  # (as handlers see them)


_UNARY = {"__neg__", "__abs__", "__pos__"}  # (the op's method itself: Tensor.__neg__ is neg)


def _binary_operator(op, dunder):
    """A binary operator gives NotImplemented for an operand its op refuses (TypeError), as
    PyTorch's: Python then tries the other operand's reflected method (`t + obj` calls
    obj.__radd__), or raises its own TypeError; `t == None` falls back to identity.
    `t == ndarray` compares elementwise, as PyTorch's __eq__ (its other operators leave
    arrays to NumPy).  It calls the op's method, so that __torch_function__ handlers see
    Tensor.add for a + b; the SELF_REPORTED ones register as public functions, so that they
    see the operator itself (see overrides._public_caller)."""
    def operator(self, other):
        try:
            return op.method_binding(self, other)
        except TypeError:
            if op.name == "eq" and type(other).__name__ == "ndarray":
                return op.method_binding(self, as_tensor(other))
            return NotImplemented
    operator.__name__ = _OPERATOR_NAMES.get(dunder, dunder)
    operator.__qualname__ = "Tensor." + operator.__name__
    if dunder in _SELF_REPORTED:
        from . import overrides
        overrides.register_public(operator)
    return operator


def is_tensor(obj):
    return isinstance(obj, Tensor)


from ._gradient import gradient  # noqa: E402,F401
from ._legacy_types import set_default_tensor_type  # noqa: E402,F401
from .autograd.anomaly_mode import (  # noqa: E402,F401
    is_anomaly_check_nan_enabled, is_anomaly_enabled, set_anomaly_enabled,
)
from ._windows import (  # noqa: E402,F401
    bartlett_window, blackman_window, conj, hamming_window, hann_window, imag, is_signed,
    kaiser_window, real, scalar_tensor,
)


# (Python here, C++ or checked at their top in PyTorch: handlers see them, not their ops)
gradient, histogramdd, pca_lowrank, svd_lowrank, rnn_relu_cell, rnn_tanh_cell = map(
    _dispatching, (gradient, histogramdd, pca_lowrank, svd_lowrank, rnn_relu_cell,
                   rnn_tanh_cell))


@_dispatching
def get_device(input):
    return input.get_device()


from ._storage import TypedStorage, UntypedStorage  # noqa: E402
from . import _tensor_storage  # noqa: E402,F401 - Tensor.storage(), set_(), ...


@_dispatching
def is_inference(input):
    return input.is_inference()


@_dispatching
def detach(input):  # (torch.detach(t), as torch has it)
    return input.detach()


@_dispatching
def detach_(input):
    return input.detach_()


def is_storage(obj):
    return isinstance(obj, (UntypedStorage, TypedStorage))


@_dispatching
def is_floating_point(input):  # (PyTorch's keyword: input=)
    return input.dtype.is_floating_point


@_dispatching
def is_complex(input):
    return input.dtype.is_complex


@_dispatching
def numel(input):
    return input.numel()


@_dispatching
def is_conj(input):
    return input.is_conj()


@_dispatching
def is_neg(input):
    return input.is_neg()


@_dispatching
def resolve_conj(input):
    return input.resolve_conj()


@_dispatching
def resolve_neg(input):
    return input.resolve_neg()


_bind_ops()
_plugin_loader.load_all()
_bind_ops()  # ops that plugins defined
_device_modules.install()


def __getattr__(name):
    op = _LAZY_FUNCTIONS.get(name)
    if op is not None:  # op functions are generated on first use, then cached here
        fn = globals()[name] = op.binding
        return fn
    # device modules registered by plugins: mindtorch.npu, mindtorch.cpu, ...
    spec = plugins._registry.DEVICES.get(name)
    if spec is not None and spec.module is not None:
        return _device_modules.device_module(name)
    if name in _SPARSE_FUNCTIONS:  # torch.sparse_coo_tensor ...
        from . import sparse
        return getattr(sparse, name)
    if name in ("amp", "distributed", "distributions", "multiprocessing", "jit", "func",
                "_dynamo", "profiler", "quasirandom", "compiler", "library", "hub", "signal",
                "sparse", "__config__", "functional", "types", "storage", "onnx", "_inductor"):
        import importlib
        return importlib.import_module(f"{__name__}.{name}")
    if name == "vmap":
        from .func import vmap
        return vmap
    if name.startswith("_sobol_engine_"):
        from . import quasirandom
        return getattr(quasirandom, name)
    if name.startswith("_foreach_"):
        from ._foreach import FUNCTIONS
        if name in FUNCTIONS:
            return FUNCTIONS[name]
    if name == "GradScaler":
        from .amp import GradScaler
        return GradScaler
    if name in _AUTOCAST_NAMES:
        from .amp import autocast_mode
        return getattr(autocast_mode, name)
    if name in ("cuda", "xpu", "mps", "mtia"):  # scripts ask torch.cuda.is_available(), ...
        return _device_modules.device_module(name)  # (no backend provides them)
    raise AttributeError(f"module 'mindtorch' has no attribute '{name}'")


_AUTOCAST_NAMES = ("autocast", "is_autocast_enabled", "get_autocast_dtype", "set_autocast_dtype",
                   "set_autocast_enabled", "is_autocast_cpu_enabled", "get_autocast_cpu_dtype",
                   "get_autocast_gpu_dtype", "set_autocast_cpu_dtype", "set_autocast_gpu_dtype",
                   "set_autocast_cpu_enabled", "is_autocast_cache_enabled",
                   "set_autocast_cache_enabled", "autocast_increment_nesting",
                   "autocast_decrement_nesting", "clear_autocast_cache")


def __dir__():
    return sorted(set(globals()) | set(_LAZY_FUNCTIONS))
