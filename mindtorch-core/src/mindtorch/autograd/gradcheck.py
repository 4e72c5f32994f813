"""gradcheck / gradgradcheck: analytical gradients against central finite differences.

Both Jacobians are built with mindtorch ops on the inputs' device; inputs should be
float64 for the finite differences to be meaningful (a warning says so otherwise)."""
import warnings

from .._tensor import Tensor


class GradcheckError(RuntimeError):
    pass


def _as_tuple(x):
    return (x,) if isinstance(x, Tensor) else tuple(x)


def _real_outputs(func):
    """func with each complex output seen as a real (..., 2) tensor, so that both parts are
    checked (a gradient from a real grad_output covers the real part only)."""
    def real(*args):
        import mindtorch
        return tuple(mindtorch.view_as_real(o) if isinstance(o, Tensor) and o.dtype.is_complex
                     else o for o in _as_tuple(func(*args)))
    return real


def _unravel(j, shape):
    idx = []
    for n in reversed(shape):
        idx.append(j % n)
        j //= n
    return tuple(reversed(idx))


def _differentiable_outputs(outputs):
    return [o for o in outputs if isinstance(o, Tensor) and o.requires_grad]


def _differentiable_positions(outputs):
    return [k for k, o in enumerate(outputs) if isinstance(o, Tensor) and o.requires_grad]


def _numerical_jacobians(func, inputs, x, eps, positions):
    """One (numel(x), numel(out)) Jacobian per output: column j is d out / d x[j] (for a
    complex x, d out / d Re x[j] + 1j * d out / d Im x[j]: PyTorch's gradient convention
    for the real outputs gradcheck compares)."""
    import mindtorch
    data = x.detach()
    steps = (eps, eps * 1j) if x.dtype.is_complex else (eps,)
    columns = None
    for j in range(x.numel()):
        idx = _unravel(j, x.shape)
        diffs = [_central_difference(func, inputs, positions, data, idx, h) for h in steps]
        if len(diffs) == 2:
            diffs = [[r + 1j * i for r, i in zip(*diffs)]]
        if columns is None:
            columns = [[] for _ in diffs[0]]
        for c, d in zip(columns, diffs[0]):
            c.append(d)
    if columns is None:
        return None
    return [mindtorch.stack(c) if c else None for c in columns]


def _central_difference(func, inputs, positions, data, idx, h):
    """(f(x + h e_idx) - f(x - h e_idx)) / (2 |h|) per output, x restored afterwards."""
    from .grad_mode import no_grad
    orig = data[idx].item()
    outs = []
    for step in (h, -h):
        with no_grad():
            data[idx] = orig + step
        outs.append([o.detach().clone().reshape(-1)
                     for o in _outputs_of(func, inputs, positions)])
    with no_grad():
        data[idx] = orig
    return [(p - m) / (2 * abs(h)) for p, m in zip(*outs)]


def _outputs_of(func, inputs, positions):
    """The outputs at `positions` (those that required grad in the analytical run)."""
    outputs = _as_tuple(func(*inputs))
    return [outputs[k] for k in positions]


def _analytical_jacobians(output, xs):
    """Per input x of xs, (numel(x), numel(output)): column k is the gradient of output[k]
    (one backward per element of output, for all the inputs at once, as PyTorch)."""
    import mindtorch

    from . import grad
    columns = [[] for _ in xs]
    for k in range(output.numel()):
        g_out = mindtorch.zeros(output.shape, dtype=output.dtype, device=output.device)
        g_out.view(-1)[k] = 1
        grads = grad(output, xs, g_out, retain_graph=True, allow_unused=True)
        for c, x, g in zip(columns, xs, grads):
            c.append(mindtorch.zeros_like(x).reshape(-1) if g is None else g.reshape(-1))
    return [mindtorch.stack(c, 1) if c else
            mindtorch.zeros(x.numel(), 0, dtype=x.dtype, device=x.device)
            for c, x in zip(columns, xs)]


_NONDET_NOTE = """\n
NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `nondet_tol=<tol>` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_nondet_tol=<tol>`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_nondet_tol=<tol>`
"""


