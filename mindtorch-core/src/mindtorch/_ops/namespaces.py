"""Public modules besides `mindtorch` itself: mindtorch.linalg, mindtorch.special,
mindtorch.fft, mindtorch.nn.functional.  An op joins one with define(...,
modules=("linalg",)); its name there drops the module's prefix, as PyTorch's do (op
`linalg_inv` is `mindtorch.linalg.inv`, op `fft_rfft` is `mindtorch.fft.rfft`, op
`special_erfcx` is `mindtorch.special.erfcx`, op `conv2d` is `nn.functional.conv2d`),
unless define(..., public_name=...) names it (op `im2col` is `nn.functional.unfold`, as
`Tensor.unfold` is another op)."""
from .registry import OPS


def exports(module):
    """{public name: op} of the ops that joined `module`."""
    prefix = module.rpartition(".")[2] + "_"
    return {op.options.get("public_name") or op.name.removeprefix(prefix): op
            for op in OPS.values() if module in op.options.get("modules", ())}


def install(namespace, module):
    """Serve `module`'s ops from the globals `namespace` of its Python module, each binding
    generated on first use and then cached there (as `mindtorch.<op>` is)."""
    table = None

    def ops():
        nonlocal table
        if table is None:  # built on first access, when every plugin has defined its ops
            table = exports(module)
        return table

    def __getattr__(name):
        if name == "__all__":  # (a star import: every public name, the ops' included)
            return [n for n in __dir__() if not n.startswith("_")]
        op = ops().get(name)
        if op is None:
            raise AttributeError(f"module 'mindtorch.{module}' has no attribute '{name}'")
        fn = namespace[name] = op.binding
        if fn.__name__ != name:  # functional_relu is F.relu to its users
            fn.__name__ = fn.__qualname__ = name
            fn.__module__ = f"mindtorch.{module}"
        return fn

    def __dir__():
        return sorted(set(namespace) | set(ops()))

    namespace["__getattr__"], namespace["__dir__"] = __getattr__, __dir__
