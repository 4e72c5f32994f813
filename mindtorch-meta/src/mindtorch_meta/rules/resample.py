"""Meta inference rules: padding and upsampling (shapes and checks from
mindtorch._ops.decls.resample).  The composite ops (F.pad, interpolate, shuffles; and
grid sampling, affine grids in decls.sampling) are inferred through their decompositions."""
from mindtorch._ops.decls import resample as R


def _pad(kind, nd):
    def rule(self, padding):
        return R.pad_plan(kind, nd, self, padding), self.dtype
    return rule


def _pad_backward(kind, nd):
    def rule(grad_output, self, padding):
        shape = R.pad_plan(kind, nd, self, padding)
        if tuple(grad_output._shape) != shape:
            raise RuntimeError(f"Expected grad_output to have the same shape as output; output: "
                               f"{list(shape)}, grad_output: {list(grad_output._shape)}")
        return self._shape, self.dtype
    return rule


def _upsample(name):
    def rule(self, output_size, *rest):
        return R.upsample_plan(name, self, output_size), self.dtype
    return rule


def _upsample_backward(name):
    def rule(grad_output, output_size, input_size, *rest):
        R.upsample_sizes(name, input_size, output_size)
        return tuple(input_size), grad_output.dtype
    return rule


RULES = {}
for _kind in ("reflection", "replication"):
    for _nd in (1, 2, 3):
        RULES[f"{_kind}_pad{_nd}d"] = _pad(_kind, _nd)
        RULES[f"{_kind}_pad{_nd}d_backward"] = _pad_backward(_kind, _nd)
for _name in R.UPSAMPLE:
    RULES[_name] = _upsample(_name)
    RULES[_name + "_backward"] = _upsample_backward(_name)
