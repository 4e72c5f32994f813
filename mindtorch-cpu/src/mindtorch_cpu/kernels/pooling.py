"""CPU kernels: pooling ops."""
KERNELS = {}
