"""safetensors files for mindtorch tensors, with safetensors.torch's API: save_file /
load_file / save / load, and save_model / load_model for models with tied weights.

Writing goes through the `safetensors` package's NumPy API (safetensors.numpy), reading
through its deserializer (safetensors.numpy cannot make bfloat16 arrays; ml_dtypes can).
As safetensors.torch, non-contiguous tensors and tensors that share memory are refused
(save_model packs the former and drops the duplicates of tied weights).

Needs `pip install safetensors` (mindtorch-core's `safetensors` extra)."""
from collections import defaultdict

from .._lazy import lazy

np = lazy("numpy", globals())

# safetensors dtype tag <-> mindtorch dtype name
_TAGS = {"F64": "float64", "F32": "float32", "F16": "float16", "BF16": "bfloat16",
         "I64": "int64", "I32": "int32", "I16": "int16", "I8": "int8", "U8": "uint8",
         "BOOL": "bool", "C64": "complex64", "U16": "uint16", "U32": "uint32", "U64": "uint64",
         "F8_E4M3": "float8_e4m3fn", "F8_E4M3FNUZ": "float8_e4m3fnuz",
         "F8_E5M2": "float8_e5m2", "F8_E5M2FNUZ": "float8_e5m2fnuz"}


def _package():
    try:
        import safetensors
        import safetensors.numpy
    except ImportError:
        raise ImportError("mindtorch.utils.safetensors needs the safetensors package: "
                          "pip install safetensors (or mindtorch-core[safetensors])") from None
    return safetensors


# -- saving ----------------------------------------------------------------------------------

def _host_arrays(tensors):
    """Contiguous host arrays in logical order, after safetensors.torch's checks."""
    from .. import Tensor, strided
    if not isinstance(tensors, dict):
        raise ValueError(f"Expected a dict of [str, torch.Tensor] but received {type(tensors)}")
    for k, v in tensors.items():
        if not isinstance(v, Tensor):
            raise ValueError(f"Key `{k}` is invalid, expected torch.Tensor but received "
                             f"{type(v)}")
    sparse = [k for k, v in tensors.items() if v.layout != strided]
    if sparse:
        raise ValueError(f"You are trying to save a sparse tensors: `{sparse}` which this "
                         "library does not support. You can make it a dense tensor before "
                         "saving with `.to_dense()` but be aware this might make a much "
                         "larger file than needed.")
    for v in tensors.values():
        if v.dtype.name not in _TAGS.values():
            raise KeyError(v.dtype)
    failing = [names for names in _find_shared_tensors(tensors) if len(names) > 1]
    if failing:
        raise RuntimeError(
            "\n            Some tensors share memory, this will lead to duplicate memory on disk "
            f"and potential differences when loading them again: {failing}.\n            A "
            "potential way to correctly save your model is to use `save_model`.\n            "
            "More information at https://huggingface.co/docs/safetensors/torch_shared_tensors"
            "\n            ")
    for k, v in tensors.items():
        if not v.is_contiguous():
            raise ValueError(
                f"You are trying to save a non contiguous tensor: `{k}` which is not allowed. It "
                "either means you are trying to save tensors which are reference of each other "
                "in which case it's recommended to save only the full tensors, and reslice at "
                "load time, or simply call `.contiguous()` on your tensor to pack it before "
                "saving.")
    return {k: np.asarray(v.detach().cpu()._host(), order="C") for k, v in tensors.items()}


def save(tensors, metadata=None):
    """The safetensors bytes of a {name: tensor} dict (metadata: {str: str})."""
    return _package().numpy.save(_host_arrays(tensors), metadata=metadata)


def save_file(tensors, filename, metadata=None):
    """Write a {name: tensor} dict to `filename` in safetensors format."""
    _package().numpy.save_file(_host_arrays(tensors), filename, metadata=metadata)


# -- loading ---------------------------------------------------------------------------------

def load(data):
    """{name: tensor} (cpu) from safetensors bytes."""
    from .. import _dtype, from_numpy
    out = {}
    # in the order of the data in the file, as safetensors.torch.load_file (safe_open's
    # get_tensors); deserialize's order varies between calls
    order = _offset_order(data)
    for name, view in sorted(_package().deserialize(data), key=lambda item: order[item[0]]):
        tag = view["dtype"]
        if tag not in _TAGS:
            raise TypeError(f"safetensors dtype {tag} is not supported by mindtorch")
        dtype = getattr(_dtype, _TAGS[tag])
        out[name] = from_numpy(np.frombuffer(view["data"], dtype.np).reshape(view["shape"]))
    return out


def _offset_order(data):
    """{name: rank of its data's (start, stop)} read from the header (8 bytes of length,
    then JSON)."""
    import json
    size = int.from_bytes(bytes(data[:8]), "little")
    try:
        header = json.loads(bytes(data[8:8 + size]))
    except ValueError:
        return defaultdict(int)  # (the deserializer reports the broken header)
    spans = sorted((*v["data_offsets"], k) for k, v in header.items()
                   if k != "__metadata__" and isinstance(v, dict) and "data_offsets" in v)
    return defaultdict(int, {span[-1]: i for i, span in enumerate(spans)})


