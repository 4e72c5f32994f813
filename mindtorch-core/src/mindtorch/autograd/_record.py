"""The autograd layer of the dispatcher.

An op's generated binding calls `record(op, kernel, args)` instead of the kernel when grad
mode is on and a tensor argument requires grad.  What happens depends on the op's
derivative declaration (`derivative()` in _ops/registry.py, next to the op's schema):

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

from .. import _dtype as D
from .._tensor import Tensor
from .grad_mode import state
from .graph import Node, SavedTensor

_NONE_EDGE = (None, 0)
_DIFFERENTIABLE = frozenset((D.float16, D.bfloat16, D.float32, D.float64, D.complex64,
                             D.complex128))
_TENSOR_TYPES = ("Tensor", "Tensor|Scalar", "Tensor[]", "Tensor?[]")


def record(op, kernel, args):
    plan = op._grad_plan
    if plan is None:
        plan = op._grad_plan = _Plan(op)
    return plan.run(kernel, args)


def any_requires_grad(tensors):
    for t in tensors:
        if t is not None and t._requires_grad:
            return True
    return False


# -- edges ------------------------------------------------------------------------------

def edge(t):
    """(node, output index) a gradient for tensor t flows to."""
    fn = t._grad_fn
    if fn is not None:
        if t._base is not None and t._grad_version != t._version_counter[0]:
            fn = regenerate_view_history(t)
        return (fn, t._output_nr)
    if t._requires_grad:
        return (accumulator(t), 0)
    return _NONE_EDGE


def accumulator(t):
    """The AccumulateGrad node of leaf t (one per leaf while the graph holds it)."""
    ref = t.__dict__.get("_accumulator")
    node = ref() if ref is not None else None
    if node is None:
        node = AccumulateGrad(t)
        t._accumulator = weakref.ref(node)
    return node


def _meta(t):
    return (t._shape, t.dtype, t._device)


def _geometry(t):
    return (t._shape, t._stride, t._offset)


class AccumulateGrad(Node):
    """Sink of a leaf: adds the incoming gradient into variable.grad (see _engine)."""
    __slots__ = ("variable",)

    def __init__(self, variable):
        super().__init__()
        self._seq = float("inf")  # run as soon as ready, as PyTorch does
        self.variable = variable
        self.next_functions = ()
        self._inputs_meta = ()
        self._outputs_meta = (_meta(variable),)


# -- plans: how one op records ----------------------------------------------------------

class _Plan:
    def __init__(self, op):
        s = op.schema
        args = [a for a in s.args if a.name != "requires_grad"]  # kernels' convention
        self.op = op
        self.mutated = [i for i, a in enumerate(args) if a.mutated]
        self.tensor_args = [(i, a.type in ("Tensor[]", "Tensor?[]"))
                            for i, a in enumerate(args) if a.type in _TENSOR_TYPES]
        self.has_lists = any(is_list for _, is_list in self.tensor_args)
        self.single = len(s.returns) == 1 and s.returns[0].type != "Tensor[]"
        formulas = op.formulas
        if formulas is not None:
            self.run = self._run_formula
            self._compile(op, args, formulas)
        elif not op.differentiable:
            self.run = self._run_nondifferentiable
        elif op.decomposition is not None:
            from .._ops.dispatch import _decomposition
            self.impl = _decomposition(op)
            self.run = self._run_composite
        else:  # recorded, but its backward raises
            name = op.name

            def missing(*_):
                raise NotImplementedError(f"the derivative for '{name}' is not implemented.")
            self.run = self._run_formula
            self._compile(op, args, {a.name: missing for a in args if a.type in _TENSOR_TYPES})

    def _compile(self, op, args, formulas):
        index = {_pyname(a.name): i for i, a in enumerate(args)}
        slot_of = {i: k for k, (i, _) in enumerate(self.tensor_args)}
        entries, saved, geometries = [], {}, {}
        self.save_result = False
        for key, fn in formulas.items():
            names = [n.strip() for n in key.split(",")]
            params = fn.__code__.co_varnames[:fn.__code__.co_argcount]
            for p in params:
                if p in ("result", "results"):
                    self.save_result = True
                elif p.endswith("_geometry"):
                    geometries[p] = index[p[:-9]] if p != "result_geometry" else None
                elif p in index:
                    saved[p] = index[p]
                elif p not in ("grad", "grads"):
                    raise ValueError(f"derivative of {op.name}: unknown name {p!r}")
            entries.append(([slot_of[index[n]] for n in names], fn, params))
        self.entries = entries
        self.saved = [(name, i) for name, i in saved.items()]
        self.geometries = list(geometries.items())
        nondiff = op.nondifferentiable_outputs
        self.nondiff = frozenset(nondiff or ())
        cls_name = op.options.get("grad_name") or _node_name(op.name)
        self.node_cls = type(cls_name, (FormulaNode,), {"__slots__": (), "_plan": self,
                                                        "_has_saved": True})

    # -- runners (bound as self.run) ----------------------------------------------------
    def _run_nondifferentiable(self, kernel, args):
        for i in self.mutated:
            check_inplace(args[i])
        prev = state.enabled
        state.enabled = False
        try:
            r = kernel(*args)
        finally:
            state.enabled = prev
        for i in self.mutated:
            args[i]._version_counter[0] += 1
        return r

    def _run_composite(self, kernel, args):
        for i in self.mutated:
            check_inplace(args[i])
        r = self.impl(*args)
        for i in self.mutated:
            args[i]._version_counter[0] += 1
        return r

    def _run_formula(self, kernel, args):
        for i in self.mutated:
            check_inplace(args[i])
        node = self.node_cls()
        # inputs' edges before the kernel runs: an in-place op changes its input's history
        edges, meta = [], []
        slots = [] if self.has_lists else None
        for i, is_list in self.tensor_args:
            a = args[i]
            if is_list:
                start = len(edges)
                for t in a:
                    if t is None:
                        edges.append(_NONE_EDGE)
                        meta.append(None)
                    else:
                        edges.append(edge(t))
                        meta.append((t._shape, t.dtype, t._device))
                slots.append((start, len(edges)))
            else:
                if slots is not None:
                    slots.append(len(edges))
                if isinstance(a, Tensor):
                    edges.append(edge(a))
                    meta.append((a._shape, a.dtype, a._device))
                else:
                    edges.append(_NONE_EDGE)
                    meta.append(None)
        node.next_functions = tuple(edges)
        node._inputs_meta = meta
        if slots is not None:
            node._slots = slots
        saved = {}
        for name, i in self.saved:
            a = args[i]
            if isinstance(a, Tensor):
                a = SavedTensor(a)
            elif type(a) in (list, tuple) and a and isinstance(a[0], Tensor):
                a = [None if t is None else SavedTensor(t) for t in a]
            saved[name] = a
        for name, i in self.geometries:
            if i is not None:
                saved[name] = _geometry(args[i])

        prev = state.enabled
        state.enabled = False
        try:
            r = kernel(*args)
        finally:
            state.enabled = prev
        for i in self.mutated:
            args[i]._version_counter[0] += 1

        outs = (r,) if self.single else r
        node._outputs_meta = [_meta(o) if isinstance(o, Tensor) else None for o in outs]
        nondiff = self.nondiff
        inputs = None
        for k, o in enumerate(outs):
            if not isinstance(o, Tensor) or o.dtype not in _DIFFERENTIABLE or k in nondiff:
                continue
            if self.mutated and o is args[self.mutated[0]]:
                rebase_history(o, node)
                continue
            if inputs is None:
                inputs = [args[i] for i, _ in self.tensor_args]
            if any(o is a for a in inputs):  # an op returning its input: a fresh alias
                o = o._view(o._shape, o._stride, o._offset)
                if self.single:
                    r = o
                else:
                    r = type(outs)(*(o if j == k else x for j, x in enumerate(outs))) \
                        if hasattr(outs, "_fields") else type(outs)(
                            o if j == k else x for j, x in enumerate(outs))
            o._grad_fn = node
            o._output_nr = k
            o._requires_grad = True
            if o._base is not None:
                o._grad_version = o._version_counter[0]
        if self.save_result:
            saved["result"] = [SavedTensor(o, k) if isinstance(o, Tensor) else o
                               for k, o in enumerate(outs)]
        for name, i in self.geometries:
            if i is None:
                saved[name] = _geometry(outs[0])
        node._saved = saved
        return r


def _pyname(name):
    import keyword
    return name + "_" if keyword.iskeyword(name) else name


def _node_name(op_name):
    """PyTorch's node class names: add -> AddBackward0, index_put_ -> IndexPutBackward0."""
    base = op_name.split("::")[-1]
    return "".join(p[:1].upper() + p[1:] for p in base.split("_") if p) + "Backward0"


