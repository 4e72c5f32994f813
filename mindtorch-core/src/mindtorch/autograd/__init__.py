"""mindtorch.autograd: reverse-mode automatic differentiation, device-agnostic.

Ops record their history through the dispatcher's autograd layer (_record.py); the engine
(_engine.py) runs it backward.  Backward formulas are declared next to each op's schema
(`derivative()` in _ops/registry.py) and use mindtorch ops only."""
from . import functional, graph  # noqa: F401
from .anomaly_mode import detect_anomaly, is_anomaly_enabled, set_detect_anomaly  # noqa: F401
from .grad_mode import (  # noqa: F401
    enable_grad, enforce_grad_layout_policy, inference_mode, is_grad_enabled,
    is_inference_mode_enabled, is_multithreading_enabled, no_grad, set_grad_enabled,
    set_multithreading_enabled,
)

# (imported here, not lazily: a first `import mindtorch.autograd.gradcheck` would otherwise
# bind the package's `gradcheck` to that submodule instead of the function)
from .gradcheck import gradcheck, gradgradcheck  # noqa: F401
from ..overrides import handle_torch_function, has_torch_function, is_tensor_like  # noqa: F401
# (module level, not in the functions: backward() runs these imports every step)
import mindtorch

from .. import _tensor
from ._engine import run_backward as _run_backward
from .function import _transforms
from .graph import GradientEdge as _GradientEdge

_LAZY = {"Function": "function", "FunctionCtx": "function", "once_differentiable": "function",
         "NestedIOFunction": "function"}


def __getattr__(name):
    if name in ("profiler", "forward_ad", "variable"):  # (own submodules, imported on first use)
        import importlib
        return importlib.import_module(f"{__name__}.{name}")
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mindtorch.autograd' has no attribute '{name}'")
    import importlib
    mod = importlib.import_module(f"{__name__}.{module}")
    value = globals()[name] = getattr(mod, name)
    return value


class _VariableMeta(type):
    def __instancecheck__(cls, other):  # every tensor is a Variable, as PyTorch's
        from .._tensor import Tensor
        return isinstance(other, Tensor)


class Variable(metaclass=_VariableMeta):
    """Legacy: Variable(t, requires_grad=False) is t itself (flagged), as in PyTorch."""

    def __new__(cls, data=None, requires_grad=False, volatile=False):
        from .._tensor import Tensor
        if volatile:
            import warnings
            warnings.warn("volatile was removed and now has no effect. Use `with "
                          "torch.no_grad():` instead.", stacklevel=2)
        if data is None:
            import mindtorch
            data = mindtorch.tensor([])
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        return data.detach().requires_grad_(requires_grad)  # a new leaf, as PyTorch's


def _tensors(x, what):
    if x is None:
        return None
    if isinstance(x, (_tensor.Tensor, _GradientEdge)):
        return [x]
    x = list(x)  # (a TypeError for a non-iterable, as PyTorch's)
    for t in x:
        if not isinstance(t, (_tensor.Tensor, _GradientEdge)):  # PyTorch's errors
            if what == "inputs":
                raise RuntimeError(f"all inputs have to be Tensors or GradientEdges, but got "
                                   f"{type(t).__name__}")
            raise AssertionError("Expected output to be a torch.Tensor")
    return x


class _EdgeOutput:
    """What _make_grads reads of an output, for a GradientEdge given as one."""
    _requires_grad, _grad_fn = True, None

    def __init__(self, shape, dtype, device):
        self._shape, self.dtype, self.device = shape, dtype, device
        self.shape = shape if type(shape) is not tuple else __import__("mindtorch").Size(shape)

    def numel(self):
        return __import__("math").prod(self._shape)


