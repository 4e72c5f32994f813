"""Forward AD's jvp rules (see _forward.py).  A rule is `rule(op, args, tangents, outs)`:
args are the op's kernel arguments (values before the write for an in-place op),
tangents `{position: tangent}` for the arguments that have one (a list for Tensor[]),
outs the op's results; it returns the results' tangents (one, or a list; None for a
result without one) or NotImplemented to fall back on the double vjp.  Rules compute
with mindtorch ops only."""
from .. import _dtype as D
from .._tensor import Tensor
from .grad_mode import state

# ops linear in their differentiable tensor arguments taken together: the jvp is the op
# applied to the tangents (zeros for the arguments without one).  Every view op too.
LINEAR = frozenset("""
    clone contiguous _to_copy sum mean neg positive cumsum flip roll rot90 repeat tile
    index_select gather take take_along_dim masked_select masked_fill masked_scatter
    index_fill index_add index_copy scatter scatter_add diag diag_embed diagflat
    tril triu trace cat concat concatenate stack hstack vstack dstack column_stack
    narrow_copy select_copy slice_copy expand_copy permute_copy view_copy
    t_copy transpose_copy unsqueeze_copy squeeze_copy diagonal_copy unfold_copy
    as_strided_copy alias_copy detach_copy unbind_copy split_copy split_with_sizes_copy
    real imag conj conj_physical resolve_conj resolve_neg view_as_real view_as_complex
    view_as_real_copy view_as_complex_copy
    constant_pad_nd pad reflection_pad1d reflection_pad2d reflection_pad3d
    replication_pad1d replication_pad2d replication_pad3d
    avg_pool1d avg_pool2d avg_pool3d adaptive_avg_pool1d adaptive_avg_pool2d
    adaptive_avg_pool3d upsample_nearest1d upsample_nearest2d upsample_nearest3d
    upsample_linear1d upsample_bilinear2d upsample_trilinear3d upsample_bicubic2d
    pixel_shuffle pixel_unshuffle channel_shuffle im2col col2im
    _fft_c2c _fft_r2c _fft_c2r block_diag cartesian_prod embedding index put
""".split())  # noqa: SIM905

# multilinear ops: (positions of the factors, position of an additive term or None)
MULTILINEAR = {
    **{n: ((0, 1), None) for n in ("mm", "bmm", "mv", "dot", "matmul", "outer", "ger",
                                   "inner", "kron", "tensordot", "cross", "linalg_cross",
                                   "linalg_vecdot", "cdist_dot")},
    **{n: ((0, 1), 2) for n in ("linear", "conv1d", "conv2d", "conv3d", "convolution",
                                "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
                                "functional_linear")},
    **{n: ((1, 2), 0) for n in ("addmm", "addmv", "addr", "baddbmm", "addbmm")},
    "bilinear": ((0, 1, 2), 3),
    "einsum": ((1,), None),          # a Tensor[]: each operand is a factor
    "linalg_multi_dot": ((0,), None),
    "chain_matmul": ((0,), None),
}

# elementwise ops without the pointwise tag: their Jacobian is diagonal too
ELEMENTWISE = frozenset("""
    relu relu6 gelu silu mish elu selu celu leaky_relu hardtanh hardsigmoid hardswish
    hardshrink softshrink tanhshrink threshold softplus logsigmoid rrelu sigmoid tanh
    logit nan_to_num
""".split())  # noqa: SIM905


def rule_for(op):
    name = op.name
    if name in RULES:
        return RULES[name]
    base = _ops().get(name[:-1]) if name.endswith("_") and op.mutates else None
    if base is not None and "inplace_view" not in op.tags:  # x.op_(...): op's jvp
        rule = rule_for(base)
        if rule is not None and rule is not _zero:
            def inplace(op, args, T, outs):
                return rule(base, args, T, outs)
            inplace.uses_result = getattr(rule, "uses_result", False)
            return inplace
    if "inplace_view" in op.tags:
        return _inplace_view
    if name in MULTILINEAR:
        return _multilinear
    if "view" in op.tags or name in LINEAR:
        return _linear
    if op.formulas is not None and ("pointwise" in op.tags or name in ELEMENTWISE):
        return _elementwise
    if "random" in op.tags and op.mutates and op.name.endswith("_"):  # (normal_, ...)
        return _zero
    return None


