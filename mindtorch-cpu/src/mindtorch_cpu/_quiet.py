"""NumPy's floating-point RuntimeWarnings inside kernels, kept silent as PyTorch is.

NumPy reports IEEE edge cases (0 * inf, inf - inf, overflow to inf, ...) as RuntimeWarnings;
PyTorch computes the same results silently.  A warnings filter ignores the ones NumPy
attributes to the kernel modules (user code keeps its own), at no cost per call, unlike
np.errstate.  A filter added later goes in front of it, though: `simplefilter("error")`,
pytest's `-W error` or `filterwarnings = error` would turn `inf * 0` inside a kernel into an
exception, raised half-way through an in-place update.  So `arr` (every kernel's first
touch of tensor data) checks that the filter is still first and puts it back there; it
concerns only these kernels' RuntimeWarnings, so every other filter keeps its effect.
"""
import warnings

FILTER = None  # the installed filter entry (warnings.filters holds it by identity)


def install():
    """Put the filter first in warnings.filters (moving it there if it is present)."""
    global FILTER
    filters = warnings.filters
    if any(f is FILTER for f in filters):
        # moved by hand: filterwarnings would bump the filters' version, which clears every
        # module's once-per-location registry (warnings already shown would show again)
        filters.remove(FILTER)
        filters.insert(0, FILTER)
        return
    warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"mindtorch_cpu\.kernels\.")
    FILTER = warnings.filters[0]

