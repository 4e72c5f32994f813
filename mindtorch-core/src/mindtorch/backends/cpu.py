"""torch.backends.cpu: the SIMD level kernels were built for; NumPy picks its own at run
time, so mindtorch reports PyTorch's baseline name."""


def get_cpu_capability():
    return "DEFAULT"