def _ops():
    from .._ops import OPS
    return OPS


def _zeros(x):
    return x.new_zeros(x.shape) if isinstance(x, Tensor) else x


def _zero_or_none(x):
    """The tangent of a constant argument (indices and masks stay as they are)."""
    if isinstance(x, Tensor):
        return x.new_zeros(x.shape) if x.dtype in D.DIFFERENTIABLE else x
    if type(x) in (list, tuple):  # (a Tensor[] holds data: every element's tangent is 0)
        return [_zeros(t) for t in x]
    return x if x is None or type(x) is bool else 0


def _diff_names(op):
    if op.formulas is None:
        return None
    return {n.strip() for key, fn in op.formulas.items() for n in key.split(",")
            if not getattr(fn, "refuses_grad", False)}


def _arg_names(op):
    import keyword
    return [a.name + "_" if keyword.iskeyword(a.name) else a.name
            for a in op.schema.args if a.name != "requires_grad"]


def _linear(op, args, T, outs):
    names = _arg_names(op)
    diff = _diff_names(op)
    a = list(args)
    for i, x in enumerate(args):
        if i not in T and names[i] == "value":  # a fill value: its tangent is 0
            a[i] = _zero_or_none(x)  # a fill value: constant
        elif i in T:
            t = T[i]
            a[i] = [tj if tj is not None else _zeros(xj) for tj, xj in zip(t, x)] \
                if type(t) is list else t
        elif diff is None:  # (a composite: only its tensors are inputs)
            if _is_tensorish(x):
                a[i] = _zero_or_none(x)
        elif names[i] in diff:  # (a number there is a constant: its tangent is 0)
            a[i] = _zero_or_none(x)
    return _as_list(op.call(*a))


def _is_tensorish(x):
    return isinstance(x, Tensor) or (type(x) in (list, tuple) and
                                     any(isinstance(t, Tensor) for t in x))


def _as_list(r):
    """A rule's answer for an op returning several tensors: the differentiable ones."""
    if not isinstance(r, (tuple, list)):
        return r
    return [t if isinstance(t, Tensor) and t.dtype in D.DIFFERENTIABLE else None for t in r]


def _multilinear(op, args, T, outs):
    """Sum over the factors with a tangent of the op with that factor replaced by it; the
    additive term's tangent rides with the first product term (the op is affine in it)."""
    factors, additive = MULTILINEAR[op.name]
    terms = []
    carried = additive is None or additive not in T
    for p in factors:
        if p not in T:
            continue
        slots = [(p, j) for j, tj in enumerate(T[p]) if tj is not None] \
            if type(T[p]) is list else [(p, None)]
        for p_, j in slots:
            a = list(args)
            if j is None:
                a[p_] = T[p_]
            else:
                a[p_] = list(a[p_])
                a[p_][j] = T[p_][j]
            if additive is not None:
                a[additive] = T[additive] if not carried else _zero_or_none(args[additive])
                carried = True
            terms.append(op.call(*a))
    if not carried:  # only the additive term has a tangent
        a = list(args)
        a[factors[0]] = _zeros(args[factors[0]])
        a[additive] = T[additive]
        terms.append(op.call(*a))
    total = terms[0]
    for t in terms[1:]:
        total = total + t
    return total


