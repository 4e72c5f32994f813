"""Every CPU kernel, by op name.  Each module exposes KERNELS = {op name: fn}."""
import warnings

from . import creation, indexing, joining, linalg, pointwise, random, reduction

# NumPy reports floating-point edge cases (0 * inf, inf - inf, ...) as RuntimeWarnings;
# PyTorch computes the same IEEE results silently.  Ignored for the warnings NumPy
# attributes to these kernel modules only (user code keeps its own), and at no cost per
# call, unlike np.errstate.
warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"mindtorch_cpu\.kernels\.")

ALL_KERNELS = {}
for _m in (creation, pointwise, reduction, linalg, joining, indexing, random):
    ALL_KERNELS.update(_m.KERNELS)
