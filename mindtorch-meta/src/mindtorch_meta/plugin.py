"""Plugin entry point (entry point group mindtorch.backends, name "meta").

Every op with an inference rule (and every pointwise op) gets a meta kernel that
allocates an empty meta tensor of the inferred shape and dtype, laid out as PyTorch's
kernel lays its result out (elementwise results by TensorIterator's rule, the others by
layouts.py, else contiguous); in-place ops return their (unchanged) first argument after
checking shapes."""
from mindtorch import Tensor, plugins
from mindtorch._creation import _empty
from mindtorch._ops import OPS
from mindtorch.plugins import PLUGIN_API_VERSION, hookimpl

from . import device


@hookimpl
def mindtorch_plugin_api_version():
    return PLUGIN_API_VERSION


@hookimpl
def mindtorch_register_devices(registry):
    registry.register_device("meta", allocate=device.allocate, from_host=device.from_host,
                             to_host=device.to_host, module=device.module, has_data=False,
                             generator=lambda seed, index=None: None)


def _kernel(op, infer, layouts):
    """The meta kernel of op (what it returns is read from the schema on first call, so
    registering kernels does not parse every schema at import)."""
    name = op.name
    if op.mutates:
        def inplace(*args):
            infer(name, *args)
            return args[0]
        return inplace
    meta = _allocator(op, layouts)

    def kernel(*args):
        result = infer(name, *args)
        if len(op.schema.returns) > 1:
            return tuple(meta(shape, dtype, args, i) for i, (shape, dtype) in enumerate(result))
        shape, dtype = result
        return meta(shape, dtype, args)
    kernel.__name__ = name
    return kernel


def _allocator(op, layouts):
    """How op's results are allocated: (shape, dtype, args, i) -> result i."""
    layout = layouts.get(op.name)
    if layout is not None:
        return lambda shape, dtype, args, i=0: _empty(shape, dtype, "meta",
                                                      layout(args, tuple(shape), i))
    if "pointwise" in op.tags or op.name in _ELEMENTWISE:
        return _iter_allocator
    return _contiguous_allocator


# elementwise ops not tagged pointwise (several results)
_ELEMENTWISE = {"frexp"}


def _contiguous_allocator(shape, dtype, args, i=0):
    return plugins.empty(shape, dtype, "meta")


def _iter_allocator(shape, dtype, args, i=0):
    """An elementwise result laid out as PyTorch's TensorIterator (and the cpu kernels)
    lay it out over the op's tensor operands, in order."""
    if len(shape) < 2:
        return plugins.empty(shape, dtype, "meta")
    from mindtorch._strides import iter_result_strides
    layouts = [(a._shape, a._stride) if a._shape else None
               for a in args if isinstance(a, Tensor)]
    return _empty(shape, dtype, "meta", iter_result_strides(tuple(shape), layouts))


@hookimpl
def mindtorch_register_kernels(registry):
    # the ops declared so far; the rules are imported when a kernel is first looked up,
    # not at `import mindtorch`
    ops = list(OPS.values())
    registry.lazy_kernels("meta", lambda: _kernels(ops))


def _kernels(ops):
    from .infer import by_decomposition, infer
    from .layouts import LAYOUTS
    from .rules import RULES
    kernels = {}
    for op in ops:
        if op.name in RULES or "pointwise" in op.tags and op.decomposition is None \
                and not op.mutates:
            kernels[op.name] = _kernel(op, infer, LAYOUTS)
        elif op.name in LAYOUTS:  # (an op that decomposes, its result laid out as PyTorch's)
            kernels[op.name] = _kernel(op, by_decomposition, LAYOUTS)
    return kernels
