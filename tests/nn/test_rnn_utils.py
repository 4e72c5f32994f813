"""nn.utils.rnn against torch.nn.utils.rnn: padding, packing, unpacking (values, batch sizes,
indices, lengths, gradients), PackedSequence's tuple behaviour and conversions, errors."""
import numpy as np
import pytest
from seq_helpers import assert_close, randn, to_mt

import mindtorch
from mindtorch.nn.utils import rnn as mr

torch = pytest.importorskip("torch")
tr = torch.nn.utils.rnn


def seqs(lengths, tail=(3,), dtype="float64"):
    pairs = [randn(n, *tail, dtype=dtype, seed=i) for i, n in enumerate(lengths)]
    return [m for m, _ in pairs], [t for _, t in pairs]


def backward_same(m_out, t_out, m_in, t_in):
    w = torch.tensor(np.random.default_rng(0).standard_normal(tuple(t_out.shape)))
    (t_out * w.to(t_out.dtype)).sum().backward()
    (m_out * to_mt(w.to(t_out.dtype))).sum().backward()
    for m, t in zip(m_in, t_in):
        assert_close(m.grad, t.grad)


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("padding_side", ["right", "left"])
@pytest.mark.parametrize("tail", [(), (3,), (2, 2)])
def test_pad_sequence(batch_first, padding_side, tail):
    m_in, t_in = seqs([2, 5, 1, 5], tail)
    m = mr.pad_sequence(m_in, batch_first=batch_first, padding_value=-2.5,
                        padding_side=padding_side)
    t = tr.pad_sequence(t_in, batch_first=batch_first, padding_value=-2.5,
                        padding_side=padding_side)
    assert_close(m, t)
    backward_same(m, t, m_in, t_in)


def test_pad_sequence_dtypes_and_forms():
    ints = [mindtorch.tensor([1, 2]), mindtorch.tensor([3])]
    out = mr.pad_sequence(ints, padding_value=7)
    assert out.dtype == mindtorch.int64 and out.tolist() == [[1, 3], [2, 7]]
    mixed = mr.pad_sequence([mindtorch.ones(2), mindtorch.tensor([3])])
    assert mixed.dtype == mindtorch.float32  # the first sequence's dtype
    assert mr.pad_sequence(mindtorch.ones(2, 3)).shape == (3, 2)  # a tensor iterates rows
    assert mr.pad_sequence(iter([mindtorch.ones(1)])).shape == (1, 1)
    assert mr.pad_sequence([mindtorch.ones(0, 2), mindtorch.ones(0, 2)]).shape == (0, 2, 2)


@pytest.mark.parametrize("call", [
    lambda r, lib: r.pad_sequence([]),
    lambda r, lib: r.pad_sequence(5),
    lambda r, lib: r.pad_sequence([lib.ones(2, 3), lib.ones(3, 4)]),
    lambda r, lib: r.pad_sequence([lib.ones(2), lib.ones(3)], padding_side="middle"),
    lambda r, lib: r.pad_sequence([lib.tensor(1.0), lib.tensor(2.0)]),
])
def test_pad_sequence_errors(call):
    with pytest.raises(RuntimeError) as t_err:
        call(tr, torch)
    with pytest.raises(RuntimeError) as m_err:
        call(mr, mindtorch)
    if "size of tensor" in str(t_err.value) or "ArrayRef" in str(t_err.value):
        return  # PyTorch's message comes from deeper code
    assert str(m_err.value) == str(t_err.value)


@pytest.mark.parametrize("lengths,enforce_sorted", [([5, 3, 3, 1], True), ([3, 5, 1, 3], False),
                                                    ([4, 4, 4, 4], True), ([1], True)])