def _check_reentrant(first, second, nondet_tol):
    """The two backward runs' Jacobians agree within nondet_tol (a backward that gives
    different values for the same input and grad_output fails, as in PyTorch)."""
    if any(a.numel() and (a - b).abs().max() > nondet_tol for a, b in zip(first, second)):
        raise GradcheckError(
            "Backward is not reentrant, i.e., running backward with same input and "
            "grad_output multiple times gives different values, although analytical "
            f"gradient matches numerical gradient.The tolerance for nondeterminism was "
            f"{nondet_tol}." + _NONDET_NOTE)


def _grads_for_zero_grad_outputs(outputs, xs):
    import mindtorch

    from . import grad
    return grad(outputs, xs, [mindtorch.zeros_like(o) for o in outputs], retain_graph=True,
                allow_unused=True)


def _check_backward_scales_with_grad_output(grads, xs):
    """Zero output gradients must have given zero input gradients (of the inputs' dtype,
    device and size): a backward that ignores grad_output is the bug this catches."""
    for g, x in zip(grads, xs):
        if g is None:
            continue
        if not bool(((g.to_dense() if g.is_sparse else g) == 0).all()):
            raise GradcheckError("backward not multiplied by grad_output")
        if g.dtype != x.dtype:
            raise GradcheckError("grad is incorrect type")
        if g.device != x.device:
            raise GradcheckError("grad is incorrect device")
        if g.shape != x.shape:
            raise GradcheckError("grad is incorrect size")


def _forward_jacobians(func, inputs, i, x, positions):
    """Per output at `positions`, (numel(x), numel(out)) by forward AD: row j is the outputs'
    tangent for the tangent e_j on x (for a complex x, that of e_j plus 1j times that of
    1j e_j: the numerical Jacobian's convention)."""
    import mindtorch

    from . import forward_ad as fw
    rows = [[] for _ in positions]
    for j in range(x.numel()):
        parts = []
        for unit in ((1, 1j) if x.dtype.is_complex else (1,)):
            tangent = mindtorch.zeros_like(x, requires_grad=False)
            tangent.view(-1)[j] = unit
            with fw.dual_level():
                args = list(inputs)
                args[i] = fw.make_dual(x.detach(), tangent)
                outs = _outputs_of(func, args, positions)
                parts.append([mindtorch.zeros(o.numel(), dtype=o.dtype, device=o.device)
                              if t is None else t.detach().reshape(-1).clone()
                              for o, t in ((o, fw.unpack_dual(o).tangent) for o in outs)])
        row = parts[0] if len(parts) == 1 else [r + 1j * m for r, m in zip(*parts)]
        for r, t in zip(rows, row):
            r.append(t)
    return [mindtorch.stack(r) for r in rows]


def _check(a, n, out_index, in_index, mode, atol, rtol, prefix=""):
    if n is None:
        return
    n = n.to(a.dtype)
    if a.shape != n.shape:
        n = n.reshape(a.shape)
    if not bool(((a - n).abs() <= atol + rtol * n.abs()).all()):
        raise GradcheckError(f"{prefix}Jacobian {mode}mismatch for output {out_index} with "
                             f"respect to input {in_index},\nnumerical:{n}\nanalytical:{a}\n")


def _part_outputs(func, part):
    """func with each complex output replaced by its real or imaginary part."""
    def run(*args):
        return tuple(getattr(o, part) if isinstance(o, Tensor) and o.dtype.is_complex else o
                     for o in _as_tuple(func(*args)))
    return run


def _backward_parts(func, outputs):
    """(func, message prefix per differentiable output) to check backward AD with: for
    complex outputs, the imaginary parts then the real parts (PyTorch's order)."""
    complex_at = [k for k, o in enumerate(outputs) if o.dtype.is_complex]
    if not complex_at:
        return [(func, {})]
    return [(_part_outputs(func, part), {
        k: f"While considering the {name} part of complex outputs only, " for k in complex_at})
        for part, name in (("imag", "imaginary"), ("real", "real"))]


