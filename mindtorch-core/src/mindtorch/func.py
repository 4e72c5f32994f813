"""torch.func (a subset): vmap maps a function over a batch dim by calling it once per
slice and stacking the results (PyTorch's results, without its batching rules' speed);
grad / grad_and_value differentiate through mindtorch's autograd, nesting like
PyTorch's (grad(grad(f))); vjp, jacrev and hessian likewise through reverse mode; jvp and
jacfwd through forward mode (autograd.forward_ad: one pass per tangent), or, inside a dual
level (forward AD does not nest), by the double-backward trick and reverse rows;
functional_call is nn.utils.stateless's, taking several dicts, and stack_module_state
stacks the states of an ensemble for it."""
__all__ = ["debug_unwrap", "functional_call", "functionalize", "grad", "grad_and_value",
           "hessian", "jacfwd", "jacrev", "jvp", "linearize", "replace_all_batch_norm_modules_",
           "stack_module_state", "vjp", "vmap"]

from .autograd.function import under_transform  # noqa: E402  (Functions refuse old style)


def _tree_map(fn, tree):
    if isinstance(tree, (tuple, list)):
        items = [_tree_map(fn, t) for t in tree]
        return type(tree)(*items) if hasattr(tree, "_fields") else type(tree)(items)
    if isinstance(tree, dict):
        return {k: _tree_map(fn, v) for k, v in tree.items()}
    return fn(tree)


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """func mapped over dim in_dims of its arguments (per argument: a dim for every tensor
    of that argument's pytree, or None to pass it whole), by one call per slice; the
    results' tensors stacked at out_dims."""
    import contextlib
    import functools

    import mindtorch as M

    from . import _vmap_batched

    from ._tensor import Tensor
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or "
                           f"'same'. Got {randomness}")
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    def mapped(*args, **kwargs):
        name = _name(func)
        if any(d is not None and type(d) is not int for d in _leaves(out_dims)):
            raise ValueError(f"vmap({name}, ..., out_dims={out_dims}): `out_dims` must be an "
                             f"int, None or a python collection of ints representing where in "
                             f"the outputs the vmapped dimension should appear.")
        n = _mapped_size(func, in_dims, args)
        dims = in_dims if isinstance(in_dims, tuple) else (in_dims,) * len(args)

        level = set()  # the storages of the mapped tensors: their slices are batched

        def sliced(t, d, i):
            level.add(id(t._storage))
            if not n:  # (an empty batch: func sees one placeholder slice)
                return tracker.mark(t.new_zeros(tuple(k for j, k in enumerate(t.shape)
                                                      if j != d % t.dim())))
            return tracker.mark(t.select(d, i))

        def piece(a, d, i):  # d: an int or None for all of a's leaves, or a's structure
            if d is None:
                return a
            if isinstance(d, int):
                return _tree_map(lambda t: sliced(t, d, i) if isinstance(t, Tensor) else t, a)
            if isinstance(d, dict):
                return {k: piece(a[k], d[k], i) for k in a}
            return type(a)(piece(x, dx, i) for x, dx in zip(a, d))
        # randomness (the default generator's): "different" draws on for every slice,
        # "same" replays the first slice's draws, "error" refuses any draw
        start = None if randomness == "different" else M.get_rng_state()
        results = []
        VMAP_LEVELS.append(level)
        tracker = _vmap_batched.Batched(randomness, n)
        try:
            with under_transform():
                for i in range(max(n, 1)):
                    if randomness == "same" and i:
                        M.set_rng_state(start)
                    sliced_args = [piece(a, d, i) for a, d in zip(args, dims)]
                    # (the first slice runs tracked: PyTorch's refusals come up in every
                    # slice alike, so the others run at full speed)
                    with tracker if i == 0 else contextlib.nullcontext():
                        results.append(func(*sliced_args, **kwargs))
                    if randomness == "error" and not M.equal(M.get_rng_state(), start):
                        M.set_rng_state(start)
                        raise RuntimeError(_RANDOM_ERROR)
        finally:
            VMAP_LEVELS.pop()
        return _unbatch(results, out_dims, name, n)
    return functools.wraps(func)(mapped)


def _name(func):
    if hasattr(func, "__name__"):
        return func.__name__
    import functools
    if isinstance(func, functools.partial):
        return f"functools.partial({_name(func.func)}, ...)"
    return repr(func)


