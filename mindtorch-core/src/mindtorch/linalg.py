"""mindtorch.linalg (torch.linalg): the ops declared with modules=("linalg",)."""
from ._ops.namespaces import install

install(globals(), "linalg")
