"""The tables plugins fill: devices, kernels and extra op definitions.

A plugin's hooks write into a staging `Registry`; only when every hook of that
plugin succeeded is the staging area committed to these global tables, so a
plugin that fails half-way leaves nothing behind.
"""
from _thread import RLock

DEVICES = {}  # device type name -> DeviceSpec
_KERNELS = {}  # op name -> {device type: kernel}; read it as KERNELS (see __getattr__)
_PENDING = []  # [plugin name, device type, load] of committed lazy_kernels() not yet run
_LATER = set()  # (op, device) registered by impl() after a pending loader of that device
_LOADING = RLock()  # held while loaders run
_ACTIVE = []  # non-empty while a loader runs (other threads then wait for the lock)


def __getattr__(name):
    # KERNELS is complete only once the lazy kernel tables are loaded: reading it runs
    # them (so `from ._registry import KERNELS` inside a function is always complete)
    if name == "KERNELS":
        if _PENDING or _ACTIVE:
            load_pending()
        return _KERNELS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def load_pending():
    """Run the lazy kernel loaders committed so far (see Registry.lazy_kernels)."""
    with _LOADING:  # one thread loads; a loader that runs ops meanwhile does not recurse
        while _PENDING:
            _ACTIVE.append(_PENDING.pop(0))
            try:
                _run(*_ACTIVE[-1])
            finally:
                _ACTIVE.pop()


def _run(plugin, device_type, load):
    from ._loader import _lazy_failed, _lazy_loaded
    try:
        table = dict(load())
        for op_name, fn in table.items():
            if not callable(fn):
                raise TypeError(f"kernel for {op_name!r} must be callable")
    except Exception as e:  # reported like any plugin failure; the other plugins go on
        _lazy_failed(plugin, device_type, e)
        return
    for op_name, fn in table.items():
        if (op_name, device_type) not in _LATER:  # impl() after the loader wins
            _KERNELS.setdefault(op_name, {})[device_type] = fn
    _lazy_loaded(plugin, len(table))
    from .._ops.registry import clear_caches
    clear_caches()  # resolutions made while loading may predate these kernels


class DeviceSpec:
    """What a backend tells core about one device type.

    allocate(nbytes, index) -> handle            raw storage for nbytes bytes
    from_host(array, index) -> handle            storage holding a C-contiguous numpy array
                                                 (may share its memory, as cpu does)
    to_host(handle, nbytes) -> numpy uint8 array the storage bytes on the host (a copy, or
                                                 the memory itself where it is host memory)
    data_ptr(handle) -> int
    module: the object exposed as mindtorch.<type> (is_available, device_count,
            current_device, set_device, synchronize, ...)
    generator(seed, index) -> state             per-device random state for kernels
    has_data: False for devices whose tensors carry no data (meta)
    share_memory(handle, nbytes) -> handle       the bytes moved to memory other processes
                                                 can map (optional: Tensor.share_memory_())
    is_shared(handle) -> bool                    whether share_memory made this handle
    host_memory: True when every handle is a C-contiguous host buffer of the storage's bytes
                 (buffer protocol, as a numpy array): Tensor.item() reads it in place

    (Plain classes rather than dataclasses here and in the loader: building dataclasses
    costs ~7 ms of `import mindtorch`.)
    """

    def __init__(self, type, allocate, from_host, to_host, data_ptr=lambda handle: 0,
                 module=None, generator=None, has_data=True, plugin="", share_memory=None,
                 is_shared=lambda handle: False, host_memory=False):
        self.type, self.allocate, self.from_host, self.to_host = type, allocate, from_host, \
            to_host
        self.data_ptr, self.module, self.generator = data_ptr, module, generator
        self.has_data, self.plugin, self.host_memory = has_data, plugin, host_memory
        self.share_memory, self.is_shared = share_memory, is_shared

    def __repr__(self):
        return f"DeviceSpec(type={self.type!r}, plugin={self.plugin!r})"


