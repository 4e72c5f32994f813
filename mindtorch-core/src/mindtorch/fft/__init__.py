"""mindtorch.fft (torch.fft): the ops declared with modules=("fft",) in
mindtorch/_ops/decls/fft.py, served through the namespace lookup (bindings made on first
use)."""
from .._ops.namespaces import install as _install
from .._tensor import Tensor  # noqa: F401 - as torch.fft.Tensor

# (torch's list, in its order: hfft2, hfftn, ihfft2 and ihfftn are public but not in it)
__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft",  # noqa: RUF022
           "rfft2", "irfft2", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq",
           "fftshift", "ifftshift", "Tensor"]

_install(globals(), "fft")
