"""CPU kernels: layers ops."""
KERNELS = {}
