"""What PyTorch's cpu kernels refuse of its "barebones" dtypes (uint16/32/64 and the float8
types): most of its kernels are compiled for the usual dtypes only, and raise
'"<kernel>" not implemented for '<dtype>'' for the others.  The numpy kernels here could
compute them, but a program that runs under mindtorch and fails under PyTorch is not
PyTorch's program: they refuse alike, naming PyTorch's kernel.

Pointwise kernels (kernels/pointwise.py's unary/binary) test their computation dtype
against POINTWISE (one slot read when it is not a limited dtype); the other kernels named
in BY_SELF are wrapped (kernels/__init__.py) to test their dtype argument or their first
tensor's dtype.  (sum, mm and addmm, whose kernels are on training's hot path, are not
wrapped: they test the dtypes PyTorch refuses -- float8 sums, uint16/32/64 / e8m0fnu
products -- inline, behind one slot read; nor is index_put, which core decompositions
use on dtypes PyTorch's own paths take, e.g. fill_diagonal_ of uint16: PyTorch refuses
x[index_tensor] = v of uint16/32/64 and e8m0fnu.)
"""
from mindtorch import Tensor
from mindtorch import _dtype as D

U = frozenset((D.uint16, D.uint32, D.uint64))
F = frozenset(D.FLOAT8)
UF = U | F
# the float8 types without infinities (isfinite's kernel lacks them; isinf's e8m0fnu too)
_NO_INF = frozenset((D.float8_e4m3fn, D.float8_e4m3fnuz, D.float8_e5m2fnuz))

_VML = ("exp", "log", "log1p", "expm1", "sqrt", "sin", "cos", "tan", "tanh", "asin", "acos",
        "atan", "log2", "log10", "erf", "floor", "ceil", "trunc", "round")
_CPU = ("sinh", "cosh", "asinh", "acosh", "atanh", "reciprocal", "rsqrt", "signbit",
        "angle", "copysign", "xlogy", "atan2")

# op: (refused dtypes, PyTorch's kernel name) -- by the dtype the op computes in
POINTWISE = {
    **{n: (F, f"{n}_vml_cpu") for n in _VML},
    **{n: (F, f"{n}_cpu") for n in _CPU},
    "sigmoid": (F, "sigmoid_cpu_reduced_float"),
    "abs": (U | {D.float8_e8m0fnu}, "abs_cpu"),
    "sgn": (UF, "sign_cpu"), "sign": (UF, "sign_cpu"), "neg": (UF, "neg_cpu"),
    "relu": (UF, "clamp_min_scalar_cpu"), "logical_not": (UF, "logical_not_cpu"),
    "bitwise_not": (UF, "bitwise_not_cpu"), "frac": (UF, "frac_cpu"),
    "isinf": (_NO_INF | {D.float8_e8m0fnu}, "isinf"), "isfinite": (_NO_INF, "isfinite"),
    "add": (UF, "add_stub"), "sub": (UF, "add_stub"),
    "remainder": (UF, "remainder_cpu"), "fmod": (UF, "fmod_cpu"),
    "maximum": (UF, "maximum_cpu"), "minimum": (UF, "minimum_cpu"),
    "lt": (UF, "lt_cpu"), "le": (UF, "le_cpu"), "gt": (UF, "gt_cpu"), "ge": (UF, "ge_cpu"),
    "logical_and": (UF, "logical_and_cpu"), "logical_or": (UF, "logical_or_cpu"),
    "logical_xor": (UF, "logical_xor_cpu"),
    "bitwise_and": (F, "bitwise_and_cpu"), "bitwise_or": (F, "bitwise_or_cpu"),
    "bitwise_xor": (F, "bitwise_xor_cpu"),
    "bitwise_left_shift": (UF, "lshift_cpu"), "bitwise_right_shift": (UF, "rshift_cpu"),
    "hypot": (UF, "hypot_cpu"), "nextafter": (UF, "nextafter_cpu"),
    "heaviside": (UF, "heaviside_cpu"), "gcd": (UF, "gcd_cpu"), "lcm": (UF, "lcm_cpu"),
    "pow": (UF, "pow"),
}
# fmax / fmin: the unsigned types reach PyTorch's maximum / minimum kernels
_FMAX = {"fmax": ("maximum_cpu", "fmax_cpu"), "fmin": ("minimum_cpu", "fmin_cpu")}
POINTWISE.update({n: (UF, names) for n, names in _FMAX.items()})

# float8 with a Python number or 0-dim tensor operand: PyTorch's reduced-float scalar path
# (the rounding divisions' kernels are named "div_floor" / "div_trunc" here)
_WITH_SCALAR = {"mul": "mul_cpu_reduced_float", "div": "div_cpu_reduced_float",
                "floor_divide": "div_floor_cpu_reduced_float",
                "div_floor": "div_floor_cpu_reduced_float",
                "div_trunc": "div_trunc_cpu_reduced_float"}
