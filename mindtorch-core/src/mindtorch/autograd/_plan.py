"""An op's autograd plan (_record.plan makes one on first recording): what the op's
formulas read, decided once; its node class (`<Op>Backward0`, a FormulaNode); and its
runner, generated as straight-line code for ops without Tensor[] arguments (the hot path
of recording), together with the specialised backward `apply` of single-output ops."""
from .. import _dtype as D
from .._tensor import Tensor
from . import graph
from ._backward_ops import apply_marked, as_backward_ops, marked_slots
from ._record import (
    _NO_META, _NONE_EDGE, FormulaNode, _meta, _original, _restride, _writing_into, accumulator,
    check_inplace, edge, rebase_history, regenerate_view_history,
)
from ._saved_values import LazyResults as _LazyResults
from ._saved_values import save_list as _save_list
from ._saved_values import unpack_list as _unpack_list
from .grad_mode import state
from .graph import _FREED, SavedTensor


class _NotRecorded:  # stands for an input without gradient where metadata is read
    _shape = dtype = _device = None


_NOT_RECORDED = _NotRecorded()
_NOTHING = {}  # the saved values of a node that saves none (never written to)
_TENSOR_TYPES = ("Tensor", "Tensor|Scalar", "Tensor[]", "Tensor?[]")


def _geometry_of(a):
    """<arg>_geometry of an argument: a tensor's (shape, stride, offset), a list of them for
    a Tensor[] argument, None for a number."""
    if isinstance(a, Tensor):
        return (a._shape, a._stride, a._offset)
    if type(a) in (list, tuple):
        return [_geometry_of(t) for t in a]
    return None


class _Plan:
    refused = ()  # (index, formula) of inputs whose formula refuses grad (see __init__)

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
            # inputs whose formula refuses grad (a loss's weight): generated runners check
            # them first, as PyTorch does when recording
            self.refused = [(index, fn) for index, a in enumerate(args) if getattr(
                fn := op.formulas.get(_pyname(a.name)), "refuses_grad", False)]
            self._compile(op, args, formulas)
            scalars = [i for i, _ in self.tensor_args if args[i].type == "Tensor|Scalar"]
            if scalars and not numbers and not op.options.get("wrapped_numbers"):
                self.run = self._scalar_overloads(scalars, args)
            if self.refused and self.has_lists:
                self.run = _refusing_grad(self.run, self.refused)
        elif not op.differentiable:
            self.run = self._run_nondifferentiable if self.mutated else _below_autograd
        elif op.decomposition is not None:
            from .._ops.dispatch import _decomposition
            impl = self.impl = _decomposition(op)
            # (nothing written in place: nothing to check or bump around the decomposition)
            self.run = self._run_composite if self.mutated else lambda _, args: impl(*args)
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
        lines += [f"if isinstance({names[i]}, Tensor) and {names[i]}._requires_grad: "
                  f"_refuse{i}(None)" for i, _ in self.refused]
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
            if name.endswith("_geometry"):  # (a required tensor's inline: the common case)
                value = f"({a}._shape, {a}._stride, {a}._offset)" if args[i].type == "Tensor" \
                    and not args[i].optional else f"_geometry_of({a})"
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
        if self.save_result and self.single:
            lines.append("saved['result'] = [_Saved(r, 0) if isinstance(r, Tensor) else r]")
        elif self.save_result:
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
              "_next": next, "_seq": graph._sequence, "_trace": graph._forward_trace,
              **{f"_refuse{i}": formula for i, formula in self.refused}}
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
