"""torch.utils.data._utils: collation (collate), fetching (fetch) and worker processes
(worker)."""
import importlib.util
import sys

from . import collate, fetch, worker  # noqa: F401

MP_STATUS_CHECK_INTERVAL = worker._POLL
IS_WINDOWS = sys.platform == "win32"
HAS_NUMPY = importlib.util.find_spec("numpy") is not None
