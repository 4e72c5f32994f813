"""CPU kernels: activation ops."""
KERNELS = {}