def _out_dims_per_leaf(d, tree):
    """out_dims broadcast over the output pytree's leaves (None: they do not fit)."""
    if d is None or type(d) is int:
        return [d] * len(_leaves(tree))
    if isinstance(d, dict):
        if not (isinstance(tree, dict) and tree.keys() == d.keys()):
            return None
        parts = [_out_dims_per_leaf(d[k], tree[k]) for k in tree]
    else:
        if type(tree) is not type(d) or len(tree) != len(d):
            return None
        parts = [_out_dims_per_leaf(dk, tk) for dk, tk in zip(d, tree)]
    return None if any(p is None for p in parts) else [x for p in parts for x in p]


def _unbatch(results, out_dims, name, n):
    """The slices' outputs as one pytree: tensors stacked at their out_dim (PyTorch's
    checks of out_dims against the outputs' structure)."""
    import mindtorch as M

    from ._tensor import Tensor
    from .utils._pytree import tree_flatten
    first = results[0]
    if isinstance(first, Tensor) and isinstance(out_dims, tuple) and len(out_dims) == 1:
        flat_dims = list(out_dims)
    elif isinstance(first, Tensor) and not (out_dims is None or type(out_dims) is int):
        flat_dims = None
    else:
        flat_dims = _out_dims_per_leaf(out_dims, first)
    if flat_dims is None:
        raise ValueError(f"vmap({name}, ..., out_dims={out_dims})(<inputs>): out_dims is not "
                         f"compatible with the structure of `outputs`. out_dims has structure "
                         f"{tree_flatten(out_dims)[1]} but outputs has structure "
                         f"{tree_flatten(first)[1]}.")
    columns = list(zip(*[_leaves(r) for r in results]))
    out = []
    for col, d in zip(columns, flat_dims):
        if d is None:  # (unbatched: the same in every slice)
            if any(not (v is col[0] or isinstance(v, Tensor) and isinstance(col[0], Tensor)
                        and v.shape == col[0].shape and M.equal(v, col[0])) for v in col):
                raise ValueError(f"vmap({name}, ...): `{name}` can not return a BatchedTensor "
                                 f"when out_dim is None")
            out.append(col[0])
            continue
        if not isinstance(col[0], Tensor):
            raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type "
                             f"{type(col[0])}. Did you mean to set out_dims= to None for "
                             f"output?")
        stacked = M.stack(col, d)
        out.append(stacked if n else stacked.narrow(d, 0, 0))
    return _rebuild(first, out)


# one is a slice of a mapped argument: batched)
VMAP_LEVELS = []
# jacfwd's passes: PyTorch's jacfwd vmaps over the basis (a custom Function needs a vmap
# rule there too), mindtorch's loops
JACFWD_PASSES = [0]


def vmapping():
    """Whether func runs under vmap (or jacfwd, which PyTorch vmaps)."""
    return bool(VMAP_LEVELS or JACFWD_PASSES[0])


def refuse_unbatched_running_stats(*stats):
    """batch_norm's in-place update of running statistics that are not batched, under
    vmap (the input taken as batched): PyTorch's error."""
    if VMAP_LEVELS and any(t is not None and id(t._storage) not in VMAP_LEVELS[-1]
                           for t in stats):
        raise RuntimeError(
            "Batch norm got a batched tensor as input while the running_mean or running_var, "
            "which will be updated in place, were not batched.\nIf you are using a module "
            "and do not need eval mode, please set `track_running_stats` to be False.If you "
            "are using a prebuilt module and do not need eval mode, please see the functorch "
            "website for resources on how to patch your module to work with vmap")


_RANDOM_ERROR = ("vmap: called random operation while in randomness error mode. Please either "
                 "use the 'same' or 'different' randomness flags on vmap or perform the "
                 "randomness operation out of vmap")


