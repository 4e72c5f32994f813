"""OpInfo records: what the conformance kit knows about each op, built from the registry
and the SAMPLES of the family modules (the samples stay the contract family authors write
to; everything else here is derived, or declared in the tables below)."""
import importlib

from mindtorch._ops import OPS

CHECKS = ("forward", "backward", "meta", "inplace", "out")
PUBLIC_MODULES = ("linalg", "special", "nn.functional")

# -- declared tables ------------------------------------------------------------------------

# The PyTorch function an op is compared with, where it is not found by the op's public
# name: a dotted path under `torch` ("max", "Tensor.view", "ops.aten.index"), or a function
# of the torch module returning a callable.
TORCH_REFERENCES = {
    "_max_dim": "max", "_min_dim": "min", "_median_dim": "median",
    "_nanmedian_dim": "nanmedian", "normal_float_float": "normal", "view_dtype": "Tensor.view",
    "_view_copy_dtype": "view_copy",
    "numpy_T": lambda torch: lambda t: t.T, "mT": lambda torch: lambda t: t.mT,
    "mH": lambda torch: lambda t: t.mH, "matrix_H": lambda torch: lambda t: t.H,
    "threshold_backward": "ops.aten.threshold_backward",
    "gelu_backward": "ops.aten.gelu_backward", "silu_backward": "ops.aten.silu_backward",
    "leaky_relu_backward": "ops.aten.leaky_relu_backward",
    "hardswish_backward": "ops.aten.hardswish_backward",
    "hardtanh_backward": "ops.aten.hardtanh_backward",
    "sigmoid_backward": "ops.aten.sigmoid_backward", "tanh_backward": "ops.aten.tanh_backward",
    "softplus_backward": "ops.aten.softplus_backward", "elu_backward": "ops.aten.elu_backward",
    "log_sigmoid_backward": "ops.aten.log_sigmoid_backward",
    "_softmax_backward_data": "ops.aten._softmax_backward_data",
    "_layer_norm_backward": lambda torch: lambda g, x, mean, rstd, w, shape: \
    torch.ops.aten.native_layer_norm_backward(
        g, x, shape, mean, rstd, torch.ones(shape, dtype=x.dtype) if w is None else w,
        torch.zeros(shape, dtype=x.dtype), [True, True, True]),
    "_group_norm_backward": lambda torch: lambda g, x, mean, rstd, w, gm, gr, N, C, HxW, G: \
    torch.ops.aten.native_group_norm_backward(
        g, x, mean, rstd, torch.ones(C, dtype=x.dtype) if w is None else w, N, C, HxW, G,
        [True, True, True]),
    "_batch_norm_backward": lambda torch: lambda g, x, mean, invstd, w: \
    torch.ops.aten.native_batch_norm_backward(g, x, w, None, None, mean, invstd, True, 1e-5,
                                              [True, True, True]),
    "_batch_norm_inference_backward": lambda torch: lambda g, x, w, rm, rv, eps: \
    torch.ops.aten.native_batch_norm_backward(g, x, w, rm, rv, None, None, False, eps,
                                              [True, True, True]),
    "_log_softmax_backward_data": "ops.aten._log_softmax_backward_data",
    "_nll_loss_backward": lambda torch: _torch_nll_loss_backward(torch),
    "_addmm_backward": lambda torch: _torch_addmm_backward,
    "_ctc_loss_intlist": "ctc_loss",
    "fractional_max_pool2d": "_C._nn.fractional_max_pool2d",
    "fractional_max_pool3d": "_C._nn.fractional_max_pool3d",
    # the fused recurrent cells: see opdb/rnn.py
    **{name: (lambda name: lambda torch: importlib.import_module(
        f"{__package__}.rnn").torch_references(torch)[name])(name)
       for name in ("_lstm_cell", "_lstm_cell_backward", "_gru_cell", "_gru_cell_backward")},
    # ATen's take an output_mask mindtorch's (always both gradients) do not
    **{f"grid_sampler_{n}d_backward": (lambda n: lambda torch: lambda *a: getattr(
        torch.ops.aten, f"grid_sampler_{n}d_backward")(*a, [True, True]))(n) for n in (2, 3)},
}

def _torch_addmm_backward(grad, mat1, mat2, beta, alpha, self_shape, mat1_transposed,
                          mat2_transposed, mask):
    """addmm's gradients by PyTorch's formulas (AddmmBackward0's), as _addmm_backward
    returns them."""
    g1 = g2 = None
    if mask[1]:
        g1 = alpha * ((mat2 @ grad.mH).mH if mat1_transposed else grad @ mat2.mH)
    if mask[2]:
        g2 = alpha * ((grad.mH @ mat1).mH if mat2_transposed else mat1.mH @ grad)
    return (grad * beta).sum_to_size(self_shape) if mask[0] else None, g1, g2


