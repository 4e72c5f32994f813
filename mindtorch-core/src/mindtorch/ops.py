"""The operator table: mindtorch.ops.add is the OpDef of add; ops defined as "ns::name"
(by plugins or torch.library) are mindtorch.ops.ns.name, an operator packet calling the
op (`.default` and any overload name give the same op, as one schema serves them);
mindtorch.ops.aten.<name> are the built-in functions."""
from ._ops.registry import OPS


class _OpPacket:
    """torch.ops.<ns>.<name> (an OpOverloadPacket, and each of its overloads)."""

    def __init__(self, qualname, overload=None):  # None: the packet itself
        self._qualname = qualname
        self._overloadname = overload
        ns, _, name = qualname.partition("::")
        self.__name__ = name
        self.__qualname__ = f"{ns}.{name}"

    def __call__(self, *args, **kwargs):
        from .library import call
        return call(self._qualname, args, kwargs)

    def __getattr__(self, overload):
        if overload.startswith("__") or self._overloadname is not None:
            raise AttributeError(overload)
        return _OpPacket(self._qualname, overload)

    @property
    def _schema(self):
        return OPS[self._qualname].schema

    def overloads(self):
        return ["default"]

    # what an overload tells about itself (name(), namespace, tags, its packet)
    def name(self):
        return self._qualname

    @property
    def namespace(self):
        return self._qualname.partition("::")[0]

    @property
    def _opname(self):
        return self.__name__

    @property
    def _qualified_op_name(self):
        return self._qualname

    @property
    def overloadpacket(self):
        return _OpPacket(self._qualname)

    @property
    def tags(self):
        from ._tags import Tag
        return [t for t in Tag if t.name in OPS[self._qualname].tags]

    def __str__(self):
        name = self._qualname.replace("::", ".")
        return name if self._overloadname is None else f"{name}.{self._overloadname}"

    def __repr__(self):
        name = self._qualname.replace("::", ".")
        return f"<OpOverloadPacket(op='{name}')>" if self._overloadname is None else \
            f"<OpOverload(op='{name}', overload='{self._overloadname}')>"

    def __eq__(self, other):
        return isinstance(other, _OpPacket) and other._qualname == self._qualname

    def __hash__(self):
        return hash(self._qualname)


class _Namespace:
    """torch.ops.<ns>."""

    def __init__(self, ns):
        self._ns = ns

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        qualname = f"{self._ns}::{name}"
        if qualname not in OPS:
            raise AttributeError(f"'_OpNamespace' '{self._ns}' object has no attribute "
                                 f"'{name}'")
        return _OpPacket(qualname)

    def __repr__(self):
        return f"<module 'torch.ops.{self._ns}'>"


class _Aten:
    """torch.ops.aten.<name>[.<overload>]: the built-in function of that name."""

    def __getattr__(self, name):
        import mindtorch
        fn = getattr(mindtorch, name, None)
        if (fn is None or not callable(fn)) and name in OPS:  # (ops without a function)
            fn = OPS[name].binding
        if fn is None or not callable(fn):
            raise AttributeError(f"'_OpNamespace' 'aten' object has no attribute '{name}'")
        op = OPS.get(name)
        returns_list = op is not None and [r.type for r in op.schema.returns] == ["Tensor[]"]
        return _AtenPacket(fn, list if returns_list else tuple, _takes_list_as_varargs(fn, op))


def _takes_list_as_varargs(fn, op):
    """Whether the operator's first argument is a Tensor[] that the Python function takes
    as *tensors (broadcast_tensors, block_diag, cartesian_prod, ...)."""
    import inspect
    if op is None or not op.schema.args or op.schema.args[0].type != "Tensor[]":
        return False
    try:
        first = next(iter(inspect.signature(fn).parameters.values()), None)
    except (TypeError, ValueError):
        return False
    return first is not None and first.kind is inspect.Parameter.VAR_POSITIONAL


class _AtenPacket:
    def __init__(self, fn, sequence=tuple, unpack_list=False):
        self._fn = fn
        self._sequence = sequence  # what the operator gives several results as
        self._unpack_list = unpack_list

    def __call__(self, *args, **kwargs):
        if self._unpack_list and len(args) == 1 and isinstance(args[0], (list, tuple)):
            args = tuple(args[0])
        out = self._fn(*args, **kwargs)
        # a plain tuple (the named return_types are the Python functions' wrapping), or a
        # list for the operators returning Tensor[]
        return self._sequence(out) if isinstance(out, tuple) else out

    def __getattr__(self, overload):  # .default, .Tensor, .Scalar, ...: one function
        if overload.startswith("__"):
            raise AttributeError(overload)
        return self


aten = _Aten()


def __getattr__(name):
    if name in OPS:
        return OPS[name]
    import sys
    library = sys.modules.get("mindtorch.library")
    prefix = name + "::"
    if library is not None and name in library._NAMESPACES or \
            any(k.startswith(prefix) for k in OPS):
        return _Namespace(name)
    raise AttributeError(f"no operator or namespace named {name!r}")


def load_library(path):
    raise OSError(f"Could not load library {path!r}: mindtorch has no C++ operator libraries "
                  f"(define operators with mindtorch.library instead)")


def names():
    return sorted(OPS)
