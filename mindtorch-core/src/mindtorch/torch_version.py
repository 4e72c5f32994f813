"""torch.torch_version: `__version__` as a string that compares as a version.

Libraries gate features on `torch.__version__ >= "2.0"` or `< (1, 13)`; a plain string
compares character by character ("10.0" < "9.0"), so PyTorch's version is a str subclass
whose comparisons parse both sides (PEP 440, by `packaging`).  Strings that do not parse
compare as strings, as in PyTorch.
"""
__all__ = ["TorchVersion"]


def _version_types():
    from packaging.version import InvalidVersion, Version
    return Version, InvalidVersion


class TorchVersion(str):
    """A version string; compares with strings, tuples of ints and packaging Versions."""

    def _parsed(self, other):
        Version, _ = _version_types()
        if isinstance(other, Version):
            return other
        if isinstance(other, str):
            return Version(other)
        if isinstance(other, tuple) and all(isinstance(n, int) for n in other):
            return Version(".".join(str(n) for n in other))
        raise TypeError(f"'{other}' of type {type(other).__name__} is not a version")

    def _compare(self, other, method):
        Version, InvalidVersion = _version_types()
        try:
            return getattr(Version(self), method)(self._parsed(other))
        except InvalidVersion:
            return getattr(str(self), method)(other)  # (as PyTorch: compared as strings)
        except TypeError:
            return NotImplemented

    __hash__ = str.__hash__


def _comparison(method):
    def compare(self, other):
        return self._compare(other, method)
    compare.__name__ = method
    return compare


for _method in ("__gt__", "__ge__", "__lt__", "__le__", "__eq__", "__ne__"):
    setattr(TorchVersion, _method, _comparison(_method))
