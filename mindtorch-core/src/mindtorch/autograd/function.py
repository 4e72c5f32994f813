"""autograd.Function: user-defined ops with their own backward.

The ctx a Function's forward receives is its graph node (as in PyTorch): what forward
stores on it is there in backward."""
import contextlib
import functools
import warnings

from .._dtype import DIFFERENTIABLE
from .._tensor import Tensor, autograd_meta
from ._record import _meta, check_inplace, edge, forward, rebase_history
from .grad_mode import set_grad_enabled, state
from .graph import Node, SavedTensor


class FunctionCtx:
    """What forward/setup_context may call on ctx."""

    def save_for_backward(self, *tensors):
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(f"save_for_backward can only save variables, but argument "
                                f"{i} is of type {type(t).__name__}")
        self._to_save = tensors

    def save_for_forward(self, *tensors):  # (what jvp reads as ctx.saved_tensors)
        self._fw_saved = tensors

    def mark_dirty(self, *tensors):
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors):
        self._non_differentiable = tensors

    def set_materialize_grads(self, value):
        self._materialize = bool(value)

    @property
    def saved_tensors(self):
        if self.__dict__.get("_in_jvp"):
            return tuple(self.__dict__.get("_fw_saved", ()))
        saved = self._saved
        if saved is None:
            if self._freed:
                from .graph import _FREED
                raise RuntimeError(_FREED)
            return ()
        return tuple(None if s is None else s.unpack(self) for s in saved)


class BackwardCFunction(FunctionCtx, Node):
    """The node of one Function call (and its ctx)."""
    _checks_devices = True
    _forward_cls = None
    _to_save = None
    _dirty = ()
    _non_differentiable = ()
    _materialize = True
    needs_input_grad = ()

    def __repr__(self):
        """A Python class in PyTorch: object's repr, <torch.autograd.function.NameBackward
        object at ...>; a node renamed after one of PyTorch's C++ nodes keeps theirs."""
        cls = type(self)
        if cls.__name__ != cls._forward_cls.__name__ + "Backward":
            return Node.__repr__(self)
        return object.__repr__(self)

    def apply(self, grads):
        cls = self._forward_cls
        if self._materialize:
            from ._record import _materialize
            meta = self._outputs_meta
            grads = [_materialize(g, meta[3 * k:3 * k + 3]) for k, g in enumerate(grads)]
        result = _user_backward(cls)(self, *grads)
        if not isinstance(result, tuple):
            result = (result,)
        n_args = len(self._arg_is_tensor)
        if len(result) > n_args and all(g is None for g in result[n_args:]):
            result = result[:n_args]  # extra trailing Nones are allowed
        if len(result) != n_args:
            raise RuntimeError(f"function {self.name()} returned an incorrect number of "
                               f"gradients (expected {n_args}, got {len(result)})")
        out = []
        for i, (g, is_tensor) in enumerate(zip(result, self._arg_is_tensor)):
            if is_tensor:
                out.append(g)
            elif g is not None:
                raise RuntimeError(f"function {self.name()} returned a gradient different than "
                                   f"None at position {i + 1}, but the corresponding forward "
                                   f"input was not a Variable")
        return out


def _bound_arguments(cls, args, kwargs):
    """forward's positional arguments for a call (signature.bind's errors); PyTorch
    refuses a keyword-only parameter, even a defaulted one."""
    bound = _signature(cls.forward).bind(*args, **kwargs)
    bound.apply_defaults()
    if bound.kwargs:
        raise TypeError(f"forward() got an unexpected keyword argument "
                        f"'{next(iter(bound.kwargs))}'")
    return bound.args


@functools.lru_cache(maxsize=256)
def _signature(fn):
    import inspect
    return inspect.signature(fn)


def _user_backward(cls):
    """backward, or vjp (its other name) when a Function defines that one instead."""
    own_backward = cls.backward is not Function.backward
    own_vjp = cls.vjp is not Function.vjp
    if own_backward and own_vjp:
        raise RuntimeError("Implementing both 'backward' and 'vjp' for a custom Function is "
                           "not allowed. You should only implement one of them.")
    return cls.vjp if own_vjp else cls.backward


_transforms = [0]  # how many torch.func transforms (vmap, grad, ...) run func now


@contextlib.contextmanager
def under_transform():
    _transforms[0] += 1
    try:
        yield
    finally:
        _transforms[0] -= 1


class FunctionMeta(type):
    """Gives each Function subclass its node class, <Name>Backward."""

    def __init__(cls, name, bases, attrs):
        cls._backward_cls = type(name + "Backward", (BackwardCFunction,),
                                 {"_forward_cls": cls, "__module__": __name__})
        super().__init__(name, bases, attrs)


