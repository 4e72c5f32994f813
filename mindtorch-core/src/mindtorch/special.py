"""mindtorch.special (torch.special): the ops declared with modules=("special",)."""
from ._ops.namespaces import install as _install

_install(globals(), "special")
