"""mindtorch.nn.functional (torch.nn.functional): the ops declared with
modules=("nn.functional",)."""
from .._ops.namespaces import install

install(globals(), "nn.functional")