def _mapped_size(func, in_dims, args):
    """The size of the dim vmap maps over, with PyTorch's errors for arguments that do
    not fit in_dims."""
    from ._tensor import Tensor
    from .utils._pytree import tree_flatten
    where = f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>)"
    if not (isinstance(in_dims, tuple) or type(in_dims) is int):
        raise ValueError(f"{where}: expected `in_dims` to be int or a (potentially nested) "
                         f"tuple matching the structure of inputs, got: {type(in_dims)}.")
    if not args:
        raise ValueError(f"vmap({_name(func)})(<inputs>): got no inputs. Maybe you forgot to "
                         f"add inputs, or you are trying to vmap over a function with no "
                         f"inputs. The latter is unsupported.")
    if isinstance(in_dims, tuple):
        dims = in_dims
        if len(dims) != len(args):
            raise ValueError(f"{where}: in_dims is not compatible with the structure of "
                             f"`inputs`. in_dims has structure {tree_flatten(dims)[1]} but "
                             f"inputs has structure {tree_flatten(args)[1]}.")
    else:
        dims = (in_dims,) * len(args)
    def pairs(a, d):  # (leaf, its in_dim) of an argument's mapped leaves
        if d is None:
            return []
        if isinstance(d, int):
            return [(t, d) for t in _leaves(a)]
        if not isinstance(d, (tuple, list, dict)):
            raise ValueError(f"{where}: Got in_dim={d} for an input but in_dim must be either "
                             f"an integer dimension or None.")
        same = isinstance(a, dict) and a.keys() == d.keys() if isinstance(d, dict) else \
            isinstance(a, (tuple, list)) and len(a) == len(d)
        if not same:
            raise ValueError(f"{where}: in_dims is not compatible with the structure of "
                             f"`inputs`. in_dims has structure {tree_flatten(dims)[1]} but "
                             f"inputs has structure {tree_flatten(args)[1]}.")
        return [p for k in (d if isinstance(d, dict) else range(len(d)))
                for p in pairs(a[k], d[k])]
    sizes = []
    for t, d in (p for a, d in zip(args, dims) for p in pairs(a, d)):
        if not isinstance(t, Tensor):
            raise ValueError(f"{where}: Got in_dim={d} for an input but the input is of "
                             f"type {type(t)}. We cannot vmap over non-Tensor arguments, "
                             f"please use None as the respective in_dim")
        if not -t.dim() <= d < t.dim():
            raise ValueError(f"{where}: Got in_dim={d} for some input, but that input is "
                             f"a Tensor of dimensionality {t.dim()} so expected in_dim to "
                             f"satisfy -{t.dim()} <= in_dim < {t.dim()}.")
        sizes.append(t.shape[d])
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if len(set(sizes)) > 1:
        raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped "
                         f"dimension, got sizes {sizes} for the mapped dimension")
    return sizes[0]


def _check_argnums(argnums, args):
    if not isinstance(argnums, (int, tuple)):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    nums = (argnums,) if isinstance(argnums, int) else argnums
    for k in nums:
        if not isinstance(k, int):
            raise RuntimeError(f"argnum must be int, got: {type(k)}")
        if not -len(args) <= k < len(args):
            raise RuntimeError(f"Got argnum={k}, but only {len(args)} positional inputs")
    wrapped = tuple(k % len(args) for k in nums)
    if not nums:
        raise RuntimeError("argnums must be non-empty")
    if len(set(wrapped)) != len(wrapped):
        raise RuntimeError(f"argnums elements must be unique, got {wrapped}")
    return wrapped


def grad_and_value(func, argnums=0, has_aux=False):
    """(gradient of func's scalar output at the arguments argnums - pytrees of tensors as
    they are - , value): the gradient as the argument's pytree (a tuple over argnums when
    it is a tuple)."""
    import mindtorch as M

    def wrapped(*args, **kwargs):
        nums = _check_argnums(argnums, args)
        args, outer = _differentiable(args, nums)
        trees = [args[k] for k in nums]
        inputs = [t for tree in trees for t in _leaves(tree)]
        recording = M.is_grad_enabled()  # (the caller's: results join its graph)
        outer = outer and recording
        with _grad_on(M), under_transform():
            out = func(*args, **kwargs)
            if has_aux and not (isinstance(out, tuple) and len(out) == 2):
                raise RuntimeError("grad_and_value(f)(*args): output of function f should be "
                                   "a tuple: (output, aux) if has_aux is True")
            value, aux = out if has_aux else (out, None)
            if not isinstance(value, M.Tensor):
                raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a "
                                   f"Tensor, got {type(value)}")
            if value.dim() != 0:
                raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a "
                                   "scalar Tensor, got tensor with "
                                   f"{getattr(value, 'ndim', 0)} dims. Maybe you wanted to "
                                   "use the vjp or jacrev APIs instead?")
            keep = outer or recording and _reaches_other_leaves(value, inputs)
            gs = M.autograd.grad(value, inputs, create_graph=keep, allow_unused=True) \
                if value.requires_grad else (None,) * len(inputs)
        gs = iter([M.zeros_like(x) if g is None else g for g, x in zip(gs, inputs)])
        per_arg = tuple(_rebuild(tree, [next(gs) for _ in _leaves(tree)]) for tree in trees)
        own = inputs if recording else None
        g = _finish(per_arg[0] if isinstance(argnums, int) else per_arg, outer, own)
        value = _finish(value, outer, own)
        return (g, (value, _finish(aux, outer, own))) if has_aux else (g, value)
    return _wraps(func, wrapped)


