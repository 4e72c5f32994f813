"""autograd.functional: vjp, jvp, jacobian, hessian, vhp, hvp, built on autograd.grad
(reverse mode only; jvp and hvp use the double-backward trick)."""
from .._tensor import Tensor


def _tuple(x, what, fn):
    """(whether x is a tuple, x as a tuple of tensors), with PyTorch's messages."""
    is_tuple = isinstance(x, tuple)
    items = x if is_tuple else (x,)
    for i, t in enumerate(items):
        if not isinstance(t, Tensor):
            where = f"value at index {i}" if is_tuple else f"given {what}"
            raise TypeError(f"The {what} given to {fn} must be either a Tensor or a tuple of "
                            f"Tensors but the {where} has type {type(t)}.")
    return is_tuple, items


_OUTPUTS = "outputs of the user-provided function"


def _prepare(inputs, create_graph):
    """Inputs as leaves that require grad (and that are not the caller's tensors)."""
    return tuple(t.detach().requires_grad_(True) if not create_graph or not t.requires_grad
                 else t.view_as(t) for t in inputs)


_STRICT = {  # PyTorch's strict-mode messages: a value not requiring grad, a None gradient
    "outputs": "Output {i} of the user-provided function does not require gradients. The "
               "outputs must be computed in a differentiable manner from the input when "
               "running in strict mode.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided "
                "function with respect to input {i} is independent of the input. This is not "
                "allowed in strict mode. You should ensure that your function is twice "
                "differentiable and that the jacobian depends on the inputs (this would be "
                "violated by a linear function for example).",
    "back": "The output of the user-provided function is independent of input {i}. This is "
            "not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. "
                   "This is not allowed in strict mode.",
}


def _check_requires_grad(values, kind, strict):
    for i, t in enumerate(values if strict else ()):
        if not t.requires_grad:
            raise RuntimeError(_STRICT[kind].format(i=i))


def _grads(outputs, inputs, grad_outputs, create_graph, strict, stage="back", out_index=None,
           inner=False):
    from . import grad
    import mindtorch
    diff = [o for o in outputs if o.requires_grad]
    gos = [g for o, g in zip(outputs, grad_outputs) if o.requires_grad]
    got = grad(diff, inputs, gos, create_graph=True, allow_unused=True) if diff else \
        (None,) * len(inputs)
    result = []
    for i, (g, t) in enumerate(zip(got, inputs)):
        if g is None:
            if strict:
                raise RuntimeError(_STRICT.get(stage, stage).format(i=i))
            g = mindtorch.zeros_like(t)
        elif strict and create_graph and not inner and not g.requires_grad:
            _refuse_constant(stage == "double_back", i if out_index is None else out_index)
        result.append(g if create_graph else g.detach())
    return tuple(result)


def _refuse_constant(double, i):
    """strict with create_graph: a derivative that does not depend on the inputs."""
    raise RuntimeError(f"The {'hessian' if double else 'jacobian'} of the user-provided "
                       f"function is independent of input {i}. This is not allowed in strict "
                       f"mode when create_graph=True.")


