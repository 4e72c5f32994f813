"""CPU kernels: conv ops."""
KERNELS = {}
