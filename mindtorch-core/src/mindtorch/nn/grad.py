"""torch.nn.grad: the gradients of conv1d/2d/3d with respect to their input or weight,
given the gradient of their output (as the convolution's backward computes them; the
results stay differentiable when a given tensor requires grad)."""
from .. import autograd
from ..autograd.grad_mode import enable_grad

__all__ = ["conv1d_input", "conv1d_weight", "conv2d_input", "conv2d_weight", "conv3d_input",
           "conv3d_weight"]


def _grad_of(nd, which, input, weight, grad_output, stride, padding, dilation, groups):
    import mindtorch as M
    conv = getattr(M.nn.functional, f"conv{nd}d")
    keep = grad_output.requires_grad or (input if which == "weight" else weight).requires_grad
    with enable_grad():
        target = (input if which == "input" else weight).detach().requires_grad_()
        args = (target, weight) if which == "input" else (input, target)
        out = conv(*args, None, stride, padding, dilation, groups)
        (g,) = autograd.grad(out, target, grad_output, create_graph=keep)
    return g


def _input_fn(nd):
    def conv_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
        import mindtorch as M
        blank = M.zeros(tuple(input_size), dtype=grad_output.dtype, device=grad_output.device)
        return _grad_of(nd, "input", blank, weight, grad_output, stride, padding, dilation,
                        groups)
    conv_input.__name__ = f"conv{nd}d_input"
    return conv_input


def _weight_fn(nd):
    def conv_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1,
                    groups=1):
        import mindtorch as M
        blank = M.zeros(tuple(weight_size), dtype=input.dtype, device=input.device)
        return _grad_of(nd, "weight", input, blank, grad_output, stride, padding, dilation,
                        groups)
    conv_weight.__name__ = f"conv{nd}d_weight"
    return conv_weight


conv1d_input, conv2d_input, conv3d_input = (_input_fn(n) for n in (1, 2, 3))
conv1d_weight, conv2d_weight, conv3d_weight = (_weight_fn(n) for n in (1, 2, 3))
