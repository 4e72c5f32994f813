"""mindtorch.optim (torch.optim): optimizers and learning-rate schedulers, computed with
mindtorch ops so that they run on every backend."""
from . import lr_scheduler  # noqa: F401
from .adagrad import Adagrad
from .adam import Adam
from .adamax import Adamax
from .adamw import AdamW
from .nadam import NAdam
from .optimizer import Optimizer
from .radam import RAdam
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["Adagrad", "Adam", "Adamax", "AdamW", "NAdam", "Optimizer", "RAdam", "RMSprop",
           "SGD", "lr_scheduler"]
