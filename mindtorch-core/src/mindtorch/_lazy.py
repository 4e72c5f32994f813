"""Modules imported on first use, so that `import mindtorch` does not import NumPy (about
two thirds of its time otherwise): NumPy is imported with the first tensor."""
import importlib


class LazyModule:
    """Stands for module `name` in a module's globals (`np = lazy("numpy", globals())`)
    until an attribute is first read; then imports it and puts the real module in its
    place, so that later reads are plain global lookups."""

    __slots__ = ("_name", "_namespace", "_alias")

    def __init__(self, name, namespace, alias):
        self._name, self._namespace, self._alias = name, namespace, alias

    def __getattr__(self, attr):
        module = importlib.import_module(self._name)
        if self._namespace.get(self._alias) is self:
            self._namespace[self._alias] = module
        return getattr(module, attr)

    def __repr__(self):
        return f"<lazy module {self._name!r}>"


def lazy(name, namespace, alias="np"):
    return LazyModule(name, namespace, alias)
