"""Warnings ordinary programs meet (deprecated spellings, uint8 masks, read-only NumPy
arrays): the same category, text and count as PyTorch's, attributed to the caller's line
(not to a mindtorch or backend file)."""
import warnings

import mindtorch
import numpy as np
import pytest
from mindtorch import _warn_once

torch = pytest.importorskip("torch")

_TRIGGERED = " (Triggered internally"


def _record(fn, lib):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        fn(lib)
    return [(c.category.__name__, str(c.message).split(_TRIGGERED)[0], c.filename == __file__)
            for c in w]


def _uint8(lib):
    return lib.tensor([1, 0, 1], dtype=lib.uint8)


# warnings PyTorch gives on every call (TORCH_WARN / warnings.warn)
EVERY_CALL = {
    "index_uint8_mask": lambda L: [L.ones(3)[_uint8(L)], L.ones(2, 3)[:, _uint8(L)]],
    "sdp_kernel": lambda L: L.backends.cuda.sdp_kernel(enable_math=False).__enter__(),
}


@pytest.mark.parametrize("name", list(EVERY_CALL), ids=str)
def test_every_call_warnings_as_torch(name):
    fn = EVERY_CALL[name]
    ours = _record(fn, mindtorch)
    if name == "sdp_kernel":  # (PyTorch's decorator attributes it to contextlib)
        ours, theirs = [o[:2] for o in ours], [t[:2] for t in _record(fn, torch)]
        mindtorch.nn.attention._enable(set(mindtorch.nn.attention.SDPBackend))
    else:
        theirs = _record(fn, torch)
    assert ours == theirs and ours


# PyTorch's TORCH_WARN_ONCE: the first call warns (at the caller's line), later ones do not
ONCE = {
    "where_uint8": lambda L: [L.where(_uint8(L), 1.0, 0.0), L.where(_uint8(L), 1.0, 0.0)],
    "numpy_not_writable": lambda L: [L.as_tensor(np.broadcast_to(np.ones(1), (2,))),
                                     L.from_numpy(np.broadcast_to(np.ones(1), (2,)))],
}


@pytest.mark.parametrize("key", list(ONCE), ids=str)
def test_warn_once_warnings(key):
    _warn_once._seen.discard(key)
    ours = _record(ONCE[key], mindtorch)
    assert len(ours) == 1 and ours[0][0] == "UserWarning" and ours[0][2]
    text = {  # (PyTorch's texts: its own once-state may be spent by other tests)
        "where_uint8": "where received a uint8 condition tensor. This behavior is deprecated "
                       "and will be removed in a future version of PyTorch. Use a boolean "
                       "condition instead.",
        "numpy_not_writable": "The given NumPy array is not writable, and PyTorch does not "
                              "support non-writable tensors."}[key]
    assert ours[0][1].startswith(text)


def test_grad_only_inputs_false_warns_deprecated():
    def run(lib):
        x = lib.ones(2, requires_grad=True)
        return _record(lambda L: L.autograd.grad((x * 2).sum(), x, only_inputs=False), lib)
    assert run(mindtorch) == run(torch) != []


def test_out_resize_warning_full_text():
    def run(lib):
        return _record(lambda L: L.add(L.ones(2), 1, out=L.zeros(3)), lib)
    assert run(mindtorch) == run(torch) != []


@pytest.mark.parametrize("key,fn,text", [
    ("qr", lambda L: L.qr(L.eye(2)), "torch.qr is deprecated in favor of torch.linalg.qr"),
    ("stft window", lambda L: L.stft(L.ones(64), 16),  # (warns, then fails: no return_complex)
     "A window was not provided. A rectangular window will be applied")],
    ids=lambda v: None if callable(v) else str(v))  # (a function's str has its address)
def test_warn_once_before_anything_else(key, fn, text):
    _warn_once._seen.discard(key)

    def call(L):
        try:
            fn(L)
        except RuntimeError:
            pass
    ours = _record(call, mindtorch)
    assert len(ours) == 1 and ours[0][1].startswith(text) and ours[0][2]
    assert _record(call, mindtorch) == []


# warnings of deprecated ops at the line calling them, however many frames the call takes
# inside mindtorch (arguments requiring grad run the op through autograd's recording)
AT_CALLER = {
    "embedding_bag_order": lambda L, rg: L.nn.functional.embedding_bag(
        L.ones(4, 2, requires_grad=rg), L.tensor([1, 2]), L.tensor([0, 1])),
    "upsample": lambda L, rg: L.nn.functional.upsample(L.ones(1, 1, 2, 2, requires_grad=rg), 4),
    "upsample_bilinear": lambda L, rg: L.nn.functional.upsample_bilinear(
        L.ones(1, 1, 2, 2, requires_grad=rg), scale_factor=2),
    "cholesky": lambda L, rg: L.cholesky((L.eye(2) * 2).requires_grad_(rg)),
    "cross": lambda L, rg: L.cross(L.ones(3, 3, requires_grad=rg), L.ones(3, 3)),
    "scatter_reduce": lambda L, rg: L.zeros(3, requires_grad=rg).scatter(
        0, L.tensor([0, 1]), L.ones(2), reduce="add"),
    "lu_solve": lambda L, rg: L.lu_solve(L.ones(2, 1, requires_grad=rg),
                                         *L.linalg.lu_factor(L.eye(2) * 2)),
}


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("name", list(AT_CALLER), ids=str)
def test_warnings_at_the_calling_line(name, requires_grad):
    fn = AT_CALLER[name]
    for lib in (mindtorch, torch):
        lib.set_warn_always(True)  # (PyTorch's C++ ones warn once per process)
        try:
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                fn(lib, requires_grad)
        finally:
            lib.set_warn_always(False)
        got = [(c.category, c.filename, c.lineno) for c in w]
        assert got == [(UserWarning, __file__, fn.__code__.co_firstlineno)], (lib, got)
