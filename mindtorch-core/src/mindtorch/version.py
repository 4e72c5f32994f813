"""torch.version: what this build is (a CPU build: no CUDA, HIP, ROCm or XPU)."""
__all__ = ["__version__", "cuda", "debug", "git_version", "hip", "rocm", "xpu"]
__version__ = "0.1.0"
debug = False
cuda = None
git_version = "unknown"
hip = None
rocm = None
xpu = None
