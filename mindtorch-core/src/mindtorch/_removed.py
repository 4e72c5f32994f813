"""Functions PyTorch removed but still names, each raising its RuntimeError: the old
linear algebra (torch.eig, lstsq, solve, symeig, matrix_rank; also as Tensor methods) and
Tensor.reinforce."""
from ._tensor import Tensor

_GONE = "This function was deprecated since version 1.9 and is now removed."
_HINTS = {  # (PyTorch's migration notes, as its messages give them)
    "eig": "`torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` rather "
           "than real tensors mimicking complex tensors.\n\nL, _ = torch.eig(A) should be "
           "replaced with:\nL_complex = torch.linalg.eigvals(A)\n\nand\n\nL, V = "
           "torch.eig(A, eigenvectors=True) should be replaced with:\nL_complex, V_complex = "
           "torch.linalg.eig(A)",
    "lstsq": "`torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n"
             "`torch.linalg.lstsq` has reversed arguments and does not return the QR "
             "decomposition in the returned tuple (although it returns other information "
             "about the problem).\n\nTo get the QR decomposition consider using "
             "`torch.linalg.qr`.\n\nThe returned solution in `torch.lstsq` stored the "
             "residuals of the solution in the last m - n columns of the returned value "
             "whenever m > n. In torch.linalg.lstsq, the residuals are in the field "
             "'residuals' of the returned named tuple.\n\nThe unpacking of the solution, as "
             "in\nX, _ = torch.lstsq(B, A).solution[:A.size(1)]\nshould be replaced with:\n"
             "X = torch.linalg.lstsq(A, B).solution",
    "solve": "`torch.solve` is deprecated in favor of `torch.linalg.solve`. "
             "`torch.linalg.solve` has its arguments reversed and does not return the LU "
             "factorization.\n\nTo get the LU factorization see `torch.lu`, which can be "
             "used with `torch.lu_solve` or `torch.lu_unpack`.\nX = torch.solve(B, A).solution "
             "should be replaced with:\nX = torch.linalg.solve(A, B)",
    "symeig": "The default behavior has changed from using the upper triangular portion of "
              "the matrix by default to using the lower triangular portion.\n\nL, _ = "
              "torch.symeig(A, upper=upper) should be replaced with:\nL = "
              "torch.linalg.eigvalsh(A, UPLO='U' if upper else 'L')\n\nand\n\nL, V = "
              "torch.symeig(A, eigenvectors=True) should be replaced with:\nL, V = "
              "torch.linalg.eigh(A, UPLO='U' if upper else 'L')",
    "matrix_rank": "\nPlease use the `torch.linalg.matrix_rank` function instead. The "
                   "parameter 'symmetric' was renamed in `torch.linalg.matrix_rank()` to "
                   "'hermitian'.",
}


def _gone(name):
    sep = "" if _HINTS[name].startswith("\n") else " "
    raise RuntimeError(_GONE + sep + _HINTS[name])


# PyTorch's stubs keep the old signatures: wrong arguments are the TypeError of the call
def eig(self, eigenvectors=False, *, e=None, v=None):
    _gone("eig")


def lstsq(input, A, *, out=None):
    _gone("lstsq")


def solve(input, A, *, out=None):
    _gone("solve")


def symeig(input, eigenvectors=False, upper=True, *, out=None):
    _gone("symeig")


def matrix_rank(input, tol=None, symmetric=False, *, out=None):
    _gone("matrix_rank")


def _eig_method(self, eigenvectors=False):
    _gone("eig")


def _lstsq_method(self, other):
    _gone("lstsq")


def _solve_method(self, other):
    _gone("solve")


def _symeig_method(self, eigenvectors=False):
    _gone("symeig")


FUNCTIONS = {f.__name__: f for f in (eig, lstsq, solve, symeig, matrix_rank)}
METHODS = {"eig": _eig_method, "lstsq": _lstsq_method, "solve": _solve_method,
           "symeig": _symeig_method}
for _name, _f in METHODS.items():
    _f.__name__, _f.__qualname__ = _name, f"Tensor.{_name}"


def reinforce(self, reward):
    raise RuntimeError("reinforce() was removed.\nUse torch.distributions instead.\nSee "
                       "https://pytorch.org/docs/main/distributions.html\n\nInstead of "
                       "action.reinforce(reward), draw the action from a distribution and "
                       "backpropagate loss = -m.log_prob(action) * reward.\n")


for _name, _f in METHODS.items():
    setattr(Tensor, _name, _f)
Tensor.reinforce = reinforce
