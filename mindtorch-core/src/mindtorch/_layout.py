"""torch.layout: mindtorch's tensors are all strided (no sparse or mkldnn layouts)."""


class TorchName(str):
    """A torch constant of a kind (layout, memory format): a str holding its name, so that
    code comparing with the name and the constant agree; printed as torch.<name>, pickled
    by name (the one object)."""
    __module__ = "mindtorch"
    __slots__ = ()

    def __repr__(self):
        return "torch." + str.__str__(self)

    __str__ = __repr__

    def __reduce__(self):
        return str.__str__(self)


class layout(TorchName):
    __module__ = "mindtorch"
    __slots__ = ()


strided = layout("strided")
