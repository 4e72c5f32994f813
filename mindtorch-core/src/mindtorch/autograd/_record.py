"""The autograd layer of the dispatcher.

An op's generated binding calls its plan's `run(kernel, args)` instead of the kernel when
grad mode is on and a tensor argument requires grad.  What happens depends on the op's
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
from . import graph
from ._backward_ops import apply_marked, as_backward_ops, marked_slots
from .graph import _FREED, Node, SavedTensor, adopt_history  # noqa: F401
from ._saved_values import LazyResults as _LazyResults
from ._saved_values import save_list as _save_list
from ._saved_values import unpack_list as _unpack_list

_NONE_EDGE = (None, 0)
_NO_META = (None, None, None)  # the metadata of an input without gradient


class _NotRecorded:  # stands for an input without gradient where metadata is read
    _shape = dtype = _device = None


_NOT_RECORDED = _NotRecorded()
_NOTHING = {}  # the saved values of a node that saves none (never written to)
_TENSOR_TYPES = ("Tensor", "Tensor|Scalar", "Tensor[]", "Tensor?[]")


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
    d = t.__dict__
    ref = d.get("_accumulator")
    if ref is None and "_no_grad_view" in d:
        return None
    node = ref() if ref is not None else None
    if node is None:
        node = AccumulateGrad(t)
        t._accumulator = weakref.ref(node)
    return node


def _meta(t):
    return (t._shape, t.dtype, t._device) if isinstance(t, Tensor) else _NO_META


def _geometry_of(a):
    """<arg>_geometry of an argument: a tensor's (shape, stride, offset), a list of them for
    a Tensor[] argument, None for a number."""
    if isinstance(a, Tensor):
        return (a._shape, a._stride, a._offset)
    if type(a) in (list, tuple):
        return [_geometry_of(t) for t in a]
    return None


class AccumulateGrad(Node):
    """Sink of a leaf: adds the incoming gradient into variable.grad (see _engine)."""
    __slots__ = ("variable",)
    _qualified_name = "torch::autograd::AccumulateGrad"

    def __init__(self, variable):
        super().__init__()
        self._seq += 1 << 62  # run as soon as ready, as PyTorch does (and stay unique)
        self.variable = variable
        self.next_functions = ()
        self._inputs_meta = ()
        self._outputs_meta = _meta(variable)


# -- plans: how one op records ----------------------------------------------------------

class _Plan:
    def __init__(self, op, numbers=frozenset()):
        """numbers: positions of Tensor|Scalar arguments given Python numbers that are not
        inputs of the node (see _scalar_overloads); each such set has its own plan."""
        s = op.schema
        args = [a for a in s.args if a.name != "requires_grad"]  # kernels' convention
        self.op = op
        self.mutated = [i for i, a in enumerate(args) if a.mutated]
        self.tensor_args = [(i, a.type in ("Tensor[]", "Tensor?[]"))
                            for i, a in enumerate(args) if a.type in _TENSOR_TYPES]
        # (kept for the alias test: an output that is one of the op's tensor arguments)
        self.alias_idx = [i for i, _ in self.tensor_args]
        if op.formulas is not None:  # edges only for differentiable inputs, as PyTorch's
            # nodes: an index, mask, target or condition gets no next_functions entry
            diff = {n.strip() for key, fn in op.formulas.items() for n in key.split(",")
                    if not getattr(fn, "refuses_grad", False)}
            self.tensor_args = [(i, is_list) for i, is_list in self.tensor_args
                                if _pyname(args[i].name) in diff and i not in numbers]
        self.has_lists = any(is_list for _, is_list in self.tensor_args)
        self.tensor_idx = [i for i, _ in self.tensor_args]
        # backend kernels return fresh tensors; core impls/decompositions may return an input
        self.may_alias = op.core_impl is not None or op.decomposition is not None
        self.single = len(s.returns) == 1 and s.returns[0].type != "Tensor[]"
        formulas = op.formulas
        if formulas is not None:
            kept = {_pyname(args[i].name) for i, _ in self.tensor_args}
            formulas = {key: fn for key, fn in formulas.items()
                        if {n.strip() for n in key.split(",")} & kept}
            self.run = self._run_formula
            self._compile(op, args, formulas)
            scalars = [i for i, _ in self.tensor_args if args[i].type == "Tensor|Scalar"]
            if scalars and not numbers and not op.options.get("wrapped_numbers"):
                self.run = self._scalar_overloads(scalars, args)
            refused = [(index, fn) for index, a in enumerate(args)
                       if getattr(fn := op.formulas.get(_pyname(a.name)), "refuses_grad", False)]
            if refused and not numbers:
                self.run = _refusing_grad(self.run, refused)
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
        if op.options.get("complex_autograd", True) is False:
            self.run = _refusing_complex(self.run, op)

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
            positions = [slot_of[index[n]] for n in names]
            entries.append((positions, fn, params, positions[0] if len(positions) == 1 and
                            not self.has_lists else None))
        self.entries = entries
        self.fused = None if self.has_lists or op.fused is None else \
            self._fused_entry(op, index, slot_of, {p for e in entries for p in e[2]})
        # formulas standing for PyTorch's backward ops (see _backward_ops)
        self.backward_ops = None if self.has_lists else marked_slots(entries, slot_of, index)
        self.saved = [(name, i) for name, i in saved.items()]
        # what backward frees: tensors, and numbers passed for a tensor (wrapped numbers)
        self.saved_tensors = tuple(name for name, i in saved.items()
                                   if args[i].type.startswith("Tensor"))
        # Tensor[] / Tensor?[] values (index's indices): each tensor saved with its version
        self.saved_lists = frozenset(name for name, i in saved.items()
                                     if args[i].type.startswith("Tensor") and
                                     args[i].type.endswith("[]"))
        self.geometries = list(geometries.items())
        nondiff = op.nondifferentiable_outputs
        self.nondiff = frozenset(nondiff or ())
        name = op.grad_name or _node_name(op.name)
        self._classes = {}
        self._apply = self._generate_apply() if self.single and not self.has_lists else None
        if callable(name):  # PyTorch numbers some nodes by overload: chosen per call
            self.name_of = name
            self.node_cls = self._class_for
        else:
            self.node_cls = self._node_class(name)
        if not self.has_lists:
            self.run = self._generate_runner(args)

    def _node_class(self, name):
        cls = self._classes.get(name)
        if cls is None:
            body = {"__slots__": (), "_plan": self,
                    "_qualified_name": name if "::" in name else None}
            if self._apply is not None:
                body["apply"] = self._apply
            elif self.backward_ops:
                body["apply"] = apply_marked
            cls = self._classes[name] = type(name.rsplit("::", 1)[-1], (FormulaNode,), body)
        return cls

    @staticmethod
    def _fused_entry(op, index, slot_of, known):
        """(each named input's gradient slot or None, fn, its parameters) of op.fused: its
        values are the formulas' (saved only for them), plus grad_input_mask."""
        key, fn = op.fused
        params = fn.__code__.co_varnames[:fn.__code__.co_argcount]
        unknown = set(params) - known - {"grad", "grad_input_mask"}
        if unknown or {"result", "results", "grads"} & set(params):
            raise ValueError(f"fused derivative of {op.name}: unusable names {sorted(unknown)}")
        return [slot_of.get(index[n.strip()]) for n in key.split(",")], fn, params

    def _fused_lines(self, ns):
        """The generated apply's lines calling op.fused when no graph is recorded."""
        slots, fn, params = self.fused
        ns["fused"] = fn
        mask = ", ".join("False" if q is None else f"edges[{q}][0] is not None" for q in slots)
        values = ["g" if p == "grad" else "m" if p == "grad_input_mask" else
                  f"(v.unpack(self) if type(v := saved.get({p!r})) is _Saved else v)"
                  for p in params]
        lines = ["if not _state.enabled:", f"    m = ({mask},)",
                 f"    if {' or '.join(f'm[{k}]' for k in range(len(slots)))}:",
                 f"        r = fused({', '.join(values)})"]
        lines += [f"        out[{q}] = r[{k}]" for k, q in enumerate(slots) if q is not None]
        return lines + ["    return out"]

    def _generate_apply(self):
        """FormulaNode.apply specialised to this single-output op without Tensor[]
        arguments (the hot path of backward): each formula called directly with its
        values, skipped when no input it serves needs a gradient."""
        n = len(self.tensor_args)
        lines = ["saved = self._saved",
                 "if saved is None and self._freed: raise RuntimeError(_FREED)",
                 "edges = self.next_functions",
                 f"out = [None] * {n}",
                 "g = grads[0]",
                 "if g is None: return out"]  # PyTorch's any_grad_defined
        ns = {"_FREED": _FREED, "_Saved": SavedTensor, "_LazyResults": _LazyResults,
              "_unpack_list": _unpack_list, "_state": state, "_as_backward_ops": as_backward_ops}
        if self.fused is not None:
            lines += self._fused_lines(ns)
        for k, (positions, fn, params, _) in enumerate(self.entries):
            ns[f"f{k}"] = fn
            values = []
            for p in params:
                if p == "grad":
                    values.append("g")
                elif p == "grads":
                    values.append("list(grads)")
                elif p == "result":
                    values.append("saved['result'][0].unpack(self)")
                elif p == "results":  # unpacked where read (see _LazyResults)
                    values.append("_LazyResults(saved['result'], self)")
                elif p in self.saved_lists:
                    values.append(f"_unpack_list(saved[{p!r}], self)")
                else:
                    values.append(f"(v.unpack(self) if type(v := saved[{p!r}]) is _Saved "
                                  f"else v)")
            cond = " or ".join(f"edges[{q}][0] is not None" for q in positions)
            call = f"f{k}({', '.join(values)})"
            if len(positions) == 1:
                lines.append(f"if {cond}: out[{positions[0]}] = {call}")
            else:
                lines.append(f"if {cond}:")
                lines.append(f"    for p, x in zip({tuple(positions)}, {call}): out[p] = x")
        if self.backward_ops:  # (create_graph: see _backward_ops)
            lines.append("if _state.enabled: _as_backward_ops(self, out)")
        lines.append("return out")
        src = "def apply(self, grads):\n" + "".join(f"    {ln}\n" for ln in lines)
        exec(compile(src, f"<backward {self.op.name}>", "exec"), ns)
        ns["apply"]._source = src
        return ns["apply"]

    def _class_for(self, args):
        return self._node_class(self.name_of(*args))

    def _scalar_overloads(self, positions, args):
        """PyTorch's Scalar overloads: a Python number in a Tensor|Scalar argument is not
        an input of the node (pow(x, 2), clamp(x, 0, 1), masked_fill(m, 0.0) have one
        edge).  Ops that wrap numbers as tensors (add, mul, where: option wrapped_numbers)
        keep a None edge for them.  Optional ones (clamp's min/max) go together: None is
        an input of the Tensor overload, clamp(x, t, None)."""
        full, variants = self.run, {}
        required = [i for i in positions if not args[i].optional]
        optional = [i for i in positions if args[i].optional]

        def run(kernel, call_args):
            numbers = [i for i in required if not isinstance(call_args[i], Tensor)]
            if optional and not any(isinstance(call_args[i], Tensor) for i in optional):
                numbers += optional
            if not numbers:
                return full(kernel, call_args)
            key = frozenset(numbers)
            variant = variants.get(key)
            if variant is None:
                variant = variants[key] = _Plan(self.op, key)
            return variant.run(kernel, call_args)
        return run

    def _generate_runner(self, args):
        """_run_formula specialised to this op as straight-line code (the hot path of
        recording): one branch per tensor argument, and only the values saved that the
        formulas of inputs requiring grad use."""
        names = [f"a{i}" for i in range(len(args))]
        lines = [f"{', '.join(names)}{',' if len(names) == 1 else ''} = args"]
        lines += [f"_check({names[i]})" for i in self.mutated]
        node_cls = "_Node(args)" if self.node_cls == self._class_for else "_Node"
        lines.append(f"node = _new({node_cls}); node._seq = _next(_seq)")  # Node.__init__
        lines.append("if _state.anomaly: node._trace = _trace()")
        for k, i in enumerate(self.tensor_idx):
            a = names[i]
            exact = args[i].type == "Tensor" and not args[i].optional
            pad = "" if exact else "    "
            if not exact:
                lines.append(f"if isinstance({a}, Tensor):")
            lines += [pad + ln for ln in (
                f"fn = {a}._grad_fn",
                "if fn is not None:",
                f"    if {a}._base is not None and {a}._grad_version != "
                f"{a}._version_counter[0]: fn = _regen({a})",
                f"    e{k} = (fn, {a}._output_nr); m{k} = {a}",
                f"elif {a}._requires_grad:",
                f"    e{k} = (_acc({a}), 0); m{k} = {a}",
                f"else: e{k} = _NONE; m{k} = _NOT")]
            if not exact:
                lines.append(f"else: e{k} = _NONE; m{k} = _NOT")
        n = len(self.tensor_idx)
        lines.append(f"node.next_functions = ({''.join(f'e{k}, ' for k in range(n))})")
        lines.append("node._inputs_meta = (" + "".join(
            f"m{k}._shape, m{k}.dtype, m{k}._device, " for k in range(n)) + ")")
        # which edges' formulas use each saved value
        users = {}
        for positions, fn, params, _ in self.entries:
            for p in params:
                users.setdefault(p, set()).update(positions)
        lines.append("saved = {}" if self.saved or self.geometries or self.save_result
                     else "saved = _NOTHING")
        for name, i in self.saved + [(g, i) for g, i in self.geometries if i is not None]:
            cond = " or ".join(f"e{k}[0] is not None" for k in sorted(users[name]))
            a = names[i]
            if name.endswith("_geometry"):
                value = f"_geometry_of({a})"
            elif i in self.mutated:  # the value before the write (PyTorch's original_self)
                value = f"_Saved(_original({a}))"
            elif name in self.saved_lists:
                value = f"_save_list({a})"
            else:
                value = f"_Saved({a}) if isinstance({a}, Tensor) else {a}"
            lines.append(f"if {cond}: saved[{name!r}] = {value}")
        lines += ["_state.enabled = False",
                  "try: r = kernel(*args)",
                  "finally: _state.enabled = True"]
        lines += [f"{names[i]}._version_counter[0] += 1" for i in self.mutated]
        if self.single:
            lines.append("if isinstance(r, Tensor):")
            lines.append("    node._outputs_meta = (r._shape, r.dtype, r._device)")
            if 0 not in self.nondiff:
                lines.append("    if r.dtype in _DIFF:")
                attach = []
                if self.may_alias:  # an input returned as is: alias it
                    same = " or ".join(f"r is {names[i]}" for i in self.alias_idx)
                    attach.append(f"if {same}: r = r._view(r._shape, r._stride, r._offset)")
                attach += ["r._grad_fn = node", "r._requires_grad = True",
                           "if r._base is not None: r._grad_version = r._version_counter[0]"]
                if self.mutated:
                    lines.append(f"        if r is {names[self.mutated[0]]}: "
                                 f"_rebase(r, node)")
                    lines.append("        else:")
                    lines += ["            " + ln for ln in attach]
                else:
                    lines += ["        " + ln for ln in attach]
            lines.append("else: node._outputs_meta = _NO_META")
            lines.append("outs = (r,)")
        else:
            lines.append("outs = r")
            lines.append("r = _attach_many(node, args, outs)")
        if self.save_result:
            lines.append("saved['result'] = [_Saved(o, k) if isinstance(o, Tensor) else o "
                         "for k, o in enumerate(outs)]")
        for name, i in self.geometries:
            if i is None:
                lines.append(f"saved[{name!r}] = (outs[0]._shape, outs[0]._stride, "
                             f"outs[0]._offset)")
        lines.append("node._saved = saved")
        lines.append("return r")
        ns = {"Tensor": Tensor, "_check": check_inplace, "_Node": self.node_cls,
              "_regen": regenerate_view_history, "_acc": accumulator, "_NONE": _NONE_EDGE,
              "_NOTHING": _NOTHING, "_Saved": SavedTensor, "_state": state,
              "_DIFF": D.DIFFERENTIABLE,
              # an in-place view op changes metadata, not data: no CopySlices
              "_rebase": _restride if "inplace_view" in self.op.tags else rebase_history,
              "_attach_many": self._attach_outputs, "_geometry_of": _geometry_of,
              "_original": _original, "_save_list": _save_list,
              "_NOT": _NOT_RECORDED, "_NO_META": _NO_META, "_new": object.__new__,
              "_next": next, "_seq": graph._sequence, "_trace": graph._forward_trace}
        src = "def run(kernel, args):\n" + "".join(f"    {ln}\n" for ln in lines)
        exec(compile(src, f"<autograd {self.op.name}>", "exec"), ns)
        ns["run"]._source = src
        return ns["run"]

    # -- runners (bound as self.run) ----------------------------------------------------
    def _run_nondifferentiable(self, kernel, args):
        self._check_inplace(args)
        r = _below_autograd(kernel, args)
        self._bump(args)
        return r

    def _run_composite(self, kernel, args):
        self._check_inplace(args)
        r = self.impl(*args)
        self._bump(args)
        return r

    def _check_inplace(self, args):
        for i in self.mutated:
            check_inplace(args[i])

    def _bump(self, args):
        for i in self.mutated:
            args[i]._version_counter[0] += 1

    def _run_formula(self, kernel, args):
        """Recording for ops with Tensor[] arguments (others get a generated runner)."""
        self._check_inplace(args)
        node = (self._class_for(args) if self.node_cls == self._class_for else
                self.node_cls)()
        self._list_edges(node, args)  # before the kernel: an in-place op changes history
        saved = {}
        for name, i in self.saved:
            a = args[i]
            if isinstance(a, Tensor):
                a = SavedTensor(_original(a) if i in self.mutated else a)
            elif type(a) in (list, tuple) and any(isinstance(t, Tensor) for t in a):
                a = _save_list(a)
            saved[name] = a
        for name, i in self.geometries:
            if i is not None:
                saved[name] = _geometry_of(args[i])
        r = _below_autograd(kernel, args)
        self._bump(args)
        outs = (r,) if self.single else r
        outs = self._attach_outputs(node, args, outs)
        if self.save_result:
            saved["result"] = [SavedTensor(o, k) if isinstance(o, Tensor) else o
                               for k, o in enumerate(outs)]
        for name, i in self.geometries:
            if i is None:
                saved[name] = _geometry_of(outs[0])
        node._saved = saved
        return outs[0] if self.single else outs

    def _list_edges(self, node, args):
        edges, meta, slots = [], [], []
        for i, is_list in self.tensor_args:
            a = args[i]
            if is_list:
                start = len(edges)
                for t in a:
                    edges.append(_NONE_EDGE if t is None else edge(t))
                    meta += _meta(t)
                slots.append((start, len(edges)))
            else:
                slots.append(len(edges))
                edges.append(edge(a) if isinstance(a, Tensor) else _NONE_EDGE)
                meta += _meta(a)
        node.next_functions = tuple(edges)
        node._inputs_meta = tuple(meta)
        node._slots = slots

    def _attach_outputs(self, node, args, outs):  # (also used by generated runners)
        """Outputs of a multi-output op get the node (each its own output_nr)."""
        node._outputs_meta = tuple(m for o in outs for m in _meta(o))
        nondiff = self.nondiff
        inputs = [args[i] for i in self.alias_idx]
        result = list(outs)
        for k, o in enumerate(outs):
            if not isinstance(o, Tensor) or o.dtype not in D.DIFFERENTIABLE or k in nondiff:
                continue
            if self.mutated and o is args[self.mutated[0]]:
                rebase_history(o, node)
                continue
            if any(o is a for a in inputs):  # an input returned as is: a fresh alias
                o = result[k] = o._view(o._shape, o._stride, o._offset)
            o._grad_fn = node
            o._output_nr = k
            o._requires_grad = True
            if o._base is not None:
                o._grad_version = o._version_counter[0]
        if hasattr(outs, "_fields"):
            return type(outs)(*result)
        return type(outs)(result) if isinstance(outs, (tuple, list)) else outs


_writing_into = [None]  # the op an in-place decomposition is running (see write_into)


def _refusing_grad(run, refused):
    """PyTorch refuses when recording an input its kernel has no derivative for (a loss's
    weight): refusing formulas (refuses_grad) raise for an input that requires grad, and
    give no edge."""
    def refusing(kernel, args):
        for i, formula in refused:
            if isinstance(args[i], Tensor) and args[i]._requires_grad:
                formula(None)
        return run(kernel, args)
    return refusing


def _refusing_complex(run, op):
    """PyTorch's generated autograd for ops without complex formulas: a complex output
    refused when recorded (throw_error_for_complex_autograd), after the kernel ran."""
    def checked(kernel, args):
        r = run(kernel, args)
        if _writing_into[-1] is op:  # its in-place variant records (as PyTorch's)
            return r
        for o in r if isinstance(r, (tuple, list)) else (r,):
            if isinstance(o, Tensor) and o.dtype.is_complex and o._requires_grad:
                raise RuntimeError(f"{op.name.lstrip('_')} does not support automatic "
                                   f"differentiation for outputs with complex dtype.")
        return r
    return checked


def _below_autograd(kernel, args):
    """The kernel run with grad mode off (a kernel that is a decomposition records
    nothing: the op's own node stands for it)."""
    prev = state.enabled
    state.enabled = False
    try:
        return kernel(*args)
    finally:
        state.enabled = prev


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
    mode = t.__dict__.get("_no_grad_view")
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
    if base is not None and "_custom_function_view" in t.__dict__:
        k, name = t._custom_function_view
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
