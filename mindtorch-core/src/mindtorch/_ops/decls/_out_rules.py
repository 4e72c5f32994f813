"""out= for ops whose out dtype rule is stricter than "the result casts to out's dtype"
(PyTorch's kernels that compute in one dtype check out= for it): the public function
checks out= with a rule before writing."""
from ... import _autocast, _dtype
from ..._tensor import Tensor
from ..dispatch import write_out
from ..registry import overload
from ._helpers import _type_name
from .creation import OUT_DISJOINT, check_out_overlap

def _same_dtype(out, result, args, kwargs):
    if out.dtype is not result.dtype:
        raise RuntimeError(f"Found dtype {_type_name(out.dtype)} but expected "
                           f"{_type_name(result.dtype)}")


def _abs_out(out, result, args, kwargs):
    # complex input: any floating out, or the input's own complex dtype (a real result
    # must still cast to out)
    src = args[0].dtype if args and hasattr(args[0], "dtype") else result.dtype
    if not src.is_complex:
        _same_dtype(out, result, args, kwargs)
    elif out.dtype.is_complex and out.dtype is not src:
        raise RuntimeError(f"Found dtype {_type_name(out.dtype)} but expected "
                           f"{_type_name(src)}")


def _bool_only(name):
    def rule(out, result, args, kwargs):
        if out.dtype is not _dtype.bool:
            raise RuntimeError(f"{name} does not support non-boolean outputs.")
    return rule


def _nan_to_num_out(out, result, args, kwargs):
    if out.dtype is not result.dtype:
        raise RuntimeError(f"nan_to_num: dtype of out: {_type_name(out.dtype)} should be same "
                           f"as input: {_type_name(result.dtype)}")


def _where_out(out, result, args, kwargs):
    if out.dtype is not result.dtype:
        raise RuntimeError(f"Expected out type to be {_type_name(result.dtype)} but got "
                           f"{_type_name(out.dtype)}")


def _clamp_out(out, result, args, kwargs):
    # clamp with number bounds is a unary kernel (one dtype); with tensor bounds out= only
    # needs the result to cast
    bounds = list(args[1:3]) + [kwargs.get("min"), kwargs.get("max")]
    if any(b is not None and not hasattr(b, "_shape") for b in bounds):
        self = args[0] if args else kwargs.get("input", kwargs.get("self"))
        if out is self and out.dtype is not result.dtype:  # (torch.clamp(x, 0.5, out=x))
            raise RuntimeError(f"result type {_type_name(result.dtype)} can't be cast to the "
                               f"desired output type {_cpp(out.dtype)}")
        _same_dtype(out, result, args, kwargs)


def _lerp_out(out, result, args, kwargs):
    # a weight tensor with dims makes lerp one-dtype (out included)
    weight = args[2] if len(args) > 2 else kwargs.get("weight")
    if getattr(weight, "_shape", ()):
        _same_dtype(out, result, args, kwargs)


# PyTorch's unary kernels that keep the input dtype check all operands (out included) for
# one dtype
EXACT_OUT = {name: _same_dtype for name in
             ("neg", "bitwise_not", "ceil", "floor", "trunc", "round", "conj_physical",
              "frac", "sign", "sgn")}
EXACT_OUT.update(abs=_abs_out, signbit=_bool_only("signbit"), where=_where_out,
                 clamp=_clamp_out, lerp=_lerp_out, nan_to_num=_nan_to_num_out)
def _float_power_out(out, result, args, kwargs):
    # float_power computes in double (complex double): out must be that dtype
    if out.dtype is not result.dtype:
        raise RuntimeError(f"the output given to float_power has dtype {_type_name(out.dtype)} "
                           f"but the operation's result requires dtype "
                           f"{_type_name(result.dtype)}")


def _ldexp_out(out, result, args, kwargs):
    from ..._promotion import can_cast
    # (PyTorch checks the result's real dtype first, naming the op, then the product's)
    for dtype, what in ((result.dtype.to_real(), "ldexp"),
                        (result.dtype, f"result type {_type_name(result.dtype)}")):
        if not can_cast(dtype, out.dtype):
            raise RuntimeError(f"{what} can't be cast to the desired output type "
                               f"{_type_name(out.dtype)}")


# the same for ops of the special family (declared after pointwise)
SPECIAL_OUT = {"float_power": _float_power_out, "ldexp": _ldexp_out, "isposinf": _bool_only("isposinf"), "isneginf": _bool_only("isneginf"),
               "special_round": _same_dtype}


def _where_tensors_only(args, kwargs):
    # with out= only where(Tensor condition, Tensor input, Tensor other) exists
    given = [(f"{name}' (position {i + 2})", v)
             for i, (name, v) in enumerate(zip(("input", "other"), args[1:3]))]
    given += [(name + "'", kwargs[key]) for key, name in
              (("input", "input"), ("self", "input"), ("other", "other")) if key in kwargs]
    for name, v in given:
        if not isinstance(v, Tensor):
            raise TypeError(f"where(): argument '{name} must be Tensor, not {type(v).__name__}")


OUT_PRECHECK = {"where": _where_tensors_only}


def _checked_out(op, rule):
    """op's public function checks out='s dtype with rule(out, result, args) first."""
    from ..._tensor import Tensor
    from ..dispatch import write_out
    pre = OUT_PRECHECK.get(op.name)

    def make(binding):
        def checked(*args, out=None, **kwargs):
            if out is None:
                return binding(*args, **kwargs)
            if not isinstance(out, Tensor):
                raise TypeError(f"{op.name}(): argument 'out' must be Tensor, not "
                                f"{type(out).__name__}")
            if pre is not None:
                pre(args, kwargs)
            _refuse_overlap(op, out, args, kwargs)
            result = binding(*args, **kwargs)
            rule(out, result, args, kwargs)
            return write_out(op, out, result)
        checked.__doc__ = op.text
        if op.name == "where":
            return _where_one_arg(op, checked)
        return checked
    overload(op, make)


