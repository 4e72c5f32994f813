"""Layer ops with cpu kernels: pdist (the others run their decompositions on meta)."""
from mindtorch._ops.decls import layers as L


def pdist(self, p=2.0):
    return L.check_pdist(self, p), self.dtype


RULES = {"pdist": pdist}
