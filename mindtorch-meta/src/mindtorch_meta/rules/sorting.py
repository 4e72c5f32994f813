"""Meta inference rules: sorting, selection, scans with indices, set ops, binning (the
checks are core's, shared with the kernels).  unique, unique_consecutive and bincount
have data-dependent result sizes: they raise PyTorch's NotImplementedError (errors.py)."""
from mindtorch import _dtype as D
from mindtorch._ops.decls import sorting as S

from ..errors import no_meta_kernel

_I64 = D.int64


def _pair(shape, dtype):
    return (shape, dtype), (shape, _I64)


def sort(self, dim=-1, descending=False, stable=None):
    S.check_sort(self)
    return _pair(self._shape, self.dtype)


def topk(self, k, dim=-1, largest=True, sorted=True):
    return _pair(S.topk_shape(self, k, dim), self.dtype)


def kthvalue(self, k, dim=-1, keepdim=False):
    return _pair(S.kthvalue_shape(self, k, dim, keepdim), self.dtype)


def median(self):
    S.check_median(self)
    return (), self.dtype


def _median_dim(name):
    def rule(self, dim, keepdim=False):
        return _pair(S.median_dim_shape(name, self, dim, keepdim), self.dtype)
    return rule


def mode(self, dim=-1, keepdim=False):
    return _pair(S.mode_shape(self, dim, keepdim), self.dtype)


def _cumulative(name):
    def rule(self, dim):
        S.check_cumulative(name, self)
        return _pair(self._shape, self.dtype)
    return rule


def logcumsumexp(self, dim):
    S.check_cumulative("logcumsumexp", self)
    return self._shape, self.dtype


def searchsorted(sorted_sequence, self, out_int32=False, right=False, side=None, sorter=None):
    shape, dtype, _, _ = S.searchsorted_plan(sorted_sequence, self, out_int32, right, side,
                                             sorter)
    return shape, dtype


def histc(self, bins=100, min=0, max=0):
    S.histc_range(self, bins, min, max)
    return (bins,), self.dtype


def histogram(self, bins=100, range=None, weight=None, density=False):
    n, _ = S.histogram_plan(self, bins, range, weight)
    return ((n,), self.dtype), ((n + 1,), self.dtype)


def bincount(self, weights=None, minlength=0):
    raise no_meta_kernel("bincount")


def isin(elements, test_elements, assume_unique=False, invert=False):
    shape, _ = S.isin_plan(elements, test_elements)
    return shape, D.bool


def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
    raise no_meta_kernel("_unique2" if dim is None else "unique_dim")


def unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
    raise no_meta_kernel("unique_consecutive")


RULES = {
    "sort": sort, "topk": topk, "kthvalue": kthvalue,
    "median": median, "nanmedian": median,
    "_median_dim": _median_dim("median"), "_nanmedian_dim": _median_dim("nanmedian"),
    "mode": mode, "cummax": _cumulative("cummax"), "cummin": _cumulative("cummin"),
    "logcumsumexp": logcumsumexp, "searchsorted": searchsorted, "histc": histc,
    "histogram": histogram, "bincount": bincount, "isin": isin,
    "unique": unique, "unique_consecutive": unique_consecutive,
}
