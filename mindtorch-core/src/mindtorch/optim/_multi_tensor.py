"""The multi-tensor path for small tensors: their state tensors live as views of one flat
buffer per state key, so one op updates the state of all of them (PyTorch's foreach, done
by flattening instead of by list kernels).

Each optimizer writes its update once, for one tensor: `update(group, p, grad, state)`.
The flat path calls the same function with `state` holding the flat buffers (scalar state
such as `step` as one 1-D tensor), `grad` the concatenated gradients and `p` a
`FlatParams`, which applies the in-place ops an update makes to a parameter (`mul_`,
`add_`, `addcmul_`, `addcdiv_`) to each parameter from the flat operands; `value(p)` reads the
parameters (coupled weight decay). N small tensors then cost ~2N + k ops instead of the
per-tensor loop's ~kN, and every element goes through the same ops in the same order:
results are bit-identical, and the state_dict is the same (its tensors are views of a shared
buffer).

Large tensors stay in the per-tensor loop: flattening them costs a pass and loses cache
locality (each tensor's k ops run while it is in cache), which measured slower
(benchmarks/bench_optim.py). A tensor joins the flat buffers when it is real, floating
(32 or 64 bits), contiguous, small, of the first such tensor's dtype and device; they must
all have a gradient and equal scalar state (the same number of steps), otherwise the step
runs per tensor (and the buffers are rebuilt when the path applies again)."""

__all__ = ["FlatParams", "FlatState", "split_flat", "value", "count"]

SMALL = 1 << 15   # elements: a tensor this size or smaller may join the flat buffers
# fewer small tensors than this: no gain over the per-tensor loop. The gain is the ops
# saved per tensor (Adam ~8, SGD with momentum 2) against the concatenation and checks;
# measured break-even: Adam below 4 tensors, SGD with momentum ~16
MIN_TENSORS = 4


def value(p):
    """The parameter's values: p itself, or the flat parameters' concatenation."""
    return p.value() if isinstance(p, FlatParams) else p


def count(state, key="step"):
    """Add one to a scalar state (`step`) and return it as a number."""
    t = state[key]
    t += 1
    return (t if t.ndim == 0 else t[0]).item()


def first(t):
    """A scalar state's value as a number (the flat path keeps one per tensor, all equal)."""
    return (t if t.ndim == 0 else t[0]).item()


class FlatState:
    """The flat buffers of one group's small tensors: `state[key]` (flat state, what the
    update sees) and `views[key]` (the per-parameter views, which are the tensors'
    state), `scratch` (a flat buffer for an update, with `scratch_views`)."""

    __slots__ = ("params", "pflat", "sizes", "keys", "state", "views", "scratch",
                 "scratch_views")

    def grad(self, grads):
        """The gradients as one flat tensor (1-D ones, the common small case, need no view)."""
        import mindtorch as M
        return M.cat([g if g.ndim == 1 else g.reshape(-1) for g in grads])

    def views_of(self, t):
        """Per-parameter views of a flat tensor: a state buffer's or the scratch's (t is
        copied there)."""
        if t is self.scratch:
            return self.scratch_views
        for key in self.keys:
            if t is self.state[key]:
                return self.views[key]
        self.scratch.copy_(t)
        return self.scratch_views


class FlatParams:
    """The flat tensors' parameters, as an update written for one tensor uses its p."""

    __slots__ = ("flat",)

    def __init__(self, flat):
        self.flat = flat

    def value(self):
        import mindtorch as M
        return M.cat(self.flat.pflat)

    def mul_(self, factor):
        for p in self.flat.params:
            p.mul_(factor)
        return self

    def add_(self, other, alpha=1):
        for p, u in zip(self.flat.params, self.flat.views_of(other)):
            p.add_(u, alpha=alpha)
        return self

    def addcmul_(self, t1, t2, value=1):
        return self._pointwise("addcmul", t1, t2, value)

    def addcdiv_(self, t1, t2, value=1):
        return self._pointwise("addcdiv", t1, t2, value)

    def _pointwise(self, op, t1, t2, value):
        # the op itself on the concatenated parameters, so that each element is rounded as
        # the op rounds it (addcmul's fused multiply-add, 16-bit values computed in float32
        # and rounded once), then written back
        import mindtorch as M
        scratch = self.flat.scratch
        getattr(M, op)(M.cat(self.flat.pflat), t1, t2, value=value, out=scratch)
        for p, u in zip(self.flat.params, self.flat.scratch_views):
            p.copy_(u)
        return self


