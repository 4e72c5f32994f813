"""torch.__future__: opt-ins to behaviour PyTorch plans to make the default.  Module._apply
(module.to(), .half(), ...) reads them: by default a parameter keeps its identity (its data
is replaced); with overwrite on, the module gets new Parameter objects."""

_overwrite_module_params_on_conversion = False
_swap_module_params_on_conversion = False


def set_overwrite_module_params_on_conversion(value):
    global _overwrite_module_params_on_conversion
    _overwrite_module_params_on_conversion = value


def get_overwrite_module_params_on_conversion():
    return _overwrite_module_params_on_conversion


def set_swap_module_params_on_conversion(value):
    global _swap_module_params_on_conversion
    _swap_module_params_on_conversion = value


def get_swap_module_params_on_conversion():
    return _swap_module_params_on_conversion
