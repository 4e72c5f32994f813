"""torch._foreach_*: an op applied to each tensor of a list (EMA updates and hand-written
optimizers call them), one call per tensor.  Out-of-place forms return a tuple; in-place
forms (trailing `_`) return the list they were given (the same object), as PyTorch 2.13.  The other operand is a scalar, a list of scalars or of
tensors, or one tensor, as in PyTorch; addcmul / addcdiv also take their scalars as a
1-D tensor."""
from ._tensor import Tensor

_UNARY = ("abs", "acos", "asin", "atan", "ceil", "cos", "cosh", "erf", "erfc", "exp", "expm1",
          "floor", "frac", "lgamma", "log", "log10", "log1p", "log2", "neg", "reciprocal",
          "round", "rsqrt", "sigmoid", "sign", "sin", "sinh", "sqrt", "tan", "tanh", "trunc")
_BINARY = ("add", "sub", "mul", "div", "pow", "maximum", "minimum", "clamp_min", "clamp_max")


def _check(tensors):
    if not tensors:
        raise RuntimeError("Tensor list must have at least one tensor.")
    return list(tensors)


def _per_tensor(tensors, other, scalar_tensor=False):
    """other, one per tensor of the list."""
    if isinstance(other, (list, tuple)):
        if len(other) != len(tensors):
            if other and isinstance(other[0], Tensor):
                raise RuntimeError(f"Tensor lists must have the same number of tensors, got "
                                   f"{len(tensors)} and {len(other)}")
            raise RuntimeError("Tensor list must have same number of elements as scalar list.")
        return list(other)
    if scalar_tensor and isinstance(other, Tensor) and other.ndim == 1:
        return [other[i].item() for i in range(len(tensors))]
    return [other] * len(tensors)


def _apply(name, t, o, kwargs):
    import mindtorch as M
    if name in ("maximum", "minimum") and not isinstance(o, Tensor):
        name = "clamp_min" if name == "maximum" else "clamp_max"
    if name in ("clamp_min", "clamp_max"):
        return M.clamp(t, **{"min" if name == "clamp_min" else "max": o})
    return getattr(M, name)(t, o, **kwargs)


def _unary(name):
    def out_of_place(tensors):
        import mindtorch as M
        return tuple(getattr(M, name)(t) for t in _check(tensors))

    def in_place(tensors):
        for t in _check(tensors):
            getattr(t, name + "_")()
        return tensors
    return out_of_place, in_place


def _bind(args, kwargs, slots):
    """PyTorch's keyword names of the operands (each slot's aliases, e.g. _foreach_mul_(ps,
    scalar=d), _foreach_lerp_(ps, qs, weight=w)) moved to their positions."""
    args = list(args)
    for aliases in slots[len(args):]:
        hit = [a for a in aliases if a in kwargs]
        if not hit:
            break
        args.append(kwargs.pop(hit[0]))
    return args, kwargs


def _keywords(fn, slots):
    def bound(*args, **kwargs):
        args, kwargs = _bind(args, kwargs, slots)
        return fn(*args, **kwargs)
    bound.__name__ = bound.__qualname__ = fn.__name__
    return bound


_SLOTS = {"binary": (("self",), ("other", "scalar", "scalars", "exponent")),
          "lerp": (("self",), ("tensors1",), ("weight", "weights")),
          "addcmul": (("self",), ("tensor1",), ("tensor2",), ("value", "scalars"))}


def _binary(name):
    def out_of_place(tensors, other, **kwargs):
        import mindtorch as M
        if name == "pow" and not isinstance(tensors, (list, tuple)):  # scalar ** each tensor
            return tuple(M.pow(tensors, t) for t in _check(other))
        tensors = _check(tensors)
        return tuple(_apply(name, t, o, kwargs)
                     for t, o in zip(tensors, _per_tensor(tensors, other)))

    def in_place(tensors, other, **kwargs):
        for t, o in zip(_check(tensors), _per_tensor(tensors, other)):
            if name in ("add", "sub", "mul", "div", "pow"):
                getattr(t, name + "_")(o, **kwargs)
            else:
                t.copy_(_apply(name, t, o, kwargs))
        return tensors
    return out_of_place, in_place


