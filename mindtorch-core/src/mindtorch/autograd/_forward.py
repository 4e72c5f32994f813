"""Forward AD's propagation: how an op's results get their tangents.

While a dual level is live, a binding runs its kernel through `wrap(op, kernel)` (see
_record.forward).  When no tensor argument has a tangent that is the kernel and nothing
more.  Otherwise the op's jvp is, in order of preference:

- an explicit rule (_jvp_rules.RULES: linear and multilinear ops, views, softmax, ...);
- for an elementwise op (tag pointwise, or an activation): its backward formula called with
  the input's tangent as the gradient -- the Jacobian is diagonal, so the vjp is the jvp;
- for an op without formula whose kernel is its decomposition: the sub-ops propagate;
- otherwise the "double vjp": the vjp g -> J^T g is linear in g, so J t is the gradient of
  <J^T g, t> with respect to g (two reverse passes through the op's formulas).

Tangents are computed with forward AD switched off (so the tangent computation itself
propagates nothing) and in the grad mode of the op's caller, so a tangent computed from
inputs that require grad records history (backward through tangents).  Nothing here reads
tensor data.
"""
import weakref

from .. import _dtype as D
from .._tensor import Tensor, autograd_meta
from ._record import forward
from .grad_mode import state

KEY = "fw_tangent"  # (in the tensor's autograd_meta)
_NO_META = {}
generation = [0]  # counts the levels entered (a saved tangent of an old one is dropped)
_prune_at = [4096]
_holders = []  # weakrefs to the tensors given a tangent at the live level (cleared on exit)


def tangent_of(t):
    """t's tangent at the live level: its own, or for a view without one (made before its
    base got a tangent) the same view of the base's, as PyTorch's; None for a primal that
    unpack_dual gave (marked so, with its views)."""
    if not isinstance(t, Tensor) or state.inference:
        return None
    d = t._autograd_meta or _NO_META
    if KEY in d:
        return d[KEY]
    base = t._base
    if base is None:
        return None
    bt = (base._autograd_meta or _NO_META).get(KEY)
    if bt is None or bt._stride != base._stride or bt._shape != base._shape:
        return None
    prev, forward.on = forward.on, False
    try:
        view = bt.as_strided(t._shape, t._stride, bt._offset + t._offset - base._offset)
    finally:
        forward.on = prev
    set_tangent(t, view)
    return view


def set_tangent(t, tangent):
    autograd_meta(t)[KEY] = tangent
    _holders.append(weakref.ref(t))
    if len(_holders) > _prune_at[0]:  # (a long level: forget the tensors that died)
        _holders[:] = [ref for ref in _holders if ref() is not None]
        _prune_at[0] = max(4096, 2 * len(_holders))


def clear_tangents():
    for ref in _holders:
        t = ref()
        if t is not None:
            autograd_meta(t).pop(KEY, None)
    _holders.clear()


def wrap(op, kernel):
    enabled = state.enabled  # the caller's grad mode (the record branch turns it off)
    spec = op.__dict__.get("_fw_spec") or _Spec(op)

    def run(*args):
        return spec.run(kernel, enabled, args)
    return run


def check_out(op, out, result):
    """out= (dispatch.write_out) of a result with a tangent, or into a dual tensor."""
    results = result if isinstance(result, (tuple, list)) else (result,)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    if any(tangent_of(t) is not None for t in (*results, *outs)):
        raise NotImplementedError(f"Trying to use forward AD with {op.name}_out that does not "
                                  f"support it because it is an out= function")


def _differentiable(t):
    return isinstance(t, Tensor) and t.dtype in D.DIFFERENTIABLE


