"""torch.func (a subset): vmap maps a function over a batch dim by calling it once per
slice and stacking the results (PyTorch's results, without its batching rules' speed);
grad / grad_and_value differentiate through mindtorch's autograd, nesting like
PyTorch's (grad(grad(f))); functional_call is nn.utils.stateless's, taking several dicts."""
__all__ = ["functional_call", "grad", "grad_and_value", "vmap"]


def _tree_map(fn, tree):
    if isinstance(tree, (tuple, list)):
        return type(tree)(_tree_map(fn, t) for t in tree)
    if isinstance(tree, dict):
        return {k: _tree_map(fn, v) for k, v in tree.items()}
    return fn(tree)


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    import mindtorch as M

    from ._tensor import Tensor

    def mapped(*args, **kwargs):
        dims = in_dims if isinstance(in_dims, (tuple, list)) else (in_dims,) * len(args)
        if len(dims) != len(args):
            raise ValueError(f"vmap(in_dims={in_dims}, ...)(<inputs>): in_dims is not "
                             f"compatible with the structure of `inputs`. in_dims has "
                             f"structure {len(dims)} but inputs has structure {len(args)}.")
        sizes = {a.shape[d] for a, d in zip(args, dims) if d is not None and isinstance(a, Tensor)}
        if not sizes:
            raise ValueError("vmap: at least one input must be a Tensor mapped over a dim "
                             "(in_dims not None)")
        if len(sizes) > 1:
            raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped "
                             f"dimension, got sizes {sorted(sizes)} for the mapped dimension")
        (n,) = sizes
        results = [func(*[a.select(d, i) if d is not None and isinstance(a, Tensor) else a
                          for a, d in zip(args, dims)], **kwargs) for i in range(n)]
        first = results[0]
        if isinstance(first, tuple):
            outs = out_dims if isinstance(out_dims, tuple) else (out_dims,) * len(first)
            return tuple(M.stack([r[k] for r in results], outs[k]) for k in range(len(first)))
        return M.stack([M.as_tensor(r) for r in results], out_dims)
    return mapped


def grad_and_value(func, argnums=0, has_aux=False):
    import mindtorch as M

    def wrapped(*args, **kwargs):
        nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
        args = list(args)
        outer = [args[k].requires_grad for k in nums]  # inside another grad: keep the link
        for k in nums:
            if not args[k].requires_grad:
                args[k] = args[k].detach().requires_grad_()
        with M.enable_grad():
            out = func(*args, **kwargs)
            value, aux = out if has_aux else (out, None)
            if not isinstance(value, M.Tensor) or value.numel() != 1:
                raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a "
                                   "scalar Tensor, got tensor with "
                                   f"{getattr(value, 'ndim', 0)} dims. Maybe you wanted to "
                                   "use the vjp or jacrev APIs instead?")
            gs = M.autograd.grad(value, [args[k] for k in nums], create_graph=any(outer),
                                 allow_unused=True)
        gs = tuple(M.zeros_like(args[k]) if g is None else g for g, k in zip(gs, nums))
        if not any(outer):
            gs, value = tuple(g.detach() for g in gs), value.detach()
        g = gs[0] if isinstance(argnums, int) else gs
        return (g, (value, aux)) if has_aux else (g, value)
    return wrapped


def grad(func, argnums=0, has_aux=False):
    gv = grad_and_value(func, argnums, has_aux)

    def wrapped(*args, **kwargs):
        g, value = gv(*args, **kwargs)
        return (g, value[1]) if has_aux else g
    return wrapped


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
        raise ValueError(f"Expected parameter_and_buffer_dicts to be a dict, or a list/tuple "
                         f"of dicts, but got {type(dicts)}")
    return _functional_call(module, merged, args, kwargs, tie_weights=tie_weights,
                            strict=strict)
