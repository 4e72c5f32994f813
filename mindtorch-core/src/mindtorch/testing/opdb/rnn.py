"""Samples of the fused recurrent cells (_ops/decls/rnn.py), and their references in
PyTorch (see torch_references)."""
import mindtorch
from mindtorch._ops import OPS

from ._make import t

_f64, _bf16 = mindtorch.float64, mindtorch.bfloat16


def _lstm_backward_args(d, batch, hidden, dtype=mindtorch.float32, transposed=False,
                        grads=(True, True)):
    """(grad_hy, grad_cy, cx, workspace): the workspace of a forward on random gates."""
    gates, cx = t(d, (batch, 4 * hidden), dtype), t(d, (batch, hidden), dtype, transposed)
    workspace = OPS["_lstm_cell"].call(gates, cx)[2]
    grad_hy, grad_cy = (t(d, (batch, hidden), dtype) if g else None for g in grads)
    return (grad_hy, grad_cy, cx, workspace), {}


def _gru_backward_args(d, batch, hidden, dtype=mindtorch.float32):
    """(grad, hx, workspace)."""
    gi, gh, hx = (t(d, (batch, 3 * hidden), dtype), t(d, (batch, 3 * hidden), dtype),
                  t(d, (batch, hidden), dtype))
    return (t(d, (batch, hidden), dtype), hx, OPS["_gru_cell"].call(gi, gh, hx)[1]), {}


SAMPLES = {
    "_lstm_cell": [
        lambda d: ((t(d, (3, 8)), t(d, (3, 2))), {}),
        lambda d: ((t(d, (2, 20), _f64, transposed=True), t(d, (2, 5), _f64)), {}),
        lambda d: ((t(d, (4, 4), _bf16), t(d, (4, 1), _bf16)), {}),
        lambda d: ((t(d, (0, 8)), t(d, (0, 2))), {}),
    ],
    "_lstm_cell_backward": [
        lambda d: _lstm_backward_args(d, 3, 2),
        lambda d: _lstm_backward_args(d, 2, 5, _f64, transposed=True),
        lambda d: _lstm_backward_args(d, 3, 2, grads=(True, False)),
        lambda d: _lstm_backward_args(d, 3, 2, grads=(False, True)),
    ],
    "_gru_cell": [
        lambda d: ((t(d, (3, 6)), t(d, (3, 6)), t(d, (3, 2))), {}),
        lambda d: ((t(d, (2, 15), _f64), t(d, (2, 15), _f64, transposed=True),
                    t(d, (2, 5), _f64)), {}),
        lambda d: ((t(d, (4, 3), _bf16), t(d, (4, 3), _bf16), t(d, (4, 1), _bf16)), {}),
        lambda d: ((t(d, (0, 6)), t(d, (0, 6)), t(d, (0, 2))), {}),
    ],
    "_gru_cell_backward": [
        lambda d: _gru_backward_args(d, 3, 2),
        lambda d: _gru_backward_args(d, 2, 5, _f64),
    ],
}


def torch_references(torch):
    """{op name: the PyTorch function it is compared with}: the cell's math in PyTorch's
    ops, as ATen's LSTMCell / GRUCell compute it after their matmuls (torch.lstm_cell
    takes weights, whose matmul would mix inf and NaN across the gates), and torch's
    autograd of it for the backward ops."""
    def lstm_cell(gates, cx):
        i, f, g, o = gates.chunk(4, 1)
        i, f, g, o = i.sigmoid(), f.sigmoid(), g.tanh(), o.sigmoid()
        cy = f * cx + i * g
        tc = cy.tanh()
        return o * tc, cy, torch.cat([i, f, g, o, tc], 1).detach()

    def variable(x):  # (differentiable results in the arguments that require grad)
        return x if x.requires_grad else x.detach().requires_grad_()

    def lstm_cell_backward(grad_hy, grad_cy, cx, workspace):
        """(The workspace is taken as a constant.)"""
        i, f, g, o, _ = workspace.detach().chunk(5, 1)  # the gates from their activations
        gates = variable(torch.cat([i.logit(), f.logit(), g.atanh(), o.logit()], 1))
        cx = variable(cx)
        pairs = [(out, grad) for out, grad in zip(lstm_cell(gates, cx)[:2], (grad_hy, grad_cy))
                 if grad is not None]
        return torch.autograd.grad([p[0] for p in pairs], (gates, cx), [p[1] for p in pairs],
                                   create_graph=True)

    def gru_cell(input_gates, hidden_gates, hx):
        i_r, i_z, i_n = input_gates.chunk(3, 1)
        h_r, h_z, h_n = hidden_gates.chunk(3, 1)
        r = (i_r + h_r).sigmoid()
        z = (i_z + h_z).sigmoid()
        n = (i_n + r * h_n).tanh()
        return (hx - n) * z + n, torch.cat([r, z, n, h_n], 1).detach()

    def gru_cell_backward(grad, hx, workspace):
        """(The workspace is taken as a constant.)"""
        r, z, n, h_n = workspace.detach().chunk(4, 1)  # projections giving these activations
        input_gates = torch.cat([r.logit(), z.logit(), n.atanh() - r * h_n], 1)
        hidden_gates = torch.cat([torch.zeros_like(r), torch.zeros_like(z), h_n], 1)
        inputs = [variable(x) for x in (input_gates, hidden_gates, hx)]
        return torch.autograd.grad(gru_cell(*inputs)[0], inputs, grad, create_graph=True)

    return {"_lstm_cell": lstm_cell, "_lstm_cell_backward": lstm_cell_backward,
            "_gru_cell": gru_cell, "_gru_cell_backward": gru_cell_backward}
