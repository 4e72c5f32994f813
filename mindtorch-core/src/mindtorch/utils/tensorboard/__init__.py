"""mindtorch.utils.tensorboard: PyTorch's SummaryWriter, writing TensorBoard event files
through the `tensorboard` package (required, as for PyTorch)."""
import tensorboard


def _check_version():
    from packaging.version import Version
    if Version(getattr(tensorboard, "__version__", "0")) < Version("1.15"):
        raise ImportError("TensorBoard logging requires TensorBoard version 1.15 or above")


_check_version()
del _check_version, tensorboard

from tensorboard.summary.writer.record_writer import RecordWriter  # noqa: E402

from .writer import FileWriter, SummaryWriter  # noqa: E402

__all__ = ["FileWriter", "RecordWriter", "SummaryWriter"]