POINTWISE.update({"div": (F, "div_cpu"), "floor_divide": (UF, "div_floor_cpu"),
                  "div_floor": (UF, "div_floor_cpu"), "div_trunc": (UF, "div_trunc_cpu")})

# ops core decomposes that get a cpu kernel here, their decomposition behind the check
# (ops autograd never records: nothing changes for other dtypes)
DECOMPOSED = ("count_nonzero",)


def refuse(name, dtype):
    """PyTorch's NotImplementedError for kernel `name` on dtype."""
    return NotImplementedError(f'"{name}" not implemented for \'{D.scalar_type_name(dtype)}\'')


def _clamp(dt, args, kwargs):
    """clamp's kernel, by its bounds (numbers or tensors, one or both)."""
    low, high = ([*args[1:3], *kwargs.values()] + [None, None])[:2]
    if isinstance(low, Tensor) or isinstance(high, Tensor):
        name = "clamp_cpu" if low is not None and high is not None else \
            "maximum_cpu" if low is not None else "minimum_cpu"
    else:
        name = "clamp_scalar_cpu" if low is not None and high is not None else \
            "clamp_min_scalar_cpu" if low is not None else "clamp_max_scalar_cpu"
    return refuse(name, dt)


def _std_var(dt, args, kwargs):
    """std / var: PyTorch's cpu path for at most one output element checks the dtype
    itself, the others dispatch (an empty input is filled, unchecked: None)."""
    self = args[0]
    if not self.numel():
        return None
    dim = args[1] if len(args) > 1 else kwargs.get("dim")
    dims = range(self.dim()) if dim is None or dim == [] or dim == () else \
        [d % max(self.dim(), 1) for d in ([dim] if isinstance(dim, int) else dim)]
    outputs = 1
    for d, n in enumerate(self._shape):
        outputs *= 1 if d in dims else n
    if outputs <= 1:
        return RuntimeError(f"std_var_all: Unsupported dtype {D.scalar_type_name(dt)}")
    return refuse("std_cpu", dt)


def _lerp(dt, args, kwargs):
    weight = args[2] if len(args) > 2 else kwargs.get("weight")
    return refuse("lerp_kernel_tensor" if isinstance(weight, Tensor) else
                  "lerp_kernel_scalar", dt)


def _unique(dt, args, kwargs):
    dim = args[4] if len(args) > 4 else kwargs.get("dim")
    return refuse("unique" if dim is None else "unique_dim", dt)


def _index_select(dt, args, kwargs):
    """Only PyTorch's path for tensors of at most one dim dispatches on the dtype."""
    return refuse("index_select", dt) if args[0].dim() <= 1 else None


def _count_nonzero(dt, args, kwargs):
    """PyTorch counts over dims by summing a comparison: only dim=None dispatches."""
    dim = args[1] if len(args) > 1 else kwargs.get("dim")
    return refuse("nonzero_count_cpu", dt) if dim is None else None


def _scatter(dt, args, kwargs):
    src = args[3] if len(args) > 3 else kwargs.get("src")
    return refuse("scatter_gather_tensor_cpu" if isinstance(src, Tensor) else
                  "scatter_gather_scalar_cpu", dt)


