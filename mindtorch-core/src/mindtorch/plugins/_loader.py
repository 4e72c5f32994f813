"""Discovery and isolated loading of backend plugins.

Each plugin is imported, version-checked and registered on its own; whatever goes
wrong is caught, reported in one warning and recorded in STATUS, and the other
plugins load regardless.  `import mindtorch` never fails because of a plugin.
"""
import os
import re
import sys
import warnings

import pluggy

from . import ENTRY_POINT_GROUP, PROJECT, SUPPORTED_API_VERSIONS, HookSpecs
from ._registry import Registry

from ._discovery import entry_points


class PluginStatus:
    """What became of one discovered plugin (status: loaded | disabled | failed)."""

    def __init__(self, name, distribution, version, status="loaded", reason="",
                 devices=None, kernels=0):
        self.name, self.distribution, self.version = name, distribution, version
        self.status, self.reason = status, reason
        self.devices = [] if devices is None else devices
        self.kernels = kernels

    def as_dict(self):
        return dict(self.__dict__)

    def __repr__(self):
        return f"PluginStatus({self.as_dict()})"


STATUS = {}  # plugin name -> PluginStatus
manager = pluggy.PluginManager(PROJECT)
manager.add_hookspecs(HookSpecs)


# mindtorch's own backends: always there unless named in MINDTORCH_DISABLE_BACKENDS or
# left out of MINDTORCH_BACKENDS (as PyTorch's CPU is there whatever its autoload says)
FIRST_PARTY = frozenset({"mindtorch-cpu", "mindtorch-meta"})


def _names(var):
    return {n.strip() for n in os.environ.get(var, "").split(",") if n.strip()}


def _normalise(dist_name):
    return re.sub(r"[-_.]+", "-", dist_name).lower()


def _disabled_reason(name, dist_name=""):
    allow = _names("MINDTORCH_BACKENDS")
    if allow and name not in allow:
        return "not in MINDTORCH_BACKENDS"
    if name in _names("MINDTORCH_DISABLE_BACKENDS"):
        return "disabled by MINDTORCH_DISABLE_BACKENDS"
    if os.environ.get("MINDTORCH_BACKEND_AUTOLOAD", "1") == "0" \
            and _normalise(dist_name) not in FIRST_PARTY:
        return "autoload disabled (MINDTORCH_BACKEND_AUTOLOAD=0)"
    return None


def _call(plugin, hook_name, **kwargs):
    for impl in getattr(manager.hook, hook_name).get_hookimpls():
        if impl.plugin is plugin:
            return impl.function(**kwargs)
    return None


_HOOKS = ("mindtorch_define_ops", "mindtorch_register_devices", "mindtorch_register_kernels")


def load_plugin(name, plugin, dist_name="", version="", warn=True):
    """Register one plugin object (a module or any object with hookimpls): all of its
    registrations, or, if anything fails, none of them."""
    status = STATUS[name] = PluginStatus(name, dist_name, version)
    try:
        manager.register(plugin, name=name)
    except Exception as e:  # invalid hookimpls (e.g. misnamed arguments), duplicate names
        return _fail(status, f"registration failed: {type(e).__name__}: {e}", warn)
    # a misspelt hook would otherwise be silently ignored by pluggy
    unknown = sorted(c.name for c in manager.get_hookcallers(plugin) or () if c.spec is None)
    if unknown:
        manager.unregister(plugin)
        return _fail(status, f"unknown hook(s) {', '.join(unknown)} (mindtorch hooks: "
                             f"mindtorch_plugin_api_version, {', '.join(_HOOKS)})", warn)
    try:
        api = _call(plugin, "mindtorch_plugin_api_version")
        if api not in SUPPORTED_API_VERSIONS:
            manager.unregister(plugin)
            what = "does not implement mindtorch_plugin_api_version (missing @hookimpl?)" \
                if api is None else \
                f"unsupported plugin API version {api!r}"
            return _fail(status, f"{what} (this mindtorch supports "
                                 f"{sorted(SUPPORTED_API_VERSIONS)})", warn)
        registry = Registry(plugin=name)
        for hook in _HOOKS:
            _call(plugin, hook, registry=registry)
        registry._commit()
    except Exception as e:
        manager.unregister(plugin)
        return _fail(status, f"{type(e).__name__}: {e}", warn)
    status.devices = [d.type for d in registry.devices]
    status.kernels = registry.kernel_count
    return status


