"""(to be filled)"""
KERNELS = {}
