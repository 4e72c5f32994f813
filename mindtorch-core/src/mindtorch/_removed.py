"""Functions PyTorch removed but still names, each raising its RuntimeError: the old
linear algebra (torch.eig, lstsq, solve, symeig, matrix_rank; also as Tensor methods) and
Tensor.reinforce."""
from ._tensor import Tensor

_GONE = "This function was deprecated since version 1.9 and is now removed."
_HINTS = {
    "eig": "`torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` rather "
           "than real tensors mimicking complex tensors: use torch.linalg.eigvals(A) for the "
           "eigenvalues and torch.linalg.eig(A) for eigenvectors too.",
    "lstsq": "`torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`, which takes its "
             "arguments the other way round: torch.linalg.lstsq(A, B).solution.",
    "solve": "`torch.solve` is deprecated in favor of `torch.linalg.solve`, which takes its "
             "arguments the other way round: torch.linalg.solve(A, B).",
    "symeig": "The default behavior has changed from using the upper triangular portion of "
              "the matrix by default to using the lower triangular portion: use "
              "torch.linalg.eigvalsh / torch.linalg.eigh with UPLO='U' for the old one.",
    "matrix_rank": "\nPlease use the `torch.linalg.matrix_rank` function instead. The "
                   "parameter 'symmetric' was renamed in `torch.linalg.matrix_rank()` to "
                   "'hermitian'.",
}


def _removed(name):
    def removed(*args, **kwargs):
        sep = "" if _HINTS[name].startswith("\n") else " "
        raise RuntimeError(_GONE + sep + _HINTS[name])
    removed.__name__ = removed.__qualname__ = name
    return removed


FUNCTIONS = {name: _removed(name) for name in _HINTS}


def reinforce(self, reward):
    raise RuntimeError("reinforce() was removed.\nUse torch.distributions instead.\nSee "
                       "https://pytorch.org/docs/main/distributions.html\n\nInstead of "
                       "action.reinforce(reward), draw the action from a distribution and "
                       "backpropagate loss = -m.log_prob(action) * reward.\n")


for _name in ("eig", "lstsq", "solve", "symeig"):
    setattr(Tensor, _name, FUNCTIONS[_name])
Tensor.reinforce = reinforce
