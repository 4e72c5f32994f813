"""mindtorch.utils.tensorboard: PyTorch's SummaryWriter, writing TensorBoard event files
through the `tensorboard` package (required, as for PyTorch)."""
import tensorboard as _tensorboard
from packaging.version import Version as _Version

if _Version(getattr(_tensorboard, "__version__", "0")) < _Version("1.15"):
    raise ImportError("TensorBoard logging requires TensorBoard version 1.15 or above")

from tensorboard.summary.writer.record_writer import RecordWriter

from .writer import FileWriter, SummaryWriter

__all__ = ["FileWriter", "RecordWriter", "SummaryWriter"]
