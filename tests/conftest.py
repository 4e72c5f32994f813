import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

try:  # torch's thread pool makes tiny reference ops slow on a busy 2-core machine
    import torch

    torch.set_num_threads(1)
except ImportError:
    pass
