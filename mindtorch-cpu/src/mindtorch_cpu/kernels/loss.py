"""CPU kernels: loss ops."""
KERNELS = {}
