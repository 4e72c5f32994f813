"""Derivatives of the backward ops that first derivatives call (sigmoid_backward,
tanh_backward, gelu_backward, hardswish_backward, _softmax_backward_data,
_log_softmax_backward_data): PyTorch's double-backward formulas.  (silu's first derivative
under create_graph is a composite in PyTorch too: silu_backward stays differentiable
through its decomposition.)

Without them these ops are differentiable through their decompositions, with the right
values; declared, a first derivative taken under create_graph has PyTorch's history
(`SigmoidBackwardBackward0`, `SoftmaxBackwardDataBackward0`, ... as its grad_fn) and a
second derivative PyTorch's formula.  Without create_graph nothing changes: the bindings
run the decompositions as before."""
import math

from ..registry import OPS, derivative
from .pointwise_grads import _cj

# (complex: the backward ops compute grad_output * conj(h(y)) for h real on the real line,
# whose gradient in y is conj(grad) * grad_output * conj(h'(y)) and in grad_output
# grad * h(y), the op on conj(y))

def _sigmoid_output_grad(grad, grad_output, output):
    return _cj(grad) * grad_output * (1 - 2 * _cj(output))


def _tanh_output_grad(grad, grad_output, output):
    return _cj(grad) * grad_output * (-2 * _cj(output))


def _gelu_self_grad(grad, grad_output, self, approximate):
    """gelu's second derivative times grad and grad_output: phi(x) (2 - x^2) exactly; with
    u = beta (x + kappa x^3), t = tanh(u): (1 - t^2) (u' + x (u'' - 2 t u'^2) / 2)."""
    x = self
    if approximate == "tanh":
        beta, kappa = math.sqrt(2 / math.pi), 0.044715
        x2 = x * x
        t = (beta * (x + kappa * x2 * x)).tanh()
        du = beta * (1 + 3 * kappa * x2)
        d2u = 6 * beta * kappa * x
        second = (1 - t * t) * (du + 0.5 * x * (d2u - 2 * t * du * du))
    else:
        pdf = (-0.5 * x * x).exp() * (1 / math.sqrt(2 * math.pi))
        second = pdf * (2 - x * x)
    return grad * grad_output * second


def _hardswish_self_grad(grad, grad_output, self):
    inside = (self > -3) & (self < 3)
    return OPS["where"].call(inside, grad * grad_output / 3, 0)


def _softmax_output_grad(grad, grad_output, output, dim):
    return grad_output * grad - (output * grad_output).sum(dim, keepdim=True) * grad \
        - grad_output * (output * grad).sum(dim, keepdim=True)


def _log_softmax_grad_output_grad(grad, output, dim):
    return grad - (grad * output.exp()).sum(dim, keepdim=True)


def _log_softmax_output_grad(grad, grad_output, output, dim):
    return -grad_output.sum(dim, keepdim=True) * output.exp() * grad


def _op(name):
    return OPS[name].call


# (grad_output's formulas: the op itself on grad, as it is linear in grad_output)
_FORMULAS = {
    "sigmoid_backward": {
        "grad_output": lambda grad, output: _op("sigmoid_backward")(grad, _cj(output)),
        "output": _sigmoid_output_grad},
    "tanh_backward": {
        "grad_output": lambda grad, output: _op("tanh_backward")(grad, _cj(output)),
        "output": _tanh_output_grad},
    "gelu_backward": {
        "grad_output": lambda grad, self, approximate:
            _op("gelu_backward")(grad, self, approximate=approximate),
        "self": _gelu_self_grad},
    "hardswish_backward": {
        "grad_output": lambda grad, self: _op("hardswish_backward")(grad, self),
        "self": _hardswish_self_grad},
    "_softmax_backward_data": {
        "grad_output": lambda grad, output, dim, input_dtype:
            _op("_softmax_backward_data")(grad, output, dim, input_dtype),
        "output": _softmax_output_grad},
    "_log_softmax_backward_data": {"grad_output": _log_softmax_grad_output_grad,
                                   "output": _log_softmax_output_grad},
}

for _name, _formulas in _FORMULAS.items():
    derivative(OPS[_name], **_formulas)
