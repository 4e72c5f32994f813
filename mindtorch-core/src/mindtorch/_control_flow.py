"""torch.cond and torch.while_loop run eagerly, as PyTorch's do outside torch.compile:
the predicate is read and the chosen branch (or loop body) runs as ordinary Python, so
autograd records the ops of the branch that ran."""
from ._tensor import Tensor


def _predicate(pred):
    if isinstance(pred, Tensor):
        if pred.numel() != 1:
            raise RuntimeError(f"Expected pred to be bool or single-element tensor, but got "
                               f"{pred}.")
        return bool(pred.item())
    if isinstance(pred, (bool, int, float)):
        return bool(pred)
    raise RuntimeError(f"Expected pred to be bool or single-element tensor, but got {pred}.")


def cond(pred, true_fn, false_fn, operands=()):
    """true_fn(*operands) if pred else false_fn(*operands)."""
    if not (callable(true_fn) and callable(false_fn)):
        raise RuntimeError("Expect both branches to be callable.")
    return (true_fn if _predicate(pred) else false_fn)(*operands)


def while_loop(cond_fn, body_fn, carried_inputs):
    """carried_inputs = body_fn(*carried_inputs) while cond_fn(*carried_inputs)."""
    if not (callable(cond_fn) and callable(body_fn)):
        raise RuntimeError("Expect cond_fn and body_fn to be callable.")
    if not isinstance(carried_inputs, (tuple, list)):
        raise RuntimeError(f"carried_inputs must be a tuple or list, got "
                           f"{type(carried_inputs)}")
    carried = tuple(carried_inputs)
    while _predicate(cond_fn(*carried)):
        out = body_fn(*carried)
        carried = tuple(out) if isinstance(out, (tuple, list)) else (out,)
    return carried
