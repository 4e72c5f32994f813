"""torch.nn.utils.rnn: padding and packing of variable-length sequences.

A PackedSequence holds the time steps one after another: step t contributes the rows of the
batch_sizes[t] sequences still running (sequences sorted by decreasing length). Packing and
padding are slices and concatenations of mindtorch ops, so gradients flow through them;
lengths and batch sizes are CPU int64 tensors, as in PyTorch."""
import numbers
from collections.abc import Iterable
from typing import NamedTuple

import mindtorch

from ... import _autocast
from ..._ops._argcheck import _not_int, _type_name
from ...autograd.function import Function

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence",
           "pad_packed_sequence", "pad_sequence", "unpad_sequence", "pack_sequence",
           "unpack_sequence"]


class PackedSequence_(NamedTuple):
    data: mindtorch.Tensor
    batch_sizes: mindtorch.Tensor
    sorted_indices: mindtorch.Tensor | None
    unsorted_indices: mindtorch.Tensor | None


def _bind(optional, fn):
    return None if optional is None else fn(optional)


class PackedSequence(PackedSequence_):
    """(data, batch_sizes, sorted_indices, unsorted_indices); build it with pack_sequence or
    pack_padded_sequence. unsorted_indices defaults to the inverse of sorted_indices."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:  # PackedSequence((data, batch_sizes))
            if not (isinstance(data, (list, tuple)) and len(data) == 2):
                raise AssertionError("Expected data to be a list or tuple of length 2")
            data, batch_sizes = data
        elif batch_sizes.device.type != "cpu":
            raise ValueError(
                "batch_sizes should always be on CPU. Instances of PackedSequence should never "
                "be created manually. They should be instantiated by functions like "
                "pack_sequence and pack_padded_sequences in nn.utils.rnn. "
                "https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence")
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        """data converted as Tensor.to; the indices follow data's device."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        from ..._creation import _parse_to_no_copy
        _, _, non_blocking, memory_format = _parse_to_no_copy(*args, **kwargs)

        def move(t):  # (the indices keep their dtype)
            return t.to(data.device, non_blocking=non_blocking, memory_format=memory_format)
        return type(self)(data, self.batch_sizes, _bind(self.sorted_indices, move),
                          _bind(self.unsorted_indices, move))

    def _to_device_type(self, device_type, args, kwargs):
        """to(*args, **kwargs) (Tensor.to's arguments), onto device_type unless they
        already lead there."""
        probe = mindtorch.empty(0, dtype=self.data.dtype, device=self.data.device)
        if probe.to(*args, **kwargs).device.type != device_type:
            kwargs = {**kwargs, "device": device_type}
        return self.to(*args, **kwargs)

    def cpu(self, *args, **kwargs):
        return self._to_device_type("cpu", args, kwargs)

    def cuda(self, *args, **kwargs):
        return self._to_device_type("cuda", args, kwargs)

    def pin_memory(self):
        return self

    def double(self):
        return self.to(dtype=mindtorch.double)

    def float(self):
        return self.to(dtype=mindtorch.float)

    def half(self):
        return self.to(dtype=mindtorch.half)

    def long(self):
        return self.to(dtype=mindtorch.long)

    def int(self):
        return self.to(dtype=mindtorch.int)

    def short(self):
        return self.to(dtype=mindtorch.short)

    def char(self):
        return self.to(dtype=mindtorch.int8)

    def byte(self):
        return self.to(dtype=mindtorch.uint8)

    @property
    def is_cuda(self):
        return self.data.is_cuda

    def is_pinned(self):
        return False


def invert_permutation(permutation):
    """The permutation that undoes `permutation` (None stays None)."""
    if permutation is None:
        return None
    return mindtorch.empty_like(permutation).scatter_(
        0, permutation, mindtorch.arange(permutation.numel(), device=permutation.device))


def _packed_rows(batch_sizes, batch, device):
    """The rows of a (T * batch, *) time-major padded batch that a PackedSequence of these
    batch sizes holds, in its order."""
    rows = [t * batch + b for t, bs in enumerate(batch_sizes) for b in range(bs)]
    return mindtorch.tensor(rows, dtype=mindtorch.int64, device=device)


