"""Plugin entry point (entry point group mindtorch.backends, name "meta").

Every op with an inference rule (and every pointwise op) gets a meta kernel that
allocates an empty meta tensor of the inferred shape and dtype; in-place ops return
their (unchanged) first argument after checking shapes."""
from mindtorch import plugins
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


def _kernel(op, infer):
    """The meta kernel of op (what it returns is read from the schema on first call, so
    registering kernels does not parse every schema at import)."""
    name = op.name
    if op.mutates:
        def inplace(*args):
            infer(name, *args)
            return args[0]
        return inplace

    def kernel(*args):
        meta = plugins.empty
        result = infer(name, *args)
        if len(op.schema.returns) > 1:
            return tuple(meta(shape, dtype, "meta") for shape, dtype in result)
        shape, dtype = result
        return meta(shape, dtype, "meta")
    kernel.__name__ = name
    return kernel


@hookimpl
def mindtorch_register_kernels(registry):
    # the ops declared so far; the rules are imported when a kernel is first looked up,
    # not at `import mindtorch`
    ops = list(OPS.values())
    registry.lazy_kernels("meta", lambda: _kernels(ops))


def _kernels(ops):
    from .infer import infer
    from .rules import RULES
    return {op.name: _kernel(op, infer) for op in ops
            if op.name in RULES or ("pointwise" in op.tags and op.decomposition is None
                                    and not op.mutates)}
