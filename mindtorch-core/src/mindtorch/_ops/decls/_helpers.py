"""Shared pieces of op declarations."""
from ..._dtype import scalar_type_name as _type_name
from ..registry import OPS, define, derivative, nondifferentiable


def has_data(t):
    """Whether t's device holds values (meta does not): data-dependent checks are skipped
    where it does not."""
    from ...plugins._registry import DEVICES
    return DEVICES[t._device.type].has_data


# the node PyTorch records for an op it gives no derivative (backward reaching it raises)
NOT_IMPLEMENTED_NODE = "torch::autograd::NotImplemented"


def no_derivative(name):
    """The backward formula of such an op: it raises PyTorch's error naming aten::<name>."""
    def formula(*grads, **inputs):
        raise RuntimeError(f"derivative for aten::{name} is not implemented")
    return formula


def unimplemented_derivative(what):
    """A formula PyTorch's derivatives.yaml marks not_implemented (its own node, which
    raises NotImplementedError naming `what` when backward reaches it)."""
    def formula(*grads, **inputs):
        raise NotImplementedError(f"the derivative for '{what}' is not implemented.")
    return formula


def refuse_complex_autograd(*names):
    """Ops PyTorch's autograd has no complex formula for: recording one with a complex
    output raises (see autograd/_plan.py _refusing_complex)."""
    for name in names:
        OPS[name].options["complex_autograd"] = False
        OPS[name]._grad_plan = None


def define_inplace(op):
    """Declare `op.name + '_'`, writing op's result into self.  Decomposes into the
    out-of-place op plus copy_, with PyTorch's checks on dtype and shape; a backend may
    register a fused kernel instead."""
    from ... import _promotion
    args = op.text[op.text.index("(") + 1:op.text.rindex(") ->")]
    first, _, rest = args.partition(",")
    first = first.replace("Tensor|Scalar self", "Tensor(a!) self").replace(
        "Tensor self", "Tensor(a!) self")
    text = f"{op.name}_({first}{',' + rest if rest else ''}) -> Tensor(a!)"

    def check(self, result):
        if not _promotion.can_cast(result.dtype, self.dtype):
            raise RuntimeError(f"result type {_type_name(result.dtype)} can't be cast to the "
                               f"desired output type {_type_name(self.dtype)}")
        if result._shape != self._shape:
            raise RuntimeError(f"output with shape {list(self._shape)} doesn't match the "
                               f"broadcast shape {list(result._shape)}")

    def inplace(self, *args):
        try:
            return write_into(self, op, args, check)
        except NotImplementedError:  # (off the common path: PyTorch checks the cast first)
            if len(args) == 1 and op.schema.args[1].type in ("Tensor", "Tensor|Scalar"):
                _cast_first(op, self, args)  # (operands: not celu's alpha, lerp's weight)
            raise

    return define(text, tags=op.tags | {"inplace"}, promotion=op.promotion,
                  decomposition=inplace, function=False)


def _cast_first(op, self, args):
    """The error PyTorch's TensorIterator raises before any kernel when op's result dtype
    cannot be written into self (bool_tensor.fmod_(2.5): a cast error, not the kernel's)."""
    from ... import _promotion
    try:
        result = op.result_dtype(self, *args)
    except Exception:  # noqa: BLE001 - no rule for these operands: the kernel's error stands
        return
    if result is not None and not _promotion.can_cast(result, self.dtype):
        raise RuntimeError(f"result type {_type_name(result)} can't be cast to the desired "
                           f"output type {_type_name(self.dtype)}") from None


def write_into(self, op, args, check=None):
    """self.copy_(op(self, *args)), the decomposition of an in-place op (check(self,
    result) runs before the write).  When autograd records, op reads self's value from
    before the write (a copy with self's history, if op's backward may read self) and
    self takes op's history directly: the graph names op, as PyTorch's in-place ops do,
    not a copy."""
    from ...autograd import _record
    recording = _record.recording(self, *args)
    src = _record.original_with_history(self) if recording and _record.reads_self(op) else self
    if getattr(op, "options", {}).get("complex_autograd", True):
        result = op.call(src, *args)
    else:  # the op refuses complex autograd, its in-place variant does not (see _record)
        _record._writing_into.append(op)
        try:
            result = op.call(src, *args)
        finally:
            _record._writing_into.pop()
    if check is not None:
        check(self, result)
    if recording and result._grad_fn is not None and result.dtype is self.dtype:
        from ...autograd.grad_mode import no_grad
        if self._base is None:
            with no_grad():
                self.copy_(result)
            _record.adopt_history(self, result)
            if _record.forward.on:  # forward AD: self's tangent becomes result's, recorded
                _record.forward.adopt(self, result)
            return self
        if _takes_view_directly(result, src):
            with no_grad():
                self.copy_(result)
            _record.rebase_history(self, result._grad_fn)
            _record.graph.save_view_as_result(self, result)
            return self
    return self.copy_(result)


def _takes_view_directly(result, src):
    """Whether the base of a view written in place can take result's node as PyTorch's
    CopySlices does (the in-place op's own node, not a copy_'s): the node's first input is
    the view's value itself (src), whose gradient CopySlices writes into the base's; not
    under forward AD (whose view tangents go through copy_)."""
    from ...autograd import _record
    node = result._grad_fn
    return (result._output_nr == 0 and not _record.forward.on and node.next_functions and
            node.next_functions[0][0] is src._grad_fn and
            (src._grad_fn is None or node.next_functions[0][1] == src._output_nr))


def inplace_via(name):
    """The decomposition of an in-place op into op `name` plus copy_ (see write_into); a
    backend may register a kernel that writes in place instead."""
    def inplace(self, *args):
        return write_into(self, OPS[name], args)
    return inplace


def scalar_clamp_inplace(op, bounds, clamp_plan):
    """clamp_ (clip_, clamp_min_, clamp_max_) with number bounds: PyTorch's kernel refuses
    a result dtype other than self's first, naming self's dtype as C++ does."""
    from ..._dtype import CPP_NAMES
    inner = op.decomposition

    def decomposition(self, *args):
        lo_hi = (tuple(bounds(args)) + (None, None))[:2]
        try:
            _, _, dt, scalar = clamp_plan(self, *lo_hi)
        except NotImplementedError:  # (complex bounds: the cast is refused first)
            _complex_bound_cast(self, lo_hi)
            raise
        if scalar and dt is not self.dtype:
            raise RuntimeError(f"result type {_type_name(dt)} can't be cast to the desired "
                               f"output type {CPP_NAMES[self.dtype.name]}")
        return inner(self, *args)
    op.decomposition = decomposition


def _complex_bound_cast(self, bounds):
    """clamp_'s cast error for complex bounds of a real tensor (PyTorch raises it before
    clamp's complex refusal; number bounds name self's dtype as C++ does)."""
    from ..._dtype import CPP_NAMES
    from ..._promotion import can_cast, result_type
    given = [b for b in bounds if b is not None]
    try:
        dt = result_type(self, *given)
    except Exception:  # noqa: BLE001 - the caller's error stands
        return
    if dt.is_complex and not can_cast(dt, self.dtype):
        scalar = not all(hasattr(b, "_shape") for b in given)
        name = CPP_NAMES[self.dtype.name] if scalar else _type_name(self.dtype)
        raise RuntimeError(f"result type {_type_name(dt)} can't be cast to the desired "
                           f"output type {name}") from None


__all__ = ["OPS", "define", "define_inplace", "derivative", "inplace_via", "nondifferentiable",
           "write_into"]
