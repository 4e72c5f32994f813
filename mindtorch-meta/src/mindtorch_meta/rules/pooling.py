"""Meta inference rules: pooling ops (shapes and checks from mindtorch._ops.decls.pooling)."""
from mindtorch import _dtype as D
from mindtorch._ops.decls import pooling as P


def _max_pool(nd, with_indices):
    def rule(self, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False):
        *_, out = P.max_pool_plan(nd, self, kernel_size, stride, padding, dilation, ceil_mode)
        shape = self._shape[:-nd] + out
        return ((shape, self.dtype), (shape, D.int64)) if with_indices else (shape, self.dtype)
    return rule


def _avg_pool(nd):
    def rule(self, kernel_size, stride=None, padding=0, ceil_mode=False,
             count_include_pad=True, divisor_override=None):
        *_, out = P.avg_pool_plan(nd, self, kernel_size, stride, padding, ceil_mode,
                                  divisor_override)
        return self._shape[:-nd] + out, self.dtype
    return rule


def _avg_pool_backward(nd):
    def rule(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
             divisor_override):
        P.avg_pool_plan(nd, self, kernel_size, stride, padding, ceil_mode, divisor_override)
        return self._shape, self.dtype
    return rule


def _adaptive(name, nd, with_indices):
    def rule(self, output_size):
        shape = P.adaptive_plan(name, self, nd, output_size)
        return ((shape, self.dtype), (shape, D.int64)) if with_indices else (shape, self.dtype)
    return rule


def _max_unpool(nd):
    def rule(self, indices, output_size, stride=None, padding=None):
        return P.max_unpool_plan(nd, self, indices, output_size, stride, padding), self.dtype
    return rule


RULES = {}
for _nd in (2, 3):
    RULES.update({
        f"max_pool{_nd}d_with_indices": _max_pool(_nd, True),
        f"max_pool{_nd}d": _max_pool(_nd, False),
        f"avg_pool{_nd}d": _avg_pool(_nd),
        f"avg_pool{_nd}d_backward": _avg_pool_backward(_nd),
        f"_adaptive_avg_pool{_nd}d": _adaptive(f"adaptive_avg_pool{_nd}d", _nd, False),
        f"_adaptive_avg_pool{_nd}d_backward": lambda grad_output, self: (self._shape,
                                                                         self.dtype),
        f"adaptive_max_pool{_nd}d": _adaptive(f"adaptive_max_pool{_nd}d", _nd, True),
        f"max_unpool{_nd}d": _max_unpool(_nd),
    })
