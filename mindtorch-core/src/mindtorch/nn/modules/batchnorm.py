"""torch.nn.modules.batchnorm: batch normalisation with running statistics."""
import mindtorch

from .. import functional as F, init
from ..parameter import Parameter, UninitializedBuffer, UninitializedParameter
from ._own_init import own_init
from .lazy import LazyModuleMixin
from .module import Module

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LazyBatchNorm1d", "LazyBatchNorm2d",
           "LazyBatchNorm3d", "SyncBatchNorm"]


class _NormBase(Module):
    """What batch and instance norm share: the affine parameters and the running
    statistics (running_mean, running_var, num_batches_tracked buffers)."""
    _version = 2  # version 2 added num_batches_tracked
    __constants__ = ["track_running_stats", "momentum", "eps", "num_features", "affine"]

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, device=None, dtype=None, *, bias=True):
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = Parameter(mindtorch.empty(num_features, **factory_kwargs))
        else:
            self.register_parameter("weight", None)
        if affine and bias:
            self.bias = Parameter(mindtorch.empty(num_features, **factory_kwargs))
        else:
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", mindtorch.zeros(num_features, **factory_kwargs))
            self.register_buffer("running_var", mindtorch.ones(num_features, **factory_kwargs))
            self.register_buffer("num_batches_tracked",
                                 mindtorch.tensor(0, dtype=mindtorch.long, device=device))
        else:
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                self.register_buffer(name, None)
        self.reset_parameters()

    def reset_running_stats(self):
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def _check_input_dim(self, input):
        raise NotImplementedError

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.bias is not None}, "
                f"track_running_stats={self.track_running_stats}")

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        # checkpoints older than version 2 have no num_batches_tracked: keep ours (or 0)
        version = local_metadata.get("version", None)
        key = prefix + "num_batches_tracked"
        if (version is None or version < 2) and self.track_running_stats \
                and key not in state_dict:
            tracked = self.num_batches_tracked
            state_dict[key] = tracked if tracked is not None and tracked.device.type != "meta" \
                else mindtorch.tensor(0, dtype=mindtorch.long)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys,
                                      unexpected_keys, error_msgs)


def _dims_error(expected, input):
    return ValueError(f"expected {expected} input (got {input.dim()}D input)")


class _BatchNorm(_NormBase):
    _dims = ()       # the input ranks accepted
    _dims_text = ""  # how the error message names them

    def _check_input_dim(self, input):
        if input.dim() not in self._dims:
            raise _dims_error(self._dims_text, input)

    def forward(self, input):
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:  # cumulative moving average
                factor = 1.0 / float(self.num_batches_tracked)
        # batch statistics in training, and in eval when there are no running ones; the
        # buffers are passed when they are updated (training) or used (eval)
        use_batch_stats = self.training or (self.running_mean is None
                                            and self.running_var is None)
        use_buffers = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if use_buffers else None,
                            self.running_var if use_buffers else None, self.weight,
                            self.bias, use_batch_stats, factor, self.eps)


class BatchNorm1d(_BatchNorm):
    """Batch normalisation over (N, C) or (N, C, L) input."""
    _dims, _dims_text = (2, 3), "2D or 3D"


class BatchNorm2d(_BatchNorm):
    """Batch normalisation over (N, C, H, W) input."""
    _dims, _dims_text = (4,), "4D"


class BatchNorm3d(_BatchNorm):
    """Batch normalisation over (N, C, D, H, W) input."""
    _dims, _dims_text = (5,), "5D"


class SyncBatchNorm(_BatchNorm):
    """Batch normalisation synchronised across processes; without a distributed process
    group (mindtorch has none) it normalises each process's batch, as PyTorch's does
    when torch.distributed is not initialised."""

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, process_group=None, device=None, dtype=None, *,
                 bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device,
                         dtype, bias=bias)
        self.process_group = process_group

    def _check_input_dim(self, input):
        if input.dim() < 2:
            raise _dims_error("at least 2D", input)

    def forward(self, input):
        self._check_input_dim(input)
        if input.size(1) == 0:
            raise ValueError("SyncBatchNorm number of input channels should be non-zero")
        return super().forward(input)

    @classmethod
    def convert_sync_batchnorm(cls, module, process_group=None):
        """module with every BatchNorm*d (recursively) replaced by a SyncBatchNorm sharing
        its parameters and buffers."""
        result = module
        if isinstance(module, _BatchNorm):
            result = cls(module.num_features, module.eps, module.momentum, module.affine,
                         module.track_running_stats, process_group,
                         bias=module.bias is not None)
            if module.affine:
                with mindtorch.no_grad():
                    result.weight = module.weight
                    result.bias = module.bias
            result.running_mean = module.running_mean
            result.running_var = module.running_var
            result.num_batches_tracked = module.num_batches_tracked
            result.training = module.training
            if hasattr(module, "qconfig"):
                result.qconfig = module.qconfig
        for name, child in module.named_children():
            result.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        return result


class _LazyNormBase(LazyModuleMixin, _NormBase):
    """A norm built with 0 features and no tensors; its weight, bias and running statistics
    stay uninitialized until the first input's dim 1 gives num_features."""

    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True,
                 device=None, dtype=None, *, bias=True):
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__(0, eps, momentum, False, False, bias=False, **factory_kwargs)
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = UninitializedParameter(**factory_kwargs)
            if bias:
                self.bias = UninitializedParameter(**factory_kwargs)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(**factory_kwargs)
            self.running_var = UninitializedBuffer(**factory_kwargs)
            self.num_batches_tracked = mindtorch.tensor(0, dtype=mindtorch.long, device=device)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if not self.has_uninitialized_params():
            return
        self.num_features = input.shape[1]  # (PyTorch's dim, for unbatched input too)
        for t in (self.weight, self.bias, self.running_mean, self.running_var):
            if t is not None:
                t.materialize((self.num_features,))
        self.reset_parameters()


class LazyBatchNorm1d(_LazyNormBase, _BatchNorm):
    """BatchNorm1d with num_features inferred from the first input (input.size(1))."""
    cls_to_become = BatchNorm1d
    _dims, _dims_text = BatchNorm1d._dims, BatchNorm1d._dims_text


class LazyBatchNorm2d(_LazyNormBase, _BatchNorm):
    """BatchNorm2d with num_features inferred from the first input (input.size(1))."""
    cls_to_become = BatchNorm2d
    _dims, _dims_text = BatchNorm2d._dims, BatchNorm2d._dims_text


class LazyBatchNorm3d(_LazyNormBase, _BatchNorm):
    """BatchNorm3d with num_features inferred from the first input (input.size(1))."""
    cls_to_become = BatchNorm3d
    _dims, _dims_text = BatchNorm3d._dims, BatchNorm3d._dims_text


own_init(_BatchNorm)
