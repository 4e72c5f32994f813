"""Shared by the serialization tests: the checkpoints PyTorch writes, and comparisons
of loaded objects that look at values, dtypes and geometry."""
import collections

import numpy as np
import torch

import mindtorch as mt

DTYPES = ["float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
          "uint8", "bool", "complex64", "complex128"]


def host(t):
    """Values of a torch or mindtorch tensor as numpy (bfloat16 as float32)."""
    t = t.detach()
    if str(t.dtype) == "torch.bfloat16":
        t = t.float()
    return np.array(t.numpy())


def same_tensor(m, t, *, geometry=True):
    assert isinstance(m, mt.Tensor) and isinstance(t, torch.Tensor), (type(m), type(t))
    assert str(m.dtype) == str(t.dtype)
    assert tuple(m.shape) == tuple(t.shape)
    if geometry:
        assert tuple(m.stride()) == tuple(t.stride())
        assert m.storage_offset() == t.storage_offset()
    assert m.requires_grad == t.requires_grad
    assert isinstance(m, mt.nn.Parameter) == isinstance(t, torch.nn.Parameter)
    np.testing.assert_array_equal(host(m), host(t))


def same(m, t):
    """Recursively: containers of the same kind, equal tensors and values."""
    if isinstance(t, torch.Tensor):
        same_tensor(m, t)
    elif isinstance(t, dict):
        assert type(m).__name__ == type(t).__name__ and list(m) == list(t)
        assert getattr(m, "_metadata", None) == getattr(t, "_metadata", None)
        for k in t:
            same(m[k], t[k])
    elif isinstance(t, (list, tuple)) and not isinstance(t, torch.Size):
        assert type(m) is type(t) and len(m) == len(t)
        for a, b in zip(m, t):
            same(a, b)
    elif isinstance(t, torch.dtype):
        assert str(m) == str(t)
    elif isinstance(t, (torch.Size, torch.device)):
        assert type(m).__name__ == type(t).__name__ and str(m) == str(t)
    else:
        assert type(m) is type(t) and (m == t or m != m), (m, t)


def torch_objects():
    """Checkpoints of every kind torch.save writes, built with a fixed seed."""
    torch.manual_seed(0)
    base = torch.arange(24, dtype=torch.float32).reshape(4, 6)
    model = torch.nn.Sequential(torch.nn.Conv2d(2, 3, 3), torch.nn.BatchNorm2d(3),
                                torch.nn.Flatten(), torch.nn.Linear(12, 2))
    model(torch.randn(2, 2, 4, 4)).sum().backward()
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    opt.step()
    tensors = {d: (torch.randn(3, 4) * 5).to(getattr(torch, d)) for d in DTYPES}
    return {
        "state_dict": model.state_dict(),
        "optimizer": opt.state_dict(),
        "dtypes": tensors,
        "views": {"base": base, "row": base[1], "col": base[:, 2], "t": base.t(),
                  "step": base[::2, 1::3], "flat": base.view(-1)[5:9]},
        "odd": {"scalar": torch.tensor(3.5), "empty": torch.zeros(0, 3),
                "grad": torch.ones(2, requires_grad=True),
                "param": torch.nn.Parameter(torch.randn(2, 2)),
                "frozen": torch.nn.Parameter(torch.randn(2), requires_grad=False),
                "expanded": torch.randn(3, 1).expand(3, 4)},
        "nested": {"list": [torch.ones(2), (torch.zeros(1), 3)], "num": 1.5, "s": "text",
                   "n": None, "b": b"bytes", "t": (1, 2), "c": 1 + 2j, "set": {1, 2},
                   "od": collections.OrderedDict(a=torch.tensor([1, 2])),
                   "dt": torch.float16, "size": torch.Size([2, 3]),
                   "dev": torch.device("cpu")},
    }


def shares_storage(a, b):
    return a.untyped_storage() is b.untyped_storage()
