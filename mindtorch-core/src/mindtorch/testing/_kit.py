"""The device-generic conformance checks behind mindtorch.testing.conformance.

Each check runs every sample of one op (opdb) on a device and returns a Result; the pytest
layer (conformance.py) turns it into pass / skip / fail.  Samples are built without torch;
only the references need it.  The checks live in _check_<name>.py, the running of samples
in _sample_runs.py, the conversions to and from PyTorch in _torch_bridge.py; this module
gathers them (the fuzzer uses the helpers from here too)."""
from ._check_backward import GRAD_MAX_NUMEL, GRAD_SAMPLES, check_backward  # noqa: F401
from ._check_forward import check_forward
from ._check_inplace import check_inplace
from ._check_meta import check_meta
from ._check_out import check_out
from ._sample_runs import (  # noqa: F401
    NoKernel, Result, _map, _metadata, _quiet, _tolerance, base_error, build, call, describe,
    has_data, has_float64, tensors,
)
from ._torch_bridge import (  # noqa: F401
    _torch_error, _torch_meta, _torch_out_error, _torch_tensors, from_torch, to_torch,
)

CHECK_FUNCTIONS = {"forward": check_forward, "backward": check_backward, "meta": check_meta,
                   "inplace": check_inplace, "out": check_out}
