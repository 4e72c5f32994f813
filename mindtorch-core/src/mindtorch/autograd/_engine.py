"""The backward engine: dependency counting over the graph, no recursion.

1. From the root edges, count for every reachable node how many edges lead into it.
2. Seed the roots' gradient buffers; a node whose count reaches zero is ready.  Ready
   nodes run latest-created first (PyTorch's order for one device).
3. Running a node: tensor hooks and pre-hooks on its incoming gradients, its formula
   (grad mode = create_graph), post hooks, then each gradient is checked against the
   input it belongs to (broadcast dims summed, dtype and device cast) and added into the
   buffer of the node it flows to.  AccumulateGrad nodes write leaves' .grad.

autograd.grad (and backward(inputs=...)) captures the gradients arriving at the given
tensors' edges instead, and runs only the nodes on a path to them.
"""
import heapq
import itertools

from .._layout import LayoutKey
from .._shapes import broadcast_shapes
from .._strides import non_overlapping_and_dense
from .._tensor import contiguous_strides
from .functional_helpers import sum_to
from .grad_mode import set_grad_enabled, state
from ._record import AccumulateGrad, edge
from .graph import GradientEdge


def _edge_of(t):
    """A tensor's gradient edge, or a GradientEdge given in its place."""
    return (t.node, t.output_nr) if type(t) is GradientEdge else edge(t)


class _Task:
    """One backward pass: callbacks to run when it ends, state hooks keep in it, and
    whether it computes the gradients of given inputs only (autograd.grad, inputs=)."""
    __slots__ = ("callbacks", "data", "partial")

    def __init__(self, partial=False):
        self.callbacks, self.data, self.partial = [], {}, partial


_tasks = []  # the backward passes running (a hook may run a nested one), innermost last


def current_task():
    if not _tasks:
        raise AssertionError("expected this hook to be called inside a backward call")
    return _tasks[-1]


def run_backward(*args, **kwargs):
    task = _Task((args[4] if len(args) > 4 else kwargs.get("inputs")) is not None)
    _tasks.append(task)
    try:
        result = _run_backward(*args, **kwargs)
        for callback in task.callbacks:  # (a callback may queue more)
            callback()
        return result
    finally:
        _tasks.pop()