class _PackPaddedSequence(Function):
    """A PackedSequence's data from a padded batch (time-major after the optional
    transpose): its packed rows, one gather, and one graph node as in PyTorch."""

    @staticmethod
    def forward(ctx, input, index, batch_first):
        ctx.save_for_backward(index)
        ctx.shape, ctx.batch_first = tuple(input.shape), batch_first
        padded = input.transpose(0, 1) if batch_first else input
        return padded.reshape(-1, *padded.shape[2:]).index_select(0, index)

    @staticmethod
    def backward(ctx, grad):
        index, = ctx.saved_tensors
        shape = ctx.shape[1::-1] + ctx.shape[2:] if ctx.batch_first else ctx.shape
        full = grad.new_zeros((shape[0] * shape[1], *shape[2:])).index_copy(0, index, grad)
        full = full.view(shape)
        return full.transpose(0, 1) if ctx.batch_first else full, None, None


_PackPaddedSequence._backward_cls.__name__ = "PackPaddedSequenceBackward0"


def _int_list(t):
    return [int(v) for v in t.tolist()]


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Packs a padded (T, B, *) batch (B, T, * with batch_first) of sequences of the given
    lengths; with enforce_sorted=False the batch is sorted by decreasing length first."""
    if isinstance(lengths, mindtorch.Tensor):
        lengths = lengths.to(dtype=mindtorch.int64)
    else:
        lengths = mindtorch.as_tensor(lengths, dtype=mindtorch.int64, device="cpu")
    sorted_indices = None
    if not enforce_sorted:
        lengths, sorted_indices = mindtorch.sort(lengths, descending=True)
        sorted_indices = sorted_indices.to(input.device)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    if not isinstance(input, mindtorch.Tensor):  # (the packing op's parser)
        raise TypeError(f"_pack_padded_sequence(): argument 'input' (position 1) must be "
                        f"Tensor, not {_type_name(input)}")
    if lengths.dim() != 1:
        raise RuntimeError(f"'lengths' argument should be a 1D CPU int64 tensor, but got "
                           f"{lengths.dim()}D cpu Long tensor")
    time_dim, batch_dim = (1, 0) if batch_first else (0, 1)
    lens = _int_list(lengths)
    if not input.numel():
        raise RuntimeError("Cannot pack empty tensors.")
    if len(lens) != input.size(batch_dim):
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got "
                           f"{len(lens)} (batch_size={input.size(batch_dim)})")
    if any(a < b for a, b in zip(lens, lens[1:])):
        raise RuntimeError(
            "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
            "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence "
            "to sidestep this requirement if you do not need ONNX exportability.")
    if lens[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an "
                           "element in 'lengths' that is <= 0")
    if lens[0] > input.size(time_dim):
        raise RuntimeError(f"pack_padded_sequence: a length of {lens[0]} exceeds the padded "
                           f"sequence length {input.size(time_dim)}")
    batch_sizes = [sum(n > t for n in lens) for t in range(lens[0])]
    index = _packed_rows(batch_sizes, input.size(batch_dim), input.device)
    data = _PackPaddedSequence.apply(input, index, batch_first)
    return PackedSequence(data, mindtorch.tensor(batch_sizes, dtype=mindtorch.int64,
                                                 device="cpu"), sorted_indices, None)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """Inverse of pack_padded_sequence: (padded batch, lengths) in the original order; the
    time dimension is total_length long when given."""
    sizes = _int_list(sequence.batch_sizes)
    max_len = len(sizes)
    if total_length is not None:
        if total_length < max_len:
            raise ValueError(
                "Expected total_length to be at least the length of the longest sequence in "
                f"input, but got total_length={total_length} and max sequence length being "
                f"{max_len}")
        if _not_int(total_length) or not hasattr(total_length, "__index__"):  # (the op's parser)
            raise TypeError(f"_pad_packed_sequence(): argument 'total_length' (position 5) "
                            f"must be int, not {_type_name(total_length)}")
        max_len = total_length.__index__()
    data = sequence.data
    batch = sizes[0] if sizes else 0
    tail = tuple(data.shape[1:])
    padded = data.new_full((max_len, batch, *tail), padding_value)
    # the packed rows into their places, one op (PyTorch's graph: CopySlices)
    padded.view(max_len * batch, *tail).index_copy_(0, _packed_rows(sizes, batch, data.device),
                                                    data)
    lengths = mindtorch.tensor([sum(bs > b for bs in sizes) for b in range(batch)],
                               dtype=mindtorch.int64, device="cpu")
    if batch_first:
        padded = padded.transpose(0, 1)
    if sequence.unsorted_indices is not None:
        return (padded.index_select(0 if batch_first else 1, sequence.unsorted_indices),
                lengths[sequence.unsorted_indices.cpu()])
    return padded, lengths


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stacks sequences of shapes (L_i, *) into (max L, B, *) (or (B, max L, *)), padded with
    padding_value on padding_side; the result has the first sequence's dtype."""
    if not isinstance(sequences, Iterable):
        raise RuntimeError("pad_sequence: Expected iterable for input sequences, but got arg "
                           f"of type: {type(sequences)}")
    sequences = tuple(sequences)
    for i, seq in enumerate(sequences):  # (PyTorch's parser of the op's Tensor[] argument)
        if not isinstance(seq, mindtorch.Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{_type_name(seq)}")
    if not isinstance(padding_value, numbers.Real) and not (  # (the op's float argument)
            isinstance(padding_value, mindtorch.Tensor) and padding_value.dim() == 0):
        raise TypeError(f"pad_sequence(): argument 'padding_value' (position 3) must be "
                        f"float, not {_type_name(padding_value)}")
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got "
                           f"{padding_side}.")
    first = sequences[0]
    if first.dim() == 0:  # (PyTorch's kernel slices the missing sizes)
        raise RuntimeError("ArrayRef: invalid slice, N = 1; size = 0")
    tail = tuple(first.shape[1:])
    lengths = [seq.size(0) for seq in sequences]
    max_len, n = max(lengths), len(sequences)
    # other trailing shapes are copied in as PyTorch's kernel does (broadcast, or its error)
    if all(tuple(seq.shape[1:]) == tail for seq in sequences) and \
            not (mindtorch.is_grad_enabled() and any(seq.requires_grad for seq in sequences)):
        return _pad_rows(sequences, lengths, max_len, tail, batch_first, padding_value,
                         padding_side)
    # as PyTorch: the padding everywhere, then each sequence copied into its place (one
    # op per sequence; the gradient flows through the copies, CopySlices)
    out = first.new_full((n, max_len, *tail) if batch_first else (max_len, n, *tail),
                         padding_value)
    for i, seq in enumerate(sequences):
        length = seq.size(0)
        start = 0 if padding_side == "right" else max_len - length
        place = out.select(0, i).narrow(0, start, length) if batch_first else \
            out.narrow(0, start, length).select(1, i)
        place.copy_(seq)
    return out