@pytest.mark.parametrize("batch_first", [False, True])
def test_pack_padded_roundtrip(lengths, enforce_sorted, batch_first):
    b = len(lengths)
    mx, tx = randn(*((b, 5, 3) if batch_first else (5, b, 3)))
    mp = mr.pack_padded_sequence(mx, lengths, batch_first=batch_first,
                                 enforce_sorted=enforce_sorted)
    tp = tr.pack_padded_sequence(tx, lengths, batch_first=batch_first,
                                 enforce_sorted=enforce_sorted)
    assert isinstance(mp, mr.PackedSequence) and isinstance(mp, tuple)
    assert_close(mp.data, tp.data)
    assert mp.batch_sizes.tolist() == tp.batch_sizes.tolist()
    assert mp.batch_sizes.dtype == mindtorch.int64 and mp.batch_sizes.device.type == "cpu"
    for name in ("sorted_indices", "unsorted_indices"):
        m_idx, t_idx = getattr(mp, name), getattr(tp, name)
        assert (m_idx is None) == (t_idx is None)
        if t_idx is not None:
            assert m_idx.tolist() == t_idx.tolist()
    for total_length in (None, 7):
        m_pad, m_len = mr.pad_packed_sequence(mp, batch_first=batch_first, padding_value=9.0,
                                              total_length=total_length)
        t_pad, t_len = tr.pad_packed_sequence(tp, batch_first=batch_first, padding_value=9.0,
                                              total_length=total_length)
        assert_close(m_pad, t_pad)
        assert m_len.tolist() == t_len.tolist() and m_len.dtype == mindtorch.int64
    backward_same(m_pad, t_pad, [mx], [tx])


def test_lengths_as_tensor():
    mx, tx = randn(4, 3, 2)
    mp = mr.pack_padded_sequence(mx, mindtorch.tensor([4, 2, 1], dtype=mindtorch.int32))
    tp = tr.pack_padded_sequence(tx, torch.tensor([4, 2, 1], dtype=torch.int32))
    assert_close(mp.data, tp.data)


@pytest.mark.parametrize("lengths,kwargs", [([2, 3, 1], {}), ([3, 2, 0], {}), ([3, 2], {}),
                                            ([3, 0, 1], dict(enforce_sorted=False))])
def test_pack_errors(lengths, kwargs):
    x = np.zeros((4, 3, 2))
    with pytest.raises(RuntimeError) as t_err:
        tr.pack_padded_sequence(torch.tensor(x), lengths, **kwargs)
    with pytest.raises(RuntimeError) as m_err:
        mr.pack_padded_sequence(mindtorch.tensor(x), lengths, **kwargs)
    assert str(m_err.value) == str(t_err.value)


def test_pad_packed_total_length_error():
    mp = mr.pack_sequence([mindtorch.ones(3), mindtorch.ones(2)])
    with pytest.raises(ValueError, match="Expected total_length to be at least the length"):
        mr.pad_packed_sequence(mp, total_length=2)


@pytest.mark.parametrize("enforce_sorted", [True, False])
def test_pack_unpack_sequence(enforce_sorted):
    lengths = [4, 2, 2, 1] if enforce_sorted else [2, 4, 1, 2]
    m_in, t_in = seqs(lengths, (2,))
    mp = mr.pack_sequence(m_in, enforce_sorted=enforce_sorted)
    tp = tr.pack_sequence(t_in, enforce_sorted=enforce_sorted)
    assert_close(mp.data, tp.data)
    m_back, t_back = mr.unpack_sequence(mp), tr.unpack_sequence(tp)
    assert len(m_back) == len(t_back)
    for m, t in zip(m_back, t_back):
        assert_close(m, t)
    backward_same(mp.data, tp.data, m_in, t_in)


@pytest.mark.parametrize("batch_first", [False, True])
def test_unpad_sequence(batch_first):
    m_in, t_in = seqs([3, 1, 4], (2,))
    m_pad = mr.pad_sequence(m_in, batch_first=batch_first)
    t_pad = tr.pad_sequence(t_in, batch_first=batch_first)
    lengths = torch.tensor([3, 1, 4])
    m_out = mr.unpad_sequence(m_pad, to_mt(lengths), batch_first=batch_first)
    t_out = tr.unpad_sequence(t_pad, lengths, batch_first=batch_first)
    for m, t in zip(m_out, t_out):
        assert_close(m, t)