class Function(metaclass=FunctionMeta):
    """Subclass with static forward(ctx, *args) (or forward(*args) plus
    setup_context(ctx, inputs, output)) and backward(ctx, *grad_outputs); call
    MyFunction.apply(*args)."""

    def __init__(self, *args, **kwargs):
        warnings.warn(f"{type(self)} should not be instantiated. Methods on autograd functions "
                      "are all static, so you should invoke them on the class itself. "
                      "Instantiating an autograd function will raise an error in a future "
                      "version of PyTorch.", DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):
        raise RuntimeError("Legacy autograd function with non-static forward method is "
                           "deprecated. Please use new-style autograd function with static "
                           "forward method. (Example: https://pytorch.org/docs/stable/"
                           "autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(*args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward "
                                  "mode AD.")

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError("You must implement the jvp function for custom "
                                  "autograd.Function to use it with forward mode AD.")

    generate_vmap_rule = False

    @staticmethod
    def vmap(info, in_dims, *args):
        raise NotImplementedError("To use autograd.Function with vmap, you must either override "
                                  "the vmap staticmethod or set generate_vmap_rule=True.")

    @classmethod
    def apply(cls, *args, **kwargs):
        separate = cls.setup_context is not Function.setup_context
        if separate:  # (as PyTorch: arguments bound to forward's, defaults filled in)
            args = _bound_arguments(cls, args, kwargs)
            kwargs = {}
        ctx = cls._backward_cls()
        is_tensor = [isinstance(a, Tensor) for a in args]
        ctx._arg_is_tensor = is_tensor
        ctx.needs_input_grad = tuple(t and a._requires_grad for t, a in zip(is_tensor, args))
        recording = state.enabled and any(ctx.needs_input_grad)
        tensors = [a for a, t in zip(args, is_tensor) if t]
        edges = [edge(a) for a in tensors] if recording else None
        if _transforms[0] and not separate and not cls.__module__.startswith("mindtorch"):
            # (mindtorch's own Functions stand for PyTorch's native ops: they run)
            raise RuntimeError(
                "In order to use an autograd.Function with functorch transforms (vmap, grad, "
                "jvp, jacrev, ...), it must override the setup_context staticmethod. For more "
                "details, please see https://pytorch.org/docs/main/notes/extending.func.html")
        if _transforms[0] and not cls.__module__.startswith("mindtorch"):
            _check_vmap_rule(cls)
        # forward AD: a jvp method gives the tangents (mindtorch's own Functions without
        # one let their forward's ops propagate them)
        tangents = forward.custom_tangents(cls, args) if forward.on else None
        on = forward.on
        forward.on = on and tangents is None
        try:
            with set_grad_enabled(False):
                if separate:
                    output = cls.forward(*args, **kwargs)
                    cls.setup_context(ctx, args, output)
                else:
                    output = cls.forward(ctx, *args, **kwargs)
        finally:
            forward.on = on
        if not recording:
            output = _unrecorded(ctx, tensors, output)
            return output if tangents is None else \
                forward.custom_jvp(cls, ctx, tangents, output, args)
        output = cls._attach(ctx, tensors, edges, output)
        return output if tangents is None else \
            forward.custom_jvp(cls, ctx, tangents, output, args)

    @classmethod
    def _attach(cls, ctx, tensors, edges, output):
        single = not isinstance(output, tuple)  # (a list or dict is one non-tensor output)
        outs = (output,) if single else output
        ctx.next_functions = tuple(edges)
        ctx._inputs_meta = tuple(m for a in tensors for m in _meta(a))
        ctx._outputs_meta = tuple(m for o in outs for m in _meta(o))
        dirty = {id(t) for t in ctx._dirty}
        if dirty:
            _check_dirty(ctx._dirty, tensors, outs)
        non_diff = {id(t) for t in ctx._non_differentiable}
        result = []
        for k, o in enumerate(outs):
            if isinstance(o, Tensor):
                if id(o) in dirty and id(o) in non_diff:  # (an alias without history)
                    o._version_counter[0] += 1
                    o = o.detach()
                elif id(o) in dirty:
                    if o._requires_grad and o._grad_fn is None:
                        raise RuntimeError("a leaf Variable that requires grad has been used "
                                           "in an in-place operation.")
                    check_inplace(o)
                    o._version_counter[0] += 1  # as PyTorch: marking dirty bumps it
                    rebase_history(o, ctx)
                    if o._base is None:  # (a view's history is regenerated from its base)
                        o._output_nr = k
                else:
                    differentiable = id(o) not in non_diff
                    if any(o is a for a in tensors):  # an input returned as is: an alias
                        o = o._view(o._shape, o._stride, o._offset)
                    if differentiable and o.dtype in DIFFERENTIABLE:
                        o._grad_fn = ctx
                        o._output_nr = k
                        o._requires_grad = True
                        if o._base is not None:  # in-place writes to it are refused
                            o._grad_version = o._version_counter[0]  # (history is current)
                            meta = autograd_meta(o)
                            meta["custom_function_view"] = (k, cls.__name__)
                            # (a view forward made under no_grad: it has history now)
                            meta.pop("no_grad_view", None)
            result.append(o)
        ctx._saved = _save(ctx, result)
        return result[0] if single else tuple(result)  # (a namedtuple's fields too)


