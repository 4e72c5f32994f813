"""torch.autograd.variable: the legacy module of Variable (a Tensor now)."""
from . import Variable  # noqa: F401
from . import _VariableMeta as VariableMeta  # noqa: F401
