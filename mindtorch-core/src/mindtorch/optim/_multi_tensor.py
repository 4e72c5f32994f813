"""The multi-tensor path for small tensors: their state tensors live as views of one flat
buffer per state key, so one op updates the state of all of them (PyTorch's foreach, done
by flattening instead of by list kernels).

Per step their gradients are concatenated once (one op plus a view each) and the update
reaches each parameter with one in-place op on a slice of the flat result: N small tensors
cost ~2N + k ops instead of the per-tensor loop's ~kN. Large tensors stay in the per-tensor
loop: flattening them costs a pass and loses cache locality (each tensor's k ops run while
it is in cache), which measured slower (benchmarks/bench_optim.py). Every element goes
through the same ops in the same order as in the per-tensor loop, so results are
bit-identical and the state_dict is the same (its tensors are views of a shared buffer).

A tensor joins the flat buffers when it is real, floating, contiguous, small, of the first
such tensor's dtype and device; they must all have a gradient and have taken the same
number of steps, otherwise the step runs per tensor (and the buffers are rebuilt when the
path applies again)."""

__all__ = ["FlatState", "split_flat"]

SMALL = 1 << 15   # elements: a tensor this size or smaller may join the flat buffers
# fewer small tensors than this: no gain over the per-tensor loop. The gain is the ops
# saved per tensor (Adam ~8, SGD with momentum 2) against the concatenation and checks;
# measured break-even: Adam below 4 tensors, SGD with momentum ~16
MIN_TENSORS = 4


class FlatState:
    """The flat buffers of one group's small tensors: `buffers[key]` (state) and `views[key]`
    (its per-parameter views, which are the state's tensors), `scratch` (a flat buffer for
    the update, `scratch_views` per parameter), `steps` (the step counters)."""

    __slots__ = ("params", "pflat", "sizes", "buffers", "views", "steps", "scratch",
                 "scratch_views")

    def grad(self, grads):
        """The gradients as one flat tensor (1-D ones, the common small case, need no view)."""
        import mindtorch as M
        return M.cat([g if g.ndim == 1 else g.reshape(-1) for g in grads])

    def flat_params(self):
        import mindtorch as M
        return M.cat(self.pflat)

    def step(self):
        """Count a step for every tensor; the (common) step number."""
        self.steps += 1
        return self.views["step"][0].item()

    def apply(self, update, alpha=1):
        """p += alpha * update for every parameter, from the update's per-parameter views."""
        for p, u in zip(self.params, update):
            p.add_(u, alpha=alpha)


def _small(p, like):
    if p.numel() > SMALL or not p.is_contiguous() or p.is_complex():
        return False
    if not p.dtype.is_floating_point or p.grad is None:
        return False
    return like is None or (p.dtype is like.dtype and p.device == like.device
                            and p.grad.dtype is like.dtype and p.grad.device == like.device)


def _build(params, states, keys, with_step, min_tensors):
    import mindtorch as M
    chosen, like = [], None
    for p, st in zip(params, states):
        if _small(p, like) and all(st.get(k) is not None for k in keys):
            chosen.append((p, st))
            like = p if like is None else like
    if len(chosen) < min_tensors:
        return None
    if with_step and len({st["step"].item() for _, st in chosen}) != 1:
        return None  # tensors that missed steps: their bias corrections differ
    flat = FlatState()
    flat.params = [p for p, _ in chosen]
    flat.pflat = [p.view(-1) for p in flat.params]
    flat.sizes = [p.numel() for p in flat.params]
    flat.buffers, flat.views, flat.steps = {}, {}, None
    chosen_states = [st for _, st in chosen]

    def shaped(buf):
        return [v.view(p.shape) for v, p in zip(buf.split(flat.sizes), flat.params)]
    for key in keys:
        buf = M.cat([st[key].reshape(-1) for st in chosen_states])
        flat.buffers[key], flat.views[key] = buf, shaped(buf)
        for st, v in zip(chosen_states, flat.views[key]):
            st[key] = v
    flat.scratch = M.empty(sum(flat.sizes), dtype=like.dtype, device=like.device)
    flat.scratch_views = shaped(flat.scratch)
    if with_step:
        flat.steps = M.stack([st["step"] for st in chosen_states])
        flat.views["step"] = [flat.steps[i] for i in range(len(chosen_states))]
        for st, v in zip(chosen_states, flat.views["step"]):
            st["step"] = v
    return flat


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


def split_flat(opt, group, params, grads, states, keys, with_step=True,
               min_tensors=MIN_TENSORS):
    """(flat, flat_grads, rest): the FlatState of the group's small tensors with their
    gradients in its order, and the (param, grad, state) triples left to the per-tensor
    loop. flat is None when the multi-tensor path does not apply (foreach=False, or see
    the module docstring; foreach=None applies it from min_tensors small tensors on,
    foreach=True from two)."""
    everything = (None, None, list(zip(params, grads, states)))
    foreach = group.get("foreach")
    if foreach is False:
        return everything
    if foreach:  # asked for: whenever two tensors can share the buffers
        min_tensors = 2
    cache = opt.__dict__.setdefault("_flat", {})
    flat = cache.get(id(group))
    where = None if flat is None else _positions(flat, params, states)
    if where is None:
        cache.pop(id(group), None)
        flat = _build(params, states, keys, with_step, min_tensors)
        if flat is None:
            return everything
        where = _positions(flat, params, states)
        cache[id(group)] = flat
    taken = set(where)
    rest = [t for j, t in enumerate(zip(params, grads, states)) if j not in taken]
    return flat, [grads[j] for j in where], rest
