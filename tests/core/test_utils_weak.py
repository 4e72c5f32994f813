"""torch.utils.weak: tensors as weak dictionary keys by identity, against PyTorch."""
import gc
import importlib

import mindtorch
from reference import torch


def run(lib):
    w = importlib.import_module(lib.__name__ + ".utils.weak")
    d = w.WeakTensorKeyDictionary()
    a, b = lib.ones(2), lib.ones(2)  # equal values, distinct keys
    d[a], d[b] = 1, 2
    out = [len(d), d[a], d[b], a in d, lib.zeros(1) in d, sorted(d.values())]
    del d[b]
    c = lib.zeros(3)
    d[c] = 7
    del c
    gc.collect()  # a collected key leaves the dictionary
    out += [len(d), list(d.values())]
    r = w.WeakIdRef(a)
    out += [r() is a, hash(r) == id(a), r == w.WeakIdRef(a), w.TensorWeakRef(a)() is a,
            w.WeakIdKeyDictionary({a: 3})[a]]
    try:
        d[lib.ones(1)]
    except KeyError:
        out.append("KeyError")
    return out


def test_weak_tensor_dictionaries_like_torch():
    assert run(mindtorch) == run(torch)
