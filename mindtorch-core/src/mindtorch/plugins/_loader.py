"""Discovery and isolated loading of backend plugins.

Each plugin is imported, version-checked and registered on its own; whatever goes
wrong is caught, reported in one warning and recorded in STATUS, and the other
plugins load regardless.  `import mindtorch` never fails because of a plugin.
"""
import os
import sys
import warnings
from dataclasses import dataclass, field

import pluggy

from . import ENTRY_POINT_GROUP, PROJECT, SUPPORTED_API_VERSIONS, HookSpecs
from ._registry import Registry

if sys.version_info >= (3, 10):
    from importlib.metadata import entry_points
else:  # pragma: no cover
    from importlib_metadata import entry_points


@dataclass
class PluginStatus:
    name: str
    distribution: str
    version: str
    status: str = "loaded"         # loaded | disabled | failed
    reason: str = ""
    devices: list = field(default_factory=list)
    kernels: int = 0

    def as_dict(self):
        return dict(self.__dict__)


STATUS = {}  # plugin name -> PluginStatus
manager = pluggy.PluginManager(PROJECT)
manager.add_hookspecs(HookSpecs)


def _names(var):
    return {n.strip() for n in os.environ.get(var, "").split(",") if n.strip()}


def _disabled_reason(name):
    if os.environ.get("MINDTORCH_BACKEND_AUTOLOAD", "1") == "0":
        return "autoload disabled (MINDTORCH_BACKEND_AUTOLOAD=0)"
    allow = _names("MINDTORCH_BACKENDS")
    if allow and name not in allow:
        return "not in MINDTORCH_BACKENDS"
    if name in _names("MINDTORCH_DISABLE_BACKENDS"):
        return "disabled by MINDTORCH_DISABLE_BACKENDS"
    return None


def _call(plugin, hook_name, **kwargs):
    for impl in getattr(manager.hook, hook_name).get_hookimpls():
        if impl.plugin is plugin:
            return impl.function(**kwargs)
    return None


def load_plugin(name, plugin, dist_name="", version=""):
    """Register one plugin object (a module or any object with hookimpls)."""
    status = STATUS[name] = PluginStatus(name, dist_name, version)
    try:
        manager.register(plugin, name=name)
    except Exception as e:  # invalid hookimpls, duplicate names
        return _fail(status, f"registration failed: {type(e).__name__}: {e}")
    try:
        api = _call(plugin, "mindtorch_plugin_api_version")
        if api not in SUPPORTED_API_VERSIONS:
            manager.unregister(plugin)
            return _fail(status, f"unsupported plugin API version {api!r} (this mindtorch "
                                 f"supports {sorted(SUPPORTED_API_VERSIONS)})")
        registry = Registry(plugin=name)
        for hook in ("mindtorch_define_ops", "mindtorch_register_devices",
                     "mindtorch_register_kernels"):
            _call(plugin, hook, registry=registry)
        registry._commit()
    except Exception as e:
        manager.unregister(plugin)
        return _fail(status, f"{type(e).__name__}: {e}")
    status.devices = [d.type for d in registry.devices]
    status.kernels = registry.kernel_count
    return status


def _fail(status, reason):
    status.status, status.reason = "failed", reason
    warnings.warn(f"mindtorch: skipped backend plugin '{status.name}' (distribution "
                  f"{status.distribution or '?'} {status.version or '?'}): {reason}",
                  RuntimeWarning, stacklevel=2)
    return status


def load_all():
    """Load every plugin of the mindtorch.backends entry point group."""
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        if ep.name in STATUS:
            continue
        dist = getattr(ep, "dist", None)
        dist_name = dist.metadata["Name"] if dist is not None else ""
        version = dist.version if dist is not None else ""
        reason = _disabled_reason(ep.name)
        if reason:
            STATUS[ep.name] = PluginStatus(ep.name, dist_name, version, "disabled", reason)
            continue
        try:
            plugin = ep.load()
        except Exception as e:
            STATUS[ep.name] = PluginStatus(ep.name, dist_name, version)
            _fail(STATUS[ep.name], f"import failed: {type(e).__name__}: {e}")
            continue
        load_plugin(ep.name, plugin, dist_name, version)