def _torch_nll_loss_backward(torch):
    """PyTorch's nll_loss_backward as mindtorch's _nll_loss_backward takes it (its
    total_weight argument computed as PyTorch's forward does)."""
    def backward(grad, target, weight, size, reduction, ignore_index):
        x = torch.zeros(size, dtype=grad.dtype)
        valid = target != ignore_index
        n_classes = size[0 if len(size) == 1 else 1]
        w = valid.to(grad.dtype) if weight is None else \
            torch.where(valid, weight[target.clamp(0, n_classes - 1)], 0)
        total = w.sum()
        fn = torch.ops.aten.nll_loss2d_backward if len(size) == 4 else \
            torch.ops.aten.nll_loss_backward
        return fn(grad, x, target, weight, reduction, ignore_index, total)
    return backward


# Known gaps: {(op, check): reason} skips the check, {(op, check, device): reason} on that
# device only; check "*" means every check.  Reasons say why, so the table can be read.
SKIPS = {
}

# Known failures, run and reported as xfail (an unexpected pass shows as XPASS):
# same keys as SKIPS.  Values a kernel computes are keyed to its device ("cpu"): another
# backend's kernel is checked afresh.
XFAILS = {
}

# Per-op tolerances for the forward comparison where the op's algorithm legitimately
# differs from PyTorch's in rounding: {op: {dtype name: (rtol, atol)}}.
_HALF_NORM = {"float16": (4e-3, 5e-4), "bfloat16": (1.6e-2, 1e-3)}  # float32 statistics,
TOLERANCES = {                                                        # rounded at the end
    "native_batch_norm": _HALF_NORM, "batch_norm": _HALF_NORM,
    # computed in float64 and rounded once to float16: one ulp from PyTorch's float32 path
    "special_i0e": {"float16": (2e-3, 1e-5)}, "special_i1e": {"float16": (2e-3, 1e-5)},
    # float32 statistics rounded once (the correctly rounded result); PyTorch's vectorized
    # float16 kernel is up to two ulps from it
    **dict.fromkeys(("log_softmax", "functional_log_softmax", "special_log_softmax"),
                    {"float16": (2e-3, 1e-5)}),
}

# Positional arguments PyTorch does not differentiate, for ops without a torch reference
# to ask (the backward check leaves them constant): {op: (positions)}.
NONDIFFERENTIABLE_ARGS = {
    "_batch_norm_inference": (3, 4),   # running_mean, running_var
    "_batch_norm_training": (3, 4),
}

# Ops whose results hold no defined values (allocation): compared like random ops, by
# shape and dtype only.
UNINITIALIZED = frozenset({"empty", "empty_like", "empty_strided", "empty_permuted",
                           "new_empty_strided", "resize_", "resize_as_"})

# Ops whose result (a Python bool, or its shape) depends on the data, besides those tagged
# dynamic_output_shape: a device without data (meta) may refuse them with
# NotImplementedError (or, for a bool through .item(), PyTorch's RuntimeError).
DATA_DEPENDENT = frozenset({"allclose", "equal", "repeat_interleave", "nonzero",
                            "masked_select", "argwhere", "unique", "unique_consecutive",
                            "bincount", "histc", "item", "_histogramdd_bin_edges",
                            "_histogramdd_from_bin_cts"})

# Results defined only up to a choice the op makes freely (signs or phases of singular and
# eigenvectors, the order of unsorted top-k): {op: f(results) -> comparable results}, f
# written with methods mindtorch and torch tensors share, so it applies to both (forward
# comparison, and the function whose gradients are checked).
def _svd_invariant(r):
    k = r[1].shape[-1]
    return r[0][..., :k].abs(), r[1], r[2][..., :k, :].abs()


def _torch_svd_invariant(r):  # torch.svd gives V, not Vh
    return r[0].abs(), r[1], r[2].abs()


INVARIANT_OUTPUTS = {
    "linalg_svd": _svd_invariant, "svd": _torch_svd_invariant,
    "linalg_eig": lambda r: (r[0], r[1].abs()), "linalg_eigh": lambda r: (r[0], r[1].abs()),
    "topk": lambda r: (r[0].sort(dim=-1, descending=True)[0], r[1].sort(dim=-1)[0]),
}

# Declared dtypes, where the samples do not show what an op supports.
DTYPES = {
}

