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


def factory_kwargs(kwargs):
    """torch.nn.factory_kwargs: a module constructor's device / dtype / memory_format
    keywords, given directly or as a `factory_kwargs` dict, merged into one dict."""
    if kwargs is None:
        return {}
    simple = {"device", "dtype", "memory_format"}
    unexpected = kwargs.keys() - simple - {"factory_kwargs"}
    if unexpected:
        raise TypeError(f"unexpected kwargs {unexpected}")
    merged = dict(kwargs.get("factory_kwargs", {}))
    for key in simple & kwargs.keys():
        if key in merged:
            raise TypeError(f"{key} specified twice, in **kwargs and in factory_kwargs")
        merged[key] = kwargs[key]
    return merged

__all__ = ["Buffer", "DataParallel", "Parameter", "UninitializedBuffer", "UninitializedParameter",
           "functional", "init", "parallel", "utils", *_modules_all]