def _described(seq):
    """A sequence as the argument parser names it: 'list of [Tensor]', 'tuple of (Tensor,)'."""
    names = [type(x).__name__ for x in seq]
    if isinstance(seq, list):
        return f"list of [{', '.join(names)}]"
    return f"{type(seq).__name__} of ({', '.join(names)}{',' if len(names) == 1 else ''})"


def _lerp_weight(fname, tensors, end, weight):
    """PyTorch's lerp overloads take a number (a 0-dim tensor without grad passes as one) or
    a list as the weight: any other tensor fails the argument parser."""
    if isinstance(weight, Tensor) and (weight.ndim or weight.requires_grad):
        got = ", ".join(type(a).__name__ for a in (tensors, end, weight))
        bad = f"(!{_described(tensors)}!, !{_described(end)}!, !Tensor!)"
        rows = "".join(f"\n * (tuple of Tensors self, tuple of Tensors tensors1, {w})\n      didn't "
                       f"match because some of the arguments have invalid types: {bad}"
                       for w in ("Number weight", "tuple of Scalars weight",
                                 "tuple of Tensors weights"))
        raise TypeError(f"{fname}() received an invalid combination of arguments - got "
                        f"({got}), but expected one of:{rows}\n")


def _ternary(name):
    """addcmul / addcdiv (tensor1, tensor2, then value: a scalar, a list of scalars or a
    1-D tensor of them) and lerp (end, then weight: a scalar or a list)."""
    def rows(fname, tensors, first, second, third=1):
        if name == "lerp":
            _lerp_weight(fname, tensors, first, second)
        tensors = _check(tensors)
        if name == "lerp":
            return tensors, zip(_per_tensor(tensors, first), _per_tensor(tensors, second))
        return tensors, zip(_per_tensor(tensors, first), _per_tensor(tensors, second),
                            _per_tensor(tensors, third, scalar_tensor=True))

    def out_of_place(tensors, first, second, *rest, **kwargs):
        import mindtorch as M
        tensors, args = rows(f"_foreach_{name}", tensors, first, second, *rest,
                             *kwargs.values())
        if name == "lerp":
            return tuple(M.lerp(t, e, w) for t, (e, w) in zip(tensors, args))
        return tuple(getattr(M, name)(t, x, y, value=v) for t, (x, y, v) in zip(tensors, args))

    def in_place(tensors, first, second, *rest, **kwargs):
        for t, r in zip(*rows(f"_foreach_{name}_", tensors, first, second, *rest,
                              *kwargs.values())):
            if name == "lerp":
                t.lerp_(*r)
            else:
                getattr(t, name + "_")(r[0], r[1], value=r[2])
        return tensors
    return out_of_place, in_place


def _norm(tensors, ord=2, dtype=None):
    import mindtorch as M
    return tuple(M.linalg.vector_norm(t, ord, dtype=dtype) for t in _check(tensors))


def _copy_(tensors, src, non_blocking=False):
    for t, s in zip(_check(tensors), _per_tensor(tensors, src)):
        t.copy_(s, non_blocking)
    return tensors


def _zero_(tensors):
    for t in _check(tensors):
        t.zero_()
    return tensors


FUNCTIONS = {"_foreach_norm": _norm, "_foreach_copy_": _copy_, "_foreach_zero_": _zero_,
             "_foreach_max": lambda tensors: tuple(t.max() for t in _check(tensors)),
             "_foreach_clone": lambda tensors, *, memory_format=None: tuple(
                 t.clone() for t in _check(tensors))}
for _name in _UNARY:
    FUNCTIONS[f"_foreach_{_name}"], FUNCTIONS[f"_foreach_{_name}_"] = _unary(_name)
for _name in _BINARY + ("addcmul", "addcdiv", "lerp"):
    _slots = _SLOTS["lerp" if _name == "lerp" else "binary" if _name in _BINARY else "addcmul"]
    _fns = _binary(_name) if _name in _BINARY else _ternary(_name)
    FUNCTIONS[f"_foreach_{_name}"], FUNCTIONS[f"_foreach_{_name}_"] = (
        _keywords(f, _slots) for f in _fns)
globals().update(FUNCTIONS)
