"""torch.utils.checkpoint: activation checkpointing.  A checkpointed segment runs its
forward without recording a graph; backward runs it again with grad enabled (the CPU
random state restored, so dropout draws the same mask) and backpropagates through that
recomputation.  Values and gradients equal the unchecked run's; only the segment's
inputs are kept between forward and backward."""
import contextlib
import warnings

from .. import autograd as _autograd
from .._tensor import Tensor
from ..autograd.graph import saved_tensors_hooks
from ..autograd.grad_mode import enable_grad, no_grad

_SETTINGS = {"early_stop": True, "debug": None}  # recorded (the rerun always runs whole)


class CheckpointError(RuntimeError):
    """A non-reentrant segment that did not save the same tensors when rerun."""


def detach_variable(inputs):
    """The tensors of the tuple `inputs` detached (requires_grad kept), others as they are."""
    if not isinstance(inputs, tuple):
        raise RuntimeError(f"Only tuple of tensors is supported. Got Unsupported input type: "
                           f"{type(inputs).__name__}")
    return tuple(x.detach().requires_grad_(x.requires_grad) if isinstance(x, Tensor) else x
                 for x in inputs)


def check_backward_validity(inputs):
    if not any(isinstance(x, Tensor) and x.requires_grad for x in inputs):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None",
                      stacklevel=3)


def noop_context_fn():
    return contextlib.nullcontext(), contextlib.nullcontext()


def get_device_states(*args):
    """The accelerators' random states of the tensors' devices: none without one."""
    return [], []


def set_device_states(devices, states, *, device_type=None):
    pass


class DefaultDeviceType:
    """The device type whose random state checkpointing keeps when no tensor argument is on
    an accelerator: the current accelerator's, else "cpu", unless set."""
    _default_device_type = None

    @staticmethod
    def set_device_type(device="cuda"):
        DefaultDeviceType._default_device_type = device

    @staticmethod
    def get_device_type():
        if not DefaultDeviceType._default_device_type:
            from .. import accelerator
            acc = accelerator.current_accelerator(True)
            DefaultDeviceType._default_device_type = acc.type if acc else "cpu"
        return DefaultDeviceType._default_device_type


@contextlib.contextmanager
def _setting(name, value):
    prev, _SETTINGS[name] = _SETTINGS[name], value
    try:
        yield
    finally:
        _SETTINGS[name] = prev


def set_checkpoint_early_stop(enable):
    return _setting("early_stop", enable)


def set_checkpoint_debug_enabled(enabled):
    return _setting("debug", enabled)


_NO_DEFAULT = ("the use_reentrant parameter should be passed explicitly. {} use_reentrant=False "
               "is recommended, but if you need to preserve the current default behavior, you "
               "can pass use_reentrant=True. Refer to docs for more details on the differences "
               "between the two variants.")


def _autocast_state():
    """The CPU autocast state of the forward, which the rerun restores (as PyTorch's)."""
    import mindtorch
    return {"enabled": mindtorch.is_autocast_enabled("cpu"),
            "dtype": mindtorch.get_autocast_dtype("cpu"),
            "cache_enabled": mindtorch.is_autocast_cache_enabled()}


def _rerun(run, args, kwargs, rng, autocast_state):
    """run(*args, **kwargs) again with grad on, the CPU random state of the first run
    (dropout draws the same mask) and its autocast state; the random state is left as it
    was."""
    import mindtorch
    state = mindtorch.get_rng_state() if rng is not None else None
    if state is not None:
        mindtorch.set_rng_state(rng)
    try:
        with enable_grad(), mindtorch.autocast("cpu", **autocast_state):
            return run(*args, **kwargs)
    finally:
        if state is not None:
            mindtorch.set_rng_state(state)


class CheckpointFunction(_autograd.Function):
    """The reentrant checkpoint's node (PyTorch's name: CheckpointFunctionBackward)."""

    @staticmethod
    def forward(ctx, run, preserve_rng, *args):
        import mindtorch
        ctx.run = run
        ctx.rng = mindtorch.get_rng_state() if preserve_rng else None
        ctx.autocast_state = _autocast_state()
        ctx.slots = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.others = [None if isinstance(a, Tensor) else a for a in args]
        ctx.save_for_backward(*[args[i] for i in ctx.slots])
        with no_grad():
            return run(*args)

    @staticmethod
    def backward(ctx, *grads):
        from ..autograd._engine import current_task
        if current_task().partial:  # (its inner backward would fill .grad instead)
            raise RuntimeError(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() "
                "or passing an `inputs` parameter to .backward(). To resolve this error, you "
                "can either set use_reentrant=False, or call .backward() without passing the "
                "`inputs` argument.")
        args = list(ctx.others)
        saved = ctx.saved_tensors
        for i, t in zip(ctx.slots, saved):
            args[i] = t.detach().requires_grad_(t.requires_grad)
        outputs = _rerun(ctx.run, args, {}, ctx.rng, ctx.autocast_state)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        pairs = [(o, g) for o, g in zip(outputs, grads)
                 if isinstance(o, Tensor) and o.requires_grad and g is not None]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is "
                               "not necessary")
        _autograd.backward([o for o, _ in pairs], [g for _, g in pairs])
        inputs = [a.grad if isinstance(a, Tensor) else None for a in args]
        return (None, None) + tuple(inputs)