def _where_one_arg(op, full):
    """torch.where(condition) is torch.nonzero(condition, as_tuple=True) (handed to
    __torch_function__ as torch.where)."""
    def where(*args, **kwargs):
        if len(args) == 1 and not kwargs:
            from ... import nonzero
            from ...overrides import handle_public, has_torch_function_unary
            if has_torch_function_unary(args[0]):
                return handle_public(op.binding, args, kwargs)
            return nonzero(args[0], as_tuple=True)
        return full(*args, **kwargs)
    where.__doc__ = full.__doc__
    return where


# -- products (and the ops PyTorch checks like them) want an out tensor of exactly their
# result's dtype: exact_out ----------------------------------------------------------------

def _cpp(dtype):
    return _dtype.CPP_NAMES[dtype.name]


# PyTorch's message for an out= of the wrong dtype, by the kernel that checks it:
# kind -> f(got, want, args), got/want the dtypes' names (the default: C++ names)
_OUT_MESSAGES = {
    "dot": lambda got, want, args: f"result dtype {got} does not match input dtype {want}",
    "addmv": lambda got, want, args: (  # (a batch folded onto mv: the out's view is self)
        f"addmv input tensors must have the same dtype, but got {got}, "
        f"{_type_name(args[0].dtype)}, and {_type_name(args[1].dtype)}"),
    "tensordot": lambda got, want, args: (
        f"tensordot: Expected the output tensor to have dtype {want}, but got an output "
        f"tensor with dtype {got}"),
    "index_select": lambda got, want, args:
        "index_select(): self and result must have the same scalar type",
    "masked_select": lambda got, want, args:
        "masked_select(): self and result must have the same scalar type",
    "nonzero": lambda got, want, args:
        f"nonzero: Expected out tensor to have scalar type Long but got scalar type{got}",
    "take": lambda got, want, args: (
        f"take(): self and out expected to have the same dtype, but got self.dtype = "
        f"{want} and out.dtype = {got}"),
    "narrow_copy": lambda got, want, args:
        "Expected self.dtype() == output.dtype() to be true, but got false.",
    "searchsorted": lambda got, want, args: (
        f"torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) or "
        f"Long(int64) depending on whether out_int32 flag is True, but we got output tensor's "
        f"dtype {got} and out_int32 flag is {want == 'Int'}"),
}
_CPP_OUT_MESSAGES = {
    "multi_dot": "multi_dot(): expected out tensor to have dtype {want} but got {got}",
    "histc": "torch.histogram: input tensor and hist tensor should have the same dtype, but "
             "got input {want} and hist {got}",
    None: "Expected out tensor to have dtype {want}, but got {got} instead",
}


def _out_message(kind, result, out, args):
    if kind in _OUT_MESSAGES:
        return _OUT_MESSAGES[kind](_type_name(out.dtype), _type_name(result.dtype), args)
    text = _CPP_OUT_MESSAGES.get(kind, _CPP_OUT_MESSAGES[None])
    return text.format(want=_cpp(result.dtype), got=_cpp(out.dtype))


def _refuse_overlap(op, out, args, kwargs):
    """The generated binding's out= overlap check, for the public wrappers that write out=
    themselves."""
    if "reduction" not in op.tags:
        inputs = [a for a in (*args, *kwargs.values()) if isinstance(a, Tensor)]
        check_out_overlap(out, inputs, op.name in OUT_DISJOINT)


def _matmul_out_kind(args):
    """The product matmul runs (whose out= message PyTorch shows) for these ranks."""
    d1, d2 = (getattr(a, "ndim", 0) for a in args[:2])
    # (mv's own out= check is the generic one; a batch folded onto mv checks addmv's)
    return "dot" if d1 == d2 == 1 else \
        "addmv" if d2 == 1 and d1 >= 3 and _foldable(args[0]) else "mm"


def _foldable(t):
    """Whether matmul views t's batch dims as rows of one matrix (no copy: PyTorch folds
    then)."""
    shape, stride = t.shape, t.stride()
    return t.numel() == 0 or all(stride[i] == stride[i + 1] * shape[i + 1]
                                 for i in range(t.ndim - 2))


def exact_out(op, kind="mm", overlap=False):
    """Make op's out= take only its result's dtype (RuntimeError with PyTorch's message
    for `kind`), on top of any public wrapper op already has.  overlap: refuse an out=
    overlapping an input, as PyTorch's kernels other than the products do."""
    prev = op._public

    def make(generated):
        inner = prev(generated) if prev is not None else generated

        def public(*args, out=None, **kwargs):
            if out is None:
                return inner(*args, **kwargs)
            if overlap or op.name in OUT_DISJOINT:  # (PyTorch's products do not check)
                _refuse_overlap(op, out, args, kwargs)
            if _autocast.state.on:
                with _autocast.off():
                    return public(*args, out=out, **kwargs)
            r = inner(*args, **kwargs)
            if not isinstance(r, Tensor) or not isinstance(out, Tensor):
                return inner(*args, out=out, **kwargs)  # (its own out= handling/errors)
            k = _matmul_out_kind(args) if kind == "matmul" else kind
            # (inner with a 0-dim side is a mul: out= casts as for pointwise ops)
            strict = kind != "inner" or all(getattr(a, "ndim", 0) for a in args[:2])
            if strict and r.dtype is not out.dtype:
                raise RuntimeError(_out_message("tensordot" if k == "inner" else k, r, out,
                                                args))
            return write_out(op, out, r)
        return public
    overload(op, make)