def grad(func, argnums=0, has_aux=False):
    gv = grad_and_value(func, argnums, has_aux)

    def wrapped(*args, **kwargs):
        g, value = gv(*args, **kwargs)
        return (g, value[1]) if has_aux else g
    return _wraps(func, wrapped)


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *,
                    tie_weights=True, strict=False):
    """module(*args, **kwargs) with the named parameters / buffers of one dict, or of a
    list or tuple of dicts with distinct keys, in place of the module's own."""
    from .nn.utils.stateless import _functional_call
    dicts = parameter_and_buffer_dicts
    if isinstance(dicts, dict):
        merged = dicts
    elif isinstance(dicts, (list, tuple)):
        if not all(isinstance(d, dict) for d in dicts):
            raise ValueError("Expected all elements of parameter_and_buffer_dicts to be "
                             "dictionaries")
        keys = [k for d in dicts for k in d]
        repeated = [k for k in dict.fromkeys(keys) if keys.count(k) > 1]
        if repeated:
            raise ValueError(f"{repeated} appeared in multiple dictionaries; behavior of "
                             f"functional call is ambiguous")
        merged = {k: v for d in dicts for k, v in d.items()}
    else:
        raise ValueError(f"Expected parameter_and_buffer_dicts to be a dict, or a list/tuple "  # noqa: TRY004
                         f"of dicts, but got {type(dicts)}")
    return _functional_call(module, merged, args, kwargs, tie_weights=tie_weights,
                            strict=strict)


def _leaves(tree):
    out = []
    _tree_map(out.append, tree)
    return out


def _rebuild(tree, leaves):
    it = iter(leaves)
    return _tree_map(lambda _: next(it), tree)


def _differentiable(args, nums):
    """args with the tensors of those at nums (pytrees of tensors) made to require grad:
    detached copies unless they already do (inside another transform they keep its graph);
    whether any did (nesting)."""
    args = list(args)
    leaves = [t for k in nums for t in _leaves(args[k])]
    outer = any(getattr(t, "requires_grad", False) for t in leaves)
    for k in nums:
        args[k] = _tree_map(_fresh_leaf, args[k])
    return args, outer


def _fresh_leaf(t):
    """t as an input of a reverse transform: a detached leaf requiring grad (a dual one when
    t has a forward AD tangent: jacfwd(jacrev(f)) differentiates through it)."""
    from ._tensor import Tensor
    if not isinstance(t, Tensor):
        raise ValueError(f"Thing passed to transform API must be Tensor, got {type(t)}")
    if t.requires_grad:
        return t
    from .autograd import forward_ad as fw
    leaf = t.detach()
    if leaf.is_inference():  # (made under inference_mode: a normal copy can be saved)
        import mindtorch as M
        with M.inference_mode(False):
            leaf = leaf.clone()
    leaf.requires_grad_()
    tangent = fw.unpack_dual(t).tangent if fw._current_level >= 0 else None
    if tangent is None:
        return leaf
    _dual_leaves.append(leaf)  # (not a closed-over parameter for jacfwd's results)
    return fw.make_dual(leaf, tangent)


_dual_leaves = []  # leaves made dual by reverse transforms inside jacfwd


def _reaches_other_leaves(t, own):
    """Whether t's graph reaches a leaf other than the transform's own inputs (a tensor
    requiring grad that func closed over, such as a model's parameters)."""
    seen, todo = set(), [t.grad_fn]
    while todo:
        node = todo.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        leaf = getattr(node, "variable", None)
        if leaf is not None and not any(leaf is x for x in own):
            return True
        todo.extend(n for n, _ in node.next_functions)
    return False