class _StopRecomputation(Exception):
    """Raised inside a rerun once it saved every tensor backward needs (early stop)."""


def _metadata(t):
    return {"shape": t.shape, "dtype": t.dtype, "device": t.device}


class _NonReentrant:
    """The non-reentrant checkpoint's saved-tensor hooks: the segment's forward keeps only
    the index of each tensor it saves (and its metadata); the first unpack in backward
    reruns the segment (it saves the same tensors in the same order) and hands out its
    saved tensors, each once (a second backward reruns again).  The rerun stops once it
    saved them all (set_checkpoint_early_stop).  The inputs are saved as any saved tensor
    (the user's saved-tensor hooks and the in-place version check apply, as PyTorch's).
    Under create_graph the rerun takes the original inputs and keeps its graph, so
    higher-order gradients flow through it; otherwise it takes detached inputs
    (requires_grad kept) and keeps detached values."""

    def __init__(self, run, args, kwargs, rng, context, check_metadata):
        from ..autograd.graph import SavedTensor
        self.run, self.kwargs, self.rng = run, kwargs, rng
        self.autocast_state = _autocast_state()
        self.args = [SavedTensor(a) if isinstance(a, Tensor) else a for a in args]
        self.context = context  # entered around the rerun
        self.early_stop = _SETTINGS["early_stop"]
        self.metadata = [] if check_metadata else None
        self.count = 0
        self.saved = {}

    def pack(self, t):
        self.count += 1
        if self.metadata is not None:
            self.metadata.append(_metadata(t))
        return self.count - 1

    def unpack(self, i):
        if i not in self.saved:
            self._recompute()
        return self.saved.pop(i)

    def _inputs(self, graph):
        from ..autograd.graph import SavedTensor
        inputs = [a.unpack(None) if isinstance(a, SavedTensor) else a for a in self.args]
        return inputs if graph else [
            a.detach().requires_grad_(a.requires_grad) if isinstance(a, Tensor) else a
            for a in inputs]

    def _recompute(self):
        from ..autograd.grad_mode import is_grad_enabled
        graph = is_grad_enabled()  # backward(create_graph=True)
        args = self._inputs(graph)
        kept = []

        def keep(t):
            if len(kept) == self.count:  # (without early stop)
                raise CheckpointError("torch.utils.checkpoint: trying to save more tensors "
                                      "during recomputation than during the original "
                                      "forward pass.\n" + _DEBUG_TIP)
            kept.append(t if graph else t.detach())
            if self.early_stop and len(kept) == self.count:
                raise _StopRecomputation
            return len(kept) - 1
        try:
            with saved_tensors_hooks(keep, kept.__getitem__), self.context:
                _rerun(self.run, args, self.kwargs, self.rng, self.autocast_state)
        except _StopRecomputation:
            pass
        if len(kept) != self.count:
            raise CheckpointError(f"torch.utils.checkpoint: A different number of tensors was "
                                  f"saved during the original forward and recomputation.\n"
                                  f"Number of tensors saved during forward: {self.count}\n"
                                  f"Number of tensors saved during recomputation: "
                                  f"{len(kept)}.\n{_DEBUG_TIP}")
        self._check_metadata(kept)
        self.saved = dict(enumerate(kept))

    def _check_metadata(self, kept):
        """determinism_check="default": the rerun's tensors have the shapes, dtypes and
        devices the forward's had."""
        if self.metadata is None:
            return
        different = "".join(
            f"tensor at position {i}:\nsaved metadata: {saved}\nrecomputed metadata: {now}\n"
            for i, (saved, now) in enumerate(zip(self.metadata, map(_metadata, kept)))
            if saved != now)
        if different:
            raise CheckpointError(f"torch.utils.checkpoint: Recomputed values for the following "
                                  f"tensors have different metadata than during the forward "
                                  f"pass.\n{different}.\n{_DEBUG_TIP}")


