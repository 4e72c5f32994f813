"""CPU kernels: sorting ops."""
KERNELS = {}