def _finish(tree, outer, own=()):
    """Results as the caller sees them: inside another transform as they are; outside,
    detached from the transform's own inputs (those reaching a closed-over tensor that
    requires grad stay differentiable, as with PyTorch's functorch levels); own None:
    called under no_grad, all detached."""
    if outer:
        return tree
    if own is None:
        return _tree_map(lambda t: t.detach() if hasattr(t, "detach") else t, tree)
    return _tree_map(lambda t: t if getattr(t, "grad_fn", None) is not None and
                     _reaches_other_leaves(t, own) else
                     t.detach() if hasattr(t, "detach") else t, tree)


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    """The Jacobian of func at the arguments argnums, one reverse pass per output element:
    for each output (a pytree of tensors), the argument's pytree of tensors of shape
    output.shape + input.shape (a tuple over argnums when it is a tuple)."""
    import mindtorch as M
    if chunk_size is not None and chunk_size <= 0:
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    def wrapped(*args, **kwargs):
        _refuse_complex("jacrev", args, "inputs")
        nums = _check_argnums(argnums, args)
        args, outer = _differentiable(args, nums)
        trees = [args[k] for k in nums]
        inputs = [t for tree in trees for t in _leaves(tree)]
        recording = M.is_grad_enabled()  # (the caller's: results join its graph)
        outer = outer and recording
        own = inputs if recording else None
        with _grad_on(M):
            with under_transform():
                out = func(*args, **kwargs)
            if has_aux and not (isinstance(out, tuple) and len(out) == 2):
                raise RuntimeError("vjp(f, *primals): output of function f should be a "
                                   "tuple: (output, aux) if has_aux is True")
            out, aux = out if has_aux else (out, None)
            _check_outputs(out, "vjp(f, *primals)")
            _refuse_complex("jacrev", out, "outputs")

            def jac(o):
                rows = [[] for _ in inputs]
                flat = o.reshape(-1)
                keep = outer or recording and o.requires_grad and \
                    _reaches_other_leaves(o, inputs)
                for i in range(flat.numel() if o.requires_grad else 0):
                    gs = M.autograd.grad(flat[i], inputs, retain_graph=True, create_graph=keep,
                                         allow_unused=True)
                    for row, g, x in zip(rows, gs, inputs):
                        row.append(M.zeros_like(x) if g is None else g)
                jacs = iter([M.stack(row).reshape(o.shape + x.shape) if row else
                             M.zeros(o.shape + x.shape, dtype=x.dtype, device=x.device)
                             for row, x in zip(rows, inputs)])
                per_arg = tuple(_rebuild(tree, [next(jacs) for _ in _leaves(tree)])
                                for tree in trees)
                return per_arg[0] if isinstance(argnums, int) else per_arg
            result = _finish(_tree_map(jac, out), outer, own)
        return (result, _finish(aux, outer, own)) if has_aux else result
    return _wraps(func, wrapped)


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """The Jacobian of func at the arguments argnums, by forward mode: one pass per input
    element (inside a dual level, where forward AD does not nest, by reverse mode)."""
    import mindtorch as M

    from .autograd import forward_ad as fw
    reverse = jacrev(func, argnums, has_aux=has_aux)

    def wrapped(*args, **kwargs):
        if fw._current_level >= 0:
            return reverse(*args, **kwargs)
        _refuse_complex("jacfwd", args, "inputs")
        nums = _check_argnums(argnums, args)
        trees = [args[k] for k in nums]
        inputs = [t for tree in trees for t in _leaves(tree)]

        def run(j=None, i=None):  # func with the one-hot tangent (input j, element i)
            # (fresh: jacrev(jacfwd) saves them; contiguous: element i in logical order)
            ts = [M.zeros_like(x, memory_format=M.contiguous_format) for x in inputs]
            if j is not None:
                ts[j].view(-1)[i] = 1
            it = iter(ts)
            tangents = [_rebuild(tree, [next(it) for _ in _leaves(tree)]) for tree in trees]
            return _dual_call(func, args, nums, tangents, kwargs, has_aux)
        # randomness as PyTorch's one vmapped call over the basis: the primal pass draws
        # nothing; "error" refuses draws, "same" replays, "different" draws on per pass
        start = M.get_rng_state()
        made = len(_dual_leaves)
        JACFWD_PASSES[0] += 1
        try:
            out, aux, columns = _jacfwd_passes(run, inputs, start, randomness)
        finally:
            JACFWD_PASSES[0] -= 1
        outs = _leaves(out)

        def jac(k, o):
            jacs = iter([M.stack([col[k] for col in columns[j]], -1).reshape(o.shape + x.shape)
                         if columns[j] else M.zeros(o.shape + x.shape, dtype=o.dtype,
                                                    device=o.device)
                         for j, x in enumerate(inputs)])
            per_arg = tuple(_rebuild(tree, [next(jacs) for _ in _leaves(tree)])
                            for tree in trees)
            return per_arg[0] if isinstance(argnums, int) else per_arg
        result = _rebuild(out, [jac(k, o) for k, o in enumerate(outs)])
        outer = any(x.requires_grad for x in inputs)
        own = inputs + _dual_leaves[made:]
        del _dual_leaves[made:]
        result = _finish(result, outer, own)
        return (result, _finish(aux, outer, own)) if has_aux else result
    return _wraps(func, wrapped)


