"""torch.version: what this build is (a CPU build: no CUDA, HIP, ROCm or XPU).

`__version__` is the PyTorch release whose API mindtorch follows, so that code gating
features on `torch.__version__` takes the paths written for it; mindtorch-core's own
release is its local label ("2.13.0+mindtorch.0.1.0") and `mindtorch_version`.
"""
from .torch_version import TorchVersion

__all__ = ["__version__", "cuda", "debug", "git_version", "hip", "rocm", "xpu"]
mindtorch_version = "0.1.0"  # (the release in mindtorch-core/pyproject.toml)
__version__ = TorchVersion(f"2.13.0+mindtorch.{mindtorch_version}")
debug = False
cuda = None
git_version = "unknown"
hip = None
rocm = None
xpu = None
