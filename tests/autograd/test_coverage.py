"""Every op that takes a tensor says how it differentiates: a formula, a decomposition
(its sub-ops record), or nondifferentiable; and every differentiable op is reached by a
gradient test.  An undeclared op would record a node whose backward raises."""
import glob
import os
import re

import pytest

from mindtorch._ops import OPS

TENSOR_TYPES = ("Tensor", "Tensor|Scalar", "Tensor[]", "Tensor?[]")
# ops whose gradient tests reach them under another name
INDIRECT = {
    "_to_copy": "Tensor.to", "_max_dim": "max(t, dim)", "_min_dim": "min(t, dim)",
    "native_dropout": "dropout", "alias": "x[...]", "numpy_T": "Tensor.T",
    "matrix_H": "Tensor.H",
}
# differentiable ops with integer or bool results only: nothing to differentiate
INTEGER_RESULTS = {"isclose", "allclose", "equal", "randint_like"}


def _ops_taking_tensors():
    """(name, op) of core's ops with a tensor argument and a result that can carry grad
    (plugin ops, `ns::name`, and the ops tests define, `_test...`, aside)."""
    for name, op in OPS.items():
        if "::" in name or name.startswith("_test") or op.promotion == "always_bool":
            continue
        if any(a.type in TENSOR_TYPES for a in op.schema.args):
            yield name, op


def undeclared():
    return sorted(name for name, op in _ops_taking_tensors()
                  if op.formulas is None and op.decomposition is None and op.differentiable)


def test_every_op_declares_its_derivative():
    assert undeclared() == []


def test_every_differentiable_op_has_gradient_tests():
    pytest.importorskip("torch")  # (test_views_grad compares with it)
    from test_views_grad import SWEEP_EXCLUDED, _in_place_pointwise
    here = os.path.dirname(__file__)
    text = "".join(open(f).read() for f in glob.glob(os.path.join(here, "test_*.py")))
    swept = {name for name, _ in _in_place_pointwise()} | SWEEP_EXCLUDED
    untested = [name for name, op in _ops_taking_tensors()
                if op.differentiable and name not in swept and name not in INDIRECT and
                name not in INTEGER_RESULTS and
                not re.search(r"[.\"' (]" + re.escape(name) + r"[\"'(\]]", text)]
    assert not untested, untested


if __name__ == "__main__":
    print(len(undeclared()), " ".join(undeclared()))
