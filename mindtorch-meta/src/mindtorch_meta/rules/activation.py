"""Meta inference rules: activation ops with kernels (the others decompose)."""
from mindtorch._ops.decls import activation as A

from ..infer import contiguous_decomposition


def gelu(self, approximate="none"):
    A.check_gelu(self, approximate)
    return self._shape, self.dtype


# (PyTorch's cpu log_sigmoid allocates its result contiguous, whatever the input's layout)
RULES = {"gelu": gelu, "log_sigmoid": contiguous_decomposition("log_sigmoid")}