def _run_backward(tensors, grad_tensors, retain_graph, create_graph, inputs=None,
                  allow_unused=False, accumulate=True):
    """Returns the captured gradients of `inputs` (None when accumulating).  Nodes are
    dict keys by identity."""
    roots = []
    for i, (t, g) in enumerate(zip(tensors, grad_tensors)):
        e = _edge_of(t)
        if e[0] is None:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not "
                               f"have a grad_fn")
        roots.append((e, g))
    captures = None
    if inputs is not None:
        captures = {}
        for k, t in enumerate(inputs):
            e = _edge_of(t) if type(t) is GradientEdge or t._grad_fn is not None or \
                t._requires_grad else (None, 0)
            if e[0] is None:
                if not accumulate:
                    raise RuntimeError("One of the differentiated Tensors does not require "
                                       "grad")
                continue
            captures.setdefault(e, []).append(k)
    root_nodes = list({e[0]: None for e, _ in roots})
    run = participating = None
    if captures is None:
        deps = _dependencies(root_nodes)
    else:
        nodes = _reachable(root_nodes)
        targets = {node for node, _ in captures}
        run = _needed(nodes, targets)
        participating = run | targets
        deps = {}
        for node in run:
            for nxt, _ in node.next_functions:
                if nxt in participating:
                    deps[nxt] = deps.get(nxt, 0) + 1

    buffers = {}  # node -> ([grads per output], [whether each is ours to keep])
    for (node, nr), g in roots:
        _add(buffers, node, nr, g, False)
    # the next node to run: the latest recorded, but leaves first, in the order they became
    # ready (PyTorch's AccumulateGrads share the highest priority: their hooks run so)
    leaves_first = itertools.count(-(1 << 63))
    ready = [(next(leaves_first) if type(node) is AccumulateGrad else -node._seq, node)
             for node in root_nodes if not deps.get(node)]
    heapq.heapify(ready)
    captured = [None] * len(inputs) if inputs is not None else None

    check_nan = state.anomaly and state.anomaly_check_nan
    pop, push = heapq.heappop, heapq.heappush
    with set_grad_enabled(bool(create_graph)):
        while ready:
            node = pop(ready)[1]
            entry = buffers.pop(node, None)
            if entry is None:  # every gradient for it was missing (None)
                n = max(len(node._outputs_meta) // 3, 1)
                entry = ([None] * n, [False] * n)
            grads, fresh = entry
            if type(node) is AccumulateGrad:
                if captures is None and _hook_free(node):
                    _accumulate(node, grads[0], fresh[0], create_graph)  # the common case
                    continue
                grads = _tensor_hooks(node, grads)
            elif node._tensor_pre_hooks or node._retain_hooks:
                grads = _tensor_hooks(node, grads)
            if captures is not None:
                for nr, g in enumerate(grads):
                    for k in captures.get((node, nr), ()):
                        captured[k] = g
                if accumulate and type(node) is AccumulateGrad and (node, 0) in captures:
                    _accumulate_hooked(node, grads, fresh, create_graph)
                if node not in run:
                    continue
            elif type(node) is AccumulateGrad:
                _accumulate_hooked(node, grads, fresh, create_graph)
                continue
            if node._pre_hooks:
                grads = _node_pre_hooks(node, grads)
            try:  # (free in Python 3.11 when nothing is raised)
                outs = validate(node, node.apply(grads))
            except Exception:
                if node._trace:  # anomaly mode: where the failing node was recorded
                    _warn_trace(node)
                raise
            if node._hooks:
                for hook in list(node._hooks.values()):
                    r = hook(tuple(outs), tuple(grads))
                    if r is not None:
                        outs = _hook_values(hook, r, outs)
            if check_nan:
                _check_nan(node, outs)
            if not retain_graph:
                node._release()
            delivered = []
            for (nxt, nr), g in zip(node.next_functions, outs):
                if nxt is None or (participating is not None and nxt not in participating):
                    continue
                left = deps[nxt] - 1
                deps[nxt] = left
                if g is not None:
                    fresh = False  # (whether a gradient is ours to keep: leaves only ask)
                    if type(nxt) is AccumulateGrad:
                        # a gradient this node passed through, or gave twice, is not ours
                        # to keep as a leaf's .grad (AccumulateGrad copies it)
                        fresh = _not_in(g, grads) and _not_in(g, delivered)
                        # a leaf's only gradient: into its .grad now, not through the
                        # queue (which would run it next: it has the highest priority;
                        # only without hooks of any kind, whose order could tell)
                        if not left and captures is None and nxt not in buffers and \
                                _hook_free(nxt, post_hooks=False):
                            delivered.append(g)
                            _accumulate(nxt, g, fresh, create_graph)
                            continue
                    delivered.append(g)
                    if len(nxt._outputs_meta) == 3 and nxt not in buffers:  # one output
                        buffers[nxt] = ([g], [fresh])
                    else:
                        _add(buffers, nxt, nr, g, fresh)
                if not left:
                    push(ready, (next(leaves_first) if type(nxt) is AccumulateGrad else
                                 -nxt._seq, nxt))
    if inputs is not None and not accumulate:
        for k, t in enumerate(inputs):
            if captured[k] is None and not allow_unused:
                raise RuntimeError(f"The differentiated Tensor at index {k} appears to not "
                                   f"have been used in the graph. Set allow_unused=True if "
                                   f"this is the desired behavior.")
        return captured
    return None  # (backward(inputs=...)'s non-leaf tensors retain their grad: the hooks set it)


def _dependencies(roots):
    """For every node reachable from roots: how many edges lead into it (roots: 0 unless
    another root reaches them; each node's edges walked once)."""
    deps, stack = dict.fromkeys(roots, 0), list(roots)
    while stack:
        for nxt, _ in stack.pop().next_functions:
            if nxt is not None:
                if nxt in deps:
                    deps[nxt] += 1
                else:
                    deps[nxt] = 1
                    stack.append(nxt)
    return deps


def _reachable(starts):
    nodes, stack = set(starts), list(starts)
    while stack:
        for nxt, _ in stack.pop().next_functions:
            if nxt is not None and nxt not in nodes:
                nodes.add(nxt)
                stack.append(nxt)
    return nodes


def _needed(nodes, targets):
    """The nodes that must run for gradients to reach the target nodes: those with an
    edge into a target or into another such node."""
    needed = set()
    order = sorted(nodes, key=lambda n: n._seq)  # edges point to older nodes
    changed = True
    while changed:
        changed = False
        for node in order:
            if node in needed:
                continue
            if any(nxt is not None and (nxt in needed or nxt in targets)
                   for nxt, _ in node.next_functions):
                needed.add(node)
                changed = True
    return needed


def _hook_free(acc, post_hooks=True):
    """Whether AccumulateGrad node acc runs no hook but (post_hooks) its leaf's
    post-accumulate ones, which _accumulate runs."""
    meta = acc.variable._autograd_meta
    return (meta is None or "leaf_hooks" not in meta and (
        post_hooks or "post_accumulate_hooks" not in meta)) and \
        acc._pre_hooks is None and acc._hooks is None


def _not_in(g, tensors):
    for x in tensors:
        if x is g:
            return False
    return True


def _add(buffers, node, nr, g, fresh):
    entry = buffers.get(node)
    if entry is None:
        n = len(node._outputs_meta) // 3
        entry = buffers[node] = ([None] * n, [False] * n)
    grads, flags = entry
    if grads[nr] is None:
        grads[nr], flags[nr] = g, fresh
    else:
        grads[nr], flags[nr] = grads[nr] + g, True


def _tensor_hooks(node, grads):
    """Hooks registered on the tensors that are this node's outputs (or on its leaf)."""
    # (as PyTorch, tensor hooks also see a missing gradient, as None; retain_grad not)
    if isinstance(node, AccumulateGrad):
        meta = node.variable._autograd_meta
        hooks = meta.get("leaf_hooks") if meta is not None else None
        if hooks:
            for hook in list(hooks.values()):
                r = hook(grads[0])
                if r is not None:
                    grads = [_checked(hook, grads[0], r)]
        return grads
    for table, skip_none in ((node._tensor_pre_hooks, False), (node._retain_hooks, True)):
        if table:
            for nr, hooks in table.items():
                if nr < len(grads) and not (skip_none and grads[nr] is None):
                    for hook in list(hooks.values()):
                        r = hook(grads[nr])
                        if r is not None:
                            grads[nr] = _checked(hook, grads[nr], r)
    return grads


def _node_pre_hooks(node, grads):
    for hook in list(node._pre_hooks.values()):
        r = hook(tuple(grads))
        if r is not None:
            grads = _hook_values(hook, r, grads)
    return grads


def _accumulate_hooked(node, grads, fresh, create_graph):
    """A leaf's AccumulateGrad with the hooks registered on the node itself."""
    if node._pre_hooks:
        new = _node_pre_hooks(node, grads)
        if new is not grads:
            grads, fresh = new, [False]
    _accumulate(node, grads[0], fresh[0], create_graph)
    if node._hooks:
        for hook in list(node._hooks.values()):
            hook((), tuple(grads))


def _hook_values(hook, values, originals):
    """A node hook's replacement gradients: as many as it was given, each (but None) of
    its original's type and size, and none where there was none."""
    if not isinstance(values, (tuple, list)):
        raise TypeError(f"expected tuple, but hook returned '{type(values).__name__}'")
    values, n = list(values), len(originals)
    if len(values) != n:
        raise RuntimeError(f"hook '{getattr(hook, '__name__', '<unknown>')}' has returned an "
                           f"incorrect number of values (got {len(values)}, but expected {n})")
    for value, original in zip(values, originals):
        if value is not None:
            if original is None:
                raise RuntimeError("can't replace a None gradient with a non-None value")
            _checked(hook, original, value)
    return values


def _checked(hook, value, result):
    """A tensor hook's replacement gradient: a tensor of the gradient's type and size."""
    from .._tensor import Tensor
    if not isinstance(result, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
    if value is None:
        raise RuntimeError("can't replace a empty gradient with a non-empty value")
    name = getattr(hook, "__name__", "<unknown>")
    if value.type() != result.type():
        raise RuntimeError(f"hook '{name}' has changed the type of value (was {value.type()} "
                           f"got {result.type()})")
    if value.shape != result.shape:
        raise RuntimeError(f"hook '{name}' has changed the size of value")
    return result


def validate(node, outs):
    """Each gradient shaped, typed and placed like the input it belongs to."""
    metas = node._inputs_meta
    if len(outs) * 3 != len(metas):
        raise RuntimeError(f"function {node.name()} returned an incorrect number of gradients "
                           f"(expected {len(node.next_functions)}, got {len(outs)})")
    for i, g in enumerate(outs):
        if g is None:
            continue
        k = 3 * i
        shape, dtype, device = metas[k], metas[k + 1], metas[k + 2]
        try:  # (free when nothing is raised)
            if shape is None or (g._shape == shape and g.dtype is dtype and g._device is device):
                continue
        except AttributeError:  # a custom Function's backward returned a non-tensor
            raise RuntimeError(f"expected Variable or None (got {type(g).__name__})") from None
        if type(outs) is not list:
            outs = list(outs)
        if g._shape != shape:
            try:
                ok = tuple(broadcast_shapes(shape, g._shape)) == g._shape
            except RuntimeError:
                ok = False
            if not ok:
                raise RuntimeError(f"Function {node.name()} returned an invalid gradient at "
                                   f"index {i} - got {list(g._shape)} but expected shape "
                                   f"compatible with {list(shape)}")
            g = sum_to(g, shape)
        if g.dtype is not dtype:
            if g.dtype.is_complex and not dtype.is_complex:
                g = g.real  # a real input's gradient is the real part (as PyTorch's engine)
            g = g.to(dtype)
        # (a sparse input's gradient may be dense; a dense input's sparse, as from
        # embedding(sparse=True), is compared by its real device)
        if g._device is not device and type(device) is not LayoutKey and (
                type(g._device) is not LayoutKey or g.device != device):
            if g._shape and node._checks_devices:
                raise RuntimeError(f"Function {node.name()} returned an invalid gradient at "
                                   f"index {i} - expected device {device} but got {g.device}")
            g = g.to(device)  # (a 0-dim gradient moves, as PyTorch's engine)
        outs[i] = g
    return outs


def _accumulate(node, g, fresh, create_graph):
    t = node.variable
    meta = t._autograd_meta
    if g is not None:
        if meta is not None and "grad_dtype" in meta:  # (Tensor.grad_dtype set: cast to it)
            d = meta["grad_dtype"]
            g = g if d is None or g.dtype is d else g.to(d)
        _set_grad(t, g, create_graph, fresh)
    hooks = meta.get("post_accumulate_hooks") if meta is not None else None
    if hooks:
        for hook in list(hooks.values()):
            r = hook(t)  # (as PyTorch: checked as a tensor hook's result; t itself passes)
            if r is not None and _checked(hook, t, r) is not t:
                raise RuntimeError("Tensor post accumulate grad hooks should return None.")


def _set_grad(t, g, create_graph, fresh=False):
    old = t._grad
    if old is None:
        history = g._requires_grad or g._grad_fn is not None
        if create_graph and (history or type(g._device) is not LayoutKey):
            # as PyTorch: a copy in the leaf's layout (CopyBackwards when g has history),
            # not g itself, which another leaf may have been given too (a + b)
            t._grad = _laid_out_like(g, t, record=history)
            return
        if g._stride != t._stride and not create_graph and not _obeys_layout(g, t) and \
                not (fresh and not state.grad_layout):  # (a stealable one may stay)
            g, fresh = _laid_out_like(g, t), True  # (e.g. sum's expanded gradient)
        if create_graph or fresh and not history:
            t._grad = g  # (a fresh gradient without history is already what detach gives)
        else:
            t._grad = g.detach() if fresh else g.detach().clone()
    elif create_graph or old._shape != g._shape or type(old._device) is LayoutKey and \
            type(g._device) is not LayoutKey:  # (a sparse .grad meeting a dense one: dense)
        t._grad = g + old if type(old._device) is LayoutKey else old + g
    else:
        with set_grad_enabled(False):
            old.add_(g)


def _obeys_layout(g, t):
    """PyTorch's gradient layout contract: a leaf's .grad has the leaf's strides when the
    leaf is dense (sizes 1 aside), else is contiguous."""
    if type(g._device) is LayoutKey:  # a sparse gradient has no layout to obey
        return True
    if non_overlapping_and_dense(t._shape, t._stride):
        return all(n == 1 or a == b for n, a, b in zip(t._shape, g._stride, t._stride))
    return g.is_contiguous()


def _laid_out_like(g, t, record=False):
    """A copy of g obeying the layout contract of t's gradient (record: with history)."""
    if not record and not state.enabled and t._stride == contiguous_strides(t._shape):
        return g.contiguous()  # (one op: g, not obeying the contract, is not contiguous)
    import mindtorch
    with set_grad_enabled(record):
        if non_overlapping_and_dense(t._shape, t._stride):
            out = mindtorch.empty_strided(t._shape, t._stride, dtype=g.dtype, device=g._device)
        else:
            out = mindtorch.empty(t._shape, dtype=g.dtype, device=g._device)
        out.copy_(g)
    if not record:  # (PyTorch's recorded copy keeps the version copy_ gave it)
        out._version_counter[0] = 0
    return out


def _check_nan(node, outs):
    for i, g in enumerate(outs):
        if g is not None and g.dtype.is_floating_point and bool(g.isnan().any()):
            msg = f"Function '{node.name()}' returned nan values in its {i}th output."
            if node._trace:
                _warn_trace(node)
            raise RuntimeError(msg)


def _warn_trace(node):
    import warnings
    warnings.warn("Error detected in " + node.name() + ". Traceback of forward call that "
                  "caused the error:\n" + "".join(node._trace), UserWarning, stacklevel=3)

