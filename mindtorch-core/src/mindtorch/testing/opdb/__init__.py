"""The op database: sample inputs for every op, built on any device, for device-generic
checks.  Each family module has SAMPLES = {op name: [sample, ...]}, a sample being a
function (device) -> (args, kwargs).  Pointwise ops without listed samples get generic
ones from their schema, in-place variants (`x_`) the samples of `x`."""
import importlib

from mindtorch._ops import OPS

from ._complex import with_complex
from .core import binary_samples, unary_samples

FAMILIES = ("core", "core_shapes", "core_linalg", "activation", "special", "sorting", "factorization", "conv", "pooling",
            "resample", "sampling", "normalization", "layers", "loss", "numerics", "fft",
            "rnn", "view_copies", "static_shapes", "compat")
SAMPLES = {}
for _family in FAMILIES:
    SAMPLES.update(importlib.import_module(f"{__name__}.{_family}").SAMPLES)


def samples_for(op):
    if op.name in SAMPLES:
        return with_complex(op.name, SAMPLES[op.name])
    if op.name.endswith("_") and op.mutates and op.name[:-1] in SAMPLES:
        # an in-place variant: the op's own samples
        return with_complex(op.name[:-1], SAMPLES[op.name[:-1]])
    if "pointwise" in op.tags:
        tensors = [a for a in op.schema.args if not a.kwarg_only]
        generic = {1: unary_samples, 2: binary_samples}.get(len(tensors))
        if generic is not None:  # (in place: the op's complex samples, e.g. refusals)
            return with_complex(op.name.removesuffix("_"), generic(op))
    return None


def ops_with_kernels(*devices):
    from mindtorch.plugins._registry import KERNELS
    return sorted(name for name in OPS
                  if all(d in KERNELS.get(name, {}) for d in devices))


# OpInfo records over the samples (see _info.py for the declared tables)
from ._info import (  # noqa: E402,F401
    CHECKS, DOMAINS, DTYPES, NOT_IN_TORCH, SKIPS, TOLERANCES, TORCH_REFERENCES, XFAILS, OpInfo,
    op_db, opinfo,
)