def _jacfwd_passes(run, inputs, start, randomness):
    """jacfwd's primal pass and one pass per input element: (output, aux, per input
    element the outputs' tangents)."""
    import mindtorch as M
    out, _, aux = run()
    if not M.equal(M.get_rng_state(), start):
        M.set_rng_state(start)
        if randomness == "error":
            raise RuntimeError(_RANDOM_ERROR)
    _refuse_complex("jacfwd", out, "outputs")
    columns = [[] for _ in inputs]
    for j, x in enumerate(inputs):
        for i in range(x.numel()):
            if randomness == "same":
                M.set_rng_state(start)
            columns[j].append(_leaves(run(j, i)[1]))
    return out, aux, columns


def _dual_call(func, args, nums, tangent_trees, kwargs, has_aux):
    """func(*args) under a dual level, the tensors of args[k] (k in nums) dual with the
    tangents of tangent_trees: (outputs' primals, their tangents (zeros where none), aux),
    as pytrees."""
    import mindtorch as M

    from ._tensor import Tensor
    from .autograd import forward_ad as fw
    with fw.dual_level(), under_transform():
        call = list(args)
        for k, tangents in zip(nums, tangent_trees):
            call[k] = _rebuild(args[k], [fw.make_dual(p, t) for p, t in
                                         zip(_leaves(args[k]), _leaves(tangents))])
        out = func(*call, **kwargs)
        aux = None
        if has_aux:
            if not (isinstance(out, tuple) and len(out) == 2):
                raise RuntimeError("jvp(f, primals, tangents): output of function f should be "
                                   "a tuple: (output, aux) if has_aux is True")
            out, aux = out
        outs = _leaves(out)
        for o in outs:
            if not isinstance(o, Tensor):  # (PyTorch's class)
                raise RuntimeError(f"jvp(f, primals, tangents): expected f(*primals) to return "  # noqa: TRY004
                                   f"only tensors, got unsupported type {type(o)}")
        parts = [fw.unpack_dual(o) for o in outs]
        primal = _rebuild(out, [p.primal for p in parts])
        tangent = _rebuild(out, [p.tangent if p.tangent is not None else
                                 M.zeros_like(p.primal) for p in parts])
        aux = _tree_map(lambda a: fw.unpack_dual(a).primal if isinstance(a, Tensor) else a,
                        aux)
    return primal, tangent, aux


def hessian(func, argnums=0):
    return jacfwd(jacrev(func, argnums), argnums)


def vjp(func, *primals, has_aux=False):
    """(func(*primals), vjp_fn[, aux]): vjp_fn(cotangents) is the tuple of the
    vector-Jacobian products, one per primal (pytrees of tensors, as the primals)."""
    import mindtorch as M
    args, outer = _differentiable(primals, range(len(primals)))
    inputs = _leaves(args)
    with _grad_on(M), under_transform():
        out = func(*args)
        if has_aux and not (isinstance(out, tuple) and len(out) == 2):
            raise RuntimeError("vjp(f, *primals): output of function f should be a tuple: "
                               "(output, aux) if has_aux is True")
        out, aux = out if has_aux else (out, None)
    outs = _check_outputs(out, "vjp(f, *primals)")
    from .utils._pytree import tree_structure
    out_spec = tree_structure(out)

    def vjp_fn(cotangents, retain_graph=True, create_graph=None):
        spec = tree_structure(cotangents)
        if spec != out_spec:
            raise RuntimeError(f"Expected pytree structure of cotangents to be the same as "
                               f"pytree structure of outputs to the function. cotangents: "
                               f"{_pprint(spec)}, primal output: {_pprint(out_spec)}")
        cots = _leaves(cotangents)
        pairs = [(o, c) for o, c in zip(outs, cots) if o.requires_grad]
        recording = M.is_grad_enabled()
        if create_graph is None:
            create_graph = recording
        with _grad_on(M):
            gs = M.autograd.grad([o for o, _ in pairs], inputs, [c for _, c in pairs],
                                 retain_graph=retain_graph, create_graph=create_graph,
                                 allow_unused=True) if pairs else (None,) * len(inputs)
        gs = [M.zeros_like(a) if g is None else g for g, a in zip(gs, inputs)]
        return _finish(tuple(_rebuild(args, gs)), outer and recording,
                       inputs if recording else None)
    result = (_finish(out, outer, inputs), vjp_fn)
    return result + (_finish(aux, outer, inputs),) if has_aux else result


