"""The view ops' Python signatures one schema cannot express: atleast_Nd of several
tensors, Tensor.view(dtype), broadcast_tensors / meshgrid of varargs, and flatten over a
single dim returning the tensor itself (no node), as PyTorch's."""
from ...overrides import has_torch_function_unary, public_level
from ..registry import OPS, overload


def _atleast_public(binding):
    """atleast_Nd(t) gives a tensor; atleast_Nd(t1, t2, ...) or a sequence gives a tuple."""
    def atleast(*tensors):
        if len(tensors) == 1:
            if isinstance(tensors[0], (list, tuple)):
                return tuple(binding(t) for t in tensors[0])
            return binding(tensors[0])
        return tuple(binding(t) for t in tensors)
    return atleast


for _name in ("atleast_1d", "atleast_2d", "atleast_3d"):  # (handlers see all the tensors)
    overload(OPS[_name], public_level(OPS[_name], _atleast_public))


def _view_public(binding):
    """Tensor.view(*shape) and Tensor.view(dtype)."""
    from ..._dtype import dtype as _dtype_t
    view_dtype_ = OPS["view_dtype"].binding

    def view(self, *size, **kwargs):
        if "dtype" in kwargs:
            return view_dtype_(self, kwargs.pop("dtype"), **kwargs)
        if len(size) == 1 and type(size[0]) is _dtype_t:
            return view_dtype_(self, size[0])
        return binding(self, *size, **kwargs)
    return view


overload(OPS["view"], _view_public)


def _tensors_public(binding):
    """broadcast_tensors(*tensors) / meshgrid(*tensors or one sequence, indexing=)."""
    def public(*tensors, **kwargs):
        if binding._op.name == "meshgrid" and len(tensors) == 1 and \
                isinstance(tensors[0], (list, tuple)):
            tensors = tensors[0]
        if binding._op.name == "broadcast_tensors":
            if not tensors:
                return ()
            from ..._shapes import broadcast_shapes
            from ..._tensor import Tensor
            if all(isinstance(t, Tensor) for t in tensors) and not kwargs:
                # as PyTorch's expand_outplace: a tensor already of the broadcast shape is
                # returned itself (no node in the graph), the others expanded
                shape = broadcast_shapes(*(t._shape for t in tensors))
                return tuple(t if t._shape == shape else t.expand(shape) for t in tensors)
        if not tensors:
            raise RuntimeError("meshgrid expects a non-empty TensorList")
        return binding(tuple(tensors), **kwargs)
    return public


# (handlers see the tensors as given, not the binding's list)
overload(OPS["broadcast_tensors"], public_level(OPS["broadcast_tensors"], _tensors_public))


def _flatten_public(binding):
    """flatten over a single dim is the tensor itself, as in PyTorch (no node recorded)."""
    def public(self, start_dim=0, end_dim=-1):
        from ..._tensor import Tensor
        # (an overriding tensor: the binding hands the call over)
        if isinstance(self, Tensor) and self.ndim and type(start_dim) is int and \
                type(end_dim) is int and -self.ndim <= start_dim < self.ndim and \
                -self.ndim <= end_dim < self.ndim and \
                start_dim % self.ndim == end_dim % self.ndim and \
                not has_torch_function_unary(self):
            return self
        return binding(self, start_dim, end_dim)
    return public


overload(OPS["flatten"], _flatten_public)
overload(OPS["meshgrid"], public_level(OPS["meshgrid"], _tensors_public))
