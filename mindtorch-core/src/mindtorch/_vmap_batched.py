"""vmap's stand-in for PyTorch's BatchedTensor checks: while the first slice runs, a
TorchFunctionMode marks the tensors derived from the slices, so that what PyTorch refuses
on batched tensors (reading values, writing them into unbatched tensors, ops with
data-dependent output shapes) is refused here too."""


def _batched_class():
    from .overrides import TorchFunctionMode

    class _Batched(TorchFunctionMode):
        """Which tensors of one vmap call derive from its slices (PyTorch's BatchedTensors),
        for PyTorch's refusals: reading their values (.item(), bool(), ...), writing them
        into a tensor that is not batched, ops with data-dependent output shapes."""

        def __init__(self, randomness, size):
            super().__init__()
            self.ids = {}  # id(tensor) -> weakref: the batched tensors
            self.randomness = randomness
            self.size = size  # (the batch size, for messages)

        def mark(self, t):
            import weakref
            self.ids[id(t)] = weakref.ref(t)
            return t

        def batched(self, t):
            r = self.ids.get(id(t))
            return r is not None and r() is t

        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            if self.randomness == "different" and args and \
                    getattr(func, "__name__", "") in _RANDOM_INPLACE and \
                    not self.batched(args[0]):
                raise RuntimeError("vmap: Cannot ask for different inplace randomness on an "
                                   "unbatched tensor. This will appear like same randomness. "
                                   "If this is necessary for your usage, please file an issue "
                                   "with functorch.")
            flat = [x for a in (*args, *kwargs.values())
                    for x in (a if isinstance(a, (tuple, list)) else (a,))]
            if getattr(func, "__name__", "") == "requires_grad_" and _from_user_code():
                raise RuntimeError(_REQUIRES_GRAD)
            if any(self.batched(x) for x in flat):
                _refuse_batched(func, args, self)
                out = func(*args, **kwargs)
                for t in (out if isinstance(out, (tuple, list)) else (out,)):
                    if hasattr(t, "_storage"):
                        self.mark(t)
                return out
            return func(*args, **kwargs)
    return _Batched


_ITEM = ("vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over "
         "calling .item() on a Tensor, please try to rewrite what you're doing with other "
         "operations. If error is occurring somewhere inside PyTorch internals, please file "
         "a bug report.")
_REFUSED = {
    "item": _ITEM, "__float__": _ITEM, "__int__": _ITEM, "__complex__": _ITEM,
    "__index__": _ITEM,
    "__bool__": "vmap: It looks like you're attempting to use a Tensor in some data-dependent "
                "control flow. We don't support that yet, please file an issue at "
                "https://github.com/pytorch/pytorch/issues .",
    "tolist": "Cannot access data pointer of Tensor that doesn't have storage",
    "numpy": "Cannot access data pointer of Tensor that doesn't have storage",
    "nonzero": "vmap: We do not support batching operators that can output dynamic shape. "
               "Attempted to vmap over aten::nonzero. Please file an issue at "
               "https://github.com/pytorch/pytorch/issues if you need this feature.",
    "masked_select": "vmap: We do not support batching operators that can support dynamic "
                     "shape. Attempting to batch over indexing with a boolean mask.",
}
_REQUIRES_GRAD = (
    "You are attempting to call Tensor.requires_grad_() (or perhaps using "
    "torch.autograd.functional.* APIs) inside of a function being transformed by a functorch "
    "transform. This is unsupported, please attempt to use the functorch transforms (e.g. grad, "
    "vjp, jacrev, jacfwd, hessian) or call requires_grad_() outside of a function being "
    "transformed instead.")
_INPLACE = ("vmap: inplace arithmetic(self, *extra_args) is not possible because there exists "
            "a Tensor `other` in extra_args that has more elements than `self`. This happened "
            "due to `other` being vmapped over but `self` not being vmapped over in a vmap. "
            "Please try to use out-of-place operators instead of inplace arithmetic. If said "
            "operator is being called inside the PyTorch framework, please file a bug report "
            "instead.")


def _refuse_batched(func, args, tracker):
    """PyTorch's errors for func(*args), called by the user's code, with batched tensors
    among args (mindtorch's own Python code - transforms, modules - is not checked: it
    stands for single PyTorch ops)."""
    name = getattr(func, "__name__", "")
    first = args[0] if args else None
    error = None
    if tracker.randomness == "same" and name in _RANDOM_FROM_TENSORS:
        error = ("Vmap does not currently support same randomness with a batched tensor input. "
                 "Please file an issue with functorch")
    elif name in _REFUSED and tracker.batched(first):
        error = _REFUSED[name]
    elif name in ("__getitem__", "getitem") and len(args) > 1:
        import mindtorch
        index = args[1] if isinstance(args[1], tuple) else (args[1],)
        if any(getattr(i, "dtype", None) is mindtorch.bool and tracker.batched(i)
               for i in index):
            error = _REFUSED["masked_select"]
    elif (name in ("__setitem__", "setitem") or name.endswith("_") and not name.startswith("_") or
          name.startswith("__i") and name[3:-2] in _INPLACE_DUNDERS) and \
            hasattr(first, "_storage") and not tracker.batched(first):
        error = _INPLACE
        other = args[1] if len(args) > 1 else None
        if name == "add_" and tracker.batched(other):  # (PyTorch's broadcast check)
            import mindtorch
            shape = [tracker.size, *mindtorch.broadcast_shapes(first.shape, other.shape)]
            error = (f"output with shape {list(first.shape)} doesn't match the broadcast shape "
                     f"{shape}")
    if error is not None and _from_user_code():
        raise RuntimeError(error)


_PLUMBING = {"mindtorch", "mindtorch.overrides", "mindtorch._tensor_subclass",
             "mindtorch._tensor", __name__}  # (dispatch; functions standing for one op)


def _own_vmap_rule(cls):
    from .autograd.function import Function
    return isinstance(cls, type) and issubclass(cls, Function) and cls.vmap is not Function.vmap


def _from_user_code():
    """Whether the op being dispatched was called from outside mindtorch, and not within
    a custom autograd.Function (its vmap rule stands for it) inside the vmap."""
    import sys
    frame = sys._getframe(2)
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if not (module in _PLUMBING or module.startswith("mindtorch._ops") or
                frame.f_code.co_filename.startswith("<")):
            if module.startswith("mindtorch.") and module != "mindtorch.autograd.functional":
                return False  # (autograd.functional: Python code in PyTorch too, checked)
            break
        frame = frame.f_back
    while frame is not None and not (frame.f_code.co_name == "mapped" and
                                     frame.f_globals.get("__name__") == "mindtorch.func"):
        if frame.f_globals.get("__name__") == "mindtorch.autograd.function" and \
                _own_vmap_rule(frame.f_locals.get("cls")):
            return False
        frame = frame.f_back
    return True


_INPLACE_DUNDERS = {"add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or",
                    "xor", "lshift", "rshift", "matmul"}


_RANDOM_FROM_TENSORS = {"multinomial", "normal", "bernoulli", "poisson", "binomial",
                        "_standard_gamma", "_sample_dirichlet"}
_RANDOM_INPLACE = {"normal_", "uniform_", "bernoulli_", "random_", "exponential_", "cauchy_",
                   "log_normal_", "geometric_"}


def Batched(randomness, size):
    """A TorchFunctionMode marking the tensors derived from one vmap call's slices."""
    global Batched
    Batched = _batched_class()  # (defined on first use: overrides imports late)
    return Batched(randomness, size)