def load_file(filename, device="cpu"):
    """{name: tensor} on `device` from a safetensors file."""
    import os
    if not os.path.exists(filename):  # (the package's message, not open()'s)
        raise FileNotFoundError(f"No such file or directory: {os.fspath(filename)}")
    with open(filename, "rb") as fh:
        tensors = load(fh.read())
    if str(device) != "cpu":
        tensors = {k: v.to(device) for k, v in tensors.items()}
    return tensors


# -- models with shared (tied) tensors -------------------------------------------------------

def _extent(t):
    """[start, stop) in bytes of the storage that tensor t covers."""
    if t.numel() == 0:
        return (t.storage_offset() * t.dtype.itemsize,) * 2
    last = t.storage_offset() + sum((n - 1) * s for n, s in zip(t.shape, t.stride()))
    return t.storage_offset() * t.dtype.itemsize, (last + 1) * t.dtype.itemsize


def _find_shared_tensors(state_dict):
    """Groups of names whose tensors overlap in one storage (singletons for the rest)."""
    by_storage = defaultdict(list)
    for k, v in state_dict.items():
        if v.device.type != "meta" and v.untyped_storage().nbytes() != 0:
            by_storage[id(v.untyped_storage())].append(k)
    groups = []
    for names in by_storage.values():
        areas = sorted((*_extent(state_dict[n]), n) for n in names)
        last_stop = None
        for start, stop, name in areas:
            if last_stop is not None and start < last_stop:
                groups[-1].add(name)
            else:
                groups.append({name})
            last_stop = stop if last_stop is None else max(last_stop, stop)
    return groups


def _is_complete(t):
    return t.storage_offset() == 0 and t.is_contiguous() and \
        t.numel() * t.dtype.itemsize == t.untyped_storage().nbytes()


def _remove_duplicate_names(state_dict, *, preferred_names=None, discard_names=None):
    """{kept name: [names of the same memory to drop]} for each shared group."""
    preferred_names, discard_names = set(preferred_names or ()), set(discard_names or ())
    to_remove = defaultdict(list)
    for shared in _find_shared_tensors(state_dict):
        if len(shared) < 2:
            continue
        complete = {n for n in shared if _is_complete(state_dict[n])}
        if not complete:
            raise RuntimeError(
                "Error while trying to find names to remove to save state dict, but found no "
                f"suitable name to keep for saving amongst: {shared}. None is covering the "
                "entire storage.Refusing to save/load the model since you could be storing "
                "much more memory than needed. Please refer to "
                "https://huggingface.co/docs/safetensors/torch_shared_tensors for more "
                "information. Or open an issue.")
        keep = min(complete - discard_names or complete)
        if preferred_names & complete:
            keep = min(preferred_names & complete)
        to_remove[keep] = sorted(shared - {keep})
    return to_remove


def save_model(model, filename, metadata=None, force_contiguous=True):
    """Save model.state_dict(), keeping one name per group of tied tensors (the others
    recorded in the metadata as dropped name -> kept name)."""
    state_dict = model.state_dict()
    for kept, dropped in _remove_duplicate_names(state_dict).items():
        for name in dropped:
            metadata = {} if metadata is None else metadata
            metadata.setdefault(name, kept)
            del state_dict[name]
    if force_contiguous:
        state_dict = {k: v.contiguous() for k, v in state_dict.items()}
    try:
        save_file(state_dict, filename, metadata=metadata)
    except ValueError as e:
        raise ValueError(f"{e} Or use save_model(..., force_contiguous=True), read the docs "
                         "for potential caveats.") from None


def load_model(model, filename, strict=True, device="cpu"):
    """Load a file into `model`; returns (missing, unexpected) names, tied tensors that
    the file stores once counting as loaded."""
    state_dict = load_file(filename, device=device)
    to_removes = _remove_duplicate_names(model.state_dict(), preferred_names=state_dict.keys())
    missing, unexpected = model.load_state_dict(state_dict, strict=False)
    missing, unexpected = set(missing), list(unexpected)
    for group in to_removes.values():
        for name in group:
            if name in missing:
                missing.remove(name)
            else:
                unexpected.append(name)
    if strict and (missing or unexpected):
        error = f"Error(s) in loading state_dict for {model.__class__.__name__}:"
        if missing:
            keys = ", ".join(f'"{k}"' for k in sorted(missing))
            error += f"\n    Missing key(s) in state_dict: {keys}"
        if unexpected:
            keys = ", ".join(f'"{k}"' for k in sorted(unexpected))
            error += f"\n    Unexpected key(s) in state_dict: {keys}"
        raise RuntimeError(error)
    return missing, unexpected


__all__ = ["save", "save_file", "load", "load_file", "save_model", "load_model"]
