"""CPU kernels: normalization ops."""
KERNELS = {}
