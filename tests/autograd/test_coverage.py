"""Every op that takes a tensor says how it differentiates: a formula, a decomposition
(its sub-ops record), or nondifferentiable.  An op missing here would record a node whose
backward raises."""
import mindtorch
from mindtorch._ops import OPS

TENSOR_TYPES = ("Tensor", "Tensor|Scalar", "Tensor[]", "Tensor?[]")


def undeclared():
    missing = []
    for name, op in OPS.items():
        if "::" in name:
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