def _lazy_loaded(name, count):
    status = STATUS.get(name)
    if status is not None:
        status.kernels += count


def _lazy_failed(name, device_type, error):
    """A plugin's lazy kernel table (Registry.lazy_kernels) failed to load, on first use."""
    status = STATUS.get(name) or PluginStatus(name, "", "")
    STATUS[name] = status
    _fail(status, f"loading its {device_type} kernels failed: {type(error).__name__}: {error}")


def _fail(status, reason, warn=True):
    status.status, status.reason = "failed", " ".join(reason.split())  # one line, for tables
    if warn:
        warnings.warn(f"mindtorch: skipped backend plugin '{status.name}' (distribution "
                      f"{status.distribution or '?'} {status.version or '?'}): "
                      f"{status.reason}", RuntimeWarning, stacklevel=_caller_level())
    return status


_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _caller_level():
    """warnings stacklevel of the first frame outside mindtorch and the import system,
    so a warning points at the user's `import mindtorch`."""
    frame, level = sys._getframe(1), 1
    while frame is not None:
        name = frame.f_code.co_filename
        if name.startswith("<frozen importlib"):  # warnings does not count these
            frame = frame.f_back
            continue
        # (generated bindings and recording runners count as mindtorch: a lazy kernel
        # table fails inside the op call that needed it)
        if not name.startswith((_PACKAGE_DIR, "<binding ", "<call ", "<autograd ")):
            return level
        frame, level = frame.f_back, level + 1
    return level


def _dist_name(ep):
    return ep.distribution


def _entry_points():
    # mindtorch's own backends first, so that no plugin can take their device types
    return sorted(entry_points(ENTRY_POINT_GROUP),
                  key=lambda e: (_normalise(_dist_name(e)) not in FIRST_PARTY, e.name))


def _load_entry_point(ep, disabled_reason=None, warn=True):
    dist_name, version = ep.distribution, ep.version
    reason = disabled_reason(ep.name, dist_name) if disabled_reason else None
    if reason:
        STATUS[ep.name] = PluginStatus(ep.name, dist_name, version, "disabled", reason)
        return STATUS[ep.name]
    try:
        plugin = ep.load()
    except Exception as e:
        STATUS[ep.name] = PluginStatus(ep.name, dist_name, version)
        return _fail(STATUS[ep.name], f"import failed: {type(e).__name__}: {e}", warn)
    return load_plugin(ep.name, plugin, dist_name, version, warn)


def load_all():
    """Load every plugin of the mindtorch.backends entry point group that the
    environment does not disable.  Never raises."""
    for ep in _entry_points():
        if ep.name not in STATUS:
            _load_entry_point(ep, _disabled_reason)


def load(name):
    """Load the installed plugin `name` now, whatever the environment variables say
    (e.g. after MINDTORCH_BACKEND_AUTOLOAD=0).  Raises RuntimeError if it fails."""
    status = STATUS.get(name)
    if status is not None and status.status == "loaded":
        return status
    for ep in _entry_points():
        if ep.name == name:
            status = _load_entry_point(ep, warn=False)
            if status.status != "loaded":
                raise RuntimeError(f"mindtorch: could not load backend plugin '{name}' "
                                   f"(distribution {status.distribution or '?'} "
                                   f"{status.version or '?'}): {status.reason}")
            return status
    installed = ", ".join(e.name for e in _entry_points())
    raise ValueError(f"no installed backend plugin is named {name!r} (entry point group "
                     f"{ENTRY_POINT_GROUP}; installed: {installed})")