# PyTorch's advice appended to the checkpoint's mismatch errors
_DEBUG_TIP = """
Tip: To see a more detailed error message, either pass `debug=True` to
`torch.utils.checkpoint.checkpoint(...)` or wrap the code block
with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to
enable checkpoint‑debug mode globally.

If this error occurs under torch.compile with automatic_dynamic_shapes enabled,
it may be because the recomputation selected a different compiled graph than the
forward pass (e.g., a dynamic graph instead of the original static graph).
To fix this, either:
  - Use torch._dynamo.mark_dynamic() to explicitly mark varying dimensions as
    dynamic upfront, avoiding the static-to-dynamic transition.
  - Call torch._C._dynamo.eval_frame._set_lru_cache(False) to disable LRU cache
    reordering, which can change which graph is checked first between forward
    and recompute.
See https://github.com/pytorch/pytorch/issues/166926 for more details and
workaround examples.
"""


def checkpoint(function, *args, use_reentrant=None, context_fn=noop_context_fn,
               determinism_check="default", debug=False, preserve_rng_state=True, **kwargs):
    """function(*args, **kwargs), its activations recomputed in backward instead of kept.

    use_reentrant=True is PyTorch's original form (a graph node that recomputes; only
    inputs that require grad make the output require grad).  use_reentrant=False records
    the segment's graph as an ordinary call does, but its saved tensors are dropped and
    recomputed in backward (saved-tensor hooks); context_fn() gives the two context
    managers the forward and the rerun run in."""
    if use_reentrant is None:
        warnings.warn("torch.utils.checkpoint: " + _NO_DEFAULT.format(
            "Starting in PyTorch 2.9, calling checkpoint without use_reentrant will raise an "
            "exception."), stacklevel=2)
        use_reentrant = True  # PyTorch's default
    if not use_reentrant:
        import mindtorch
        if determinism_check not in ("default", "none"):
            raise ValueError(f"determinism_check should be one of ['default', 'none'], but got "
                             f"{determinism_check}")
        if not mindtorch.is_grad_enabled():  # (nothing is saved: it runs as it is)
            return function(*args, **kwargs)
        rng = mindtorch.get_rng_state() if preserve_rng_state else None
        forward_context, rerun_context = context_fn()
        hooks = _NonReentrant(function, args, kwargs, rng, rerun_context,
                              determinism_check == "default")
        with saved_tensors_hooks(hooks.pack, hooks.unpack), forward_context:
            return function(*args, **kwargs)
    if context_fn is not noop_context_fn or debug is not False:
        raise ValueError("Passing `context_fn` or `debug` is only supported when "
                         "use_reentrant=False.")
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    check_backward_validity(args)
    return CheckpointFunction.apply(function, preserve_rng_state, *args)


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """A Sequential (or list of modules) cut into `segments` checkpointed runs; the last
    segment runs normally."""
    if use_reentrant is None:
        warnings.warn("torch.utils.checkpoint.checkpoint_sequential: " + _NO_DEFAULT.format(
            "In version 2.9 we will raise an exception if use_reentrant is not passed."),
            stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    children = list(functions.children()) if hasattr(functions, "children") else list(functions)
    size = len(children) // segments

    def run(start, end):
        def forward(x):
            for j in range(start, end + 1):
                x = children[j](x)
            return x
        return forward

    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(run(start, end), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve)
    return run(end + 1, len(children) - 1)(input)


# -- selective checkpointing: the policy API, every op recomputed -----------------------------

class CheckpointPolicy(__import__("enum").Enum):
    """Whether an op's output is saved or recomputed (PyTorch's values).  mindtorch reruns
    the whole segment whatever the policy, which gives the same values and gradients."""
    MUST_SAVE = 0
    PREFER_SAVE = 1
    MUST_RECOMPUTE = 2
    PREFER_RECOMPUTE = 3
    MUST_CPU_OFFLOAD = 4
    PREFER_CPU_OFFLOAD = 5


class SelectiveCheckpointContext:
    """What a policy function receives about the op."""

    def __init__(self, *, is_recompute, op_output=None):
        self.is_recompute = is_recompute
        self.op_output = op_output


SAC_IGNORED_OPS = set()


def create_selective_checkpoint_contexts(policy_fn_or_list, allow_cache_entry_mutation=False):
    """The (forward, recompute) context pair checkpoint's context_fn returns, from a policy
    function or a list of ops to save (checked as PyTorch's; the segment is recomputed
    whole, see CheckpointPolicy)."""
    if not isinstance(policy_fn_or_list, list) and not callable(policy_fn_or_list):
        raise TypeError("policy_fn_or_list must be either a function or a list of ops.")
    return contextlib.nullcontext(), contextlib.nullcontext()
