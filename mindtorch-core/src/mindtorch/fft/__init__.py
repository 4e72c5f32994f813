"""mindtorch.fft (torch.fft): the ops declared with modules=("fft",) in
mindtorch/_ops/decls/fft.py (fft, ifft, rfft, irfft, hfft, ihfft, their 2- and
n-dimensional forms, fftfreq, rfftfreq, fftshift, ifftshift)."""
from .._ops.namespaces import install as _install

_install(globals(), "fft")
