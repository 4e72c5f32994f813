"""torch.from_file against torch: copies and shared mappings of a file's bytes, dtypes,
sizes, and the errors."""
import os

import numpy as np
import pytest
import torch

import mindtorch


def outcome(fn, lib):
    try:
        return fn(lib).tolist()
    except Exception as e:  # noqa: BLE001 - compared by class and message
        return type(e).__name__, str(e)


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "data.bin"
    np.arange(10, dtype=np.float32).tofile(path)
    return str(path)


def test_reads(data):
    for kwargs in ({"size": 4}, {"size": 4, "dtype": "int32"}, {"size": 10},
                   {"size": 20}, {"size": 0}, {}, {"size": 5, "dtype": "float64"}):
        def fn(L, kw=kwargs):
            kw = dict(kw)
            if "dtype" in kw:
                kw["dtype"] = getattr(L, kw["dtype"])
            return L.from_file(data, **kw)
        assert outcome(fn, mindtorch) == outcome(fn, torch)


def test_shared_writes_reach_the_file(data, tmp_path):
    t = mindtorch.from_file(data, shared=True, size=3)
    t[0] = 100
    assert np.fromfile(data, dtype=np.float32)[:3].tolist() == [100.0, 1.0, 2.0]
    copy = mindtorch.from_file(data, shared=False, size=3)
    copy[1] = 7
    assert np.fromfile(data, dtype=np.float32)[1] == 1.0
    fresh = str(tmp_path / "new.bin")
    assert mindtorch.from_file(fresh, shared=True, size=2).shape == (2,)
    assert os.path.getsize(fresh) == 8


def test_missing_file(tmp_path):
    missing = str(tmp_path / "missing.bin")
    assert outcome(lambda L: L.from_file(missing, size=2), mindtorch) == \
        outcome(lambda L: L.from_file(missing, size=2), torch)
