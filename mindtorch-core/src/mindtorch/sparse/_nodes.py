"""One backward node, named as PyTorch names it (SparseAddmmBackward0 ...), for the sparse
functions mindtorch composes from several ops (torch.sparse.mm, sum, softmax): the composite
runs on detached inputs under its own small graph, which the node differentiates."""
from .._tensor import Tensor
from ..autograd.function import Function
from ._tensor import SparseTensor, make_coo, node_name

_CLASSES = {}


def _M():
    import mindtorch
    return mindtorch


class _Composite(Function):
    @staticmethod
    def forward(ctx, fn, *inputs):
        M = _M()
        leaves = [x.detach().requires_grad_() if isinstance(x, Tensor) and x.requires_grad
                  else x for x in inputs]
        with M.enable_grad():
            out = fn(*leaves)
        ctx.leaves = leaves
        ctx.save_for_backward(out)  # (so a second backward without retain_graph fails)
        return out.detach()

    @staticmethod
    def backward(ctx, g):
        M = _M()
        wanted = [x for x in ctx.leaves if isinstance(x, Tensor) and x.requires_grad]
        (out,) = ctx.saved_tensors
        grads = iter(M.autograd.grad(out, wanted, g, allow_unused=True,  # (the outer
                                     retain_graph=True,  # graph decides when ours goes)
                                     create_graph=M.is_grad_enabled()))
        return (None,) + tuple(_unflagged(next(grads)) if isinstance(x, Tensor) and
                               x.requires_grad else None for x in ctx.leaves)


def _unflagged(g):
    """A COO gradient as PyTorch's sparse backward kernels give it: not marked coalesced."""
    if g is None or not isinstance(g, SparseTensor) or not g.is_sparse or not g._coalesced:
        return g
    return make_coo(g._idx, g._vals, g._shape, False)


def recorded_as(name, fn, *inputs):
    """fn(*inputs), recorded (when an input requires grad) as one node called name."""
    M = _M()
    if not (M.is_grad_enabled() and any(isinstance(x, Tensor) and x.requires_grad
                                        for x in inputs)):
        return fn(*inputs)
    cls = _CLASSES.get(name)
    if cls is None:
        cls = _CLASSES[name] = node_name(name)(type(name, (_Composite,), {}))
    return cls.apply(fn, *inputs)


@node_name("SparseAddmmBackward0")
class SparseDenseMm(Function):
    """torch.sparse.mm(sparse, dense) when only the dense operand requires grad (a graph's
    fixed adjacency): one mm each way."""
    @staticmethod
    def forward(ctx, s, d):
        ctx.save_for_backward(s)
        return _M().mm(s, d)

    @staticmethod
    def backward(ctx, g):
        (s,) = ctx.saved_tensors
        return None, _M().mm(s.t(), g)
