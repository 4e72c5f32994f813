"""Fused recurrent cells: the pointwise part of one LSTM or GRU time step as one op.

nn.LSTM / nn.GRU (nn/modules/rnn.py) compute the gates' matmuls as ops of their own; what
follows them (sigmoids, tanhs, products of one step) is one op here, and its backward one
op, instead of a dozen recorded ops and graph nodes per step.  Each op decomposes into
ordinary ops, which is how a backend without a fused kernel runs it.  (PyTorch has the
same split: _thnn_fused_lstm_cell and _thnn_fused_gru_cell, with a workspace.)

Layouts as PyTorch's weights: LSTM gates (B, 4H) in the order input, forget, cell, output;
GRU input / hidden projections (B, 3H) in the order reset, update, new, the hidden bias
included in the hidden projection (it sits inside the reset gate's product)."""
from ..registry import OPS, define, derivative

# The forward ops also return a workspace, the step's activations (LSTM: i, f, g, o and
# tanh(cy); GRU: r, z, n and the hidden projection's n block), so that their backward ops
# compute no transcendental function again (they cost most of a step on the CPU).  Under
# create_graph the gradients are recomputed from the inputs instead, differentiably.


def _lstm_gates(gates):
    i, f, g, o = gates.chunk(4, 1)
    return i.sigmoid(), f.sigmoid(), g.tanh(), o.sigmoid()


def _lstm_cell(gates, cx):
    """(hy, cy, workspace) of one LSTM step from its pre-activation gates and the previous
    cell."""
    import mindtorch as M
    i, f, g, o = _lstm_gates(gates)
    cy = f * cx + i * g
    tc = cy.tanh()
    return o * tc, cy, M.cat([i, f, g, o, tc], 1).detach()


def _lstm_cell_backward(grad_hy, grad_cy, cx, workspace):
    """(grad of gates, grad of cx) from the workspace; a missing output gradient counts as
    zero."""
    import mindtorch as M
    i, f, g, o, tc = workspace.chunk(5, 1)
    dc = M.zeros_like(cx) if grad_cy is None else grad_cy
    if grad_hy is None:
        do = M.zeros_like(o)
    else:
        do = grad_hy * tc
        dc = dc + grad_hy * o * (1 - tc * tc)
    return M.cat([dc * g * i * (1 - i), dc * cx * f * (1 - f), dc * i * (1 - g * g),
                  do * o * (1 - o)], 1), dc * f


def conj_factors(*ts):
    """ts conjugated if complex: the backward ops are linear in the gradients and multiply
    them by the saved factors, which PyTorch's convention conjugates (None stays None)."""
    return [t.conj() if t is not None and t.dtype.is_complex else t for t in ts]


def _lstm_cell_grad(grads, gates, cx, results):
    import mindtorch as M
    if grads[0] is None and grads[1] is None:
        return None, None
    if M.is_grad_enabled():  # create_graph: differentiable in gates and cx
        i, f, g, o = _lstm_gates(gates)
        tc = (f * cx + i * g).tanh()
        workspace = M.cat([i, f, g, o, tc], 1)
        return _lstm_cell_backward(grads[0], grads[1], *conj_factors(cx, workspace))
    return OPS["_lstm_cell_backward"].call(grads[0], grads[1], *conj_factors(cx, results[2]))


def _gru_gates(input_gates, hidden_gates):
    i_r, i_z, i_n = input_gates.chunk(3, 1)
    h_r, h_z, h_n = hidden_gates.chunk(3, 1)
    r = (i_r + h_r).sigmoid()
    return r, (i_z + h_z).sigmoid(), (i_n + r * h_n).tanh(), h_n


def _gru_cell(input_gates, hidden_gates, hx):
    """(hy, workspace) of one GRU step: hy = (hx - n) * z + n, PyTorch's order of
    operations."""
    import mindtorch as M
    r, z, n, h_n = _gru_gates(input_gates, hidden_gates)
    return (hx - n) * z + n, M.cat([r, z, n, h_n], 1).detach()


def _gru_cell_backward(grad, hx, workspace):
    """(grad of input_gates, grad of hidden_gates, grad of hx) from the workspace."""
    import mindtorch as M
    r, z, n, h_n = workspace.chunk(4, 1)
    dn = grad * (1 - z) * (1 - n * n)
    dr = dn * h_n * r * (1 - r)
    dz = grad * (hx - n) * z * (1 - z)
    return M.cat([dr, dz, dn], 1), M.cat([dr, dz, dn * r], 1), grad * z


def _gru_cell_grad(grads, input_gates, hidden_gates, hx, results):
    import mindtorch as M
    if grads[0] is None:
        return None, None, None
    if M.is_grad_enabled():  # create_graph: differentiable in the inputs
        workspace = M.cat(_gru_gates(input_gates, hidden_gates), 1)
        return _gru_cell_backward(grads[0], *conj_factors(hx, workspace))
    return OPS["_gru_cell_backward"].call(grads[0], *conj_factors(hx, results[1]))


def _declare():
    private = {"function": False, "method": False}
    define("_lstm_cell(Tensor gates, Tensor cx) -> (Tensor, Tensor, Tensor)",
           decomposition=_lstm_cell, **private)
    define("_lstm_cell_backward(Tensor? grad_hy, Tensor? grad_cy, Tensor cx, "
           "Tensor workspace) -> (Tensor, Tensor)", decomposition=_lstm_cell_backward,
           **private)
    define("_gru_cell(Tensor input_gates, Tensor hidden_gates, Tensor hx) -> (Tensor, Tensor)",
           decomposition=_gru_cell, **private)
    define("_gru_cell_backward(Tensor grad, Tensor hx, Tensor workspace) "
           "-> (Tensor, Tensor, Tensor)", decomposition=_gru_cell_backward, **private)


def _derivatives():
    derivative(OPS["_lstm_cell"], {"gates, cx": _lstm_cell_grad}, nondifferentiable_outputs=(2,))
    derivative(OPS["_gru_cell"], {"input_gates, hidden_gates, hx": _gru_cell_grad},
               nondifferentiable_outputs=(1,))


_declare()
_derivatives()
