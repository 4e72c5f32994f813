"""Inference tensors (PyTorch's InferenceMode): tensors made while inference_mode() is on.
They record no history, track no version, and outside inference mode may neither be
written in place nor saved for backward.

A tensor is an inference tensor when its version counter is an InferenceCounter, so its
views and detached aliases (which share the counter) are inference tensors too, and the
test costs nothing on the ordinary path.  The op bindings mark fresh results while
`state.inference` is set (results sharing an input's counter, i.e. views and in-place
results, keep it); SavedTensor refuses an inference tensor."""
from .._tensor import Tensor
from .grad_mode import state


class InferenceCounter(list):
    """The version counter of inference tensors (its type is the mark).  Every in-place
    write bumps its tensor's counter after writing: outside inference mode that bump raises
    PyTorch's error (PyTorch too raises from its version bump, once the data is written)."""
    __slots__ = ()

    def __setitem__(self, i, value):
        if not state.inference:
            raise RuntimeError(_WRITE)
        list.__setitem__(self, i, value)


_SAVE = ("Inference tensors cannot be saved for backward. Please do not use Tensors created in "
         "inference mode in computation tracked by autograd. To work around this, you can "
         "make a clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` "
         "instead of `torch.inference_mode()`.")
_WRITE = ("Inplace update to inference tensor outside InferenceMode is not allowed.You can make "
          "a clone to get a normal tensor before doing inplace update.See "
          "https://github.com/pytorch/rfcs/pull/17 for more details.")


def is_inference(t):
    return type(t._version_counter) is InferenceCounter


def mark(result, inputs):
    """Make the fresh tensors of an op's result inference tensors (in inference mode):
    those with a normal version counter that no input shares (not views or aliases)."""
    if type(result) is Tensor:  # the common case, kept short
        vc = result._version_counter
        if type(vc) is list and _unshared(vc, inputs):
            result._version_counter = InferenceCounter(vc)
    elif isinstance(result, (tuple, list)):
        fresh = {}  # (outputs sharing one fresh counter keep sharing it)
        for r in result:
            vc = getattr(r, "_version_counter", None)
            if type(vc) is list and isinstance(r, Tensor) and _unshared(vc, inputs):
                r._version_counter = fresh.get(id(vc)) or \
                    fresh.setdefault(id(vc), InferenceCounter(vc))
    elif isinstance(result, Tensor):
        mark((result,), inputs)
    return result


def _unshared(vc, inputs):
    for t in inputs:
        if isinstance(t, Tensor):
            if t._version_counter is vc:
                return False
        elif type(t) in (list, tuple):  # (Tensor[] arguments)
            for u in t:
                if isinstance(u, Tensor) and u._version_counter is vc:
                    return False
    return True


def mark_new(t):
    """A tensor made outside the ops (tensor(), from_numpy()) in inference mode."""
    if state.inference and type(t._version_counter) is not InferenceCounter:
        t._version_counter = InferenceCounter(t._version_counter)
    return t


def check_save(t):
    raise RuntimeError(_SAVE)


def no_version():
    raise RuntimeError("Inference tensors do not track version counter.")


def check_requires_grad(t):
    if not state.inference:
        raise RuntimeError("Setting requires_grad=True on inference tensor outside "
                           "InferenceMode is not allowed.")