# op: (refused dtypes, PyTorch's kernel name: a str, a (uint16/32/64's, float8's) pair or a
# function (dtype, args, kwargs) -> exception) -- by the computation dtype (by_self)
BY_SELF = {
    "amax": (UF, "max_values_cpu"), "amin": (UF, "min_values_cpu"),
    "argmax": (UF, "argmax_cpu"),
    "argmin": (UF, "argmin_cpu"), "max": (UF, "max_all"), "min": (UF, "min_all"),
    "_max_dim": (UF, "max_cpu"), "_min_dim": (UF, "min_cpu"),
    "cummax": (UF, "cummax_cpu"), "cummin": (UF, "cummin_cpu"),
    "cumsum": (F, "cumsum_out_cpu"), "cumprod": (F, "cumprod_out_cpu"),
    "prod": (F, "prod_out_cpu"), "norm": (F, "norm_cpu"),
    "flip": (UF, "flip_cpu"), "sort": (F, "sorting_kernel_method_name"),
    "topk": (UF, "topk_cpu"), "kthvalue": (UF, "kthvalue_cpu"),
    "median": (UF, "median_cpu"), "mode": (UF, "mode_cpu"),
    "masked_fill": (UF, "masked_fill"), "masked_select": (U, "masked_select"),
    "masked_scatter": (UF, "masked_scatter"), "index_select": (U, _index_select),
    "index_add": (UF, "index_add_"), "scatter_add": (UF, "scatter_gather_tensor_cpu"),
    "put": (UF, "take_put_cpu"),
    "triu": (UF, "triu"), "tril": (UF, "tril"), "bincount": (U, "bincount_cpu"),
    "dot": (UF, "dot"), "bmm": (UF, "bmm"), "histc": (UF, "aminmax_cpu"),
    "nonzero": (UF, "nonzero_count_cpu"), "lerp": (UF, _lerp),
    "nan_to_num": (F, "nan_to_num"), "eye": (U, "eye"), "mean": (F, "sum_cpu"),
    "neg": (UF, "neg_cpu"), "unique": (F, _unique), "round": (F, "round_vml_cpu"),
    "angle": (F, "angle_cpu"), "softmax": (F, "softmax_lastdim_kernel_impl"),
    "logsumexp": (F, "max_values_cpu"),
    "gather": (UF, ("scatter_gather_tensor_cpu", "gather_expanded_index")),
    "clamp": (UF, _clamp), "std": (F, _std_var), "var": (F, _std_var),
    "scatter": (UF, _scatter), "scatter_": (UF, _scatter),
    "index_copy": (UF, "index_copy_cpu"), "index_copy_": (UF, "index_copy_cpu"),
    "equal": (F, "equal_notnan_cpu"), "count_nonzero": (UF, _count_nonzero),
    "uniform_": (F, "check_uniform_bounds"), "normal_": (F, "normal_kernel_cpu"),
    "exponential_": (F, "exponential_cpu"),
}


def _scalar(x):
    return not isinstance(x, Tensor) or not x._shape


def check_pointwise(op, dt, operands=()):
    """Raise PyTorch's error if op's kernel does not compute dtype dt (a limited dtype).
    operands: a binary op's two (a number or 0-dim tensor second takes PyTorch's scalar
    path, which names other kernels; a number power 0 or 1 is a copy or a fill)."""
    if len(operands) == 2:
        if op == "pow" and not isinstance(operands[1], Tensor) and operands[1] in (0, 1):
            return
        if dt in F and op in _WITH_SCALAR and _scalar(operands[1]):
            raise refuse(_WITH_SCALAR[op], dt)
    refused, name = POINTWISE.get(op, (None, None))
    if refused is not None and dt in refused:
        raise refuse(name if type(name) is str else name[dt in F], dt)


def by_self(op, kernel):
    """kernel, refusing the dtypes PyTorch's kernel for op lacks (read off its first
    tensor argument, or its dtype= for factories)."""
    refused, name = BY_SELF[op]

    def check(args, kwargs):
        dt = _computation_dtype(args, kwargs)
        if dt is not None and dt._limited and dt in refused and _same_dtypes(op, args) \
                and _parsed(args, kwargs):
            error = _refusal(name, dt, args, kwargs)
            if error is not None:
                raise error

    if _takes_dtype(op):
        def run(*args, **kwargs):
            check(args, kwargs)
            return kernel(*args, **kwargs)
    else:  # (the first tensor decides: one slot read unless it is a limited dtype)
        def run(self, *args, **kwargs):
            if self.dtype._limited:
                check((self, *args), kwargs)
            return kernel(self, *args, **kwargs)
    run.__name__ = getattr(kernel, "__name__", op)
    run.__wrapped__ = kernel
    return run


def _takes_dtype(op):
    """Whether op has a dtype argument (or is a factory): its computation dtype may not
    be its first tensor's."""
    from mindtorch._ops import OPS
    args = OPS[op].schema.args
    return not args or not str(args[0].type).startswith("Tensor") or \
        any("ScalarType" in str(a.type) for a in args)


def _computation_dtype(args, kwargs):
    """A dtype argument (cumsum's, a factory's), else the first tensor's dtype."""
    first = None
    for a in (*args, *kwargs.values()):
        if type(a) is D.dtype:
            return a
        if first is None and isinstance(a, Tensor):
            first = a.dtype
    return first


def _refusal(name, dt, args, kwargs):
    if callable(name):
        return name(dt, args, kwargs)
    return refuse(name if type(name) is str else name[dt in F], dt)


def _same_dtypes(op, args):
    """dot / bmm / lerp / equal check their operands' dtypes agree (or promote them) before
    dispatching on them."""
    if op not in ("dot", "bmm", "lerp", "equal"):
        return True
    return len({a.dtype for a in args if isinstance(a, Tensor)}) == 1


def _parsed(args, kwargs):
    """Whether PyTorch's argument parser takes the Python ints (it refuses those beyond
    64 bits before any kernel: the kernel here raises its OverflowError)."""
    return all(-2 ** 63 <= a < 2 ** 64 for a in (*args, *kwargs.values()) if type(a) is int)