# Where an op's first floating input must lie for finite, differentiable results:
# {op: (low, high)} (None: unbounded).  The backward check maps that input's sample values
# into the open interval (gradients at the boundary or outside it are not checked).
_POSITIVE = (0, None)
_UNIT = (-1, 1)
DOMAINS = {
    **dict.fromkeys(("log", "log2", "log10", "sqrt", "rsqrt", "pow", "float_power", "lgamma",
                     "digamma", "polygamma", "mvlgamma", "special_gammaln", "special_digamma",
                     "special_psi", "special_polygamma", "special_multigammaln",
                     "special_entr"), _POSITIVE),
    **dict.fromkeys(("acos", "asin", "atanh", "arccos", "arcsin", "arctanh", "erfinv",
                     "special_erfinv"), _UNIT),
    **dict.fromkeys(("logit", "special_logit", "binary_cross_entropy", "special_ndtri"),
                    (0, 1)),
    **dict.fromkeys(("log1p", "special_log1p"), (-1, None)),
    **dict.fromkeys(("acosh", "arccosh"), (1, None)),
}


# Public names mindtorch has and PyTorch 2.13 does not: {name: why}.  docs/ops.md does not
# count them as torch functions; tests/conformance/test_ops_md.py fails on any other.
_EXTRA = "exposed since before issue 4; to be hidden (function=False / method=False)"
NOT_IN_TORCH = {
    **dict.fromkeys(("Tensor.fmax_", "Tensor.fmin_", "Tensor.maximum_", "Tensor.minimum_",
                     "Tensor.rsub", "Tensor.view_as_real", "mindtorch.view", "mindtorch.gelu",
                     "Tensor.gelu", "Tensor.gelu_", "mindtorch.silu", "Tensor.silu",
                     "Tensor.silu_"), _EXTRA),
}


def _numpy_references():
    """A few references in NumPy, used when torch is not installed (or with
    --mindtorch-reference=numpy): values only, compared after casting to the result's
    dtype (NumPy's promotion rules are not PyTorch's)."""
    import numpy as np
    unary = {n: getattr(np, n) for n in ("abs", "exp", "sin", "cos", "tanh", "sqrt", "floor",
                                         "ceil", "log1p", "expm1")}
    unary.update(neg=np.negative, log=np.log, sigmoid=lambda x: 1 / (1 + np.exp(-x)),
                 relu=lambda x: np.maximum(x, 0))
    def floating(f):  # NumPy computes bool inputs in float16; PyTorch in float32
        return lambda x: f(x.astype(np.float64) if x.dtype.kind in "biu" else x)
    refs = {n: floating(f) for n, f in unary.items()}
    refs.update(abs=np.abs, neg=np.negative, floor=np.floor, ceil=np.ceil)
    refs.update(
        add=lambda a, b, alpha=1: np.add(a, np.multiply(b, alpha)),
        sub=lambda a, b, alpha=1: np.subtract(a, np.multiply(b, alpha)),
        mul=np.multiply, maximum=np.maximum, minimum=np.minimum,
        mm=np.matmul, bmm=np.matmul, matmul=np.matmul, mv=np.matmul, dot=np.dot,
        where=np.where, clone=np.copy,
    )
    return refs


# -- the records ------------------------------------------------------------------------------

