"""How a recorded node holds its saved values beyond single tensors: Tensor[] arguments
(each tensor a SavedTensor, version-checked when unpacked) and its own outputs, unpacked
one by one where a formula reads them."""
from .._tensor import Tensor
from .graph import SavedTensor


def save_list(values):
    """A Tensor[] / Tensor?[] argument saved for backward: its tensors as SavedTensors (their
    version checked when unpacked), None and the rest as they are."""
    if values is None:
        return None
    return [SavedTensor(t) if isinstance(t, Tensor) else t for t in values]


def unpack_list(values, node):
    if values is None:
        return None
    return [v.unpack(node) if type(v) is SavedTensor else v for v in values]


class LazyResults:
    """A node's saved outputs as a formula sees them: each is unpacked when read. PyTorch's
    nodes keep only the outputs their formula uses, so writing in place into an unread
    output (BatchNorm's main output, then ReLU(inplace=True)) must not fail at backward."""
    __slots__ = ("_saved", "_node")

    def __init__(self, saved, node):
        self._saved, self._node = saved, node

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self._saved)))]
        x = self._saved[k]
        return x.unpack(self._node) if isinstance(x, SavedTensor) else x

    def __len__(self):
        return len(self._saved)

    def __iter__(self):
        return (self[i] for i in range(len(self._saved)))
