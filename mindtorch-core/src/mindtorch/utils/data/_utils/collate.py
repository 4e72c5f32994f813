"""default_collate / default_convert (torch.utils.data._utils.collate): turn samples
into batches of tensors, keeping the samples' container structure."""
import collections.abc
import copy
import re
import sys

from ...._tensor import Tensor

np_str_obj_array_pattern = re.compile(r"[SaUO]")  # numpy dtype codes default_collate cannot stack

default_collate_err_msg_format = ("default_collate: batch must contain tensors, numpy arrays, "
                                  "numbers, dicts or lists; found {}")


def _is_numpy(x):
    t = type(x)
    return t.__module__ == "numpy" and t.__name__ not in ("str_", "string_")


def _rebuild(template, items):
    """A container like `template` holding `items` (a plain list/dict when its type
    cannot be built that way)."""
    try:
        if isinstance(template, collections.abc.MutableMapping):
            clone = copy.copy(template)
            clone.update(items)
            return clone
        if isinstance(template, collections.abc.Mapping):
            return type(template)(items)
        if isinstance(template, collections.abc.MutableSequence):
            clone = copy.copy(template)
            for i, item in enumerate(items):
                clone[i] = item
            return clone
        return type(template)(items)
    except TypeError:
        return dict(items) if isinstance(template, collections.abc.Mapping) else list(items)


def default_convert(data):
    """Numpy arrays and scalars become tensors, inside any containers; nothing is
    batched (the collate_fn of a DataLoader with batch_size=None)."""
    from .... import as_tensor
    if isinstance(data, Tensor):
        return data
    if _is_numpy(data):
        if type(data).__name__ == "ndarray" and np_str_obj_array_pattern.search(data.dtype.str):
            return data
        return as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return _rebuild(data, {k: default_convert(data[k]) for k in data})
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # namedtuple
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return _rebuild(data, [default_convert(d) for d in data])
    return data


# -- leaf collate functions, keyed by sample type --------------------------------------

def collate_tensor_fn(batch, *, collate_fn_map=None):
    from .... import empty, stack
    from .worker import get_worker_info
    elem = batch[0]
    if elem.is_sparse or elem.is_sparse_csr:
        raise RuntimeError("Batches of sparse tensors are not currently supported by the "
                           "default collate_fn; please provide a custom collate_fn to handle "
                           "them appropriately.")
    if get_worker_info() is None:
        return stack(batch, 0)
    # a worker stacks into a new tensor of the first sample's dtype (PyTorch's shared
    # memory buffer, sized from every sample's numel first: a non-tensor fails there):
    # other dtypes must cast to it, samples requiring grad are refused
    sum(x.numel() for x in batch)
    out = empty((len(batch), *elem.shape), dtype=elem.dtype, device=elem.device)
    return stack(batch, 0, out=out)


def collate_numpy_array_fn(batch, *, collate_fn_map=None):
    from .... import as_tensor
    if np_str_obj_array_pattern.search(batch[0].dtype.str):
        raise TypeError(default_collate_err_msg_format.format(batch[0].dtype))
    return collate([as_tensor(b) for b in batch], collate_fn_map=collate_fn_map)


def collate_numpy_scalar_fn(batch, *, collate_fn_map=None):
    from .... import as_tensor
    return as_tensor(batch)


def collate_float_fn(batch, *, collate_fn_map=None):
    from .... import float64, tensor
    return tensor(batch, dtype=float64)


def collate_int_fn(batch, *, collate_fn_map=None):  # bool too: a bool tensor
    from .... import tensor
    return tensor(batch)


def collate_str_fn(batch, *, collate_fn_map=None):
    return batch


default_collate_fn_map = {Tensor: collate_tensor_fn, float: collate_float_fn,
                          int: collate_int_fn, str: collate_str_fn, bytes: collate_str_fn}


def _add_numpy_entries():
    """NumPy's types join the map (right after Tensor, PyTorch's order) once NumPy is
    loaded: import mindtorch stays NumPy-free, and without NumPy no sample is NumPy's."""
    import numpy as np
    if np.ndarray in default_collate_fn_map:
        return
    rest = list(default_collate_fn_map.items())[1:]
    for key, _ in rest:
        del default_collate_fn_map[key]
    default_collate_fn_map[np.ndarray] = collate_numpy_array_fn
    default_collate_fn_map[(np.bool_, np.number, np.object_)] = collate_numpy_scalar_fn
    default_collate_fn_map.update(rest)


def collate(batch, *, collate_fn_map=None):
    """Collate a list of samples: leaves through `collate_fn_map` (exact type first,
    then isinstance), containers element-wise."""
    elem = batch[0]
    elem_type = type(elem)
    if collate_fn_map is not None:
        fn = collate_fn_map.get(elem_type)
        if fn is None:
            fn = next((f for t, f in collate_fn_map.items() if isinstance(elem, t)), None)
        if fn is not None:
            return fn(batch, collate_fn_map=collate_fn_map)
    if isinstance(elem, collections.abc.Mapping):
        return _rebuild(elem, {k: collate([d[k] for d in batch], collate_fn_map=collate_fn_map)
                               for k in elem})
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # namedtuple
        return elem_type(*(collate(s, collate_fn_map=collate_fn_map)
                           for s in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        size = len(elem)
        if any(len(e) != size for e in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        columns = [collate(s, collate_fn_map=collate_fn_map) for s in zip(*batch)]
        return columns if isinstance(elem, tuple) else _rebuild(elem, columns)
    raise TypeError(default_collate_err_msg_format.format(elem_type))


def default_collate(batch):
    """Stack tensors, numpy arrays and numbers (int -> int64, float -> float64) along a
    new first dimension; keep strings; recurse into dicts, namedtuples and sequences
    (a sequence of samples becomes a list of batches)."""
    if "numpy" in sys.modules:
        _add_numpy_entries()
    return collate(batch, collate_fn_map=default_collate_fn_map)
