"""torch.utils.data._utils: collation (collate) and worker processes (worker)."""
from . import collate, worker  # noqa: F401

MP_STATUS_CHECK_INTERVAL = worker._POLL
