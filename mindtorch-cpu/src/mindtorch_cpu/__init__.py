"""NumPy CPU kernels for mindtorch (registered through the public plugin API)."""
__version__ = "0.1.0"

from . import _quiet

# installed at `import mindtorch` (this package), not when the kernels load with the first
# op: that may happen inside a warnings.catch_warnings() block, whose exit would drop it
_quiet.install()
