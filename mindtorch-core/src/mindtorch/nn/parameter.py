"""torch.nn.parameter: Parameter and Buffer."""


class Parameter:  # placeholder until the nn core lands
    pass


class Buffer:
    pass
