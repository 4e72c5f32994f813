"""DataLoader workers seed Python's, NumPy's and the framework's generators as PyTorch's
workers do, so a seeded loader's random augmentations are PyTorch's."""
import random

import numpy as np
import pytest

import mindtorch as mt

torch = pytest.importorskip("torch")


def _draws(lib):
    class Noisy(lib.utils.data.Dataset):
        def __len__(self):
            return 6

        def __getitem__(self, i):
            info = lib.utils.data.get_worker_info()
            return [i, info.id, lib.rand(()).item(), float(np.random.rand()), random.random()]

    lib.manual_seed(7)
    loader = lib.utils.data.DataLoader(Noisy(), batch_size=None, num_workers=2, shuffle=True)
    return [row for _ in range(2) for row in loader]


def test_worker_draws_match_pytorch():
    assert _draws(mt) == _draws(torch)
