"""torch.backends.cudnn: no mindtorch backend uses cuDNN.  The flags scripts set
(`benchmark = True`, `deterministic = True`) are accepted and kept, as on a PyTorch
build whose cuDNN is absent."""
enabled = True
benchmark = False
benchmark_limit = 10
deterministic = False
allow_tf32 = True


def is_available():
    return False


def version():
    return None
