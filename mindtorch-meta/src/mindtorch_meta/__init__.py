"""Shape/dtype inference for every mindtorch op, and the `meta` device.

Other backends call `infer(op_name, *args)` to learn the shape and dtype of an op's
result before allocating it (invariant 7: meta is the shape authority)."""
__version__ = "0.1.0"

from .infer import infer  # noqa: F401,E402
