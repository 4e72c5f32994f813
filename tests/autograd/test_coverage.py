"""Every op that takes a tensor says how it differentiates: a formula, a decomposition
(its sub-ops record), or nondifferentiable.  An op missing here would record a node whose
backward raises."""
from mindtorch._ops import OPS

TENSOR_TYPES = ("Tensor", "Tensor|Scalar", "Tensor[]", "Tensor?[]")


def undeclared():
    missing = []
    for name, op in OPS.items():
        if "::" in name or name.startswith("_test"):  # plugin ops; ops tests define
            continue
        takes_tensors = any(a.type in TENSOR_TYPES for a in op.schema.args)
        if not takes_tensors or op.promotion == "always_bool":
            continue
        if op.formulas is None and op.decomposition is None and op.differentiable:
            missing.append(name)
    return sorted(missing)


def test_every_op_declares_its_derivative():
    assert undeclared() == []


if __name__ == "__main__":
    print(len(undeclared()), " ".join(undeclared()))


# ops whose gradient tests reach them under another name
INDIRECT = {
    "_to_copy": "Tensor.to", "_max_dim": "max(t, dim)", "_min_dim": "min(t, dim)",
    "native_dropout": "dropout", "alias": "x[...]", "numpy_T": "Tensor.T",
    "matrix_H": "Tensor.H",
}


def test_every_differentiable_op_has_gradient_tests():
    import glob
    import os
    import re

    from test_views_grad import SWEEP_EXCLUDED, _in_place_pointwise
    here = os.path.dirname(__file__)
    text = "".join(open(f).read() for f in glob.glob(os.path.join(here, "test_*.py")))
    swept = {name for name, _ in _in_place_pointwise()} | SWEEP_EXCLUDED
    untested = []
    for name, op in OPS.items():
        if "::" in name or name.startswith("_test") or not op.differentiable or op.promotion == "always_bool" or \
                not any(a.type in TENSOR_TYPES for a in op.schema.args):
            continue
        if name in swept or name in INDIRECT:
            continue
        if not re.search(r"[.\"' (]" + re.escape(name) + r"[\"'(\]]", text):
            untested.append(name)
    # integer or bool results: nothing to differentiate
    left = sorted(set(untested) - {"isclose", "allclose", "equal", "randint_like"})
    assert not left, left
