"""CPU kernels: factorization ops."""
KERNELS = {}
