"""CPU kernels: resample ops."""
KERNELS = {}
