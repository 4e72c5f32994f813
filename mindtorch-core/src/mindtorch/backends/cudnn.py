"""torch.backends.cudnn: no mindtorch backend uses cuDNN.  The flags scripts set
(`benchmark = True`, `deterministic = True`, or for a block through `flags()`) are accepted
and kept, as on a PyTorch build whose cuDNN is absent (benchmark_limit is then None)."""
from ._flags import flags_context
from ._flags import set_flags as _set

enabled = True
benchmark = False
benchmark_limit = None
deterministic = False
allow_tf32 = True
fp32_precision = "none"
depthwise_kernel = "auto"
_NAMES = ("enabled", "benchmark", "benchmark_limit", "deterministic", "allow_tf32",
          "fp32_precision", "depthwise_kernel")


def is_available():
    return False


def version():
    return None


def is_acceptable(tensor):
    """Whether cuDNN would take the tensor: never without cuDNN."""
    return False


def set_flags(_enabled=None, _benchmark=None, _benchmark_limit=None, _deterministic=None,
              _allow_tf32=None, _fp32_precision="none", _depthwise_kernel=None):
    return _set(globals(), _NAMES, (_enabled, _benchmark, None, _deterministic, _allow_tf32,
                                    _fp32_precision, _depthwise_kernel))


def flags(enabled=False, benchmark=False, benchmark_limit=10, deterministic=False,
          allow_tf32=True, fp32_precision="none", depthwise_kernel="auto"):
    return flags_context(set_flags, (enabled, benchmark, benchmark_limit, deterministic,
                                     allow_tf32, fp32_precision, depthwise_kernel))
