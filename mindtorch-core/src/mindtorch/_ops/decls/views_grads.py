"""Backward formulas of the view ops (views.py declares them).  A view's gradient is its
input's gradient seen through the inverse view.  Geometry arguments (shape, stride,
offset) stand in for the tensors, so no data is kept; broadcast views (expand,
broadcast_to) return the grad as is and the engine sums it back."""
from ...autograd._backward_ops import renamed as _renamed
from ...autograd.functional_helpers import view_scatter
from .views import _conj


def _shape_of(grad, self_geometry):
    return grad.reshape(self_geometry[0])


def _unsqueeze_to(grad, self_geometry, dim):
    """squeeze's gradient as PyTorch's unsqueeze_to: grad with the squeezed size-1 dims
    unsqueezed back (their strides as unsqueeze gives them; a reshape's differ)."""
    shape = self_geometry[0]
    dims = range(len(shape)) if dim is None else (dim,) if isinstance(dim, int) else dim
    for d in sorted({d % len(shape) for d in dims} if shape else ()):
        if shape[d] == 1:
            grad = grad.unsqueeze(d)
    return grad


def _generic(grad, self_geometry, result_geometry):
    return view_scatter(grad, self_geometry, result_geometry)


# (PyTorch's formulas of slice, select, narrow, diagonal and unfold are backward ops: under
# create_graph a gradient through them shows SliceBackwardBackward0, ... as its grad_fn)

@_renamed
def _slice_grad(grad, self_geometry, dim, start, end, step):
    return grad.new_zeros(self_geometry[0]).slice_scatter(grad, dim, start, end, step)


@_renamed
def _narrow_grad(grad, self_geometry, dim, start, length):
    start %= max(self_geometry[0][dim], 1)
    return grad.new_zeros(self_geometry[0]).slice_scatter(grad, dim, start, start + length)


@_renamed
def _select_grad(grad, self_geometry, dim, index):
    return grad.new_zeros(self_geometry[0]).select_scatter(grad, dim,
                                                          index % self_geometry[0][dim])


@_renamed
def _view_backward_op(grad, self_geometry, result_geometry):
    return view_scatter(grad, self_geometry, result_geometry)


def _meshgrid_grad(grads, tensors_geometry, indexing=None):
    out = []
    n = len(grads)
    for k, g in enumerate(grads):
        axis = k
        if indexing == "xy" and n >= 2 and k < 2:
            axis = 1 - k
        others = [d for d in range(g.ndim) if d != axis]
        out.append(g.sum(others).reshape(tensors_geometry[k][0]))
    return out


_RESHAPE = {"self": _shape_of}
_VIEW_GRADS = {
    **{name: _RESHAPE for name in ("view", "reshape", "view_as", "reshape_as", "flatten",
                                   "unflatten", "ravel", "atleast_1d",
                                   "atleast_2d", "atleast_3d", "squeeze_", "unsqueeze_")},
    **{name: {"self": _generic} for name in ("as_strided", "movedim", "moveaxis",
                                             "as_strided_")},
    **{name: {"self": _view_backward_op} for name in ("unfold", "diagonal")},
    **{name: {"self": lambda grad: grad} for name in ("expand", "expand_as", "broadcast_to",
                                                      "alias")},
    "transpose": {"self": lambda grad, dim0, dim1: grad.transpose(dim0, dim1)},
    "swapdims": {"self": lambda grad, dim0, dim1: grad.transpose(dim0, dim1)},
    "swapaxes": {"self": lambda grad, axis0, axis1: grad.transpose(axis0, axis1)},
    "transpose_": {"self": lambda grad, dim0, dim1: grad.transpose(dim0, dim1)},
    "swapdims_": {"self": lambda grad, dim0, dim1: grad.transpose(dim0, dim1)},
    "swapaxes_": {"self": lambda grad, axis0, axis1: grad.transpose(axis0, axis1)},
    # (PyTorch's formula: a second derivative's history shows SqueezeBackward1)
    "unsqueeze": {"self": lambda grad, dim: grad.squeeze(dim)},
    "squeeze": {"self": _unsqueeze_to},
    "t": {"self": lambda grad: grad.t()},
    "t_": {"self": lambda grad: grad.t()},
    "numpy_T": {"self": lambda grad: grad.permute(tuple(range(grad.ndim))[::-1])},
    "mT": {"self": lambda grad: grad.mT if grad.ndim >= 2 else grad},
    "mH": {"self": lambda grad: grad.mH if grad.ndim >= 2 else _conj(grad)},
    "adjoint": {"self": lambda grad: grad.mH if grad.ndim >= 2 else _conj(grad)},
    "matrix_H": {"self": lambda grad: grad.mH if grad.ndim >= 2 else _conj(grad)},
    "permute": {"self": lambda grad, dims: grad.permute(
        sorted(range(len(dims)), key=lambda i: dims[i]))},
    "select": {"self": _select_grad},
    "slice": {"self": _slice_grad},
    "narrow": {"self": _narrow_grad},
    "view_as_real": {"self": lambda grad: __import__("mindtorch").view_as_complex(
        grad.contiguous())},
    "view_as_complex": {"self": lambda grad: __import__("mindtorch").view_as_real(grad)},
    "broadcast_tensors": {"tensors": lambda grads: grads},
    "meshgrid": {"tensors": _meshgrid_grad},
}
