"""The module classes of mindtorch.nn, one file per family (as torch.nn.modules).

Each family file lists its public classes in ``__all__``; this package re-exports them."""
from . import (
    activation, adaptive, attention, batchnorm, container, conv, distance, dropout, flatten,
    fold, instancenorm, linear, linear_cross_entropy_options, loss, module, normalization,
    padding, pixelshuffle, pooling, rnn, sparse, transformer, upsampling,
)

_FAMILIES = (
    module, container, linear, flatten, conv, pooling, batchnorm, instancenorm,
    normalization, sparse, dropout, activation, attention, loss, rnn, transformer,
    upsampling, pixelshuffle, padding, distance, fold, adaptive, linear_cross_entropy_options,
)
__all__ = [name for family in _FAMILIES for name in family.__all__]
globals().update({name: getattr(family, name) for family in _FAMILIES
                  for name in family.__all__})
