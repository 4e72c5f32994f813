"""mindtorch.linalg (torch.linalg): the ops declared with modules=("linalg",)."""
from ._ops.decls.factorization import LinAlgError  # noqa: F401
from ._ops.namespaces import install as _install

_install(globals(), "linalg")
