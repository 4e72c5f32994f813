"""torch.backends.mkldnn: no mindtorch backend uses oneDNN; the flags scripts set are
kept, and `verbose` scopes are accepted (there is nothing to log)."""
from ._flags import flags_context
from ._flags import set_flags as _set

enabled = True
deterministic = False
allow_tf32 = True
fp32_precision = "none"
VERBOSE_OFF, VERBOSE_ON, VERBOSE_ON_CREATION = 0, 1, 2
_NAMES = ("enabled", "deterministic", "allow_tf32", "fp32_precision")


def is_available():
    return False


def is_acl_available():
    return False


class verbose:
    """oneDNN's on-demand verbose logging for a block: no oneDNN kernels run here."""

    def __init__(self, level):
        self.level = level

    def __enter__(self):
        return None if self.level == VERBOSE_OFF else self

    def __exit__(self, *exc):
        return False


def set_flags(_enabled=None, _deterministic=None, _allow_tf32=None, _fp32_precision="none"):
    return _set(globals(), _NAMES, (_enabled, _deterministic, _allow_tf32, _fp32_precision))


def flags(enabled=False, deterministic=False, allow_tf32=True, fp32_precision="none"):
    return flags_context(set_flags, (enabled, deterministic, allow_tf32, fp32_precision))
