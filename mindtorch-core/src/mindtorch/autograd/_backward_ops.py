"""First derivatives that PyTorch computes with a backward op of its own.

PyTorch's formula for e.g. hardshrink, nll_loss, prelu or convolution is one op
(`hardshrink_backward(grad, self)`, `convolution_backward(grad, input, weight)`) that takes
the forward inputs, so under create_graph its result requires grad whenever one of them
does, with a node `<X>BackwardBackward0` giving them zero (or no) gradient where the
gradient does not vary with them.  Mindtorch's formulas compose ops, and a gradient linear
in the input (a mask times grad, a convolution with a fixed weight) would not require grad:
`grad(y, x, create_graph=True)[0].sum().backward()` would raise where PyTorch runs.

A formula marked with `backward_op(...)` keeps its own graph; when it runs with grad mode
on (create_graph), its result is handed on through a `BackwardOpNode` whose edges are the
result's own history plus the recorded node's edges of the inputs PyTorch's backward op
takes (see _record.FormulaNode).  Without create_graph nothing here runs."""
from . import graph
from .grad_mode import state
from .graph import _FREED, Node


class BackwardOp:
    """A formula's mark: the forward inputs PyTorch's backward op takes (None: every input
    with an edge), whether they receive zeros (PyTorch's zeros_like) or no gradient (True,
    False, or the names of those receiving zeros), and which of a multi-input formula's
    gradients it gives (None: all)."""
    __slots__ = ("inputs", "outputs", "zeros")

    def __init__(self, inputs, zeros, outputs):
        self.inputs, self.zeros, self.outputs = inputs, zeros, outputs


def backward_op(formula, inputs=None, zeros=True, outputs=None):
    """Marks formula (returned as is) as standing for a PyTorch backward op."""
    formula.backward_op = BackwardOp(inputs, zeros, outputs)
    return formula


def renamed(formula):
    """Marks formula as PyTorch's backward op where only the node's name is missing: its
    result's own history already reaches the inputs of PyTorch's op (mse_loss, slice...)."""
    return backward_op(formula, inputs=())


def marked_slots(entries, slot_of, index):
    """{gradient slot: (BackwardOp, the slots of the inputs it connects to, those of them
    receiving zeros)} for the marked formulas among a plan's entries, or None."""
    marks = {}
    for positions, fn, _params, _only in entries:
        spec = getattr(fn, "backward_op", None)
        if spec is None:
            continue
        slots = tuple(sorted(slot_of.values())) if spec.inputs is None else tuple(
            slot_of[index[n]] for n in spec.inputs if index[n] in slot_of)
        given = positions if spec.outputs is None else [slot_of[index[n]] for n in spec.outputs]
        zeros = spec.zeros if type(spec.zeros) is bool else \
            frozenset(slot_of[index[n]] for n in spec.zeros if index[n] in slot_of)
        for p in positions:
            if p in given:
                marks[p] = (spec, slots, zeros)
    return marks or None


def apply_marked(node, grads):
    """FormulaNode.apply for a plan with marked formulas (nodes without a generated apply)."""
    from ._record import FormulaNode
    out = FormulaNode.apply(node, grads)
    if state.enabled:
        as_backward_ops(node, out)
    return out


def as_backward_ops(node, out):
    """Under create_graph: each marked gradient in out (a list, changed in place) handed on
    through a BackwardOpNode connected to the forward inputs its backward op takes."""
    edges = node.next_functions
    for p, (spec, slots, zeros) in node._plan.backward_ops.items():
        g = out[p]
        if g is None:
            continue
        inputs = [q for q in slots if edges[q][0] is not None]
        if inputs or g.requires_grad:
            out[p] = BackwardOpNode.wrap(node, g, spec, inputs, zeros)


class BackwardOpNode(Node):
    """History of a gradient PyTorch computes with a backward op: the gradient flows on
    into its own history (edge 0) and the forward inputs get zeros (or nothing)."""
    __slots__ = ("saves", "zeros")

    @classmethod
    def wrap(cls, forward_node, g, spec, inputs, zeros):
        from ._record import _meta, edge
        # (PyTorch's names: HardshrinkBackward0's backward op gives HardshrinkBackwardBackward0)
        node = _named(forward_node.name()[:-1] + "Backward0")()
        node.zeros = tuple(zeros if type(zeros) is bool else q in zeros for q in inputs)
        node.saves = spec.inputs != ()  # (PyTorch's node saved its op's tensor inputs)
        edges, meta = forward_node.next_functions, forward_node._inputs_meta
        node.next_functions = (edge(g),) + tuple(edges[q] for q in inputs)
        node._inputs_meta = _meta(g) + tuple(m for q in inputs for m in meta[3 * q:3 * q + 3])
        node._outputs_meta = _meta(g)
        out = g.detach()
        out._grad_fn, out._output_nr, out._requires_grad = node, 0, True
        if graph._fw.on:  # (forward AD inside: the gradient's tangent goes with it)
            from ._forward import set_tangent, tangent_of
            set_tangent(out, tangent_of(g))
        return out

    def apply(self, grads):
        if self._freed:  # (what PyTorch's node saved was freed by a backward pass)
            raise RuntimeError(_FREED)
        g = grads[0]
        n = len(self.next_functions)
        if g is None:
            return [None] * n
        from ._record import _materialize
        meta = self._inputs_meta
        return [g] + [_materialize(None, meta[3 * k:3 * k + 3]) if z else None
                      for k, z in enumerate(self.zeros, 1)]

    def _release(self):
        if self.saves:
            self._freed = True


_classes = {}


def _named(name):
    cls = _classes.get(name)
    if cls is None:
        cls = _classes[name] = type(name, (BackwardOpNode,), {"__slots__": ()})
    return cls
