"""One layer-direction of nn.RNN / LSTM / GRU over a whole sequence (padded or packed, LSTM
with or without projection), as one graph node (an autograd Function), as PyTorch's fused
CPU RNN records it.

Its forward is the loop of nn/modules/rnn.py without recording: per step one matmul with
the hidden state and one fused cell op (an RNN: its activation; a projected LSTM: one more
matmul), keeping each step's previous state and the cell's workspace.  Its backward runs
the steps in reverse: per step one cell backward op and one matmul for the previous hidden
state's gradient; the hidden (and projection) weights' gradients are then one matmul over
all steps, not one matmul and one accumulation per step.  Under create_graph the loop is
recorded again and differentiated (so gradients of gradients are exact).  Built from
mindtorch ops: runs on every device.

Packed sequences (longest first) shrink the batch as sequences end: step t sees the first
batch_sizes[t] rows of the state (_walk), a sequence's final state is its last valid
step's, and the reversed direction starts each sequence from its initial state at its own
end."""
import mindtorch
from mindtorch._ops import OPS

from ..._ops.decls.rnn import conj_factors
from ...autograd.function import Function

_CELL = {"LSTM": OPS["_lstm_cell"], "GRU": OPS["_gru_cell"]}
_BACKWARD = {"LSTM": OPS["_lstm_cell_backward"], "GRU": OPS["_gru_cell_backward"]}
_ACT = {"RNN_TANH": lambda x: x.tanh(), "RNN_RELU": lambda x: x.relu()}
_ACT_GRAD = {"RNN_TANH": lambda g, y: g * (1 - y * y),  # from the activation's output
             "RNN_RELU": lambda g, y: g.masked_fill(y <= 0, 0)}


def _walk(sizes, backwards, start, step):
    """state = step(t, state) for t = 0 .. n-1 (backwards: n-1 .. 0), where step t gets
    the first sizes[t] rows of the state (sizes non-increasing, as a packed sequence's
    batch sizes).  Rows that leave keep their last value; rows that join come from
    `start` (a tuple of tensors).  Returns the final state with all rows."""
    first = sizes[-1 if backwards else 0]
    state = start if first == start[0].shape[0] else tuple(s[:first] for s in start)
    left = []  # rows that left, in the order they left
    for t in (range(len(sizes) - 1, -1, -1) if backwards else range(len(sizes))):
        size, have = sizes[t], state[0].shape[0]
        if size < have:
            left.append(tuple(s[size:] for s in state))
            state = tuple(s[:size] for s in state)
        elif size > have:
            state = tuple(mindtorch.cat([s, s0[have:size]]) for s, s0 in zip(state, start))
        state = step(t, state)
    if left:  # the latest to leave are the lowest rows
        state = tuple(mindtorch.cat([s, *(rows[k] for rows in reversed(left))])
                      for k, s in enumerate(state))
    return state


def _sizes(gi, batch_sizes):
    return [gi.shape[1]] * gi.shape[0] if batch_sizes is None else batch_sizes


