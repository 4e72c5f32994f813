"""Meta inference of the Fourier transforms: the metadata rules of their kernel ops
(mindtorch._ops.decls.fft); the public functions decompose into them."""
from mindtorch._ops.decls import fft as F

RULES = {"_fft_c2c": F.c2c_meta, "_fft_r2c": F.r2c_meta, "_fft_c2r": F.c2r_meta}
