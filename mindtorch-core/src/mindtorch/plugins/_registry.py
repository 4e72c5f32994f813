"""The tables plugins fill: devices, kernels and extra op definitions.

A plugin's hooks write into a staging `Registry`; only when every hook of that
plugin succeeded is the staging area committed to these global tables, so a
plugin that fails half-way leaves nothing behind.
"""
DEVICES = {}  # device type name -> DeviceSpec
KERNELS = {}  # op name -> {device type: kernel}


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

    (Plain classes rather than dataclasses here and in the loader: building dataclasses
    costs ~7 ms of `import mindtorch`.)
    """

    def __init__(self, type, allocate, from_host, to_host, data_ptr=lambda handle: 0,
                 module=None, generator=None, has_data=True, plugin=""):
        self.type, self.allocate, self.from_host, self.to_host = type, allocate, from_host, \
            to_host
        self.data_ptr, self.module, self.generator = data_ptr, module, generator
        self.has_data, self.plugin = has_data, plugin

    def __repr__(self):
        return f"DeviceSpec(type={self.type!r}, plugin={self.plugin!r})"


class Registry:
    """Handed to a plugin's hooks; records what it registers for a later commit."""

    def __init__(self, plugin):
        self.plugin = plugin
        self.devices, self.kernels, self.ops = [], [], []

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
        for op_name, device_type, fn in self.kernels:
            KERNELS.setdefault(op_name, {})[device_type] = fn
        clear_caches()  # resolutions made before these kernels existed are stale

    @property
    def kernel_count(self):
        return len(self.kernels)
