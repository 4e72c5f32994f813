"""Regression tests for QA round 11b (training recipes and generative-model code), each against torch."""
import mindtorch
import pytest
from reference import same_outcome

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("case", [
    lambda L: L._assert(True, "m"), lambda L: L._assert(1 == 2, "height mismatch"),
    lambda L: L._assert(L.tensor(False), "t"), lambda L: L._assert(L.tensor(3), "t"),
    lambda L: L._check(True), lambda L: L._check(False), lambda L: L._check(False, lambda: 3),
    lambda L: L._check(False, "not callable"), lambda L: L._check(L.tensor(True)),
    lambda L: L._check(1), lambda L: L._check_index(False), lambda L: L._check_value(False),
    lambda L: L._check_type(False, lambda: "t"), lambda L: L._check_not_implemented(False),
    lambda L: L._check_with(KeyError, False, lambda: "k"),
    lambda L: L._check_with(UserWarning, False), lambda L: L._check_is_size(-1),
    lambda L: L._check_is_size(3, max=2), lambda L: L._check_is_size(2, max=2),
    lambda L: L._check_tensor_all(L.tensor([True, False])),
    lambda L: L._check_tensor_all(L.tensor([True, True])),
    lambda L: L._check_tensor_all(L.tensor([1])), lambda L: L._check_tensor_all(True),
    lambda L: L._assert_async(L.tensor(0)), lambda L: L._assert_async(L.tensor(2.5)),
    lambda L: L._assert_async(L.tensor([1, 1])), lambda L: L._assert_async(L.tensor([])),
    lambda L: L._assert_async(L.tensor([True]), "msg"),
])
def test_assert_and_check_family(case):
    same_outcome(case)


def test_check_is_size_is_deprecated():
    import warnings
    for L in (mindtorch, torch):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            L._check_is_size(2)
        assert [x.category for x in w] == [FutureWarning]
        assert str(w[0].message).startswith("_check_is_size will be removed")
