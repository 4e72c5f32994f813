"""Reductions and scans: result shape and dtype, with the validity checks the kernels
make (shared with them through mindtorch._ops.decls.reduction)."""
from mindtorch import _dtype as D
from mindtorch._ops.decls import reduction as R

from ..infer import contiguous_decomposition


def _sum_like(self, dim=None, keepdim=False, dtype=None):
    return R.out_shape(self, dim, keepdim), R.sum_dtype(self, dtype)


def mean(self, dim=None, keepdim=False, dtype=None):
    return R.out_shape(self, dim, keepdim), R.mean_dtype(self, dtype)


def _extremum(name):
    def rule(self):
        R.check_extremum(name, self, None)
        return (), self.dtype
    return rule


def _amax_like(name):
    def rule(self, dim=(), keepdim=False):
        R.check_extremum(name, self, dim)
        return R.out_shape(self, dim, keepdim), self.dtype
    return rule


def _arg(name):
    def rule(self, dim=None, keepdim=False):
        R.check_extremum(name, self, dim)
        return R.out_shape(self, dim, keepdim), D.int64
    return rule


def _with_indices(name):
    def rule(self, dim, keepdim=False):
        R.check_extremum(name, self, dim)
        shape = R.out_shape(self, dim, keepdim)
        return (shape, self.dtype), (shape, D.int64)
    return rule


def _logical(self, dim=None, keepdim=False):
    return R.logical_shape(self, dim, keepdim), R.any_all_dtype(self)


def _var(name):
    def rule(self, dim=None, unbiased=None, keepdim=False, correction=None):
        _, dtype = R.var_correction(name, self, dim, unbiased, correction)
        return R.out_shape(self, dim, keepdim), dtype
    return rule


def logsumexp(self, dim, keepdim=False):
    R.check_logsumexp(self, dim, keepdim)
    return R.out_shape(self, dim, keepdim), R.logsumexp_dtype(self)


def cumsum(self, dim, dtype=None):
    return self._shape, R.sum_dtype(self, dtype)


RULES = {
    "sum": _sum_like, "prod": _sum_like, "mean": mean,
    "max": _extremum("max"), "min": _extremum("min"),
    "amax": _amax_like("amax"), "amin": _amax_like("amin"),
    "argmax": _arg("argmax"), "argmin": _arg("argmin"),
    "_max_dim": _with_indices("_max_dim"), "_min_dim": _with_indices("_min_dim"),
    "all": _logical, "any": _logical,
    "var": _var("var"), "std": _var("std"),
    "logsumexp": logsumexp, "cumsum": cumsum, "cumprod": cumsum,
    # (softmax kernels allocate contiguous results)
    **{name: contiguous_decomposition(name) for name in (
        "softmax", "log_softmax", "_softmax_backward_data", "_log_softmax_backward_data")},
}
