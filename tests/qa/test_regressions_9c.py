"""Coordinator's regressions of the ninth session, each compared with PyTorch."""
import pytest
from reference import same_errors


def test_contains_compares_element_first():
    # PyTorch's `element in t` is (element == t).any(): a shape error names them so
    same_errors(lambda lib: lib.tensor([1.0, 2.0]) in lib.zeros(2, 3))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "complex64",
                                   "int8", "uint8", "int64", "bool"])
def test_item_reads_views_in_place(dtype):
    # item() reads a cpu element in place (DeviceSpec.host_memory): views, offsets, dtypes
    def program(lib):
        base = lib.arange(24).reshape(4, 6).to(getattr(lib, dtype))
        picks = [base[2, 3], base.t()[5, 1], base[1:, ::2][2, 1], base.flatten()[-1:]]
        return [(type(p.item()).__name__, p.item()) for p in picks]
    ours, theirs = same_errors(program)
    assert ours == theirs


def test_item_errors():
    same_errors(lambda lib: lib.ones(2).item())
    same_errors(lambda lib: lib.ones(0).item())
    same_errors(lambda lib: lib.ones(1, device="meta").item())
