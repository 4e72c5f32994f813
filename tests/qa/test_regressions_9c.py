"""Coordinator's regressions of the ninth session, each compared with PyTorch."""
from reference import same_errors


def test_contains_compares_element_first():
    # PyTorch's `element in t` is (element == t).any(): a shape error names them so
    same_errors(lambda lib: lib.tensor([1.0, 2.0]) in lib.zeros(2, 3))
