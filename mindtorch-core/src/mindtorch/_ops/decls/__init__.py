"""Every op declaration, one module per family; importing this package declares them all."""
import importlib

FAMILIES = ("creation", "pointwise", "views", "views_public", "splitting", "view_copies",
            "indexing", "index_update", "scatter", "joining", "linalg", "random", "reduction", "norm", "reorder",
            "einsum", "activation", "special", "sorting", "factorization", "factorization_lu",
            "factorization_householder", "linalg_norms", "conv", "pooling", "resample", "sampling",
            "normalization", "layers", "layers_embedding", "loss", "loss_margin", "loss_ctc",
            "loss_linear", "pooling_fractional", "numerics", "factorization_spectral", "fft",
            "fft_stft", "resample_aa", "rnn", "static_shapes", "factorization_ldl", "compat",
            "double_backward")

for _family in FAMILIES:
    importlib.import_module(f"{__name__}.{_family}")

# In-place ops that PyTorch also exposes as functions (torch.sin_(x)); the rest are methods.
TORCH_INPLACE_FUNCTIONS = (
    "abs_ acos_ acosh_ arccos_ arccosh_ arcsin_ arcsinh_ arctan_ arctanh_ asin_ asinh_ atan_ "
    "atanh_ ceil_ clamp_ clamp_max_ clamp_min_ clip_ conj_physical_ cos_ cosh_ deg2rad_ erf_ "
    "erfc_ exp2_ exp_ expm1_ fix_ floor_ frac_ gcd_ i0_ lcm_ ldexp_ log10_ log1p_ log2_ log_ "
    "logit_ nan_to_num_ neg_ negative_ rad2deg_ reciprocal_ round_ rsqrt_ sigmoid_ sin_ sinc_ "
    "sinh_ sqrt_ square_ tan_ tanh_ trunc_ xlogy_").split()
from ..registry import OPS  # noqa: E402
for _name in TORCH_INPLACE_FUNCTIONS:
    if _name in OPS:
        OPS[_name].options["function"] = True