def _make_grads(outputs, grads, is_grads_batched=False):
    """The gradients to start from: given ones (checked) or ones for scalar outputs."""
    Tensor, GradientEdge = _tensor.Tensor, _GradientEdge
    if grads is None:
        grads = [None] * len(outputs)
    elif isinstance(grads, Tensor):
        grads = [grads]
    else:
        grads = list(grads)
    if len(grads) < len(outputs):  # (extra gradients are ignored, as PyTorch's zip)
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")
    result = []
    for out, g in zip(outputs, grads):
        if isinstance(out, GradientEdge):  # shaped as the node's output
            out = _EdgeOutput(*out.node._outputs_meta[3 * out.output_nr:3 * out.output_nr + 3])
        if g is None:
            if out._requires_grad or out._grad_fn is not None:
                if out.numel() != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if not out.dtype.is_floating_point:
                    raise RuntimeError(f"grad can be implicitly created only for real scalar "
                                       f"outputs but got {out.dtype}")
            g = mindtorch.ones_like(out) if isinstance(out, Tensor) else \
                mindtorch.ones(out.shape, dtype=out.dtype, device=out.device)
        elif not isinstance(g, Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got "
                            f"{type(g).__name__}")
        elif g._shape != out._shape and not is_grads_batched:
            raise RuntimeError(f"Mismatch in shape: grad_output[{len(result)}] has a shape of "
                               f"{g.shape} and output[{len(result)}] has a shape of "
                               f"{out.shape}.")
        elif g.dtype.is_complex != out.dtype.is_complex:
            raise RuntimeError(f"For complex Tensors, both grad_output and output are required "
                               f"to have the same dtype. Mismatch in dtype: grad_output"
                               f"[{len(result)}] has a dtype of {g.dtype} and output"
                               f"[{len(result)}] has a dtype of {out.dtype}.")
        elif g.dtype is not out.dtype:  # (cast to the output's dtype, as PyTorch's engine)
            g = g.to(out.dtype)
        result.append(g)
    return result


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False,
             grad_variables=None, inputs=None):
    """Sum of gradients of `tensors` w.r.t. graph leaves, accumulated into their .grad."""
    if grad_variables is not None:
        grad_tensors = _deprecated_grad_variables(grad_variables, grad_tensors)
    tensors = _tensors(tensors, "tensors")
    if inputs is not None:
        inputs = _tensors(_input_values(inputs, "backward"), "inputs")
    if has_torch_function(tensors + (inputs or [])):  # (a subclass's or mode's handler)
        return handle_torch_function(backward, tensors + (inputs or []), tuple(tensors),
                                     grad_tensors=grad_tensors, retain_graph=retain_graph,
                                     create_graph=create_graph, inputs=inputs and tuple(inputs))
    if inputs is not None and not inputs:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    if _transforms[0]:
        raise RuntimeError("backward() called inside a functorch transform. This is not "
                           "supported, please use functorch.grad or functorch.vjp instead or "
                           "call backward() outside of functorch transforms.")
    if inputs is not None and not all(getattr(t, "requires_grad", True) for t in inputs):
        raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
    grads = _make_grads(tensors, grad_tensors)
    for t in inputs or ():  # (as PyTorch's engine: a non-leaf input's .grad is its retained grad)
        if getattr(t, "_grad_fn", None) is not None:
            t.retain_grad()
    if retain_graph is None:
        retain_graph = create_graph
    if create_graph:
        from .._warn_once import warn_once
        warn_once("backward_create_graph", _CREATE_GRAPH_CYCLE)
    _run_backward(tensors, grads, retain_graph, create_graph, inputs, accumulate=True)


