"""The backward graph: Node (one recorded op), saved tensors, saved_tensors_hooks."""
import contextlib
import itertools
import math
import re
import typing

from ..utils.hooks import add_hook
from .grad_mode import state

_sequence = itertools.count()

_FREED = ("Trying to backward through the graph a second time (or directly access saved "
          "tensors after they have already been freed). Saved intermediate values of the graph "
          "are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if "
          "you need to backward through the graph a second time or if you need to access saved "
          "tensors after calling backward.")


class Node:
    """One recorded operation.  next_functions holds, per differentiable input, the
    (node, output index) its gradient flows to, or (None, 0) for an input without grad.
    Subclasses implement apply(grads) -> one gradient (or None) per next_functions entry.
    _inputs_meta / _outputs_meta: (shape, dtype, device) of each input / output, flat in
    one tuple (one allocation per node: allocations drive the cyclic GC's work)."""
    __slots__ = ("next_functions", "_seq", "_inputs_meta", "_outputs_meta", "_saved",
                 "__weakref__", "__dict__")
    # rarely set: class defaults keep recording cheap (set ones live in __dict__)
    _pre_hooks = _hooks = _tensor_pre_hooks = _retain_hooks = _trace = None
    _freed = False
    _qualified_name = None  # name() of PyTorch's C++-only nodes: torch::autograd::...
    # whether a gradient on another device than its input is an error (custom Functions, as
    # PyTorch's engine); built-in formulas (_to_copy's...) leave the move to the engine
    _checks_devices = False

    def __init__(self):
        self._seq = next(_sequence)
        self._saved = None
        if state.anomaly:
            self._trace = _forward_trace()

    def name(self):
        return self._qualified_name or type(self).__name__

    def __dir__(self):  # (PyTorch's nodes list their saved values as attributes)
        return [*super().__dir__(), *saved_names(self)]

    def __repr__(self):
        return f"<{type(self).__name__} object at {id(self):#x}>"

    @property
    def metadata(self):
        d = self.__dict__.get("_metadata")
        if d is None:
            d = self.__dict__["_metadata"] = {}
        return d

    def register_hook(self, fn):
        """fn(grad_inputs, grad_outputs) after this node ran; may return new grad_inputs."""
        if self._hooks is None:
            self._hooks = {}
        return add_hook(self._hooks, fn)

    def register_prehook(self, fn):
        """fn(grad_outputs) before this node runs; may return new grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = {}
        return add_hook(self._pre_hooks, fn)

    def _register_tensor_hook(self, output_nr, fn, retain=False):
        attr = "_retain_hooks" if retain else "_tensor_pre_hooks"
        table = getattr(self, attr)
        if table is None:
            table = {}
            setattr(self, attr, table)
        return add_hook(table.setdefault(output_nr, {}), fn)

    def __call__(self, *grads):
        from ._engine import validate
        return tuple(validate(self, self.apply(list(grads))))

    def apply(self, grads):
        raise NotImplementedError

    def _release(self):
        """After backward without retain_graph: drop saved tensors (a node that saved
        none, only shapes or scalars, may run again, as in PyTorch)."""
        saved = self._saved
        if saved and _holds_tensors(saved):
            self._freed = True
            self._saved = None


def _differentiable_output(node, t, output_nr):
    """Whether a node's output has the node as history (not an integer output, nor one the
    op declares nondifferentiable, such as frexp's exponent or embedding_bag's bag sizes)."""
    from .._dtype import DIFFERENTIABLE
    plan = getattr(node, "_plan", None)
    return t.dtype in DIFFERENTIABLE and (plan is None or output_nr not in plan.nondiff)


def _holds_tensors(saved):
    """Whether a node's saved values (a dict, or a custom Function's list) include a
    tensor; the first value usually answers."""
    for v in saved.values() if type(saved) is dict else saved:
        if type(v) is SavedTensor or type(v) is list and any(
                type(x) is SavedTensor for x in v):
            return True
    return False


NON_LEAF_GRAD = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information.")  # (Tensor.grad's warning)


def _forward_trace():
    """The forward call's traceback, without mindtorch's own frames at its end."""
    import os
    import traceback
    package = os.path.dirname(os.path.dirname(__file__))
    frames = traceback.extract_stack()
    while frames and (frames[-1].filename.startswith(package) or
                      frames[-1].filename.startswith("<")):  # (generated: <binding ...>)
        frames.pop()
    return traceback.format_list(frames)


# -- saved tensors ----------------------------------------------------------------------

class SavedTensor:
    """A tensor a node keeps for its backward, with the version it had when saved: using
    it after an in-place change raises PyTorch's error.  A node's own output is kept
    without its grad_fn (no reference cycle) and gets it back on unpack.  What an unpack
    hook returns takes the saved tensor's autograd identity (meta), as PyTorch's."""
    __slots__ = ("tensor", "version", "output_nr", "hook", "tangent", "meta", "producer")

    def __init__(self, t, output_nr=None):
        if type(t._version_counter) is not list:  # an inference tensor
            from ._inference import check_save
            check_save(t)
        self.version = t._version_counter[0]
        self.output_nr = output_nr
        hooks = state.saved_hooks
        if hooks:  # pack gets the tensor itself (an output with its grad_fn, as PyTorch's)
            pack, unpack = hooks[-1]
            state.saved_hooks = ()  # tensors the hook itself saves are kept as they are
            try:
                self.hook = (pack(t), unpack)
            finally:
                state.saved_hooks = hooks
            if t._version_counter[0] != self.version:
                raise RuntimeError(_PACK_INPLACE)
            self.tensor = None
            self.meta = None if output_nr is not None else _autograd_identity(t)
        else:  # an output: the data without the tensor (whose grad_fn is the node)
            self.tensor = t._parts() if output_nr is not None else t
            self.hook = None
            if output_nr is not None and _fw.on:  # (and its forward AD tangent)
                self.tangent = _fw.save(t)

    def unpack(self, node):
        t = self.tensor
        if self.hook is not None:
            t = self.hook[1](self.hook[0])
            from .._tensor import Tensor
            if not isinstance(t, Tensor):
                raise TypeError(f"Output of saved tensor unpack_hook expected to be a Tensor "
                                f"but got result of type {type(t).__name__}")
            return self._restored(t, node)
        elif self.output_nr is not None:
            t = _tensor(t)
            if _fw.on:
                _fw.restore(self, t)
        if self.hook is None and t._version_counter[0] != self.version:
            # (a view whose base changed in place since: its regenerated history, as
            # PyTorch's message names it)
            from ._record import history as _history
            producer = node if self.output_nr is not None else \
                getattr(self, "producer", None) or _history(t)
            which = "" if producer is None else \
                f", which is output {self.output_nr or t._output_nr} of {_op_name(producer)},"
            raise RuntimeError(
                f"one of the variables needed for gradient computation has been modified by an "
                f"inplace operation: [{_type_desc(t)}]{which} is at version "
                f"{t._version_counter[0]}; expected version {self.version} instead. Hint: "
                + (_HINT_ANOMALY if state.anomaly else _HINT))
        if self.output_nr is not None and self.hook is None and state.enabled and \
                _differentiable_output(node, t, self.output_nr):
            t._requires_grad = True  # create_graph: the output with its history
            t._grad_fn = node
            t._output_nr = self.output_nr
        return t


    def _restored(self, data, node):
        """data (an unpack hook's result) as the tensor that was saved for autograd: a node's
        output with the node as grad_fn (when grad mode is on, as unhooked outputs), an
        input with the grad_fn or, for a leaf, the AccumulateGrad it had."""
        if self.output_nr is not None:
            if not state.enabled:
                return data
            identity = (node, self.output_nr)
        else:
            identity = self.meta
            if identity is None:
                return data
        t = data.detach()
        t._requires_grad = True
        fn, nr = identity
        if nr is None:  # a leaf: gradients reach it through its own AccumulateGrad
            import weakref

            from .._tensor import autograd_meta
            autograd_meta(t)["accumulator"] = weakref.ref(fn)
        else:
            t._grad_fn, t._output_nr = fn, nr
        return t


def _autograd_identity(t):
    """(grad_fn, output_nr) of a tensor that requires grad, (its AccumulateGrad, None) for
    a leaf; None for one that does not."""
    if not t._requires_grad:
        return None
    fn = t.grad_fn
    if fn is not None:
        return fn, t._output_nr
    from ._record import accumulator
    acc = accumulator(t)
    return None if acc is None else (acc, None)


_PACK_INPLACE = ("A saved tensor pack hook is modifying its input in place. Tensors provided "
                 "as input to pack hook cannot be modified by in-place operations as this can "
                 "lead to unexpected side-effects. Please open an issue if you need to perform "
                 "in-place operations on the input to a pack hook.")
_HINT = ("enable anomaly detection to find the operation that failed to compute its "
         "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")
_HINT_ANOMALY = ("the backtrace further above shows the operation that failed to compute its "
                 "gradient. The variable in question was changed in there or anywhere later. "
                 "Good luck!")


def _tensor(data):
    global _make
    if _make is None:  # (a function-level import per unpack costs ~1 us)
        from .._tensor import Tensor
        _make = Tensor._make
    return _make(*data) if type(data) is tuple else data.detach()  # (a sparse output's)


_make = None
_fw = None  # autograd._record.forward (set there: forward AD's switch)


def _type_desc(t):
    from .._creation import message_type_name
    return f"{message_type_name(t)} {list(t._shape)}"


def saved_attribute(node, attr):
    """PyTorch's graph inspection of a formula node: _saved_<name> is a saved value
    (unpacked), _saved_<arg>_sym_sizes / _sym_numel the shape an input had, _raw_saved_<name>
    the handle on a saved tensor (_raw_saved.py)."""
    from .._tensor import Tensor
    missing = AttributeError(f"'{type(node).__name__}' object has no attribute '{attr}'")
    if attr.startswith("_raw_saved_"):
        from ._raw_saved import raw_saved
        handle = raw_saved(node, attr[11:])
        if handle is None:
            raise missing
        return handle
    if not attr.startswith("_saved_"):
        raise missing
    name, saved = attr[7:], node._saved
    if saved is None and node._freed:
        raise RuntimeError(_FREED)
    for suffix in ("_sym_sizes", "_sym_strides", "_sym_numel"):
        geometry = saved.get(name[:-len(suffix)] + "_geometry") if name.endswith(suffix) \
            else None
        if type(geometry) is tuple:
            return geometry[0] if suffix == "_sym_sizes" else geometry[1] \
                if suffix == "_sym_strides" else math.prod(geometry[0])
    if name not in saved or name == "results":
        if name in _savable(node):  # (PyTorch's attribute of an input it did not save)
            return None
        raise missing
    v = node._value(name, None, saved)
    return tuple(v) if type(v) is list and not any(isinstance(x, Tensor) for x in v) else v


def _savable(node):
    """The arguments a formula node's class may save (its formulas' parameters)."""
    plan = getattr(node, "_plan", None)
    return () if plan is None else [name for name, _ in plan.saved]


def saved_names(node):
    """The _saved_* / _raw_saved_* attributes of a formula node, for dir()."""
    saved = node._saved if type(node._saved) is dict else {}
    names = []
    for name in [*_savable(node), *(("result",) if "result" in saved else ())]:
        names.append("_saved_" + name)
        if isinstance(saved.get(name), SavedTensor) or name == "result":
            names.append("_raw_saved_" + name)
    names += [f"_saved_{name[:-9]}_sym_sizes" for name, g in saved.items()
              if name.endswith("_geometry") and type(g) is tuple and name != "result_geometry"]
    return names


def follow_retained(t, old, old_nr):
    """t, written in place, has a new grad_fn: its retain_grad hook moves there (as in
    PyTorch, .grad is then the gradient of the new value; other hooks stay)."""
    table = old._retain_hooks if old is not None and t.retains_grad else None
    hooks = table.pop(old_nr, None) if table else None
    if hooks:
        new = t._grad_fn
        if new._retain_hooks is None:
            new._retain_hooks = {}
        new._retain_hooks.setdefault(t._output_nr, {}).update(hooks)


def adopt_history(t, result):
    """In-place op decomposed as `t.copy_(op(t, ...))` with matching dtype, t not a view: t
    takes result's history directly (the graph then names the op, as PyTorch's does)."""
    old = t._grad_fn, t._output_nr
    t._grad_fn = result._grad_fn
    t._output_nr = result._output_nr
    t._requires_grad = True
    follow_retained(t, *old)
    retarget_saved_result(t, result)


def retarget_saved_result(t, result):
    """result was written into t: the output result's node saved is t now, so later writes
    into t must fail its version check."""
    kept = _saved_output(result)
    if kept is not None:
        kept.tensor = kept.tensor[:-1] + (t._version_counter,)
        kept.version = t._version_counter[0]


def save_view_as_result(view, result):
    """result was written into a view, whose base's CopySlices now wraps result's node: the
    node keeps the view itself as its result (as PyTorch's), whose history leads through
    that CopySlices, so a double backward never reaches the node outside it."""
    if _saved_output(result) is not None:
        kept = result._grad_fn._saved["result"][result._output_nr] = SavedTensor(view)
        kept.producer = result._grad_fn  # (what a version error names, as PyTorch's)


def _saved_output(result):
    """The SavedTensor holding result in its node's saved values (unhooked), or None."""
    saved = result._grad_fn._saved
    if type(saved) is dict and "result" in saved:
        kept = saved["result"][result._output_nr]
        if type(kept) is SavedTensor and kept.hook is None and kept.output_nr is not None:
            return kept
    return None


class saved_tensors_hooks:
    """Context manager: tensors saved for backward inside it go through pack_hook when
    saved and unpack_hook when used."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def __enter__(self):
        if _disabled_message is not None:
            raise RuntimeError(_disabled_message)
        state.saved_hooks = state.saved_hooks + ((self.pack_hook, self.unpack_hook),)
        return self

    def __exit__(self, *exc):
        state.saved_hooks = state.saved_hooks[:-1]
        return False


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors kept on the CPU, moved back to their device when backward uses them."""

    def __init__(self, pin_memory=False, device_type="cuda"):
        def pack(t):
            return t.device, (t.cpu() if not pin_memory else t.to("cpu", copy=True))

        def unpack(packed):
            return packed[1].to(packed[0], non_blocking=pin_memory)
        super().__init__(pack, unpack)


_disabled_message = None  # set inside disable_saved_tensors_hooks


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message):
    """Entering saved_tensors_hooks in it raises RuntimeError(error_message)."""
    global _disabled_message
    previous, _disabled_message = _disabled_message, error_message
    try:
        yield
    finally:
        _disabled_message = previous