class _Spec:
    """What forward AD needs to know about one op (made on first use)."""

    def __init__(self, op):
        from . import _jvp_rules
        op._fw_spec = self
        s = op.schema
        self.op = op
        args = [a for a in s.args if a.name != "requires_grad"]
        self.names = [a.name for a in args]
        self.tensor_pos = [(i, a.type in ("Tensor[]", "Tensor?[]")) for i, a in enumerate(args)
                           if a.type in ("Tensor", "Tensor|Scalar", "Tensor[]", "Tensor?[]")]
        self.mutated = [i for i, a in enumerate(args) if a.mutated]
        # (an op writing a buffer it does not return, rrelu_with_noise's noise, is no
        # in-place op: its rule reads the buffer as written)
        self.inplace = bool(self.mutated) and op.name.endswith("_")
        self.inplace_view = "inplace_view" in op.tags
        self.view = "view" in op.tags and bool(self.tensor_pos) and not self.tensor_pos[0][1]
        self.rule = _jvp_rules.rule_for(op)
        if self.rule is not None:
            self.kind = "rule"
        elif op.formulas is not None:
            self.kind = "formula"
        elif not op.differentiable:
            self.kind = "none"
        elif op.decomposition is not None:
            self.kind = "composite"
        else:
            self.kind = "missing"

    def tangents(self, args):
        """{argument position: tangent} (a list with Nones for a Tensor[] argument)."""
        found = {}
        for i, is_list in self.tensor_pos:
            a = args[i]
            if is_list:
                ts = [tangent_of(x) for x in a] if a is not None else []
                if any(t is not None for t in ts):
                    found[i] = ts
            elif type(a) is Tensor or isinstance(a, Tensor):
                t = tangent_of(a)
                if t is not None:
                    found[i] = t
        return found

    def run(self, kernel, enabled, args):
        tans = self.tangents(args) if not state.inference else None  # (off there, as
        if not tans:                                                     # in PyTorch)
            r = kernel(*args)
            # a view of an unpacked primal: none either
            if self.view and KEY in (args[0]._autograd_meta or _NO_META):
                for o in (r if isinstance(r, (tuple, list)) else (r,)):
                    set_tangent(o, None)
            return r
        if self.kind == "none":  # (an in-place one leaves the tangent as it is, as PyTorch)
            return _off(kernel, args)
        if self.kind == "composite" and self.op.core_impl is None and \
                not any(getattr(kernel, "__wrapped__", kernel) is k  # (the profiler's)
                        for k in self.op.kernels.values()):
            return kernel(*args)  # the decomposition's ops propagate the tangents
        # backward through the tangents: they are computed from inputs with history
        nested = enabled and (_any_requires_grad(args) or _any_requires_grad(tans.values()))
        old = {i: _snapshot(args[i], nested) for i in self.mutated} if self.inplace else None
        if nested and self.inplace:  # the rule reads a copy of the tangent it then updates
            for i in self.mutated:   # in place (so that its saved values stay intact)
                if i in tans:
                    tans[i] = _snapshot(tans[i], True)
        r = _off(kernel, args)
        outs = list(r) if isinstance(r, (tuple, list)) else [r]
        if not self.mutated and not any(_differentiable(o) for o in outs):
            return r  # (comparisons, indices: no tangents)
        prev_on, prev_enabled = forward.on, state.enabled
        forward.on, state.enabled = False, enabled
        try:
            self._attach(args, outs, self._jvp(args, tans, outs, old, nested))
        finally:
            forward.on, state.enabled = prev_on, prev_enabled
        return r

    def _jvp(self, args, tans, outs, old, nested):
        if self.kind == "missing":
            raise NotImplementedError(
                f"Trying to use forward AD with {self.op.name} that does not support it "
                f"because it has not been implemented yet.")
        if old:  # the rule sees the values before the write
            args = list(args)
            for i, v in old.items():
                args[i] = v
        rule = self.rule
        if rule is not None:
            if nested and getattr(rule, "uses_result", False):  # a result with history
                a = [a.clone() if i in self.mutated else a for i, a in enumerate(args)]
                r = self.op.call(*a)
                outs = list(r) if isinstance(r, (tuple, list)) else [r]
            res = rule(self.op, args, tans, outs)
            if res is not NotImplemented:
                return res if type(res) is list else [res]
        from ._jvp_rules import double_vjp
        return double_vjp(self.op, args, tans, outs, self.mutated, nested)

    def _attach(self, args, outs, jvps):
        if self.mutated and outs and outs[0] is args[self.mutated[0]]:  # in place
            m = self.mutated[0]
            target = args[m]
            if not _differentiable(target):  # (x.long(): a copy into an integer tensor)
                return
            jt = jvps[0] if jvps else None
            if self.inplace_view:  # new metadata: the tangent is re-viewed the same way
                if jt is not None:
                    set_tangent(target, jt)
                return
            if jt is None:
                jt = _off(_zeros_like, (target,))
            _write_tangent(target, jt)
            return
        for o, jt in zip(outs, jvps):
            if jt is None or not _differentiable(o):
                continue
            if any(o is a for a in args):  # (an input returned as is already has one)
                continue
            set_tangent(o, _conform(jt, o))


def _off(fn, args):
    """fn(*args) with forward AD off (the kernel's own sub-ops propagate nothing)."""
    prev, forward.on = forward.on, False
    try:
        return fn(*args)
    finally:
        forward.on = prev


def _snapshot(t, keep_history):
    """t's value before an in-place write (with its history when tangents need it)."""
    prev, state.enabled = state.enabled, keep_history
    prev_on, forward.on = forward.on, False
    try:
        return t.clone()
    finally:
        state.enabled, forward.on = prev, prev_on


def _any_requires_grad(xs):
    for x in xs:
        if type(x) is list:
            if _any_requires_grad(x):
                return True
        elif isinstance(x, Tensor) and x._requires_grad:
            return True
    return False


def _zeros_like(t):
    return t.new_zeros(t.shape)


def _conform(jt, o, always=False):
    """The tangent as the result's: same shape (a broadcast input's is expanded), and laid
    out as the result when that is a dense layout (PyTorch keeps them alike)."""
    if tuple(jt._shape) != tuple(o._shape):
        jt = jt.expand(o._shape)
    if jt._stride != o._stride and (o._base is None or always) and jt.numel() > 1:
        from .._ops import OPS
        c = OPS["empty_strided"].call(o._shape, o._stride, jt.dtype, jt.device)
        if c._stride == o._stride:
            jt = c.copy_(jt) if state.enabled and jt.requires_grad else \
                _nograd_copy(c, jt)
    return jt


