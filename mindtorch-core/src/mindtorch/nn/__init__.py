"""mindtorch.nn (torch.nn): modules, parameters, initialisation and utilities.

Every module computes through mindtorch ops (nn.functional), so it runs on any backend."""
from . import functional  # noqa: F401
from . import attention, common_types, grad, init, parallel, utils  # noqa: F401
from .parameter import (  # noqa: F401
    Buffer, Parameter, UninitializedBuffer, UninitializedParameter,
)
from .modules import *  # noqa: F401,F403
from .modules import __all__ as _modules_all
from .parallel import DataParallel  # noqa: F401

__all__ = ["Buffer", "DataParallel", "Parameter", "UninitializedBuffer", "UninitializedParameter",
           "functional", "init", "parallel", "utils", *_modules_all]
