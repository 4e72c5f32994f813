"""NumPy CPU kernels for mindtorch (registered through the public plugin API)."""
__version__ = "0.1.0"
