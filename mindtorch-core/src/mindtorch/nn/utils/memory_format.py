"""convert_conv2d/3d_weight_memory_format: lay out the weights of a model's convolutions
in a memory format (channels_last makes their outputs channels-last too in PyTorch)."""


def _convert(module, memory_format, kinds):
    from ..modules.conv import Conv2d, Conv3d, ConvTranspose2d, ConvTranspose3d
    types = {2: (Conv2d, ConvTranspose2d), 3: (Conv3d, ConvTranspose3d)}[kinds]
    if isinstance(module, types):
        # (as PyTorch: contiguous() then resize_(), which refuses preserve_format)
        weight = module.weight.detach().clone().contiguous(memory_format=memory_format)
        module.weight.data = weight.resize_(weight.size(), memory_format=memory_format)
    for child in module.children():
        _convert(child, memory_format, kinds)
    return module


def convert_conv2d_weight_memory_format(module, memory_format):
    """module with its Conv2d/ConvTranspose2d weights (also in submodules) cloned in
    memory_format; returns module."""
    return _convert(module, memory_format, 2)


def convert_conv3d_weight_memory_format(module, memory_format):
    """As convert_conv2d_weight_memory_format, for Conv3d/ConvTranspose3d."""
    return _convert(module, memory_format, 3)
