"""nn.RNN / LSTM / GRU over packed sequences and with projections, one graph node per
layer-direction (nn/modules/_recurrence.py), against PyTorch: outputs and final states
(each sequence's last valid step; the reversed direction starting at each one's end),
first and second order gradients, grad_fn names, partial requires_grad, gradients through
the final states only, and the unrecorded loop (no_grad)."""
import numpy as np
import pytest
from seq_helpers import assert_close, check_forward_backward, pair_modules, randn

import mindtorch
from mindtorch import nn
from mindtorch.nn.utils import rnn as mt_rnn

torch = pytest.importorskip("torch")
th_rnn = torch.nn.utils.rnn

MODES = [("RNN", {}), ("RNN", {"nonlinearity": "relu"}), ("LSTM", {}), ("GRU", {}),
         ("LSTM", {"proj_size": 2})]
LENGTHS = [[6, 5, 4, 3, 2, 1], [2, 5, 5, 1], [1, 1, 1], [4], [3, 3]]


def make(mode, dtype="float64", **kwargs):
    return pair_modules(getattr(nn, mode), getattr(torch.nn, mode), 4, 3, dtype=dtype, **kwargs)


def initial_state(mt_mod, batch, seed=1, dtype="float64"):
    dirs = 2 if mt_mod.bidirectional else 1
    h = randn(mt_mod.num_layers * dirs, batch, mt_mod.proj_size or mt_mod.hidden_size,
              seed=seed, dtype=dtype)
    if mt_mod.mode != "LSTM":
        return h
    c = randn(mt_mod.num_layers * dirs, batch, mt_mod.hidden_size, seed=seed + 1, dtype=dtype)
    return (h[0], c[0]), (h[1], c[1])


def packed_pair(lengths, dtype="float64", batch_first=False):
    """The padded leaves (mindtorch, torch) and their packings (enforce_sorted=False)."""
    mx, tx = randn(max(lengths), len(lengths), 4, dtype=dtype, seed=len(lengths))
    if batch_first:
        mx, tx = randn(len(lengths), max(lengths), 4, dtype=dtype, seed=len(lengths))
    kw = dict(batch_first=batch_first, enforce_sorted=False)
    return (mx, tx), (mt_rnn.pack_padded_sequence(mx, lengths, **kw),
                      th_rnn.pack_padded_sequence(tx, lengths, **kw))


@pytest.mark.parametrize("mode,extra", MODES)
@pytest.mark.parametrize("lengths", LENGTHS)
@pytest.mark.parametrize("bidirectional", [False, True])
def test_packed_float64(mode, extra, lengths, bidirectional):
    mt, th = make(mode, num_layers=2, bidirectional=bidirectional, **extra)
    (mx, tx), (mp, tp) = packed_pair(lengths)
    mh, th_h = initial_state(mt, len(lengths))
    check_forward_backward(mt, th, (mp, mh), (tp, th_h))
    assert_close(mx.grad, tx.grad)  # (through the packing)


@pytest.mark.parametrize("mode,extra", MODES)
def test_packed_float32_batch_first_no_hx(mode, extra):
    mt, th = make(mode, dtype="float32", num_layers=2, bidirectional=True, batch_first=True,
                  **extra)
    (mx, tx), (mp, tp) = packed_pair([3, 7, 1, 7, 4], dtype="float32", batch_first=True)
    check_forward_backward(mt, th, (mp,), (tp,), dtype="float32")
    assert_close(mx.grad, tx.grad, "float32")


@pytest.mark.parametrize("mode,extra", MODES)
def test_projection_and_rnn_padded(mode, extra):
    """The padded path of the modes the fused node newly covers, bias-free and 3 layers."""
    mt, th = make(mode, num_layers=3, bidirectional=True, bias=False, **extra)
    mx, tx = randn(5, 3, 4)
    mh, th_h = initial_state(mt, 3)
    check_forward_backward(mt, th, (mx, mh), (tx, th_h))


def _second_order(mod, lib, x, hx, packed):
    """Gradients of a penalty on the first gradients (create_graph) of a loss mixing the
    outputs and the final states."""
    inputs = lib.nn.utils.rnn.pack_padded_sequence(x, packed, enforce_sorted=False) \
        if packed else x
    out, hn = mod(inputs, hx)
    out = out.data if packed else out
    states = hn if isinstance(hn, tuple) else (hn,)
    loss = out.pow(2).sum() + sum((s * s.cos()).sum() for s in states)
    leaves = [x, *(hx if isinstance(hx, tuple) else (hx,)), *mod.parameters()]
    first = lib.autograd.grad(loss, leaves, create_graph=True)
    penalty = sum((g * g.sin()).sum() for g in first)
    return first, lib.autograd.grad(penalty, leaves)


