"""torch.library.custom_op (a Python function made an operator) and opcheck."""
import contextlib
import functools

from . import library as L
from ._ops.registry import OPS
from ._tensor import Tensor


class CustomOpDef:
    """What @custom_op returns: callable as the op, with the register_* methods."""

    def __init__(self, namespace, name, schema, fn):
        self._namespace, self._name = namespace, name
        self._qualname = f"{namespace}::{name}"
        self._schema = schema
        self._init_fn = fn
        self._disabled = set()  # device types whose kernel set_kernel_enabled turned off
        functools.update_wrapper(self, fn)

    def __repr__(self):
        return f"<CustomOpDef({self._qualname})>"

    def __call__(self, *args, **kwargs):
        return L.call(self._qualname, args, kwargs)

    @property
    def _opoverload(self):
        from .ops import _OpPacket
        return _OpPacket(self._qualname).default

    def register_kernel(self, device_types, fn=None, /):
        return L.register_kernel(self._qualname, device_types, fn)

    def register_fake(self, fn, /):
        L.register_fake(self._qualname, fn)
        return fn

    def register_autograd(self, backward, /, *, setup_context=None):
        L.register_autograd(self._qualname, backward, setup_context=setup_context)

    def register_vmap(self, func=None):
        return L.register_vmap(self._qualname, func)

    def register_autocast(self, device_type, cast_inputs):
        from .amp.autocast_mode import _require_str
        _require_str(device_type)
        if device_type not in L._entry(self._qualname).autocast:  # (the first one holds)
            L.register_autocast(self._qualname, device_type, cast_inputs)

    def register_torch_dispatch(self, torch_dispatch_class, fn=None, /):
        raise NotImplementedError("register_torch_dispatch is not supported by mindtorch")

    @contextlib.contextmanager
    def set_kernel_enabled(self, device_type, enabled=True):
        """Within the block, the device's kernel is (not) used: the default one runs."""
        from .plugins._registry import KERNELS
        kernels = KERNELS.get(self._qualname, {})
        saved = kernels.get(device_type)
        if not enabled and saved is not None:
            kernels.pop(device_type)
            OPS[self._qualname].resolved.clear()
        try:
            yield
        finally:
            if saved is not None:
                kernels[device_type] = saved
                OPS[self._qualname].resolved.clear()


def custom_op(name, fn=None, /, *, mutates_args, device_types=None, schema=None, tags=None):
    """@custom_op("ns::name", mutates_args=()) makes a type-annotated function an
    operator, mindtorch.ops.ns.name."""
    if not isinstance(name, str) or "::" not in name:
        raise ValueError(f"Expected `name` to be of the form \"{{namespace}}::{{name}}\", "
                         f"got {name!r}")
    namespace, opname = name.split("::", 1)

    def make(func):
        text = schema if schema is not None else \
            L.infer_schema(func, mutates_args=mutates_args)
        L._define_op(name, text, tags or ())
        L.register_kernel(name, device_types, func)
        return CustomOpDef(namespace, opname, text, func)
    return make if fn is None else make(fn)


class OpCheckError(Exception):
    pass


def _meta_like(x):
    return x.to("meta") if isinstance(x, Tensor) else \
        type(x)(_meta_like(v) for v in x) if isinstance(x, (list, tuple)) else x


def _flat(x):
    return [x] if isinstance(x, Tensor) else \
        [t for v in x for t in _flat(v)] if isinstance(x, (list, tuple)) else []


def opcheck(op, args, kwargs=None, *, test_utils=("test_schema", "test_autograd_registration",
                                                  "test_faketensor",
                                                  "test_aot_dispatch_dynamic"),
            raise_exception=True, atol=None, rtol=None):
    """Run op on args and check what mindtorch can: its fake (meta) kernel agrees with the
    real result in shapes and dtypes, and autograd is registered where inputs need it."""
    from .plugins._registry import KERNELS
    qualname = L._qualname(op)
    kwargs = kwargs or {}
    if isinstance(test_utils, str):
        test_utils = (test_utils,)
    results = {}
    result = L.call(qualname, args, dict(kwargs))
    for test in test_utils:
        try:
            if test == "test_faketensor":
                if "meta" not in KERNELS.get(qualname, {}) and \
                        OPS[qualname].decomposition is None:
                    raise RuntimeError(f"There was no fake impl registered for {qualname}.")
                fake = L.call(qualname, _meta_like(args), _meta_like(kwargs))
                for want, got in zip(_flat(result), _flat(fake), strict=True):
                    if want.shape != got.shape or want.dtype is not got.dtype:
                        raise RuntimeError(f"fake result {tuple(got.shape)} {got.dtype} "
                                           f"differs from {tuple(want.shape)} {want.dtype}")
            elif test == "test_autograd_registration":
                entry = L._ENTRIES.get(qualname)
                if any(t.requires_grad for t in _flat(args)) and entry is not None and \
                        not entry.implicit and entry.backward is None and \
                        entry.autograd_impl is None:
                    raise RuntimeError(f"{qualname}: inputs require grad but no autograd "
                                       f"formula was registered (register_autograd)")
            results[test] = "SUCCESS"
        except Exception as e:
            if raise_exception:
                raise OpCheckError(f"opcheck(op, ...): {test} failed with {e}") from e
            results[test] = e
    return results
