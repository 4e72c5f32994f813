"""The autograd layer of the dispatcher.

An op's generated binding calls its plan's `run(kernel, args)` (plans: _plan.py) instead
of the kernel when grad mode is on and a tensor argument requires grad.  What happens
depends on the op's derivative declaration (`derivative()` in _ops/registry.py, next to
the op's schema):

- formula: the kernel runs below autograd (grad mode off) and one Node records the
  formula, the inputs' edges and the tensors the formula names (saved with their version);
- composite: an op without a formula but with a decomposition runs the decomposition with
  grad mode on, so its sub-ops record (PyTorch's CompositeImplicitAutograd);
- nondifferentiable: the kernel runs and the result has no history;
- otherwise the result gets a node that raises "derivative not implemented" on backward.

In-place ops bump the version counter here (the binding's plain path does it otherwise),
refuse leaves that require grad, and rebase the history of the tensor they modify; a
modified view rewrites its base's history (CopySlices).  Nothing here reads tensor data.
"""
import weakref

from .._tensor import Tensor, autograd_meta
from .grad_mode import state
from . import graph
from .graph import _FREED, Node, SavedTensor, adopt_history  # noqa: F401
from ._saved_values import LazyResults as _LazyResults
from ._saved_values import unpack_list as _unpack_list

_NONE_EDGE = (None, 0)
_NO_META = (None, None, None)  # the metadata of an input without gradient


class forward:
    """Forward AD's switch: while a dual level is live (autograd/forward_ad.py) `on` is
    true and bindings run their kernel through `wrap(op, kernel)`, which also gives the
    results tangents (autograd/_forward.py).  Off, it costs a binding one attribute test."""
    on = False
    wrap = None
    snapshot = adopt = None  # (for in-place decompositions: _forward.snapshot, .adopt)
    save = restore = None  # (a node's saved output keeps its tangent: graph.SavedTensor)
    custom_tangents = custom_jvp = None  # (autograd.Function's jvp)
    check_out = None  # (out= refused with tangents: dispatch.write_out)


graph._fw = forward


def plan(op):
    """How op records (made on first use; the binding calls plan.run(kernel, args))."""
    from ._plan import _Plan  # (the plan compiler imports this module's runtime)
    p = op._grad_plan = _Plan(op)
    return p


def any_requires_grad(tensors):
    for t in tensors:
        if t is not None and t._requires_grad:
            return True
    return False


# -- edges ------------------------------------------------------------------------------

def history(t):
    """t's grad_fn, up to date: a view whose base changed in place since its history was
    recorded gets it regenerated from the base's.  (The generated runners inline this.)"""
    fn = t._grad_fn
    if fn is not None and t._base is not None and t._grad_version != t._version_counter[0]:
        fn = regenerate_view_history(t)
    return fn


def edge(t):
    """(node, output index) a gradient for tensor t flows to."""
    fn = history(t)
    if fn is not None:
        return (fn, t._output_nr)
    if t._requires_grad:
        return (accumulator(t), 0)
    return _NONE_EDGE


def accumulator(t):
    """The AccumulateGrad node of leaf t (one per leaf while the graph holds it); None for a
    view taken under no_grad, which requires grad through its base but, as in PyTorch, has
    no gradient of its own to accumulate."""
    meta = t._autograd_meta
    ref = meta.get("accumulator") if meta is not None else None
    if ref is None and meta is not None and "no_grad_view" in meta:
        return None
    node = ref() if ref is not None else None
    if node is None:  # (each training step's graph makes its own: held weakly, as PyTorch)
        node = AccumulateGrad(t)
        (meta if meta is not None else autograd_meta(t))["accumulator"] = weakref.ref(node)
    return node


def _meta(t):
    return (t._shape, t.dtype, t._device) if isinstance(t, Tensor) else _NO_META


class AccumulateGrad(Node):
    """Sink of a leaf: adds the incoming gradient into variable.grad (see _engine)."""
    __slots__ = ("variable",)
    _qualified_name = "torch::autograd::AccumulateGrad"

    def __init__(self, variable):  # (Node.__init__ inline: one per leaf per step)
        self._seq = next(graph._sequence)  # (the engine runs leaves first, as ready)
        self._saved = None
        if state.anomaly:
            self._trace = graph._forward_trace()
        self.variable = variable
        self.next_functions = ()
        self._inputs_meta = ()
        self._outputs_meta = (variable._shape, variable.dtype, variable._device)


# -- nodes of ops with formulas (their plans: _plan.py) -------------------------------


_writing_into = [None]  # the op an in-place decomposition is running (see write_into)