def _check_backward(func, inputs, wrt, eps, atol, rtol, nondet_tol, prefixes):
    """Backward-mode Jacobians (computed twice: the reentrancy check) against finite
    differences, output by output."""
    all_outputs = _as_tuple(func(*inputs))
    positions = _differentiable_positions(all_outputs)
    xs = [x for _, x in wrt]
    # analytical first: the finite differences write to the inputs, which the recorded
    # graph would see as an in-place modification
    backward = [(_analytical_jacobians(all_outputs[k], xs),
                 _analytical_jacobians(all_outputs[k], xs)) for k in positions]
    # numerical[j][k]: output k with respect to the j-th input requiring grad
    numerical = [_numerical_jacobians(func, inputs, x, eps, positions) or
                 [None] * len(positions) for _, x in wrt]
    for k, (first, second) in enumerate(backward):
        _check_reentrant(first, second, nondet_tol)
        for j, a in enumerate(first):
            _check(a, numerical[j][k], k, j, "", atol, rtol, prefixes.get(k, ""))


def _check_forward(func, inputs, wrt, eps, atol, rtol):
    func = _real_outputs(func)
    positions = _differentiable_positions(_as_tuple(func(*inputs)))
    forward = [_forward_jacobians(func, inputs, i, x, positions) for i, x in wrt]
    for j, ((_, x), fwd) in enumerate(zip(wrt, forward)):
        numerical = _numerical_jacobians(func, inputs, x, eps, positions) or []
        for k, (a, n) in enumerate(zip(fwd, numerical)):
            _check(a, n, k, j, "computed with forward mode ", atol, rtol)


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
              nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
              check_batched_grad=False, check_batched_forward_grad=False,
              check_forward_ad=False, check_backward_ad=True, fast_mode=False, masked=None):
    """True if func's analytical gradients w.r.t. every input that requires grad match
    finite differences (|a - n| <= atol + rtol * |n|); raises GradcheckError otherwise
    (or returns False with raise_exception=False)."""
    inputs = _as_tuple(inputs)
    wrt = [(i, x) for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
    if not wrt:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but "
                         "none of them have requires_grad=True.")
    for _, x in wrt:
        if x.dtype.itemsize < 8 * (1 + x.dtype.is_complex):  # neither float64 nor complex128
            warnings.warn(f"Input #{_} requires gradient and is not a double precision floating "
                          f"point or complex. This check will likely fail if all the inputs are "
                          f"not of double precision floating point or complex. ", UserWarning,
                          stacklevel=2)
    outputs = _differentiable_outputs(_as_tuple(func(*inputs)))
    try:
        if check_backward_ad:
            for part, prefixes in _backward_parts(func, outputs):
                _check_backward(part, inputs, wrt, eps, atol, rtol, nondet_tol, prefixes)
        if check_forward_ad:
            _check_forward(func, inputs, wrt, eps, atol, rtol)
        if check_backward_ad and outputs:
            outputs = _differentiable_outputs(_as_tuple(func(*inputs)))  # (a fresh graph)
            xs = [x for _, x in wrt]
            _check_backward_scales_with_grad_output(
                _grads_for_zero_grad_outputs(outputs, xs), xs)
    except GradcheckError:
        if raise_exception:
            raise
        return False
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False,
                  check_batched_grad=False, check_fwd_over_rev=False, check_rev_over_rev=True,
                  fast_mode=False, masked=False):
    """gradcheck of the gradients themselves (second derivatives), with random (or given)
    output gradients that are themselves differentiated."""
    import mindtorch

    from . import grad
    inputs = _as_tuple(inputs)
    outputs = _differentiable_outputs(_as_tuple(func(*inputs)))
    if grad_outputs is None:  # (from the global generator, as PyTorch's)
        grad_outputs = [mindtorch.testing.make_tensor(
            o.shape, dtype=o.dtype if o.dtype.is_floating_point or o.dtype.is_complex
            else mindtorch.float64, device=o.device, low=-1, high=1, requires_grad=True,
            noncontiguous=gen_non_contig_grad_outputs) for o in outputs]
    grad_outputs = list(_as_tuple(grad_outputs))
    n_in = len(inputs)
    diff = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]

    def first_derivatives(*args):
        ins, gos = args[:n_in], args[n_in:]
        outs = _differentiable_outputs(_as_tuple(func(*ins)))
        grads = grad(outs, [ins[i] for i in diff], gos, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_derivatives, tuple(inputs) + tuple(grad_outputs), eps=eps,
                     atol=atol, rtol=rtol, raise_exception=raise_exception)
