"""torch.utils.checkpoint: activation checkpointing.  A checkpointed segment runs its
forward without recording a graph; backward runs it again with grad enabled (the CPU
random state restored, so dropout draws the same mask) and backpropagates through that
recomputation.  Values and gradients equal the unchecked run's; only the segment's
inputs are kept between forward and backward."""
from .. import autograd as _autograd
from .._tensor import Tensor
from ..autograd.grad_mode import enable_grad, no_grad


class CheckpointFunction(_autograd.Function):
    """The reentrant checkpoint's node (PyTorch's name: CheckpointFunctionBackward)."""

    @staticmethod
    def forward(ctx, run, preserve_rng, *args):
        import mindtorch
        ctx.run = run
        ctx.rng = mindtorch.get_rng_state() if preserve_rng else None
        ctx.slots = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.others = [None if isinstance(a, Tensor) else a for a in args]
        ctx.save_for_backward(*[args[i] for i in ctx.slots])
        with no_grad():
            return run(*args)

    @staticmethod
    def backward(ctx, *grads):
        import mindtorch
        args = list(ctx.others)
        saved = ctx.saved_tensors
        for i, t in zip(ctx.slots, saved):
            args[i] = t.detach().requires_grad_(t.requires_grad)
        state = mindtorch.get_rng_state() if ctx.rng is not None else None
        if state is not None:
            mindtorch.set_rng_state(ctx.rng)
        try:
            with enable_grad():
                outputs = ctx.run(*args)
        finally:
            if state is not None:
                mindtorch.set_rng_state(state)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        pairs = [(o, g) for o, g in zip(outputs, grads)
                 if isinstance(o, Tensor) and o.requires_grad and g is not None]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is "
                               "not necessary")
        _autograd.backward([o for o, _ in pairs], [g for _, g in pairs])
        inputs = [a.grad if isinstance(a, Tensor) else None for a in args]
        return (None, None) + tuple(inputs)


def checkpoint(function, *args, use_reentrant=None, context_fn=None, determinism_check="default",
               debug=False, preserve_rng_state=True, **kwargs):
    """function(*args, **kwargs), its activations recomputed in backward instead of kept.

    use_reentrant=True is PyTorch's original form (a graph node that recomputes; only
    inputs that require grad make the output require grad).  use_reentrant=False records
    the segment's graph as an ordinary call does: its values and gradients are those of
    PyTorch's non-reentrant checkpoint; mindtorch keeps the activations."""
    import warnings
    if use_reentrant is None:
        warnings.warn("torch.utils.checkpoint: the use_reentrant parameter should be passed "
                      "explicitly; use_reentrant=False is recommended", stacklevel=2)
        use_reentrant = True  # PyTorch's default
    if not use_reentrant:
        return function(*args, **kwargs)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if not any(isinstance(a, Tensor) and a.requires_grad for a in args):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None",
                      stacklevel=2)
    return CheckpointFunction.apply(function, preserve_rng_state, *args)


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """A Sequential (or list of modules) cut into `segments` checkpointed runs; the last
    segment runs normally."""
    if use_reentrant is None:
        import warnings
        warnings.warn("torch.utils.checkpoint.checkpoint_sequential: the use_reentrant "
                      "parameter should be passed explicitly", stacklevel=2)
        use_reentrant = True
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
        input = checkpoint(run(start, end), input, use_reentrant=use_reentrant, **kwargs)
    return run(end + 1, len(children) - 1)(input)