class Registry:
    """Handed to a plugin's hooks; records what it registers for a later commit."""

    def __init__(self, plugin):
        self.plugin = plugin
        self.devices, self.kernels, self.ops = [], [], []
        self.lazy = []

    def register_device(self, type, **spec):
        """Register device type `type`; keyword arguments are DeviceSpec fields."""
        if not type.isidentifier():
            raise ValueError(f"device type must be an identifier, got {type!r}")
        self.devices.append(DeviceSpec(type=type, plugin=self.plugin, **spec))

    def impl(self, op_name, device_type, fn=None):
        """Register `fn` as the kernel of `op_name` on `device_type` (usable as decorator)."""
        if fn is None:
            return lambda f: self.impl(op_name, device_type, f) or f
        if not callable(fn):
            raise TypeError(f"kernel for {op_name!r} must be callable")
        self.kernels.append((op_name, device_type, fn))

    def lazy_kernels(self, device_type, load):
        """Register the kernels `load()` returns, {op name: kernel}, for `device_type`,
        calling it only when a kernel is first looked up (the first op run on any device,
        mindtorch.backends.list(), ...), so that `import mindtorch` does not import the
        kernel modules.  As impl() for each entry, except that an exception from load()
        cannot undo the plugin's other registrations: it is reported with one
        RuntimeWarning and the plugin is marked failed (its devices stay, without these
        kernels)."""
        if not callable(load):
            raise TypeError(f"lazy_kernels for {device_type!r} needs a callable")
        self.lazy.append((device_type, load))

    def define(self, schema, decomposition=None, tags=(), derivatives=None,
               differentiable=True, **options):
        """Declare a new operator from a torch-style schema whose name has a namespace,
        e.g. "mylib::scale(Tensor self, float factor) -> Tensor" (reachable as
        mindtorch.ops.mylib.scale).  decomposition: an implementation written with
        mindtorch ops, used on devices without a kernel; derivatives: its backward
        formulas, {"self": lambda grad, factor: grad * factor, ...}, as core's
        derivative(); differentiable=False: its outputs never require grad; options as
        core's define()."""
        name = schema.partition("(")[0].strip()
        if "::" not in name:
            raise ValueError(f"operators defined by plugins need a namespace "
                             f"('mylib::{name}'), got {name!r}")
        self.ops.append((schema, decomposition, tuple(tags), options,
                         derivatives, differentiable))

    def _commit(self):
        """Publish what was staged, all or nothing: the checks and op definitions (which
        can fail) come first and are undone on failure; the table updates cannot fail."""
        from .._ops.registry import OPS, clear_caches, define, derivative, nondifferentiable
        for d in self.devices:
            if d.type in DEVICES and DEVICES[d.type].plugin != self.plugin:
                raise RuntimeError(f"device type {d.type!r} is already registered by plugin "
                                   f"{DEVICES[d.type].plugin!r}")
        defined = []
        try:
            for schema, decomposition, tags, options, formulas, differentiable in self.ops:
                op = define(schema, decomposition=decomposition, tags=tags, validate=True,
                            **options)
                defined.append(op.name)
                if formulas:
                    derivative(op, formulas)
                if not differentiable:
                    nondifferentiable(op)
        except BaseException:
            for name in defined:
                del OPS[name]
            raise
        for d in self.devices:
            DEVICES[d.type] = d
        pending = {d for _, d, _ in _PENDING}
        for op_name, device_type, fn in self.kernels:
            _KERNELS.setdefault(op_name, {})[device_type] = fn
            if device_type in pending:
                _LATER.add((op_name, device_type))
        _PENDING.extend((self.plugin, d, load) for d, load in self.lazy)
        clear_caches()  # resolutions made before these kernels existed are stale

    @property
    def kernel_count(self):
        """Kernels registered by impl(); lazy ones are counted when loaded."""
        return len(self.kernels)