class Recurrence(Function):
    """apply(mode, reverse, batch_sizes, gi, w_hh, b_hh, w_hr, *state) -> (*outputs of
    each step, *final state), the caller stacking (padded: StackBackward0, as PyTorch's
    graph of a GRU, an RNN or a float64 LSTM) or concatenating (packed: CatBackward0) the
    outputs.  gi: the projected inputs, (T > 0, B, G) or packed (sum(batch_sizes), G),
    input biases included, and b_hh too but for a GRU (whose b_hh sits inside the reset
    gate's product: passed apart, else None); w_hr: the LSTM's projection or None; state:
    (h0,) or (h0, c0)."""
    stacked = False

    @staticmethod
    def forward(ctx, mode, reverse, batch_sizes, gi, w_hh, b_hh, w_hr, *state):
        w_t, packed = w_hh.t(), batch_sizes is not None
        steps = gi.split(batch_sizes) if packed else gi.unbind(0)
        n = len(steps)
        outs, before, work, raw = [None] * n, [None] * n, [None] * n, [None] * n

        def step(t, state):
            before[t] = state
            h = state[0]
            if mode == "LSTM":
                h, c, work[t] = _CELL[mode].call(mindtorch.addmm(steps[t], h, w_t), state[1])
                if w_hr is not None:
                    raw[t], h = h, h.mm(w_hr.t())
                outs[t] = h
                return h, c
            if mode == "GRU":
                gh = h.mm(w_t) if b_hh is None else mindtorch.addmm(b_hh, h, w_t)
                outs[t], work[t] = _CELL[mode].call(steps[t], gh, h)
            else:  # the output is the activation's workspace
                outs[t] = work[t] = _ACT[mode](mindtorch.addmm(steps[t], h, w_t))
            return (outs[t],)

        final = _walk(_sizes(gi, batch_sizes), reverse, state, step)
        join = mindtorch.cat if packed else mindtorch.stack
        previous = [join([s[k] for s in before]) for k in range(len(state))]
        ctx.save_for_backward(gi, w_hh, b_hh, w_hr, *state, join(work), *previous,
                              None if w_hr is None else join(raw))
        ctx.mode, ctx.reverse, ctx.batch_sizes = mode, reverse, batch_sizes
        ctx.n_state = len(state)
        ctx.stacked = ctx._forward_cls.stacked  # (ctx is the node of this class's call)
        return (mindtorch.stack(outs), *final) if ctx.stacked else (*outs, *final)

    @staticmethod
    def backward(ctx, *grads):
        mode, batch_sizes, saved = ctx.mode, ctx.batch_sizes, ctx.saved_tensors
        k = ctx.n_state
        if mindtorch.is_grad_enabled():  # create_graph: the recorded loop, differentiated
            return (None,) * 3 + _recorded_grads(ctx, saved[:4 + k], grads)
        gi, w_hh, w_hr = saved[0], saved[1], saved[3]
        work, previous, raw = saved[4 + k], saved[5 + k:-1], saved[-1]
        if gi.dtype.is_complex:  # the chain rule's factors conjugated (PyTorch's convention)
            w_hh, w_hr, work, raw, *previous = conj_factors(w_hh, w_hr, work, raw, *previous)
        packed = batch_sizes is not None
        parts = (lambda x: x.split(batch_sizes)) if packed else (lambda x: x.unbind(0))
        go = parts(grads[0]) if ctx.stacked else grads[:-k]
        ws, prev = parts(work), [parts(p) for p in previous]
        n = len(ws)
        grad_gi, grad_gh, grad_h = [None] * n, [None] * n, [None] * n

        def step(t, d):
            dh = d[0] + go[t]
            if mode == "LSTM":
                if w_hr is not None:
                    grad_h[t], dh = dh, dh.mm(w_hr)
                grad_gi[t], dc = _BACKWARD[mode].call(dh, d[1], prev[1][t], ws[t])
                grad_gh[t] = grad_gi[t]
                return grad_gi[t].mm(w_hh), dc
            if mode == "GRU":
                grad_gi[t], grad_gh[t], dh_direct = _BACKWARD[mode].call(dh, prev[0][t], ws[t])
                return (dh_direct + grad_gh[t].mm(w_hh),)
            grad_gi[t] = grad_gh[t] = _ACT_GRAD[mode](dh, ws[t])
            return (grad_gi[t].mm(w_hh),)

        d_state = _walk(_sizes(gi, batch_sizes), not ctx.reverse, grads[-k:], step)
        need = ctx.needs_input_grad
        join = mindtorch.cat if packed else mindtorch.stack
        g_gi = join(grad_gi)
        g_w = g_b = g_r = None
        if need[4] or need[5]:
            g_gh = join(grad_gh) if mode == "GRU" else g_gi
            g_gh = g_gh.reshape(-1, g_gh.shape[-1])
            if need[4]:  # sum over steps and batch of grad_gates^T h_prev, as one matmul
                g_w = g_gh.t().mm(previous[0].reshape(-1, previous[0].shape[-1]))
            if need[5]:
                g_b = g_gh.sum(0)
        if need[6]:
            g_r = _flat(join(grad_h)).t().mm(_flat(raw))
        return (None,) * 3 + (g_gi, g_w, g_b, g_r, *d_state)


def _flat(x):
    return x.reshape(-1, x.shape[-1])


class MkldnnRnnLayer(Recurrence):
    """The same, with the outputs stacked inside: PyTorch's float32 LSTM layer (padded, no
    projection) is one node, MkldnnRnnLayerBackward0 (its oneDNN kernel), and its outputs'
    grad_fn shows it."""
    stacked = True


MkldnnRnnLayer._backward_cls.__name__ = "MkldnnRnnLayerBackward0"


def apply(mode, reverse, gi, w_hh, b_hh, w_hr, batch_sizes, state):
    """(outputs (T, B, H) or packed (sum, H), final state) of one layer-direction, one
    graph node."""
    if mode == "LSTM" and w_hr is None and batch_sizes is None and \
            gi.dtype is mindtorch.float32:
        out, *state = MkldnnRnnLayer.apply(mode, reverse, None, gi, w_hh, b_hh, w_hr, *state)
        return out, tuple(state)
    r = Recurrence.apply(mode, reverse, batch_sizes, gi, w_hh, b_hh, w_hr, *state)
    join = mindtorch.stack if batch_sizes is None else mindtorch.cat
    return join(r[:-len(state)]), tuple(r[-len(state):])


def _recorded_grads(ctx, inputs, grads):
    """The gradients of the inputs (gi, w_hh, b_hh, w_hr, *initial), from the per-step loop
    run again with recording (for create_graph: the result is differentiable in the inputs
    and the gradients)."""
    from .rnn import _run_direction
    gi, w_hh, b_hh, w_hr, *initial = inputs
    needs = ctx.needs_input_grad[3:]
    wanted = [x for x, need in zip(inputs, needs) if need]
    k = len(initial)
    if ctx.stacked:
        out_grad = grads[0]
    else:
        out_grad = (mindtorch.stack if ctx.batch_sizes is None else mindtorch.cat)(grads[:-k])
    with mindtorch.enable_grad():
        out, state = _run_direction(ctx.mode, gi, tuple(initial), w_hh, b_hh, w_hr,
                                    ctx.batch_sizes, ctx.reverse, fused=False)
        found = iter(mindtorch.autograd.grad((out, *state), wanted, (out_grad, *grads[-k:]),
                                             create_graph=True, allow_unused=True))
    return tuple(next(found) if need else None for need in needs)
