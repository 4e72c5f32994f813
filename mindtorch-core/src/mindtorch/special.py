"""mindtorch.special (torch.special): the ops declared with modules=("special",)."""
from ._ops.namespaces import install

install(globals(), "special")
