"""Tensor's copying protocols: pickling (`__reduce_ex__`, PyTorch's layout: the whole
storage with the tensor's offset, shape and strides), the compact reduction DataLoader
workers send, `__deepcopy__`, and the state the user's attributes make (`__getstate__`).
Installed on Tensor before _tensor_subclass reads them."""
import copyreg

from ._lazy import lazy
from ._tensor import Tensor

np = lazy("numpy", globals())
_OWN_SLOTS = frozenset(Tensor.__slots__)


def __getstate__(self):
    """The tensor's Python attributes, what copies and pickles carry besides its data, as
    object.__getstate__ gives PyTorch's (whose own fields are C ones): the instance dict
    (None when empty), or (dict, values) when a subclass adds __slots__."""
    d = self.__dict__ or None
    slots = {n: getattr(self, n) for n in copyreg._slotnames(type(self))
             if n not in _OWN_SLOTS and hasattr(self, n)}
    return (d, slots) if slots else d


def set_state(t, state):
    """__getstate__'s inverse for a tensor rebuilt from its data (PyTorch's
    _set_obj_state: attributes set one by one)."""
    d, slots = state if isinstance(state, tuple) else (state, None)
    for part in (d, slots):
        for k, v in (part or {}).items():
            setattr(t, k, v)
    return t


def __reduce_ex__(self, protocol):
    """As PyTorch's: the whole storage (its bytes, once per tensor pickled) with this
    tensor's offset, shape and strides, so a view comes back a view of a copy of its
    storage, and copy.copy (which does not pickle) shares memory."""
    from ._creation import _rebuild_tensor
    from ._storage import SharedStorage
    from .utils.hooks import warn_if_has_hooks
    warn_if_has_hooks(self)
    args = (SharedStorage(self._storage), self._offset, self._shape, self._stride,
            self.dtype.name, self.requires_grad)
    state = self.__getstate__()
    if state:  # the user's attributes travel too (PyTorch's _rebuild_from_type_v2)
        return _rebuild_tensor, args, state
    return _rebuild_tensor, args


def _reduce_compact(self):
    """A reduction of only this tensor's elements, for transports where sending a view's
    whole storage would be wasteful (DataLoader workers): a dense view (a transpose, a
    permutation) keeps its strides, as over PyTorch's shared storage; one with gaps
    comes back contiguous."""
    from ._creation import _rebuild
    return (_rebuild, (np.array(self.cpu()._host(), order="K"), str(self._device),
                       self.requires_grad))

def __deepcopy__(self, memo):
    """A new leaf with a copy of the data (and of .grad), as PyTorch's: a copy of the
    whole storage (once per deepcopy, so views copied together stay views of one
    storage) with this tensor's offset and strides; a clone on a device without data."""
    if self._grad_fn is not None:
        raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) "
                           "support the deepcopy protocol at the moment.  If you were "
                           "attempting to deepcopy a module, this may be because of a "
                           "torch.nn.utils.weight_norm usage, see "
                           "https://github.com/pytorch/pytorch/pull/103001")
    from .autograd.grad_mode import no_grad
    import copy
    if not self._storage._spec.has_data:
        with no_grad():
            new = self.clone()
    else:
        new = Tensor._make(copy.deepcopy(self._storage, memo), self._shape, self._stride,
                           self._offset, self.dtype)
    new.requires_grad_(self._requires_grad)
    if self._grad is not None:
        new._grad = copy.deepcopy(self._grad, memo)
    memo[id(self)] = new
    if type(self) is Tensor and self.__dict__:  # the user's (subclasses: _tensor_subclass)
        new.__dict__ = copy.deepcopy(self.__dict__, memo)
    return new


for _f in (__getstate__, __reduce_ex__, _reduce_compact, __deepcopy__):
    setattr(Tensor, _f.__name__, _f)
