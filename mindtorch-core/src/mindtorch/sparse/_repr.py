"""PyTorch's repr of sparse tensors: the parts as tensors, then size, nnz, dtype, layout."""
from .. import _dtype as D
from .._tensor_str import _data_str, _with_suffixes


def _part(name, t, indent):
    prefix = f"{name}=tensor("
    if t.numel() == 0:
        body = f"[], size={tuple(t.shape)}"
    else:
        body = _data_str(t, indent + len(prefix))
    return prefix + body + ")"


def sparse_repr(s):
    indent = len("tensor(")
    if s.is_sparse:
        names = (("indices", s._idx), ("values", s._vals))
    else:
        names = (("crow_indices", s._crow), ("col_indices", s._idx), ("values", s._vals))
    text = "tensor(" + (",\n" + " " * indent).join(_part(n, t, indent) for n, t in names)
    suffixes = [f"size={tuple(s._shape)}", f"nnz={s._nnz()}"]
    if s.device.type != "cpu":
        suffixes.insert(0, f"device='{s.device}'")
    if s.dtype is not D.get_default_dtype():
        suffixes.append(f"dtype={s.dtype}")
    suffixes.append(f"layout={s.layout}")
    if s.grad_fn is not None:
        suffixes.append(f"grad_fn=<{type(s.grad_fn).__name__}>")
    elif s.requires_grad:
        suffixes.append("requires_grad=True")
    if s.is_sparse:  # (PyTorch starts COO's suffixes on a line of their own)
        first, *rest = suffixes
        text += ",\n" + " " * indent + first
        return _with_suffixes(text, rest, indent)
    return _with_suffixes(text, suffixes, indent)