class FormulaNode(Node):
    """A node whose backward is the op's declared formula."""
    __slots__ = ()
    _plan = None

    def _release(self):  # (a node that saved only shapes or scalars may run again)
        saved = self._saved
        if saved:
            plan = self._plan
            if plan is None or plan.save_result:
                self._freed, self._saved = True, None
                return
            for name in plan.saved_tensors:  # (a loop: cheaper than any() per node)
                if saved.get(name) is not None:
                    self._freed, self._saved = True, None
                    return

    def apply(self, grads):
        plan = self._plan
        saved = self._saved
        if saved is None and self._freed:
            raise RuntimeError(_FREED)
        edges = self.next_functions
        out = [None] * len(edges)
        if _all_none(grads):  # PyTorch's any_grad_defined: nothing flows on, not zeros
            return out
        slots = self.__dict__.get("_slots")
        for positions, fn, params, only in plan.entries:
            if slots is not None:
                positions = [slots[p] for p in positions]
                if not any(_wanted(edges, p) for p in positions):
                    continue
            elif only is not None:  # the common case: a formula for one tensor input
                if edges[only][0] is None:
                    continue
                out[only] = fn(*[self._value(p, grads, saved) for p in params])
                continue
            elif all(edges[p][0] is None for p in positions):
                continue
            res = fn(*[self._value(p, grads, saved) for p in params])
            if len(positions) == 1:
                res = (res,)
            for p, g in zip(positions, res):
                if type(p) is tuple:  # a Tensor[] argument: one gradient per tensor
                    if g is not None:
                        out[p[0]:p[1]] = list(g)
                else:
                    out[p] = g
        return out

    def _value(self, name, grads, saved):
        if name == "grad":
            g = grads[0]
            return g if g is not None else _materialize(g, self._outputs_meta)
        if name == "grads":  # (a nondifferentiable output's stays None: no formula reads it)
            meta, nondiff = self._outputs_meta, self._plan.nondiff
            return [g if k in nondiff else _materialize(g, meta[3 * k:3 * k + 3])
                    for k, g in enumerate(grads)]
        v = saved[name] if name != "results" else saved["result"]
        if name == "result":
            return v[0].unpack(self)
        if name == "results":  # unpacked (and version-checked) only where a formula reads
            return _LazyResults(v, self)
        if isinstance(v, SavedTensor):
            return v.unpack(self)
        if type(v) is list and any(isinstance(x, SavedTensor) for x in v):
            return _unpack_list(v, self)
        return v

    def __getattr__(self, attr):  # grad_fn._saved_self, ... (see graph.saved_attribute)
        return graph.saved_attribute(self, attr)


def _all_none(grads):
    for g in grads:
        if g is not None:
            return False
    return True


def _wanted(edges, p):
    if type(p) is tuple:
        return any(edges[i][0] is not None for i in range(*p))
    return edges[p][0] is not None


def _materialize(g, meta):
    """g, or zeros for a missing gradient of an output with metadata (shape, dtype, device)."""
    if g is not None or meta is None or meta[0] is None:
        return g
    from .._ops import OPS
    shape, dtype, device = meta[:3]
    return OPS["zeros"].binding(shape, dtype=dtype, device=device)


# -- in-place ops -----------------------------------------------------------------------

# the nodes of ops returning several views of their input (unbind, split, chunk): PyTorch
# refuses in-place changes of those views (tensor_split and hsplit... are allowed)
_MULTI_VIEW_NODES = frozenset({"UnbindBackward0", "SplitBackward0", "SplitWithSizesBackward0"})


def check_inplace(t):
    if not isinstance(t, Tensor):
        return
    meta = t._autograd_meta
    mode = meta.get("no_grad_view") if meta is not None else None
    if mode is not None:
        modes = ("inference mode", "in normal mode", "inference_mode") if mode == "inference" \
            else ("no_grad mode", "with grad mode enabled", "no_grad")
        raise RuntimeError(
            f"A view was created in {modes[0]} and is being modified inplace {modes[1]}. "
            f"Given that this use case is ambiguous and error-prone, it is forbidden. "
            f"You can clarify your code by moving both the view and the inplace either both "
            f"inside the {modes[2]} block (if you don't want the inplace to be tracked) or both "
            f"outside (if you want the inplace to be tracked).")
    base = t._base
    if base is not None and t._grad_fn is not None and t._grad_fn.name() in _MULTI_VIEW_NODES:
        raise RuntimeError(f"Output {t._output_nr} of {t._grad_fn.name()[:-9]} is a view and is "
                           f"being modified inplace. This view is the output of a function "
                           f"that returns multiple views. Such functions do not allow the "
                           f"output views to be modified inplace. You should replace the "
                           f"inplace operation by an out-of-place one.")
    if base is not None and meta is not None and "custom_function_view" in meta:
        k, name = meta["custom_function_view"]
        raise RuntimeError(f"Output {k} of {name} is a view and is being modified inplace. This "
                           "view was created inside a custom Function (or because an input was "
                           "returned as-is) and the autograd logic to handle view+inplace would "
                           "override the custom backward associated with the custom Function, "
                           "leading to incorrect gradients. This behavior is forbidden. You can "
                           "fix this by cloning the output of the custom Function.")
    # (PyTorch's order: a view whose base is a leaf first, whether or not the base itself
    # requires grad, e.g. ones(4)[::2].requires_grad_(); then a leaf)
    if base is not None and t._requires_grad and base._grad_fn is None:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an "
                           "in-place operation.")
    if t._requires_grad and t._grad_fn is None:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place "
                           "operation.")