class FormulaNode(Node):
    """A node whose backward is the op's declared formula."""
    __slots__ = ()
    _plan = None

    def apply(self, grads):
        plan = self._plan
        saved = self._saved
        if saved is None and self._freed:
            raise RuntimeError(_freed_message())
        edges = self.next_functions
        out = [None] * len(edges)
        slots = self.__dict__.get("_slots")
        for positions, fn, params in plan.entries:
            if slots is not None:
                positions = [slots[p] for p in positions]
            if not any(_wanted(edges, p) for p in positions):
                continue
            values = [self._value(p, grads, saved) for p in params]
            res = fn(*values)
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
            return _materialize(grads[0], self._outputs_meta[0])
        if name == "grads":
            return [_materialize(g, m) for g, m in zip(grads, self._outputs_meta)]
        v = saved[name] if name != "results" else saved["result"]
        if name == "result":
            return v[0].unpack(self)
        if name == "results":
            return [x.unpack(self) if isinstance(x, SavedTensor) else x for x in v]
        if isinstance(v, SavedTensor):
            return v.unpack(self)
        if type(v) is list and v and isinstance(v[0], SavedTensor):
            return [None if x is None else x.unpack(self) for x in v]
        return v


def _wanted(edges, p):
    if type(p) is tuple:
        return any(edges[i][0] is not None for i in range(*p))
    return edges[p][0] is not None


