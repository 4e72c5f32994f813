"""Meta inference rules: activation ops with kernels (the others decompose)."""
from mindtorch._ops.decls import activation as A


def gelu(self, approximate="none"):
    A.check_gelu(self, approximate)
    return self._shape, self.dtype


RULES = {"gelu": gelu}