def _check_outputs(out, api):
    """out's leaves, which must be floating-point or complex tensors (PyTorch's messages)."""
    from ._tensor import Tensor
    outs = _leaves(out)
    if not outs or outs == [None]:
        raise RuntimeError(f"{api}: Expected f to be a function that has non-empty output "
                           f"(got output = {outs})")
    for o in outs:
        if not isinstance(o, Tensor):
            raise RuntimeError(f"{api}: expected f(*primals) to return only tensors, got "  # noqa: TRY004
                               f"unsupported type {type(o)}")
    for o in outs:
        if not (o.is_floating_point() or o.is_complex()):
            raise RuntimeError(f"vjp(f, ...): All outputs of f must be floating-point or "
                               f"complex Tensors, got Tensor with dtype {o.dtype}")
    return outs


def _grad_on(M):
    """Grad mode on for a transform's function, also under inference_mode (as PyTorch)."""
    return M.inference_mode(False)


def _wraps(func, wrapper):
    import functools
    return functools.wraps(func)(wrapper)


def _refuse_complex(api, tree, what):
    """jacrev / jacfwd take and give real tensors only (PyTorch's message)."""
    for k, t in enumerate(_leaves(tree)):
        if getattr(t, "is_complex", None) and t.is_complex():
            raise RuntimeError(f"{api}: Expected all {what} to be real but received complex "
                               f"tensor at flattened input idx: {k}")


def _pprint(spec):
    """A TreeSpec as PyTorch's treespec_pprint: * for a leaf, (..) / [..] / {k: ..}."""
    from .utils._pytree import tree_unflatten
    return repr(tree_unflatten([_Star()] * spec.num_leaves, spec))


class _Star:
    def __repr__(self):
        return "*"


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """(func(*primals), the Jacobian-vector product with tangents[, aux]) by forward mode;
    inside a dual level (forward AD does not nest) by the double-backward trick."""
    import mindtorch as M

    from .autograd import forward_ad as fw
    if not isinstance(primals, tuple):  # (PyTorch's error classes and messages)
        raise RuntimeError("jvp(f, primals, tangents): Expected primals to be a tuple. E.g. "  # noqa: TRY004
                           "it should be valid to call f(*primals).")
    from .utils._pytree import tree_flatten
    if not tree_flatten(primals)[0]:
        raise RuntimeError("jvp(f, primals, tangents): Expected primals to contain at least "
                           "one Tensor.")
    spec, tangent_spec = tree_flatten(primals)[1], tree_flatten(tangents)[1]
    if spec != tangent_spec:
        raise RuntimeError(f"jvp(f, primals, tangents): Expected primals and tangents to have "
                           f"the same python structure. For example, if primals is a tuple of "
                           f"3 tensors, tangents also must be. Got primals with structure "
                           f"{spec} and tangents with structure {tangent_spec}")
    if fw._current_level < 0:
        made = len(_dual_leaves)
        out, tangent_out, aux = _dual_call(func, primals, range(len(primals)), tangents, {},
                                           has_aux)
        # (reverse transforms inside, jvp(grad(f)), made dual leaves: not the caller's)
        own = _leaves(primals) + _dual_leaves[made:]
        del _dual_leaves[made:]
        outer = any(t.requires_grad for t in _leaves(primals))
        out, tangent_out, aux = (_finish(r, outer, own) for r in (out, tangent_out, aux))
        return (out, tangent_out, aux) if has_aux else (out, tangent_out)
    # inside a dual level: J v as the vjp of a vjp (u -> J^T u is linear in u), keeping
    # the primals' tangents (jvp of jvp) and history (jvp inside grad)
    args, outer = _differentiable(primals, range(len(primals)))
    outer = outer or any(fw.unpack_dual(t).tangent is not None for t in _leaves(primals))
    inputs = _leaves(args)
    with _grad_on(M):
        out = func(*args)
        out, aux = out if has_aux else (out, None)
        outs = _leaves(out)
        us = [M.zeros_like(o).requires_grad_() for o in outs]
        diff = [(o, u) for o, u in zip(outs, us) if o.requires_grad]
        jt_u = M.autograd.grad([o for o, _ in diff], inputs, [u for _, u in diff],
                               create_graph=True, allow_unused=True) if diff else \
            (None,) * len(inputs)
        pairs = [(g, w) for g, w in zip(jt_u, _leaves(tangents)) if g is not None]
        res = M.autograd.grad([g for g, _ in pairs], us, [w for _, w in pairs],
                              create_graph=True, allow_unused=True) if pairs else \
            (None,) * len(us)
    res = _rebuild(out, [M.zeros_like(o) if r is None else r for r, o in zip(res, outs)])
    result = (_finish(out, outer, inputs), _finish(res, outer, inputs))
    return result + (_finish(aux, outer, inputs),) if has_aux else result


