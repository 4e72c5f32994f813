"""CPU kernels: special ops."""
KERNELS = {}