def _small(p, like):
    if p.numel() > SMALL or not p.is_contiguous() or p.is_complex():
        return False
    # (16-bit floats stay per tensor: ATen's kernels round their vector loop's elements
    # and each tensor's scalar tail differently, and a flat buffer moves the tails)
    if not p.dtype.is_floating_point or p.dtype.itemsize < 4 or p.grad is None:
        return False
    return like is None or (p.dtype is like.dtype and p.device == like.device
                            and p.grad.dtype is like.dtype and p.grad.device == like.device)


def _shaped_like(v, p):
    """A flat view v shaped as p, with p's strides (zeros_like(p)'s: a contiguous p's may
    differ on size-1 dims, e.g. a 1x1 kernel's after module.to(channels_last))."""
    v = v.view(p.shape)
    return v if v.stride() == p.stride() else v.as_strided(p.shape, p.stride())


def _build(params, states, keys, scalars, min_tensors):
    import mindtorch as M
    chosen, like = [], None
    for p, st in zip(params, states):
        if _small(p, like) and all(st.get(k) is not None for k in keys + scalars):
            chosen.append((p, st))
            like = p if like is None else like
    if len(chosen) < min_tensors:
        return None
    for key in scalars:  # tensors that missed steps: their bias corrections differ
        if len({st[key].item() for _, st in chosen}) != 1:
            return None
    flat = FlatState()
    flat.params = [p for p, _ in chosen]
    flat.pflat = [p.view(-1) for p in flat.params]
    flat.sizes = [p.numel() for p in flat.params]
    flat.keys, flat.state, flat.views = keys, {}, {}
    chosen_states = [st for _, st in chosen]

    def shaped(buf):
        return [_shaped_like(v, p) for v, p in zip(buf.split(flat.sizes), flat.params)]
    for key in keys:
        buf = M.cat([st[key].reshape(-1) for st in chosen_states])
        flat.state[key], flat.views[key] = buf, shaped(buf)
    for key in scalars:
        buf = M.stack([st[key] for st in chosen_states])
        flat.state[key], flat.views[key] = buf, [buf[i] for i in range(len(chosen))]
    for key, views in flat.views.items():
        for i, (st, v) in enumerate(zip(chosen_states, views)):
            views[i] = _moved_into(st, key, v)
    flat.scratch = M.empty(sum(flat.sizes), dtype=like.dtype, device=like.device)
    flat.scratch_views = shaped(flat.scratch)
    return flat


def _moved_into(state, key, view):
    """state[key] made to be the flat buffer's view: the same tensor object, its memory
    moved there (PyTorch updates state tensors in place, so a state_dict taken or loaded
    earlier keeps seeing the live values), or the view itself if it cannot be moved."""
    t = state[key]
    if t.dtype is view.dtype and t.device == view.device and not t.requires_grad:
        return t.set_(view.untyped_storage(), view.storage_offset(), view.shape, view.stride())
    state[key] = view
    return view


def _positions(flat, params, states):
    """Where each flat tensor is in this step's lists, or None when the buffers no longer
    describe the group (a tensor without gradient, replaced data or state)."""
    where = {id(p): j for j, p in enumerate(params)}
    out = []
    for i, (p, pv) in enumerate(zip(flat.params, flat.pflat)):
        j = where.get(id(p))
        if j is None or pv._storage is not p._storage or pv._offset != p._offset:
            return None
        st = states[j]
        for key, views in flat.views.items():
            if st.get(key) is not views[i]:
                return None
        out.append(j)
    return out


def split_flat(opt, group, params, grads, states, keys, scalars=("step",),
               min_tensors=MIN_TENSORS):
    """[(p, grad, state)] for the update: first the group's small tensors as one
    (FlatParams, flat grad, flat state) when the multi-tensor path applies, then the
    tensors left to the per-tensor loop. foreach=False never flattens, foreach=None from
    min_tensors small tensors on, foreach=True from two."""
    everything = list(zip(params, grads, states))
    foreach = group.get("foreach")
    if foreach:
        min_tensors = 2
    cache = opt.__dict__.setdefault("_flat", {})
    if foreach is False or len(params) < min_tensors or group.get("differentiable") or \
            group.get("fused"):
        # per tensor (too few tensors: no scan each step; differentiable, as PyTorch's
        # default for it; fused, whose kernel rounds each tensor's tail its own way): the
        # buffers' scalars may no longer be equal afterwards
        cache.pop(id(group), None)
        return everything
    flat = cache.get(id(group))
    where = None if flat is None else _positions(flat, params, states)
    if where is None:
        cache.pop(id(group), None)
        flat = _build(params, states, tuple(keys), tuple(scalars), min_tensors)
        if flat is None:
            return everything
        where = _positions(flat, params, states)
        cache[id(group)] = flat
    taken = set(where)
    return ([(FlatParams(flat), flat.grad([grads[j] for j in where]), flat.state)]
            + [t for j, t in enumerate(everything) if j not in taken])
