"""Invariant 7: for every op with a cpu and a meta kernel, and each of its samples, the
meta device infers exactly the shape and dtype the cpu computes (the conformance kit's
meta check, run here for the cpu so that `pytest tests/conformance` catches a disagreement
without running the whole kit)."""
import pytest

from mindtorch.testing import opdb
from mindtorch.testing._kit import check_meta

OPS_WITH_BOTH = opdb.ops_with_kernels("cpu", "meta")


@pytest.mark.parametrize("name", OPS_WITH_BOTH)
def test_meta_matches_cpu(name):
    info = opdb.opinfo(name)
    assert info.samples, f"op '{name}' has cpu and meta kernels but no conformance samples " \
                         f"(add them to mindtorch/testing/opdb/<family>.py)"
    if info.xfail_reason("meta", "cpu"):
        pytest.xfail(info.xfail_reason("meta", "cpu"))
    verdict, why = check_meta(info, "cpu").verdict()
    assert verdict != "fail", why
    if verdict == "skip" and info.data_dependent:  # (equal: meta refuses, as PyTorch's meta)
        pytest.skip(f"'{name}' gives a value of the data: {why}")
    assert verdict == "pass", f"no sample of '{name}' could be checked: {why}"
