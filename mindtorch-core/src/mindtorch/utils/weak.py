"""torch.utils.weak: dictionaries keyed weakly by object identity (a tensor's __eq__ is
elementwise and it is unhashable by value, so weakref.WeakKeyDictionary cannot hold it)."""
import weakref
from collections.abc import MutableMapping

__all__ = ["TensorWeakRef", "WeakIdKeyDictionary", "WeakIdRef", "WeakTensorKeyDictionary"]


class WeakIdRef(weakref.ref):
    """A weak reference hashed and compared by its referent's identity."""
    __slots__ = ("_id",)

    def __new__(cls, key, callback=None):
        self = weakref.ref.__new__(cls, key, callback)
        self._id = id(key)
        return self

    def __init__(self, key, callback=None):
        super().__init__(key, callback)

    def __hash__(self):
        return self._id

    def __eq__(self, other):
        a, b = self(), other() if isinstance(other, weakref.ref) else other
        if a is not None and b is not None:
            return a is b
        return self is other


class WeakIdKeyDictionary(MutableMapping):
    def __init__(self, dict=None):
        self.data = {}
        selfref = weakref.ref(self)  # (the callback must not keep the dictionary alive)

        def remove(ref):
            owner = selfref()
            if owner is not None:
                owner.data.pop(ref, None)
        self._remove = remove
        if dict is not None:
            self.update(dict)

    def __getitem__(self, key):
        return self.data[WeakIdRef(key)]

    def __setitem__(self, key, value):
        self.data[WeakIdRef(key, self._remove)] = value

    def __delitem__(self, key):
        del self.data[WeakIdRef(key)]

    def __contains__(self, key):
        return WeakIdRef(key) in self.data

    def __iter__(self):
        for ref in list(self.data):
            obj = ref()
            if obj is not None:
                yield obj

    def __len__(self):
        return sum(1 for ref in list(self.data) if ref() is not None)

    def __repr__(self):
        return f"<{type(self).__name__} at {id(self):#x}>"


WeakTensorKeyDictionary = WeakIdKeyDictionary


class TensorWeakRef:
    """A weak reference to a tensor: calling it gives the tensor or None."""
    __slots__ = ("ref",)

    def __init__(self, tensor):
        self.ref = weakref.ref(tensor)

    def __call__(self):
        return self.ref()
