"""mindtorch.optim (torch.optim): optimizers and learning-rate schedulers, computed with
mindtorch ops so that they run on every backend."""
from . import lr_scheduler, swa_utils  # noqa: F401
from .adadelta import Adadelta
from .adafactor import Adafactor
from .adagrad import Adagrad
from .adam import Adam
from .adamax import Adamax
from .adamw import AdamW
from .asgd import ASGD
from .lbfgs import LBFGS
from .muon import Muon
from .nadam import NAdam
from .optimizer import Optimizer
from .radam import RAdam
from .rmsprop import RMSprop
from .rprop import Rprop
from .sgd import SGD
from .sparse_adam import SparseAdam
from ._stateless import swap_in_optimizer_params_and_state

__all__ = ["ASGD", "Adadelta", "Adafactor", "Adagrad", "Adam", "Adamax", "AdamW", "LBFGS",
           "Muon", "NAdam", "Optimizer", "RAdam", "RMSprop", "Rprop", "SGD", "SparseAdam",
           "lr_scheduler", "swa_utils", "swap_in_optimizer_params_and_state"]