class OpInfo:
    """One op's entry: samples, public names, reference, autograd support, variants,
    known skips.  Cheap to make; the reference is resolved on first use."""

    def __init__(self, op, samples):
        self.op = op
        self.name = op.name
        self.samples = list(samples or [])
        self.tags = op.tags

    def __repr__(self):
        return f"<OpInfo {self.name}: {len(self.samples)} samples>"

    # registry facts
    @property
    def autograd(self):
        """'formula', 'decomposition' (its sub-ops record), 'nondifferentiable', or '' for
        ops that take no tensor (nothing to differentiate)."""
        op = self.op
        if not any(a.type.startswith("Tensor") for a in op.schema.args):
            return ""
        if not op.differentiable:
            return "nondifferentiable"
        if op.formulas is not None:
            return "formula"
        if op.decomposition is not None or op.core_impl is not None:
            return "decomposition"
        return ""

    @property
    def supports_autograd(self):
        return self.autograd in ("formula", "decomposition")

    @property
    def inplace(self):
        """The in-place variant `<name>_` (an op of its own), if any."""
        if self.name.endswith("_") or "::" in self.name:
            return None
        return OPS.get(self.name + "_")

    @property
    def supports_out(self):
        return bool(self.op.options.get("out"))

    @property
    def data_dependent(self):
        return "dynamic_output_shape" in self.tags or self.name in DATA_DEPENDENT

    @property
    def random(self):
        """Results that are not reproducible (random, or uninitialized memory): checked by
        shape and dtype only."""
        return "random" in self.tags or self.name in UNINITIALIZED

    def public_names(self):
        """Where users reach the op: mindtorch.x, Tensor.x, linalg.x, special.x,
        nn.functional.x (private and plugin ops have none)."""
        op, name = self.op, self.name
        if name.startswith("_") or "::" in name:
            return []
        names = []
        if op.options.get("function", True):
            names.append(f"mindtorch.{name}")
        if op.options.get("method", True):
            names.append(f"Tensor.{name}")
        for module in op.options.get("modules", ()):
            prefix = module.rpartition(".")[2] + "_"
            public = op.options.get("public_name") or name.removeprefix(prefix)
            names.append(f"{module}.{public}")
        return names

    def dtypes(self):
        """Declared dtypes, else those of the samples' first tensor argument (built on the
        cpu, so this needs the cpu backend)."""
        if self.name in DTYPES:
            return frozenset(DTYPES[self.name])
        import mindtorch
        found = set()
        for i, sample in enumerate(self.samples):
            mindtorch.manual_seed(i)
            args, kwargs = sample("cpu")
            t = next(iter(_tensors((args, kwargs))), None)
            if t is not None:
                found.add(t.dtype)
        return frozenset(found)

    def domain(self):
        """(low, high) where the op's first floating input is valid, or None."""
        base = self.name[:-1] if self.name.endswith("_") else self.name
        return DOMAINS.get(self.name) or DOMAINS.get(base)

    def invariant(self, result):
        """result as compared (see INVARIANT_OUTPUTS)."""
        f = INVARIANT_OUTPUTS.get(self.name)
        return result if f is None else f(result)

    def nondifferentiable_args(self):
        return NONDIFFERENTIABLE_ARGS.get(self.name, ())

    def tolerance(self, dtype):
        return TOLERANCES.get(self.name, {}).get(str(dtype).removeprefix("torch."))

    def skip_reason(self, check, device=None):
        return _lookup(SKIPS, self.name, check, device)

    def xfail_reason(self, check, device=None):
        return _lookup(XFAILS, self.name, check, device)

    # references
    def torch_reference(self, torch):
        """The PyTorch callable this op is compared with, or None."""
        override = TORCH_REFERENCES.get(self.name)
        if callable(override):
            return override(torch)
        if override is not None:
            return _dotted(torch, override)
        op, name = self.op, self.name
        if "::" in name:
            return None
        places = []
        if op.options.get("function", True):
            places.append(name)
        for module in op.options.get("modules", ()):
            prefix = module.rpartition(".")[2] + "_"
            places.append(f"{module}.{op.options.get('public_name') or name.removeprefix(prefix)}")
        if op.options.get("method", True):
            places.append(f"Tensor.{name}")
        # last, PyTorch's ATen operator of the same name (internal ops, and public names
        # torch only has there, e.g. Tensor.gelu_)
        for place in places + [f"ops.aten.{name}"]:
            fn = _dotted(torch, place)
            if fn is not None:
                return fn
        return None

    def numpy_reference(self):
        return _numpy_references().get(self.name)


def _lookup(table, name, check, device):
    for key in ((name, check, device), (name, "*", device), (name, check), (name, "*")):
        if key in table:
            return table[key]
    return None


def _dotted(root, path):
    obj = root
    for part in path.split("."):
        try:
            obj = getattr(obj, part)
        except (AttributeError, RuntimeError):
            return None
    return obj


def _tensors(x):
    import mindtorch
    if isinstance(x, mindtorch.Tensor):
        yield x
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from _tensors(v)
    elif isinstance(x, dict):
        for v in x.values():
            yield from _tensors(v)


_DB = {}


def op_db():
    """{op name: OpInfo} for every op in the registry (plugin ops included), made once."""
    from . import samples_for
    if len(_DB) != len(OPS):
        for name, op in OPS.items():
            if name not in _DB:
                _DB[name] = OpInfo(op, samples_for(op))
    return _DB


def opinfo(name):
    return op_db()[name]


def reload_samples():
    """Re-read the family modules (after editing samples in a running session)."""
    from . import FAMILIES, SAMPLES, __name__ as pkg
    SAMPLES.clear()
    for family in FAMILIES:
        SAMPLES.update(importlib.reload(importlib.import_module(f"{pkg}.{family}")).SAMPLES)
    _DB.clear()
