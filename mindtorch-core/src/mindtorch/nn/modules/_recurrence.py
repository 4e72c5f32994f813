"""One layer-direction of nn.LSTM / nn.GRU over a whole (unpacked) sequence, as one graph
node (an autograd Function), as PyTorch's fused CPU RNN records it.

Its forward is the loop of nn/modules/rnn.py without recording: per step one matmul with
the hidden state and one fused cell op, keeping each step's previous state and the cell's
workspace.  Its backward runs the steps in reverse: per step one cell backward op and one
matmul for the previous hidden state's gradient; the hidden weight's gradient is then one
matmul over all steps (sum over t of grad_gates_t^T h_{t-1}), not one matmul and one
accumulation per step.  Under create_graph the loop is recorded again and differentiated
(so gradients of gradients are exact).  Built from mindtorch ops: runs on every device."""
import mindtorch
from mindtorch._ops import OPS

from ...autograd.function import Function

_CELL = {"LSTM": OPS["_lstm_cell"], "GRU": OPS["_gru_cell"]}
_BACKWARD = {"LSTM": OPS["_lstm_cell_backward"], "GRU": OPS["_gru_cell_backward"]}


class Recurrence(Function):
    """apply(mode, reverse, gi, w_hh, b_hh, *state) -> (*outputs of each step (B, H),
    *final state), the caller stacking the outputs (StackBackward0, as PyTorch's graph of
    a GRU or a float64 LSTM).  gi: the projected inputs (T > 0, B, G), input biases
    included (LSTM: b_hh too, so its b_hh is None here); state: (h0,) or (h0, c0)."""
    stacked = False

    @staticmethod
    def forward(ctx, mode, reverse, gi, w_hh, b_hh, *state):
        cell, w_t = _CELL[mode], w_hh.t()
        steps = gi.unbind(0)
        n = len(steps)
        outs, before, work = [None] * n, [None] * n, [None] * n
        for t in (range(n - 1, -1, -1) if reverse else range(n)):
            before[t] = state
            h = state[0]
            if mode == "LSTM":
                h, c, work[t] = cell.call(mindtorch.addmm(steps[t], h, w_t), state[1])
                state = (h, c)
            else:
                gh = h.mm(w_t) if b_hh is None else mindtorch.addmm(b_hh, h, w_t)
                h, work[t] = cell.call(steps[t], gh, h)
                state = (h,)
            outs[t] = h
        previous = [mindtorch.stack([s[k] for s in before]) for k in range(len(state))]
        first = before[-1] if reverse else before[0]
        ctx.save_for_backward(gi, w_hh, b_hh, *first, mindtorch.stack(work), *previous)
        ctx.mode, ctx.reverse, ctx.n_state = mode, reverse, len(state)
        ctx.stacked = ctx._forward_cls.stacked  # (ctx is the node of this class's call)
        return (mindtorch.stack(outs), *state) if ctx.stacked else (*outs, *state)

    @staticmethod
    def backward(ctx, *grads):
        mode, k = ctx.mode, ctx.n_state
        grad_out = grads[0] if ctx.stacked else mindtorch.stack(grads[:-k])
        grad_state = grads[-k:]
        saved = ctx.saved_tensors
        gi, w_hh, b_hh, initial = saved[0], saved[1], saved[2], saved[3:3 + k]
        work, previous = saved[3 + k], saved[4 + k:]
        if mindtorch.is_grad_enabled():  # create_graph: the recorded loop, differentiated
            return (None, None) + _recorded_grads(ctx, gi, w_hh, b_hh, initial,
                                                  (grad_out,) + tuple(grad_state))
        n = gi.shape[0]
        backward = _BACKWARD[mode]
        d_state = list(grad_state)
        grad_gi, grad_gh = [None] * n, [None] * n
        go, ws, prev = grad_out.unbind(0), work.unbind(0), [p.unbind(0) for p in previous]
        for t in (range(n) if ctx.reverse else range(n - 1, -1, -1)):
            dh = d_state[0] + go[t]
            if mode == "LSTM":
                grad_gi[t], dc = backward.call(dh, d_state[1], prev[1][t], ws[t])
                grad_gh[t] = grad_gi[t]
                d_state = [grad_gi[t].mm(w_hh), dc]
            else:
                grad_gi[t], grad_gh[t], dh_direct = backward.call(dh, prev[0][t], ws[t])
                d_state = [dh_direct + grad_gh[t].mm(w_hh)]
        need = ctx.needs_input_grad
        g_gi, g_gh = mindtorch.stack(grad_gi), mindtorch.stack(grad_gh)
        g_w = g_b = None
        if need[3]:  # sum over steps and batch of grad_gates^T h_prev, as one matmul
            g_w = g_gh.reshape(-1, g_gh.shape[-1]).t().mm(
                previous[0].reshape(-1, previous[0].shape[-1]))
        if need[4]:
            g_b = g_gh.sum((0, 1))
        return (None, None, g_gi, g_w, g_b, *d_state)


class MkldnnRnnLayer(Recurrence):
    """The same, with the outputs stacked inside: PyTorch's float32 LSTM layer is one node,
    MkldnnRnnLayerBackward0 (its oneDNN kernel), and its outputs' grad_fn shows it."""
    stacked = True


MkldnnRnnLayer._backward_cls.__name__ = "MkldnnRnnLayerBackward0"


def apply(mode, reverse, gi, w_hh, b_hh, state):
    """(outputs (T, B, H), final state) of one layer-direction, one graph node."""
    if mode == "LSTM" and gi.dtype is mindtorch.float32:
        out, *state = MkldnnRnnLayer.apply(mode, reverse, gi, w_hh, b_hh, *state)
        return out, tuple(state)
    r = Recurrence.apply(mode, reverse, gi, w_hh, b_hh, *state)
    return mindtorch.stack(r[:-len(state)]), tuple(r[-len(state):])


def _recorded_grads(ctx, gi, w_hh, b_hh, initial, grads):
    """The gradients of the inputs, from the per-step loop run again with recording (for
    create_graph: the result is differentiable in the inputs and the gradients)."""
    from .rnn import _run_direction
    inputs = [gi, w_hh, b_hh, *initial]
    wanted = [x for x, need in zip(inputs, ctx.needs_input_grad[2:]) if need]
    with mindtorch.enable_grad():
        out, state = _run_direction(ctx.mode, gi, tuple(initial), w_hh, b_hh, None, None,
                                    ctx.reverse, fused=False)
        found = iter(mindtorch.autograd.grad((out, *state), wanted, grads, create_graph=True,
                                             allow_unused=True))
    return tuple(next(found) if need else None for need in ctx.needs_input_grad[2:])
