"""torch.nn.modules.dropout: the dropout modules (identity in eval mode)."""
from .. import functional as F
from ._own_init import own_forward
from .module import Module

__all__ = ["Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout",
           "FeatureAlphaDropout"]


class _DropoutNd(Module):
    __constants__ = ["p", "inplace"]
    _fn = ""  # the F function the forward calls

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input):
        return getattr(F, self._fn)(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """Zeroes each element with probability p and scales the rest by 1 / (1 - p)."""
    _fn = "dropout"


class Dropout1d(_DropoutNd):
    """Zeroes whole channels of (N, C, L) or (C, L) input."""
    _fn = "dropout1d"


class Dropout2d(_DropoutNd):
    """Zeroes whole channels of (N, C, H, W) or (C, H, W) input."""
    _fn = "dropout2d"


class Dropout3d(_DropoutNd):
    """Zeroes whole channels of (N, C, D, H, W) or (C, D, H, W) input."""
    _fn = "dropout3d"


class _AlphaDropoutNd(_DropoutNd):
    # as PyTorch's: `inplace` is stored and shown but the forward never writes in place
    def forward(self, input):
        return getattr(F, self._fn)(input, self.p, self.training)


class AlphaDropout(_AlphaDropoutNd):
    """Dropout that keeps a SELU network's self-normalising mean and variance."""
    _fn = "alpha_dropout"


class FeatureAlphaDropout(_AlphaDropoutNd):
    """AlphaDropout of whole channels."""
    _fn = "feature_alpha_dropout"


own_forward(Dropout, Dropout1d, Dropout2d, Dropout3d, AlphaDropout, FeatureAlphaDropout)