def _op_name(node):
    """A node as PyTorch's version-check message names it: the op ("Exp" for ExpBackward0),
    CopySlices by its C++ name."""
    name = node.name()
    if name == "CopySlices":
        return "torch::autograd::CopySlices"
    return re.sub(r"Backward(\d*)$", lambda m: m[1].lstrip("0"), name)  # T1 for TBackward1



class _MultiHandle:
    def __init__(self, handles):
        self.handles = handles

    def remove(self):
        for h in self.handles:
            h.remove()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def register_multi_grad_hook(tensors, fn, *, mode="all"):
    """mode "all": fn(grads) once per backward pass that reaches any of the tensors, with
    their gradients (None for the ones it did not reach), when the pass ends; mode "any":
    fn(grad) with the first of their gradients each pass computes."""
    from ._engine import current_task
    supported = ("all", "any")
    if mode not in supported:
        raise ValueError(f"Expects mode to be one of {supported} but got {mode}")
    tensors, key = tuple(tensors), object()

    def hook_for(i):
        def hook(grad):
            task = current_task()
            if mode == "any":
                if key not in task.data:
                    task.data[key] = True
                    fn(grad)
                return
            grads = task.data.get(key)
            if grads is None:
                grads = task.data[key] = [None] * len(tensors)
                task.callbacks.append(lambda: fn(grads))
            grads[i] = grad
        return hook
    return _MultiHandle(tuple(t.register_hook(hook_for(i)) for i, t in enumerate(tensors)
                              if mode == "all" or t.requires_grad))


