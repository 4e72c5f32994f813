"""mindtorch.optim (torch.optim): optimizers and learning-rate schedulers, computed with
mindtorch ops so that they run on every backend."""
from . import lr_scheduler  # noqa: F401
from .adam import Adam
from .adamw import AdamW
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["Adam", "AdamW", "Optimizer", "SGD", "lr_scheduler"]