def _vector(v, refs, refs_tuple, fn):
    """The vector v of a product, shaped as refs (the outputs for vjp, the inputs
    otherwise); ones when not given and refs is one single-element tensor."""
    import mindtorch
    if v is None:
        if len(refs) != 1 or refs[0].numel() != 1:
            raise RuntimeError("The vector v can only be None if the user-provided function "
                               "returns a single Tensor with a single element." if fn == "vjp"
                               else "The vector v can only be None if the input to the "
                               "user-provided function is a single Tensor with a single "
                               "element.")
        return (mindtorch.ones_like(refs[0]),)
    _, v = _tuple(v, "v", fn)
    if len(v) != len(refs):
        raise RuntimeError(f"v is a tuple of invalid length: should be {len(refs)} but got "
                           f"{len(v)}." if refs_tuple else
                           "The given v should contain a single Tensor.")
    for i, (a, b) in enumerate(zip(v, refs)):
        if a.shape != b.shape:
            raise RuntimeError(f"{f'Entry {i} in ' if refs_tuple else ''}v has invalid size: "
                               f"should be {b.shape} but got {a.shape}.")
    return v


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T J): the vector-Jacobian product at inputs."""
    is_tuple, inputs = _tuple(inputs, "inputs", "vjp")
    inputs = _prepare(inputs, create_graph)
    out_tuple, outputs = _tuple(func(*inputs), _OUTPUTS, "vjp")
    _check_requires_grad(outputs, "outputs", strict)
    v = _vector(v, outputs, out_tuple, "vjp")
    res = _grads(outputs, inputs, v, create_graph, strict)
    outputs = tuple(o if create_graph else o.detach() for o in outputs)
    return (outputs if out_tuple else outputs[0]), (res if is_tuple else res[0])


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), J v): the Jacobian-vector product, as the vjp of a vjp."""
    import mindtorch
    from . import grad
    is_tuple, inputs = _tuple(inputs, "inputs", "jvp")
    inputs = _prepare(inputs, create_graph)
    v = _vector(v, inputs, is_tuple, "jvp")
    out_tuple, outputs = _tuple(func(*inputs), _OUTPUTS, "jvp")
    _check_requires_grad(outputs, "outputs", strict)
    # u -> J^T u is linear in u: its vjp with v is J v
    us = tuple(mindtorch.zeros_like(o).requires_grad_(True) for o in outputs)
    diff = [(o, u) for o, u in zip(outputs, us) if o.requires_grad]
    if diff:
        jt_u = grad([o for o, _ in diff], inputs, [u for _, u in diff], create_graph=True,
                    allow_unused=True)
    else:
        jt_u = (None,) * len(inputs)
    for i, g in enumerate(jt_u if strict else ()):
        if g is None:
            raise RuntimeError(_STRICT["back"].format(i=i))
    pairs = [(g, w) for g, w in zip(jt_u, v) if g is not None]
    res = grad([g for g, _ in pairs], us, [w for _, w in pairs], create_graph=create_graph,
               allow_unused=True) if pairs else (None,) * len(us)
    for i, r in enumerate(res if strict and create_graph else ()):
        if r is not None and not r.requires_grad:
            _refuse_constant(False, i)
    res = tuple(mindtorch.zeros_like(o) if r is None else (r if create_graph else r.detach())
                for r, o in zip(res, outputs))
    outputs = tuple(o if create_graph else o.detach() for o in outputs)
    return (outputs if out_tuple else outputs[0]), (res if out_tuple else res[0])


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False,
             strategy="reverse-mode"):
    """d func(inputs) / d inputs: for output shape O and input shape I, a tensor of shape
    O + I (tuples of them for several inputs or outputs)."""
    import mindtorch
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". '
                             'Hint: If your function has more outputs than inputs, '
                             '"forward-mode" tends to be more performant. Otherwise, prefer to '
                             'use "reverse-mode".')
    if strategy == "forward-mode" and create_graph:
        raise NotImplementedError('torch.autograd.functional.jacobian: `create_graph=True` and '
                                  '`strategy="forward-mode"` are not supported together (yet). '
                                  'Please either set `create_graph=False` or '
                                  '`strategy="reverse-mode"`.')
    if strategy == "forward-mode" and strict:
        raise RuntimeError('torch.autograd.functional.jacobian: `strict=True` and '
                           '`strategy="forward-mode"` are not supported together (yet). '
                           'Please either set `strict=False` or `strategy="reverse-mode"`.')
    is_tuple, inputs = _tuple(inputs, "inputs", "jacobian")
    if strategy == "forward-mode" and not vectorize:  # (PyTorch's message, typo included)
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse "
                                  "Hessian isonly implemented for `vectorize=True`.")
    inputs = _prepare(inputs, create_graph)
    out_tuple, outputs = _tuple(func(*inputs), _OUTPUTS, "jacobian")
    _check_requires_grad(outputs, "outputs", strict)
    if strict and vectorize:
        raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and "
                           "`vectorized=True` are not supported together. Please either set "
                           "`strict=False` or `vectorize=False`.")
    rows = []
    for n, o in enumerate(outputs):
        per_input = [[] for _ in inputs]
        flat = o.reshape(-1)
        for k in range(flat.numel()):  # (implicit grad_outputs: complex outputs refused)
            grads = _grads((flat[k],), inputs, (None,), create_graph, strict,
                           f"Output {n} of the user-provided function is independent of "
                           f"input {{i}}. This is not allowed in strict mode.", n)
            for j, g in enumerate(grads):
                per_input[j].append(g)
        rows.append(tuple(
            (mindtorch.stack(per_input[j]) if per_input[j] else
             mindtorch.zeros((0,) + tuple(t.shape), dtype=t.dtype, device=t.device))
            .reshape(tuple(o.shape) + tuple(t.shape)) for j, t in enumerate(inputs)))
    if strategy == "forward-mode":  # PyTorch's forward mode nests lists, not tuples
        rows = [list(r) for r in rows]
    else:
        rows = tuple(rows)
    if not is_tuple:
        rows = tuple(r[0] for r in rows)
    return rows if out_tuple else rows[0]


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The matrix of second derivatives of a scalar func at inputs."""
    is_tuple, inputs_t = _tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def gradient(*xs):
        out = _single(func(*xs), strict, "hessian")
        grads = _grads((out,), xs, (_one(out),), True, strict, inner=True)
        _check_requires_grad(grads, "jacobian", strict)
        return grads if is_tuple else grads[0]
    return jacobian(gradient, inputs_t if is_tuple else inputs_t[0], create_graph=create_graph,
                    strict=strict, vectorize=vectorize, strategy=outer_jacobian_strategy)


def _single(out, strict, fn):
    """func's output for hessian / vhp / hvp: one tensor with one element."""
    out_tuple, outs = _tuple(out, _OUTPUTS, fn)
    _check_requires_grad(outs, "outputs", strict)
    if out_tuple:
        raise RuntimeError(f"The function given to {fn} should return a single Tensor")
    if out.numel() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn} should contain "
                           f"a single element")
    return out


def _one(t):
    import mindtorch
    return mindtorch.ones_like(t)


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T H) for a scalar func."""
    return _vhp(func, inputs, v, create_graph, strict, "vhp")


def _vhp(func, inputs, v, create_graph, strict, _fn):
    is_tuple, inputs_t = _tuple(inputs, "inputs", _fn)
    inputs_t = _prepare(inputs_t, True)
    v = _vector(v, inputs_t, is_tuple, _fn)
    out = _single(func(*inputs_t), strict, _fn)
    grads = _grads((out,), inputs_t, (_one(out),), True, strict, inner=True)
    _check_requires_grad(grads, "jacobian", strict)
    res = _grads(grads, inputs_t, v, create_graph, strict, "double_back")
    out = out if create_graph else out.detach()
    return out, (res if is_tuple else res[0])


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), H v) for a scalar func (H is symmetric: the same as v^T H)."""
    return _vhp(func, inputs, v, create_graph, strict, "hvp")