def _materialize(g, meta):
    if g is not None or meta is None:
        return g
    from .._ops import OPS
    shape, dtype, device = meta
    return OPS["zeros"].binding(shape, dtype=dtype, device=device)


def _freed_message():
    from .graph import _FREED
    return _FREED


# -- in-place ops -----------------------------------------------------------------------

def check_inplace(t):
    if not isinstance(t, Tensor):
        return
    if t._requires_grad and t._grad_fn is None:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place "
                           "operation.")
    base = t._base
    if base is not None and base._requires_grad and base._grad_fn is None:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an "
                           "in-place operation.")


def rebase_history(t, node):
    """t was modified in place by the op `node` records: node is t's history from now on;
    if t is a view, its base's history becomes CopySlices (the base with the view's
    region replaced by the op's result)."""
    base = t._base
    if base is not None:
        copy = CopySlices(base, t, node)
        base._grad_fn = copy
        base._output_nr = 0
        base._requires_grad = True
        t._grad_version = t._version_counter[0]
    t._grad_fn = node
    t._output_nr = 0
    t._requires_grad = True


def adopt_history(t, result):
    """In-place op decomposed as `t.copy_(op(t, ...))` with matching dtype, t not a view: t
    takes result's history directly (the graph then names the op, as PyTorch's does)."""
    t._grad_fn = result._grad_fn
    t._output_nr = result._output_nr
    t._requires_grad = True


def recording(*tensors):
    """Whether an op on these arguments records history now."""
    return state.enabled and any(isinstance(t, Tensor) and t._requires_grad for t in tensors)


# -- views of a base whose history changed ----------------------------------------------

class CopySlices(Node):
    """History of a base whose view was modified in place by `fn`'s op."""
    __slots__ = ("fn", "base_geometry", "view_geometry")
    _has_saved = True

    def __init__(self, base, view, fn):
        super().__init__()
        self.fn = fn
        self.base_geometry, self.view_geometry = _geometry(base), _geometry(view)
        self.next_functions = (edge(base),) + tuple(fn.next_functions[1:])
        self._inputs_meta = [_meta(base)] + list(fn._inputs_meta[1:])
        self._outputs_meta = [_meta(base)]

    def apply(self, grads):
        from ._engine import validate
        from .functional_helpers import view_index
        g = _materialize(grads[0], self._outputs_meta[0])
        index = view_index(self.base_geometry, self.view_geometry, g.device)
        res = validate(self.fn, self.fn.apply([g.take(index)]))
        result = g.clone()
        region = res[0] if res[0] is not None else index.new_zeros(()).to(g.dtype)
        result.put_(index, region.expand(index.shape).to(g.dtype))
        return [result] + list(res[1:])

    def _release(self):
        self.fn._release()


class AsStridedBackward0(Node):
    """History of a view, regenerated from its base after an in-place change."""
    __slots__ = ("base_geometry", "view_geometry")

    def __init__(self, base, view):
        super().__init__()
        self.base_geometry, self.view_geometry = _geometry(base), _geometry(view)
        self.next_functions = (edge(base),)
        self._inputs_meta = [_meta(base)]
        self._outputs_meta = [_meta(view)]

    def apply(self, grads):
        from .functional_helpers import view_scatter
        g = _materialize(grads[0], self._outputs_meta[0])
        return [view_scatter(g, self.base_geometry, self.view_geometry)]


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
    for fn in (op.formulas or {}).values():
        code = fn.__code__
        if "self" in code.co_varnames[:code.co_argcount]:
            return True
    return False