def _elementwise(op, args, T, outs):
    """A diagonal Jacobian: the vjp formula with the tangent as gradient is the jvp."""
    out = outs[0]
    if len(outs) != 1 or not isinstance(out, Tensor) or out.dtype.is_complex or any(
            isinstance(a, Tensor) and a.dtype.is_complex for a in args):
        return NotImplemented
    names = _arg_names(op)
    index = {n: i for i, n in enumerate(names)}
    total = None
    for key, fn in op.formulas.items():
        keys = [n.strip() for n in key.split(",")]
        code = fn.__code__
        params = code.co_varnames[:code.co_argcount]
        for k, n in enumerate(keys):
            t = T.get(index.get(n))
            if t is None:
                continue
            if type(t) is list or "results" in params or "grads" in params or not params:
                return NotImplemented
            g = t if t._shape == out._shape else t.expand(out._shape)
            values = []
            for p in params:
                if p == "grad":
                    values.append(g)
                elif p == "result":
                    values.append(out)
                elif p.endswith("_geometry"):
                    x = out if p == "result_geometry" else args[index[p[:-9]]]
                    values.append((x._shape, x._stride, x._offset))
                else:
                    values.append(args[index[p]])
            r = fn(*values)
            if len(keys) > 1:
                r = r[k]
            if r is None:
                continue
            if r._shape != out._shape:
                return NotImplemented
            total = r if total is None else total + r
    return total if total is not None else _zeros(out)


def _inplace_view(op, args, T, outs):
    t = T.get(0)
    if t is None:
        return None
    return _ops()[op.name[:-1]].call(t, *args[1:])


def _zero(op, args, T, outs):
    return None  # the written tensor's tangent becomes zeros


def _copy(op, args, T, outs):
    return T.get(1)


def _softmax(op, args, T, outs):
    t, y = T[0], outs[0]
    if args[2] is not None:
        t = t.to(args[2])
    return y * (t - (t * y).sum(args[1], keepdim=True))


def _log_softmax(op, args, T, outs):
    t, y = T[0], outs[0]
    if args[2] is not None:
        t = t.to(args[2])
    return t - (t * y.exp()).sum(args[1], keepdim=True)


def _logcumsumexp(op, args, T, outs):
    """PyTorch's: cumsum(t e^(x - max)) / cumsum(e^(x - max)), 0 where that sum vanishes
    (the double vjp would read the formula at a zero gradient, whose log is -inf; the
    backward formula itself takes the logcumsumexp of -1e308 entries: no 0 / 0 there)."""
    x, dim = args[0], args[1]
    e = (x - x.amax(dim, keepdim=True)).exp() if not x.dtype.is_complex else \
        (x - x.real.amax(dim, keepdim=True)).exp()
    total = e.cumsum(dim)
    vanishing = total.abs() < 1e-13
    return (e * T[0]).cumsum(dim).masked_fill(vanishing, 0) / total.masked_fill(vanishing, 1)


def _selected(op, args, T, outs):
    """Ops choosing elements (values, indices): the values' tangent is gathered."""
    t, indices = T[0], outs[1]
    dim = {"sort": 1, "topk": 2, "kthvalue": 2, "mode": 1, "cummax": 1, "cummin": 1}[op.name]
    d = args[dim] % max(t.ndim, 1)
    keep = op.name in ("kthvalue", "mode") and not args[dim + 1]
    if t.ndim == 0:
        return [t.clone(), None]
    idx = indices.unsqueeze(d) if keep else indices
    g = t.gather(d, idx)
    return [g.squeeze(d) if keep else g, None]


def _normalized(x, tx, dims, eps):
    """(x normalized over dims, its tangent, the mean's and the rstd's tangents), from x
    itself (so that nested backward sees their history)."""
    mean = x.mean(dims, keepdim=True)
    centered = x - mean
    rstd = ((centered * centered).mean(dims, keepdim=True) + eps).rsqrt()
    xhat = centered * rstd
    if tx is None:
        return xhat, None, None, None
    t_mean = tx.mean(dims, keepdim=True)
    t_var = (xhat * tx).mean(dims, keepdim=True)  # (d rstd = -rstd^2 * t_var)
    return xhat, rstd * (tx - t_mean) - xhat * rstd * t_var, t_mean, -rstd * rstd * t_var