_CREATE_GRAPH_CYCLE = (
    "Using backward() with create_graph=True will create a reference cycle between the "
    "parameter and its gradient which can cause a memory leak. We recommend using "
    "autograd.grad when creating the graph to avoid this. If you have to use this function, "
    "make sure to reset the .grad fields of your parameters to None after use to break the "
    "cycle and avoid the leak.")


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """Gradients of `outputs` w.r.t. `inputs`, returned (not accumulated into .grad)."""
    from ._engine import run_backward
    if allow_unused is False and materialize_grads:
        raise ValueError("Expected allow_unused to be True or not passed when "
                         "materialize_grads=True, but got: allow_unused=False.")
    if not only_inputs:
        import warnings
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to "
                      "True). To accumulate gradient for other parts of the graph, please use "
                      "torch.autograd.backward.", FutureWarning, stacklevel=2)
    outputs = _tensors(outputs, "outputs")
    keys = list(inputs) if type(inputs) is dict else None  # (gradients returned by key)
    inputs = _tensors(_input_values(inputs, "grad"), "inputs")
    if not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    if has_torch_function(outputs + inputs):  # (a subclass's or mode's handler)
        return handle_torch_function(
            grad, outputs + inputs, outputs, tuple(inputs), grad_outputs=grad_outputs,
            retain_graph=retain_graph, create_graph=create_graph, only_inputs=only_inputs,
            allow_unused=allow_unused, is_grads_batched=is_grads_batched,
            materialize_grads=materialize_grads)
    if allow_unused is None:
        allow_unused = materialize_grads
    grads = _make_grads(outputs, grad_outputs, is_grads_batched)
    if retain_graph is None:
        retain_graph = create_graph
    if is_grads_batched:
        result = _batched_grad(outputs, inputs, grads, retain_graph, create_graph,
                               allow_unused, materialize_grads)
    else:
        result = run_backward(outputs, grads, retain_graph, create_graph, inputs, allow_unused,
                              accumulate=False)
        if materialize_grads:
            result = _materialized(result, inputs, create_graph)
    return dict(zip(keys, result)) if keys is not None else tuple(result)


def _input_values(inputs, caller):
    """`inputs` as given, a dict's values (PyTorch 2.13 takes a dict, no other Mapping)."""
    import collections.abc
    if type(inputs) is dict:
        return list(inputs.values())
    if isinstance(inputs, collections.abc.Mapping):
        raise TypeError(f"`inputs` argument to `{caller}()` must be a dict, not "
                        f"{type(inputs).__name__}. Other Mapping types are not supported.")
    return inputs


def _deprecated_grad_variables(grad_variables, grad_tensors):
    import warnings
    warnings.warn("`grad_variables` is deprecated. Use `grad_tensors` instead.",
                  FutureWarning, stacklevel=3)
    if grad_tensors is not None:
        raise RuntimeError("`grad_tensors` and `grad_variables` (deprecated) arguments both "
                           "passed to `backward()`. Please only use `grad_tensors`.")
    return grad_variables


def _materialized(grads, inputs, create_graph):
    """materialize_grads: zeros for the inputs without gradient (requiring grad under
    create_graph, as PyTorch's)."""
    import mindtorch

    from .graph import GradientEdge
    if any(g is None and type(t) is GradientEdge for g, t in zip(grads, inputs)):
        raise RuntimeError("materialize_grads cannot be used when the given input is a "
                           "GradientEdge")
    return [mindtorch.zeros_like(t, requires_grad=create_graph) if g is None else g
            for t, g in zip(inputs, grads)]


def _batched_grad(outputs, inputs, grads, retain_graph, create_graph, allow_unused,
                  materialize_grads):
    """is_grads_batched: one backward pass per row of the grad_outputs (their first
    dimension), results stacked along a new first dimension."""
    import mindtorch
    n = grads[0].shape[0] if grads and grads[0].dim() else 0
    for i, (out, g) in enumerate(zip(outputs, grads)):
        if g.dim() == 0 or g.shape[0] != n or g.shape[1:] != out.shape:
            raise RuntimeError(f"If `is_grads_batched=True`, we interpret the first dimension "
                               f"of each grad_output as the batch dimension. The sizes of the "
                               f"remaining dimensions are expected to match the shape of "
                               f"corresponding output, but a mismatch was detected: "
                               f"grad_output[{i}] has a shape of {g.shape[2:]} and "  # sic
                               f"output[{i}] has a shape of {out.shape}. If you only want "
                               f"some tensors in `grad_output` to be considered batched, "
                               f"consider using vmap.")
    rows = [grad(outputs, inputs, [g[b] for g in grads], retain_graph or b < n - 1,
                 create_graph, allow_unused=allow_unused, materialize_grads=materialize_grads)
            for b in range(n)]
    return tuple(None if rows[0][k] is None else mindtorch.stack([r[k] for r in rows])
                 for k in range(len(inputs)))