def _nograd_copy(dst, src):
    prev, state.enabled = state.enabled, False
    try:
        return dst.copy_(src)
    finally:
        state.enabled = prev


def _write_tangent(t, jt):
    """t was written in place: its tangent becomes jt.  An existing tangent is updated in
    place (views of it see the change, as in PyTorch); a view without one gets a view of
    its base's tangent (created as zeros when the base has none)."""
    cur = tangent_of(t)
    prev_on, forward.on = forward.on, False
    try:
        if cur is None and t._base is not None:
            base = t._base
            bt = tangent_of(base)
            if bt is None:
                bt = base.new_zeros(base.shape)
                bt = _conform(bt, base) if bt._stride != base._stride else bt
                set_tangent(base, bt)
            if bt._stride == base._stride:
                cur = bt.as_strided(t._shape, t._stride, bt._offset + t._offset - base._offset)
                set_tangent(t, cur)
        if cur is None:
            set_tangent(t, _conform(jt if jt.dtype == t.dtype else jt.to(t.dtype), t))
            return
        if jt.dtype.is_complex and not cur.dtype.is_complex:
            jt = jt.real
        cur.copy_(jt)
    finally:
        forward.on = prev_on


def snapshot(copy, t):
    """copy (of t, before an in-place write) gets a recorded copy of t's tangent."""
    tangent = tangent_of(t)
    if tangent is not None:
        prev, forward.on = forward.on, False
        try:
            set_tangent(copy, tangent.clone())
        finally:
            forward.on = prev


def adopt(t, result):
    """t, which took result's value under no_grad (an in-place decomposition), takes its
    tangent with history."""
    tangent = tangent_of(result)
    if tangent is not None and tangent is not tangent_of(t) and t.dtype in D.DIFFERENTIABLE:
        _write_tangent(t, tangent)


def save(t):
    """What a node keeps of its output t's tangent (see graph.SavedTensor)."""
    tangent = tangent_of(t)
    return None if tangent is None else (generation[0], tangent)


def restore(saved, t):
    kept = getattr(saved, "tangent", None)
    if kept is not None and kept[0] == generation[0] and not state.inference:
        set_tangent(t, kept[1])


def custom_tangents(cls, args):
    """What a custom Function's jvp receives (zeros for tensors without a tangent, None
    for other arguments), or None when no argument has one or cls has no jvp (mindtorch's
    own Functions then let their forward's ops propagate tangents; others raise, as
    PyTorch's)."""
    from .function import Function
    tangents = [tangent_of(a) for a in args]
    if all(t is None for t in tangents):
        return None
    if cls.jvp is Function.jvp:
        if cls.__module__.startswith("mindtorch."):
            return None
        cls.jvp(None)  # (PyTorch's NotImplementedError)
    return [t if t is not None or not isinstance(a, Tensor) else _off(_zeros_like, (a,))
            for a, t in zip(args, tangents)]


def check_tangent_size(tensor, tangent):
    if tuple(tangent.shape) != tuple(tensor.shape):
        raise RuntimeError(f"Trying to set a forward gradient that has a different size than "
                           f"that of the original Tensor, this is not supported. Tensor is of "
                           f"size {list(tensor.shape)} while the given forward gradient is of "
                           f"size {list(tangent.shape)}.")


def _check_custom_tangent(ctx, args, tangents, output, tangent):
    """PyTorch's checks of a jvp's tangent: the output's size; a dirty input's tangent
    written in place; a view for an output that is a view of an input (or one as is)."""
    check_tangent_size(output, tangent)
    k = next((k for k, a in enumerate(args) if a is output), None)
    if k is not None and any(output is d for d in ctx._dirty):
        if tangent is not tangents[k]:
            raise RuntimeError("An inplace custom Function is not modifying the forward mode "
                               "gradients inplace. If the forward is modifying an input "
                               "inplace, then the jvp function must modify the corresponding "
                               "gradient inplace.")
        return
    base = output._base
    if base is not None and tangent._base is None and any(
            isinstance(a, Tensor) and (a is base or a._base is base) for a in args):
        raise RuntimeError("A custom Function's forward is returning a view (or an input "
                           "as-is) but the jvp is not returning a view.")


def custom_jvp(cls, ctx, tangents, output, args=()):
    """output (a custom Function's) with the tangents its jvp gives."""
    prev, forward.on = forward.on, False
    ctx._in_jvp = True
    try:
        res = cls.jvp(ctx, *tangents)
    finally:
        forward.on = prev
        ctx._in_jvp = False
    outs = (output,) if isinstance(output, Tensor) else tuple(output)
    res = res if isinstance(res, tuple) else (res,)
    if len(res) != len(outs):
        raise RuntimeError(f"Function's jvp returned an invalid number of forward gradients "
                           f"(expected {len(outs)} but got {len(res)})")
    for o, t in zip(outs, res):
        if t is not None and _differentiable(o):
            _check_custom_tangent(ctx, args, tangents, o, t)
            if tangent_of(o) is not None:
                _off(_write_tangent, (o, t))
            else:
                set_tangent(o, t)
    return output