def increment_version(tensor):
    """Marks the tensor(s) as modified in place (for writes autograd cannot see)."""
    from .._tensor import Tensor
    for t in (tensor,) if isinstance(tensor, Tensor) else tensor:
        if type(t._version_counter) is list:  # (inference tensors have no version)
            t._version_counter[0] += 1


class GradientEdge(typing.NamedTuple):
    """Where a tensor's gradient is computed: (node, output index); autograd.grad and
    backward take it in place of a tensor."""
    node: Node
    output_nr: int
    ownership_token: Node = None


def get_gradient_edge(tensor):
    from ._record import edge
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does "
                           "not require gradients")
    return GradientEdge(*edge(tensor))


_mutation_allowed = False  # inside allow_mutation_on_saved_tensors


class _AllowMutationOnSavedContext(dict):
    """What allow_mutation_on_saved_tensors yields (PyTorch's name): packed entry -> (the
    tensor, its version when saved, its copy)."""


@contextlib.contextmanager
def allow_mutation_on_saved_tensors():
    """Tensors saved for backward inside it may be written in place afterwards: backward
    (inside it too) sees the values they had when saved.  (Each is copied when saved:
    mindtorch has no dispatch mode to copy it only before a write.)"""
    global _mutation_allowed
    if _mutation_allowed:  # (as PyTorch's, the failed entry also ends the outer context)
        _mutation_allowed = False
        raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
    ctx = _AllowMutationOnSavedContext()
    error = ("Trying to backward outside of the 'allow_mutation_on_saved_tensors' context"
             "in which the graph was originally recorded.")

    def pack(t):
        key = object()
        ctx[key] = (t, t._version, t.detach().clone())
        return key

    def unpack(key):
        if not _mutation_allowed or key not in ctx:
            raise AssertionError(error)
        t, version, copy = ctx[key]
        return t if t._version == version else copy
    with saved_tensors_hooks(pack, unpack):
        _mutation_allowed = True
        try:
            yield ctx
        finally:
            ctx.clear()
            _mutation_allowed = False
