"""mindtorch.nn (torch.nn): modules, parameters, initialisation and utilities.

Every module computes through mindtorch ops (nn.functional), so it runs on any backend."""
from . import functional  # noqa: F401
from . import init, utils  # noqa: F401
from .parameter import (  # noqa: F401
    Buffer, Parameter, UninitializedBuffer, UninitializedParameter,
)
from .modules import *  # noqa: F401,F403
from .modules import __all__ as _modules_all

__all__ = ["Buffer", "Parameter", "UninitializedBuffer", "UninitializedParameter", "functional",
           "init", "utils", *_modules_all]
