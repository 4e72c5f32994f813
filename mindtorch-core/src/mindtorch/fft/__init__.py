"""mindtorch.fft (torch.fft): the ops declared with modules=("fft",) in
mindtorch/_ops/decls/fft.py, served through the namespace lookup (bindings made on first
use)."""
from .._ops.namespaces import install as _install
from .._tensor import Tensor  # noqa: F401 - as torch.fft.Tensor

# (torch's list: hfft2, hfftn, ihfft2 and ihfftn are public but not in it)
__all__ = ["Tensor", "fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft",
           "rfft2", "irfft2", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq",
           "fftshift", "ifftshift"]

_install(globals(), "fft")