def _pad_rows(sequences, lengths, max_len, tail, batch_first, padding_value, padding_side):
    """pad_sequence without a gradient in a few ops, whatever the number of sequences: all
    the steps (converted to the first's dtype) put at once where a (sequence, step) mask of
    the padded batch is set."""
    first = sequences[0]
    with _autocast.off():  # (PyTorch's kernel copies rows: no autocast cat)
        steps = mindtorch.cat([seq if seq.dtype is first.dtype else seq.to(first.dtype)
                               for seq in sequences])
    n = len(sequences)
    out = first.new_full((n * max_len, *tail), padding_value)
    step = mindtorch.arange(max_len, device=first.device)
    length = mindtorch.tensor(lengths, device=first.device).unsqueeze(1)
    inside = step < length if padding_side == "right" else step >= max_len - length
    out.index_put_((inside.reshape(-1),), steps)
    out = out.view(n, max_len, *tail)
    return out if batch_first else out.transpose(0, 1).contiguous()


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """The list of sequences (their first lengths[i] steps, copies) of a padded batch.  As
    PyTorch's, a time-major batch is transposed in place (the caller's tensor is left
    batch-major) and lengths must be a tensor."""
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    steps = mindtorch.arange(padded_sequences.shape[1], device=lengths.device)
    return [seq[steps < length] for seq, length in zip(padded_sequences, lengths, strict=True)]


def pack_sequence(sequences, enforce_sorted=True):
    """Packs a list of sequences of shapes (L_i, *)."""
    lengths = mindtorch.as_tensor([v.size(0) for v in sequences], device="cpu")
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """The list of sequences a PackedSequence holds, in their original order."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