@pytest.mark.parametrize("mode,extra", MODES)
@pytest.mark.parametrize("packed", [None, [2, 4, 1]])
def test_double_backward(mode, extra, packed):
    mt, th = make(mode, num_layers=2, bidirectional=True, **extra)
    mx, tx = randn(4, 3, 4)
    mh, th_h = initial_state(mt, 3)
    got = _second_order(mt, mindtorch, mx, mh, packed)
    want = _second_order(th, torch, tx, th_h, packed)
    for m, t in zip(got[0] + got[1], want[0] + want[1]):
        np.testing.assert_allclose(m.detach().numpy(), t.detach().numpy(), rtol=1e-9,
                                   atol=1e-11)


@pytest.mark.parametrize("mode,extra", MODES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_grad_fn_names_as_torch(mode, extra, dtype):
    """Packed outputs are concatenated steps (CatBackward0); final states and padded
    outputs of the newly fused modes are stacked (StackBackward0), as PyTorch's."""
    mt, th = make(mode, dtype=dtype, **extra)
    (_, _), (mp, tp) = packed_pair([2, 3], dtype=dtype)
    mx, tx = randn(3, 2, 4, dtype=dtype)
    for m_in, t_in in ((mp, tp), (mx, tx)):
        (mo, mh), (to, t_h) = mt(m_in), th(t_in)
        mo, to = (mo.data, to.data) if m_in is mp else (mo, to)
        assert mo.grad_fn.name() == to.grad_fn.name()
        if mode == "LSTM":
            assert mh[1].grad_fn.name() == t_h[1].grad_fn.name()
            mh, t_h = mh[0], t_h[0]
        assert mh.grad_fn.name() == t_h.grad_fn.name()


@pytest.mark.parametrize("mode,extra", MODES)
def test_final_states_only(mode, extra):
    """A loss of the final states alone (the outputs' gradients are zero)."""
    mt, th = make(mode, bidirectional=True, **extra)
    (mx, tx), (mp, tp) = packed_pair([3, 1, 4])
    states = [mt(mp)[1], th(tp)[1]]
    for s in states:
        (s if isinstance(s, tuple) else (s,))[-1].pow(3).sum().backward()
    assert_close(mx.grad, tx.grad)
    th_params = dict(th.named_parameters())
    for name, p in mt.named_parameters():
        assert_close(p.grad, th_params[name].grad)


@pytest.mark.parametrize("mode,extra", MODES)
@pytest.mark.parametrize("packed", [False, True])
def test_partial_requires_grad(mode, extra, packed):
    """Frozen input projections and input, a trainable initial state: only what requires
    a gradient gets one, and it is torch's."""
    mt, th = make(mode, num_layers=2, **extra)
    for mod in (mt, th):
        for name, p in mod.named_parameters():
            p.requires_grad_("_hh" in name or "_hr" in name)
    lengths = [3, 1, 2]
    (mx, tx), (mp, tp) = packed_pair(lengths)
    mx.requires_grad_(False), tx.requires_grad_(False)
    if packed:
        (mp, tp) = (mt_rnn.pack_padded_sequence(mx, lengths, enforce_sorted=False),
                    th_rnn.pack_padded_sequence(tx, lengths, enforce_sorted=False))
    else:
        mp, tp = mx, tx
    mh, th_h = initial_state(mt, 3)
    check_forward_backward(mt, th, (mp, mh), (tp, th_h))
    assert mx.grad is None
    assert all(p.grad is None for name, p in mt.named_parameters() if "_ih" in name)


@pytest.mark.parametrize("mode,extra", MODES)
def test_no_grad_loop(mode, extra):
    """Unrecorded, the same loop runs step by step: torch's values, no graph."""
    mt, th = make(mode, num_layers=2, bidirectional=True, **extra)
    (_, _), (mp, tp) = packed_pair([2, 5, 3])
    with mindtorch.no_grad():
        mo, mh = mt(mp)
    with torch.no_grad():
        to, t_h = th(tp)
    assert mo.data.grad_fn is None
    assert_close(mo.data, to.data)
    for m, t in zip(mh if isinstance(mh, tuple) else (mh,), t_h if isinstance(t_h, tuple)
                    else (t_h,)):
        assert_close(m, t)


def test_meta_packed_shapes():
    m = nn.LSTM(4, 3, bidirectional=True, proj_size=2, device="meta")
    data = mindtorch.empty(6, 4, device="meta", requires_grad=True)
    packed = mt_rnn.PackedSequence(data, mindtorch.tensor([3, 2, 1]))
    out, (h, c) = m(packed)
    assert (tuple(out.data.shape), tuple(h.shape), tuple(c.shape)) == ((6, 4), (2, 3, 2),
                                                                         (2, 3, 3))
    assert out.data.device.type == "meta" and out.data.grad_fn.name() == "CatBackward0"
