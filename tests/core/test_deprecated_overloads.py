"""PyTorch's deprecated scale-first overloads, still common in old optimizer code:
p.add_(-lr, grad), torch.add(x, 2, y), addcmul_(value, t1, t2), addcdiv_(value, t1, t2)."""
import warnings

import numpy as np
import pytest

import mindtorch as mt

torch = pytest.importorskip("torch")


def _program(lib):
    p, g = lib.ones(3), lib.tensor([2.0, -1.0, 0.5])
    out = [p.add(-0.1, g), lib.add(p, 2, g), p.sub(0.5, g), lib.sub(p, 3, g),
           p.addcmul(0.5, g, g), lib.addcmul(p, 0.25, g, g), p.addcdiv(0.5, g, g),
           lib.addcdiv(p, 2, g, g)]
    q = p.clone()
    q.add_(-0.1, g)
    q.sub_(0.5, g)
    q.addcmul_(0.5, g, g)
    q.addcdiv_(-2.0, g, g + 3)
    return out + [q, lib.add(p, g, alpha=2), p.add(3)]


def test_scale_first_overloads_match_pytorch():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for mine, theirs in zip(_program(mt), _program(torch)):
            np.testing.assert_array_equal(mine.numpy(), theirs.numpy())


def test_deprecation_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mt.set_warn_always(True)
        try:
            mt.ones(2).add_(-0.1, mt.ones(2))
        finally:
            mt.set_warn_always(False)
    assert any("This overload of add_ is deprecated:\n\tadd_(Number alpha, Tensor other)"
               in str(w.message) for w in caught)
