"""Meta inference rules: the numerics family (the rest of it decomposes)."""
from mindtorch._ops.decls import numerics as N

RULES = {"frexp": N.frexp_meta}
