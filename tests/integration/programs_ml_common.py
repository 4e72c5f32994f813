"""The shared preludes of the ML program modules (programs_nn_*.py and
programs_training_*.py, see test_programs_ml.py): `ml(name, text)` registers an nn
program after the DET prelude, `tr(name, text)` a training program after PRELUDE."""
from programs_registry import program

# Every program starts with this: `det(model)` gives each parameter values from a fixed
# formula; `data(*shape)` is a fixed pseudo-random float tensor.
DET = r'''
import math
def det(model, scale=0.3):
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            v = torch.arange(p.numel(), dtype=torch.float64)
            p.copy_((torch.sin(v * 0.731 + i) * scale).reshape(p.shape))
    return model
def data(*shape, k=1.0):
    n = math.prod(shape)
    return (torch.sin(torch.arange(n, dtype=torch.float64) * 1.37 * k) * 1.5).reshape(shape).float()
'''


def ml(name, text, needs=()):
    program(name, "import torch\n" + DET + text, needs)


PRELUDE = r'''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
def det(model, seed=0, scale=0.3):
    rng = np.random.RandomState(seed)
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.from_numpy(rng.uniform(-scale, scale, tuple(p.shape))))
    return model
def blobs(n, dim, classes, seed=0, dtype=torch.float32):
    rng = np.random.RandomState(seed)
    y = rng.randint(0, classes, n)
    centers = rng.randn(classes, dim) * 2
    x = centers[y] + rng.randn(n, dim)
    return torch.tensor(x, dtype=dtype), torch.from_numpy(y)
'''


def tr(name, text, needs=()):
    program(name, PRELUDE + text, needs)