def _affine(xhat, t_xhat, w, tw, tb, channel_shape):
    """The tangent of xhat * w + b, w and b of channel_shape broadcast against xhat."""
    def bc(v):
        return v if channel_shape is None else v.reshape(channel_shape)
    total = None
    for term in (t_xhat if w is None or t_xhat is None else t_xhat * bc(w),
                 None if tw is None else xhat * bc(tw), None if tb is None else bc(tb)):
        if term is not None:
            total = term if total is None else total + term
    return total if total is not None else xhat.new_zeros(xhat.shape)


def _layer_norm(op, args, T, outs):
    x, shape, w, _, eps = args
    dims = tuple(range(x.ndim - len(shape), x.ndim))
    xhat, t_xhat, _, _ = _normalized(x, T.get(0), dims, eps)
    # (PyTorch gives the mean and rstd outputs no tangent here, unlike group norm's)
    return [_affine(xhat, t_xhat, w, T.get(2), T.get(3), None), None, None]


def _group_norm(op, args, T, outs):
    x, w, _, n, c, _, group, eps = args
    grouped = x.reshape(n, group, -1)
    tx = T.get(0)
    xhat, t_xhat, t_mean, t_rstd = _normalized(
        grouped, None if tx is None else tx.reshape(n, group, -1), (2,), eps)
    channel = (1, c) + (1,) * (x.ndim - 2)
    out = _affine(xhat.reshape(x.shape), None if t_xhat is None else t_xhat.reshape(x.shape),
                  w, T.get(1), T.get(2), channel)
    if t_mean is None:
        return [out, None, None]
    return [out, t_mean.reshape(n, group), t_rstd.reshape(n, group)]


def _batch_norm_training(op, args, T, outs):
    x, w, _, eps = args
    dims = (0,) + tuple(range(2, x.ndim))
    xhat, t_xhat, _, _ = _normalized(x, T.get(0), dims, eps)
    channel = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    return [_affine(xhat, t_xhat, w, T.get(1), T.get(2), channel)] + [None] * (len(outs) - 1)


def _cholesky(op, args, T, outs):
    """PyTorch's: dL = L phi(L^-1 dA L^-H), phi the lower triangle with half its diagonal
    (dA as given, not symmetrized)."""
    M = _ops()
    L = outs[0]
    upper = args[1] if len(args) > 1 and type(args[1]) is bool else False
    if upper:
        L = L.mH
    dA = T[0]
    inv = M["linalg_solve_triangular"].binding
    eye = M["eye"].binding(L.shape[-1], dtype=L.dtype, device=L.device)
    L_inv = inv(L, eye.expand(L.shape), upper=False)
    phi = L_inv @ dA @ L_inv.mH
    phi = phi.tril() - 0.5 * (phi * eye)
    dL = L @ phi
    return [dL.mH if upper else dL] + [None] * (len(outs) - 1)


def _eigh(op, args, T, outs):
    """PyTorch's: with P = V^H dA V (dA as given, not symmetrized), dL = diag(P) (its real
    part), dV = V (P_ij / (L_j - L_i)) off the diagonal, 0 on it."""
    from .._ops.decls.factorization_spectral import _eye_mask, _safe
    M = _ops()
    A, uplo = args[0], args[1] if len(args) > 1 else "L"
    L, V = (outs[0], outs[1]) if op.name == "linalg_eigh" else \
        M["linalg_eigh"].call(A, uplo)
    P = V.mH @ T[0].to(V.dtype) @ V
    dL = P.diagonal(0, -2, -1)
    dL = dL.real if dL.dtype.is_complex else dL
    if op.name != "linalg_eigh":
        return [dL]
    eye = _eye_mask(L._shape[-1], L.device)
    E = L.unsqueeze(-2) - L.unsqueeze(-1)
    dV = M["where"].call(eye, 0, P / _safe(M["where"].call(eye, 1, E)))
    return [dL, V @ dV]


def _rrelu_with_noise(op, args, T, outs):
    """The drawn slopes (1 for non-negative inputs) scale the tangent; in eval, the mean."""
    x, noise, lower, upper, training = args[:5]
    t = T.get(0)
    if t is None:
        return None
    if training:
        return t * noise
    return t * _ops()["where"].call(x >= 0, 1.0, (lower + upper) / 2)


