"""PyTorch's repr of sparse tensors: the parts as tensors, then size, nnz, dtype, layout."""
from .. import _dtype as D
from .._tensor_str import _data_str


def _part(name, t, indent):
    prefix = f"{name}=tensor("
    if t.device.type == "meta":
        body = f"..., size={tuple(t.shape)}"
    elif t.numel() == 0:
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
    suffixes = [f"size={tuple(s._shape)}"]
    if s.device.type != "meta":  # (PyTorch does not count a meta tensor's entries)
        suffixes.append(f"nnz={s._nnz()}")
    if s.device.type != "cpu":
        suffixes.insert(0, f"device='{s.device}'")
    if s.dtype not in (D.get_default_dtype(), D.default_complex_dtype(), D.int64, D.bool):
        suffixes.append(f"dtype={s.dtype}")
    suffixes.append(f"layout={s.layout}")
    if s.grad_fn is not None:
        suffixes.append(f"grad_fn=<{type(s.grad_fn).__name__}>")
    elif s.requires_grad:
        suffixes.append("requires_grad=True")
    return _suffixed(text, suffixes, indent, s.is_sparse)


def _suffixed(text, suffixes, indent, newline):
    """text, then the suffixes wrapped at the line width (COO's start on a line of their
    own), counting line lengths as PyTorch does."""
    from .._tensor_str import PRINT_OPTS
    parts, last = [text], len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if newline or last + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last, newline = indent + len(suffix), False
        else:
            parts.append(", " + suffix)
            last += len(suffix) + 2
    return "".join(parts) + ")"