def _unrecorded(ctx, inputs, output):
    """The outputs of a call that records no history, as PyTorch hands them back: a tuple
    (of a namedtuple's fields too), each returned input an alias of it (a detached one if
    it requires grad), each dirty tensor's version bumped."""
    single = not isinstance(output, tuple)
    outs = (output,) if single else output
    dirty = {id(t) for t in ctx._dirty}
    if dirty:
        _check_dirty(ctx._dirty, inputs, outs)
    result = []
    for o in outs:
        if isinstance(o, Tensor):
            modified = id(o) in dirty
            if modified:
                o._version_counter[0] += 1
            if o._requires_grad:
                if any(o is a for a in inputs):
                    o = o.detach()
                elif o._base is None:
                    o.detach_()
            elif not modified and any(o is a for a in inputs):
                o = o._view(o._shape, o._stride, o._offset)
        result.append(o)
    return result[0] if single else tuple(result)


def _check_dirty(dirty, inputs, outputs):
    """PyTorch's checks of mark_dirty: a warning for a tensor that is not an input, an
    error for one not returned."""
    if not {id(t) for t in dirty} <= {id(t) for t in inputs}:
        warnings.warn("ctx.mark_dirty() received a tensor that was not an input. Only input "
                      "Tensors that have been mutated should be passed to ctx.mark_dirty().",
                      UserWarning, stacklevel=4)
    if not {id(t) for t in dirty} <= {id(o) for o in outputs}:
        raise RuntimeError("Some elements marked as dirty during the forward method were not "
                           "returned as output. The inputs that are modified inplace must all "
                           "be outputs of the Function.")


def _save(ctx, outputs):
    to_save = ctx._to_save
    if to_save is None:
        return None
    saved = []
    for t in to_save:
        if t is None:
            saved.append(None)
            continue
        k = next((k for k, o in enumerate(outputs) if o is t and o._grad_fn is ctx), None)
        saved.append(SavedTensor(t, k))
    return saved


class InplaceFunction(Function):
    """PyTorch's legacy base of Functions with an `inplace` flag (use Function)."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace


class NestedIOFunction(Function):
    """PyTorch's legacy nested-input Function, kept as a name for imports (it no longer
    runs in PyTorch either; use Function)."""


def _check_vmap_rule(cls):
    """PyTorch's refusals of a Function called under vmap (batched inputs or not) that has
    no vmap rule, or two (vmap itself maps by slices: the rule is not called)."""
    from ..func import vmapping
    if not vmapping():
        return
    own = cls.vmap is not Function.vmap
    if cls.generate_vmap_rule and own:
        raise RuntimeError(f"You tried to vmap over {cls.__name__}, but it has both "
                           f"generate_vmap_rule=True and an overridden vmap staticmethod. "
                           f"Please set generate_vmap_rule=False or delete the overridden vmap "
                           f"staticmethod to avoid ambiguity. For more details, please see "
                           f"https://pytorch.org/docs/main/notes/extending.func.html")
    if not cls.generate_vmap_rule and not own:
        raise RuntimeError(f"You tried to vmap over {cls.__name__}, but it does not have vmap "
                           f"support. Please override and implement the vmap staticmethod or "
                           f"set generate_vmap_rule=True. For more details, please see "
                           f"https://pytorch.org/docs/main/notes/extending.func.html")


def once_differentiable(fn):
    """A backward that is not itself differentiable: runs with grad mode off; under
    create_graph its gradients hang from a node that raises if differentiated (so asking
    for their gradient finds the inputs unused, as in PyTorch)."""
    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with set_grad_enabled(False):
            outputs = fn(ctx, *args)
        if not state.enabled or not any(isinstance(a, Tensor) and a.requires_grad
                                        for a in args):
            return outputs
        single = not isinstance(outputs, tuple)
        outputs = (outputs,) if single else outputs
        marked = [o.detach().requires_grad_() if isinstance(o, Tensor) and
                  o.dtype in DIFFERENTIABLE else None for o in outputs]
        errs = iter(_as_tuple(_DelayedError.apply(*[m for m in marked if m is not None])))
        outputs = tuple(o if m is None else next(errs) for o, m in zip(outputs, marked))
        return outputs[0] if single else outputs
    return wrapper


def _as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


class _DelayedError(Function):
    """Aliases of its inputs whose backward raises (behind once_differentiable)."""

    @staticmethod
    def forward(ctx, *tensors):
        out = tuple(t.detach() for t in tensors)
        return out[0] if len(out) == 1 else out

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError("trying to differentiate twice a function that was marked with "
                           "@once_differentiable")


_DelayedError._backward_cls.__name__ = "Error"  # (PyTorch's C++ node)
_DelayedError._backward_cls._qualified_name = "torch::autograd::Error"