def _not_implemented(op, args, T, outs):
    # (samplers whose derivative reads the sample: a double vjp would draw a new one)
    raise NotImplementedError(f"Trying to use forward AD with {op.name} that does not support "
                              f"it because it has not been implemented yet.")


# rules reading the op's result: when tangents need history (backward through them) the
# result is recomputed with it (the kernel ran below autograd)
for _rule in (_elementwise, _softmax, _log_softmax, _cholesky, _eigh):
    _rule.uses_result = True

RULES = {
    "rrelu_with_noise": _rrelu_with_noise,
    "_standard_gamma": _not_implemented, "_sample_dirichlet": _not_implemented,
    "linalg_cholesky": _cholesky, "linalg_cholesky_ex": _cholesky, "cholesky": _cholesky,
    "native_layer_norm": _layer_norm,
    "native_group_norm": _group_norm,
    "_batch_norm_training": _batch_norm_training,
    "copy_": _copy,
    "fill_": lambda op, args, T, outs: T.get(1),
    "zero_": _zero,
    "softmax": _softmax,
    "log_softmax": _log_softmax,
    "logcumsumexp": _logcumsumexp,
    "linalg_eigh": _eigh, "linalg_eigvalsh": _eigh,
    **{n: _selected for n in ("sort", "topk", "kthvalue", "mode", "cummax", "cummin")},
}


# -- the generic rule -------------------------------------------------------------------

def double_vjp(op, args, T, outs, mutated, nested):
    """J t as the gradient of <J^T g, t> (real inner product) with respect to g, g being
    zeros: two reverse passes through the op's formulas (or its decomposition's)."""
    import mindtorch as M
    diff = [k for k, o in enumerate(outs) if isinstance(o, Tensor) and
            o.dtype in D.DIFFERENTIABLE]
    if not diff:
        return [None] * len(outs)
    prev, state.enabled = state.enabled, True
    try:
        a, xs, ts = list(args), [], []

        def stand_in(v, t):
            # (with history: an alias, so that the gradient captured for it is the op's own,
            # not what reaches v through another argument computed from v)
            x = v.view_as(v) if nested and v.requires_grad else v.detach().requires_grad_()
            xs.append(x)
            ts.append(t)
            return x
        refused = {i for i, a in enumerate(op.schema.args) if getattr(
            (op.formulas or {}).get(a.name), "refuses_grad", False)}
        for p, t in T.items():
            if p in refused:  # (a loss's weight: PyTorch's tangent ignores it too)
                continue
            if type(t) is list:
                a[p] = [stand_in(v, tj) if tj is not None else v for v, tj in zip(a[p], t)]
            else:
                x = stand_in(a[p], t)
                a[p] = x.clone() if p in mutated else x  # (a leaf is not written to)
        for m in mutated:
            if m not in T:
                a[m] = a[m].clone()
        r = op.call(*a)
        rs = list(r) if isinstance(r, (tuple, list)) else [r]
        ys = [rs[k] for k in diff if rs[k].requires_grad]
        gs = [M.zeros_like(y).requires_grad_() for y in ys]
        vs = M.autograd.grad(ys, xs, gs, create_graph=True, allow_unused=True) if ys else \
            [None] * len(xs)
        s = None
        for v, t in zip(vs, ts):
            if v is None:
                continue
            term = (v.conj() * t).real.sum() if v.dtype.is_complex else (v * t).sum()
            s = term if s is None else s + term
        jts = M.autograd.grad(s, gs, create_graph=nested, allow_unused=True) \
            if s is not None and s.requires_grad else [None] * len(gs)
    finally:
        state.enabled = prev
    it = iter(jts)
    result = [None] * len(outs)
    for k in diff:
        jt = next(it) if rs[k].requires_grad else None
        result[k] = jt if jt is not None else _zeros(outs[k])
    return result
