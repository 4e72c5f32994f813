"""torch.nn.utils.convert_parameters: parameters to one flat vector and back."""
from ..._tensor import Tensor

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def _check_param_device(param, old):
    # as PyTorch: host devices (cpu, meta) count as one, -1; accelerators by device
    here = -1 if param.device.type in ("cpu", "meta") else param.device
    if old is not None and here != old:
        raise TypeError("Found two parameters on different devices, this is currently not "
                        "supported.")
    return here


def parameters_to_vector(parameters):
    from ... import cat
    device = None
    vec = []
    for param in parameters:
        device = _check_param_device(param, device)
        vec.append(param.view(-1))
    return cat(vec)


def vector_to_parameters(vec, parameters):
    """Each parameter's data becomes its slice of vec (a view: they share memory)."""
    if not isinstance(vec, Tensor):
        from ..modules.module import _typename
        raise TypeError(f"expected torch.Tensor, but got: {_typename(vec)}")
    device = None
    pointer = 0
    for param in parameters:
        device = _check_param_device(param, device)
        n = param.numel()
        param.data = vec[pointer:pointer + n].view_as(param).data
        pointer += n
