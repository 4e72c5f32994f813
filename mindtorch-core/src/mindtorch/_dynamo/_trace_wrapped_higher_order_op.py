"""torch._dynamo._trace_wrapped_higher_order_op's TransformGetItemToIndex, which
transformers enters around its vmapped attention-mask functions: within it, indexing a
tensor with ints and integer tensors is advanced indexing with tensors (an int becomes a
0-dim int64 tensor), so no index is read back as a Python number."""
from .._tensor import Tensor
from ..overrides import TorchFunctionMode
from ..utils._pytree import tree_leaves


class TransformGetItemToIndex(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func is Tensor.__getitem__:
            t = args[0]
            indices = tree_leaves(args[1])
            if all(isinstance(x, (Tensor, int)) for x in indices):
                from .. import int64, tensor
                return t[tuple(x if isinstance(x, Tensor) else
                               tensor(x, dtype=int64, device=t.device) for x in indices)]
        return func(*args, **(kwargs or {}))
