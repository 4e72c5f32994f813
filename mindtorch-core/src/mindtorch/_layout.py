"""torch.layout: mindtorch's tensors are all strided (no sparse or mkldnn layouts).  A
layout is a str subclass holding its name; repr/str print torch's names."""


class layout(str):
    __module__ = "mindtorch"
    __slots__ = ()

    def __repr__(self):
        return "torch." + str.__str__(self)

    __str__ = __repr__


strided = layout("strided")
