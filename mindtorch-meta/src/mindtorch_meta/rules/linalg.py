"""Matrix products: result shape (with the kernels' checks, shared through
mindtorch._ops.decls.linalg) and dtype (the operands', which must agree).  matmul and
addmm decompose into these on the meta device."""
from mindtorch._ops.decls import linalg as L


def _product(shape_rule):
    def rule(self, other):
        return shape_rule(self, other), self.dtype
    return rule


def bmm(self, mat2):
    shape, dtype, _ = L.bmm_plan(self, mat2)
    return shape, dtype


RULES = {"mm": _product(L.mm_shape), "bmm": bmm,
         "mv": _product(L.mv_shape), "dot": _product(L.dot_shape)}