def rebase_history(t, node):
    """t was modified in place by the op `node` records: node is t's history from now on;
    if t is a view, its base's history becomes CopySlices (the base with the view's
    region replaced by the op's result)."""
    base = t._base
    t._requires_grad = True
    if base is not None:  # the view's history is then its base's, seen through the view
        old = base._grad_fn, base._output_nr
        base._grad_fn = CopySlices(base, t, node)
        base._output_nr = 0
        base._requires_grad = True
        graph.follow_retained(base, *old)
        regenerate_view_history(t)
        return
    old = t._grad_fn, t._output_nr
    t._grad_fn = node
    t._output_nr = 0
    graph.follow_retained(t, *old)


def _restride(t, node):
    """History of a tensor an in-place view op (t_, squeeze_, ...) gave new metadata."""
    t._grad_fn = node
    t._output_nr = 0
    t._requires_grad = True
    t._grad_version = t._version_counter[0]


def recording(*tensors):
    """Whether an op on these arguments records history now."""
    return state.enabled and any(isinstance(t, Tensor) and t._requires_grad for t in tensors)


# -- views of a base whose history changed ----------------------------------------------

class CopySlices(Node):
    """History of a base whose view was modified in place by `fn`'s op."""
    __slots__ = ("fn", "base_geometry", "view_geometry", "complex_side")
    _qualified_name = "torch::autograd::CopySlices"

    def __init__(self, base, view, fn):
        super().__init__()
        from .functional_helpers import component_geometries
        self.fn = fn
        self.base_geometry, self.view_geometry, self.complex_side = \
            component_geometries(base, view)
        self.next_functions = (edge(base),) + tuple(fn.next_functions[1:])
        self._inputs_meta = _meta(base) + fn._inputs_meta[3:]
        self._outputs_meta = _meta(base)

    def apply(self, grads):
        from ._engine import validate
        from .functional_helpers import _ops, view_index
        if grads[0] is None:
            return [None] * len(self.next_functions)
        g, M = grads[0], _ops()
        # a .real/.imag view of a complex base (or view_as_complex of a real one): both
        # geometries count real components, the complex side seen through view_as_real
        base_c, view_c = self.complex_side == "base", self.complex_side == "view"
        gr = M.view_as_real(g) if base_c else g
        index = view_index(self.base_geometry, self.view_geometry, g.device)
        region = gr.take(index)
        res = validate(self.fn, self.fn.apply([M.view_as_complex(region) if view_c
                                               else region]))
        result = gr.clone()
        # (the view's own gradient is not checked by validate when its old value had none)
        region = res[0] if res[0] is not None else region.new_zeros(())
        region = M.view_as_real(region.expand(index.shape[:-1])) if view_c else region
        result.put_(index, region.expand(index.shape).to(gr.dtype))
        return [M.view_as_complex(result) if base_c else result] + list(res[1:])

    def _release(self):
        self.fn._release()


class AsStridedBackward0(Node):
    """History of a view, regenerated from its base after an in-place change."""
    __slots__ = ("base_geometry", "view_geometry", "complex_side")

    def __init__(self, base, view):
        from .functional_helpers import component_geometries
        super().__init__()
        self.base_geometry, self.view_geometry, self.complex_side = \
            component_geometries(base, view)
        self.next_functions = (edge(base),)
        self._inputs_meta = _meta(base)
        self._outputs_meta = _meta(view)

    def apply(self, grads):
        from .functional_helpers import _ops, view_scatter
        if grads[0] is None:
            return [None]
        g, M = grads[0], _ops()
        g = M.view_as_real(g) if self.complex_side == "view" else g
        g = view_scatter(g, self.base_geometry, self.view_geometry)
        return [M.view_as_complex(g) if self.complex_side == "base" else g]


def _original(t):
    """A copy of a mutated argument an in-place op's formula reads, taken before the write."""
    state.enabled = False
    try:
        return t.clone()
    finally:
        state.enabled = True


def original_with_history(t):
    """t's value before an in-place write, standing for t as the op's input: a copy with
    t's history, so the in-place node's edge leads to t's node as in PyTorch's graph (no
    CloneBackward0 in between).  A leaf that requires grad (refused by the write) keeps a
    recorded clone."""
    fn = history(t)
    if fn is None and t._requires_grad:
        return t.clone()
    c = _original(t)
    if fn is not None:
        c._grad_fn, c._output_nr, c._requires_grad = fn, t._output_nr, True
    if forward.on:  # and its tangent, recorded (the write updates t's in place)
        forward.snapshot(c, t)
    return c


def regenerate_view_history(t):
    node = AsStridedBackward0(t._base, t)
    t._grad_fn = node
    t._output_nr = 0
    t._grad_version = t._version_counter[0]
    return node


def reads_self(op):
    """Whether op's backward may use the value of its `self` argument (unknown, so yes,
    for a composite op: its sub-ops may save it)."""
    if op.formulas is None:
        return op.differentiable
    for fn in op.formulas.values():
        code = fn.__code__
        if "self" in code.co_varnames[:code.co_argcount]:
            return True
    return False