def test_packed_sequence_object():
    data, sizes = mindtorch.arange(6.0), mindtorch.tensor([3, 2, 1])
    p = mr.PackedSequence(data, sizes)
    t = tr.PackedSequence(torch.arange(6.0), torch.tensor([3, 2, 1]))
    assert repr(p) == repr(t)
    d, b, s, u = p  # a 4-tuple
    assert d is data and b is sizes and s is None and u is None
    assert mr.PackedSequence((data, sizes)).data is data
    with pytest.raises(AssertionError):
        mr.PackedSequence(data)
    sorted_idx = mindtorch.tensor([2, 0, 1])
    p = mr.PackedSequence(data, sizes, sorted_idx)
    assert p.unsorted_indices.tolist() == [1, 2, 0]
    assert mr.invert_permutation(sorted_idx).tolist() == [1, 2, 0]
    assert mr.invert_permutation(None) is None
    assert p.double().data.dtype == mindtorch.float64
    assert p.to(mindtorch.float64).sorted_indices is sorted_idx
    assert p.to(mindtorch.float32) is p
    assert p.long().data.dtype == mindtorch.int64 and p.int().data.dtype == mindtorch.int32
    assert p.half().data.dtype == mindtorch.float16 and p.byte().data.dtype == mindtorch.uint8
    assert p.is_cuda is False and p.is_pinned() is False
    assert p._replace(data=data * 2).data.tolist() == (data * 2).tolist()


def test_meta_device():
    """Batch sizes and lengths stay on the CPU (as PyTorch's) under a meta default device;
    an RNN runs on the packed meta data."""
    with mindtorch.device("meta"):
        x = mindtorch.empty(5, 3, 4)
        packed = mr.pack_padded_sequence(x, [5, 3, 2])
        assert packed.data.device.type == "meta" and tuple(packed.data.shape) == (10, 4)
        assert packed.batch_sizes.device.type == "cpu"
        assert packed.batch_sizes.tolist() == [3, 3, 2, 1, 1]
        lstm = mindtorch.nn.LSTM(4, 6, bidirectional=True)
        out, (h, c) = lstm(packed)
        padded, lengths = mr.pad_packed_sequence(out)
    assert out.data.device.type == "meta" and tuple(out.data.shape) == (10, 12)
    assert tuple(h.shape) == (2, 3, 6) and h.device.type == "meta"
    assert tuple(padded.shape) == (5, 3, 12) and lengths.tolist() == [5, 3, 2]
    assert lengths.device.type == "cpu"


@pytest.mark.parametrize("enforce_sorted", [True, False])
@pytest.mark.parametrize("batch_first", [False, True])
def test_pack_pad_graph_and_double_backward(enforce_sorted, batch_first):
    """Packing is one node (PackPaddedSequenceBackward0), padding one in-place copy
    (CopySlices), as PyTorch's; gradients of gradients through both are torch's."""
    lengths = [2, 4, 1] if not enforce_sorted else [4, 2, 1]
    mx, tx = randn(*((3, 5, 2) if batch_first else (5, 3, 2)))
    results = []
    for lib, r, x in ((mindtorch, mr, mx), (torch, tr, tx)):
        p = r.pack_padded_sequence(x, lengths, batch_first=batch_first,
                                   enforce_sorted=enforce_sorted)
        padded, _ = r.pad_packed_sequence(p._replace(data=p.data.sin()), batch_first,
                                          total_length=6)
        (g,) = lib.autograd.grad(padded.pow(3).sum(), x, create_graph=True)
        (gg,) = lib.autograd.grad((g * g).sum(), x)
        names = (p.data.grad_fn.name(), r.pad_packed_sequence(p)[0].grad_fn.name())
        results.append((padded, g, gg, names))
    (m_pad, m_g, m_gg, m_names), (t_pad, t_g, t_gg, t_names) = results
    assert m_names == t_names
    for m, t in ((m_pad, t_pad), (m_g, t_g), (m_gg, t_gg)):
        assert_close(m, t)


def test_pack_pad_integer_data():
    x = mindtorch.arange(12).reshape(4, 3)
    p = mr.pack_padded_sequence(x, [4, 2, 1])
    t = tr.pack_padded_sequence(torch.arange(12).reshape(4, 3), [4, 2, 1])
    assert p.data.tolist() == t.data.tolist() and p.data.dtype == mindtorch.int64
    m_pad, _ = mr.pad_packed_sequence(p, padding_value=-1)
    t_pad, _ = tr.pad_packed_sequence(t, padding_value=-1)
    assert m_pad.tolist() == t_pad.tolist() and m_pad.dtype == mindtorch.int64