def linearize(func, *primals):
    """(func(*primals), jvp_fn): jvp_fn(*tangents) is the Jacobian-vector product at the
    primals (a forward pass per call, not PyTorch's traced graph: same values)."""
    import mindtorch as M

    from .utils._pytree import tree_flatten
    with M.no_grad():
        out = func(*primals)
    flat, spec = tree_flatten(primals)

    def jvp_fn(*tangents):
        ts, tangent_spec = tree_flatten(tangents)
        if tangent_spec != spec:
            raise RuntimeError(f"Expected the tangents {tangent_spec} to have the same argspec "
                               f"as the primals {spec}")
        for k, (t, p) in enumerate(zip(ts, flat)):
            if tuple(t.shape) != tuple(p.shape):
                raise RuntimeError(f"tangent:{k} with shape {t.shape} in flattened pytree "
                                   f"doesn't match the shape {p.shape} of the corresponding "
                                   f"primal.")
            if t.dtype != p.dtype:
                raise RuntimeError(f"tangent:{k} with dtype {t.dtype} in flattened pytree "
                                   f"doesn't match the dtype {p.dtype} of the corresponding "
                                   f"primal.")
        return jvp(func, primals, _rebuild(primals, ts))[1]
    return out, jvp_fn


def stack_module_state(models):
    """({name: the models' parameters stacked}, {name: their buffers stacked}) of models of
    one class and mode; stacked parameters are new leaves requiring grad."""
    import mindtorch as M
    if not models:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if len({m.training for m in models}) > 1:
        raise RuntimeError("stack_module_state: Expected all models to have the same "
                           "training/eval mode.")
    if len({type(m) for m in models}) > 1:
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")

    def stacked(named):
        tables = [dict(getattr(m, named)()) for m in models]
        out = {}
        for name in tables[0]:
            tensors = [t[name] for t in tables]
            flags = {t.requires_grad for t in tensors}
            if len(flags) > 1:
                raise RuntimeError(f"Expected {name} from each model to have the same "
                                   f".requires_grad")
            out[name] = M.stack(tensors)
            if flags == {True}:
                out[name] = out[name].detach().requires_grad_()
        return out
    return stacked("named_parameters"), stacked("named_buffers")


def replace_all_batch_norm_modules_(root):
    """root, its batch norm modules changed in place to use batch statistics only (running
    stats None, track_running_stats False), as vmap over them needs."""
    from .nn.modules.batchnorm import _BatchNorm
    for m in root.modules():
        if isinstance(m, _BatchNorm) and m.track_running_stats:
            m.running_mean = m.running_var = m.num_batches_tracked = None
            m.track_running_stats = False
    return root


def functionalize(func, *, remove="mutations"):
    """func itself in effect: mindtorch runs eagerly, and a function's in-place ops give
    the results their functional versions would."""
    if remove not in ("mutations", "mutations_and_views"):
        raise RuntimeError(f"functionalize(f, remove='mutations'): received invalid argument "
                           f"for remove={remove}. Valid options are:\n"
                           f"     remove='mutations': all inplace and out= operators will be "
                           f"removed from the program, and replaced with their out-of-place "
                           f"equivalents.\n"
                           f"     remove='mutations_and_views': In addition to the above, all "
                           f"aliasing operators {{view}} will be replaced with their "
                           f"non-aliasing counterparts, {{view}}_copy.\n")
    import functools

    @functools.wraps(func)
    def run(*args, **kwargs):
        return func(*args, **kwargs)
    return run


def debug_unwrap(tensor, *, recurse=True):
    """The tensor under a transform's wrapper: mindtorch's transforms wrap none."""
    return tensor
