"""NumPy CPU kernels for mindtorch (registered through the public plugin API)."""
__version__ = "0.1.0"

import warnings

# NumPy reports floating-point edge cases (0 * inf, inf - inf, ...) as RuntimeWarnings;
# PyTorch computes the same IEEE results silently.  Ignored for the warnings NumPy
# attributes to the kernel modules only (user code keeps its own), and at no cost per
# call, unlike np.errstate.  Installed here, at `import mindtorch` (the plugin's package),
# not when the kernels load with the first op: that may happen inside a
# warnings.catch_warnings() block, whose exit would drop the filter.
warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"mindtorch_cpu\.kernels\.")
