"""Values to and from PyTorch (the reference), and what PyTorch itself does with a
sample: its result on its meta device, the exception it raises, its out= refusals."""
import mindtorch
from mindtorch import Tensor

from ._sample_runs import _map, _quiet, build, has_data


def to_torch(x, torch):
    """The same value in PyTorch: tensors with their values, dtype and exact geometry
    (strides and offset over a copy of their storage), dtypes, devices (as cpu)."""
    def one(v):
        if isinstance(v, Tensor):
            return _tensor_to_torch(v, torch)
        if isinstance(v, mindtorch.dtype):
            return getattr(torch, str(v).removeprefix("torch."))
        if isinstance(v, mindtorch.device):
            return torch.device("meta" if v.type == "meta" else "cpu")
        if isinstance(v, mindtorch.Generator):
            return None
        if isinstance(v, str) and v in _FORMATS:  # (memory formats are str subclasses)
            return getattr(torch, str.__str__(v))
        return v
    return _map(x, one)


def _tensor_to_torch(t, torch):
    import numpy as np
    t = t.detach()
    dtype = getattr(torch, str(t.dtype).removeprefix("torch."))
    if t.device.type == "meta" or not has_data(t.device):
        return torch.empty_strided(tuple(t.shape), t.stride(), dtype=dtype, device="meta")
    if any(s < 0 for s in t.stride()):
        host = np.ascontiguousarray(t._host())
        return _from_numpy(host, t.dtype, dtype, torch).reshape(tuple(t.shape))
    raw = np.array(t._storage._host_bytes(), dtype=np.uint8)
    # a storage of torch's own (resizable, as a tensor made in torch is)
    base = torch.from_numpy(raw).clone().view(dtype) if raw.size else \
        torch.empty(0, dtype=dtype)
    offset = t.storage_offset() if t.numel() else 0
    return base.as_strided(tuple(t.shape), t.stride(), offset)


def _from_numpy(a, mt_dtype, dtype, torch):
    import numpy as np
    if mt_dtype is mindtorch.bfloat16:
        return torch.from_numpy(np.ascontiguousarray(a).view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(np.ascontiguousarray(a))


def from_torch(x, torch):
    """A PyTorch result as mindtorch values (tensors on the cpu, or on meta)."""
    def one(v):
        if isinstance(v, torch.Tensor):
            v = v.detach()
            dtype = getattr(mindtorch, str(v.dtype).removeprefix("torch."))
            if v.device.type == "meta":
                return mindtorch.empty_strided(tuple(v.shape), v.stride(), dtype=dtype,
                                               device="meta")
            v = v.resolve_conj().resolve_neg().cpu()
            a = (v.view(torch.int16) if v.dtype is torch.bfloat16 else v).numpy()
            if v.dtype is torch.bfloat16:
                a = a.view(mindtorch.bfloat16.np)
            return mindtorch.from_numpy(a.copy())
        if isinstance(v, torch.dtype):
            return getattr(mindtorch, str(v).removeprefix("torch."))
        if isinstance(v, torch.Size):
            return tuple(v)
        return v
    return _map(x, one)


# -- the checks ---------------------------------------------------------------------------------


def _torch_tensors(x, torch):
    if isinstance(x, torch.Tensor):
        yield x
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from _torch_tensors(v, torch)
    elif isinstance(x, dict):
        for v in x.values():
            yield from _torch_tensors(v, torch)


def _torch_meta(ref, sample, i, torch):
    """The reference's result on PyTorch's meta device, or None where it raises."""
    targs = to_torch(build(sample, i, "meta"), torch)
    try:
        with _quiet():
            return ref(*targs[0], **targs[1])
    except Exception:
        return None


_UNKNOWN = object()  # PyTorch cannot be asked (not installed, or no such function)


def _torch_error(op, sample, i):
    """What PyTorch's function of op's name does with this sample: the exception it
    raises, False if it succeeds, None if that cannot be told (no such function), _UNKNOWN
    without torch."""
    from .opdb import opinfo
    try:
        import torch
    except ImportError:
        return _UNKNOWN
    ref = opinfo(op.name).torch_reference(torch)
    if ref is None:
        return None
    args, kwargs = to_torch(build(sample, i, "cpu"), torch)
    try:
        with _quiet():
            ref(*args, **kwargs)
    except Exception as e:
        return e
    return False



def _torch_out_error(info, sample, i, dtype, data=True):
    """The exception PyTorch raises for this sample with out= (None if it accepts it,
    _UNKNOWN without torch or reference); for devices without data, None also where
    PyTorch's meta accepts it.  `dtype`: the result's, or a tuple of the results' (out=
    then a tuple of tensors)."""
    try:
        import torch
    except ImportError:
        return _UNKNOWN
    ref = info.torch_reference(torch)
    if ref is None:
        return _UNKNOWN
    error = None
    for device in ("cpu",) if data else ("cpu", "meta"):
        args, kwargs = to_torch(build(sample, i, device), torch)
        try:
            with _quiet():
                ref(*args, **kwargs, out=_empty_out(dtype, device, torch))
            return None
        except Exception as e:
            error = error or e
    return error


def _empty_out(dtype, device, torch):
    if isinstance(dtype, tuple):
        return tuple(_empty_out(d, device, torch) for d in dtype)
    return torch.empty(0, dtype=to_torch(dtype, torch), device=device)


_FORMATS = ("contiguous_format", "preserve_format", "channels_last", "channels_last_3d")
